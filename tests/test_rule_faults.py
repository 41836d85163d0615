"""A rule that divides by zero or reads a list at an index below 0 or past its end: the
checker cannot tell (the values come from play), so the engine says which rule broke, as a
RuleError naming its line, where Python raised its own error (a traceback in `simulate` and
`play`) or, for a negative index, silently read the list from its end."""

from __future__ import annotations

from pathlib import Path

import pytest

from compiler import cli
from compiler.api import load_game
from compiler.driver import check_rulebook
from dsl.runtime_base import RuleError, item

FAULTS = Path(__file__).resolve().parent / "games" / "faults.rules"


@pytest.mark.parametrize(("action", "message"), [
    ("A divides", r"^a division by zero \(the rule at .*faults\.rules:26\)$"),
    ("A reads mark 0", r"^index -1 is outside a list of 3 \(the rule at .*faults\.rules:29\)$"),
])
def test_a_rule_fault_is_a_rule_error_at_its_rule(action: str, message: str) -> None:
    state = load_game(str(FAULTS)).new_game()
    with pytest.raises(RuleError, match=message):
        state.apply_action(state.parse_action(action))


def test_an_index_within_the_list_reads_it() -> None:
    state = load_game(str(FAULTS)).new_game()
    state.apply_action(state.parse_action("A reads mark 1"))
    assert state.get("player.A.coins") == 2 + 5
    assert item([5, 6, 7], 2) == 7
    for index in (-1, 3):
        with pytest.raises(IndexError, match=f"index {index} is outside a list of 3"):
            item([5, 6, 7], index)


def test_simulate_reports_the_game_and_the_rule(capsys: pytest.CaptureFixture[str]) -> None:
    code = cli.main(["simulate", str(FAULTS), "-n", "3"])
    err = capsys.readouterr().err
    assert code == 1
    assert "Traceback" not in err
    assert "game 0 (seed 0): the rules broke after" in err
    assert "(the rule at " in err and "faults.rules:2" in err


def test_a_deck_rule_that_fails_on_a_deck_names_its_rule() -> None:
    """E0410's note finds the failing deck rule as a rule error in play does (rule_at)."""
    cases = Path(__file__).resolve().parent / "cases"
    compilation = check_rulebook(cases / "decks_rules_fail.rules")
    [failed] = [d for d in compilation.diagnostics.sorted() if d.code == "E0410"]
    [note] = failed.notes
    assert note.startswith("the rule that fails is at ")
    assert note.endswith("decks_rules_fail.rules:27")

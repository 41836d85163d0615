"""Player counts that depend on the options (`players 3..4 if mode == brawl`), on
tests/cases/players_by_option.rules: new_game and the command line refuse a count the options do
not allow, with the options in the message; without --players the tools seat the fewest the
options allow; an option of an enum type is given by its member's name."""

from __future__ import annotations

import json
import random
from pathlib import Path
from types import ModuleType

import pytest

from compiler import api, cli
from compiler.driver import check_rulebook
from compiler.pygen import load_python
from tests.playing import play_checked

RULES = Path(__file__).resolve().parent / "cases" / "players_by_option.rules"


@pytest.fixture(scope="module")
def game() -> ModuleType:
    compilation = check_rulebook(RULES)
    assert compilation.ok and compilation.model is not None
    return load_python(compilation.model)


def test_counts_follow_the_options(game: ModuleType) -> None:
    assert game.player_counts() == (2,)
    assert game.player_counts({"mode": "brawl"}) == (3, 4)
    assert game.player_counts({"mode": 1}) == (3, 4)
    assert game.INFO["players"] == (2, 4)


def test_new_game_refuses_a_count_the_options_do_not_allow(game: ModuleType) -> None:
    with pytest.raises(ValueError, match="duel_or_brawl with mode=duel is for 2 players, not 3"):
        game.new_game(players=3)
    with pytest.raises(ValueError, match="with mode=brawl is for 3-4 players, not 2"):
        game.new_game(players=2, options={"mode": "brawl"})
    with pytest.raises(ValueError, match="option 'mode' is one of duel, brawl, not 'melee'"):
        game.new_game(players=2, options={"mode": "melee"})
    with pytest.raises(ValueError, match="option 'mode' is one of duel, brawl, not 5"):
        game.new_game(players=2, options={"mode": 5})


@pytest.mark.parametrize("players", [3, 4])
def test_a_brawl_plays_to_the_end(game: ModuleType, players: int) -> None:
    state = game.new_game(seed=players, players=players, options={"mode": "brawl"})
    assert state.num_players == players
    play_checked(state, random.Random(players).choice, [], lambda s: None, 50)
    assert sorted(state.returns()).count(1) == 1


def test_the_tools_seat_the_fewest_the_options_allow(
        game: ModuleType, capsys: pytest.CaptureFixture[str]) -> None:
    assert api.seat_count(game, None, {"mode": "brawl"}) == 3
    assert api.seat_count(game, None, {}) == 2
    assert api.seat_count(game, 4, {"mode": "brawl"}) == 4
    assert api.seat_count(game, None, {"mode": "melee"}) == 2  # new_game says what is wrong
    rules = str(RULES)
    assert cli.main(["simulate", rules, "-n", "2", "--option", "mode=brawl", "--json"]) == 0
    assert set(json.loads(capsys.readouterr().out)["seats"]) == {"A", "B", "C"}
    assert cli.main(["simulate", rules, "-n", "1", "--players", "2", "--option",
                     "mode=brawl"]) == 2
    err = capsys.readouterr().err
    assert "with mode=brawl is for 3-4 players, not 2" in err and "Traceback" not in err
    assert cli.main(["simulate", rules, "-n", "1", "--players", "3"]) == 2
    assert "with mode=duel is for 2 players, not 3" in capsys.readouterr().err


def test_the_documented_header_is_the_fixtures() -> None:
    """docs/language.md's example of "Player counts that depend on the options" is the header
    of tests/cases/players_by_option.rules (comments aside), which compiles and plays above."""
    text = (RULES.parents[2] / "docs" / "language.md").read_text(encoding="utf-8")
    section = text.split("### Player counts that depend on the options", 1)[1]
    example = section.split("```rulecraft\n", 1)[1].split("```", 1)[0]

    def lines(source: str) -> list[str]:
        kept = [line.split("#", 1)[0].rstrip() for line in source.splitlines()]
        return [line for line in kept if line.strip()]

    fixture = lines(RULES.read_text(encoding="utf-8"))
    assert lines(example) == fixture[: len(lines(example))]


SEAT_F = """game seat_f { title "Seat F" players 3..6 }
card Role { v: int }
data Role { r1 { v: 1 } r2 { v: 2 } }
zone deck: Role ordered hidden
zone hand: Role secret per player
player { coins: int = 0 }
setup {
  for d in Role { create d into deck }
  if size(players) == 6 { F.coins = 1 }
  draw 1 from deck to hand[WHO]
  goto turn
}
phase turn { actor A  action go() { win A } }
"""


@pytest.mark.parametrize("who", ["F", "A"])
def test_a_seat_fewer_players_lack_is_refused_by_name_where_its_zone_or_field_is_read(
    tmp_path: Path, who: str
) -> None:
    """Seat F of a game for 3 to 6: its zones exist in every game (unused below 6 players),
    its fields do not. Read in a game of 3, it is a rule error naming it, where its card went
    to a zone no player has, or a field read failed with an IndexError. Named under a test of
    the count, it is fine."""
    rules = tmp_path / "seat_f.rules"
    rules.write_text(SEAT_F.replace("WHO", who), encoding="utf-8")
    compilation = check_rulebook(rules)
    assert compilation.ok and compilation.model is not None, compilation.diagnostics.sorted()
    game = load_python(compilation.model)
    assert game.new_game(seed=1, players=6).get(f"zone.hand.{who}") != []
    if who == "A":
        assert len(game.new_game(seed=1, players=3).get("zone.hand.A")) == 1
        return
    with pytest.raises(game.RuleError, match="the rules name F, who is not a seat of 3 players"):
        game.new_game(seed=1, players=3)

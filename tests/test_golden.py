"""Golden outputs: the compiler's Python and Markdown for fixed rulebooks, and the pictures of
their grids (SVG), byte for byte.

Refresh with `python -m pytest tests/test_golden.py --update-golden` and review the diff.
"""

from __future__ import annotations

import importlib.util
import random
import sys
from pathlib import Path
from types import ModuleType

import pytest

from compiler.docgen import generate_docs
from compiler.driver import check_rulebook
from compiler.grid_diagram import grid_pictures
from compiler.pygen import generate_python

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = ROOT / "tests" / "golden"
CASES = {
    "mini": GOLDEN / "mini.rules",
}


def compile_outputs(rules: Path) -> tuple[str, str]:
    compilation = check_rulebook(rules.relative_to(ROOT) if rules.is_absolute() else rules)
    assert compilation.ok, [d.message for d in compilation.diagnostics.sorted()]
    assert compilation.model is not None
    return generate_python(compilation.model), generate_docs(compilation.model)


def compile_pictures(rules: Path) -> dict[str, str]:
    compilation = check_rulebook(rules.relative_to(ROOT))
    assert compilation.model is not None
    return grid_pictures(compilation.model)


@pytest.fixture(autouse=True)
def at_root(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)  # paths in headers are relative to the project root


@pytest.mark.parametrize("name", sorted(CASES))
def test_golden_outputs(name: str, update_golden: bool) -> None:
    python, docs = compile_outputs(CASES[name])
    pictures = compile_pictures(CASES[name])
    assert pictures, "the golden rulebook draws a grid"
    for file, text in [(f"{name}.py", python), (f"{name}.md", docs), *sorted(pictures.items())]:
        path = GOLDEN / file
        if update_golden:
            path.write_text(text, encoding="utf-8")
        assert path.read_text(encoding="utf-8") == text, (
            f"{path} differs from the compiler's output; rerun with --update-golden and review"
        )


def test_output_is_deterministic() -> None:
    rules = ROOT / "rulebooks" / "dynasties" / "dynasties.rules"
    first = compile_outputs(rules)
    second = compile_outputs(rules)
    assert first == second


def test_committed_generated_module_is_fresh() -> None:
    python, docs = compile_outputs(ROOT / "rulebooks" / "dynasties" / "dynasties.rules")
    assert (ROOT / "generated" / "dynasties.py").read_text(encoding="utf-8") == python
    assert (ROOT / "generated" / "docs" / "dynasties.md").read_text(encoding="utf-8") == docs


def load_golden_module() -> ModuleType:
    spec = importlib.util.spec_from_file_location("golden_mini", GOLDEN / "mini.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["golden_mini"] = module
    spec.loader.exec_module(module)
    return module


def test_hostile_text_stays_text() -> None:
    """Names and strings full of quotes, markup and code reach the outputs as inert text."""
    python, docs = compile_outputs(CASES["mini"])
    assert "__import__('os').system('x')" in python  # present, but only inside a literal
    module = load_golden_module()
    assert module.DEF_NAMES[1] == "<b>Blue</b> __import__('os').system('x')"
    assert module.INFO["title"] == 'Mini <b>Race</b> & "quotes" \\ {braces}'
    assert "<script>" not in docs and "&lt;script&gt;" in docs
    assert "<b>Blue</b>" not in docs and "&lt;b&gt;Blue&lt;/b&gt;" in docs
    # the Markdown table keeps its shape: no raw '|' or newline from card text inside a row
    rows = [line for line in docs.splitlines() if "Blue" in line and line.startswith("|")]
    assert rows and all(row.count(" | ") == rows[0].count(" | ") for row in rows)


def test_mini_game_plays_events_triggers_and_checkpoints() -> None:
    module = load_golden_module()
    outcomes = set()
    for seed in range(60):
        state = module.new_game(seed=seed)
        chooser = random.Random(seed)
        plies = 0
        while not state.is_terminal():
            state.apply_action(chooser.choice(state.legal_actions()))
            plies += 1
            # the trigger on 'scored' keeps 'announced' equal to the points cashed
            assert state.get("announced") == state.get("A.score") + state.get("B.score")
        assert plies <= 41
        outcomes.add(tuple(state.returns()))
        if state.returns() != [0.0, 0.0]:
            winner = "A" if state.returns()[0] > 0 else "B"
            assert state.get(f"{winner}.score") >= 3  # the checkpoint ended it at the target
    assert len(outcomes) >= 2


def test_int_parameters_and_grid_moves() -> None:
    module = load_golden_module()
    state = module.new_game(seed=1)
    texts = {str(a) for a in state.legal_actions()}
    assert {"A takes 1", "A takes 2", "A steps to B2"} <= texts
    state.apply_action(state.parse_action("A steps to B2"))
    state.apply_action(state.parse_action("B takes 2"))
    texts = {str(a) for a in state.legal_actions()}
    assert "A steps to A1" in texts and "A steps to C3" in texts  # diagonal neighbours
    with pytest.raises(module.IllegalAction, match="is not next to you"):
        state.apply_action(state.parse_action("A steps to B2"))
    assert state.get("cell.B2.marks.A") == 1

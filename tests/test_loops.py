"""`break` and `repeat N while C` as the generated module runs them (the checker's side is the
fixture tests/cases/stmt_break.rules)."""

from __future__ import annotations

from pathlib import Path

from compiler.api import load_game

RULES = """
game loops {
  title "Loops"
  players 2
}

state {
  pile: list of int = []
  sum_before_break: int = 0
  runs: int = 0
  nested: int = 0
  best: int? = 5
  narrowed: int = 0
}

setup {
  repeat 10 while size(pile) < 4 {
    pile = pile + [size(pile) + 1]
    runs += 1
  }
  for x in pile {
    if x == 3 { break }
    sum_before_break += x
  }
  for x in 1..3 {
    repeat 5 {
      nested += 1
      if nested == 2 * x { break }
    }
  }
  repeat 3 while best != none {
    narrowed += best
    best = none
  }
  goto play
}

phase play {
  on done { draw game }
}
"""


def test_break_and_repeat_while_run_as_written(tmp_path: Path) -> None:
    rules = tmp_path / "loops.rules"
    rules.write_text(RULES)
    state = load_game(str(rules)).new_game(seed=0)
    assert state.get("pile") == [1, 2, 3, 4]
    assert state.get("runs") == 4  # stopped by its condition, not by its count
    assert state.get("sum_before_break") == 1 + 2  # the loop left at 3
    assert state.get("nested") == 6  # the inner loop left at 2, 4, 6: the outer one went on
    assert state.get("narrowed") == 5 and state.get("best") is None  # one run, then none

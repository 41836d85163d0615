"""The three formats of diagnostics (DESIGN.md §3): the text a designer reads, with its caret
under the right characters, and the GitHub annotations a CI run shows, which carry the notes
and the help too."""

from __future__ import annotations

import json

from dsl.diagnostics import Diagnostic, render
from dsl.source import SourceFile, Span

SOURCE = SourceFile("g.rules", "phase turn {\n\tmove c to plaid[actor]\n}\n")
UNKNOWN = Diagnostic("E0101", Span("g.rules", 2, 12, 2, 17), "unknown zone 'plaid'",
                     notes=("zones are declared at g.rules:1:1", "100% sure, line 2"),
                     hint="did you mean 'played'?")


def test_the_caret_is_under_the_name_when_the_line_starts_with_a_tab() -> None:
    text = render([UNKNOWN], {"g.rules": SOURCE}, "text")
    shown, caret = text.splitlines()[1:3]
    assert shown == "2 |     move c to plaid[actor]"
    start = caret.index("^")
    assert shown[start:start + 5] == "plaid" and caret.count("^") == 5


def test_a_github_annotation_holds_the_notes_and_the_help_on_one_line() -> None:
    [annotation] = render([UNKNOWN], {}, "github").splitlines()
    assert annotation == (
        "::error file=g.rules,line=2,col=12,endLine=2,endColumn=17,title=E0101::"
        "[E0101] unknown zone 'plaid'%0Anote: zones are declared at g.rules:1:1"
        "%0Anote: 100%25 sure, line 2%0Ahelp: did you mean 'played'?"
    )


def test_a_github_file_property_is_escaped() -> None:
    diagnostic = Diagnostic("W0301", Span("a,b:c.rules", 1, 1, 1, 2), "never reached")
    [annotation] = render([diagnostic], {}, "github").splitlines()
    assert annotation.startswith("::warning file=a%2Cb%3Ac.rules,line=1,")


def test_json_keeps_every_field() -> None:
    [item] = json.loads(render([UNKNOWN], {}, "json"))
    assert item == {"code": "E0101", "severity": "error", "file": "g.rules", "line": 2,
                    "column": 12, "end_line": 2, "end_column": 17,
                    "message": "unknown zone 'plaid'",
                    "notes": ["zones are declared at g.rules:1:1", "100% sure, line 2"],
                    "hint": "did you mean 'played'?"}

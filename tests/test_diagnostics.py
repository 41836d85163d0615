"""Diagnostic fixtures, mypy-test style.

Every `tests/cases/*.rules` file is checked with `compiler.driver.check_rulebook`, and the
multiset of (line, code) pairs it produces must equal the one its comments announce:

    round = over  # E: E0201             one expected diagnostic on this line
    if x { ... }  # E: E0201 E0201       two on the same line
    zone discard: Chip  # E: W0304       warnings are listed the same way

Card sets and deck files that a fixture loads carry their own `# E:` comments (YAML comments),
and their diagnostics are compared by file, line and code the same way.

After its codes, a comment may give the message in full; a diagnostic of that line with one of
those codes must then have exactly that message:

    shuffle pile from top  # E: E0402 'shuffle' has no 'from' form: it is written ...

A fixture with no `# E:` comment must produce no diagnostic at all (not even a warning). A
line `# xfail: REASON` marks a fixture that exposes a known compiler bug: it runs as a strict
xfail, so it fails loudly once the bug is fixed and the marker can be removed.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from pathlib import Path

import pytest

from compiler.driver import check_rulebook
from dsl.codes import CODES
from dsl.diagnostics import Diagnostic

CASES = Path(__file__).resolve().parent / "cases"
FIXTURES = sorted(CASES.glob("*.rules"))
MIN_FIXTURES = 30

# Codes no fixture can trigger: E0000 is an internal compiler error (never expected), and
# unreadable (E0004), oversized (E0005) and too deeply nested (E0006) sources cannot be
# written as small annotated fixtures; test_robustness.py covers those three. An output that
# cannot be written (E0008) is no property of a rulebook; test_folders.py covers it.
# build-time codes: E0008 (writing), E0009 (stale output; test_folders.py), W0408 and W0409
# (card faces; tests/test_card_faces.py)
EXEMPT_FROM_FIXTURES = {"E0000", "E0004", "E0005", "E0006", "E0008", "E0009", "W0408",
                        "W0409"}

EXPECT = re.compile(
    r"#\s*E:\s*(?P<codes>[A-Z]\d{4}(?:\s+[A-Z]\d{4})*)(?:\s+(?P<message>\S.*?))?\s*$")
XFAIL = re.compile(r"^#\s*xfail:\s*(?P<reason>.+)$")

Key = tuple[str, int, str]  # file name, line, code


def expected_diagnostics(path: Path) -> Counter[Key]:
    expected: Counter[Key] = Counter()
    # Lines are counted at '\n' only, as the parser does ('\f' or U+2028 start no new line).
    for number, line in enumerate(path.read_text(encoding="utf-8").split("\n"), 1):
        match = EXPECT.search(line)
        if match:
            for code in match.group("codes").split():
                expected[(path.name, number, code)] += 1
    return expected


def expected_messages(path: Path) -> list[tuple[str, int, tuple[str, ...], str]]:
    """The messages the comments give: file name, line, the codes, the message."""
    found: list[tuple[str, int, tuple[str, ...], str]] = []
    for number, line in enumerate(path.read_text(encoding="utf-8").split("\n"), 1):
        match = EXPECT.search(line)
        if match and match.group("message"):
            codes = tuple(match.group("codes").split())
            found.append((path.name, number, codes, match.group("message")))
    return found


def xfail_reason(path: Path) -> str | None:
    for line in path.read_text(encoding="utf-8").split("\n"):
        match = XFAIL.match(line.strip())
        if match:
            return match.group("reason").strip()
    return None


def fixture_params() -> list[object]:
    params: list[object] = []
    for path in FIXTURES:
        reason = xfail_reason(path)
        marks = [pytest.mark.xfail(strict=True, reason=reason)] if reason else []
        params.append(pytest.param(path, id=path.stem, marks=marks))
    return params


def key_of(d: Diagnostic) -> Key:
    return (Path(d.span.file).name, d.span.line, d.code)


def describe(key: Key, found: list[Diagnostic]) -> str:
    file, line, code = key
    messages = [d.message for d in found if key_of(d) == key]
    title = CODES[code].title if code in CODES else "UNREGISTERED CODE"
    text = f"  {file} line {line}: {code} ({title})"
    if messages:
        text += "".join(f"\n      {d}" for d in dict.fromkeys(messages))
    return text


@pytest.mark.parametrize("path", fixture_params())
def test_fixture_diagnostics(path: Path) -> None:
    compilation = check_rulebook(path)
    expected = expected_diagnostics(path)
    for name in compilation.sources:
        if name.endswith(".yaml"):
            expected += expected_diagnostics(Path(name))
    for _file, _line, code in expected:
        assert code in CODES, f"{path.name}: '# E: {code}' names no registered code"
    found = compilation.diagnostics.sorted()
    actual: Counter[Key] = Counter(key_of(d) for d in found)
    if actual == expected:
        check_messages(path, compilation.sources, found)
        return
    missing = expected - actual
    unexpected = actual - expected
    report = [f"{path.name}: diagnostics differ from the '# E:' comments"]
    if missing:
        report.append("missing (expected but not reported):")
        report.extend(describe(k, found) for k in sorted(missing.elements()))
    if unexpected:
        report.append("unexpected (reported but not expected):")
        report.extend(describe(k, found) for k in sorted(unexpected.elements()))
    report.append("all reported:")
    report.extend(
        f"  {Path(d.span.file).name}:{d.span.line}:{d.span.column} {d.code} {d.message}"
        for d in found
    )
    pytest.fail("\n".join(report), pytrace=False)


def check_messages(path: Path, sources: Iterable[str], found: list[Diagnostic]) -> None:
    """Each message a comment gives is the message of a diagnostic of its line and codes."""
    wanted = list(expected_messages(path))
    for name in sources:
        if name.endswith(".yaml"):
            wanted += expected_messages(Path(name))
    for file, line, codes, message in wanted:
        messages = [d.message for d in found
                    if Path(d.span.file).name == file and d.span.line == line and d.code in codes]
        if message not in messages:
            pytest.fail(f"{file} line {line}: no {' or '.join(codes)} with the message\n"
                        f"      {message}\n  reported:"
                        + "".join(f"\n      {m}" for m in messages), pytrace=False)


def test_there_are_enough_fixtures() -> None:
    assert len(FIXTURES) >= MIN_FIXTURES, (
        f"only {len(FIXTURES)} fixtures in {CASES}; the suite must keep at least {MIN_FIXTURES}"
    )


def test_a_valid_minimal_fixture_exists() -> None:
    path = CASES / "valid_minimal.rules"
    assert path.is_file()
    assert not expected_diagnostics(path)
    assert check_rulebook(path).diagnostics.sorted() == []


def test_every_code_is_exercised_by_a_fixture() -> None:
    data_files = sorted(CASES.rglob("*.cards.yaml")) + sorted(CASES.rglob("*.deck.yaml"))
    exercised = {code for path in [*FIXTURES, *data_files]
                 for _file, _line, code in expected_diagnostics(path)}
    assert CODES.keys() >= EXEMPT_FROM_FIXTURES, "an exemption names an unknown code"
    wanted = set(CODES) - EXEMPT_FROM_FIXTURES
    missing = sorted(wanted - exercised)
    assert not missing, f"no fixture in tests/cases expects: {', '.join(missing)}"
    assert not exercised & {"E0000"}, "no fixture may expect an internal compiler error"


def test_xfail_fixtures_say_why() -> None:
    for path in FIXTURES:
        text = path.read_text(encoding="utf-8")
        if "xfail" in text.split("\n", 1)[0].lower():
            assert xfail_reason(path), f"{path.name}: the xfail line needs a reason"


def diagnostic_starting(path: Path, message: str) -> Diagnostic:
    (found,) = [d for d in check_rulebook(path).diagnostics.sorted()
                if d.message.startswith(message)]
    return found


def test_words_after_reveal_are_one_error_that_says_how_to_show_one_player() -> None:
    found = diagnostic_starting(CASES / "stmt_trailing_words.rules", "'reveal' has no 'face'")
    span = found.span
    assert (span.line, span.column, span.end_line, span.end_column) == (34, 25, 34, 32)
    assert found.hint is not None
    assert ("'reveal X to p' shows them to player p only, and 'reveal X to allies(p)' to p's "
            "team, until they move") in found.hint
    assert found.notes == ("the 'reveal' statement ends before 'face': newlines do not end "
                           "statements, so the rest of the line was read as statements of its "
                           "own, which do nothing",)


def test_let_none_says_how_to_start_the_variable() -> None:
    found = diagnostic_starting(CASES / "types_let_none.rules", "'starter'")
    assert found.hint is not None
    assert "'let x = first(p for p in players where ...)'" in found.hint
    assert "'x: player? = none' in 'state { }'" in found.hint


def test_an_unknown_phase_is_underlined_alone() -> None:
    """`goto ply`: the name is what is wrong, not the word goto."""
    path = CASES / "names_unknown_phase.rules"
    [error] = [d for d in check_rulebook(path).diagnostics.items if d.code == "E0105"]
    line = path.read_text(encoding="utf-8").split("\n")[error.span.line - 1]
    assert line[error.span.column - 1:error.span.end_column - 1] == "ply"

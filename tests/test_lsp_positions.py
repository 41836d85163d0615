"""Where the language server's places meet the protocol's (compiler.lsp.positions): the
compiler counts characters, the protocol UTF-16 code units (or UTF-8, or UTF-32, as agreed at
initialize), and an emoji is one character and two UTF-16 units (Columns); the compiler names
a file by its resolved path, the client by the URI it opened, maybe through a link (Uris)."""

from __future__ import annotations

from pathlib import Path

from lsprotocol import types as lsp
from pygls.workspace import PositionCodec

from compiler.lsp.positions import Columns, Uris
from dsl.source import Span, resolved

LINE = 'require "🐉" != "" and c.kidn == creature'


def _columns(tmp_path: Path, encoding: lsp.PositionEncodingKind) -> tuple[Columns, Path]:
    path = tmp_path / "g.rules"
    return Columns(PositionCodec(encoding), {resolved(path): f"game g\r\n{LINE}\r\n"}), path


def test_a_span_after_an_emoji_is_counted_in_utf16_units(tmp_path: Path) -> None:
    columns, path = _columns(tmp_path, lsp.PositionEncodingKind.Utf16)
    start = LINE.index("kidn") + 1
    found = columns.range(Span(str(path), 2, start, 2, start + 4))
    units = LINE.encode("utf-16-le")
    begin, end = found.start.character, found.end.character
    assert units[2 * begin:2 * end].decode("utf-16-le") == "kidn"
    assert (found.start.line, begin) == (1, start)  # one more than the characters before it
    # and back: the protocol's position is the character's
    assert columns.at(path, found.start) == (2, start)
    assert columns.span(path, found) == Span(str(path), 2, start, 2, start + 4)


def test_the_agreed_encoding_counts(tmp_path: Path) -> None:
    start = LINE.index("kidn") + 1
    for encoding, before in ((lsp.PositionEncodingKind.Utf8, len(LINE[:start - 1].encode())),
                             (lsp.PositionEncodingKind.Utf32, start - 1)):
        columns, path = _columns(tmp_path, encoding)
        assert columns.position(path, 2, start).character == before, encoding
        assert columns.at(path, lsp.Position(line=1, character=before)) == (2, start)


def test_a_position_inside_an_emoji_or_past_the_end(tmp_path: Path) -> None:
    columns, path = _columns(tmp_path, lsp.PositionEncodingKind.Utf16)
    dragon = LINE.index("🐉")
    # between the two halves of the surrogate pair: the character after the emoji
    assert columns.at(path, lsp.Position(line=1, character=dragon + 1)) == (2, dragon + 2)
    # past the line's end (and past the file's), as far past it as the position says
    end = len(LINE.encode("utf-16-le")) // 2
    assert columns.at(path, lsp.Position(line=1, character=end + 3)) == (2, len(LINE) + 4)
    assert columns.position(path, 2, len(LINE) + 4).character == end + 3
    assert columns.at(path, lsp.Position(line=7, character=2)) == (8, 3)


def test_a_file_not_open_is_read_from_the_check_or_the_disk(tmp_path: Path) -> None:
    cards = tmp_path / "g.cards.yaml"
    cards.write_text("- name: \"🌊 Tidehaven\"\n", encoding="utf-8")
    codec = PositionCodec(lsp.PositionEncodingKind.Utf16)
    on_disk = Columns(codec, {})
    assert on_disk.position(cards, 1, 12).character == 12
    checked = Columns(codec, {}, lambda path: "- name: Tidehaven\n" if path == resolved(cards)
                      else None)
    assert checked.position(cards, 1, 12).character == 11


def test_a_file_is_named_as_the_client_opened_it(tmp_path: Path) -> None:
    """Through a symbolic link: the URI a document was opened with; another file of the
    folder opened through the link, under the link; a file elsewhere, by its own path."""
    (tmp_path / "real" / "dojo").mkdir(parents=True)
    (tmp_path / "link").symlink_to(tmp_path / "real", target_is_directory=True)
    elsewhere = tmp_path / "elsewhere.rules"
    rules, cards = (tmp_path / "link" / "dojo" / name for name in ("g.rules", "g.cards.yaml"))
    for path in (rules, cards, elsewhere):
        path.write_text("", encoding="utf-8")
    opened = Uris([rules.as_uri()], [])
    assert opened.of(resolved(rules)) == rules.as_uri()
    assert opened.of(resolved(cards)) == cards.as_uri()
    assert opened.of(elsewhere) == resolved(elsewhere).as_uri()
    folder = Uris([], [(tmp_path / "link").as_uri()])
    assert folder.of(resolved(cards)) == cards.as_uri()

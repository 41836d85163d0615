"""`rulecraft lsp` driven by a real LSP client over stdio (pytest-lsp): open, edit, diagnostics
that appear and clear, hover, definition, references, completion, rename, symbols, semantic
tokens, code actions and formatting, on a copy of a shipped game."""

from __future__ import annotations

import asyncio
import os
import shutil
import sys
from collections.abc import AsyncIterator, Sequence
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types as lsp
from pygls.exceptions import JsonRpcException
from pytest_lsp import ClientServerConfig, LanguageClient

ROOT = Path(__file__).resolve().parent.parent
GAME = ROOT / "rulebooks" / "dojo"

pytestmark = pytest.mark.asyncio


@pytest_lsp.fixture(config=ClientServerConfig(
    server_command=[sys.executable, "-m", "compiler", "lsp"],
    server_env={**os.environ, "PYTHONPATH": str(ROOT)}))
async def client(lsp_client: LanguageClient) -> AsyncIterator[None]:
    await lsp_client.initialize_session(lsp.InitializeParams(
        capabilities=lsp.ClientCapabilities()))
    yield
    await lsp_client.shutdown_session()


@pytest.fixture
def game(tmp_path: Path) -> Path:
    folder = tmp_path / "dojo"
    shutil.copytree(GAME, folder)
    return folder


def _uri(path: Path) -> str:
    return path.resolve().as_uri()


def _find(text: str, needle: str, nth: int = 0) -> lsp.Position:
    """The position of the nth occurrence of needle, its character counted in UTF-16 code
    units as the protocol counts them."""
    index = -1
    for _ in range(nth + 1):
        index = text.index(needle, index + 1)
    line = text.count("\n", 0, index)
    before = text[text.rfind("\n", 0, index) + 1:index]
    return lsp.Position(line=line, character=len(before.encode("utf-16-le")) // 2)


def _apply(text: str, edits: Sequence[lsp.TextEdit]) -> str:
    """The text with one-line edits made, their characters read as UTF-16 code units."""
    lines = text.split("\n")
    for edit in sorted(edits, key=lambda e: (e.range.start.line, e.range.start.character),
                       reverse=True):
        start, end = edit.range.start, edit.range.end
        assert start.line == end.line
        units = lines[start.line].encode("utf-16-le")
        lines[start.line] = (units[:2 * start.character] + edit.new_text.encode("utf-16-le")
                             + units[2 * end.character:]).decode("utf-16-le")
    return "\n".join(lines)


async def _open(client: LanguageClient, path: Path) -> str:
    uri = _uri(path)
    client.diagnostics.pop(uri, None)
    client.text_document_did_open(lsp.DidOpenTextDocumentParams(text_document=lsp.TextDocumentItem(
        uri=uri, language_id="rulecraft", version=1, text=path.read_text(encoding="utf-8"))))
    await _diagnostics_of(client, uri)
    return uri


async def _diagnostics_of(client: LanguageClient, uri: str) -> None:
    """Wait for the diagnostics of uri (those of the rulebook's other files come too). The
    client keeps every notification in `client.diagnostics`, so one that came while we were
    not waiting (the rulebook's files are published in a burst) is not missed; the callers
    drop uri's old entry before the message that makes the server publish it again."""
    # Polled: a notification that came after the test looked and before a waiter for the next
    # one was registered would be missed, and the wait last until the guard. The guard is not
    # a speed test: a server that never answers fails the test, not CI.
    loop = asyncio.get_running_loop()
    deadline = loop.time() + 120
    while uri not in client.diagnostics:
        assert loop.time() < deadline, f"no diagnostics for {uri}"
        await asyncio.sleep(0.01)


async def _edit(client: LanguageClient, uri: str, text: str, version: int) -> None:
    client.diagnostics.pop(uri, None)
    client.text_document_did_change(lsp.DidChangeTextDocumentParams(
        text_document=lsp.VersionedTextDocumentIdentifier(uri=uri, version=version),
        content_changes=[lsp.TextDocumentContentChangeWholeDocument(text=text)]))
    await _diagnostics_of(client, uri)


async def test_edit_brings_diagnostics_and_a_fix_clears_them(client: LanguageClient,
                                                           game: Path) -> None:
    rules = game / "dojo.rules"
    text = rules.read_text(encoding="utf-8")
    uri = await _open(client, rules)
    assert list(client.diagnostics[uri]) == []
    # a misspelt field: the CLI's code, span and "did you mean" hint
    at = text.index("bonus_attack: int per card")
    use = text.index(".bonus_attack", at) + 1
    broken = text[:use] + "bonus_atack" + text[use + len("bonus_attack"):]
    await _edit(client, uri, broken, 2)
    found = client.diagnostics[uri]
    assert [d.code for d in found] == ["E0104"]
    assert "did you mean 'bonus_attack'" in found[0].message
    assert found[0].range.start == _find(broken, "bonus_atack")
    actions = await client.text_document_code_action_async(lsp.CodeActionParams(
        text_document=lsp.TextDocumentIdentifier(uri=uri), range=found[0].range,
        context=lsp.CodeActionContext(diagnostics=found)))
    assert actions and actions[0].title == "Change to 'bonus_attack'"  # type: ignore[union-attr]
    await _edit(client, uri, text, 3)
    assert list(client.diagnostics[uri]) == []


@pytest.mark.soak  # the default tier stays under a minute; CI runs the soak tier
async def test_hover_definition_references_rename(client: LanguageClient, game: Path) -> None:
    rules = game / "dojo.rules"
    text = rules.read_text(encoding="utf-8")
    uri = await _open(client, rules)
    function = text.index("function ") + len("function ")
    name = text[function:text.index("(", function)]
    use = _find(text, name + "(", 1)
    doc = lsp.TextDocumentIdentifier(uri=uri)

    hover = await client.text_document_hover_async(lsp.HoverParams(text_document=doc,
                                                                   position=use))
    assert hover is not None and "function" in hover.contents.value  # type: ignore[union-attr]

    found = await client.text_document_definition_async(lsp.DefinitionParams(
        text_document=doc, position=use))
    assert isinstance(found, lsp.Location)
    assert found.range.start == _find(text, name + "(")

    refs = await client.text_document_references_async(lsp.ReferenceParams(
        text_document=doc, position=use,
        context=lsp.ReferenceContext(include_declaration=True)))
    assert refs is not None and len(refs) == text.count(name + "(")

    edit = await client.text_document_rename_async(lsp.RenameParams(
        text_document=doc, position=use, new_name="renamed_function"))
    assert edit is not None and edit.changes is not None
    assert len(edit.changes[uri]) == text.count(name + "(")

    symbols = await client.text_document_document_symbol_async(lsp.DocumentSymbolParams(
        text_document=doc))
    assert symbols and any(s.name == name for s in symbols)

    tokens = await client.text_document_semantic_tokens_full_async(lsp.SemanticTokensParams(
        text_document=doc))
    assert tokens is not None and len(tokens.data) > 1000


@pytest.mark.soak  # a server of its own each: the default tier keeps two
async def test_completion_after_a_dot_and_elsewhere(client: LanguageClient, game: Path) -> None:
    rules = game / "dojo.rules"
    text = rules.read_text(encoding="utf-8")
    uri = await _open(client, rules)
    doc = lsp.TextDocumentIdentifier(uri=uri)
    dot = _find(text, ".bonus_attack")
    after = lsp.Position(line=dot.line, character=dot.character + 1)
    fields = await client.text_document_completion_async(lsp.CompletionParams(
        text_document=doc, position=after))
    assert fields is not None
    labels = {item.label for item in fields.items}  # type: ignore[union-attr]
    assert "bonus_attack" in labels and "phase" not in labels
    top = await client.text_document_completion_async(lsp.CompletionParams(
        text_document=doc, position=lsp.Position(line=0, character=0)))
    assert top is not None
    items = {item.label: item for item in top.items}  # type: ignore[union-attr]
    # Keywords where the grammar allows them: a declaration's at the top, not a statement's.
    assert {"phase", "function", "size"} <= items.keys() and "move" not in items
    assert items["size"].detail == "size(zone or list) -> int"
    statement = _find(text, "turn_player.ended = false")
    inside = await client.text_document_completion_async(lsp.CompletionParams(
        text_document=doc, position=statement))
    assert inside is not None
    labels = {item.label for item in inside.items}  # type: ignore[union-attr]
    assert {"move", "let", "goto", "turn_player"} <= labels and "phase" not in labels
    # `turn_player.` being typed: the text does not parse, the last check knew the type.
    typed = text.replace("turn_player.ended = false", "turn_player.\n    turn_player.ended = false",
                         1)
    client.text_document_did_change(lsp.DidChangeTextDocumentParams(
        text_document=lsp.VersionedTextDocumentIdentifier(uri=uri, version=2),
        content_changes=[lsp.TextDocumentContentChangeWholeDocument(text=typed)]))
    after = lsp.Position(line=statement.line, character=statement.character + 12)
    fields = await client.text_document_completion_async(lsp.CompletionParams(
        text_document=doc, position=after))
    assert fields is not None
    labels = {item.label for item in fields.items}  # type: ignore[union-attr]
    assert "actions" in labels and "kind" not in labels


@pytest.mark.soak  # a server of its own each: the default tier keeps two
async def test_completion_of_the_type_the_place_expects(client: LanguageClient,
                                                        game: Path) -> None:
    rules = game / "dojo.rules"
    text = rules.read_text(encoding="utf-8")
    uri = await _open(client, rules)
    doc = lsp.TextDocumentIdentifier(uri=uri)

    async def labels(at: lsp.Position, of: lsp.TextDocumentIdentifier = doc) -> list[str]:
        found = await client.text_document_completion_async(lsp.CompletionParams(
            text_document=of, position=at))
        assert isinstance(found, lsp.CompletionList)
        return [item.label for item in sorted(found.items, key=lambda i: i.sort_text or "")]

    moved = _find(text, "move c to ")
    zones = await labels(lsp.Position(line=moved.line, character=moved.character + 10))
    assert set(zones) == {"deck", "hand", "homelands", "creatures", "attachments", "locations",
                          "facedown", "discard"}
    kinds = ["creature", "item", "facedown_item", "attachment", "location", "homeland"]
    # a line being typed, which does not parse: the last check that did types `a.kind`
    anchor = "    move a to discard[a.owner]\n"
    half = text.replace(anchor, anchor + "    if a.kind == \n", 1)
    await _edit(client, uri, half, 2)
    assert [d.code for d in client.diagnostics[uri]][:1] == ["E0001"]
    typed = _find(half, anchor)
    found = await labels(lsp.Position(line=typed.line + 1, character=len("    if a.kind == ")))
    assert found[:len(kinds)] == kinds and "none" in found
    # a card set: an enum field's values
    cards = game / "starter.cards.yaml"
    cards_uri = await _open(client, cards)
    kind = _find(cards.read_text(encoding="utf-8"), "kind: ")
    found = await labels(lsp.Position(line=kind.line, character=kind.character + 6),
                         lsp.TextDocumentIdentifier(uri=cards_uri))
    assert sorted(found) == sorted(kinds)


@pytest.mark.soak  # a server of its own each: the default tier keeps two
async def test_quick_fix_in_a_card_set_replaces_the_name_alone(client: LanguageClient,
                                                              game: Path) -> None:
    """A card set's misspelt field: the diagnostic covers `cot: 5`, the fix only `cot`."""
    cards = game / "starter.cards.yaml"
    text = cards.read_text(encoding="utf-8")
    uri = await _open(client, cards)
    broken = text.replace("    cost: 5", "    cot: 5", 1)
    await _edit(client, uri, broken, 2)
    found = [d for d in client.diagnostics[uri] if "did you mean" in d.message]
    assert [d.code for d in found] == ["E0104"]
    actions = await client.text_document_code_action_async(lsp.CodeActionParams(
        text_document=lsp.TextDocumentIdentifier(uri=uri), range=found[0].range,
        context=lsp.CodeActionContext(diagnostics=found)))
    assert actions is not None
    fixes = {}
    for action in actions:
        assert isinstance(action, lsp.CodeAction) and action.edit is not None
        assert action.edit.changes is not None
        (edit,) = action.edit.changes[uri]
        lines = broken.split("\n")
        start, end = edit.range.start, edit.range.end
        assert start.line == end.line
        line = lines[start.line]
        lines[start.line] = line[:start.character] + edit.new_text + line[end.character:]
        fixes[action.title] = "\n".join(lines)
    assert fixes["Change to 'cost'"] == text


@pytest.mark.soak  # a server of its own each: the default tier keeps two
async def test_a_deck_card_jumps_to_its_card_set(client: LanguageClient, game: Path) -> None:
    deck = sorted((game / "decks").glob("*.deck.yaml"))[0]
    text = deck.read_text(encoding="utf-8")
    uri = await _open(client, deck)
    card = text.split("cards:\n", 1)[1].split(":", 1)[0].strip()
    entry = _find(text, f"\n  {card}:")
    at = lsp.Position(line=entry.line + 1, character=4)
    found = await client.text_document_definition_async(lsp.DefinitionParams(
        text_document=lsp.TextDocumentIdentifier(uri=uri), position=at))
    assert isinstance(found, lsp.Location)
    assert found.uri == _uri(game / "starter.cards.yaml")
    cards = (game / "starter.cards.yaml").read_text(encoding="utf-8")
    line = cards.splitlines()[found.range.start.line]
    assert card in line
    hover = await client.text_document_hover_async(lsp.HoverParams(
        text_document=lsp.TextDocumentIdentifier(uri=uri), position=at))
    assert hover is not None and "card" in hover.contents.value  # type: ignore[union-attr]


@pytest.mark.soak  # a server of its own each: the default tier keeps two
async def test_formatting_a_document(client: LanguageClient, tmp_path: Path) -> None:
    rules = tmp_path / "g.rules"
    rules.write_text('game g {\ntitle "G"\n    players 2}\n', encoding="utf-8")
    uri = await _open(client, rules)
    edits = await client.text_document_formatting_async(lsp.DocumentFormattingParams(
        text_document=lsp.TextDocumentIdentifier(uri=uri),
        options=lsp.FormattingOptions(tab_size=2, insert_spaces=True)))
    assert edits is not None and edits[0].new_text == 'game g {\n  title "G"\n  players 2\n}\n'
    # a document with Windows line endings keeps them, and once formatted needs no edit
    crlf = 'game g {\r\ntitle "G"\r\n    players 2}\r\n'
    await _edit(client, uri, crlf, 2)
    edits = await client.text_document_formatting_async(lsp.DocumentFormattingParams(
        text_document=lsp.TextDocumentIdentifier(uri=uri),
        options=lsp.FormattingOptions(tab_size=2, insert_spaces=True)))
    formatted = 'game g {\r\n  title "G"\r\n  players 2\r\n}\r\n'
    assert edits is not None and edits[0].new_text == formatted
    await _edit(client, uri, formatted, 3)
    assert not await client.text_document_formatting_async(lsp.DocumentFormattingParams(
        text_document=lsp.TextDocumentIdentifier(uri=uri),
        options=lsp.FormattingOptions(tab_size=2, insert_spaces=True)))


@pytest.mark.soak  # a server of its own each: the default tier keeps two
async def test_columns_after_an_emoji_count_utf16_units(client: LanguageClient,
                                                        game: Path) -> None:
    """An emoji is two UTF-16 code units: the diagnostics, quick fixes, renames, colours and
    hovers of the rest of its line are where the editor counts them."""
    rules = game / "dojo.rules"
    text = rules.read_text(encoding="utf-8")
    uri = await _open(client, rules)
    doc = lsp.TextDocumentIdentifier(uri=uri)
    written = 'require c.kind == creature else "{c} is not a creature"'
    emoji = text.replace(written, 'require "🐉" != "" and c.kind == creature else "no"', 1)
    broken = emoji.replace('"" and c.kind ==', '"" and c.kidn ==', 1)
    await _edit(client, uri, broken, 2)
    (found,) = client.diagnostics[uri]
    assert found.range.start == _find(broken, "kidn")
    actions = await client.text_document_code_action_async(lsp.CodeActionParams(
        text_document=doc, range=found.range, context=lsp.CodeActionContext(
            diagnostics=[found])))
    assert actions is not None and isinstance(actions[0], lsp.CodeAction)
    assert actions[0].edit is not None and actions[0].edit.changes is not None
    assert _apply(broken, actions[0].edit.changes[uri]) == emoji

    await _edit(client, uri, emoji, 3)
    hover = await client.text_document_hover_async(lsp.HoverParams(
        text_document=doc, position=_find(emoji, "c.kind == creature else")))
    assert hover is not None and "c: Card" in hover.contents.value  # type: ignore[union-attr]
    edit = await client.text_document_rename_async(lsp.RenameParams(
        text_document=doc, position=_find(emoji, "creature else"), new_name="beast"))
    assert edit is not None and edit.changes is not None
    renamed = _apply(emoji, edit.changes[uri])
    assert 'require "🐉" != "" and c.kind == beast else "no"' in renamed
    assert "enum Kind { beast, item" in renamed

    tokens = await client.text_document_semantic_tokens_full_async(lsp.SemanticTokensParams(
        text_document=doc))
    assert tokens is not None
    line, character, coloured = 0, 0, {}
    for index in range(0, len(tokens.data), 5):
        down, right, length = tokens.data[index:index + 3]
        line, character = line + down, (character + right if down == 0 else right)
        coloured[line, character] = length
    at = _find(emoji, "creature else")
    assert coloured[at.line, at.character] == len("creature")
    string = _find(emoji, '"🐉"')
    assert coloured[string.line, string.character] == 4  # two quotes, two units


@pytest.mark.soak  # a server of its own each: the default tier keeps two
async def test_a_folder_opened_through_a_symbolic_link(client: LanguageClient,
                                                       tmp_path: Path) -> None:
    """The answers name the files as the editor does, through the link: diagnostics are
    published for the document it opened (and its card set there), definitions and rename
    edits point there, never at the resolved path."""
    shutil.copytree(GAME, tmp_path / "real" / "dojo")
    (tmp_path / "link").symlink_to(tmp_path / "real", target_is_directory=True)
    rules = tmp_path / "link" / "dojo" / "dojo.rules"
    text = rules.read_text(encoding="utf-8")
    uri = rules.as_uri()
    client.text_document_did_open(lsp.DidOpenTextDocumentParams(text_document=lsp.TextDocumentItem(
        uri=uri, language_id="rulecraft", version=1, text=text)))
    await _diagnostics_of(client, uri)
    broken = text.replace("zone hand: Card", "zone hand: Crad", 1)
    await _edit(client, uri, broken, 2)
    assert [d.code for d in client.diagnostics[uri]][:1] == ["E0103"]
    assert (tmp_path / "link" / "dojo" / "starter.cards.yaml").as_uri() in client.diagnostics
    assert not any("/real/" in published for published in client.diagnostics)
    await _edit(client, uri, text, 3)
    doc = lsp.TextDocumentIdentifier(uri=uri)
    found = await client.text_document_definition_async(lsp.DefinitionParams(
        text_document=doc, position=_find(text, "hand[actor]")))
    assert isinstance(found, lsp.Location) and found.uri == uri
    edit = await client.text_document_rename_async(lsp.RenameParams(
        text_document=doc, position=_find(text, "hand[actor]"), new_name="grip"))
    assert edit is not None and edit.changes is not None
    assert uri in edit.changes and all("/link/dojo/" in named for named in edit.changes)


@pytest.mark.soak  # a server of its own each: the default tier keeps two
async def test_closing_an_unsaved_file_clears_its_diagnostics(client: LanguageClient,
                                                              game: Path) -> None:
    """Closed without saving: the file is checked as it is on disk again, so what was wrong
    only in the editor's text is no longer shown."""
    for name, written, broken in (("starter.cards.yaml", "    cost: 5", "    cot: 5"),
                                  ("dojo.rules", "zone hand: Card", "zone hand: Crad")):
        path = game / name
        text = path.read_text(encoding="utf-8")
        uri = await _open(client, path)
        await _edit(client, uri, text.replace(written, broken, 1), 2)
        assert client.diagnostics[uri]
        client.diagnostics.pop(uri)
        client.text_document_did_close(lsp.DidCloseTextDocumentParams(
            text_document=lsp.TextDocumentIdentifier(uri=uri)))
        await _diagnostics_of(client, uri)
        assert list(client.diagnostics[uri]) == [], name


@pytest.mark.soak  # a server of its own each: the default tier keeps two
async def test_a_rename_that_would_break_the_rulebook_is_an_error(client: LanguageClient,
                                                                  game: Path) -> None:
    rules = game / "dojo.rules"
    text = rules.read_text(encoding="utf-8")
    uri = await _open(client, rules)
    with pytest.raises(JsonRpcException, match="'item' appears twice in enum Kind"):
        await client.text_document_rename_async(lsp.RenameParams(
            text_document=lsp.TextDocumentIdentifier(uri=uri),
            position=_find(text, "facedown_item"), new_name="item"))


@pytest.mark.soak  # a server of its own each: the default tier keeps two
async def test_a_client_that_gets_the_lifecycle_wrong(client: LanguageClient,
                                                      game: Path) -> None:
    """A change to a document never opened opens it with that text, with no "Error in
    server" message (tests/test_lsp_protocol.py: a request it cannot read)."""
    rules = game / "dojo.rules"
    uri = _uri(rules)
    broken = rules.read_text(encoding="utf-8").replace("zone hand: Card", "zone hand: Crad", 1)
    await _edit(client, uri, broken, 2)
    assert [d.code for d in client.diagnostics[uri]][:1] == ["E0103"]
    hover = await client.text_document_hover_async(lsp.HoverParams(
        text_document=lsp.TextDocumentIdentifier(uri=uri), position=_find(broken, "hand:")))
    assert hover is None or hover.contents  # still answering
    assert client.messages == []

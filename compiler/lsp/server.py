"""The language server over stdio (pygls): the protocol's side of compiler.lsp.analysis.

Positions: the protocol's lines and characters count from 0, the compiler's from 1, and the
protocol counts a line's characters in UTF-16 code units where the compiler counts characters
(compiler.lsp.positions.Columns converts them, for every answer). Each open file belongs to a
rulebook (the `.rules` file itself, or the one of its folder for a card set, deck, map or
scenario); any change, and closing a file, re-checks that rulebook with the editor's texts
(the disk's for a closed file) and publishes the diagnostics of each of its files, an empty
list for a file that has none any more.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Generator
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import unquote

from lsprotocol import types as lsp
from pygls.exceptions import JsonRpcException
from pygls.lsp.server import LanguageServer
from pygls.protocol import LanguageServerProtocol, lsp_method
from pygls.uris import to_fs_path

from compiler.fmt import FormatError, format_source
from compiler.lsp.analysis import (
    TOKEN_TYPES,
    Analysis,
    Location,
    Refused,
    did_you_mean,
    misspelt_at,
    rulebook_of,
)
from compiler.lsp.positions import Columns, Uris
from dsl.diagnostics import Diagnostic, Diagnostics
from dsl.source import SourceFile, Span, resolved

if TYPE_CHECKING:
    from pygls.server import ServerErrors

_KINDS = {"keyword": lsp.CompletionItemKind.Keyword, "function": lsp.CompletionItemKind.Function,
          "zone": lsp.CompletionItemKind.Variable, "enum": lsp.CompletionItemKind.EnumMember,
          "card": lsp.CompletionItemKind.Constant, "value": lsp.CompletionItemKind.Constant,
          "field": lsp.CompletionItemKind.Field, "variable": lsp.CompletionItemKind.Variable}
_SYMBOL_KINDS = {"FunctionDecl": lsp.SymbolKind.Function, "ProcedureDecl": lsp.SymbolKind.Method,
                 "EnumDecl": lsp.SymbolKind.Enum, "RecordDecl": lsp.SymbolKind.Struct,
                 "ZoneDecl": lsp.SymbolKind.Array, "PhaseDecl": lsp.SymbolKind.Namespace,
                 "EventDecl": lsp.SymbolKind.Event, "Game": lsp.SymbolKind.Module}
_AT = re.compile(r"(\S+?):(\d+):(\d+)")
logger = logging.getLogger(__name__)


class RulecraftProtocol(LanguageServerProtocol):
    """pygls's protocol, forgiving of a client that gets the lifecycle wrong."""

    @lsp_method(lsp.TEXT_DOCUMENT_DID_CHANGE)
    def lsp_text_document__did_change(
            self, params: lsp.DidChangeTextDocumentParams) -> Generator[Any, Any, None]:
        """A change to a document never opened (or closed already) made pygls's own handler
        fail, shown as "Error in server: KeyError": a whole text opens it with that text, a
        change of part of a text unknown is left alone (and logged)."""
        uri = params.text_document.uri
        if unquote(uri) not in self.workspace.text_documents:
            last = params.content_changes[-1] if params.content_changes else None
            if not isinstance(last, lsp.TextDocumentContentChangeWholeDocument):
                logger.warning("a change to %s, which is not open, is ignored", uri)
                return
            logger.warning("a change to %s, which is not open, opens it", uri)
            self.workspace.put_text_document(lsp.TextDocumentItem(
                uri=uri, language_id="", version=params.text_document.version, text=last.text))
            params = lsp.DidChangeTextDocumentParams(text_document=params.text_document,
                                                     content_changes=[])
        yield from super().lsp_text_document__did_change(params)

    def structure_message(self, data: dict[str, Any]) -> Any:
        """A request whose parameters are not what its method takes gets an error response
        (pygls only logs it, and the client waits for an answer forever)."""
        try:
            return super().structure_message(data)
        except JsonRpcException as error:
            if "id" not in data or "method" not in data:
                raise
            self._send_response(data["id"], None, error.to_response_error())
            raise Answered(f"{data['method']}: {error}") from error


class Answered(Exception):
    """A request the protocol could not read and has answered with an error already: the
    server does not show it as an error of its own as well."""


class RulecraftServer(LanguageServer):
    def __init__(self) -> None:
        super().__init__("rulecraft", "0.1.0", protocol_cls=RulecraftProtocol,
                         text_document_sync_kind=lsp.TextDocumentSyncKind.Full)
        self.analyses: dict[Path, Analysis] = {}
        self.published: dict[Path, set[str]] = {}  # per rulebook: the URIs given diagnostics
        # Per rulebook, the last analysis that had a model: while `c.` is being typed the text
        # does not parse, and completion asks what `c` was.
        self.checked: dict[Path, Analysis] = {}

    def report_server_error(self, error: Exception, source: ServerErrors) -> None:
        if isinstance(error, Answered):
            logger.warning("%s", error)
            return
        super().report_server_error(error, source)

    def texts(self) -> dict[Path, str]:
        """The text of every open document, by resolved path."""
        found = {}
        for uri, document in self.workspace.text_documents.items():
            path = to_fs_path(uri)
            if path is not None:
                found[resolved(Path(path))] = document.source
        return found

    def analysis(self, uri: str, fresh: bool = False) -> Analysis | None:
        path = to_fs_path(uri)
        rules = rulebook_of(Path(path)) if path is not None else None
        if rules is None:
            return None
        rules = resolved(rules)
        if fresh or rules not in self.analyses:
            self.analyses[rules] = Analysis.of(rules, self.texts())
            if self.analyses[rules].model is not None:
                self.checked[rules] = self.analyses[rules]
        return self.analyses[rules]

    def columns(self, analysis: Analysis | None = None) -> Columns:
        """The protocol's positions of the open documents and of the analysis's files."""
        def checked(path: Path) -> str | None:
            source = None if analysis is None else analysis.source(path)
            return None if source is None else source.text

        return Columns(self.workspace.position_codec, self.texts(), checked)

    def uris(self) -> Uris:
        """The URIs the client knows files by (those it opened, maybe through a link)."""
        folders = [folder.uri for folder in self.workspace.folders.values()]
        if self.workspace.root_uri:
            folders.append(self.workspace.root_uri)
        return Uris(self.workspace.text_documents, folders)

    def at(self, uri: str, position: lsp.Position) -> tuple[Path, int, int]:
        """The file, 1-based line and character column of a request's position."""
        path = _path(uri)
        line, column = self.columns().at(path, position)
        return path, line, column

    def check(self, uri: str) -> None:
        analysis = self.analysis(uri, fresh=True)
        if analysis is None:
            return
        columns, named = self.columns(analysis), self.uris()
        uris = set()
        for path, diagnostics in analysis.diagnostics().items():
            target = named.of(path)
            uris.add(target)
            self.text_document_publish_diagnostics(lsp.PublishDiagnosticsParams(
                uri=target,
                diagnostics=[to_lsp(d, columns, named, path) for d in diagnostics]))
        if uri not in uris:
            # The document just opened or changed always hears back, clean or not: an editor
            # (and a client waiting for its diagnostics) learns that it was checked.
            uris.add(uri)
            self.text_document_publish_diagnostics(
                lsp.PublishDiagnosticsParams(uri=uri, diagnostics=[]))
        for stale in self.published.get(analysis.rules, set()) - uris:
            self.text_document_publish_diagnostics(
                lsp.PublishDiagnosticsParams(uri=stale, diagnostics=[]))
        self.published[analysis.rules] = uris


def to_lsp(diagnostic: Diagnostic, columns: Columns, uris: Uris,
           path: Path) -> lsp.Diagnostic:
    """A diagnostic of the file at `path` as the CLI prints it: its code, span, message, hint
    and notes (a note that names a place becomes related information there)."""
    related = []
    message = diagnostic.message
    for note in diagnostic.notes:
        match = _AT.search(note)
        if match is not None and Path(match.group(1)).exists():
            uri = uris.of(Path(match.group(1)))
            line, column = int(match.group(2)), int(match.group(3))
            point = columns.position(Path(match.group(1)), line, column)
            related.append(lsp.DiagnosticRelatedInformation(
                location=lsp.Location(uri=uri, range=lsp.Range(start=point, end=point)),
                message=note))
        else:
            message += f"\nnote: {note}"
    if diagnostic.hint:
        message += f"\nhint: {diagnostic.hint}"
    severity = (lsp.DiagnosticSeverity.Error if diagnostic.code.startswith("E")
                else lsp.DiagnosticSeverity.Warning)
    return lsp.Diagnostic(range=columns.range(diagnostic.span, path), message=message,
                          severity=severity, code=diagnostic.code, source="rulecraft",
                          related_information=related or None,
                          data={"hint": diagnostic.hint} if diagnostic.hint else None)


def _path(uri: str) -> Path:
    return Path(to_fs_path(uri) or uri)


server = RulecraftServer()


@server.feature(lsp.TEXT_DOCUMENT_DID_OPEN)
def did_open(ls: RulecraftServer, params: lsp.DidOpenTextDocumentParams) -> None:
    ls.check(params.text_document.uri)


@server.feature(lsp.TEXT_DOCUMENT_DID_CHANGE)
def did_change(ls: RulecraftServer, params: lsp.DidChangeTextDocumentParams) -> None:
    ls.check(params.text_document.uri)


@server.feature(lsp.TEXT_DOCUMENT_DID_CLOSE)
def did_close(ls: RulecraftServer, params: lsp.DidCloseTextDocumentParams) -> None:
    """The editor's text is gone: the rulebook is checked again with the file as it is on
    disk, which clears the diagnostics of what was left unsaved."""
    ls.check(params.text_document.uri)


@server.feature(lsp.TEXT_DOCUMENT_DID_SAVE)
def did_save(ls: RulecraftServer, params: lsp.DidSaveTextDocumentParams) -> None:
    ls.check(params.text_document.uri)


@server.feature(lsp.TEXT_DOCUMENT_HOVER)
def hover(ls: RulecraftServer, params: lsp.HoverParams) -> lsp.Hover | None:
    analysis = ls.analysis(params.text_document.uri)
    if analysis is None:
        return None
    text = analysis.hover(*ls.at(params.text_document.uri, params.position))
    if text is None:
        return None
    return lsp.Hover(contents=lsp.MarkupContent(kind=lsp.MarkupKind.Markdown, value=text))


def _location(ls: RulecraftServer, analysis: Analysis, found: list[Location]
              ) -> list[lsp.Location]:
    """Places the analysis found, named by the URIs the client knows their files by."""
    columns, uris = ls.columns(analysis), ls.uris()
    return [lsp.Location(uri=uris.of(place.path), range=columns.range(place.span, place.path))
            for place in found]


@server.feature(lsp.TEXT_DOCUMENT_DEFINITION)
def definition(ls: RulecraftServer, params: lsp.DefinitionParams) -> lsp.Location | None:
    analysis = ls.analysis(params.text_document.uri)
    if analysis is None:
        return None
    found = analysis.definition(*ls.at(params.text_document.uri, params.position))
    return None if found is None else _location(ls, analysis, [found])[0]


@server.feature(lsp.TEXT_DOCUMENT_REFERENCES)
def references(ls: RulecraftServer, params: lsp.ReferenceParams) -> list[lsp.Location]:
    analysis = ls.analysis(params.text_document.uri)
    if analysis is None:
        return []
    found = analysis.references(*ls.at(params.text_document.uri, params.position),
                                params.context.include_declaration)
    return _location(ls, analysis, found)


@server.feature(lsp.TEXT_DOCUMENT_RENAME)
def rename(ls: RulecraftServer, params: lsp.RenameParams) -> lsp.WorkspaceEdit | None:
    analysis = ls.analysis(params.text_document.uri)
    if analysis is None:
        return None
    try:
        edits = analysis.rename(*ls.at(params.text_document.uri, params.position),
                                params.new_name)
    except Refused as refused:  # an error response: the editor shows why
        raise JsonRpcException(str(refused), code=lsp.LSPErrorCodes.RequestFailed) from refused
    if edits is None:
        return None
    columns, uris = ls.columns(analysis), ls.uris()
    return lsp.WorkspaceEdit(changes={
        uris.of(path): [
            lsp.TextEdit(range=columns.range(span, path), new_text=text)
            for span, text in spans]
        for path, spans in edits.items()})


@server.feature(lsp.TEXT_DOCUMENT_COMPLETION,
                lsp.CompletionOptions(trigger_characters=["."]))
def completion(ls: RulecraftServer, params: lsp.CompletionParams) -> lsp.CompletionList:
    analysis = ls.analysis(params.text_document.uri)
    if analysis is None:
        return lsp.CompletionList(is_incomplete=False, items=[])
    if analysis.model is None:
        analysis = ls.checked.get(analysis.rules, analysis)
    document = ls.workspace.get_text_document(params.text_document.uri)
    found = analysis.completions(*ls.at(params.text_document.uri, params.position), document.source)
    # sort_text keeps the analysis's order: what fits the type expected at the cursor first.
    return lsp.CompletionList(is_incomplete=False, items=[
        lsp.CompletionItem(label=label, kind=_KINDS.get(kind), detail=detail,
                           sort_text=f"{index:05d}")
        for index, (label, kind, detail) in enumerate(found)])


@server.feature(lsp.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
def document_symbols(ls: RulecraftServer,
                     params: lsp.DocumentSymbolParams) -> list[lsp.DocumentSymbol]:
    analysis = ls.analysis(params.text_document.uri)
    if analysis is None:
        return []
    path = _path(params.text_document.uri)
    columns = ls.columns(analysis)
    found = []
    for name, kind, span in analysis.document_symbols(path):
        where = columns.range(span, path)
        found.append(lsp.DocumentSymbol(
            name=name, kind=_SYMBOL_KINDS.get(kind, lsp.SymbolKind.Object), range=where,
            selection_range=where, detail=kind.removesuffix("Decl").lower()))
    return found


@server.feature(lsp.TEXT_DOCUMENT_SEMANTIC_TOKENS_FULL,
                lsp.SemanticTokensLegend(token_types=TOKEN_TYPES, token_modifiers=[]))
def semantic_tokens(ls: RulecraftServer, params: lsp.SemanticTokensParams) -> lsp.SemanticTokens:
    path = _path(params.text_document.uri)
    if path.suffix != ".rules":
        return lsp.SemanticTokens(data=[])
    analysis = ls.analysis(params.text_document.uri)
    document = ls.workspace.get_text_document(params.text_document.uri)
    if analysis is None:
        return lsp.SemanticTokens(data=[])
    columns = ls.columns(analysis)
    data: list[int] = []
    last_line, last_column = 0, 0
    for line, column, length, kind in analysis.semantic_tokens(path, document.source):
        text = columns.line(path, line)
        end = columns.units(text, min(column + length, len(text) + 1))
        line, column = line - 1, columns.units(text, column)
        delta_column = column - last_column if line == last_line else column
        data.extend([line - last_line, delta_column, end - column, TOKEN_TYPES.index(kind), 0])
        last_line, last_column = line, column
    return lsp.SemanticTokens(data=data)


@server.feature(lsp.TEXT_DOCUMENT_CODE_ACTION)
def code_actions(ls: RulecraftServer, params: lsp.CodeActionParams) -> list[lsp.CodeAction]:
    """For a diagnostic whose hint says "did you mean 'x'?": replace the misspelt name, which
    may be only part of what the diagnostic's range covers, with x."""
    actions = []
    document = ls.workspace.get_text_document(params.text_document.uri)
    path = _path(params.text_document.uri)
    columns = ls.columns()
    for diagnostic in params.context.diagnostics:
        data: Any = diagnostic.data
        hint = data.get("hint") if isinstance(data, dict) else None
        if not isinstance(hint, str):
            continue
        fake = Diagnostic(str(diagnostic.code), Span.point(""), diagnostic.message, hint=hint)
        names = did_you_mean(fake)
        found = _misspelt_span(document.source, columns.span(path, diagnostic.range),
                               diagnostic.message, names)
        target = diagnostic.range if found is None else columns.range(found, path)
        for name in names:
            edit = lsp.TextEdit(range=target, new_text=name)
            actions.append(lsp.CodeAction(
                title=f"Change to '{name}'", kind=lsp.CodeActionKind.QuickFix,
                diagnostics=[diagnostic],
                edit=lsp.WorkspaceEdit(changes={params.text_document.uri: [edit]})))
    return actions


def _misspelt_span(text: str, span: Span, message: str, names: list[str]) -> Span | None:
    """The span of the name a quick fix replaces, inside a diagnostic's span (None: no name
    to replace there)."""
    lines = text.split("\n")
    if not names or not 0 < span.line <= span.end_line <= len(lines):
        return None
    offsets = [0]
    for text_line in lines:
        offsets.append(offsets[-1] + len(text_line) + 1)
    first = offsets[span.line - 1] + span.column - 1
    written = text[first:offsets[span.end_line - 1] + span.end_column - 1]
    found = misspelt_at(written, message, names)
    if found is None:
        return None

    def position(offset: int) -> tuple[int, int]:
        index = max(number for number, at in enumerate(offsets) if at <= offset)
        return index + 1, offset - offsets[index] + 1

    (line, column), (end_line, end_column) = position(first + found[0]), position(
        first + found[1])
    return Span(span.file, line, column, end_line, end_column)


@server.feature(lsp.TEXT_DOCUMENT_FORMATTING)
def formatting(ls: RulecraftServer, params: lsp.DocumentFormattingParams) -> list[lsp.TextEdit]:
    """`rulecraft fmt` of the document, with the document's line endings (the formatter writes
    "\n"; a document whose first line ends "\r\n" keeps "\r\n"); nothing when it does not
    parse (its diagnostics say why)."""
    document = ls.workspace.get_text_document(params.text_document.uri)
    if not document.uri.endswith(".rules"):
        return []
    try:
        formatted = format_source(SourceFile(document.uri, document.source), Diagnostics())
    except FormatError:
        return []
    if formatted is None:
        return []
    if document.source.split("\n", 1)[0].endswith("\r"):
        formatted = formatted.replace("\r\n", "\n").replace("\n", "\r\n")
    if formatted == document.source:
        return []
    lines = document.source.count("\n") + 1
    whole = lsp.Range(start=lsp.Position(line=0, character=0),
                      end=lsp.Position(line=lines, character=0))
    return [lsp.TextEdit(range=whole, new_text=formatted)]


def serve() -> None:
    server.start_io()

"""What the language server knows about a rulebook: its diagnostics, and the answers to hover,
definition, references, rename, completion, symbols and semantic tokens.

Everything here is plain data in 1-based lines and columns (as the compiler's spans); the
server turns it into the protocol's 0-based positions. A rulebook is checked as `rulecraft
check` checks it (compiler.driver), with the text of the files open in the editor in place of
what is on disk (compiler.lsp.incremental.EditorSources), so that the diagnostics are the
CLI's own.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from difflib import SequenceMatcher
from pathlib import Path

from compiler import symbols as sym
from compiler.check_builtins import BUILTINS
from compiler.driver import Compilation, check_rulebook
from compiler.explain import Use, declaration, explain, uses
from compiler.fmt import _TOKEN
from compiler.lsp.expected import (
    TypeAt,
    candidates,
    data_completions,
    expected_at,
    fields_of_type,
)
from compiler.lsp.incremental import EditorSources, keywords_at
from compiler.model import GameModel
from compiler.types import CardT, NodeT, OptionT, PlayerT, RecordT, Type
from dsl import nodes as n
from dsl.diagnostics import Diagnostic
from dsl.keyword_lexer import grammar_words
from dsl.lexical import RESERVED_WORDS
from dsl.source import SourceFile, Span, resolved

Position = tuple[int, int]  # 1-based line and column


@dataclass(frozen=True)
class Location:
    path: Path
    span: Span


# What the server's checks read and keep from one keystroke to the next.
EDITOR = EditorSources()


def rulebook_of(path: Path) -> Path | None:
    """The rulebook a file belongs to: itself, or the `.rules` file of its folder or above."""
    if path.suffix == ".rules":
        return path
    for folder in resolved(path).parents:
        found = sorted(folder.glob("*.rules"))
        if found:
            return found[0]
    return None


@dataclass
class Analysis:
    """One checked rulebook and the indexes the editor's questions need."""

    rules: Path
    compilation: Compilation
    # The editor's texts of the files open when it was checked, by resolved path: scenario
    # files, which the checker does not read, are read from here before the disk.
    texts: dict[Path, str] = field(default_factory=dict)
    _uses: list[Use] | None = None
    _by_file: dict[Path, list[Use]] = field(default_factory=dict)

    @staticmethod
    def of(rules: Path, texts: dict[Path, str]) -> Analysis:
        EDITOR.texts = texts
        compilation = check_rulebook(rules, sources=EDITOR)
        return Analysis(rules, compilation, texts)

    def text_of(self, path: Path) -> str | None:
        """A file's text: the editor's when it is open, else the disk's (None: unreadable)."""
        text = self.texts.get(resolved(path))
        if text is not None:
            return text
        try:
            return resolved(path).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            return None

    @property
    def uses(self) -> list[Use]:
        """Every use of a symbol, listed at the first question that needs them: not on the
        way from a keystroke to its diagnostics."""
        if self._uses is None:
            self._uses = uses(self.model) if self.model is not None else []
            paths: dict[str, Path] = {}
            for use in self._uses:
                path = paths.get(use.span.file)
                if path is None:
                    path = paths[use.span.file] = resolved(Path(use.span.file))
                self._by_file.setdefault(path, []).append(use)
        return self._uses

    @property
    def by_file(self) -> dict[Path, list[Use]]:
        self.uses  # noqa: B018 - lists them
        return self._by_file

    @property
    def model(self) -> GameModel | None:
        return self.compilation.model

    # ---- diagnostics -------------------------------------------------------------------
    def diagnostics(self) -> dict[Path, list[Diagnostic]]:
        """The diagnostics of each file of the rulebook (every source file: an empty list
        clears what the editor showed)."""
        found: dict[Path, list[Diagnostic]] = {
            resolved(Path(name)): [] for name in self.compilation.sources}
        for diagnostic in self.compilation.diagnostics.sorted():
            found.setdefault(resolved(Path(diagnostic.span.file)), []).append(diagnostic)
        return found

    def source(self, path: Path) -> SourceFile | None:
        target = resolved(path)
        sources = self.model.sources if self.model is not None else self.compilation.sources
        for name, source in sources.items():
            if resolved(Path(name)) == target:
                return source
        return None

    # ---- what is at a position ----------------------------------------------------------
    def use_at(self, path: Path, line: int, column: int) -> Use | None:
        best: Use | None = None
        for use in self.by_file.get(resolved(path), []):
            span = use.span
            inside = (span.line, span.column) <= (line, column) < (span.end_line,
                                                                   span.end_column)
            at_end = (span.end_line, span.end_column) == (line, column)
            if (inside or at_end) and (best is None or (span.line, span.column) >= (
                    best.span.line, best.span.column)):
                best = use
        return best

    def symbol_at(self, path: Path, line: int, column: int) -> sym.Symbol | None:
        """The symbol used or declared at a position."""
        use = self.use_at(path, line, column)
        if use is not None:
            return use.symbol
        if path.name.endswith(".scenario.yaml"):
            return self.scenario_symbol_at(path, line, column)
        target = resolved(path)
        for use in self.uses:
            declared = declaration(use.symbol)
            if declared is None or resolved(Path(declared.file)) != target:
                continue
            name = self.declared_name(use.symbol)
            if name is not None and _holds(name, line, column):
                return use.symbol
        return None

    def scenario_symbol_at(self, path: Path, line: int, column: int) -> sym.Symbol | None:
        """A card, zone, enum member or player field named in a scenario file (which the
        checker does not resolve): by its name written there."""
        lines = SourceFile(str(path), self.text_of(path) or "").lines
        if not 0 < line <= len(lines):
            return None
        text = lines[line - 1]
        named: dict[str, sym.Symbol] = {}
        for use in self.uses:
            if isinstance(use.symbol, sym.Card | sym.EnumMember | sym.Zone | sym.PlayerField):
                named.setdefault(_name_of(use.symbol), use.symbol)
        for name in sorted(named, key=len, reverse=True):
            for start in _word_matches(text, name):
                if start < column <= start + len(name):
                    return named[name]
        return None

    def declared_name(self, symbol: sym.Symbol) -> Span | None:
        """Where the symbol's name is written in its declaration."""
        declared = declaration(symbol)
        if declared is None:
            return None
        source = self.source(Path(declared.file))
        if source is None:
            return None
        return find_name(source, declared, _name_of(symbol))

    # ---- hover ----------------------------------------------------------------------------
    def hover(self, path: Path, line: int, column: int) -> str | None:
        """Markdown for what is at a position."""
        if self.model is None:
            return None
        seed = self.seed_hover(path, line, column)
        if seed is not None:
            return seed
        use = self.use_at(path, line, column)
        if use is None:
            symbol = self.symbol_at(path, line, column)
            use = next((u for u in self.uses if u.symbol == symbol), None) if symbol else None
        if use is None:
            return None
        about = explain(self.model, use)
        parts = [f"```rules\n{about.name}: {about.type}\n```", f"*{about.kind}*"]
        if about.declared is not None:
            parts.append(f"declared at {Path(about.declared.file).name}:{about.declared.line}")
        if about.doc:
            parts.append(about.doc)
        seeds = self.seed_rules_of(use.symbol)
        if seeds:
            parts.append("\n".join(seeds))
        if isinstance(use.symbol, sym.Card):
            text = self.card_text(use.symbol, about.doc)
            if text:
                parts.append(text)
        return "\n\n".join(parts)

    def seed_texts(self) -> dict[str, str]:
        assert self.model is not None
        return {rule.id: rule.text for seed in self.model.seeds for rule in seed.rules}

    def seed_hover(self, path: Path, line: int, column: int) -> str | None:
        """On an annotation `@S12`, the seed rule's text."""
        source = self.source(path)
        if source is None:
            return None
        for match in re.finditer(r"@([A-Za-z0-9_.]+)", source.line(line)):
            if match.start() < column <= match.end():
                text = self.seed_texts().get(match.group(1))
                return f"**{match.group(1)}** (seed rule): {text}" if text else None
        return None

    def seed_rules_of(self, symbol: sym.Symbol) -> list[str]:
        """The seed rules a declaration is annotated with (`@S12` above it)."""
        assert self.model is not None
        declared = declaration(symbol)
        if declared is None:
            return []
        texts = self.seed_texts()
        for module in self.model.modules:
            for decl in module.declarations:
                if decl.span.file == declared.file and decl.span.line == declared.line:
                    return [f"**{a.rule}**: {texts[a.rule]}" for a in decl.annotations
                            if a.rule in texts]
        return []

    def card_text(self, card: sym.Card, shown: str = "") -> str:
        """A card's effects in English, as the rulebook prints them."""
        assert self.model is not None
        from compiler.doc_gallery import CardGallery

        record = self.model.records.get(card.card_type)
        if record is None or not 0 <= card.index < len(record.entries):
            return ""
        entry = record.entries[card.index]
        lines = [entry.description] if entry.description and entry.description != shown else []
        try:
            for effect in CardGallery(self.model).card_effects(record, entry):
                lines.append(f"*{effect.name}*:\n" + "\n".join(effect.lines))
        except Exception:  # noqa: BLE001 - a hover never fails for want of words
            pass
        return "\n\n".join(lines)

    # ---- definition, references, rename ------------------------------------------------
    def definition(self, path: Path, line: int, column: int) -> Location | None:
        symbol = self.symbol_at(path, line, column)
        if symbol is None:
            return None
        span = self.declared_name(symbol) or declaration(symbol)
        return None if span is None else Location(Path(span.file), span)

    def references(self, path: Path, line: int, column: int,
                   include_declaration: bool = True) -> list[Location]:
        symbol = self.symbol_at(path, line, column)
        if symbol is None:
            return []
        found = [Location(Path(u.span.file), u.span) for u in self.uses if u.symbol == symbol]
        declared = self.declared_name(symbol)
        if include_declaration and declared is not None:
            found.insert(0, Location(Path(declared.file), declared))
        found.extend(self.scenario_mentions(symbol))
        unique = {(str(loc.span)): loc for loc in found}
        return list(unique.values())

    def scenario_mentions(self, symbol: sym.Symbol) -> list[Location]:
        """Cards and other names are also written in scenario files, which the checker does
        not resolve: their plain mentions there, in the editor's text of an open one."""
        if not isinstance(symbol, sym.Card | sym.EnumMember | sym.Zone | sym.PlayerField):
            return []
        name = _name_of(symbol)
        found = []
        folder = resolved(self.rules).parent
        scenarios = {resolved(path) for path in folder.rglob("*.scenario.yaml")}
        scenarios.update(path for path in self.texts if path.name.endswith(".scenario.yaml")
                         and path.is_relative_to(folder))
        for scenario in sorted(scenarios):
            text = self.text_of(scenario)
            if text is None:
                continue
            source = SourceFile(str(scenario), text)
            for number, line_text in enumerate(source.lines, 1):
                for match in _word_matches(line_text, name):
                    found.append(Location(scenario, Span(
                        str(scenario), number, match + 1, number, match + 1 + len(name))))
        return found

    def rename(self, path: Path, line: int, column: int,
               new_name: str) -> dict[Path, list[tuple[Span, str]]] | None:
        """The edits that rename the user-declared name at a position everywhere; None when
        nothing there can be renamed. Refused: the new name would break the rulebook."""
        symbol = self.symbol_at(path, line, column)
        if symbol is None or declaration(symbol) is None or isinstance(symbol, sym.Builtin):
            return None
        name = _name_of(symbol)
        _check_new_name(name, new_name)
        edits: dict[Path, list[tuple[Span, str]]] = {}
        for location in self.references(path, line, column):
            source = self.source(location.path)
            span = location.span
            if source is not None and span.line == span.end_line:
                written = source.line(span.line)[span.column - 1:span.end_column - 1]
                if written != name:  # a use written with quotes, or a longer span
                    inner = find_name(source, span, name)
                    if inner is None:
                        continue
                    span = inner
            edits.setdefault(resolved(location.path), []).append((span, new_name))
        if new_name != name:
            broken = self.broken_by(edits, name, new_name)
            if broken is not None:
                raise Refused(f"renaming '{name}' to '{new_name}' would break the rulebook: "
                              f"{broken}")
        return edits

    def broken_by(self, edits: dict[Path, list[tuple[Span, str]]], name: str,
                  new_name: str) -> str | None:
        """The first error a rulebook checked with the edits made has that it had not (a
        clash with a name declared already, say), where it is; None: no new error."""
        texts = dict(self.texts)
        for path, spans in edits.items():
            text = self.text_of(path)
            if text is None or path.name.endswith(".scenario.yaml"):  # (not checked)
                continue
            lines = text.split("\n")
            for span, written in sorted(spans, key=lambda edit: (edit[0].line, edit[0].column),
                                        reverse=True):
                if span.line == span.end_line and 0 < span.line <= len(lines):
                    row = lines[span.line - 1]
                    lines[span.line - 1] = (row[:span.column - 1] + written
                                            + row[span.end_column - 1:])
            texts[resolved(path)] = "\n".join(lines)
        had = Counter((d.code, d.message) for d in self.compilation.diagnostics.sorted()
                      if d.code.startswith("E"))
        for diagnostic in Analysis.of(self.rules, texts).compilation.diagnostics.sorted():
            # an error that was there already names the new name where it named the old
            known = (diagnostic.code, diagnostic.message.replace(f"'{new_name}'", f"'{name}'"))
            if not diagnostic.code.startswith("E"):
                continue
            if had[known] > 0:
                had[known] -= 1
                continue
            span = diagnostic.span
            return f"{diagnostic.message} ({Path(span.file).name}:{span.line})"
        return None

    # ---- completion ----------------------------------------------------------------------
    def completions(self, path: Path, line: int, column: int,
                    text: str) -> list[tuple[str, str, str]]:
        """(label, kind, detail) of what may be written at a position."""
        lines = text.split("\n")
        before = lines[line - 1][:column - 1] if 0 < line <= len(lines) else ""
        model = self.model
        items: list[tuple[str, str, str]] = []
        if not _in_code(before, path.suffix in (".yaml", ".yml")):
            return []
        if path.suffix in (".yaml", ".yml"):
            placed = None if model is None else data_completions(model, text, line, column)
            return _unique(placed) if placed is not None else self._data_completions()
        dotted = re.search(r"\.\w*$", before.rstrip())
        if dotted is not None:
            # The fields of the type of what is before the dot, when the checker knew it.
            known = self.type_ending_at(path, line, dotted.start() + 1)
            if known is None and model is not None:  # a line the last check did not read
                known = _type_written(model, before.rstrip()[: dotted.start()],
                                      "\n".join(lines[: line - 1] + [before]))
            typed = self.fields_of(known)
            if typed is not None:
                return _unique(typed)
            if model is not None:
                for record in model.records.values():
                    for name, info in record.fields.items():
                        items.append((name, "field", f"{record.name}.{name}: {info.type}"))
                for name, info in model.player_fields.items():
                    items.append((name, "field", f"player.{name}: {info.type}"))
                for board in model.boards.values():
                    for name, info in board.fields.items():
                        items.append((name, "field", f"{board.name}.{name}: {info.type}"))
            return _unique(items)
        # What fits the type expected there first (alone where nothing else can be written).
        expected = None if model is None else expected_at(
            model, before, TypeAt(model, path, line, text))
        if expected is not None and model is not None:
            items.extend(candidates(model, expected))
            if expected.only:
                return _unique(items)
        # Keywords where the grammar takes them (all of them where the text before does not
        # read as the start of a declaration).
        allowed = keywords_at(text, line, column)
        words = grammar_words() if allowed is None else allowed
        items.extend((word, "keyword", "keyword") for word in sorted(words))
        items.extend((name, "function", signature) for name, signature in BUILTINS.items())
        if model is not None:
            for name, zone in model.zones.items():
                items.append((name, "zone", f"zone of {zone.card_type}"))
            for enum in model.enums.values():
                items.extend((m, "enum", f"{enum.name} member") for m in enum.members)
            for name, call in model.functions.items():
                params = ", ".join(f"{p}: {ty}" for p, ty in call.params)
                items.append((name, "function", f"{name}({params}) -> {call.returns}"))
            for name, call in model.procedures.items():
                params = ", ".join(f"{p}: {ty}" for p, ty in call.params)
                items.append((name, "function", f"{name}({params})"))
            for record in model.records.values():
                items.extend((e.name, "card" if record.is_card else "value", record.name)
                             for e in record.entries if re.fullmatch(r"\w+", e.name))
            for name, info in model.game_fields.items():
                items.append((name, "variable", f"{name}: {info.type}"))
        return _unique(items)

    def type_ending_at(self, path: Path, line: int, column: int) -> Type | None:
        """The type of the (outermost) expression of a rules file that ends just before a
        position, as the checker found it."""
        model = self.model
        if model is None:
            return None
        name = str(path)
        found: tuple[tuple[int, int], Type] | None = None
        for module in model.modules:
            if not module.declarations or resolved(Path(module.span.file)) != resolved(path):
                continue
            name = module.span.file
            for node in n.walk(module):
                span = node.span
                if (isinstance(node, n.Expr) and span.file == name and
                        (span.end_line, span.end_column) == (line, column)):
                    known = model.types.get(id(node))
                    start = (span.line, span.column)
                    if known is not None and (found is None or start < found[0]):
                        found = start, known
        return None if found is None else found[1]

    def fields_of(self, known: Type | None) -> list[tuple[str, str, str]] | None:
        """The fields a value of this type has; None when the type has none to offer."""
        model = self.model
        while isinstance(known, OptionT):
            known = known.inner
        if model is None or known is None:
            return None
        fields = fields_of_type(model, known)
        if fields is None:
            return None
        return [(name, "field", f"{known}.{name}: {info.type}") for name, info in fields.items()]

    def _data_completions(self) -> list[tuple[str, str, str]]:
        """In a card set: the card types' field names, the keywords and the enum members."""
        model = self.model
        if model is None:
            return []
        items: list[tuple[str, str, str]] = []
        for record in model.records.values():
            if record.is_card:
                items.extend((name, "field", f"{record.name}.{name}: {info.type}")
                             for name, info in record.fields.items())
        items.extend((name, "keyword", decl.text) for name, decl in model.keywords.items())
        for enum in model.enums.values():
            items.extend((m, "enum", f"{enum.name} member") for m in enum.members)
        return _unique(items)

    # ---- outline and colours --------------------------------------------------------------
    def document_symbols(self, path: Path) -> list[tuple[str, str, Span]]:
        """(name, kind, span) of each top-level declaration of a rules file."""
        if self.model is None:
            return []
        target = resolved(path)
        found = []
        for module in self.model.modules:
            for decl in module.declarations:
                if resolved(Path(decl.span.file)) != target:
                    continue
                name = getattr(decl, "name", None) or getattr(decl, "id", None) \
                    or type(decl).__name__.removesuffix("Decl").lower()
                found.append((str(name), type(decl).__name__, decl.span))
        return found

    def semantic_tokens(self, path: Path, text: str) -> list[tuple[int, int, int, str]]:
        """(line, column, length, token type) of each token worth a colour, in order."""
        kinds: dict[Position, str] = {}
        for use in self.by_file.get(resolved(path), []):
            kinds[(use.span.line, use.span.column)] = _token_type(use.symbol)
        return classify(text, kinds)


# ---- helpers ----------------------------------------------------------------------------
TOKEN_TYPES = ["keyword", "string", "comment", "number", "operator", "function", "variable",
               "parameter", "property", "enumMember", "type", "decorator", "class"]


def classify(text: str, kinds: dict[Position, str]) -> list[tuple[int, int, int, str]]:
    """The tokens of a rules text with a type each: keywords, strings, comments, numbers,
    annotations, and the names whose symbol `kinds` knows."""
    words = grammar_words()
    found = []
    line, line_start, position = 1, 0, 0
    while position < len(text):
        match = _TOKEN.match(text, position)
        if match is None:
            position += 1
            continue
        kind, start, position = match.lastgroup, match.start(), match.end()
        if kind == "newline":
            line, line_start = line + 1, position
            continue
        column = start - line_start + 1
        token_type = {"string": "string", "comment": "comment", "int": "number",
                      "annotation": "decorator"}.get(kind or "")
        if kind == "word":
            token_type = kinds.get((line, column)) or (
                "keyword" if match.group() in words else None)
        if token_type is not None:
            found.append((line, column, position - start, token_type))
    return found


_STRING_REST = re.compile(r'(?:[^"\\]|\\.)*"')  # a string's text after its opening quote
_NUMBER_DOT = re.compile(r"(?<![\w.])[0-9]+\.$")


def _in_code(before: str, yaml: bool = False) -> bool:
    """Whether a line's text up to the cursor ends where code is written: not in a comment
    (`#`, `##`) or a string, nor just after a number's dot; in a card set, not in a comment
    line."""
    if yaml:
        return not before.lstrip().startswith("#")
    position = 0
    while position < len(before):
        char = before[position]
        if char == "#":
            return False
        if char == '"':
            rest = _STRING_REST.match(before, position + 1)
            if rest is None:
                return False
            position = rest.end()
            continue
        position += 1
    return _NUMBER_DOT.search(before.rstrip()) is None


def _token_type(symbol: sym.Symbol) -> str:
    match symbol:
        case sym.Function() | sym.Procedure() | sym.Builtin() | sym.Aggregator() | sym.Effect():
            return "function"
        case sym.Parameter():
            return "parameter"
        case sym.EnumMember() | sym.Card() | sym.RecordEntry():
            return "enumMember"
        case (sym.PlayerField() | sym.RecordField() | sym.CardField() | sym.NodeField()
              | sym.DefField() | sym.OwnField() | sym.GameField()):
            return "property"
        case sym.Domain():
            return "type"
        case _:
            return "variable"


class Refused(Exception):
    """A rename that would break the rulebook; the message says why."""


def _check_new_name(name: str, new_name: str) -> None:
    """Refused: a name of the rules renamed to what is not a name, or to a keyword; any name
    (a card's may hold spaces) to nothing, or to more than one line."""
    if not new_name.strip() or "\n" in new_name or "\r" in new_name:
        raise Refused(f"'{name}' cannot be renamed to an empty name or one of several lines")
    if re.fullmatch(r"\w+", name):
        if new_name in RESERVED_WORDS:
            raise Refused(f"'{new_name}' is a keyword of the rules language: it cannot be a "
                          "name")
        if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", new_name):
            raise Refused(f"'{new_name}' is not a name: a name is letters, digits and _, "
                          "not starting with a digit")


def _name_of(symbol: sym.Symbol) -> str:
    name = getattr(symbol, "name", None) or getattr(symbol, "zone", "")
    return name if isinstance(name, str) else ""


def _holds(span: Span, line: int, column: int) -> bool:
    return (span.line, span.column) <= (line, column) <= (span.end_line, span.end_column)


def _word_matches(text: str, name: str) -> list[int]:
    if not name:
        return []
    pattern = re.escape(name)
    if re.fullmatch(r"\w+", name):
        pattern = rf"(?<![\w]){pattern}(?![\w])"
    return [m.start() for m in re.finditer(pattern, text)]


def find_name(source: SourceFile, within: Span, name: str) -> Span | None:
    """The first place `name` is written as a whole word inside a span."""
    for number in range(within.line, min(within.end_line, len(source.lines)) + 1):
        text = source.line(number)
        start = within.column - 1 if number == within.line else 0
        for column in _word_matches(text, name):
            if column >= start and (number < within.end_line
                                    or column + len(name) <= within.end_column - 1):
                return Span(source.name, number, column + 1, number, column + 1 + len(name))
    return None


def _unique(items: list[tuple[str, str, str]]) -> list[tuple[str, str, str]]:
    """Each label once, in the place it first comes (those that fit the cursor's place come
    first), with the last detail given (a builtin's signature over its keyword's)."""
    return list({label: (label, kind, detail) for label, kind, detail in items}.values())


def did_you_mean(diagnostic: Diagnostic) -> list[str]:
    """The names a diagnostic's "did you mean" hint offers."""
    if diagnostic.hint is None or "did you mean" not in diagnostic.hint:
        return []
    return re.findall(r"'([^']+)'", diagnostic.hint)


def misspelt_at(written: str, message: str, names: list[str]) -> tuple[int, int] | None:
    """Where, in the text a diagnostic's span covers, is the name its "did you mean" would
    replace: a span may hold more than the name (`raise playd(actor)`, `cot: 5` in a card set,
    `@S9x`, `"{actr} banks"`). The name the message quotes, written there as a whole word;
    else the word most like the names offered. None: nothing there to replace."""
    for quoted in re.findall(r"'([^'\n]+)'", message.split("\n", 1)[0]):
        bare = quoted.strip("@{}")
        if bare and bare not in names:
            found = _word_matches(written, bare)
            if found:
                return found[0], found[0] + len(bare)
    best: tuple[float, int, int] | None = None
    for word in re.finditer(r"[A-Za-z_][\w]*", written):
        score = max(SequenceMatcher(None, word.group(), name).ratio() for name in names)
        if best is None or score > best[0]:
            best = score, word.start(), word.end()
    return None if best is None else (best[1], best[2])


__all__ = ["Analysis", "Location", "Refused", "TOKEN_TYPES", "did_you_mean", "misspelt_at", "n",
           "rulebook_of"]


def _type_written(model: GameModel, code: str, text: str) -> Type | None:
    """The type of the name that ends code, read from the text as written so far: `actor`
    and the seats are players; a name is what the nearest declaration above gives it
    (`c: Card` in an action's or a procedure's parameters, `for c in hand[...]`)."""
    word = re.search(r"(\w+)$", code)
    if word is None:
        return None
    name = word.group(1)
    if name == "actor" or name in model.player_names:
        return PlayerT()
    for match in reversed(list(re.finditer(
            rf"\b{re.escape(name)}\s*:\s*(\w+)|\bfor\s+{re.escape(name)}\s+in\s+(\w+)",
            text))):
        declared, zone = match.group(1), match.group(2)
        if declared == "player":
            return PlayerT()
        if declared in model.records:
            record = model.records[declared]
            return CardT(declared) if record.is_card else RecordT(declared)
        if declared in model.boards:
            return NodeT(declared)
        if zone in model.zones:
            return CardT(model.zones[zone].card_type)
        if zone == "players":
            return PlayerT()
        if zone in model.boards:
            return NodeT(zone)
    return None

"""Parsing: source text → AST (dsl.nodes). Lark trees stay inside this module and dsl.ast_builder.

Bad input of any kind becomes diagnostics: unreadable bytes, oversized files, runaway nesting and
syntax errors, each with a location and, for common mistakes, a message in the language's words.
"""

from __future__ import annotations

import functools
import importlib.resources
import re
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

from lark import Lark, Token, Tree
from lark.common import LexerConf
from lark.exceptions import (
    UnexpectedCharacters,
    UnexpectedEOF,
    UnexpectedInput,
    UnexpectedToken,
    VisitError,
)
from lark.lexer import ContextualLexer, Lexer, LexerState
from lark.parsers.lalr_analysis import Shift

from dsl import nodes as n
from dsl.ast_builder import MAX_INT_DIGITS, AstBuilder, NumberTooLarge
from dsl.diagnostics import Diagnostics
from dsl.source import SourceFile, Span

# Read as a package resource, never by a path from this file: an installed wheel has no source
# tree around it.
GRAMMAR_RESOURCE = importlib.resources.files("grammar").joinpath("rulecraft.lark")
MAX_SOURCE_BYTES = 16 * 1024 * 1024
MAX_NESTING = 200

# Friendly names for the terminals Lark reports as expected.
_TERMINAL_WORDS = {
    "NAME": ("a name",),
    "INT": ("a number",),
    "STRING": ("a string",),
    "ANNOTATION": ("an @annotation",),
    "CMP_OP": ("a comparison",),
    "ADD_OP": ("'+'", "'-'"),
    "MUL_OP": ("'*'", "'/'", "'%'"),
    "ASSIGN_OP": ("'='", "'+='", "'-='"),
    "$END": ("the end of the file",),
}

# Labelled bad snippets, matched against the parser state of an error (Lark's match_examples).
_EXAMPLES: dict[str, list[str]] = {
    "use '==' to compare two values; '=' assigns": [
        "setup { if x = 1 { } }",
        "setup { let y = x = 1 }",
        "function f() -> bool = a = b",
    ],
    "blocks are written with braces: 'if cond { ... }', not a colon": [
        "setup { if x: }",
        "setup { for p in players: }",
    ],
    "'require' needs a message: require COND else \"why not\"": [
        "phase p { action a() { require x } }",
        'phase p { action a() { require x "msg" } }',
    ],
    "an expression cannot stand alone as a statement; assign it or call a procedure": [
        "setup { 1 }",
        "setup { x + 1 }",
        'setup { "text" }',
    ],
    "a field needs a type: 'name: int = 0'": [
        "player { reserve = 21 }",
        "state { dynasty 1 }",
    ],
}

_NESTING_OPENERS = {"{": "}", "(": ")", "[": "]"}


# ---- keywords and names (docs/language.md, "Keywords and names") ---------------------------
# The words that start a statement or an expression, and the operators: never names. Anywhere
# else a name could go, one of them would be read as a name, so an expression left unfinished
# at the end of a line would swallow the next statement's keyword.
RESERVED_WORDS = frozenset({
    "let", "if", "elif", "else", "for", "repeat", "move", "draw", "shuffle", "create", "reveal",
    "goto", "win", "lose", "raise", "require", "break",
    "and", "or", "not", "in", "then", "true", "false", "none", "actor", "players",
})
_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


@functools.cache
def grammar_words() -> frozenset[str]:
    """Every word of the grammar: the reserved words and the contextual keywords."""
    return frozenset(t.pattern.value for t in _parser().terminals
                     if t.pattern.type == "str" and _WORD.fullmatch(t.pattern.value))


class _KeywordLexer(Lexer):
    """Lark's contextual lexer, with the language's rule for words (docs/language.md).

    The contextual lexer reads a word as a keyword wherever the parser state lists the keyword,
    and as a name elsewhere. Both halves are wrong for this language. LALR(1) merges states,
    so a state lists every keyword that may follow its rule *somewhere*: after a field's
    default, 'names' (which may follow an option's default in the game header) would be a
    keyword, so a field named 'names' would be a syntax error there but not as the first field
    of a block. And where the state does not list it, a statement's keyword would be a name, so
    'x = x *' at the end of a line would swallow the next line's 'goto' as its operand. So:

    * a reserved word (RESERVED_WORDS) is always its keyword;
    * any other word of the grammar is a keyword only where the parser, with its actual stack,
      can shift it; where it can shift a name too (a field's trailing attribute or the next
      field's name), it is a name when a ':' follows it, since no keyword is ever followed by
      one.

    An input that parsed before this rule parses the same unless it used a reserved word as a
    name: the rule only turns into names the keywords the parser would have rejected.
    Looking further than the token's type is needed only for the words that are keywords
    somewhere, in a state that also takes a name, and costs a walk of the parse table."""

    __future_interface__ = 2  # lex(lexer_state, parser_state), as Lark's own lexers

    def __init__(self, conf: LexerConf) -> None:
        self.conf = conf
        words = {t.pattern.value: t.name for t in conf.terminals
                 if t.pattern.type == "str" and _WORD.fullmatch(t.pattern.value)}
        missing = RESERVED_WORDS - words.keys()
        assert not missing, f"reserved words that are no keyword of the grammar: {missing}"
        self.reserved = {word: words[word] for word in RESERVED_WORDS}
        self.contextual = frozenset(t for word, t in words.items() if word not in RESERVED_WORDS)
        # built at the first parse: it needs the parse table, which Lark builds after this
        self.lexer: ContextualLexer | None = None

    def lex(self, lexer_state: LexerState, parser_state: Any) -> Iterator[Token]:
        table: _Table = parser_state.parse_conf.states
        lexer = self.lexer
        if lexer is None:
            lexer = self.lexer = ContextualLexer(
                self.conf, {state: list(row) for state, row in table.items()})
        reserved, contextual = self.reserved, self.contextual
        for token in lexer.lex(lexer_state, parser_state):
            kind = token.type
            if kind == "NAME":
                keyword = reserved.get(token.value)
                if keyword is not None:
                    token.type = keyword
            elif (kind in contextual and "NAME" in table[parser_state.position]
                  and _is_name(token, lexer_state, parser_state.state_stack, table)):
                token.type = "NAME"
            yield token


# An LALR parse table: for each state, the action for each symbol.
_Table = dict[Any, dict[str, tuple[Any, Any]]]


def _is_name(token: Token, lexer_state: LexerState, stack: list[Any], table: _Table) -> bool:
    """Whether a contextual word, lexed as its keyword in a state that also takes a name, is
    a name."""
    if not _shifts(table, stack, token.type):
        return True
    # a TextSlice since Lark 1.3 (pyproject allows 1.1), the text itself before
    text: Any = lexer_state.text
    whole: str = getattr(text, "text", text)
    end: int = getattr(text, "end", len(whole))
    return _colon_follows(whole, token.end_pos or 0, end) and _shifts(table, stack, "NAME")


def _shifts(table: _Table, stack: list[Any], terminal: str, end: Any = None) -> bool:
    """Whether the parser with this state stack would shift `terminal`, after the reductions
    it calls for (or, for the end of the text, reach the `end` state); the stack is left as
    it is."""
    stack = list(stack)
    while True:
        action = table[stack[-1]].get(terminal)
        if action is None:
            return False
        kind, rule = action
        if kind is Shift:
            return True
        if rule.expansion:
            del stack[-len(rule.expansion):]
        stack.append(table[stack[-1]][rule.origin.name][1])
        if stack[-1] == end:
            return True


def _colon_follows(text: str, position: int, end: int) -> bool:
    """Whether the next token after position is ':' (whitespace and comments skipped)."""
    while position < end:
        char = text[position]
        if char == ":":
            return True
        if char == "#":
            position = text.find("\n", position, end)
            if position < 0:
                return False
        elif char in " \t\f\r\n":
            position += 1
        else:
            return False
    return False


@functools.cache
def _parser() -> Lark:
    return Lark(
        GRAMMAR_RESOURCE.read_text(encoding="utf-8"),
        parser="lalr",
        lexer=_KeywordLexer,
        start=["start", "effect_body"],
        propagate_positions=True,
        maybe_placeholders=True,
    )


def read_source(path: Path, name: str, diagnostics: Diagnostics) -> SourceFile | None:
    """Read a file as UTF-8, reporting instead of raising when it cannot be used."""
    origin = Span.point(name)
    try:
        size = path.stat().st_size
        if size > MAX_SOURCE_BYTES:
            diagnostics.add(
                "E0005",
                origin,
                f"file is {size:,} bytes; the limit is {MAX_SOURCE_BYTES:,}",
                hint="split it into several files",
            )
            return None
        data = path.read_bytes()
    except OSError as error:
        diagnostics.add("E0004", origin, f"cannot read file: {error.strerror or error}")
        return None
    return decode_source(data, name, diagnostics)


def decode_source(data: bytes, name: str, diagnostics: Diagnostics) -> SourceFile | None:
    if b"\x00" in data:
        diagnostics.add("E0004", Span.point(name), "file is binary (it contains NUL bytes)")
        return None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        line = data[: error.start].count(b"\n") + 1
        column = error.start - (data.rfind(b"\n", 0, error.start) + 1) + 1
        diagnostics.add(
            "E0004",
            Span.point(name, line, column),
            f"file is not valid UTF-8 (byte 0x{data[error.start]:02x})",
            hint="save the file as UTF-8",
        )
        return None
    return SourceFile(name, text.removeprefix("\ufeff"))


def parse(source: SourceFile, diagnostics: Diagnostics) -> n.Module | None:
    """Parse one rules file; None (with diagnostics) when it is not valid."""
    if not source.text.strip():
        diagnostics.add("E0007", Span.point(source.name), "file is empty")
        return None
    module = _build(source, "start", (0, 0), diagnostics)
    if module is None:
        return None
    assert isinstance(module, n.Module)
    if not module.declarations:
        diagnostics.add("E0007", Span.point(source.name), "file has no declarations",
                        hint="a rulebook starts with: game NAME { ... }")
        return None
    return module


def parse_effect(
    text: str,
    source: SourceFile,
    shift: tuple[int, int],
    diagnostics: Diagnostics,
    shapes: EffectShapes | None = None,
) -> n.Block | None:
    """Parse the statements of an effect held in a data file (a card set). Positions in `text`
    plus `shift` (lines, columns) are positions in `source`, the data file. With `shapes`, texts
    that differ only in their numbers share one Lark parse (the result is the same)."""
    if not text.strip():
        return n.Block((), span=Span.point(source.name, 1 + shift[0], 1 + shift[1]))
    if shapes is not None:
        moved = shapes.block(text, source.name, shift)
        if moved is not None:
            return moved  # a text that parses cleanly: no diagnostics
    local = Diagnostics()
    own = SourceFile(source.name, text)
    tree = shapes.tree(text) if shapes is not None else None
    if tree is not None:
        block = _to_ast(tree, own, shift, local)
    else:
        block = _build(own, "effect_body", shift, local)
    dl, dc = shift
    for d in local.items:
        s = d.span
        diagnostics.items.append(replace(d, span=Span(s.file, s.line + dl, s.column + dc,
                                                      s.end_line + dl, s.end_column + dc)))
    assert block is None or isinstance(block, n.Block)
    return block


# A whole number standing alone (not part of a name), or a string or comment, whose numbers are
# left alone: only the first alternative is a number to take out of an effect's shape.
_NUMBER_STRING_OR_COMMENT = re.compile(
    r'(?<![A-Za-z0-9_])([0-9]+)(?![A-Za-z0-9_])|"(?:[^"\\\n]|\\.)*"|#[^\n]*'
)


class EffectShapes:
    """Lark parse trees of effect texts by shape: the text with every number written as a
    same-length run of 1s. Card texts mostly differ only in numbers ("damage(t, 3)", "damage(t,
    7)"), and parsing is most of the cost of reading a big card set.

    The parser's choices depend only on token types, and a standalone run of digits is an INT
    token whatever its digits, so a text's tree is its shape's tree with the INT tokens' values
    changed: same rules, same positions (the runs keep their length). A shape is used only when
    every run taken out is indeed an INT token of its tree; otherwise (a number in an annotation,
    a syntax error, runaway nesting) the text is parsed as itself, so its diagnostics are
    exactly those of a direct parse."""

    def __init__(self) -> None:
        self.trees: dict[str, Tree[Token] | None] = {}
        self.templates: dict[tuple[str, str], _Copier | None] = {}

    def tree(self, text: str) -> Tree[Token] | None:
        """The Lark tree of text, from its shape's; None when text must be parsed directly."""
        found = self.shape(text)
        if found is None:
            return None
        shape, numbers = found
        tree = self.shape_tree(shape, numbers)
        return None if tree is None else _with_numbers(tree, numbers)

    def block(self, text: str, file: str, shift: tuple[int, int]) -> n.Block | None:
        """The AST of text, parsed from `file` at `shift`, copied from its shape's AST (built
        once per shape) with its own numbers and positions: what building it from its tree
        gives, without Lark's transformer for every text. None when text must be built from
        its tree or parsed directly."""
        found = self.shape(text)
        if found is None:
            return None
        shape, numbers = found
        key = (shape, file)
        if key not in self.templates:
            tree = self.shape_tree(shape, numbers)
            built = None if tree is None else _template(tree, shape, file, numbers)
            self.templates[key] = None if built is None else _copier(*built)
        copy = self.templates[key]
        if copy is None:
            return None
        moved = copy(shift[0], shift[1], numbers)
        assert isinstance(moved, n.Block)
        return moved

    def shape(self, text: str) -> tuple[str, dict[int, str]] | None:
        """text's shape and its numbers by position; None when it has none, or one too large
        (reported by the direct parse)."""
        numbers: dict[int, str] = {}
        for match in _NUMBER_STRING_OR_COMMENT.finditer(text):
            digits = match.group(1)
            if digits is not None:
                if len(digits) > MAX_INT_DIGITS:
                    return None
                numbers[match.start(1)] = digits
        if not numbers:
            return None  # nothing to share: the text is its own shape
        return _shape_of(text, numbers), numbers

    def shape_tree(self, shape: str, numbers: dict[int, str]) -> Tree[Token] | None:
        if shape not in self.trees:
            self.trees[shape] = _shape_tree(shape, numbers.keys())
        return self.trees[shape]


# A shape's AST, built at no shift, and where each of its IntLits came from: (the position of
# its INT token, -1 when negated an odd number of times else 1), by id.
_Template = tuple[n.Block, dict[int, tuple[int, int]]]


def _template(
    tree: Tree[Token], shape: str, file: str, numbers: dict[int, str]
) -> _Template | None:
    """The shape's AST, when it builds cleanly and each number is the INT of an IntLit."""
    builder = AstBuilder(SourceFile(file, shape))
    try:
        block = builder.transform(tree)
    except (VisitError, RecursionError):
        return None
    if not isinstance(block, n.Block):
        return None
    origins = builder.int_origins
    literals = [node for node in n.walk(block) if isinstance(node, n.IntLit)]
    if any(id(node) not in origins for node in literals):
        return None
    used = {origins[id(node)][0] for node in literals}
    if not used.issuperset(numbers):
        return None
    return block, {id(node): origins[id(node)] for node in literals}


# A copy of a shape's AST for one text, given the text's shift (lines, columns) and numbers.
_Copier = Callable[[int, int, dict[int, str]], Any]


def _copier(value: object, origins: dict[int, tuple[int, int]]) -> _Copier | None:
    """A function copying value (a node, span, tuple or plain value of a shape's AST) for one
    text: every span moved by the text's shift, each IntLit holding the text's number (with its
    sign) instead of the shape's 1s; None when value is the same in every copy. Worked out once
    per shape, so copying a text's AST does no looking at types or field names."""
    if isinstance(value, n.IntLit):
        start, sign = origins[id(value)]
        default, move = value.value, _span_mover(value.span)

        def int_lit(dl: int, dc: int, numbers: dict[int, str]) -> Any:
            digits = numbers.get(start)
            number = default if digits is None else sign * int(digits)
            return n.IntLit(number, span=move(dl, dc))
        return int_lit
    if isinstance(value, n.Node):
        cls, move = type(value), _span_mover(value.span)
        positional, keywords = _init_fields(cls)
        parts = [(_copier(getattr(value, name), origins), getattr(value, name))
                 for name in positional]
        named = {name: getattr(value, name) for name in keywords}
        if all(copy is None for copy, _ in parts) and not any(named.values()):
            constants = tuple(v for _, v in parts)
            return lambda dl, dc, numbers: cls(*constants, span=move(dl, dc))
        named_parts = [(name, _copier(v, origins), v) for name, v in named.items()]
        return lambda dl, dc, numbers: cls(
            *[v if copy is None else copy(dl, dc, numbers) for copy, v in parts],
            span=move(dl, dc),
            **{name: v if copy is None else copy(dl, dc, numbers)
               for name, copy, v in named_parts})
    if isinstance(value, Span):  # a second span of a node (a name's, say)
        move_span = _span_mover(value)
        return lambda dl, dc, numbers: move_span(dl, dc)
    if isinstance(value, tuple):
        items = [(_copier(item, origins), item) for item in value]
        if all(copy is None for copy, _ in items):
            return None
        return lambda dl, dc, numbers: tuple(
            [v if copy is None else copy(dl, dc, numbers) for copy, v in items])
    return None


def _span_mover(s: Span) -> Callable[[int, int], Span]:
    file, line, column, end_line, end_column = s.file, s.line, s.column, s.end_line, s.end_column
    return lambda dl, dc: Span(file, line + dl, column + dc, end_line + dl, end_column + dc)


_INIT_FIELDS: dict[type, tuple[tuple[str, ...], tuple[str, ...]]] = {}


def _init_fields(cls: type) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """A node class's positional fields, in the order its __init__ takes them, and its keyword
    fields but the span."""
    found = _INIT_FIELDS.get(cls)
    if found is None:
        fields = cls.__dataclass_fields__.items()  # type: ignore[attr-defined]
        found = _INIT_FIELDS[cls] = (
            tuple(name for name, f in fields if not f.kw_only),
            tuple(name for name, f in fields if f.kw_only and name != "span"))
    return found


def _shape_of(text: str, numbers: dict[int, str]) -> str:
    parts: list[str] = []
    done = 0
    for start, digits in numbers.items():
        parts.append(text[done:start])
        parts.append("1" * len(digits))
        done = start + len(digits)
    parts.append(text[done:])
    return "".join(parts)


def _shape_tree(shape: str, starts: Iterable[int]) -> Tree[Token] | None:
    """The shape's tree when it parses cleanly and each number is an INT token of it."""
    if not _nesting_ok(SourceFile("<shape>", shape), Diagnostics()):
        return None
    try:
        tree = _parser().parse(shape, start="effect_body")
    except UnexpectedInput:
        return None
    ints = {t.start_pos for t in tree.scan_values(lambda v: isinstance(v, Token))
            if t.type == "INT"}
    return tree if ints.issuperset(starts) else None


def _with_numbers(tree: Tree[Token], numbers: dict[int, str]) -> Tree[Token]:
    """A copy of tree whose INT tokens hold the given digits (by start position); subtrees
    without numbers are shared, as transforming never changes a tree."""
    children: list[Any] = []
    changed = False
    for child in tree.children:
        new: Any
        if isinstance(child, Tree):
            new = _with_numbers(child, numbers)
        elif isinstance(child, Token) and child.type == "INT" and child.start_pos in numbers:
            new = Token.new_borrow_pos("INT", numbers[child.start_pos], child)
        else:
            new = child
        changed = changed or new is not child
        children.append(new)
    return Tree(tree.data, children, tree.meta) if changed else tree


def _build(
    source: SourceFile, start: str, shift: tuple[int, int], diagnostics: Diagnostics
) -> n.Node | None:
    """Parse source.text from the grammar rule `start` and build its AST, with spans moved by
    `shift`; diagnostics are in the text's own coordinates."""
    if not _nesting_ok(source, diagnostics):
        return None
    try:
        tree = _parser().parse(source.text, start=start)
    except UnexpectedInput as error:
        _report_syntax_error(error, source, start, diagnostics)
        return None
    return _to_ast(tree, source, shift, diagnostics)


def _to_ast(
    tree: Tree[Token], source: SourceFile, shift: tuple[int, int], diagnostics: Diagnostics
) -> n.Node | None:
    try:
        node = AstBuilder(source, shift).transform(tree)
    except VisitError as error:
        cause = error.orig_exc
        if isinstance(cause, NumberTooLarge):
            diagnostics.add("E0001", cause.span, "this number is too large",
                            hint=f"numbers have at most {MAX_INT_DIGITS} digits")
            return None
        if not isinstance(cause, RecursionError):
            raise
        _too_deep(source, diagnostics)
        return None
    except RecursionError:
        _too_deep(source, diagnostics)
        return None
    assert isinstance(node, n.Node)
    return node


def _too_deep(source: SourceFile, diagnostics: Diagnostics) -> None:
    """Report runaway nesting at the longest line: where such expressions are written."""
    number = max(range(len(source.lines)), key=lambda i: len(source.lines[i]), default=0) + 1
    diagnostics.add("E0006", Span.point(source.name, number, 1),
                    "this expression is nested too deeply to compile",
                    hint="split it with 'let' or a function")


def _nesting_ok(source: SourceFile, diagnostics: Diagnostics) -> bool:
    """Brackets nested beyond MAX_NESTING are reported before Lark or any pass recurses."""
    depth = 0
    for number, line in enumerate(_code_only(source.text).split("\n"), 1):
        for column, char in enumerate(line, 1):
            if char in _NESTING_OPENERS:
                depth += 1
                if depth > MAX_NESTING:
                    diagnostics.add(
                        "E0006",
                        Span.point(source.name, number, column),
                        f"brackets are nested more than {MAX_NESTING} deep",
                        hint="flatten the rule with 'let' or a procedure",
                    )
                    return False
            elif char in "})]" and depth > 0:
                depth -= 1
    code = _code_only(source.text)
    operators = re.search(r"(?:(?:\bnot\b|-)\s*){" + str(MAX_NESTING) + ",}", code)
    if operators:
        start = operators.start()
        line_number = code.count("\n", 0, start) + 1
        column_number = start - (code.rfind("\n", 0, start) + 1) + 1
        diagnostics.add(
            "E0006",
            Span.point(source.name, line_number, column_number),
            f"more than {MAX_NESTING} prefix operators in a row",
        )
        return False
    return True


def _code_only(text: str) -> str:
    """The text with strings and comments blanked out, keeping every position."""
    out = list(text)
    in_string = escaped = in_comment = False
    for i, char in enumerate(text):
        if char == "\n":
            in_comment = in_string = False
            continue
        if in_comment:
            out[i] = " "
        elif in_string:
            out[i] = " "
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == "#":
            in_comment = True
            out[i] = " "
        elif char == '"':
            in_string = True
    return "".join(out)


_VISIBILITY_TERMINALS = frozenset({"PUBLIC", "SECRET", "HIDDEN", "OWNER", "PRIVATE"})
# Kinds of text that "expected ..." names with one phrase, instead of the terminals that can
# begin them, when the terminals of the kind's core are all expected: (phrase, core, all).
_EXPRESSION_START = frozenset({"INT", "STRING", "NAME", "TRUE", "FALSE", "NONE", "ACTOR",
                               "PLAYERS", "LPAR", "LSQB", "NOT", "IF", "MINUS"})
_KINDS = (
    ("a declaration", frozenset({"GAME", "ENUM", "CARD", "ZONE", "STATE", "PHASE", "SETUP"}),
     frozenset({"GAME", "ENUM", "RECORD", "CARD", "DATA", "BOARD", "ZONE", "STATE", "PLAYER",
                "EVENT", "TRIGGER", "FUNCTION", "PROCEDURE", "SETUP", "PHASE", "CHECKPOINT",
                "SEED", "DECISION", "CARDS", "DECKS", "KEYWORD", "DECK", "ANNOTATION"})),
    ("a statement", frozenset({"LET", "MOVE", "GOTO", "WIN"}),
     _EXPRESSION_START | {"LET", "IF", "FOR", "REPEAT", "MOVE", "DRAW", "SHUFFLE", "CREATE",
                          "REVEAL", "GOTO", "WIN", "LOSE", "RAISE", "REQUIRE", "BREAK",
                          "ANNOTATION"}),
    ("an expression", frozenset({"INT", "STRING", "NAME", "LPAR", "TRUE", "NONE"}),
     _EXPRESSION_START),
    ("an operator", frozenset({"ADD_OP", "MUL_OP", "AND", "OR"}),
     frozenset({"DOT", "LSQB", "LPAR", "ADD_OP", "MUL_OP", "CMP_OP", "IN", "AND", "OR",
                "__ANON_0"})),
    ("a visibility", _VISIBILITY_TERMINALS, _VISIBILITY_TERMINALS),
)


def _describe_expected(expected: set[str]) -> str:
    words: list[str] = []
    expected = set(expected)
    for phrase, core, kind in _KINDS:
        if core <= expected:
            words.append(phrase)
            expected -= kind
    for name in sorted(expected):
        if name in _TERMINAL_WORDS:
            words.extend(_TERMINAL_WORDS[name])
            continue
        try:
            pattern = _parser().get_terminal(name).pattern
        except KeyError:
            continue
        if pattern.type == "str":
            words.append(f"'{pattern.value}'")
        else:
            words.append(name.lower())
    words = sorted(set(words))
    if len(words) > 8:
        return "something else here"
    if len(words) > 1:
        return ", ".join(words[:-1]) + " or " + words[-1]
    return words[0] if words else "something else"


def _token_text(token: Token) -> str:
    if token.type == "$END":
        return "the end of the file"
    text = str(token)
    return f"'{text[:40]}'" if text else token.type.lower()


def _viable(table: _Table, stack: list[Any], end: Any) -> set[str]:
    """The terminals the parser with this state stack would shift next, after the reductions
    each calls for, or accept as the end of the text."""
    return {terminal for terminal in table[stack[-1]]
            if terminal.isupper() and _shifts(table, stack, terminal, end)}


def _expected(error: UnexpectedInput) -> set[str]:
    """What could have come where the parse failed: the terminals the parser, with its actual
    stack, would go on with. Lark names the whole row of the state it stopped in, and LALR
    merges states that differ only in what may follow them, so the row holds terminals that
    are valid only after other text: in a comprehension, the row after 'where COND' has the
    'ordered' and '{' of a 'for' loop, and 'ordered' was the word that did not fit. (When its
    lexer stops, Lark names the terminals of the state's lexer instead, which leave out the
    keywords.)"""
    expected = set(getattr(error, "expected", set()) or set())
    state = getattr(error, "state", None)
    stack = getattr(state, "state_stack", None)
    conf = getattr(state, "parse_conf", None)
    if not stack or conf is None:
        return expected
    return _viable(conf.states, stack, conf.end_state)


def _last_tokens(source: SourceFile, start_rule: str, stop: Token) -> list[tuple[Token, set[str]]]:
    """The two tokens read before `stop`, each with what could have come in its place, from a
    second parse of the text up to `stop`."""
    parser = _parser().parse_interactive(source.text, start=start_rule)
    state = parser.parser_state
    table, end = state.parse_conf.states, state.parse_conf.end_state
    read: deque[tuple[Token, list[Any]]] = deque(maxlen=2)
    try:
        for token in parser.iter_parse():
            if token.start_pos == stop.start_pos:
                break
            read.append((token, list(state.state_stack)))
    except UnexpectedInput:
        pass  # at `stop`, when the lexer finds no terminal the parser can take there
    return [(token, _viable(table, stack, end)) for token, stack in read]


def _report_syntax_error(
    error: UnexpectedInput, source: SourceFile, start_rule: str, diagnostics: Diagnostics
) -> None:
    line = max(1, getattr(error, "line", 1) or 1)
    column = max(1, getattr(error, "column", 1) or 1)
    if isinstance(error, UnexpectedCharacters):
        position = error.pos_in_stream or 0
        char = source.text[position] if position < len(source.text) else ""
        what = "string is never closed" if char == '"' else f"unexpected character {char!r}"
        code = "E0002" if char == '"' else "E0003"
        diagnostics.add(
            code,
            Span.point(source.name, line, column),
            what,
            hint="strings are closed on the same line" if char == '"' else None,
        )
        return
    token = getattr(error, "token", None)
    at_end = isinstance(error, UnexpectedEOF) or (token is not None and token.type == "$END")
    expected = _expected(error)
    if at_end:
        last = len(source.lines) or 1
        end_col = len(source.line(last)) + 1
        diagnostics.add(
            "E0002",
            Span.point(source.name, last, end_col),
            f"the file ended early; expected {_describe_expected(expected)}",
            notes=_open_block_notes(source),
            hint="close every '{' with '}'",
        )
        return
    assert token is not None
    misnamed = _reserved_name_before(token, expected, source)
    if misnamed is not None:
        # 'x: int = 0  and: int' ends the default at the ':' ('0 and' is an expression), but
        # the mistake is the name
        word, start = misnamed
        line = source.text.count("\n", 0, start) + 1
        column = start - (source.text.rfind("\n", 0, start) + 1) + 1
        diagnostics.add("E0001", Span(source.name, line, column, line, column + len(word)),
                        f"unexpected '{word}'; a reserved word cannot be a name",
                        hint=_reserved_hint(word))
        return
    if _after_a_field(token, expected, source, start_rule, diagnostics):
        return
    label = _hint_from_context(token, expected, source)
    if label is None and isinstance(error, UnexpectedToken):
        try:
            label = error.match_examples(
                functools.partial(_parser().parse, start="start"), _EXAMPLES, use_accepts=True
            )
        except Exception:  # noqa: BLE001 - a failed match only costs the friendlier wording
            label = None
    width = max(1, len(str(token)))
    span = Span(source.name, line, column, line, column + width)
    message = f"unexpected {_token_text(token)}; expected {_describe_expected(expected)}"
    diagnostics.add("E0001", span, message, hint=label)


# What a field may hold (docs/language.md, "Field declarations").
_FIELD_FORM = "NAME: TYPE [per player | per card] [= DEFAULT] [public | secret | hidden]"
_SECRET_WORDS = frozenset({"secret", "owner", "private"})  # the same on a field
_VISIBILITY_WORDS = _SECRET_WORDS | {"public", "hidden"}


def _after_a_field(token: Token, expected: set[str], source: SourceFile, start_rule: str,
                   diagnostics: Diagnostics) -> bool:
    """A word written after a complete field, on its line (`saw: Card? = none secret to
    player`): the parser read it as the name of the next field and fails at the word after it,
    for want of a ':'. The mistake is the word, which no field can hold; report it there."""
    if expected != {"COLON"}:
        return False
    read = _last_tokens(source, start_rule, token)
    if len(read) < 2:
        return False
    (previous, _), (word, could_be) = read
    if (word.type != "NAME" or previous.end_line != word.line
            or previous.type in ("LBRACE", "COMMA")  # a first field, an entry's next value
            or "RBRACE" not in could_be):  # not after a complete field: '(a b)', say
        return False
    line, column = word.line or 1, word.column or 1
    if str(previous) in _SECRET_WORDS:
        hint = (f"a field's visibility is one word, and '{previous}' shows a player's field to "
                "that player only. For a value that each player sees alone, declare the field "
                "on the player who sees it: 'seen: Card? per player = none secret' in "
                "'player { }', read as q.seen[p]")
    elif str(previous) in _VISIBILITY_WORDS:
        hint = "a field's visibility is one word"
    else:
        hint = f"here '{word}' would begin the next field, which needs ':' and a type"
    diagnostics.add("E0001", Span(source.name, line, column, line, column + len(str(word))),
                    f"unexpected '{word}' after {_token_text(previous)}: a field is written "
                    f"'{_FIELD_FORM}'", hint=hint)
    return True


def _hint_from_context(token: Token, expected: set[str], source: SourceFile) -> str | None:
    """Hints for the commonest mistakes, read from the token and what the parser expected.

    match_examples alone compares whole parser states (stack depth included), so it only
    recognises a mistake at the depth of its example; these rules work at any depth."""
    text = str(token)
    before = _code_only(source.text)[: token.start_pos or 0]
    if text == "=" and ("CMP_OP" in expected or "IN" in expected):
        return "use '==' to compare two values; '=' assigns"
    if "ELSE" in expected and text != "else":
        statement = before[max(before.rfind("{"), before.rfind("}")) + 1 :]
        if re.search(r"\brequire\b", statement):
            return "'require' needs a message: require COND else \"why not\""
    if text == ":" and "LBRACE" in expected:
        return "blocks are written with braces: 'if cond { ... }', not a colon"
    if text == "ordered" and token.type == "NAME" and _in_aggregate(before):
        return ("'ordered by' sorts only the loop of a 'for' statement; an aggregate such as "
                "first(...) takes no order. To pick by the smallest value, test for it: "
                "first(p for p in players where p.score == min(q.score for q in players))")
    if text in RESERVED_WORDS and token.type != "NAME" and "NAME" in expected:
        if _colon_follows(source.text, token.end_pos or 0, len(source.text)):
            return _reserved_hint(text)
        if _tail(before)[0] in _UNFINISHED:
            return f"the expression before '{text}' is unfinished ('{text}' is a reserved word)"
        return f"'{text}' is a reserved word of the language; choose another name"
    return None


def _in_aggregate(code: str) -> bool:
    """Whether the code ends inside the brackets of an aggregate: 'f(x for x in D ...'."""
    depth = 0
    for position in range(len(code) - 1, -1, -1):
        char = code[position]
        if char in ")]}":
            depth += 1
        elif char in "([{":
            if depth == 0:
                return char == "(" and re.search(r"\bfor\b", code[position:]) is not None
            depth -= 1
    return False


def _reserved_hint(word: str) -> str:
    return f"'{word}' is a reserved word and cannot be a name; rename it"


def _reserved_name_before(
    token: Token, expected: set[str], source: SourceFile
) -> tuple[str, int] | None:
    """A reserved word written as a field's or a parameter's name, when the parser only fails
    at the ':' after it: the word and where it starts. No keyword is ever followed by ':'
    (a ':' where a block's '{' is expected gets the braces hint instead)."""
    if str(token) != ":" or "LBRACE" in expected:
        return None
    word, start = _tail(_code_only(source.text)[: token.start_pos or 0])
    return (word, start) if word in RESERVED_WORDS else None


_WORD_CHARACTERS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_")


def _tail(code: str) -> tuple[str, int]:
    """The last word or other character of code, trailing whitespace left out, and where it
    starts."""
    end = len(code.rstrip())
    start = end
    while start > 0 and code[start - 1] in _WORD_CHARACTERS:
        start -= 1
    start = min(start, max(end - 1, 0))
    return code[start:end], start


# The ends of an unfinished expression: what comes next must finish it.
_UNFINISHED = frozenset({*"+-*/%=<>,([", "and", "or", "not", "in", "then", "else", "if", "elif"})


def _open_block_notes(source: SourceFile) -> list[str]:
    stack: list[tuple[str, int, int]] = []
    for number, line in enumerate(_code_only(source.text).split("\n"), 1):
        for column, char in enumerate(line, 1):
            if char in _NESTING_OPENERS:
                stack.append((char, number, column))
            elif char in "})]" and stack:
                stack.pop()
    if not stack:
        return []
    bracket, at_line, at_column = stack[-1]
    return [f"the '{bracket}' opened at {source.name}:{at_line}:{at_column} is never closed"]

"""Parsing: source text → AST (dsl.nodes). Lark trees never leave this module.

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

from lark import Lark, Token, Transformer, Tree, v_args
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
from dsl.diagnostics import Diagnostics
from dsl.source import SourceFile, Span

# Read as a package resource, never by a path from this file: an installed wheel has no source
# tree around it.
GRAMMAR_RESOURCE = importlib.resources.files("grammar").joinpath("rulecraft.lark")
MAX_SOURCE_BYTES = 16 * 1024 * 1024
MAX_NESTING = 200
MAX_INT_DIGITS = 18


class _TooLarge(Exception):  # noqa: N818 - internal signal, turned into a diagnostic
    def __init__(self, span: Span) -> None:
        super().__init__("number too large")
        self.span = span

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
    "goto", "win", "lose", "raise", "require",
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
    builder = _ToAst(SourceFile(file, shape))
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
        node = _ToAst(source, shift).transform(tree)
    except VisitError as error:
        cause = error.orig_exc
        if isinstance(cause, _TooLarge):
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
                          "REVEAL", "GOTO", "WIN", "LOSE", "RAISE", "REQUIRE", "ANNOTATION"}),
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


# ---- Lark tree → AST -----------------------------------------------------------------------
def _unescape(token: str) -> str:
    body = token[1:-1]
    return re.sub(
        r"\\(.)",
        lambda m: {"n": "\n", "t": "\t"}.get(m.group(1), m.group(1)),
        body,
    )


@v_args(meta=True)
class _ToAst(Transformer[Token, Any]):
    """One method per grammar rule; each returns the AST node of the same name."""

    def __init__(self, source: SourceFile, shift: tuple[int, int] = (0, 0)) -> None:
        super().__init__()
        self.source = source
        self.docs = self._doc_comments(source)
        # An effect parsed out of a data file: (lines, columns) to add to every position.
        self.line_shift, self.column_shift = shift
        # Where each IntLit's number is in the text, and its sign (see EffectShapes.block).
        self.int_origins: dict[int, tuple[int, int]] = {}

    @staticmethod
    def _doc_comments(source: SourceFile) -> dict[int, str]:
        """`##` comment lines directly above a line become that line's documentation."""
        docs: dict[int, str] = {}
        pending: list[str] = []
        for number, line in enumerate(source.lines, 1):
            stripped = line.strip()
            if stripped.startswith("##"):
                pending.append(stripped[2:].strip())
            elif stripped.startswith("@") and pending:
                continue
            else:
                if pending and stripped:
                    docs[number] = " ".join(pending)
                pending = []
        return docs

    def _span(self, meta: Any) -> Span:
        if getattr(meta, "empty", True):
            return Span.point(self.source.name, 1 + self.line_shift, 1 + self.column_shift)
        return self._shifted(meta.line, meta.column, meta.end_line, meta.end_column)

    def _tspan(self, token: Token) -> Span:
        return self._shifted(
            token.line or 1,
            token.column or 1,
            token.end_line or token.line or 1,
            token.end_column or (token.column or 1) + len(token),
        )

    def _shifted(self, line: int, column: int, end_line: int, end_column: int) -> Span:
        dl, dc = self.line_shift, self.column_shift
        return Span(self.source.name, line + dl, column + dc, end_line + dl, end_column + dc)

    def _doc(self, meta: Any) -> str:
        return self.docs.get(getattr(meta, "line", 0), "")

    # -- module and items
    def start(self, meta: Any, items: list[n.Decl]) -> n.Module:
        return n.Module(tuple(items), span=self._span(meta))

    def item(self, meta: Any, children: list[Any]) -> n.Decl:
        annotations, decl = children
        doc = self.docs.get(decl.span.line, "")
        first = annotations[0].span.line if annotations else decl.span.line
        doc = doc or self.docs.get(first, "")
        return type(decl)(  # type: ignore[no-any-return]
            **{f: getattr(decl, f) for f in decl.__dataclass_fields__ if f not in ("span",)}
            | {"annotations": tuple(annotations), "doc": doc},
            span=decl.span,
        )

    def annotations(self, meta: Any, tokens: list[Token]) -> list[n.Annotation]:
        return [n.Annotation(str(t)[1:], span=self._tspan(t)) for t in tokens]

    def game(self, meta: Any, children: list[Any]) -> n.Game:
        name, *items = children
        title = str(name)
        min_players = max_players = 2
        names: tuple[Token, ...] = ()
        options = []
        for kind, value in items:
            if kind == "title":
                title = value
            elif kind == "players":
                min_players, max_players = value
            elif kind == "names":
                names = value
            else:
                options.append(value)
        return n.Game(
            str(name), title, min_players, max_players, tuple(str(t) for t in names),
            tuple(options), tuple(self._tspan(t) for t in names), span=self._span(meta),
        )

    def title(self, meta: Any, c: list[Token]) -> tuple[str, str]:
        return ("title", _unescape(c[0]))

    def player_count(self, meta: Any, c: list[Token | None]) -> tuple[str, tuple[int, int]]:
        low = int(str(c[0]))
        high = int(str(c[1])) if len(c) > 1 and c[1] is not None else low
        return ("players", (low, high))

    def player_names(self, meta: Any, c: list[Token]) -> tuple[str, tuple[Token, ...]]:
        return ("names", tuple(c))

    def option_decl(self, meta: Any, c: list[Any]) -> tuple[str, n.OptionDecl]:
        name, type_, default, description = c
        text = _unescape(description) if description is not None else ""
        return ("option", n.OptionDecl(str(name), type_, default, text, span=self._span(meta)))

    # -- types and data
    def enum_decl(self, meta: Any, c: list[Token]) -> n.EnumDecl:
        name, *members = c
        return n.EnumDecl(
            str(name),
            tuple((str(m), self._tspan(m)) for m in members),
            span=self._span(meta),
        )

    def record_decl(self, meta: Any, c: list[Any]) -> n.RecordDecl:
        return n.RecordDecl(str(c[0]), tuple(c[1:]), False, span=self._span(meta))

    def card_decl(self, meta: Any, c: list[Any]) -> n.RecordDecl:
        fields = tuple(x for x in c[1:] if isinstance(x, n.FieldDecl))
        requires = tuple(x for x in c[1:] if isinstance(x, n.CardRequire))
        return n.RecordDecl(str(c[0]), fields, True, requires, span=self._span(meta))

    def card_require(self, meta: Any, c: list[Any]) -> n.CardRequire:
        return n.CardRequire(c[0], _unescape(c[1]), span=self._span(meta))

    def field_decl(self, meta: Any, c: list[Any]) -> n.FieldDecl:
        name, type_, per, default, visibility = c
        return n.FieldDecl(
            str(name),
            type_,
            per == "player",
            default,
            str(visibility) if visibility is not None else "public",
            per_card=per == "card",
            span=self._span(meta),
        )

    def per_player(self, meta: Any, c: list[Any]) -> str:
        return "player"

    def per_card(self, meta: Any, c: list[Any]) -> str:
        return "card"

    def effect_lit(self, meta: Any, c: list[n.Block]) -> n.EffectLit:
        return n.EffectLit(c[0], span=self._span(meta))

    def effect_body(self, meta: Any, c: list[n.Stmt]) -> n.Block:
        return n.Block(tuple(c), span=self._span(meta))

    def keyword_decl(self, meta: Any, c: list[Token]) -> n.KeywordDecl:
        return n.KeywordDecl(str(c[0]), _unescape(c[1]), span=self._span(meta))

    def deck_decl(self, meta: Any, c: list[Any]) -> n.DeckDecl:
        return n.DeckDecl(str(c[0]), self._tspan(c[0]), c[1], span=self._span(meta))

    def effect_type(self, meta: Any, c: list[Any]) -> n.EffectType:
        reaches = c[-1] if c and isinstance(c[-1], tuple) else None
        params = tuple(p for p in c if isinstance(p, n.Param))
        return n.EffectType(params, reaches, span=self._span(meta))

    def reaches(self, meta: Any, c: list[Token]) -> tuple[tuple[str, Span], ...]:
        return tuple((str(t), self._tspan(t)) for t in c)

    def visibility(self, meta: Any, c: list[Token]) -> str:
        return str(c[0])

    def data_decl(self, meta: Any, c: list[Any]) -> n.DataDecl:
        return n.DataDecl(str(c[0]), tuple(c[1:]), span=self._span(meta))

    def entry(self, meta: Any, c: list[Any]) -> n.Entry:
        name, description, *values = c
        text = _unescape(name) if name.type == "STRING" else str(name)
        return n.Entry(
            text,
            tuple(v for v in values if v is not None),
            description or "",
            span=self._span(meta),
        )

    def description(self, meta: Any, c: list[Token]) -> str:
        return _unescape(c[0])

    def field_value(self, meta: Any, c: list[Any]) -> n.FieldValue:
        return n.FieldValue(str(c[0]), c[1], span=self._span(meta))

    def cards_decl(self, meta: Any, c: list[Token]) -> n.CardsDecl:
        return n.CardsDecl(_unescape(c[0]), span=self._span(meta))

    def decks_decl(self, meta: Any, c: list[Token]) -> n.DecksDecl:
        return n.DecksDecl(_unescape(c[0]), span=self._span(meta))

    def named_type(self, meta: Any, c: list[Token]) -> n.NamedType:
        return n.NamedType(str(c[0]), span=self._span(meta))

    def list_type(self, meta: Any, c: list[n.TypeExpr]) -> n.ListType:
        return n.ListType(c[0], span=self._span(meta))

    def optional_type(self, meta: Any, c: list[n.TypeExpr]) -> n.OptionalType:
        return n.OptionalType(c[0], span=self._span(meta))

    # -- boards and zones
    def board_decl(self, meta: Any, c: list[Any]) -> n.BoardDecl:
        return n.BoardDecl(str(c[0]), c[1], tuple(c[2:]), span=self._span(meta))

    def graph_file(self, meta: Any, c: list[Token]) -> n.GraphFile:
        return n.GraphFile(_unescape(c[0]), span=self._span(meta))

    def graph_inline(self, meta: Any, c: list[list[str]]) -> n.GraphInline:
        edges: list[tuple[str, str]] = []
        nodes: dict[str, None] = {}
        for chain in c:
            nodes.update(dict.fromkeys(chain))
            edges.extend(zip(chain, chain[1:], strict=False))
        return n.GraphInline(tuple(edges), tuple(nodes), span=self._span(meta))

    def edge(self, meta: Any, c: list[Token]) -> list[str]:
        return [str(t) for t in c]

    def grid_shape(self, meta: Any, c: list[Token]) -> n.GridShape:
        return n.GridShape(int(str(c[0])), int(str(c[1])), span=self._span(meta))

    def hex_file(self, meta: Any, c: list[Token]) -> n.HexFile:
        return n.HexFile(_unescape(c[0]), tuple(_unescape(x) for x in c[1:]),
                         span=self._span(meta))

    def zone_decl(self, meta: Any, c: list[Any]) -> n.ZoneDecl:
        name, card_type, *attrs = c
        ordered = False
        visibility = "public"
        per: list[tuple[str, Span]] = []
        capacity = None
        for kind, value in attrs:
            if kind == "ordered":
                ordered = True
            elif kind == "visibility":
                visibility = value
            elif kind == "per":
                per.append(value)
            else:
                capacity = value
        return n.ZoneDecl(
            str(name), str(card_type), self._tspan(card_type), ordered, visibility,
            tuple(per), capacity, span=self._span(meta),
        )

    def zone_order(self, meta: Any, c: list[Token]) -> tuple[str, bool]:
        return ("ordered", True)

    def zone_visibility(self, meta: Any, c: list[str]) -> tuple[str, str]:
        return ("visibility", c[0])

    def zone_per(self, meta: Any, c: list[Token]) -> tuple[str, tuple[str, Span]]:
        return ("per", (str(c[0]), self._tspan(c[0])))

    def zone_capacity(self, meta: Any, c: list[Token]) -> tuple[str, int]:
        return ("capacity", int(str(c[0])))

    def state_decl(self, meta: Any, c: list[n.FieldDecl]) -> n.StateDecl:
        return n.StateDecl(tuple(c), span=self._span(meta))

    def player_decl(self, meta: Any, c: list[n.FieldDecl]) -> n.PlayerDecl:
        return n.PlayerDecl(tuple(c), span=self._span(meta))

    # -- events and rules
    def param(self, meta: Any, c: list[Any]) -> n.Param:
        return n.Param(str(c[0]), c[1], span=self._span(meta))

    def event_decl(self, meta: Any, c: list[Any]) -> n.EventDecl:
        params = tuple(p for p in c[1:] if p is not None)
        return n.EventDecl(str(c[0]), params, span=self._span(meta))

    def trigger_decl(self, meta: Any, c: list[Any]) -> n.TriggerDecl:
        name, event, when, body = c
        return n.TriggerDecl(
            str(name), str(event), self._tspan(event), when, body, span=self._span(meta)
        )

    def function_decl(self, meta: Any, c: list[Any]) -> n.FunctionDecl:
        name, *params, returns, body = c
        return n.FunctionDecl(
            str(name), tuple(p for p in params if p is not None), returns, body,
            span=self._span(meta),
        )

    def procedure_decl(self, meta: Any, c: list[Any]) -> n.ProcedureDecl:
        name, *params, body = c
        return n.ProcedureDecl(
            str(name), tuple(p for p in params if p is not None), body, span=self._span(meta)
        )

    def setup_decl(self, meta: Any, c: list[n.Block]) -> n.SetupDecl:
        return n.SetupDecl(c[0], span=self._span(meta))

    def checkpoint_decl(self, meta: Any, c: list[Any]) -> n.CheckpointDecl:
        return n.CheckpointDecl(str(c[0]), c[1], span=self._span(meta))

    def phase_decl(self, meta: Any, c: list[Any]) -> n.PhaseDecl:
        name, *items = c
        enter = done = actor = None
        actions: list[n.ActionDecl] = []
        checkpoints: list[n.Block] = []
        for kind, value in items:
            if kind == "enter":
                enter = value
            elif kind == "done":
                done = value
            elif kind == "actor":
                actor = value
            elif kind == "action":
                actions.append(value)
            else:
                checkpoints.append(value)
        return n.PhaseDecl(
            str(name), enter, done, actor, tuple(actions), tuple(checkpoints),
            span=self._span(meta),
        )

    def on_enter(self, meta: Any, c: list[n.Block]) -> tuple[str, n.Block]:
        return ("enter", c[0])

    def on_done(self, meta: Any, c: list[n.Block]) -> tuple[str, n.Block]:
        return ("done", c[0])

    def actor_clause(self, meta: Any, c: list[n.Expr]) -> tuple[str, n.Expr]:
        return ("actor", c[0])

    def phase_checkpoint(self, meta: Any, c: list[n.Block]) -> tuple[str, n.Block]:
        return ("checkpoint", c[0])

    def action_decl(self, meta: Any, c: list[Any]) -> tuple[str, n.ActionDecl]:
        annotations, name, *params, says, body = c
        says_text = says[0] if says is not None else None
        says_span = says[1] if says is not None else None
        # The span starts at the 'action' keyword's line, not at its annotations, like every
        # other declaration; the keyword is on the name's line.
        whole = self._span(meta)
        start = self._tspan(name)
        line = self.source.line(start.line)
        column = line.find("action") + 1 if "action" in line else start.column
        span = Span(whole.file, start.line, column, whole.end_line, whole.end_column)
        action = n.ActionDecl(
            str(name), tuple(p for p in params if p is not None), says_text, says_span, body,
            span=span, annotations=tuple(annotations), doc=self.docs.get(start.line, ""),
        )
        return ("action", action)

    def action_param(self, meta: Any, c: list[Any]) -> n.ActionParam:
        name, type_, *rest = c
        domain = rest[-1] if rest else None
        return n.ActionParam(str(name), type_, domain, span=self._span(meta))

    def says(self, meta: Any, c: list[Token]) -> tuple[str, Span]:
        return (_unescape(c[0]), self._tspan(c[0]))

    def seed_decl(self, meta: Any, c: list[Any]) -> n.SeedDecl:
        return n.SeedDecl(_unescape(c[0]), tuple(c[1:]), span=self._span(meta))

    def seed_rule(self, meta: Any, c: list[Any]) -> n.SeedRule:
        return n.SeedRule(str(c[0]), _unescape(c[1]), c[2], span=self._span(meta))

    def omitted(self, meta: Any, c: list[Token]) -> str:
        return _unescape(c[0])

    def decision_decl(self, meta: Any, c: list[Token]) -> n.DecisionDecl:
        return n.DecisionDecl(
            str(c[0]), _unescape(c[1]), _unescape(c[2]), span=self._span(meta)
        )

    # -- statements
    def block(self, meta: Any, c: list[n.Stmt]) -> n.Block:
        return n.Block(tuple(c), span=self._span(meta))

    def statement(self, meta: Any, c: list[Any]) -> n.Stmt:
        annotations, stmt = c
        if not annotations:
            return stmt  # type: ignore[no-any-return]
        fields = {f: getattr(stmt, f) for f in stmt.__dataclass_fields__ if f != "span"}
        fields["annotations"] = tuple(annotations)
        return type(stmt)(**fields, span=stmt.span)  # type: ignore[no-any-return]

    def let_stmt(self, meta: Any, c: list[Any]) -> n.Let:
        return n.Let(str(c[0]), c[1], span=self._span(meta))

    def assign_stmt(self, meta: Any, c: list[Any]) -> n.Assign:
        return n.Assign(c[0], str(c[1]), c[2], span=self._span(meta))

    def call_stmt(self, meta: Any, c: list[n.Expr]) -> n.CallStmt:
        return n.CallStmt(c[0], span=self._span(meta))

    def if_stmt(self, meta: Any, c: list[Any]) -> n.If:
        cond, body, *rest = c
        branches = [(cond, body)]
        otherwise = None
        for item in rest:
            if isinstance(item, tuple):
                branches.append(item)
            else:
                otherwise = item
        return n.If(tuple(branches), otherwise, span=self._span(meta))

    def elif_clause(self, meta: Any, c: list[Any]) -> tuple[n.Expr, n.Block]:
        return (c[0], c[1])

    def else_clause(self, meta: Any, c: list[n.Block]) -> n.Block:
        return c[0]

    def for_stmt(self, meta: Any, c: list[Any]) -> n.For:
        var, _in, domain, *rest = c
        body = rest[-1]
        where = order = None
        descending = False
        for item in rest[:-1]:
            if item is None:
                continue
            if item[0] == "where":
                where = item[1]
            else:
                order, descending = item[1], item[2]
        return n.For(str(var), domain, where, order, descending, body, span=self._span(meta))

    def where_clause(self, meta: Any, c: list[n.Expr]) -> tuple[str, n.Expr]:
        return ("where", c[0])

    def order_clause(self, meta: Any, c: list[Any]) -> tuple[str, n.Expr, bool]:
        return ("order", c[0], len(c) > 1 and c[1] is not None)

    def repeat_stmt(self, meta: Any, c: list[Any]) -> n.Repeat:
        return n.Repeat(c[0], c[1], span=self._span(meta))

    def move_stmt(self, meta: Any, c: list[Any]) -> n.Move:
        what, end, dest = c
        return n.Move(what, dest, end, span=self._span(meta))

    def zone_end(self, meta: Any, c: list[Token]) -> str:
        return str(c[0])

    def draw_stmt(self, meta: Any, c: list[Any]) -> n.Draw:
        return n.Draw(c[0], c[1], c[2], span=self._span(meta))

    def shuffle_stmt(self, meta: Any, c: list[Any]) -> n.Shuffle:
        return n.Shuffle(c[0], span=self._span(meta))

    def create_stmt(self, meta: Any, c: list[Any]) -> n.Create:
        return n.Create(c[0], c[1], span=self._span(meta))

    def reveal_stmt(self, meta: Any, c: list[Any]) -> n.Reveal:
        return n.Reveal(c[0], span=self._span(meta))

    def goto_stmt(self, meta: Any, c: list[Token]) -> n.Goto:
        return n.Goto(str(c[0]), span=self._span(meta))

    def win_stmt(self, meta: Any, c: list[n.Expr]) -> n.Win:
        return n.Win(c[0], span=self._span(meta))

    def lose_stmt(self, meta: Any, c: list[n.Expr]) -> n.Lose:
        return n.Lose(c[0], span=self._span(meta))

    def draw_game_stmt(self, meta: Any, c: list[Any]) -> n.DrawGame:
        return n.DrawGame(span=self._span(meta))

    def raise_stmt(self, meta: Any, c: list[Any]) -> n.Raise:
        return n.Raise(str(c[0]), tuple(a for a in c[1:] if a is not None), span=self._span(meta))

    def require_stmt(self, meta: Any, c: list[Any]) -> n.Require:
        return n.Require(c[0], _unescape(c[1]), span=self._span(meta))

    # -- expressions
    def conditional(self, meta: Any, c: list[n.Expr]) -> n.Conditional:
        return n.Conditional(c[0], c[1], c[2], span=self._span(meta))

    def binary_or(self, meta: Any, c: list[n.Expr]) -> n.BinaryOp:
        return n.BinaryOp("or", c[0], c[1], span=self._span(meta))

    def binary_and(self, meta: Any, c: list[n.Expr]) -> n.BinaryOp:
        return n.BinaryOp("and", c[0], c[1], span=self._span(meta))

    def not_op(self, meta: Any, c: list[n.Expr]) -> n.Not:
        return n.Not(c[0], span=self._span(meta))

    def comparison(self, meta: Any, c: list[Any]) -> n.BinaryOp:
        return n.BinaryOp(str(c[1]), c[0], c[2], span=self._span(meta))

    def range(self, meta: Any, c: list[n.Expr]) -> n.Range:
        return n.Range(c[0], c[1], span=self._span(meta))

    def arith(self, meta: Any, c: list[Any]) -> n.BinaryOp:
        return n.BinaryOp(str(c[1]), c[0], c[2], span=self._span(meta))

    def negate(self, meta: Any, c: list[n.Expr]) -> n.Expr:
        if isinstance(c[0], n.IntLit):
            negated = n.IntLit(-c[0].value, span=self._span(meta))
            start, sign = self.int_origins.get(id(c[0]), (-1, 1))
            self.int_origins[id(negated)] = (start, -sign)
            return negated
        return n.Negate(c[0], span=self._span(meta))

    def attribute(self, meta: Any, c: list[Any]) -> n.Attribute:
        return n.Attribute(c[0], str(c[1]), self._tspan(c[1]), span=self._span(meta))

    def index(self, meta: Any, c: list[Any]) -> n.Index:
        return n.Index(c[0], tuple(c[1:]), span=self._span(meta))

    def call(self, meta: Any, c: list[Any]) -> n.Expr:
        func, arguments = c[0], c[1] if len(c) > 1 else None
        span = self._span(meta)
        if isinstance(func, n.Attribute) and not (
            isinstance(arguments, tuple) and arguments and arguments[0] == "comprehension"
        ):
            args = tuple(arguments) if isinstance(arguments, list) else ()
            return n.EffectCall(func.obj, func.name, func.name_span, args, span=span)
        if not isinstance(func, n.Name):
            # Only named builtins, functions and procedures can be called; the checker says so.
            return n.Call("<expression>", func.span, (), span=span)
        if isinstance(arguments, tuple) and arguments and arguments[0] == "comprehension":
            _, element, var, domain, where = arguments
            return n.Aggregate(func.id, func.span, element, var, domain, where, span=span)
        args = tuple(arguments) if isinstance(arguments, list) else ()
        return n.Call(func.id, func.span, args, span=span)

    def args(self, meta: Any, c: list[n.Expr]) -> list[n.Expr]:
        return list(c)

    def comprehension(self, meta: Any, c: list[Any]) -> tuple[Any, ...]:
        element, var, _in, domain, where = c
        return ("comprehension", element, str(var), domain, where[1] if where else None)

    def int_lit(self, meta: Any, c: list[Token]) -> n.IntLit:
        if len(c[0]) > MAX_INT_DIGITS:
            # in the coordinates of the parsed text: a shifted effect shifts its diagnostics
            raise _TooLarge(Span(self.source.name, meta.line, meta.column, meta.end_line,
                                 meta.end_column))
        literal = n.IntLit(int(str(c[0])), span=self._span(meta))
        self.int_origins[id(literal)] = (c[0].start_pos or 0, 1)
        return literal

    def str_lit(self, meta: Any, c: list[Token]) -> n.StrLit:
        return n.StrLit(_unescape(c[0]), span=self._span(meta))

    def true_lit(self, meta: Any, c: list[Any]) -> n.BoolLit:
        return n.BoolLit(True, span=self._span(meta))

    def false_lit(self, meta: Any, c: list[Any]) -> n.BoolLit:
        return n.BoolLit(False, span=self._span(meta))

    def none_lit(self, meta: Any, c: list[Any]) -> n.NoneLit:
        return n.NoneLit(span=self._span(meta))

    def name(self, meta: Any, c: list[Token]) -> n.Name:
        return n.Name(str(c[0]), span=self._span(meta))

    def actor_ref(self, meta: Any, c: list[Any]) -> n.ActorRef:
        return n.ActorRef(span=self._span(meta))

    def players_ref(self, meta: Any, c: list[Any]) -> n.PlayersRef:
        return n.PlayersRef(span=self._span(meta))

    def list_lit(self, meta: Any, c: list[Any]) -> n.ListLit:
        return n.ListLit(tuple(x for x in c if x is not None), span=self._span(meta))



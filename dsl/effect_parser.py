"""A hand-written parser for card effect texts: the statements of the rules language, without
annotations, read in one pass. It builds exactly the AST, spans included, that the Lark parser
and dsl.ast_builder build (dsl.parser.parse_effect tries it first), and declines (None) anything
it does not handle or that is not valid, so every diagnostic stays the Lark parser's. A card set
of 10,000 cards with texts of their own spent most of its check in Lark.

Spans follow Lark's positions: a node runs from the first to the last token of its rule, and a
parenthesised expression keeps its own span while the rule around it takes in the parentheses.
Words follow dsl.keyword_lexer: a reserved word is always its keyword; any other word of the
grammar is a keyword exactly where a rule here reads it as one (each such place is one where
the Lark parser can shift that keyword, and no other keyword can stand where a name is read).
Proven equal to the Lark path by tests/test_effect_parser.py.
"""

from __future__ import annotations

import re

from dsl import nodes as n
from dsl.lexical import MAX_INT_DIGITS, RESERVED_WORDS
from dsl.lexical import unescape as _unescape
from dsl.nesting import MAX_NESTING
from dsl.node_builders import node_builder, span_builder
from dsl.source import Span

# Longer texts are left to Lark: its tree transformer recurses once per level of a tree, and
# a text this short cannot nest deeply enough to make it fail (tests/test_effect_parser.py).
MAX_TOKENS = 300

# A text cut into tokens, each with the whitespace before it: a word, a number, a string, an
# operator, a comment, or any other character (an annotation's '@', a ':', a string with an
# unknown escape, a lone '"'), which is left to Lark to report. Whitespace at the end matches
# nothing. The kind of a token is told by its text (_FIXED) or its first character (_FIRST).
_PIECES = re.compile(
    r'([ \t\f\r\n]*)([A-Za-z_][A-Za-z0-9_]*|[0-9]+|"(?:[^"\\\n]|\\["\\nt{}])*"'
    r"|\.\.|==|!=|<=|>=|\+=|-=|[-+*/%<>=(){}\[\],.]|#[^\n]*|[^ \t\f\r\n])"
)
# Longer texts are not cut into pieces at all (comments could make a long text of few tokens,
# but not on a card).
MAX_CHARACTERS = 50 * MAX_TOKENS
_WORD, _INT, _STRING = "NAME", "INT", "STRING"
_END = "$END"
# How tightly each operator binds (grammar/rulecraft.lark, or_expr to unary): a prefix 'not'
# takes a comparison, a prefix '-' a postfix expression.
_OR, _AND, _NOT, _COMPARE, _RANGE, _SUM, _PRODUCT, _UNARY = range(1, 9)
_LEVELS = {"or": _OR, "and": _AND, "..": _RANGE, "+": _SUM, "-": _SUM, "*": _PRODUCT,
           "/": _PRODUCT, "%": _PRODUCT,
           **dict.fromkeys(("==", "!=", "<=", ">=", "<", ">", "in"), _COMPARE)}
_NOT_ASSOCIATIVE = (_COMPARE, _RANGE)
_ASSIGNMENTS = frozenset({"=", "+=", "-="})
# Tokens that end an expression made of one name or number (operation() and postfix() would
# take nothing after it).
_ATOM_ENDS = frozenset({",", ")", "]"})


# The nodes a card text has most of, built faster (dsl.node_builders).
_span = span_builder()
_name = node_builder(n.Name, "x")
_int_lit = node_builder(n.IntLit, 1)
_call = node_builder(n.Call, "f", Span("f", 1, 2, 3, 4), ())


class _Decline(Exception):  # noqa: N818 - internal signal: the Lark parser takes the text
    pass


def parse_effect_fast(
    text: str, file: str, shift: tuple[int, int],
    int_origins: dict[int, tuple[int, int]] | None = None,
) -> n.Block | None:
    """The effect text's AST, spans in `file` moved by `shift` (lines, columns), as
    dsl.parser.parse_effect builds it; None when the Lark parser must read the text. With
    `int_origins`, where each IntLit's number is in the text, and its sign, by the IntLit's id
    (as AstBuilder.int_origins, for dsl.effect_shapes)."""
    tokens = _tokens(text, shift)
    if tokens is None:
        return None
    try:
        return _Parser(tokens, file, shift, text, int_origins).effect_body()
    except (_Decline, RecursionError):
        return None


# Tokens as parallel lists: kind, text, line, column, end column (a token is on one line), with
# positions already moved by the shift.
_Tokens = tuple[list[str], list[str], list[int], list[int], list[int]]
_COMMENT = "#"
# The kind of a token that is its own kind: the reserved words and the operators.
_FIXED = {word: word for word in (*RESERVED_WORDS, "..", "==", "!=", "<=", ">=", "+=", "-=",
                                  *"-+*/%<>=(){}[],.")}
# The kind of any other token, by its first character: a word, a number, a string, a comment.
_FIRST = {**dict.fromkeys("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_", _WORD),
          **dict.fromkeys("0123456789", _INT), '"': _STRING, "#": _COMMENT}


def _tokens(text: str, shift: tuple[int, int]) -> _Tokens | None:
    if len(text) > MAX_CHARACTERS:
        return None
    kinds: list[str] = []
    values: list[str] = []
    lines: list[int] = []
    columns: list[int] = []
    ends: list[int] = []
    line, column_shift = 1 + shift[0], shift[1]
    column = 1 + column_shift  # of the next piece
    known = _KINDS.get
    for space, value in _PIECES.findall(text):
        if space:
            if "\n" in space:
                line += space.count("\n")
                column = len(space) - space.rindex("\n") + column_shift
            else:
                column += len(space)
        kind = known(value)
        if kind is None:
            kind = _kind(value)
            if kind is None:
                return None  # a character the grammar has no token for here, or a lone '"'
            if kind is _COMMENT:
                column += len(value)
                continue
        kinds.append(kind)
        values.append(value)
        lines.append(line)
        columns.append(column)
        column += len(value)
        ends.append(column)
    if len(kinds) > MAX_TOKENS or (
            kinds.count("-") + kinds.count("not") + kinds.count("-=") >= MAX_NESTING):
        return None  # maybe a run of prefix operators that dsl.nesting reports
    kinds.append(_END)
    values.append("")
    return kinds, values, lines, columns, ends


# The kind of each token met so far that is a keyword, an operator, a word or a number: a card
# pool says the same few hundred words and numbers thousands of times, and one lookup here
# replaces telling the kind from the text. Bounded, as a pool of strange texts could fill it.
_KINDS: dict[str, str] = dict(_FIXED)
_MAX_KINDS = 50_000


def _kind(value: str) -> str | None:
    """The kind of a token not in _KINDS (kept there if it is a word or a number); None for
    a character the grammar has no token for here, or a lone '"'."""
    kind = _FIRST.get(value[0])
    if kind is None or (kind is _STRING and len(value) == 1):
        return None
    if (kind is _WORD or kind is _INT) and len(_KINDS) < _MAX_KINDS:
        _KINDS[value] = kind
    return kind


class _Parser:
    """Recursive descent over the grammar's statement and expression rules (grammar/
    rulecraft.lark); each method is the rule of its name and leaves `at` after its last token."""

    def __init__(self, tokens: _Tokens, file: str, shift: tuple[int, int], text: str,
                 int_origins: dict[int, tuple[int, int]] | None) -> None:
        self.kinds, self.values, self.lines, self.columns, self.ends = tokens
        self.file = file
        self.shift = shift
        self.int_origins = int_origins
        # where each line starts in the text, for int_origins: kept only while building
        # a shape's template (dsl.effect_shapes), which is rare
        self.line_starts = [0] if int_origins is None else [
            0, *(found.end() for found in re.finditer("\n", text))]
        self.at = 0

    def offset(self, at: int) -> int:
        """Where token `at` starts in the text."""
        return (self.line_starts[self.lines[at] - 1 - self.shift[0]]
                + self.columns[at] - 1 - self.shift[1])

    # -- tokens and spans
    def span(self, first: int, last: int) -> Span:
        return _span(self.file, self.lines[first], self.columns[first], self.lines[last],
                     self.ends[last])

    def expect(self, kind: str) -> None:
        if self.kinds[self.at] != kind:
            raise _Decline
        self.at += 1

    def name(self) -> str:
        if self.kinds[self.at] != _WORD:
            raise _Decline
        self.at += 1
        return self.values[self.at - 1]

    def word(self, keyword: str) -> bool:
        """Whether the next token is this (not reserved) keyword; taken if so."""
        if self.kinds[self.at] == _WORD and self.values[self.at] == keyword:
            self.at += 1
            return True
        return False

    def expect_word(self, keyword: str) -> None:
        if not self.word(keyword):
            raise _Decline

    # -- statements
    def effect_body(self) -> n.Block:
        statements: list[n.Stmt] = []
        while self.kinds[self.at] != _END:
            statements.append(self.statement())
        if not statements:  # only comments: Lark's empty rule is a point at the text's start
            line, column = 1 + self.shift[0], 1 + self.shift[1]
            return n.Block((), span=Span(self.file, line, column, line, column + 1))
        return n.Block(tuple(statements), span=self.span(0, self.at - 1))

    def block(self) -> n.Block:
        first = self.at
        self.expect("{")
        statements: list[n.Stmt] = []
        while self.kinds[self.at] != "}":
            statements.append(self.statement())
        self.at += 1
        return n.Block(tuple(statements), span=self.span(first, self.at - 1))

    def statement(self) -> n.Stmt:
        first = self.at
        kind = self.kinds[first]
        rule = _STATEMENTS.get(kind)
        if rule is not None:
            self.at += 1
            return rule(self, first)
        if kind == _WORD and self.values[first] in _PHASE_WORDS:
            raise _Decline  # `call PHASE` and `return` belong to phases: Lark says so
        target = self.postfix()
        if self.kinds[self.at] in _ASSIGNMENTS:
            op = self.values[self.at]
            self.at += 1
            value = self.expr()
            return n.Assign(target, op, value, span=self.span(first, self.at - 1))
        return n.CallStmt(target, span=self.span(first, self.at - 1))

    def let_stmt(self, first: int) -> n.Stmt:
        name = self.name()
        self.expect("=")
        value = self.expr()
        return n.Let(name, value, span=self.span(first, self.at - 1))

    def if_stmt(self, first: int) -> n.Stmt:
        condition = self.expr()
        branches = [(condition, self.block())]
        while self.kinds[self.at] == "elif":
            self.at += 1
            condition = self.expr()
            branches.append((condition, self.block()))
        otherwise = None
        if self.kinds[self.at] == "else":
            self.at += 1
            otherwise = self.block()
        return n.If(tuple(branches), otherwise, span=self.span(first, self.at - 1))

    def for_stmt(self, first: int) -> n.Stmt:
        var = self.name()
        self.expect("in")
        domain = self.expr()
        where = order = None
        descending = False
        if self.word("where"):
            where = self.expr()
        if self.word("ordered"):
            self.expect_word("by")
            order = self.expr()
            descending = self.word("desc")
        body = self.block()
        return n.For(var, domain, where, order, descending, body,
                     span=self.span(first, self.at - 1))

    def repeat_stmt(self, first: int) -> n.Stmt:
        count = self.expr()
        condition = self.expr() if self.word("while") else None
        body = self.block()
        return n.Repeat(count, body, condition, span=self.span(first, self.at - 1))

    def break_stmt(self, first: int) -> n.Stmt:
        return n.Break(span=self.span(first, first))

    def move_stmt(self, first: int) -> n.Stmt:
        what = self.expr()
        self.expect_word("to")
        end = None
        if self.kinds[self.at] == _WORD and self.values[self.at] in ("top", "bottom"):
            end = self.values[self.at]
            self.at += 1
            self.expect_word("of")
        dest = self.expr()
        return n.Move(what, dest, end, span=self.span(first, self.at - 1))

    def draw_stmt(self, first: int) -> n.Stmt:
        if self.word("game"):
            return n.DrawGame(span=self.span(first, self.at - 1))
        count = self.expr()
        self.expect_word("from")
        source = self.expr()
        self.expect_word("to")
        dest = self.expr()
        return n.Draw(count, source, dest, span=self.span(first, self.at - 1))

    def shuffle_stmt(self, first: int) -> n.Stmt:
        zone = self.expr()
        return n.Shuffle(zone, span=self.span(first, self.at - 1))

    def create_stmt(self, first: int) -> n.Stmt:
        what = self.expr()
        self.expect_word("into")
        dest = self.expr()
        return n.Create(what, dest, span=self.span(first, self.at - 1))

    def reveal_stmt(self, first: int) -> n.Stmt:
        what = self.expr()
        to = self.expr() if self.word("to") else None
        return n.Reveal(what, to, span=self.span(first, self.at - 1))

    def goto_stmt(self, first: int) -> n.Stmt:
        phase = self.name()
        return n.Goto(phase, span=self.span(first, self.at - 1))

    def win_stmt(self, first: int) -> n.Stmt:
        player = self.expr()
        return n.Win(player, span=self.span(first, self.at - 1))

    def lose_stmt(self, first: int) -> n.Stmt:
        player = self.expr()
        return n.Lose(player, span=self.span(first, self.at - 1))

    def raise_stmt(self, first: int) -> n.Stmt:
        event = self.name()
        self.expect("(")
        args: list[n.Expr] = []
        if self.kinds[self.at] != ")":
            args.append(self.expr())
            while self.kinds[self.at] == ",":
                self.at += 1
                args.append(self.expr())
        self.expect(")")
        return n.Raise(event, tuple(args), span=self.span(first, self.at - 1))

    def require_stmt(self, first: int) -> n.Stmt:
        condition = self.expr()
        self.expect("else")
        if self.kinds[self.at] != _STRING:
            raise _Decline
        self.at += 1
        message = _unescape(self.values[self.at - 1])
        return n.Require(condition, message, span=self.span(first, self.at - 1))

    # -- expressions
    def expr(self) -> n.Expr:
        kinds, at = self.kinds, self.at
        kind = kinds[at]
        if kind != "if":
            if kind in (_WORD, _INT) and kinds[at + 1] in _ATOM_ENDS:
                return self.atom()  # a name or number alone, as most arguments are
            return self.operation(_OR)
        first = self.at
        self.at += 1
        condition = self.expr()
        self.expect("then")
        then = self.expr()
        self.expect("else")
        otherwise = self.expr()
        return n.Conditional(condition, then, otherwise, span=self.span(first, self.at - 1))

    def operation(self, loosest: int) -> n.Expr:
        """The rules or_expr down to unary at once (precedence climbing): an expression of
        operators that bind at least as tightly as `loosest`."""
        first = self.at
        kind = self.kinds[first]
        left: n.Expr
        if kind == "not":
            if loosest > _NOT:  # 'not' is no operand of a comparison or of arithmetic
                raise _Decline
            self.at += 1
            operand = self.operation(_NOT)
            left = n.Not(operand, span=self.span(first, self.at - 1))
        elif kind == "-":
            self.at += 1
            operand = self.operation(_UNARY)
            span = self.span(first, self.at - 1)
            if isinstance(operand, n.IntLit):  # as dsl.ast_builder.negate: a negative literal
                left = n.IntLit(-operand.value, span=span)
                if self.int_origins is not None:
                    start, sign = self.int_origins[id(operand)]
                    self.int_origins[id(left)] = (start, -sign)
            else:
                left = n.Negate(operand, span=span)
        else:
            left = self.postfix()
        kinds = self.kinds
        while True:
            op = kinds[self.at]
            level = _LEVELS.get(op)
            if level is None or level < loosest:
                return left
            self.at += 1
            right = self.operation(level + 1)
            span = self.span(first, self.at - 1)
            if level == _RANGE:
                left = n.Range(left, right, span=span)
            else:
                left = n.BinaryOp(op, left, right, span=span)
            if level in _NOT_ASSOCIATIVE and _LEVELS.get(kinds[self.at]) == level:
                raise _Decline  # 'a < b < c', 'a..b..c': syntax errors

    def postfix(self) -> n.Expr:
        first = self.at
        node = self.atom()
        kinds = self.kinds
        while True:
            kind = kinds[self.at]
            if kind == ".":
                self.at += 1
                name = self.name()
                last = self.at - 1
                node = n.Attribute(node, name, self.span(last, last),
                                   span=self.span(first, last))
            elif kind == "[":
                self.at += 1
                keys = [self.expr()]
                while kinds[self.at] == ",":
                    self.at += 1
                    keys.append(self.expr())
                self.expect("]")
                node = n.Index(node, tuple(keys), span=self.span(first, self.at - 1))
            elif kind == "(":
                self.at += 1
                node = self.call(node, first)
            else:
                return node

    def call(self, func: n.Expr, first: int) -> n.Expr:
        """The rest of a call, after its '(': as dsl.ast_builder.call makes it."""
        args: list[n.Expr] = []
        aggregate: tuple[n.Expr, str, n.Expr, n.Expr | None] | None = None
        if self.kinds[self.at] != ")":
            args.append(self.expr())
            if self.kinds[self.at] == "for":
                self.at += 1
                var = self.name()
                self.expect("in")
                domain = self.expr()
                where = self.expr() if self.word("where") else None
                aggregate = (args[0], var, domain, where)
            else:
                while self.kinds[self.at] == ",":
                    self.at += 1
                    args.append(self.expr())
        self.expect(")")
        span = self.span(first, self.at - 1)
        if isinstance(func, n.Attribute) and aggregate is None:
            return n.EffectCall(func.obj, func.name, func.name_span, tuple(args), span=span)
        if not isinstance(func, n.Name):
            return n.Call("<expression>", func.span, (), span=span)
        if aggregate is not None:
            element, var, domain, where = aggregate
            return n.Aggregate(func.id, func.span, element, var, domain, where, span=span)
        return _call(func.id, func.span, tuple(args), span)

    def atom(self) -> n.Expr:
        at = self.at
        kind = self.kinds[at]
        self.at = at + 1
        if kind == _WORD:  # most atoms: their one token's span made here, not by span()
            line = self.lines[at]
            return _name(self.values[at],
                         _span(self.file, line, self.columns[at], line, self.ends[at]))
        if kind == _INT:
            digits = self.values[at]
            if len(digits) > MAX_INT_DIGITS:
                raise _Decline
            line = self.lines[at]
            literal = _int_lit(int(digits),
                               _span(self.file, line, self.columns[at], line, self.ends[at]))
            if self.int_origins is not None:
                self.int_origins[id(literal)] = (self.offset(at), 1)
            return literal
        if kind == "(":
            inner = self.expr()  # its own span: the parentheses belong to the rule around it
            self.expect(")")
            return inner
        if kind == _STRING:
            return n.StrLit(_unescape(self.values[at]), span=self.span(at, at))
        if kind == "true" or kind == "false":
            return n.BoolLit(kind == "true", span=self.span(at, at))
        if kind == "none":
            return n.NoneLit(span=self.span(at, at))
        if kind == "actor":
            return n.ActorRef(span=self.span(at, at))
        if kind == "players":
            return n.PlayersRef(span=self.span(at, at))
        if kind == "[":
            items: list[n.Expr] = []
            if self.kinds[self.at] != "]":
                items.append(self.expr())
                while self.kinds[self.at] == ",":
                    self.at += 1
                    items.append(self.expr())
            self.expect("]")
            return n.ListLit(tuple(items), span=self.span(at, self.at - 1))
        raise _Decline


# Contextual keywords that start a statement the fast parser leaves to Lark.
_PHASE_WORDS = frozenset({"call", "return"})

_STATEMENTS = {
    "let": _Parser.let_stmt, "if": _Parser.if_stmt, "for": _Parser.for_stmt,
    "repeat": _Parser.repeat_stmt, "break": _Parser.break_stmt, "move": _Parser.move_stmt,
    "draw": _Parser.draw_stmt, "shuffle": _Parser.shuffle_stmt, "create": _Parser.create_stmt,
    "reveal": _Parser.reveal_stmt, "goto": _Parser.goto_stmt, "win": _Parser.win_stmt,
    "lose": _Parser.lose_stmt, "raise": _Parser.raise_stmt, "require": _Parser.require_stmt,
}

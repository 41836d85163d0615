"""Effect texts parsed by shape: texts that differ only in their numbers share one parse and one
AST template, copied for each text with its own numbers and positions (dsl.parser.parse_effect
uses them for the effects of card sets).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

from dsl import nodes as n
from dsl.diagnostics import Diagnostics
from dsl.effect_parser import parse_effect_fast
from dsl.lexical import MAX_INT_DIGITS
from dsl.nesting import nesting_ok
from dsl.source import SourceFile, Span

if TYPE_CHECKING:
    from lark import Token, Tree

# Lark is imported where a tree is made: most effect texts are read by dsl.effect_parser, and
# a rulebook kept by dsl.parse_cache needs no Lark at all.

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
        # Shapes met once so far: a template pays only for a shape that comes back, and in a
        # pool of varied texts most shapes never do.
        self.once: set[tuple[str, str]] = set()
        # The first text of each rough shape (every digit written as 1, by file), "" once a
        # second came: a text whose rough shape is new has a shape that is new too, worked out
        # only when a second text of the rough shape comes (most texts of a varied pool never
        # share theirs, and finding a text's numbers cost a tenth of parsing it).
        self.rough: dict[tuple[str, str], str] = {}

    def tree(self, text: str) -> Tree[Token] | None:
        """The Lark tree of text, from its shape's; None when text must be parsed directly."""
        try:
            return self._tree(text)
        except RecursionError:
            # a tree deeper than Python's stack (a sum of a thousand terms): the direct parse
            # reports it as nested too deeply, at the text's place
            return None

    def _tree(self, text: str) -> Tree[Token] | None:
        found = self.shape(text)
        if found is None:
            return None
        shape, numbers = found
        tree = self.shape_tree(shape, numbers)
        return None if tree is None else _with_numbers(tree, numbers)

    def block(self, text: str, file: str, shift: tuple[int, int]) -> n.Block | None:
        """The AST of text, parsed from `file` at `shift`, copied from its shape's AST (built
        once per shape) with its own numbers and positions: what building it from its tree
        gives, without parsing every text. None when text must be parsed itself: the first
        text of its shape, or one whose shape has no template."""
        try:
            return self._block(text, file, shift)
        except RecursionError:  # as in tree()
            return None

    def _block(self, text: str, file: str, shift: tuple[int, int]) -> n.Block | None:
        rough = (text.translate(_DIGITS_AS_ONES), file)
        first = self.rough.get(rough)
        if first is None:
            self.rough[rough] = text
            return None  # as below for the first text of a shape (the shape waits)
        if first:
            self.rough[rough] = ""
            earlier = self.shape(first)
            if earlier is not None:
                self.once.add((earlier[0], file))  # what the first text did not do yet
        found = self.shape(text)
        if found is None:
            return None
        shape, numbers = found
        key = (shape, file)
        if key not in self.templates:
            if key not in self.once:
                self.once.add(key)
                return None
            self.once.discard(key)
            built = _fast_template(shape, file, numbers)
            if built is None:
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


_DIGITS_AS_ONES = str.maketrans("0123456789", "1" * 10)


# A shape's AST, built at no shift, and where each of its IntLits came from: (the position of
# its INT token, -1 when negated an odd number of times else 1), by id.
_Template = tuple[n.Block, dict[int, tuple[int, int]]]


def _template(
    tree: Tree[Token], shape: str, file: str, numbers: dict[int, str]
) -> _Template | None:
    """The shape's AST, when it builds cleanly and each number is the INT of an IntLit."""
    from lark.exceptions import VisitError

    from dsl.ast_builder import AstBuilder

    builder = AstBuilder(SourceFile(file, shape))
    try:
        block = builder.transform(tree)
    except (VisitError, RecursionError):
        return None
    if not isinstance(block, n.Block):
        return None
    return _checked_template(block, builder.int_origins, numbers)


def _fast_template(shape: str, file: str, numbers: dict[int, str]) -> _Template | None:
    """_template, from dsl.effect_parser instead of a Lark tree."""
    origins: dict[int, tuple[int, int]] = {}
    block = parse_effect_fast(shape, file, (0, 0), origins)
    return None if block is None else _checked_template(block, origins, numbers)


def _checked_template(
    block: n.Block, origins: dict[int, tuple[int, int]], numbers: dict[int, str]
) -> _Template | None:
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
    from lark import Token
    from lark.exceptions import UnexpectedInput

    from dsl.keyword_lexer import lark_parser

    if not nesting_ok(SourceFile("<shape>", shape), Diagnostics()):
        return None
    try:
        tree = lark_parser().parse(shape, start="effect_body")
    except UnexpectedInput:
        return None
    ints = {t.start_pos for t in tree.scan_values(lambda v: isinstance(v, Token))
            if t.type == "INT"}
    return tree if ints.issuperset(starts) else None


def _with_numbers(tree: Tree[Token], numbers: dict[int, str]) -> Tree[Token]:
    """A copy of tree whose INT tokens hold the given digits (by start position); subtrees
    without numbers are shared, as transforming never changes a tree."""
    from lark import Token, Tree

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

"""Rules in English: every expression and statement of the language, described in words.

The generated rulebook is written from the rules themselves through this module, so the
documentation cannot drift from what the engine does. Output is Markdown; every piece of text
that comes from a rulebook goes through `md` (escaped) before it reaches the page.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import assert_never

from compiler import symbols as sym
from compiler import types as t
from compiler.model import GameModel
from compiler.text_templates import words as words  # (there: the generator needs no more)
from dsl import nodes as n
from dsl.runtime_setup import counts_text as counts_text  # shared with new_game's refusal

_MD_SPECIAL = re.compile(r"([\\`*_\[\]|~])")
_LINE_BREAKS = re.compile(r"[\r\n\v\f\x1c-\x1e\x85\u2028\u2029]")
# Text in which md() changes nothing: none of the characters above, nor &, < or >.
_MD_PLAIN = re.compile(r"[^\\`*_\[\]|~&<>\r\n\v\f\x1c-\x1e\x85\u2028\u2029]*")
# What would start a list, a heading or a rule at the start of a line: "- ", "+ ", "# ",
# "---", and "1. " / "1) " (an ordered list; the escape goes before its dot).
_BLOCK_START = re.compile(
    r"^(?:[-+](?=\s|$)|#{1,6}(?=\s|$)|(?:-\s*){3,}$|(\d{1,9})[.)](?=\s|$))")
_COMPARE = {
    "==": "is", "!=": "is not", "<": "is less than", "<=": "is at most",
    ">": "is more than", ">=": "is at least", "in": "is in",
}
_ARITH = {"+": "plus", "-": "minus", "*": "times", "/": "divided by (rounded down)",
          "%": "modulo"}
# How tightly each form binds, as in grammar/rulecraft.lark (higher binds tighter). English has no
# precedence, so an operand that binds looser than its operator is put in parentheses: the words
# must keep the grouping of the source. A form whose words end in an open clause (a conditional's
# "otherwise …", an aggregate's "where …") is grouped like the loosest form.
_OPEN = 0
_BINARY_PRECEDENCE = {
    "or": 1, "and": 2,
    **dict.fromkeys(("==", "!=", "<", "<=", ">", ">=", "in"), 4),
    "+": 6, "-": 6, "*": 7, "/": 7, "%": 7,
}
_NOT_PRECEDENCE, _NEGATE_PRECEDENCE, _ATOM = 3, 8, 9
# Operators for which a right operand of the same operator needs no grouping.
_ASSOCIATIVE = {"+", "*"}


def _same_op(e: n.Expr, op: str) -> bool:
    return isinstance(e, n.BinaryOp) and e.op == op


def precedence(e: n.Expr) -> int:
    if isinstance(e, n.BinaryOp):
        return _BINARY_PRECEDENCE[e.op]
    if isinstance(e, n.Not):
        return _NOT_PRECEDENCE
    if isinstance(e, n.Negate):
        return _NEGATE_PRECEDENCE
    if isinstance(e, n.Range):
        return 5
    if isinstance(e, n.Conditional) or (isinstance(e, n.Aggregate) and e.where is not None):
        return _OPEN
    return _ATOM


def md(text: str) -> str:
    """Text from a rulebook made safe for Markdown and for the HTML it may become: one line,
    no markup, no raw HTML (so it can go anywhere: a table cell, a list item, a heading)."""
    if _MD_PLAIN.fullmatch(text) is not None:
        return text  # most names and words: nothing to escape or join
    return _md_escape(text)


def _md_escape(text: str) -> str:
    """md() of any text."""
    text = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return _MD_SPECIAL.sub(r"\\\1", _LINE_BREAKS.sub(" ", text))


def md_paragraph(text: str, escape: Callable[[str], str] = md) -> str:
    """`md` (or `escape`) for text that starts a line of its own: it cannot open a heading, a
    list or a code block either."""
    escaped = escape(text.strip())
    match = _BLOCK_START.match(escaped)
    if match is None:
        return escaped
    if match.group(1):  # "1. " would start a numbered list
        end = len(match.group(1))
        return escaped[:end] + "\\" + escaped[end:]
    return "\\" + escaped


# A code span of a `##` doc comment: a run of backticks, text, the same run again.
_CODE_SPAN = re.compile(r"(?<!`)(`+)(?!`)(.+?)(?<!`)\1(?!`)", re.S)


def md_doc(text: str) -> str:
    """`md` of a `##` doc comment: its code spans (`kind`) stay code spans, each as `code`
    writes it; the rest of its text is text, as md makes it."""
    if "`" not in text:
        return md(text)
    parts, at = [], 0
    for span in _CODE_SPAN.finditer(text):
        parts += [md(text[at:span.start()]), code(span.group(2))]
        at = span.end()
    parts.append(md(text[at:]))
    return "".join(parts)


def md_doc_paragraph(text: str) -> str:
    """`md_paragraph` of a `##` doc comment, its code spans kept (md_doc)."""
    return md_paragraph(text, md_doc)


def code(text: str) -> str:
    """A name in a Markdown code span. Backslash escapes do not work inside code spans, so the
    text goes in as is, fenced by more backticks than it contains; only `|` is escaped (GFM
    tables split cells on it even inside code spans)."""
    text = _LINE_BREAKS.sub(" ", text).replace("|", "\\|")
    longest = max((len(run) for run in re.findall(r"`+", text)), default=0)
    fence = "`" * (longest + 1)
    pad = " " if longest or text.startswith(" ") else ""
    return f"{fence}{pad}{text}{pad}{fence}"


class English:
    def __init__(self, model: GameModel) -> None:
        self.model = model
        # What some bound names are called in the text being written: `this` in a card's
        # effect is "this card", `cards` in the deck rules is "the deck".
        self.names: dict[str, str] = {}
        # How a `require` reads where it is not an action's precondition (the deck rules).
        self.require_lead: str | None = None
        # The link each function or procedure is called by, by its name: written once for
        # the thousands of calls of a card set's effects.
        self.links: dict[str, str] = {}

    @contextmanager
    def speaking(self, names: dict[str, str],
                 require_lead: str | None = None) -> Iterator[None]:
        """Render with some local names spelled out, and `require` phrased for its place."""
        saved = self.names, self.require_lead
        self.names, self.require_lead = {**self.names, **names}, require_lead
        try:
            yield
        finally:
            self.names, self.require_lead = saved

    def effect_block(self, effect: n.EffectLit) -> list[str]:
        """A card's effect, statement by statement, with `this` as "this card"."""
        with self.speaking({"this": "this card"}):
            return self.block(effect.body.statements)

    def deck_rules(self, deck: n.DeckDecl) -> list[str]:
        with self.speaking({"cards": "the deck", "side": "the side deck"},
                           require_lead="A deck must satisfy:"):
            return self.block(deck.body.statements)

    def card_requires(self, requires: Sequence[n.CardRequire], fields: Sequence[str],
                      ) -> list[str]:
        """A card type's `require` lines, its fields read as "its cost"."""
        lines = []
        with self.speaking({name: f"its {md(words(name))}" for name in fields}):
            for rule in requires:
                lines.append(f"- {sentence(self.expr(rule.cond))} "
                             f"(otherwise: “{template(rule.message)}”).")
        return lines

    # ---- expressions
    def expr(self, e: n.Expr) -> str:  # noqa: C901 - one case per expression form
        # the commonest forms first, without the match's tests of the classes before them
        if type(e) is n.Name:
            return self.name(e)
        if type(e) is n.Call:
            return self.call(e)
        match e:
            case n.IntLit():
                return str(e.value)
            case n.StrLit():
                return f"“{md(e.value)}”"
            case n.BoolLit():
                return "yes" if e.value else "no"
            case n.NoneLit():
                return "nobody/nothing"
            case n.ActorRef():
                return "the acting player"
            case n.PlayersRef():
                return "the players"
            case n.Name():
                return self.name(e)
            case n.ListLit():
                return "[" + ", ".join(self.expr(i) for i in e.items) + "]"
            case n.Attribute():
                if isinstance(self.model.symbols.attributes.get(id(e)), sym.NameOf):
                    return f"the name of {self.expr(e.obj)}"
                return f"{self.possessive(e.obj)} {md(words(e.name))}"
            case n.Index():
                return self.index(e)
            case n.Call():
                return self.call(e)
            case n.Aggregate():
                return self.aggregate(e)
            case n.Conditional():
                return (f"{self.expr(e.then)} if {self.expr(e.cond)}, "
                        f"otherwise {self.expr(e.otherwise)}")
            case n.BinaryOp():
                return self.binary(e)
            case n.Not():
                return f"not ({self.expr(e.operand)})"
            case n.Negate():
                return (f"minus "
                        f"{self.grouped(e.operand, precedence(e.operand) < _NEGATE_PRECEDENCE)}")
            case n.Range():
                low, high = (self.grouped(x, precedence(x) <= precedence(e))
                             for x in (e.low, e.high))
                return f"{low} to {high}"
            case n.EffectCall():
                return self.effect_call(e)
            case n.EffectLit():
                return "an effect" if e.body.statements else "no effect"
            case n.DataWord():  # pragma: no cover - resolve makes names or texts of them
                return md(type(e).__name__)
            case _:
                assert_never(e)

    def name(self, e: n.Name) -> str:
        symbol = self.model.symbols.names.get(id(e))
        match symbol:
            case sym.Local() | sym.Parameter() | sym.OwnField():
                spelt = self.names.get(e.id)
                return spelt if spelt is not None else f"*{md(e.id)}*"
            case sym.Player():
                return f"player {md(e.id)}"
            case sym.Option():
                return f"the *{md(words(e.id))}* option"
            case sym.GameField():
                return f"the {md(words(e.id))}"
            case sym.BoardNode():
                return md(e.id.capitalize())
            case sym.Domain():
                return f"every {md(e.id)}"
            case sym.Zone():
                return f"*{md(words(e.id))}*"
            case sym.EnumMember(enum="keyword"):
                return f"[{md(words(e.id))}](#keyword-{anchor(e.id)})"
            case sym.EnumMember() | sym.Card() | sym.RecordEntry() | None:
                return f"*{md(e.id)}*"
            case _:
                assert_never(symbol)

    def index(self, e: n.Index) -> str:
        symbol = self.model.symbols.indexes.get(id(e))
        match symbol:
            case sym.ZoneSlot():
                if len(e.keys) == 1 and _is_you(e.keys[0]):  # "your deck", not "deck of you"
                    return f"your {self.expr(e.obj)}"
                keys = " and ".join(self.expr(k) for k in e.keys)
                return f"{self.expr(e.obj)} of {keys}"
            case sym.ListIndex():
                return f"item {self.expr(e.keys[0])} (from 0) of {self.expr(e.obj)}"
            case sym.PerPlayerIndex() | None:
                return f"{self.expr(e.obj)} for {self.expr(e.keys[0])}"
            case _:
                assert_never(symbol)

    def aggregate(self, e: n.Aggregate) -> str:
        where = f" where {self.expr(e.where)}" if e.where is not None else ""
        if e.order_by is not None:
            where += (f", {'highest' if e.descending else 'lowest'} "
                      f"{self.expr(e.order_by)} first")
        domain = f"each *{md(e.var)}* in {self.expr(e.domain)}{where}"
        element = self.expr(e.element)
        return {
            "sum": f"the sum of {element} over {domain}",
            "count": f"the number of {domain.removeprefix('each ')}",
            "min": f"the least {element} over {domain} (0 if none)",
            "max": f"the greatest {element} over {domain} (0 if none)",
            "any": f"{element} for some {domain.removeprefix('each ')}",
            "all": f"{element} for every {domain.removeprefix('each ')}",
            "first": f"the first {element} for {domain}",
            "list": f"the list of {element} for {domain}",
        }[e.func]

    def binary(self, e: n.BinaryOp) -> str:
        left, right = self.operands(e)
        if e.op in ("and", "or"):
            return f"{left} {e.op} {right}"
        if e.op in ("==", "!=") and isinstance(e.right, n.NoneLit):
            return f"{left} is {'not set' if e.op == '==' else 'set'}"
        if e.op in _COMPARE:
            return f"{left} {_COMPARE[e.op]} {right}"
        left_type = self.model.types.get(id(e.left))
        if e.op == "+" and left_type is not None and t.element_type(left_type) is not None:
            return f"{left} together with {right}"
        return f"{left} {_ARITH[e.op]} {right}"

    def grouped(self, e: n.Expr, group: bool) -> str:
        return f"({self.expr(e)})" if group else self.expr(e)

    def operands(self, e: n.BinaryOp) -> tuple[str, str]:
        """Both operands in words, each in parentheses where it binds looser than the operator
        (the right one also at the same level, unless the operator is associative)."""
        if e.op in ("and", "or"):
            # Readers give 'and' no precedence over 'or': a mix is always grouped.
            return (self.grouped(e.left, precedence(e.left) < _NOT_PRECEDENCE
                                 and not _same_op(e.left, e.op)),
                    self.grouped(e.right, precedence(e.right) < _NOT_PRECEDENCE
                                 and not _same_op(e.right, e.op)))
        level = _BINARY_PRECEDENCE[e.op]
        left = self.grouped(e.left, precedence(e.left) < level
                            or (precedence(e.left) == level and level == 4))
        right_level = precedence(e.right)
        same_chain = _same_op(e.right, e.op) and e.op in _ASSOCIATIVE
        right = self.grouped(e.right, right_level < level
                             or (right_level == level and not same_chain))
        return left, right

    def effect_call(self, e: n.EffectCall) -> str:
        """`c.on_call(you)`: "the on call effect of c, with you as *you*"."""
        name = words(e.field) + ("" if "effect" in e.field else " effect")
        text = f"the {md(name)} of {self.expr(e.card)}"
        params: list[str] = []
        effect = self.model.symbols.effects.get(id(e))
        if effect is not None:
            info = self.model.records[effect.card_type].fields[effect.name]
            if isinstance(info.type, t.EffectT):
                params = [p for p, _ in info.type.params]
        parts = []
        for i, arg in enumerate(e.args):
            param = f"*{md(params[i])}*" if i < len(params) else f"argument {i + 1}"
            if isinstance(arg, n.NoneLit):
                parts.append(f"no {param}")
            else:
                parts.append(f"{self.expr(arg)} as {param}")
        if parts:
            text += ", with " + (" and ".join(parts) if len(parts) < 3
                                 else ", ".join(parts[:-1]) + " and " + parts[-1])
        return text

    def possessive(self, e: n.Expr) -> str:
        if isinstance(e, n.ActorRef):
            return "the acting player's"
        if _is_you(e):  # a card's effects name their player `you`: "your score"
            return "your"
        if isinstance(e, n.Name) and isinstance(self.model.symbols.names.get(id(e)),
                                                sym.BoardNode):
            return f"{md(e.id.capitalize())}'s"
        return f"{self.expr(e)}'s"

    def call(self, e: n.Call) -> str:
        args = [self.expr(a) for a in e.args]
        symbol = self.model.symbols.calls.get(id(e))
        match symbol:
            case sym.Function() | sym.Procedure():
                link = self.links.get(e.func)
                if link is None:
                    link = self.links[e.func] = f"[{md(words(e.func))}](#{anchor(e.func)})"
                return f"{link}({', '.join(args)})"
            case sym.Builtin() | None:
                counted = self.model.types.get(id(e.args[0])) if e.args else None
                if (e.func == "size" and isinstance(counted, t.ListT)
                        and not isinstance(counted.element, (t.CardT, t.DefT))):
                    # a list of players, cells or numbers: "the number of teammates of p"
                    return f"the number of {args[0].removeprefix('the ')}"
                return self.builtin(e.func, args)
            case _:
                assert_never(symbol)

    @staticmethod
    def line_of(kind: str, index: str) -> str:
        """The cells of a row or column: "the cells of column 3", and "the cells in the column
        of *c*" rather than "of column the column of *c*"."""
        if index.startswith(f"the {kind} of "):
            return f"the cells in {index}"
        return f"the cells of {kind} {index}"

    @staticmethod
    def builtin(name: str, args: list[str]) -> str:
        phrase = _BUILTIN_PHRASES.get(name)
        return phrase(args) if phrase else f"{md(name)}({', '.join(args)})"

    # ---- statements, as nested Markdown lists
    def block(self, statements: Sequence[n.Stmt], depth: int = 0) -> list[str]:
        lines: list[str] = []
        for stmt in statements:
            lines.extend(self.stmt(stmt, depth))
        return lines

    def responders(self, window: n.Responders) -> str:
        """Who acts in a `responders` window, in words."""
        start = self.expr(window.start)
        text = (f"every player once, in turn order from {start}, {start} last" if window.every
                else f"every other player once, in turn order from {start}")
        if window.where is not None:
            text += f", while {self.expr(window.where)}"
        return text

    def stmt(self, s: n.Stmt, depth: int) -> list[str]:  # noqa: C901 - one case per statement
        pad = "  " * depth + "- "
        match s:
            case n.Let():
                return [f"{pad}Let *{md(s.name)}* be {self.expr(s.value)}."]
            case n.Assign():
                target, value = self.expr(s.target), self.expr(s.value)
                if s.op == "+=":
                    return [f"{pad}Add {value} to {target}."]
                if s.op == "-=":
                    return [f"{pad}Take {value} from {target}."]
                return [f"{pad}Set {target} to {value}."]
            case n.CallStmt():
                if isinstance(s.call, n.EffectCall):
                    return [f"{pad}Run {self.expr(s.call)}."]
                return [f"{pad}Do {self.expr(s.call)}."]
            case n.If():
                lines: list[str] = []
                for i, (cond, body) in enumerate(s.branches):
                    lead = "If" if i == 0 else "Otherwise, if"
                    lines.append(f"{pad}{lead} {self.expr(cond)}:")
                    lines.extend(self.block(body.statements, depth + 1))
                if s.otherwise is not None:
                    lines.append(f"{pad}Otherwise:")
                    lines.extend(self.block(s.otherwise.statements, depth + 1))
                return lines
            case n.For():
                where = f" where {self.expr(s.where)}" if s.where is not None else ""
                order = ""
                if s.order_by is not None:
                    order = (f", {'highest' if s.descending else 'lowest'} "
                             f"{self.expr(s.order_by)} first")
                return [f"{pad}For each *{md(s.var)}* in {self.expr(s.domain)}{where}{order}:",
                        *self.block(s.body.statements, depth + 1)]
            case n.Repeat():
                head = f"{pad}Repeat {self.expr(s.count)} times:"
                if s.while_ is not None:
                    head = (f"{pad}Repeat, at most {self.expr(s.count)} times, as long as "
                            f"{self.expr(s.while_)}:")
                return [head, *self.block(s.body.statements, depth + 1)]
            case n.Break():
                return [f"{pad}Stop repeating (leave the loop)."]
            case n.Move():
                end = f"the {s.end} of " if s.end else ""
                return [f"{pad}Move {self.expr(s.what)} to {end}{self.expr(s.dest)}."]
            case n.Draw():
                return [f"{pad}Draw {self.expr(s.count)} from {self.expr(s.source)} "
                        f"into {self.expr(s.dest)} (fewer if it runs out)."]
            case n.Shuffle():
                return [f"{pad}Shuffle {self.expr(s.zone)}."]
            case n.Create():
                return [f"{pad}Put a new {self.expr(s.what)} into {self.expr(s.dest)}."]
            case n.Reveal():
                if s.to is not None:
                    return [f"{pad}Show {self.expr(s.what)} to {self.expr(s.to)} only, until "
                            "it moves."]
                return [f"{pad}Reveal {self.expr(s.what)}."]
            case n.CallPhase():
                return [f"{pad}Go to [{md(words(s.phase))}](#phase-{anchor(s.phase)}), then "
                        "come back here and carry on."]
            case n.Goto():
                return [f"{pad}Go on to [{md(words(s.phase))}](#phase-{anchor(s.phase)})."]
            case n.Return():
                return [f"{pad}Go back to the phase that called this one, and carry on there."]
            case n.Win():
                return [f"{pad}**{sentence(self.expr(s.player))} wins the game.**"]
            case n.Lose():
                return [f"{pad}**{sentence(self.expr(s.player))} loses the game.**"]
            case n.DrawGame():
                return [f"{pad}**The game is a draw.**"]
            case n.Raise():
                args = ", ".join(self.expr(a) for a in s.args)
                return [f"{pad}Announce *{md(words(s.event))}* ({args})."]
            case n.Require():
                if self.require_lead is None:
                    return [f"{pad}Only if {self.expr(s.cond)} (otherwise: “{md(s.message)}”)."]
                return [f"{pad}{self.require_lead} {self.expr(s.cond)} "
                        f"(otherwise: “{template(s.message)}”)."]
            case _:
                assert_never(s)


def sentence(text: str) -> str:
    """Capitalise the first letter only (str.capitalize would lower 'player A')."""
    return text[:1].upper() + text[1:]


def template(message: str) -> str:
    """A message with `{name}` holes, the holes shown as ‹name›."""
    parts = re.split(r"\{(\w+)\}", message)
    return "".join(f"‹{md(part)}›" if i % 2 else md(part) for i, part in enumerate(parts))


def anchor(name: str) -> str:
    return re.sub(r"[^a-z0-9-]", "", name.lower().replace("_", "-"))


def _is_you(e: n.Expr) -> bool:
    """A name `you`: read in the second person, as card text speaks to its player."""
    return isinstance(e, n.Name) and e.id == "you"


# The builtins' calls in words, by the builtin's name (English.builtin).
_BUILTIN_PHRASES: dict[str, Callable[[list[str]], str]] = {
    "size": lambda a: ("the number of players" if a[0] == "the players"
                       else f"the number of cards in {a[0]}"),
    "empty": lambda a: f"{a[0]} is empty",
    "first": lambda a: f"the first card of {a[0]}",
    "last": lambda a: f"the last card of {a[0]}",
    "opponent": lambda a: f"the opponent of {a[0]}",
    "next_player": lambda a: f"the player after {a[0]}",
    "ally": lambda a: f"{a[0]} and {a[1]} are on one team",
    "allies": lambda a: f"the teammates of {a[0]} still in",
    "opponents": lambda a: f"the opponents of {a[0]} still in",
    "next_in": lambda a: f"the next player still in after {a[0]}",
    "previous_in": lambda a: f"the previous player still in before {a[0]}",
    "after": lambda a: f"the players still in after {a[0]}, in turn order",
    "standing": lambda a: "the players still in",
    "captain": lambda a: f"the first player of the team of {a[0]}",
    "last_standing": lambda a: "the last player (or team) standing",
    "abs": lambda a: f"the size of {a[0]} (without sign)",
    "min": lambda a: "the smallest of " + ", ".join(a),
    "max": lambda a: "the largest of " + ", ".join(a),
    "roll": lambda a: f"a roll of a {a[0]}-sided die",
    "flip": lambda a: "a coin flip",
    "shuffled": lambda a: f"{a[0]} in random order",
    "neighbours": lambda a: f"the neighbours of {a[0]}",
    "adjacent": lambda a: f"{a[0]} borders {a[1]}",
    "distance": lambda a: f"the distance from {a[0]} to {a[1]}",
    "within": lambda a: f"the places within {a[1]} of {a[0]}",
    "decklist": lambda a: f"the deck {a[0]} brought",
    "row": lambda a: f"the row of {a[0]}",
    "column": lambda a: f"the column of {a[0]}",
    "cell": lambda a: f"the cell in row {a[1]}, column {a[2]}",
    "row_cells": lambda a: English.line_of("row", a[1]),
    "column_cells": lambda a: English.line_of("column", a[1]),
    "ahead": lambda a: f"the cells ahead of {a[0]} in its column, nearest first",
    "behind": lambda a: f"the cells behind {a[0]} in its column, nearest first",
    "surrounding": lambda a: f"the cells surrounding {a[0]}",
    "facing_distance": lambda a: f"the number of zones from {a[0]} across both front "
                                 f"rows to {a[1]}",
}

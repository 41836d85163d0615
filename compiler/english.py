"""Rules in English: every expression and statement of the language, described in words.

The generated rulebook is written from the rules themselves through this module, so the
documentation cannot drift from what the engine does. Output is Markdown; every piece of text
that comes from a rulebook goes through `md` (escaped) before it reaches the page.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from compiler import types as t
from compiler.model import GameModel
from dsl import nodes as n

_MD_SPECIAL = re.compile(r"([\\`*_\[\]|~])")
_COMPARE = {
    "==": "is", "!=": "is not", "<": "is less than", "<=": "is at most",
    ">": "is more than", ">=": "is at least", "in": "is in",
}
_ARITH = {"+": "plus", "-": "minus", "*": "times", "/": "divided by (rounded down)",
          "%": "modulo"}


def md(text: str) -> str:
    """Text from a rulebook made safe for Markdown and for the HTML it may become."""
    text = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return _MD_SPECIAL.sub(r"\\\1", text).replace("\n", " ")


def words(name: str) -> str:
    return name.replace("_", " ")


class English:
    def __init__(self, model: GameModel) -> None:
        self.model = model

    # ---- expressions
    def expr(self, e: n.Expr) -> str:  # noqa: C901 - one case per expression form
        m = self.model
        symbol = m.symbols.get(id(e), ("",))
        if isinstance(e, n.IntLit):
            return str(e.value)
        if isinstance(e, n.StrLit):
            return f"“{md(e.value)}”"
        if isinstance(e, n.BoolLit):
            return "yes" if e.value else "no"
        if isinstance(e, n.NoneLit):
            return "nobody/nothing"
        if isinstance(e, n.ActorRef):
            return "the acting player"
        if isinstance(e, n.PlayersRef):
            return "the players"
        if isinstance(e, n.Name):
            kind = symbol[0]
            if kind == "player":
                return f"player {md(e.id)}"
            if kind == "option":
                return f"the *{md(words(e.id))}* option"
            if kind == "game_field":
                return f"the {md(words(e.id))}"
            if kind == "node":
                return md(e.id.capitalize())
            if kind == "domain":
                return f"every {md(e.id)}"
            if kind == "zone":
                return f"*{md(words(e.id))}*"
            return f"*{md(e.id)}*"
        if isinstance(e, n.ListLit):
            return "[" + ", ".join(self.expr(i) for i in e.items) + "]"
        if isinstance(e, n.Attribute):
            if symbol[0] == "name_of":
                return f"the name of {self.expr(e.obj)}"
            return f"{self.possessive(e.obj)} {md(words(e.name))}"
        if isinstance(e, n.Index):
            if symbol[0] == "zone_index":
                keys = " and ".join(self.expr(k) for k in e.keys)
                return f"{self.expr(e.obj)} of {keys}"
            if symbol[0] == "list_index":
                return f"item {self.expr(e.keys[0])} (from 0) of {self.expr(e.obj)}"
            return f"{self.expr(e.obj)} for {self.expr(e.keys[0])}"
        if isinstance(e, n.Call):
            return self.call(e, symbol)
        if isinstance(e, n.Aggregate):
            where = f" where {self.expr(e.where)}" if e.where is not None else ""
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
        if isinstance(e, n.Conditional):
            return (f"{self.expr(e.then)} if {self.expr(e.cond)}, "
                    f"otherwise {self.expr(e.otherwise)}")
        if isinstance(e, n.BinaryOp):
            if e.op in ("and", "or"):
                return f"{self.expr(e.left)} {e.op} {self.expr(e.right)}"
            if e.op in ("==", "!=") and isinstance(e.right, n.NoneLit):
                return f"{self.expr(e.left)} is {'not set' if e.op == '==' else 'set'}"
            if e.op in _COMPARE:
                return f"{self.expr(e.left)} {_COMPARE[e.op]} {self.expr(e.right)}"
            left_type = m.types.get(id(e.left))
            if e.op == "+" and left_type is not None and t.element_type(left_type) is not None:
                return f"{self.expr(e.left)} together with {self.expr(e.right)}"
            return f"{self.expr(e.left)} {_ARITH[e.op]} {self.expr(e.right)}"
        if isinstance(e, n.Not):
            return f"not ({self.expr(e.operand)})"
        if isinstance(e, n.Negate):
            return f"minus {self.expr(e.operand)}"
        if isinstance(e, n.Range):
            return f"{self.expr(e.low)} to {self.expr(e.high)}"
        return md(type(e).__name__)  # pragma: no cover

    def possessive(self, e: n.Expr) -> str:
        if isinstance(e, n.ActorRef):
            return "the acting player's"
        if isinstance(e, n.Name) and self.model.symbols.get(id(e), ("",))[0] == "node":
            return f"{md(e.id.capitalize())}'s"
        return f"{self.expr(e)}'s"

    def call(self, e: n.Call, symbol: tuple[str, ...]) -> str:
        args = [self.expr(a) for a in e.args]
        if symbol[0] in ("function", "procedure"):
            return f"[{md(words(e.func))}](#{anchor(e.func)})({', '.join(args)})"
        name = e.func
        phrases: dict[str, Callable[[list[str]], str]] = {
            "size": lambda a: f"the number of cards in {a[0]}",
            "empty": lambda a: f"{a[0]} is empty",
            "first": lambda a: f"the first card of {a[0]}",
            "last": lambda a: f"the last card of {a[0]}",
            "opponent": lambda a: f"the opponent of {a[0]}",
            "next_player": lambda a: f"the player after {a[0]}",
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
        }
        phrase = phrases.get(name)
        return phrase(args) if phrase else f"{md(name)}({', '.join(args)})"

    # ---- statements, as nested Markdown lists
    def block(self, statements: Sequence[n.Stmt], depth: int = 0) -> list[str]:
        lines: list[str] = []
        for stmt in statements:
            lines.extend(self.stmt(stmt, depth))
        return lines

    def stmt(self, s: n.Stmt, depth: int) -> list[str]:  # noqa: C901 - one case per statement
        pad = "  " * depth + "- "
        if isinstance(s, n.Let):
            return [f"{pad}Let *{md(s.name)}* be {self.expr(s.value)}."]
        if isinstance(s, n.Assign):
            target, value = self.expr(s.target), self.expr(s.value)
            if s.op == "+=":
                return [f"{pad}Add {value} to {target}."]
            if s.op == "-=":
                return [f"{pad}Take {value} from {target}."]
            return [f"{pad}Set {target} to {value}."]
        if isinstance(s, n.CallStmt):
            return [f"{pad}Do {self.expr(s.call)}."]
        if isinstance(s, n.If):
            lines: list[str] = []
            for i, (cond, body) in enumerate(s.branches):
                lead = "If" if i == 0 else "Otherwise, if"
                lines.append(f"{pad}{lead} {self.expr(cond)}:")
                lines.extend(self.block(body.statements, depth + 1))
            if s.otherwise is not None:
                lines.append(f"{pad}Otherwise:")
                lines.extend(self.block(s.otherwise.statements, depth + 1))
            return lines
        if isinstance(s, n.For):
            where = f" where {self.expr(s.where)}" if s.where is not None else ""
            order = ""
            if s.order_by is not None:
                order = (f", {'highest' if s.descending else 'lowest'} "
                         f"{self.expr(s.order_by)} first")
            return [f"{pad}For each *{md(s.var)}* in {self.expr(s.domain)}{where}{order}:",
                    *self.block(s.body.statements, depth + 1)]
        if isinstance(s, n.Repeat):
            return [f"{pad}Repeat {self.expr(s.count)} times:",
                    *self.block(s.body.statements, depth + 1)]
        if isinstance(s, n.Move):
            end = f"the {s.end} of " if s.end else ""
            return [f"{pad}Move {self.expr(s.what)} to {end}{self.expr(s.dest)}."]
        if isinstance(s, n.Draw):
            return [f"{pad}Draw {self.expr(s.count)} from {self.expr(s.source)} "
                    f"into {self.expr(s.dest)} (fewer if it runs out)."]
        if isinstance(s, n.Shuffle):
            return [f"{pad}Shuffle {self.expr(s.zone)}."]
        if isinstance(s, n.Create):
            return [f"{pad}Put a new {self.expr(s.what)} into {self.expr(s.dest)}."]
        if isinstance(s, n.Reveal):
            return [f"{pad}Reveal {self.expr(s.what)}."]
        if isinstance(s, n.Goto):
            return [f"{pad}Go on to [{md(words(s.phase))}](#phase-{anchor(s.phase)})."]
        if isinstance(s, n.Win):
            return [f"{pad}**{sentence(self.expr(s.player))} wins the game.**"]
        if isinstance(s, n.Lose):
            return [f"{pad}**{sentence(self.expr(s.player))} loses the game.**"]
        if isinstance(s, n.DrawGame):
            return [f"{pad}**The game is a draw.**"]
        if isinstance(s, n.Raise):
            args = ", ".join(self.expr(a) for a in s.args)
            return [f"{pad}Announce *{md(words(s.event))}* ({args})."]
        if isinstance(s, n.Require):
            return [f"{pad}Only if {self.expr(s.cond)} (otherwise: “{md(s.message)}”)."]
        return [f"{pad}{md(type(s).__name__)}"]  # pragma: no cover


def sentence(text: str) -> str:
    """Capitalise the first letter only (str.capitalize would lower 'player A')."""
    return text[:1].upper() + text[1:]


def anchor(name: str) -> str:
    return re.sub(r"[^a-z0-9-]", "", name.lower().replace("_", "-"))

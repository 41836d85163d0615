"""Completion narrowed to the type the cursor's place expects.

The place is read from the text before the cursor, not from the AST: while a line is being
typed the file does not parse, and the editor still wants `move c to |` to offer zones. What
the text around the cursor names (`c`, `p.caste`, a callee) is typed from the last check that
parsed: the expression ending there if that check saw one, else the nearest earlier use of the
same name in the file (a parameter or a `let` of the same declaration, mostly), then its fields.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from compiler.check_builtins import BUILTINS
from compiler.model import FieldInfo, GameModel
from compiler.resolve import BUILTIN_TYPES
from compiler.types import (
    BOOL,
    INT,
    PLAYER,
    CardT,
    DefT,
    EnumT,
    ListT,
    NodeT,
    OptionT,
    PlayerT,
    RecordT,
    Type,
    ZoneT,
)
from dsl import nodes as n
from dsl.nesting import innermost_open
from dsl.source import resolved

Item = tuple[str, str, str]  # label, kind, detail

# A trailing operand: a name, maybe indexed, then `.field`s.
_OPERAND = re.compile(r"([A-Za-z_]\w*(?:\[[^\[\]]*\])?(?:\.[A-Za-z_]\w*)*)\s*$")
# Words of a builtin's signature that name a type.
_SIGNATURE_WORDS: dict[str, Type] = {"player": PLAYER, "int": INT, "bool": BOOL}
# Before a callee, these make `name(` a declaration's parameter list, not a call.
_DECLARING = re.compile(r"\b(function|procedure|action|event|effect)\s+\w*\s*$")


@dataclass(frozen=True)
class Expected:
    """What fits at the cursor: a value of `type`, or (container) a zone or list of them."""

    type: Type
    container: bool = False
    only: bool = False  # nothing but the typed candidates can be written there


def expected_at(model: GameModel, before: str, typed: TypeAt) -> Expected | None:
    """The type expected where `before` (the line up to the word being typed) ends."""
    head = re.sub(r"\w*$", "", before)
    segment, callee, argument = _innermost(head)
    moved = re.search(r"\bmove\s+(.+?)\s+to\s*$", segment)
    if moved is not None:
        known = _operand_type(model, moved.group(1), typed,
                              len(head) - len(segment) + moved.end(1))
        card = _card_type(known)
        return None if card is None else Expected(CardT(card), container=True, only=True)
    declared = re.search(r"\b\w+\s*:\s*(\w+)\??(?:\s+per\s+\w+)*\s*(=|\bin)\s*$", segment)
    if declared is not None and declared.group(1) in _type_names(model):
        # `x: Color = |` (a field's default), `c: Card in |` (an action parameter's domain)
        return Expected(_named_type(model, declared.group(1)),
                        container=declared.group(2) == "in")
    compared = re.search(r"(==|!=|\+=|-=|(?<![=!<>])=(?!=)|\bin)\s*$", segment)
    if compared is not None:
        left = segment[:compared.start()].rstrip()
        operand = _OPERAND.search(left)
        if operand is None or re.search(r"\blet\s+\w+$", left):
            return None
        known = _operand_type(model, operand.group(1), typed,
                              len(head) - len(segment) + len(left))
        if known is None:
            return None
        return Expected(known, container=compared.group(1) == "in")
    if callee is not None:
        return _argument(model, callee, argument)
    return None


class TypeAt:
    """The type the last check found for an expression ending at a column of the line."""

    def __init__(self, model: GameModel, path: Path, line: int, text: str = "") -> None:
        self.model, self.path, self.line = model, path, line
        self.above = text.split("\n")[:line - 1]

    def ending_at(self, column: int) -> Type | None:
        found: tuple[tuple[int, int], Type] | None = None
        for node in _nodes_of(self.model, self.path):
            span = node.span
            if isinstance(node, n.Expr) and (span.end_line, span.end_column) == (self.line,
                                                                                column):
                known = self.model.types.get(id(node))
                if known is not None and (found is None or (span.line, span.column) < found[0]):
                    found = (span.line, span.column), known
        return None if found is None else found[1]

    def of_name(self, name: str) -> Type | None:
        """The type of the nearest use of a name at or above the line."""
        best: tuple[int, Type] | None = None
        for node in _nodes_of(self.model, self.path):
            if isinstance(node, n.Name) and node.id == name:
                known = self.model.types.get(id(node))
                distance = self.line - node.span.line
                rank = distance if distance >= 0 else 1_000_000 - distance
                if known is not None and (best is None or rank < best[0]):
                    best = rank, known
        if best is None:
            return self.of_let(name)
        return best[1]

    def of_let(self, name: str) -> Type | None:
        """A name the last check did not see: the nearest `let name = x.y` above, typed."""
        for number in range(len(self.above) - 1, -1, -1):
            let = re.search(rf"\blet\s+{re.escape(name)}\s*=\s*(.+)$", self.above[number])
            if let is not None:
                above, self.above = self.above, self.above[:number]
                try:
                    return _operand_type(self.model, let.group(1), self, -1)
                finally:
                    self.above = above
        return None


def _nodes_of(model: GameModel, path: Path) -> list[n.Node]:
    target = resolved(path)
    return [node for module in model.modules if module.declarations
            and resolved(Path(module.span.file)) == target for node in n.walk(module)]


def _innermost(head: str) -> tuple[str, str | None, int]:
    """The text after the innermost bracket left open (and after its last comma), the callee
    of that bracket when it is a call, and which argument the cursor is in."""
    index = innermost_open(head, "([", ")]")
    if index is None:
        return head, None, 0
    after, commas = _last_comma(head, index + 1)
    segment = head[after:]
    callee = re.search(r"([A-Za-z_]\w*)\s*$", head[:index])
    if callee is None or _DECLARING.search(head[:index]):
        return segment, None, commas
    # `f(`: a call's argument; `hand[`: a key of a zone or field family
    return segment, callee.group(1) + ("[" if head[index] == "[" else ""), commas


def _last_comma(head: str, start: int) -> tuple[int, int]:
    """Where the text after the last comma outside brackets from `start` on begins, and how
    many such commas there are (the bracket at `start - 1` is the innermost one open, so what
    follows it is balanced)."""
    depth, found, commas = 0, start, 0
    for index in range(start, len(head)):
        char = head[index]
        depth += char in "(["
        depth -= char in ")]"
        if char == "," and depth == 0:
            found = index + 1
            commas += 1
    return found, commas


def _operand_type(model: GameModel, text: str, typed: TypeAt, end: int) -> Type | None:
    """The type of the operand `text` written in the line up to column `end` (0-based)."""
    known = typed.ending_at(end + 1) if end >= 0 else None
    if known is not None:
        return known
    match = _OPERAND.search(text)
    if match is None:
        return None
    parts = match.group(1).split(".")
    head = parts[0].split("[")[0]
    if head in model.zones:
        zone = model.zones[head]
        known = ZoneT(head, zone.card_type)
    elif head in model.game_fields:
        known = model.game_fields[head].type
    else:
        known = typed.of_name(head)
    for name in parts[1:]:
        known = field_type(model, known, name)
    return known


def fields_of_type(model: GameModel, known: Type | None) -> dict[str, FieldInfo] | None:
    """The fields a value of this type (an optional one: of its inner type) has, or None."""
    while isinstance(known, OptionT):
        known = known.inner
    if isinstance(known, CardT | DefT | RecordT) and known.name in model.records:
        return model.records[known.name].fields
    if isinstance(known, PlayerT):
        return model.player_fields
    if isinstance(known, NodeT) and known.board in model.boards:
        return model.boards[known.board].fields
    return None


def field_type(model: GameModel, known: Type | None, name: str) -> Type | None:
    fields = fields_of_type(model, known)
    info = None if fields is None else fields.get(name)
    return None if info is None else info.type


def _card_type(known: Type | None) -> str | None:
    while isinstance(known, OptionT | ListT):
        known = known.inner if isinstance(known, OptionT) else known.element
    if isinstance(known, CardT | DefT):
        return known.name
    return known.card_type if isinstance(known, ZoneT) else None


def _type_names(model: GameModel) -> set[str]:
    return {*BUILTIN_TYPES, *model.enums, *model.records, *model.boards}


def _named_type(model: GameModel, name: str) -> Type:
    if name == "team":  # a zone `per team` is named by any player of the team
        return PLAYER
    if name in BUILTIN_TYPES:
        return BUILTIN_TYPES[name]
    if name in model.enums:
        return EnumT(name)
    if name in model.records:
        return CardT(name) if model.records[name].is_card else RecordT(name)
    return NodeT(name)


def _argument(model: GameModel, callee: str, index: int) -> Expected | None:
    if callee.endswith("["):
        name = callee[:-1]
        per = model.zones[name].per if name in model.zones else (
            ["player"] if name in model.game_fields and model.game_fields[name].per_player
            else [])
        return Expected(_named_type(model, per[index])) if index < len(per) else None
    call = model.functions.get(callee) or model.procedures.get(callee)
    if call is not None:
        return Expected(call.params[index][1]) if index < len(call.params) else None
    signature = BUILTINS.get(callee)
    if signature is None:
        return None
    words = signature.split("(", 1)[1].split(")", 1)[0].split(",")
    if index >= len(words):
        return None
    word = words[index].split(":")[-1].strip()
    if word == "zone or list":
        return Expected(CardT(""), container=True)
    return Expected(_SIGNATURE_WORDS[word]) if word in _SIGNATURE_WORDS else None


def _returns(signature: str) -> str:
    return signature.split("->", 1)[1].split(":")[0].split(",")[0].strip() if "->" in signature \
        else ""


def _fits(known: Type | None, wanted: Type) -> bool:
    while isinstance(known, OptionT):
        known = known.inner
    while isinstance(wanted, OptionT):
        wanted = wanted.inner
    if isinstance(wanted, CardT) and not wanted.name:
        return isinstance(known, CardT)  # a builtin's `zone or list`: of any card type
    return known == wanted


def candidates(model: GameModel, expected: Expected) -> list[Item]:
    """What may be written where a value (or a container) of the expected type goes."""
    wanted = expected.type
    while isinstance(wanted, OptionT):
        wanted = wanted.inner
    items: list[Item] = []
    if expected.container:
        card = _card_type(wanted)
        for name, zone in model.zones.items():
            if card is not None and card in ("", zone.card_type):
                per = f" per {', '.join(zone.per)}" if zone.per else ""
                items.append((name, "zone", f"zone of {zone.card_type}{per}"))
        if expected.only:
            return items
        if card is not None and card:
            wanted = CardT(card)
    for call in model.functions.values():
        returns = call.returns
        fits = (isinstance(returns, ListT) and _fits(returns.element, wanted)
                if expected.container else _fits(returns, wanted))
        if fits:
            params = ", ".join(f"{p}: {ty}" for p, ty in call.params)
            items.append((call.name, "function", f"{call.name}({params}) -> {returns}"))
    if expected.container:
        items.extend((name, "variable", f"{name}: {info.type}")
                     for name, info in model.game_fields.items()
                     if isinstance(info.type, ListT) and _fits(info.type.element, wanted))
        return items
    if isinstance(wanted, EnumT) and wanted.name in model.enums:
        items.extend((m, "enum", f"{wanted.name} member") for m in model.enums[wanted.name].members)
    # A card's name is its definition, which a card in a zone is not equal to (E0201).
    if isinstance(wanted, DefT | RecordT) and wanted.name in model.records:
        record = model.records[wanted.name]
        items.extend((e.name, "card" if record.is_card else "value", record.name)
                     for e in record.entries if re.fullmatch(r"\w+", e.name))
    for name, info in model.game_fields.items():
        if _fits(info.type, wanted):
            items.append((name, "variable", f"{name}: {info.type}"))
    items.extend((name, "function", signature) for name, signature in BUILTINS.items()
                 if _SIGNATURE_WORDS.get(_returns(signature)) == wanted)
    if isinstance(wanted, PlayerT):
        items.extend((name, "variable", "player (a seat)") for name in model.player_names)
    return items


def data_completions(model: GameModel, text: str, line: int, column: int) -> list[Item] | None:
    """In a card set: after `field:` (or in its `[...]` list, or a `- ` item under it) the
    values its type takes; at a key's place the card type's field names. None: the place is
    not one of those."""
    lines = text.split("\n")
    if not 0 < line <= len(lines):
        return None
    before = lines[line - 1][:column - 1]
    declared = re.search(r"^type:\s*(\w+)", text, re.MULTILINE)
    cards = [r for r in model.records.values() if r.is_card]
    record = model.records.get(declared.group(1)) if declared else None
    fields = record.fields if record is not None else {
        name: info for r in cards for name, info in r.fields.items()}
    keyed = re.match(r"^\s*(?:-\s+)?(\w+)\s*:\s*(.*)$", before)
    if keyed is None and re.fullmatch(r"\s*-\s+\w*", before):
        keyed = _list_owner(lines, line, before)
    if keyed is None:
        if re.fullmatch(r"\s*(?:-\s+)?\w*", before) and before.startswith(" "):
            return [(name, "field", f"{info.type}") for name, info in fields.items()]
        return None
    info = fields.get(keyed.group(1))
    if info is None:
        return None
    known = info.type
    while isinstance(known, OptionT | ListT):
        known = known.inner if isinstance(known, OptionT) else known.element
    if isinstance(known, EnumT) and known.name in model.enums:
        described = model.keywords if known.name == "keyword" else {}
        return [(m, "keyword" if m in described else "enum",
                 described[m].text if m in described else f"{known.name} member")
                for m in model.enums[known.name].members]
    if isinstance(known, CardT | DefT | RecordT) and known.name in model.records:
        return [(e.name, "value", known.name) for e in model.records[known.name].entries]
    if known == BOOL:
        return [("true", "value", "bool"), ("false", "value", "bool")]
    return None


def _list_owner(lines: list[str], line: int, before: str) -> re.Match[str] | None:
    """The `key:` line that a `- ` item of a block list belongs to."""
    indent = len(before) - len(before.lstrip())
    for number in range(line - 2, -1, -1):
        text = lines[number]
        if not text.strip() or text.lstrip().startswith("#"):
            continue
        if len(text) - len(text.lstrip()) < indent or not text.lstrip().startswith("-"):
            return re.match(r"^\s*(?:-\s+)?(\w+)\s*:\s*()$", text)
    return None

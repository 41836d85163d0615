"""Seats and teams compiled to Python: the seat-order builtins, the fields a team shares,
players put out, cards shown to some players only (`reveal X to`) and the sort of `ordered
by` (docs/language.md, "Players, seats and teams"). The state's side is dsl/runtime_seats.py."""

from __future__ import annotations

from collections.abc import Callable

from compiler import symbols as sym
from compiler import types as t
from compiler.model import GameModel
from compiler.pygen_base import ungrouped
from dsl import nodes as n


def seat_call(name: str, args: list[str], max_players: int, s: str) -> str | None:
    """Python source for a call of a seat builtin (`opponent`, `next_player`, `next_in`,
    `allies`, ...); None for any other builtin."""
    if name == "opponent":
        if max_players == 2:  # the other seat, without the modulo
            return str(1 - int(args[0])) if args[0] in ("0", "1") else f"(1 - {args[0]})"
        return f"(({args[0]}) + 1) % {s}.num_players"
    if name == "next_player":
        return f"(({args[0]}) + 1) % {s}.num_players"
    if name in sym.SEAT_BUILTINS:
        return f"{s}.{name}({', '.join(ungrouped(a) for a in args)})"
    return None


def has_teams(model: GameModel) -> bool:
    return model.team_size is not None or bool(model.team_seats)


def team_field(model: GameModel, target: n.Expr) -> n.Attribute | None:
    """The `p.f` of a target `p.f` or `p.f[k]` when f is a 'per team' player field of a
    game with teams."""
    if isinstance(target, n.Index):
        target = target.obj
    if (isinstance(target, n.Attribute) and has_teams(model)
            and isinstance(model.symbols.attributes.get(id(target)), sym.PlayerField)
            and model.player_fields[target.name].per_team):
        return target
    return None


def after_assigning(model: GameModel, target: n.Expr,
                    expr: Callable[[n.Expr], str]) -> list[str]:
    """The lines that follow an assignment to a player's field: a field the team shares is
    copied to the teammates, and a player put out is recorded (the order of ranks())."""
    lines = []
    shared = team_field(model, target)
    if shared is not None:
        lines.append(f"s.share(s.p_{shared.name}, {expr(shared.obj)})")
    if (isinstance(target, n.Attribute) and target.name == "out"
            and isinstance(model.symbols.attributes.get(id(target)), sym.PlayerField)):
        lines.append(f"s.mark_out({expr(target.obj)})")
    return lines


def shown_to(model: GameModel, to: n.Expr, whom: str) -> str:
    """The players of `reveal X to WHOM` as GameState.show's bits: one player's, or those of
    each player of a list (`allies(p)`, a team)."""
    if isinstance(model.type_of(to), t.ListT):
        return f"rt.seat_bits({ungrouped(whom)})"
    return f"1 << {whom}"


def order_key(var: str, key: str, descending: bool) -> str:
    """The key= (and reverse=) of a sort by `ordered by KEY [desc]`: sorted is stable, so ties
    keep the domain's order (seat order for players)."""
    return f"key=lambda {var}: {key}{', reverse=True' if descending else ''}"


def team_zone_slots(model: GameModel, zone_base: dict[str, int],
                    zone_dims: dict[str, list[int]]) -> dict[int, int]:
    """GameState.TEAM_SLOTS: each slot of a `per team` zone, with the stride of its player
    key (how many slots apart two seats' slots are)."""
    found: dict[int, int] = {}
    for zone in model.zones.values():
        if not zone.per_team:
            continue
        dims = zone_dims[zone.name]
        at = zone.per.index("player")
        stride = 1
        for size in dims[at + 1:]:
            stride *= size
        total = 1
        for size in dims:
            total *= size
        for slot in range(total):
            found[zone_base[zone.name] + slot] = stride
    return found


def team_key(model: GameModel, zone: str, position: int, key: str, s: str) -> str:
    """A zone key as the slot's: the player key of a `per team` zone is the captain of the
    player named (any player of the team names its zone)."""
    info = model.zones[zone]
    if info.per_team and info.per[position] == "player":
        return f"{s}.captain({ungrouped(key)})"
    return key

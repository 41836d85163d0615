"""What a generated game's new_game checks before the first phase: the options given
against the rulebook's, and the decks given against its deck rules."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence


def merge_options(spec: dict[str, tuple[type, object]], given: dict[str, object] | None) -> dict[
    str, object
]:
    """Defaults overridden by the caller's options, each checked for name and type."""
    result = {name: default for name, (_, default) in spec.items()}
    for name, value in (given or {}).items():
        if name not in spec:
            raise ValueError(f"unknown option {name!r}; options: {', '.join(spec) or 'none'}")
        kind = spec[name][0]
        if kind is int and isinstance(value, bool) or not isinstance(value, kind):
            raise ValueError(f"option {name!r} must be {kind.__name__}, not {value!r}")
        result[name] = value
    return result


def choose_decks(
    decks: object,
    players: int,
    shipped: Mapping[str, tuple[int, ...]],
    names: Sequence[str],
    problem: Callable[[list[int], list[int]], tuple[str, int] | None],
    seats: Sequence[str],
) -> list[list[int]]:
    """Each player's deck, as card definitions. `decks` is None (the shipped decks in name
    order, one per player, in turn), a list with one entry per player, or a dict from player
    name to entry; an entry is a shipped deck's name or a list of card names."""
    if decks is None:
        order = sorted(shipped)
        return [list(shipped[order[i % len(order)]]) if order else [] for i in range(players)]
    if isinstance(decks, dict):
        unknown = set(decks) - set(seats[:players])
        if unknown:
            raise ValueError(f"decks given for unknown players: {', '.join(sorted(unknown))}")
        missing = [seat for seat in seats[:players] if seat not in decks]
        if missing:
            raise ValueError(f"no deck given for {', '.join(missing)}")
        entries: list[object] = [decks[seat] for seat in seats[:players]]
    elif isinstance(decks, (list, tuple)):
        entries = list(decks)
        if len(entries) != players:
            raise ValueError(f"{len(entries)} decks for {players} players")
    else:
        raise ValueError("decks must be a list (one per player) or a dict by player name")
    index = {name: i for i, name in enumerate(names)}
    result: list[list[int]] = []
    for seat, entry in enumerate(entries):
        if isinstance(entry, str):
            if entry not in shipped:
                raise ValueError(f"unknown deck {entry!r}; decks: {', '.join(sorted(shipped))}")
            cards = list(shipped[entry])
        elif isinstance(entry, (list, tuple)) and all(isinstance(x, str) for x in entry):
            missing = [x for x in entry if x not in index]
            if missing:
                raise ValueError(f"unknown cards in deck {seat + 1}: {', '.join(missing[:5])}")
            cards = [index[x] for x in entry]
        else:
            raise ValueError(f"deck {seat + 1} must be a deck name or a list of card names")
        broken = problem(cards, [])  # the side deck is never played
        if broken is not None:
            raise ValueError(f"deck {seat + 1} breaks a deck rule: {broken[0]}")
        result.append(cards)
    return result

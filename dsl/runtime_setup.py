"""What a generated game's new_game checks before the first phase: the options given
against the rulebook's, and the decks given against its deck rules."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any


def merge_options(
    spec: dict[str, tuple[type, object]],
    given: dict[str, object] | None,
    words: Mapping[str, Sequence[str]] | None = None,
) -> dict[str, object]:
    """Defaults overridden by the caller's options, each checked for name and type. An option
    of an enum type (`words`: its members' names) is given by a member's name or number."""
    result = {name: default for name, (_, default) in spec.items()}
    for name, value in (given or {}).items():
        if name not in spec:
            raise ValueError(f"unknown option {name!r}; options: {', '.join(spec) or 'none'}")
        members = (words or {}).get(name)
        if members is not None and isinstance(value, str):
            if value not in members:
                raise ValueError(f"option {name!r} is one of {', '.join(members)}, "
                                 f"not {value!r}")
            value = members.index(value)
        elif members is not None and type(value) is not int:  # a flag without a value, none
            raise ValueError(f"option {name!r} is one of {', '.join(members)}, not {value!r}")
        kind = spec[name][0]
        if kind is int and isinstance(value, bool) or not isinstance(value, kind):
            raise ValueError(f"option {name!r} must be {kind.__name__}, not {value!r}")
        if members is not None and isinstance(value, int) and not 0 <= value < len(members):
            raise ValueError(f"option {name!r} is one of {', '.join(members)}, not {value!r}")
        result[name] = value
    return result


def consecutive_runs(numbers: Iterable[int]) -> list[tuple[int, int]]:
    """Ascending numbers as runs of consecutive ones: [2, 3, 4, 6] -> [(2, 4), (6, 6)]."""
    runs: list[list[int]] = []
    for number in numbers:
        if runs and runs[-1][1] == number - 1:
            runs[-1][1] = number
        else:
            runs.append([number, number])
    return [(low, high) for low, high in runs]


def counts_text(counts: Sequence[int]) -> str:
    """The player counts as a reader writes them (new_game's refusal, the rulebook): '2',
    '2-4', '2-4 or 6'; 'no' when the options allow none."""
    runs = consecutive_runs(counts)
    parts = [str(low) if low == high else f"{low}-{high}" for low, high in runs] or ["no"]
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " or " + parts[-1]


def count_refusal(game: str, counts: Sequence[int], players: int) -> str:
    """new_game's refusal of a player count, for a tool that checks it first (to say it at a
    scenario's `players:` key, or as a usage error): 'last_stand is for 3-4 or 6 players, not 5'."""
    return f"{game} is for {counts_text(counts)} players, not {players}"


def options_text(options: Mapping[str, object], words: Mapping[str, Sequence[str]]) -> str:
    """The options as `--option` writes them, for a refusal: 'mode=royale, rounds=9'."""
    shown = []
    for name, value in options.items():
        members = words.get(name)
        if members is not None and isinstance(value, int):
            value = members[value]
        elif isinstance(value, bool):
            value = str(value).lower()
        shown.append(f"{name}={value}")
    return ", ".join(shown)


class OptionView:
    """The options as the rules read them (`o_mode`), before there is a state: the conditions
    of `players ... if` lines are worked out from it."""

    def __init__(self, options: Mapping[str, object]) -> None:
        for name, value in options.items():
            setattr(self, f"o_{name}", value)

    def __getattr__(self, name: str) -> Any:  # what setattr gave it: typed by the rules
        raise AttributeError(name)


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

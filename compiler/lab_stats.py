"""The figures of a simulation: one Record per game, and summarize() over them — win rates by
seat, agent and deck with 95% Wilson intervals, the first player's advantage, draws, lengths,
action kinds, cards and rule coverage. Exact numbers here; text rounds them for people."""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import asdict, dataclass, field
from typing import Any

Z95 = 1.959963984540054  # the two-sided 95% quantile of the normal distribution


@dataclass
class Record:
    """What one game showed."""

    seed: int
    seats: list[int]  # the agent (index into the run's agents) in each seat
    decks: list[str] | None  # the deck in each seat
    returns: list[float] = field(default_factory=list)
    first: int = -1  # the seat that went first: the game's `starter`, else the first to act
    plies: int = 0
    turns: int = 0  # runs of consecutive decisions by one player
    legal: dict[str, int] = field(default_factory=dict)  # decisions where a kind was legal
    chosen: dict[str, int] = field(default_factory=dict)
    played: list[list[str]] = field(default_factory=list)  # per seat: cards played
    drawn: list[dict[str, int]] = field(default_factory=list)  # per seat: out of hidden zones
    owned: list[list[str]] = field(default_factory=list)  # per seat: cards the seat owned
    fired: list[str] = field(default_factory=list)
    unfinished: bool = False  # stopped at the run's --max-plies: its returns are a draw's

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def wilson(successes: int, trials: int) -> list[float]:
    """The 95% Wilson score interval of a proportion: [low, high] ([0, 1] with no trials)."""
    if trials == 0:
        return [0.0, 1.0]
    p = successes / trials
    z2 = Z95 * Z95
    centre = (p + z2 / (2 * trials)) / (1 + z2 / trials)
    half = Z95 * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials)) / (1 + z2 / trials)
    # none or all: the bound is exactly 0 or 1, where the subtraction leaves 7e-18
    return [0.0 if successes == 0 else max(0.0, centre - half),
            1.0 if successes == trials else min(1.0, centre + half)]


def rate(successes: int, trials: int) -> dict[str, Any]:
    """A win rate with its interval; over no games there is none (null, not 0%)."""
    return {"wins": successes, "games": trials,
            "rate": successes / trials if trials else None,
            "ci95": wilson(successes, trials) if trials else None}


def _spread(values: list[int]) -> dict[str, Any]:
    if not values:
        return {"mean": 0.0, "min": 0, "median": 0.0, "max": 0, "histogram": {}}
    ordered = sorted(values)
    middle = len(ordered) // 2
    median = (ordered[middle] if len(ordered) % 2
              else (ordered[middle - 1] + ordered[middle]) / 2)
    return {"mean": sum(values) / len(values), "min": ordered[0], "median": median,
            "max": ordered[-1], "histogram": _histogram(ordered)}


def _histogram(ordered: list[int], bins: int = 12) -> dict[str, int]:
    """Counts in up to `bins` equal ranges, keyed "low-high"."""
    low, high = ordered[0], ordered[-1]
    width = max(1, math.ceil((high - low + 1) / bins))
    counts: Counter[int] = Counter((v - low) // width for v in ordered)
    return {f"{low + b * width}-{low + (b + 1) * width - 1}": counts[b]
            for b in range(max(counts) + 1)}


def summarize(records: list[Record], seat_names: list[str], agent_labels: list[str],
              declared: list[str] | None = None) -> dict[str, Any]:
    """The report of a run (JSON-ready; `declared` given with --coverage)."""
    games = len(records)
    players = len(seat_names)
    won = [[r.returns[s] > 0 for s in range(players)] for r in records]
    seats = {seat_names[s]: rate(sum(w[s] for w in won), games) for s in range(players)}
    labels = _unique(agent_labels)
    by_agent = {}
    for a, label in enumerate(labels):
        wins = sum(won[g][s] for g, r in enumerate(records) for s in range(players)
                   if r.seats[s] == a)
        by_agent[label] = rate(wins, games)
    by_agent_seat = {
        label: {seat_names[s]: rate(sum(won[g][s] for g, r in enumerate(records)
                                        if r.seats[s] == a),
                                    sum(1 for r in records if r.seats[s] == a))
                for s in range(players)}
        for a, label in enumerate(labels)}
    draws = sum(1 for r in records if all(x == 0 for x in r.returns))
    first_wins = sum(1 for g, r in enumerate(records) if r.first >= 0 and won[g][r.first])
    # a seat's chance to win with no advantage: the share of seats that won (1/players when
    # one player wins each game; 1/2 in a war of two teams; less with draws)
    baseline = sum(map(sum, won)) / (games * players) if games else 0.0
    report: dict[str, Any] = {
        "games": games,
        "agents": labels,
        "seats": seats,
        "by_agent": by_agent,
        "by_agent_seat": by_agent_seat,
        "first_player": rate(first_wins, games) | {
            "baseline": baseline,
            "advantage": (first_wins / games - baseline) if games else 0.0},
        "shared_wins": any(sum(w) > 1 for w in won),  # teammates share a win
        "draws": {"count": draws, "rate": draws / games if games else 0.0,
                  "ci95": wilson(draws, games)},
        "unfinished": sum(1 for r in records if r.unfinished),
        "plies": _spread([r.plies for r in records]),
        "turns": _spread([r.turns for r in records]),
        "decisions_per_turn": (sum(r.plies for r in records)
                               / max(1, sum(r.turns for r in records))),
        "actions": _actions(records),
    }
    if any(r.owned and any(r.owned) for r in records):
        report["cards"], report["never_played"] = _cards(records, won)
    if any(r.decks for r in records):
        report["decks"], report["matchups"] = _decks(records, won, seat_names)
    if declared is not None:
        fired = set().union(*(set(r.fired) for r in records)) if records else set()
        report["coverage"] = {"declared": len(declared),
                              "never_fired": [d for d in declared if d not in fired]}
    return report


def _unique(labels: list[str]) -> list[str]:
    """Agent labels told apart: random and random are random#1 and random#2."""
    counts = Counter(labels)
    seen: Counter[str] = Counter()
    out = []
    for label in labels:
        seen[label] += 1
        out.append(f"{label}#{seen[label]}" if counts[label] > 1 else label)
    return out


def _actions(records: list[Record]) -> dict[str, Any]:
    decisions = sum(r.plies for r in records)
    legal: Counter[str] = Counter()
    chosen: Counter[str] = Counter()
    for r in records:
        legal.update(r.legal)
        chosen.update(r.chosen)
    share = 1 / decisions if decisions else 0.0
    return {kind: {"legal": legal[kind], "legal_rate": legal[kind] * share,
                   "chosen": chosen[kind], "chosen_rate": chosen[kind] * share}
            for kind in sorted(set(legal) | set(chosen))}


def _cards(records: list[Record], won: list[list[bool]]) -> tuple[dict[str, Any], list[str]]:
    """Per card: copies drawn, games played in, and the owner's win rate when it was played
    vs. owned and not played (each game counts once per seat that owned the card)."""
    drawn: Counter[str] = Counter()
    played: Counter[str] = Counter()
    win_played: Counter[str] = Counter()
    owned: Counter[str] = Counter()
    win_not: Counter[str] = Counter()
    for g, r in enumerate(records):
        for seat, holding in enumerate(r.owned):
            seen = set(r.played[seat]) if seat < len(r.played) else set()
            if seat < len(r.drawn):
                drawn.update(r.drawn[seat])
            for card in holding:
                owned[card] += 1
                if card in seen:
                    played[card] += 1
                    win_played[card] += won[g][seat]
                else:
                    win_not[card] += won[g][seat]
    cards: dict[str, Any] = {}
    for card in sorted(owned):
        not_played = owned[card] - played[card]
        cards[card] = {"owned": owned[card], "drawn": drawn[card], "played": played[card],
                       "when_played": rate(win_played[card], played[card]),
                       "when_not_played": rate(win_not[card], not_played)}
    return cards, [c for c in sorted(owned) if not played[c]]


def _decks(records: list[Record], won: list[list[bool]],
           seat_names: list[str]) -> tuple[dict[str, Any], dict[str, Any]]:
    by_seat: dict[str, dict[str, list[int]]] = {}
    matchups: dict[str, dict[str, int]] = {}
    for g, r in enumerate(records):
        if not r.decks:
            continue
        for seat, deck in enumerate(r.decks):
            tally = by_seat.setdefault(deck, {}).setdefault(seat_names[seat], [0, 0])
            tally[0] += won[g][seat]
            tally[1] += 1
        key = " vs ".join(r.decks)
        match = matchups.setdefault(key, {"games": 0, "draws": 0} | {
            f"{seat_names[s]} wins": 0 for s in range(len(r.decks))})
        match["games"] += 1
        winners = [s for s in range(len(r.decks)) if won[g][s]]
        for s in winners:
            match[f"{seat_names[s]} wins"] += 1
        if not winners:
            match["draws"] += 1
    decks = {deck: {seat: rate(w, n) for seat, (w, n) in sorted(seats.items())}
             for deck, seats in sorted(by_seat.items())}
    return decks, dict(sorted(matchups.items()))

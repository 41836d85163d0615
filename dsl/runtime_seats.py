"""Seats, teams and players who are out: the turn order of games of more than two players.

A game with teams keeps the team of each seat in `t_team` (team numbers from 0, worked out
from the options when the game starts); a game without teams has a team per seat. A player is
out when the rulebook's player field `out` (OUT_FIELD) is true; a game that declares none has
nobody out. Turn order is seat order: the builtins below skip the players who are out.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, ClassVar

from dsl.runtime_state import StateCore


def seat_teams(players: int, size: int) -> list[int]:
    """The team of each seat under `teams of size`: teams take turns, so seat i plays in team
    i % (players // size) (four players in teams of two: A and C against B and D)."""
    if size < 1 or players % size:
        raise ValueError(f"{players} players cannot play in teams of {size}")
    count = players // size
    return [seat % count for seat in range(players)]


def listed_teams(players: int, teams: Sequence[Sequence[int]]) -> list[int]:
    """The team of each seat under `teams [A, C], [B, D]`: the seats of a smaller game keep
    their teams, and teams left with no seat are dropped (the numbers stay consecutive)."""
    numbers: dict[int, int] = {}
    found = [0] * players
    for team, seats in enumerate(teams):
        for seat in seats:
            if seat < players:
                found[seat] = numbers.setdefault(team, len(numbers))
    return found


def seat_bits(players: Iterable[int]) -> int:
    """The players of `reveal X to LIST` as the bits that GameState.show keeps (1 << p each):
    a team, its members."""
    bits = 0
    for player in players:
        bits |= 1 << player
    return bits


class StateSeats(StateCore):
    """The queries of seat order and teams that generated rules call."""

    # whether the game has teams: then t_team holds the team of each seat (else a team per seat)
    HAS_TEAMS: ClassVar[bool] = False
    t_team: list[int]
    # the players put out, in the order they went out (games with an `out` field)
    t_out_order: list[int]

    def team_of(self, player: int) -> int:
        return self.t_team[player] if self.HAS_TEAMS else player

    def captain(self, player: int) -> int:
        """The first seat of the player's team: its zones hold what the team shares."""
        team = self.team_of(player)
        return next(q for q in range(self.num_players) if self.team_of(q) == team)

    def team_slot(self, slot: int) -> int:
        """The slot that holds what a slot of a `per team` zone names: its captain's (a path
        `zone.pool.C` names the pool of C's team); any other slot is itself."""
        stride = self.TEAM_SLOTS.get(slot)
        owner = self.SLOT_OWNER[slot]
        if stride is None or owner >= self.num_players:  # (a seat of a larger game: empty)
            return slot
        return slot + (self.captain(owner) - owner) * stride

    def team_holds(self, slot: int) -> bool:
        """Whether a slot is one that observation() shows: any slot but those of a `per team`
        zone that are not a captain's (they stay empty; the team's cards lie in the captain's)."""
        return slot not in self.TEAM_SLOTS or self.team_slot(slot) == slot

    def is_out(self, player: int) -> bool:
        return bool(getattr(self, self.OUT_FIELD)[player]) if self.OUT_FIELD else False

    def ally(self, a: int, b: int) -> bool:
        return self.team_of(a) == self.team_of(b)

    def allies(self, player: int) -> list[int]:
        """The player's teammates still in, in seat order, the player left out."""
        team = self.team_of(player)
        return [q for q in range(self.num_players)
                if q != player and self.team_of(q) == team and not self.is_out(q)]

    def opponents(self, player: int) -> list[int]:
        """The players of the other teams still in, in seat order."""
        team = self.team_of(player)
        return [q for q in range(self.num_players)
                if self.team_of(q) != team and not self.is_out(q)]

    def standing(self) -> list[int]:
        return [q for q in range(self.num_players) if not self.is_out(q)]

    def after(self, player: int) -> list[int]:
        """The players still in after `player` in turn order, from the next one round to the
        one before it."""
        n = self.num_players
        return [q for q in ((player + i) % n for i in range(1, n)) if not self.is_out(q)]

    def next_in(self, player: int) -> int:
        """The next player still in after `player`; `player` itself when nobody else is."""
        n = self.num_players
        for i in range(1, n):
            q = (player + i) % n
            if not self.is_out(q):
                return q
        return player

    def previous_in(self, player: int) -> int:
        n = self.num_players
        for i in range(1, n):
            q = (player - i) % n
            if not self.is_out(q):
                return q
        return player

    def last_standing(self) -> int | None:
        """When the players still in are all of one team: the first of them in seat order;
        none while two teams are in (or nobody is)."""
        left = self.standing()
        if not left or any(self.team_of(q) != self.team_of(left[0]) for q in left):
            return None
        return left[0]

    def share(self, table: list[Any], player: int) -> None:
        """A 'per team' field was written through `player`: its teammates hold the value too
        (a copy of a list, so that a later write through one of them shares it again)."""
        if self.HAS_TEAMS:
            value = table[player]
            team = self.t_team[player]
            for q, other in enumerate(self.t_team):
                if other == team and q != player:
                    table[q] = value[:] if isinstance(value, list) else value

    def mark_out(self, player: int) -> None:
        """The rules (or a scenario) wrote the player's `out`: keep the order players go out
        in, for ranks()."""
        order = self.t_out_order
        if getattr(self, self.OUT_FIELD)[player]:
            if player not in order:
                order.append(player)
        elif player in order:
            order.remove(player)

    def ranks(self) -> list[int]:
        """The place of each player, 1 the best, teammates alike: the winners first (returns),
        then the teams with a player still in, then the others, the last to go out first (a
        team goes out with its last player). Teams that cannot be told apart share a place."""
        n = self.num_players
        result = self.result or [0.0] * n
        order = self.t_out_order if self.OUT_FIELD else []
        keys: dict[int, tuple[float, bool, int]] = {}
        for p in range(n):
            team = self.team_of(p)
            gone = order.index(p) if p in order else -1
            won, still_in, last = keys.get(team, (result[p], False, -1))
            keys[team] = (max(won, result[p]), still_in or not self.is_out(p), max(last, gone))
        return [1 + sum(other > keys[self.team_of(p)] for other in keys.values())
                for p in range(n)]

    def win(self, player: int) -> None:
        """The player's team wins, teammates alike; everyone else loses."""
        if not self.HAS_TEAMS:
            super().win(player)
        elif self.result is None:
            team = self.t_team[player]
            self.result = [1.0 if t == team else -1.0 for t in self.t_team]

    def lose(self, player: int) -> None:
        """The player's team loses, teammates alike; everyone else wins."""
        if not self.HAS_TEAMS:
            super().lose(player)
        elif self.result is None:
            team = self.t_team[player]
            self.result = [-1.0 if t == team else 1.0 for t in self.t_team]

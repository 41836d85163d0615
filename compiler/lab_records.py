"""Records files of `rulecraft simulate` (`--records F.jsonl`, `--resume`, `--merge`): a run
kept game by game, so that a long run survives Ctrl-C, a reboot or the end of a session, and a
run played in slices on several machines adds up to the run played at once.

A file is JSON lines: a header naming the run (the game, seed, agents, options, decks, seat
swapping and coverage: everything a game's record depends on besides its index), then one
lab_stats.Record per finished game. Game i of the run has seed `seed + i`, so the records say
which games a file holds; the report is a function of the records alone, which is why records
merge exactly (the median and histogram of lengths too) and JSON reports would not."""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from dataclasses import fields
from pathlib import Path
from typing import IO, Any

from compiler import lab
from compiler.lab_stats import Record
from dsl.runtime_setup import consecutive_runs

FORMAT = "rulecraft-records/1"
_FIELDS = {f.name for f in fields(Record)}
_KINDS: dict[str, type | tuple[type, ...]] = {
    "seed": int, "seats": list, "decks": (list, type(None)), "returns": list, "first": int,
    "plies": int, "turns": int, "legal": dict, "chosen": dict, "played": list, "drawn": list,
    "owned": list, "fired": list}


class RecordsError(Exception):
    """A records file that cannot be used for this run: a usage error, not a crash."""


def header(game: str, setup: lab.Setup) -> dict[str, Any]:
    """What a file's games share; a file is resumed or merged only into the same run."""
    head = {"format": FORMAT, "game": game, "seed": setup.seed,
            "agents": [[name, options] for name, options in setup.agents],
            "options": setup.options, "decks": setup.decks, "swap": setup.swap,
            "coverage": setup.coverage}
    if setup.max_plies != lab.Setup.max_plies:  # files of runs with the default read as before
        head["max_plies"] = setup.max_plies
    if setup.swap and len(setup.agents) > 2:
        # seats move on one a game (lab.seating); files of two players read as before, and
        # those of more, whose seats were reversed, are another run's
        head["seating"] = "rotate"
    parsed: dict[str, Any] = json.loads(json.dumps(head))  # as a file gives it back
    return parsed


def setup_of(head: dict[str, Any], game: str) -> lab.Setup:
    """The run a header names (for --merge, which plays nothing)."""
    return lab.Setup(game=game, seed=head["seed"],
                     agents=[(name, dict(options)) for name, options in head["agents"]],
                     options=dict(head["options"]), decks=head["decks"], swap=head["swap"],
                     coverage=head["coverage"],
                     max_plies=head.get("max_plies", lab.Setup.max_plies))


def read(path: Path) -> tuple[dict[str, Any], dict[int, Record], int]:
    """A file's header, its records by game index, and the length of its whole lines: a last
    line cut short (the process killed while writing it) is left out, to be written again."""
    try:
        data = path.read_bytes()
    except OSError as error:
        raise RecordsError(f"cannot read {path}: {error.strerror or error}") from error
    lines = data.split(b"\n")
    # the last element is b"" when the file ends with a newline, else a cut line
    whole, cut = lines[:-1], lines[-1]
    if not whole:
        raise RecordsError(f"{path}: not a records file of rulecraft simulate (no header line)")
    head = _json(path, 1, whole[0])
    if not isinstance(head, dict) or head.get("format") != FORMAT:
        raise RecordsError(f"{path}:1: not a records file of rulecraft simulate "
                           f"(the first line is not a {FORMAT} header)")
    if not _header_fits(head):
        raise RecordsError(f"{path}:1: a {FORMAT} header with a field missing or wrong")
    players = len(head["agents"])
    records: dict[int, Record] = {}
    for number, line in enumerate(whole[1:], start=2):
        record = _record(path, number, _json(path, number, line))
        if len(record.seats) != players or len(record.returns) != players:
            raise RecordsError(f"{path}:{number}: a game of {len(record.seats)} players in a "
                               f"run of {players}")
        index = record.seed - head["seed"]
        if index < 0:
            raise RecordsError(f"{path}:{number}: a game of seed {record.seed} is not a game "
                               f"of the run of seed {head['seed']}")
        if index in records:
            raise RecordsError(f"{path}:{number}: game {index} (seed {record.seed}) again")
        records[index] = record
    _ = cut  # a cut line is dropped; the resumed run truncates the file to its whole lines
    return head, records, len(data) - len(cut)


def _header_fits(head: dict[str, Any]) -> bool:
    agents = head.get("agents")
    decks = head.get("decks")
    return (isinstance(head.get("game"), str) and type(head.get("seed")) is int
            and isinstance(agents, list) and len(agents) > 0
            and all(isinstance(a, list) and len(a) == 2 and isinstance(a[0], str)
                    and isinstance(a[1], dict) for a in agents)
            and isinstance(head.get("options"), dict)
            and (decks is None or (isinstance(decks, list)
                                   and all(isinstance(d, str) for d in decks)))
            and isinstance(head.get("swap"), bool) and isinstance(head.get("coverage"), bool))


def _json(path: Path, number: int, line: bytes) -> Any:
    try:
        return json.loads(line)
    except ValueError as error:
        raise RecordsError(f"{path}:{number}: not a JSON line: {error}") from error


def _record(path: Path, number: int, value: Any) -> Record:
    if (not isinstance(value, dict) or set(value) != _FIELDS
            or any(not isinstance(value[name], kind) for name, kind in _KINDS.items())):
        raise RecordsError(f"{path}:{number}: not a game's record")
    return Record(**value)


def mismatch(head: dict[str, Any], expected: dict[str, Any]) -> str | None:
    """Why a file's header is not this run's, or None."""
    for key in expected:
        if head.get(key) != expected[key]:
            return (f"{key}: {json.dumps(head.get(key))} there, "
                    f"{json.dumps(expected[key])} in this run")
    return None


def merge(paths: Sequence[Path]) -> tuple[dict[str, Any], list[Record], int]:
    """The header, records in game order and first game index of files that hold disjoint
    slices of one run and together every game from the first to the last."""
    head: dict[str, Any] | None = None
    owner: dict[int, Path] = {}
    records: dict[int, Record] = {}
    for path in paths:
        this, found, _ = read(path)
        if head is None:
            head = this
        elif (why := mismatch(this, head)) is not None:
            raise RecordsError(f"{path} is not of the run of {paths[0]}: {why}")
        for index, record in found.items():
            if index in records:
                raise RecordsError(f"game {index} (seed {record.seed}) is in both "
                                   f"{owner[index]} and {path}")
            owner[index] = path
            records[index] = record
    if head is None or not records:
        raise RecordsError("the files hold no game")
    first, last = min(records), max(records)
    missing = [i for i in range(first, last + 1) if i not in records]
    if missing:
        raise RecordsError(f"games {_ranges(missing)} of the run are in none of the files: "
                           f"play them with --first-game K -n M --records F, then merge")
    return head, [records[i] for i in range(first, last + 1)], first


def _ranges(indices: list[int]) -> str:
    """[3, 4, 5, 9] -> '3-5, 9' (the first few runs)."""
    runs = consecutive_runs(indices)
    shown = ", ".join(f"{a}-{b}" if a != b else f"{a}" for a, b in runs[:5])
    return shown + (", ..." if len(runs) > 5 else "")


class Writer:
    """Appends each finished game's record as a line, flushed to the disk before the next game
    (a reboot loses at most the game being played)."""

    def __init__(self, path: Path, head: dict[str, Any], keep: int | None) -> None:
        """A new file with `head`, or (keep = the length of its whole lines) an existing one
        whose cut last line, if any, is dropped."""
        try:
            if keep is None:
                self.out: IO[str] = path.open("w", encoding="utf-8")
                self._line(head)
            else:
                with path.open("r+b") as existing:
                    existing.truncate(keep)
                self.out = path.open("a", encoding="utf-8")
        except OSError as error:
            raise RecordsError(f"cannot write {path}: {error.strerror or error}") from error

    def _line(self, value: dict[str, Any]) -> None:
        self.out.write(json.dumps(value, separators=(",", ":")) + "\n")
        self.out.flush()
        os.fsync(self.out.fileno())

    def add(self, record: Record) -> None:
        self._line(record.to_dict())

    def close(self) -> None:
        self.out.close()

"""`rulecraft simulate --backend ray`: the lab's games as Ray tasks, on a local Ray instance or
a cluster (`--address`).

Each task plays a contiguous block of game indices with `lab.play_one`, so the records, and the
totals, are those of `--backend local` for the same seed, however the blocks are cut. The game
travels as its generated source (the cluster's nodes need rulecraft installed, not the
rulebook's files), and each worker process compiles it once."""

from __future__ import annotations

import sys
from collections.abc import Generator, Sequence
from pathlib import Path
from types import ModuleType
from typing import Any

from compiler import lab
from compiler.lab_stats import Record

INSTALL_HINT = "the Ray backend needs Ray: pip install 'rulecraft[cluster]'"


class RayUnavailable(Exception):
    """Ray is not installed, or the cluster cannot be reached: a usage error, not a crash."""


def _ray() -> Any:
    try:
        import ray
    except ImportError as error:
        raise RayUnavailable(INSTALL_HINT) from error
    return ray


def available() -> bool:
    try:
        _ray()
    except RayUnavailable:
        return False
    return True


def blocks(games: int | Sequence[int], jobs: int) -> list[Sequence[int]]:
    """Game indices (0..games-1, or those given) cut into blocks of consecutive ones: a few
    per job, so that a slow block does not keep the others idle, and not so many that the
    tasks' overhead shows."""
    wanted = range(games) if isinstance(games, int) else games
    size = max(1, len(wanted) // (4 * max(1, jobs)))
    return [wanted[start:start + size] for start in range(0, len(wanted), size)]


_COMPILED: dict[str, ModuleType] = {}


def _module(name: str, source: str) -> ModuleType:
    """The game compiled from its source, once per worker process."""
    key = f"{name}\0{hash(source)}"
    if key not in _COMPILED:
        module = ModuleType(f"rulecraft_games.{name}")
        sys.modules[module.__name__] = module
        exec(compile(source, f"<{name}, sent to a Ray worker>", "exec"),  # noqa: S102
             module.__dict__)
        _COMPILED[key] = module
    return _COMPILED[key]


def play_block(name: str, source: str, setup: lab.Setup,
               indices: Sequence[int]) -> list[Record]:
    """What a Ray task runs: the games of one block, in order."""
    module = _module(name, source)
    return [lab.play_one(module, setup, index) for index in indices]


def _local_env() -> dict[str, Any]:
    # a local instance's workers start in Ray's session folder: they find rulecraft where the
    # driver did, also when it runs from a checkout rather than an installed package
    root = str(Path(__file__).resolve().parent.parent)
    return {"env_vars": {"PYTHONPATH": root}}


def run(name: str, source: str, setup: lab.Setup, games: int, jobs: int = 1,
        address: str | None = None,
        indices: Sequence[int] | None = None) -> Generator[Record, None, None]:
    """The records of games 0..games-1 (or of the games `indices`), in order, played by Ray
    tasks. Without an address a
    local Ray instance of `jobs` CPUs is started, and shut down at the end; with one, the games
    are cut for the cluster's CPUs and the driver only disconnects."""
    ray = _ray()
    started_here = not ray.is_initialized()
    if started_here:
        try:
            if address is None:
                ray.init(num_cpus=jobs, include_dashboard=False, log_to_driver=False,
                         runtime_env=_local_env())
            else:
                ray.init(address=address, include_dashboard=False, log_to_driver=False)
        except (ConnectionError, RuntimeError, ValueError, ray.exceptions.RayError) as error:
            # RayError: e.g. AuthenticationError, a token-authenticated cluster's token missing
            raise RayUnavailable(f"cannot start or reach Ray ({address or 'local'}): "
                                 f"{error}") from error
    # on a cluster, its CPUs decide how finely the games are cut, not the local --jobs
    cpus = jobs if address is None else max(jobs, int(ray.cluster_resources().get("CPU", 1)))
    task = ray.remote(play_block)
    source_ref = ray.put(source)
    cut = blocks(games if indices is None else indices, cpus)
    pending = [task.remote(name, source_ref, setup, block) for block in cut]
    done = 0
    try:
        for ref in pending:
            yield from ray.get(ref)
            done += 1
    finally:
        for ref in pending[done:]:  # stopped early (Ctrl-C): the blocks not read yet
            ray.cancel(ref, force=True)
        if started_here:
            ray.shutdown()

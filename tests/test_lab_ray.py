"""`rulecraft simulate --backend ray`: the same totals as the local backend for the same seed
(a local Ray instance, soak tier: starting Ray takes seconds), and a usage error naming the
extra when Ray is not installed."""

from __future__ import annotations

import json
import sys
from typing import Any

import pytest

from compiler import cli, lab_ray


def simulate(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, Any, str]:
    code = cli.main(["simulate", *argv])
    out = capsys.readouterr()
    return code, json.loads(out.out) if code == 0 else out.out, out.err


def test_blocks_cover_every_game_once_in_order() -> None:
    for games in (1, 7, 40, 101):
        for jobs in (1, 2, 5):
            cut = lab_ray.blocks(games, jobs)
            assert [i for block in cut for i in block] == list(range(games))


def test_without_ray_the_backend_is_a_usage_error(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # `import ray` raises ImportError
    code, out, err = simulate(capsys, "dynasties", "-n", "2", "--backend", "ray")
    assert code == 2
    assert "pip install 'rulecraft[cluster]'" in err
    assert "Traceback" not in err and out == ""


def test_address_without_the_ray_backend_is_a_usage_error(
        capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = simulate(capsys, "dynasties", "-n", "2", "--address", "127.0.0.1:6379")
    assert code == 2 and "--address is for --backend ray" in err


@pytest.mark.soak
def test_ray_totals_equal_the_local_run(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ("dynasties", "-n", "24", "--seed", "5", "--json")
    _, local, _ = simulate(capsys, *argv)
    code, on_ray, err = simulate(capsys, *argv, "--backend", "ray", "--jobs", "2")
    assert code == 0, err
    assert on_ray == local
    _, other_seed, _ = simulate(capsys, "dynasties", "-n", "24", "--seed", "6", "--json")
    assert other_seed["seats"] != local["seats"] or other_seed["plies"] != local["plies"]

"""`rulecraft simulate --backend ray`: the same totals as the local backend for the same seed
(a local Ray instance, and a Ray head started apart and joined with --address; soak tier:
starting Ray takes seconds), and a usage error naming the extra when Ray is not installed."""

from __future__ import annotations

import json
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
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


ROOT = Path(__file__).resolve().parent.parent


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
    return port


@pytest.fixture
def ray_head() -> Iterator[tuple[str, dict[str, str]]]:
    """A Ray head of its own (`ray start --head --block`, token authentication with a token
    made for it), its address and the environment a driver joins it with; stopped at the end
    by SIGTERM to that command, which stops the processes it started (`ray stop` would stop
    every Ray instance of the machine)."""
    pytest.importorskip("ray")
    ray_cli = shutil.which("ray") or pytest.skip("no `ray` command")
    # a short folder: Ray's sockets live under it, and a socket's path has at most 107 bytes
    folder = Path(tempfile.mkdtemp(prefix="rcray"))
    token = folder / "token"
    token.write_text(secrets.token_hex(32), encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": str(ROOT), "RAY_AUTH_MODE": "token",
           "RAY_AUTH_TOKEN_PATH": str(token)}
    env.pop("RAY_ADDRESS", None)
    port = _free_port()
    head = subprocess.Popen(
        [str(ray_cli), "start", "--head", "--block", f"--port={port}", "--num-cpus=2",
         "--node-ip-address=127.0.0.1", "--include-dashboard=false", "--disable-usage-stats",
         f"--temp-dir={folder / 'ray'}"],
        env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        deadline = time.monotonic() + 120
        while True:  # the head's GCS listens on the port once it is up
            assert head.poll() is None, "ray start --head stopped"
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                assert time.monotonic() < deadline, "the Ray head did not come up in 120 s"
                time.sleep(0.5)
        yield f"127.0.0.1:{port}", env
    finally:
        head.send_signal(signal.SIGTERM)
        try:
            head.wait(timeout=60)
        except subprocess.TimeoutExpired:
            os.killpg(head.pid, signal.SIGKILL)  # its own session: only what it started
            head.wait()
        shutil.rmtree(folder, ignore_errors=True)


@pytest.mark.soak
def test_a_ray_head_started_apart_gives_the_local_totals(
        capsys: pytest.CaptureFixture[str], ray_head: tuple[str, dict[str, str]]) -> None:
    address, env = ray_head
    argv = ["-m", "compiler", "simulate", "dynasties", "-n", "24", "--seed", "5", "--json",
            "--backend", "ray", "--address", address]
    joined = subprocess.run([sys.executable, *argv], cwd=ROOT, env=env, capture_output=True,
                            text=True, timeout=300)
    assert joined.returncode == 0, joined.stderr[-2000:]
    _, local, _ = simulate(capsys, "dynasties", "-n", "24", "--seed", "5", "--json")
    assert json.loads(joined.stdout) == local
    # a driver without the head's token, or with another, is refused: a usage error that says
    # so, no traceback (Ray's AuthenticationError was a traceback)
    wrong = Path(env["RAY_AUTH_TOKEN_PATH"]).with_name("wrong")
    wrong.write_text(secrets.token_hex(32), encoding="utf-8")
    for token in (wrong.with_name("none"), wrong):
        refused = subprocess.run([sys.executable, *argv], cwd=ROOT, capture_output=True,
                                 text=True, timeout=300,
                                 env={**env, "RAY_AUTH_TOKEN_PATH": str(token)})
        assert refused.returncode == 2, refused.stderr[-2000:]
        assert f"cannot start or reach Ray ({address})" in refused.stderr
        assert "Traceback" not in refused.stderr

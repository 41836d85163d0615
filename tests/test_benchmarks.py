"""The benchmarks' output contract (DESIGN.md §7): one JSON object a line, each with a name,
a value and a unit, and first the machine that ran them (a speed-up depends on it)."""

from __future__ import annotations

import json

import pytest

from benchmarks import bench_playouts


def test_bench_playouts_names_the_machine_then_reports_each_variant(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert bench_playouts.main(["--games", "2", "--rounds", "1"]) == 0
    records = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert all({"name", "value", "unit"} <= record.keys() for record in records)
    machine = records[0]
    assert machine["name"] == "machine" and machine["unit"] == "cpus"
    assert machine["value"] >= 1 and machine["processor"] and machine["python"].count(".") == 2
    for speedup in (record for record in records if record["name"].endswith("speedup")):
        low, high = speedup["paired_range"]
        assert 0 < low <= speedup["paired_median"] <= high
    names = [record["name"] for record in records[1:]]
    assert names == [f"dynasties.{variant}.{what}" for variant in ("basic", "warlords")
                     for what in ("generated.playouts_per_s", "handwritten.playouts_per_s",
                                  "speedup")]

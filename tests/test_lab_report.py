"""`simulate --report`: the HTML report of Ruler's Gambit's shipped decks is self-contained,
shows every chart, and every figure in it equals the JSON report's. The soak test looks at it in
a real headless Chromium (playwright, the system's /usr/bin/chromium) and keeps a screenshot."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from compiler import cli

CHROMIUM = "/usr/bin/chromium"
CHARTS = ("win-rates", "lengths", "cards")


def _report(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> tuple[Path, dict[str, Any]]:
    page = tmp_path / "rulers_gambit.html"
    code = cli.main(["simulate", "rulers_gambit", "-n", "4", "--seed", "3", "--json",
                     "--report", str(page), "--decks", "red_green_rush,yellow_orange_titans"])
    assert code == 0
    return page, json.loads(capsys.readouterr().out)


def _at(report: dict[str, Any], path: list[Any]) -> Any:
    value: Any = report
    for key in path:
        value = value[key]
    return value


def _shown(value: Any, text: str) -> bool:
    """The rounded text a person reads for an exact value: a percentage or a count."""
    if value is None:  # a rate over no games
        return text == "—"
    if isinstance(value, int):
        return text == str(value)
    # a rate, a mean, or an advantage in percentage points
    return text in (f"{100 * value:.1f}%", f"{value:.1f}", f"{100 * value:+.1f}")


def test_the_report_holds_the_json_figures(tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    page, report = _report(tmp_path, capsys)
    text = page.read_text(encoding="utf-8")
    for chart in CHARTS:
        assert re.search(f'<figure id="{chart}"><svg', text), chart
    assert "<script" not in text and "<link" not in text and "src=" not in text
    figures = re.findall(r'data-path="([^"]*)" data-value="([^"]*)"[^>]*>([^<]*)<', text)
    assert len(figures) > 50
    for path, value, shown in figures:
        exact = _at(report, json.loads(path.replace("&quot;", '"')))
        assert json.loads(value.replace("&quot;", '"')) == exact
        assert _shown(exact, shown), (path, exact, shown)


@pytest.mark.soak
def test_the_report_in_chromium(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from playwright.sync_api import sync_playwright

    page_path, report = _report(tmp_path, capsys)
    outside: list[str] = []
    with sync_playwright() as driver:
        browser = driver.chromium.launch(executable_path=CHROMIUM, headless=True)
        page = browser.new_page(viewport={"width": 1200, "height": 900})
        page.on("request", lambda r: outside.append(r.url)
                if not r.url.startswith("file:") else None)
        page.goto(page_path.as_uri())
        for chart in CHARTS:
            box = page.locator(f"#{chart} svg").bounding_box()
            assert box is not None and box["width"] > 200 and box["height"] > 100, chart
        shot = tmp_path / "report.png"
        page.screenshot(path=str(shot), full_page=True)
        figures = page.eval_on_selector_all(
            "[data-path]", "els => els.map(e => [e.dataset.path, e.dataset.value, e.innerText])")
        browser.close()
    assert outside == [], "the report loads something from outside: it would not open offline"
    assert shot.stat().st_size > 20_000 and shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert len(figures) > 50
    for path, value, shown in figures:
        exact = _at(report, json.loads(path))
        assert json.loads(value) == exact
        assert _shown(exact, shown.strip()), (path, exact, shown)

"""`simulate --report out.html`: one self-contained page (no script, no link, the plots as
inline SVG drawn by matplotlib) that opens offline. Every figure in its tables carries the
exact value of the JSON report in `data-value`, keyed by its JSON path in `data-path`."""

from __future__ import annotations

import html
import io
import json
import math
from pathlib import Path
from typing import Any

STYLE = """
body { font-family: sans-serif; margin: 2em auto; max-width: 60em; color: #222; }
table { border-collapse: collapse; margin: 0.5em 0 1.5em; }
td, th { border-bottom: 1px solid #ddd; padding: 0.2em 0.8em; text-align: right; }
th:first-child, td:first-child { text-align: left; }
figure { margin: 1em 0; }
"""


class MissingPlots(RuntimeError):
    """matplotlib is not installed: the report needs the `lab` extra."""


def _percent(value: float | None) -> str:
    return "—" if value is None else f"{100 * value:.1f}%"


def _at(path: list[Any], value: object) -> str:
    """The attributes that tie a figure to the JSON: its path (a JSON list of keys) and value."""
    return (f'data-path="{html.escape(json.dumps(path))}" '
            f'data-value="{html.escape(json.dumps(value))}"')


def _cell(path: list[Any], value: float | None) -> str:
    return f"<td {_at(path, value)}>{_percent(value)}</td>"


def _rate_row(label: str, path: list[Any], figure: dict[str, Any]) -> str:
    interval = figure["ci95"]
    bounds = (_cell([*path, "ci95"], None) * 2 if interval is None  # over no games: no rate
              else _cell([*path, "ci95", 0], interval[0]) + _cell([*path, "ci95", 1], interval[1]))
    return (f"<tr><td>{html.escape(label)}</td>"
            f"<td {_at([*path, 'wins'], figure['wins'])}>{figure['wins']}</td>"
            f"<td {_at([*path, 'games'], figure['games'])}>{figure['games']}</td>"
            f"{_cell([*path, 'rate'], figure['rate'])}{bounds}</tr>")


def _errors(figures: list[dict[str, Any]]) -> list[list[float]]:
    """Error bars from the intervals (never below zero, which rounding could give); none for
    a rate over no games, which has no bar either (_bars)."""
    return [[max(0.0, f["rate"] - f["ci95"][0]) if f["games"] else 0.0 for f in figures],
            [max(0.0, f["ci95"][1] - f["rate"]) if f["games"] else 0.0 for f in figures]]


def _bars(figures: list[dict[str, Any]]) -> list[float]:
    """The bars' lengths: no bar (NaN) for a rate over no games, not one of 0%."""
    return [f["rate"] if f["games"] else math.nan for f in figures]


def _svg(figure: Any) -> str:
    out = io.StringIO()
    figure.savefig(out, format="svg", bbox_inches="tight")
    text = out.getvalue()
    return text[text.index("<svg"):]


def _plots(report: dict[str, Any]) -> dict[str, str]:
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError as error:
        raise MissingPlots("--report needs matplotlib: pip install 'rulecraft[lab]'") from error
    plots: dict[str, str] = {}
    rates = [(f"seat {k}", v) for k, v in report["seats"].items()]
    rates += [(k, v) for k, v in report["by_agent"].items()]
    figure, axes = plt.subplots(figsize=(7, 0.5 + 0.45 * len(rates)))
    values = _bars([v for _, v in rates])
    errors = _errors([v for _, v in rates])
    axes.barh([k for k, _ in rates], values, xerr=errors, color="#4c72b0", capsize=4)
    axes.set_xlim(0, 1)
    axes.invert_yaxis()
    axes.set_xlabel("win rate (95% Wilson interval)")
    plots["win-rates"] = _svg(figure)
    plt.close(figure)
    histogram = report["plies"]["histogram"]
    figure, axes = plt.subplots(figsize=(7, 3))
    axes.bar(list(histogram), list(histogram.values()), color="#55a868")
    axes.set_xlabel("plies")
    axes.set_ylabel("games")
    axes.tick_params(axis="x", labelrotation=45)
    plots["lengths"] = _svg(figure)
    plt.close(figure)
    cards = report.get("cards") or {}
    if cards:
        names = list(cards)
        figure, axes = plt.subplots(figsize=(7, 0.6 + 0.28 * len(names)))
        for offset, key, colour in ((-0.2, "when_played", "#c44e52"),
                                    (0.2, "when_not_played", "#8c8c8c")):
            shown = [cards[n][key] for n in names]
            axes.barh([i + offset for i in range(len(names))], _bars(shown),
                      height=0.4, color=colour, label=key.replace("_", " "),
                      xerr=_errors(shown), capsize=2)
        axes.set_yticks(range(len(names)), names, fontsize=7)
        axes.set_xlim(0, 1)
        axes.invert_yaxis()
        axes.set_xlabel("owner's win rate")
        axes.legend(loc="lower right")
        plots["cards"] = _svg(figure)
        plt.close(figure)
    return plots


def render(report: dict[str, Any]) -> str:
    """The page, as text."""
    plots = _plots(report)
    title = f"{report['game']}: {report['games']} games"
    head = "<tr><th></th><th>wins</th><th>games</th><th>rate</th><th>95% low</th>" \
        "<th>95% high</th></tr>"
    parts = [f"<!DOCTYPE html><html><head><meta charset='utf-8'><title>{html.escape(title)}"
             f"</title><style>{STYLE}</style></head><body><h1>{html.escape(title)}</h1>",
             f"<p>agents: {html.escape(' | '.join(report['agents']))}; seed {report['seed']}; "
             f"seats {'moved one on each game' if report['seats_swapped'] else 'fixed'}</p>",
             "<h2>Win rates</h2>", f'<figure id="win-rates">{plots["win-rates"]}</figure>',
             f'<table id="rates">{head}']
    for seat, figure in report["seats"].items():
        parts.append(_rate_row(f"seat {seat}", ["seats", seat], figure))
    for agent, figure in report["by_agent"].items():
        parts.append(_rate_row(agent, ["by_agent", agent], figure))
    first = report["first_player"]
    parts.append(_rate_row("first player", ["first_player"], first))
    draws = report["draws"]
    parts.append(f"</table><p>first player's advantage: <span "
                 f"{_at(['first_player', 'advantage'], first['advantage'])}>"
                 f"{100 * first['advantage']:+.1f}</span> points over a seat's "
                 f"{_percent(first['baseline'])}</p>")
    if report.get("shared_wins"):
        parts.append("<p>Teammates share a win: the seats' rates add up to more than 100%.</p>")
    parts.append(f"<p>draws: {draws['count']} "
                 f"(<span {_at(['draws', 'rate'], draws['rate'])}>"
                 f"{_percent(draws['rate'])}</span>)</p>")
    plies = report["plies"]
    parts += ["<h2>Game length</h2>", f'<figure id="lengths">{plots["lengths"]}'
              "</figure>",
              f"<p>plies: mean <span {_at(['plies', 'mean'], plies['mean'])}>"
              f"{plies['mean']:.1f}</span>, median {plies['median']:g}, "
              f"{plies['min']}–{plies['max']}; decisions per turn "
              f"{report['decisions_per_turn']:.2f}</p>"]
    if "cards" in plots:
        parts += ["<h2>Cards</h2>", f'<figure id="cards">{plots["cards"]}</figure>',
                  f'<table id="card-table">{head}']
        for card, figure in report["cards"].items():
            parts.append(_rate_row(f"{card}, played", ["cards", card, "when_played"],
                                   figure["when_played"]))
        parts.append("</table>")
        if report.get("never_played"):
            parts.append(f"<p>never played: {html.escape(', '.join(report['never_played']))}</p>")
    if "decks" in report:
        parts.append(f'<h2>Decks by seat</h2><table id="decks">{head}')
        for deck, seats in report["decks"].items():
            for seat, figure in seats.items():
                parts.append(_rate_row(f"{deck} in seat {seat}", ["decks", deck, seat],
                                       figure))
        parts.append("</table>")
    if "coverage" in report:
        never = report["coverage"]["never_fired"]
        parts.append(f"<h2>Rule coverage</h2><p>{len(never)} of "
                     f"{report['coverage']['declared']} declared never fired</p><ul>"
                     + "".join(f"<li>{html.escape(n)}</li>" for n in never) + "</ul>")
    parts.append("</body></html>\n")
    return "".join(parts)


def write_html(report: dict[str, Any], path: Path) -> None:
    path.write_text(render(report), encoding="utf-8")

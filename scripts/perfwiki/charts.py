"""Charts as compact series: the numbers a chart shows, once, in canonical units.

A chart here is {id, plot: {kind, unit, printed?, labels?, series: [{name, values}], ...}}
with values in bytes, bytes/s, ns or bit/s; the page adds its title and, when no table beside
it shows the same numbers, a `table` for readers without JavaScript. site/assets/js/charts.js turns it into a plotly.js
figure with the one layout every chart of that kind shares, picks the display unit
(units.scale_for, ported to js/format.js) and redraws it when the page's unit switch
changes. So what a chart looks like is decided in one place, and data/ holds no layouts.

Kinds: bars (one bar per environment or scenario), sweep (a metric against queue depth or
block size), ladder (fio latency percentiles), histogram (fio latency buckets),
iterations (mbw), intervals (iperf3). This module draws report comparisons; each tool
builds its own run and scenario charts (tools/*/).
"""

from __future__ import annotations

from typing import Any

# Bar colours, one per environment and the same on every chart of a report. The baseline
# is always grey (and drawn with a dotted line at its value); the others take these eleven,
# chosen to stay apart from each other and readable on light and dark backgrounds.
BASELINE_COLOUR = "#8c8c8c"
PALETTE = (
    "#4e79a7",
    "#f28e2b",
    "#59a14f",
    "#e15759",
    "#b07aa1",
    "#edc948",
    "#76b7b2",
    "#ff9da7",
    "#9c755f",
    "#bcbd22",
    "#a0cbe8",
)


def colours(environments: list[str], baseline: str | None) -> dict[str, str]:
    """Each environment's bar colour: grey for the baseline, then the palette in report order."""
    others = [env for env in environments if env != baseline]
    chosen = {env: PALETTE[index % len(PALETTE)] for index, env in enumerate(others)}
    if baseline is not None:
        chosen[baseline] = BASELINE_COLOUR
    return chosen


def bar_panel(
    panel_id: str,
    bars: list[dict[str, Any]],
    unit: str,
    printed: str = "iec",
    baseline_value: float | None = None,
) -> dict[str, Any]:
    """Horizontal bars, one per entry of `bars` with a value, each printing its value.

    Each bar is {label, value (canonical unit), colour, hover?, manual?}; a manual one is
    hatched. The axis is linear from zero (a 2x longer bar is 2x the value); a dotted line
    marks the baseline's value when there is one. `printed` is the byte convention the
    tool printed ('iec', 'si'), the one shown until the reader switches units.
    """
    shown = [bar for bar in bars if bar["value"] is not None]
    plot: dict[str, Any] = {
        "kind": "bars",
        "unit": unit,
        "printed": printed,
        "labels": [bar["label"] for bar in shown],
        "series": [{"values": [bar["value"] for bar in shown]}],
        "colours": [bar["colour"] for bar in shown],
    }
    manual = [index for index, bar in enumerate(shown) if bar.get("manual")]
    if manual:
        plot["manual"] = manual
    if any(bar.get("hover") for bar in shown):
        plot["hover"] = [bar.get("hover") or "" for bar in shown]
    if baseline_value is not None:
        plot["baseline"] = baseline_value
    return {"id": panel_id, "plot": plot}


def line_panel(
    panel_id: str,
    points: list[tuple[str, float | None]],
    unit: str,
    printed: str,
    axis: str,
) -> dict[str, Any]:
    """A sweep: one metric against the one parameter that changes (queue depth, block size), each point
    printing its value. `points` are (parameter shown, value) in the parameter's order."""
    return {
        "id": panel_id,
        "plot": {
            "kind": "sweep",
            "unit": unit,
            "printed": printed,
            "axis": axis,
            "labels": [label for label, _ in points],
            "series": [{"values": [value for _, value in points]}],
        },
    }

"""Plotly figure specs as plain JSON.

The site's JavaScript only hands these specs to the vendored plotly.js; it
never computes anything. Every chart carries its data table for the fallback.
This module draws report comparisons; each tool draws its own run and scenario
charts (tools/*/) with `figure`.

Specs are plain dicts rather than plotly.graph_objects: building a validated
figure costs ~7 ms, which at wiki scale (10,000 runs, two charts each) was most
of ingest. tests/test_charts.py puts every spec ingest writes through
plotly.graph_objects, so a misspelt property still fails the build of the tests.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from . import units

MARGIN = {"t": 16, "r": 16, "b": 16, "l": 72}


def figure(traces: list[dict[str, Any]], **layout: Any) -> dict[str, Any]:
    """A plotly.js figure: {data, layout}."""
    return {"data": traces, "layout": layout}


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
BAR_HEIGHT_PX = 26


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
    scale: units.Scale,
    baseline_value: float | None = None,
    conventions: dict[str, units.Scale] | None = None,
) -> dict[str, Any]:
    """Horizontal bars, one per entry of `bars`, each printing its value; the plotly spec of one panel.

    Each bar is {label, value (canonical unit), colour, hover, manual?}; a manual one is
    hatched. The axis is linear from zero in the one display unit `scale` (a bar's length
    is its value, so a 2x longer
    bar is 2x the value); a dotted line marks the baseline's value when there is one.
    `conventions` ('si', 'iec') give the same bars in the other byte units: the page's
    unit switch redraws the panel with them (js/charts.js).
    """
    shown = [bar for bar in bars if bar["value"] is not None]
    numbers = [scale.number(bar["value"]) for bar in shown]
    trace = {
        "type": "bar",
        "orientation": "h",
        "y": [bar["label"] for bar in shown],
        "x": numbers,
        "text": [scale.text(bar["value"]) for bar in shown],
        "textposition": "auto",  # outside a short bar, inside the end of a long one: never cut off
        "cliponaxis": False,
        # A value typed by hand, with no raw output behind it, is hatched.
        "marker": {
            "color": [bar["colour"] for bar in shown],
            "pattern": {"shape": ["/" if bar.get("manual") else "" for bar in shown], "solidity": 0.5},
        },
        "customdata": [bar.get("hover") or "" for bar in shown],
        "hovertemplate": "%{y}: %{text}%{customdata}<extra></extra>",
    }
    layout: dict[str, Any] = {
        "height": 40 + BAR_HEIGHT_PX * max(len(shown), 1),
        "margin": {"t": 4, "r": 16, "b": 24, "l": 8},
        "showlegend": False,
        "bargap": 0.3,
        # Room past the longest bar for its printed value.
        "xaxis": {
            "range": [0, max(numbers, default=1) * 1.3 or 1],
            "exponentformat": "none",
            "separatethousands": True,
            # Counts of tens of thousands tick as 10k, 20k: five-digit ticks run together on a phone.
            **({"tickformat": "~s"} if scale.is_count and max(numbers, default=0) >= 10_000 else {}),
            "nticks": 4,  # few enough to stay level in a phone-wide panel
            "tickangle": 0,
            "automargin": True,
            "fixedrange": True,
        },
        "yaxis": {"autorange": "reversed", "automargin": True, "fixedrange": True, "ticksuffix": " "},
    }
    if baseline_value is not None:
        at = scale.number(baseline_value)
        layout["shapes"] = [
            {
                "type": "line",
                "xref": "x",
                "x0": at,
                "x1": at,
                "yref": "y domain",
                "y0": 0,
                "y1": 1,
                "line": {"dash": "dot", "width": 1.5, "color": BASELINE_COLOUR},
            }
        ]
    panel: dict[str, Any] = {"id": panel_id, "spec": figure([trace], **layout)}
    if conventions:
        panel["switch"] = unit_switch(
            {"printed": scale, **conventions},
            lambda other: {
                "data": [
                    {
                        "x": [other.number(bar["value"]) for bar in shown],
                        "text": [other.text(bar["value"]) for bar in shown],
                    }
                ],
                "layout": {
                    "xaxis.range": [0, max((other.number(bar["value"]) for bar in shown), default=1) * 1.3 or 1],
                    **(
                        {}
                        if baseline_value is None
                        else {
                            "shapes[0].x0": other.number(baseline_value),
                            "shapes[0].x1": other.number(baseline_value),
                        }
                    ),
                },
            },
        )
    return panel


def unit_switch(scales: dict[str, units.Scale], drawn: Callable[[units.Scale], dict[str, Any]]) -> dict[str, Any]:
    """What a chart of byte quantities becomes under each setting of the page's unit switch:
    {printed|si|iec: {data: [per-trace properties], layout: {relayout properties}}} (js/charts.js)."""
    return {name: drawn(scale) for name, scale in scales.items()}


def line_panel(
    panel_id: str,
    points: list[tuple[str, float | None]],
    scale: units.Scale,
    axis: str,
    conventions: dict[str, units.Scale] | None = None,
) -> dict[str, Any]:
    """A sweep: one metric against the one parameter that changes (queue depth, block size), each point
    printing its value. `points` are (parameter shown, value) in the parameter's order."""
    shown = [(label, value) for label, value in points if value is not None]
    trace = {
        "type": "scatter",
        "mode": "lines+markers+text",
        "x": [label for label, _ in shown],
        "y": [scale.number(value) for _, value in shown],
        "text": [scale.text(value) for _, value in shown],
        "textposition": "top center",
        "cliponaxis": False,
        "marker": {"color": PALETTE[0], "size": 8},
        "line": {"color": PALETTE[0]},
        "hovertemplate": f"{axis} %{{x}}: %{{text}}<extra></extra>",
    }
    top = max((scale.number(value) for _, value in shown), default=1)
    layout = {
        "height": 260,
        "margin": {"t": 24, "r": 24, "b": 40, "l": 8},
        "showlegend": False,
        "xaxis": {"type": "category", "title": {"text": axis, "standoff": 4}, "automargin": True, "fixedrange": True},
        "yaxis": {
            "range": [0, top * 1.25 or 1],
            "automargin": True,
            "fixedrange": True,
            "exponentformat": "none",
            "separatethousands": True,
            "nticks": 5,
            **({"tickformat": "~s"} if scale.is_count and top >= 10_000 else {}),
        },
    }
    panel: dict[str, Any] = {"id": panel_id, "spec": figure([trace], **layout)}
    if conventions:
        panel["switch"] = unit_switch(
            {"printed": scale, **conventions},
            lambda other: {
                "data": [{"y": [other.number(v) for _, v in shown], "text": [other.text(v) for _, v in shown]}],
                "layout": {"yaxis.range": [0, max((other.number(v) for _, v in shown), default=1) * 1.25 or 1]},
            },
        )
    return panel

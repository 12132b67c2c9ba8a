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

from typing import Any

from . import units

MARGIN = {"t": 16, "r": 16, "b": 16, "l": 72}


def figure(traces: list[dict[str, Any]], **layout: Any) -> dict[str, Any]:
    """A plotly.js figure: {data, layout}."""
    return {"data": traces, "layout": layout}


def comparison_chart(comparison: dict[str, Any]) -> dict[str, Any]:
    """Grouped bars of one comparison: a bar group per column, a bar per environment.

    Bars show % of the baseline, so columns with different scales and units (UnixBench
    tests, 4 KiB and 1 MiB fio runs) share one axis; a line at 100% marks the baseline,
    and the axis turns logarithmic when results span more than 20x. Without a baseline
    value the bars show the values themselves.
    """
    # % of baseline needs something to compare: at least two environments with values.
    compared = [row for row in comparison["rows"] if any(cell["relative"] is not None for cell in row["cells"])]
    relative = len(compared) >= 2
    titles = [column["title"] for column in comparison["columns"]]
    traces = []
    shown_values = []
    for row in comparison["rows"]:
        if all(cell["value"] is None for cell in row["cells"]):
            continue  # nothing comparable here (refused or not run): the table says why
        is_baseline = row["environment"] == comparison["baseline"]
        name = f"{row['environment']} (baseline)" if is_baseline else row["environment"]
        values = [
            (cell["relative"] * 100 if cell["relative"] is not None else None) if relative else cell["value"]
            for cell in row["cells"]
        ]
        shown_values += [value for value in values if value]
        texts = [
            units.format_value(cell["value"], column["unit"]) or "n/a"
            for cell, column in zip(row["cells"], comparison["columns"], strict=True)
        ]
        traces.append(
            {
                "type": "bar",
                "name": name,
                "x": list(titles),
                "y": values,
                "marker": {"line": {"width": 2 if is_baseline else 0, "color": "#444"}},
                "customdata": texts,
                "hovertemplate": "%{x}<br>%{customdata}"
                + (" (%{y:.1f}% of baseline)" if relative else "")
                + "<extra>"
                + name
                + "</extra>",
            }
        )
    spread = max(shown_values) / min(shown_values) if shown_values and min(shown_values) > 0 else 1
    yaxis: dict[str, Any] = {"rangemode": "tozero", "tickformat": "~s"}
    layout: dict[str, Any] = {"barmode": "group", "xaxis": {"automargin": True}, "legend": {"orientation": "h"}}
    if relative:
        yaxis["title"] = {"text": f"% of {comparison['baseline']}"}
        yaxis["ticksuffix"] = "%"
        # The baseline: a dotted line at 100 % across the whole plot width.
        layout["shapes"] = [
            {
                "type": "line",
                "xref": "x domain",
                "x0": 0,
                "x1": 1,
                "yref": "y",
                "y0": 100,
                "y1": 100,
                "line": {"dash": "dot", "width": 1, "color": "#888"},
            }
        ]
    else:
        yaxis["title"] = {"text": comparison["unit"]}
    if spread > 20:
        yaxis.update({"type": "log", "rangemode": "normal"})
    table_rows = [
        [row["environment"]]
        + [
            " ".join(
                bit
                for bit in (
                    units.format_value(cell["value"], column["unit"]),
                    f"({units.format_relative(cell['relative'])})" if cell["relative"] is not None else None,
                )
                if bit
            )
            or None
            for cell, column in zip(row["cells"], comparison["columns"], strict=True)
        ]
        for row in comparison["rows"]
    ]
    return {
        "id": f"chart-{comparison['id']}",
        "title": comparison["title"] + (f", % of {comparison['baseline']}" if relative else f" ({comparison['unit']})"),
        "spec": figure(traces, yaxis=yaxis, margin=MARGIN, **layout),
        "table": {"columns": ["Environment"] + titles, "rows": table_rows},
    }


def headline_charts(comparisons: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A chart for every comparison the author defined, and one per tool among the automatic ones.

    Mixed-unit comparisons (bandwidth, IOPS and latency side by side) share no axis:
    their table stands alone.
    """
    charted_tools: set[str] = set()
    charts = []
    for comparison in comparisons:
        if comparison["unit"] == "mixed":
            continue
        if comparison.get("authored"):
            charts.append(comparison_chart(comparison))
            charted_tools.add(comparison["tool"])
        elif comparison["tool"] not in charted_tools:
            charted_tools.add(comparison["tool"])
            charts.append(comparison_chart(comparison))
    return charts

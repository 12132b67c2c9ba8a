"""Plotly figure specs, built and validated by plotly.graph_objects.

The site's JavaScript only hands these specs to the vendored plotly.js; it
never computes anything. Every chart carries its data table for the fallback.
"""

from __future__ import annotations

from typing import Any

import plotly.graph_objects as go
import plotly.io as pio

from . import units

# Without this every spec carries plotly.py's full default template (~7 kB).
pio.templates.default = "none"


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
    figure = go.Figure()
    shown_values = []
    for row in comparison["rows"]:
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
        figure.add_trace(
            go.Bar(
                name=name,
                x=list(titles),
                y=values,
                marker={"line": {"width": 2 if is_baseline else 0, "color": "#444"}},
                customdata=texts,
                hovertemplate="%{x}<br>%{customdata}"
                + (" (%{y:.1f}% of baseline)" if relative else "")
                + "<extra>"
                + name
                + "</extra>",
            )
        )
    spread = max(shown_values) / min(shown_values) if shown_values and min(shown_values) > 0 else 1
    yaxis: dict[str, Any] = {"rangemode": "tozero", "tickformat": "~s"}
    if relative:
        yaxis["title"] = {"text": f"% of {comparison['baseline']}"}
        yaxis["ticksuffix"] = "%"
        figure.add_hline(y=100, line={"dash": "dot", "width": 1, "color": "#888"})
    else:
        yaxis["title"] = {"text": comparison["unit"]}
    if spread > 20:
        yaxis.update({"type": "log", "rangemode": "normal"})
    figure.update_layout(
        barmode="group",
        yaxis=yaxis,
        xaxis={"automargin": True},
        margin={"t": 16, "r": 16, "b": 16, "l": 72},
        legend={"orientation": "h"},
    )
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
        "spec": figure.to_plotly_json(),
        "table": {"columns": ["Environment"] + titles, "rows": table_rows},
    }


def headline_charts(comparisons: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """One chart per tool: its first (headline) comparison."""
    seen: set[str] = set()
    charts = []
    for comparison in comparisons:
        if comparison["tool"] not in seen:
            seen.add(comparison["tool"])
            charts.append(comparison_chart(comparison))
    return charts

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

    The baseline's bars carry a dark outline and "(baseline)" in the legend, so
    the reference is visible without relying on colour.
    """
    figure = go.Figure()
    titles = [column["title"] for column in comparison["columns"]]
    for row in comparison["rows"]:
        is_baseline = row["environment"] == comparison["baseline"]
        name = f"{row['environment']} (baseline)" if is_baseline else row["environment"]
        figure.add_trace(
            go.Bar(
                name=name,
                x=list(titles),
                y=[cell["value"] for cell in row["cells"]],
                marker={"line": {"width": 2 if is_baseline else 0, "color": "#444"}},
                customdata=[units.format_value(cell["value"], comparison["unit"]) or "n/a" for cell in row["cells"]],
                hovertemplate="%{x}<br>%{customdata}<extra>" + name + "</extra>",
            )
        )
    figure.update_layout(
        barmode="group",
        yaxis={"title": {"text": comparison["unit"]}, "rangemode": "tozero"},
        xaxis={"automargin": True},
        margin={"t": 16, "r": 16, "b": 16, "l": 72},
        legend={"orientation": "h"},
    )
    table_rows = [
        [row["environment"]] + [units.format_value(cell["value"], comparison["unit"]) for cell in row["cells"]]
        for row in comparison["rows"]
    ]
    return {
        "id": f"chart-{comparison['id']}",
        "title": f"{comparison['title']} ({comparison['unit']})",
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

"""Plotly figure specs, built and validated by plotly.graph_objects.

The site's JavaScript only hands these specs to the vendored plotly.js; it
never computes anything. Every chart carries its data table for the fallback.
"""

from __future__ import annotations

from typing import Any

import plotly.graph_objects as go
import plotly.io as pio

from . import units
from .model import Run
from .views import fio_summary_rows, run_title

# Without this every spec carries plotly.py's full default template (~7 kB).
pio.templates.default = "none"


def iops_by_scenario(runs: list[Run], environments: list[str]) -> dict[str, Any] | None:
    """Grouped bars: IOPS per scenario (x), one trace per environment."""
    scenarios: list[str] = []
    values: dict[str, dict[str, Any]] = {env: {} for env in environments}
    for run in runs:
        summaries = fio_summary_rows(run)
        for summary in summaries:
            scenario = run_title(run)
            if len(summaries) > 1:  # randrw: one bar per direction
                scenario = f"{scenario} ({summary['direction']})"
            if scenario not in scenarios:
                scenarios.append(scenario)
            values.setdefault(run.environment, {})[scenario] = summary["iops"]
    if not scenarios:
        return None
    figure = go.Figure()
    for env in environments:
        figure.add_trace(
            go.Bar(
                name=env,
                x=list(scenarios),
                y=[values[env].get(s) for s in scenarios],
                hovertemplate="%{x}<br>%{y:,.0f} IOPS<extra>" + env + "</extra>",
            )
        )
    figure.update_layout(
        barmode="group",
        yaxis={"title": {"text": "IOPS"}, "rangemode": "tozero"},
        xaxis={"automargin": True},
        margin={"t": 16, "r": 16, "b": 16, "l": 64},
        legend={"orientation": "h"},
        showlegend=len(environments) > 1,
    )
    table_rows = [[s] + [units.format_count(values[env].get(s)) for env in environments] for s in scenarios]
    return {
        "id": "iops-by-scenario",
        "title": "IOPS per scenario",
        "spec": figure.to_plotly_json(),
        "table": {"columns": ["Scenario"] + environments, "rows": table_rows},
    }

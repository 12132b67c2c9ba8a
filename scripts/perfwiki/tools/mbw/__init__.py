"""mbw: memory copy bandwidth per method (MEMCPY, DUMB, MCBLOCK), every iteration and the average."""

from __future__ import annotations

from typing import Any

from ... import units
from ...model import Run
from ..base import Measure, Metric, Tool, metric_at
from . import parser


def iterations_chart(methods: dict[str, dict[str, Any]], chart_id: str) -> dict[str, Any] | None:
    """Copy rate of every mbw iteration per method; the first is often slow (page faults). None
    without iterations (AVG lines pasted alone)."""
    if not any(method.get("runs_bytes_per_s") for method in methods.values()):
        return None
    names = sorted(methods)
    runs = {m: methods[m].get("runs_bytes_per_s", []) for m in names}
    rows = [
        [str(i)] + [units.format_bytes_per_s(runs[m][i]) if i < len(runs[m]) else None for m in names]
        for i in range(max(len(rates) for rates in runs.values()))
    ]
    rows.append(["AVG"] + [units.format_bytes_per_s(methods[m].get("avg_bytes_per_s")) for m in names])
    return {
        "id": chart_id,
        "title": "Copy rate per iteration",
        # mbw prints MiB/s; js/charts.js draws the lines in MiB/s, or MB/s under the SI unit switch.
        "plot": {"kind": "iterations", "unit": "B/s", "series": [{"name": m, "values": runs[m]} for m in names]},
        "table": {"columns": ["Iteration"] + names, "rows": rows},
    }


class Mbw(Tool):
    name = "mbw"
    measures = "memory"
    parser = parser
    metrics = (
        Metric(
            "bandwidth", "Memory copy bandwidth (AVG)", "B/s", True, metric_at("methods", "{part}", "avg_bytes_per_s")
        ),
    )
    fingerprint_names = {"method": "method", "array_mib": "array size (MiB)"}

    def parts(self, run: Run) -> list[str | None]:
        return sorted(run.metrics.get("methods") or {})

    def fingerprint(self, run: Run, part: str | None) -> dict[str, Any]:
        return {"tool": self.name, "method": part, "array_mib": run.params.get("array_mib")}

    runs_columns = ("Array", "MEMCPY", "DUMB", "MCBLOCK")

    def runs_row(self, run: Run) -> list[Any]:
        """The average copy rate per method, as mbw printed it (MiB/s)."""
        methods = run.metrics.get("methods", {})
        array = run.params.get("array_mib")
        return [None if array is None else f"{array:g} MiB"] + [
            Measure((methods.get(method) or {}).get("avg_bytes_per_s"), "B/s")
            for method in ("MEMCPY", "DUMB", "MCBLOCK")
        ]

    def result_tables(self, run: Run) -> list[dict[str, Any]]:
        rows = [
            [method, units.format_bytes_per_s(data.get("avg_bytes_per_s")), str(len(data.get("runs_bytes_per_s", [])))]
            for method, data in sorted(run.metrics.get("methods", {}).items())
        ]
        return [
            {
                "title": "Copy rate (AVG as mbw printed it)",
                "id": "results",
                "columns": ["Method", "AVG", "Iterations"],
                "rows": rows,
            }
        ]

    def run_charts(self, run: Run) -> list[dict[str, Any]]:
        chart = iterations_chart(run.metrics.get("methods") or {}, "chart-iterations")
        return [chart] if chart else []


TOOL = Mbw()

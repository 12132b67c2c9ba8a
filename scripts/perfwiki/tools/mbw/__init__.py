"""mbw: memory copy bandwidth per method (MEMCPY, DUMB, MCBLOCK), every iteration and the average."""

from __future__ import annotations

from typing import Any

from ... import units
from ...charts import MARGIN, figure, unit_switch
from ...model import Run
from ..base import Measure, Metric, Tool, metric_at
from . import parser

_MIB = units.Scale("B/s", "MiB/s", 2**20)
_MB = units.Scale("B/s", "MB/s", 1e6)


def iterations_chart(methods: dict[str, dict[str, Any]], chart_id: str) -> dict[str, Any] | None:
    """Copy rate of every mbw iteration per method; the first is often slow (page faults)."""
    if not methods:
        return None
    traces = []
    longest = 0
    for method, data in sorted(methods.items()):
        rates = [None if rate is None else rate / 2**20 for rate in data.get("runs_bytes_per_s", [])]
        longest = max(longest, len(rates))
        traces.append(
            {"type": "scatter", "name": method, "x": list(range(len(rates))), "y": rates, "mode": "lines+markers"}
        )
    names = sorted(methods)
    rows = [
        [str(i)]
        + [
            units.format_bytes_per_s(
                (methods[m].get("runs_bytes_per_s") or [None] * longest)[i]
                if i < len(methods[m].get("runs_bytes_per_s", []))
                else None
            )
            for m in names
        ]
        for i in range(longest)
    ]
    rows.append(["AVG"] + [units.format_bytes_per_s(methods[m].get("avg_bytes_per_s")) for m in names])
    return {
        "id": chart_id,
        "title": "Copy rate per iteration",
        "spec": figure(
            traces,
            xaxis={"title": {"text": "iteration"}, "dtick": 1},
            yaxis={"title": {"text": "MiB/s"}, "rangemode": "tozero"},
            margin=MARGIN,
            legend={"orientation": "h"},
        ),
        "table": {"columns": ["Iteration"] + names, "rows": rows},
        # mbw prints MiB/s; the page's unit switch redraws the lines in MB/s.
        "switch": unit_switch(
            {"printed": _MIB, "iec": _MIB, "si": _MB},
            lambda scale: {
                "data": [
                    {"y": [None if r is None else scale.number(r) for r in methods[m].get("runs_bytes_per_s", [])]}
                    for m in names
                ],
                "layout": {"yaxis.title.text": scale.label},
            },
        ),
    }


class Mbw(Tool):
    name = "mbw"
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

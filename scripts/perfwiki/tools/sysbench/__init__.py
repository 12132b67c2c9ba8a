"""sysbench: CPU, memory and file I/O events per second, with latency."""

from __future__ import annotations

from typing import Any

from ... import units
from ...model import Run
from ..base import Measure, Metric, Tool, metric_at, pairs_table, shown
from . import parser


class Sysbench(Tool):
    name = "sysbench"
    parser = parser
    metrics = (
        Metric("events", "Events per second", "events/s", True, metric_at("events_per_s")),
        Metric("bandwidth", "Throughput", "B/s", True, metric_at("bytes_per_s")),
    )
    fingerprint_names = {"test": "test", "threads": "threads"}

    def fingerprint(self, run: Run, part: str | None) -> dict[str, Any]:
        return {"tool": self.name, "test": run.params.get("test"), "threads": run.params.get("threads")}

    runs_columns = ("Test", "Threads", "Events/s", "Throughput")

    def runs_row(self, run: Run) -> list[Any]:
        threads = run.params.get("threads")
        printed = run.metrics.get("printed") or {}  # sysbench's own tokens, under "Units: as printed"
        return [
            run.metrics.get("test"),
            shown(threads),
            Measure(run.metrics.get("events_per_s"), "events/s", printed.get("events_per_s")),
            Measure(run.metrics.get("bytes_per_s"), "B/s", printed.get("bytes_per_s")),
        ]

    def result_tables(self, run: Run) -> list[dict[str, Any]]:
        metrics = run.metrics
        lat = metrics.get("latency_ms") or {}
        printed = metrics.get("printed") or {}
        pairs = [
            ("test", metrics.get("test")),
            (
                "events per second",
                units.shown(metrics.get("events_per_s"), "events/s", printed=printed.get("events_per_s")),
            ),
        ]
        if metrics.get("events_per_s_computed"):
            pairs.append(("note", "events/s computed as events / total time (not printed by this sysbench)"))
        pairs += [("total events", metrics.get("total_events")), ("total time", f"{metrics.get('total_time_s')} s")]
        if metrics.get("bytes_per_s") is not None:
            pairs.append(("throughput", units.shown(metrics["bytes_per_s"], "B/s", printed=printed.get("bytes_per_s"))))
        pairs += [(f"latency {key}", f"{value} ms") for key, value in lat.items()]
        return [pairs_table("Results", "results", pairs)]


TOOL = Sysbench()

"""ioping: per-request disk latency, from the time spent in I/O rather than the wall clock."""

from __future__ import annotations

from typing import Any

from ... import units
from ...model import Run
from ..base import Measure, Metric, Tool, metric_at, pairs_table
from . import parser


class Ioping(Tool):
    name = "ioping"
    measures = "storage"
    parser = parser
    formats = ("text", "json")
    metrics = (
        Metric("lat_avg", "Average latency", "ns", False, metric_at("lat_ns", "avg")),
        Metric("iops", "IOPS", "IOPS", True, metric_at("iops")),
    )
    fingerprint_names = {"request_bytes": "request size", "direct": "direct"}

    def fingerprint(self, run: Run, part: str | None) -> dict[str, Any]:
        return {
            "tool": self.name,
            "request_bytes": run.params.get("request_bytes"),
            "direct": run.params.get("direct", False),
        }

    runs_columns = ("Request size", "Requests", "IOPS", "Average latency")

    def runs_row(self, run: Run) -> list[Any]:
        metrics = run.metrics
        requests = metrics.get("requests")
        return [
            units.format_bytes(run.params.get("request_bytes")),
            units.format_count(requests),
            Measure(metrics.get("iops"), "IOPS"),
            Measure((metrics.get("lat_ns") or {}).get("avg"), "ns"),
        ]

    def result_tables(self, run: Run) -> list[dict[str, Any]]:
        metrics = run.metrics
        lat = metrics.get("lat_ns") or {}
        pairs = [("requests", units.format_count(metrics.get("requests")))]
        pairs += [("IOPS", units.format_count(metrics.get("iops")))]
        pairs += [("throughput", units.format_bytes_per_s(metrics.get("bytes_per_s")))]
        pairs += [(f"latency {key}", units.format_ns(lat.get(key))) for key in ("min", "avg", "max", "mdev")]
        return [pairs_table("Results", "results", pairs)]


TOOL = Ioping()

"""dd: sequential copy rate, in any locale, with bash or GNU `time` around it."""

from __future__ import annotations

from typing import Any

from ... import units
from ...model import Run
from ..base import Measure, Metric, Tool, metric_at, pairs_table
from . import parser


class Dd(Tool):
    name = "dd"
    measures = "storage"
    parser = parser
    printed_prefixes = "si"  # dd prints kB/MB/GB (powers of 1000)
    metrics = (Metric("bandwidth", "dd throughput", "B/s", True, metric_at("bytes_per_s")),)
    fingerprint_names = {"bs_bytes": "block size", "direction": "direction", "conv": "conv", "oflag": "oflag"}

    def fingerprint(self, run: Run, part: str | None) -> dict[str, Any]:
        params = run.params
        return {
            "tool": self.name,
            "bs_bytes": params.get("bs_bytes"),
            "direction": params.get("direction"),
            "conv": params.get("conv"),
            "oflag": params.get("oflag"),
        }

    def destroys(self, run: Run) -> str | None:
        """dd's of= when it is a device other than /dev/null: dd writes over it."""
        target = str(run.params.get("of") or "")
        return target if target.startswith("/dev/") and target not in ("/dev/null", "/dev/zero") else None

    runs_columns = ("bs", "Direction", "Copied", "Seconds", "Rate")

    def runs_row(self, run: Run) -> list[Any]:
        metrics = run.metrics
        seconds = metrics.get("seconds")
        return [
            units.format_bytes(run.params.get("bs_bytes")),
            run.params.get("direction"),
            Measure(metrics.get("bytes"), "B"),
            None if seconds is None else f"{seconds} s",
            Measure(metrics.get("bytes_per_s"), "B/s", (metrics.get("printed") or {}).get("bytes_per_s")),
        ]

    def result_tables(self, run: Run) -> list[dict[str, Any]]:
        metrics = run.metrics
        time = metrics.get("time") or {}
        pairs = [
            ("copied", units.format_bytes(metrics.get("bytes"))),
            ("seconds", metrics.get("seconds")),
            (
                "rate (as dd printed it)",
                units.shown(metrics.get("bytes_per_s"), "B/s", "si", (metrics.get("printed") or {}).get("bytes_per_s")),
            ),
            ("rate (bytes / seconds)", units.format_bytes_per_s(metrics.get("bytes_per_s_exact"), "si")),
            (
                "time real / user / sys",
                " / ".join(f"{time.get(k)} s" for k in ("real_s", "user_s", "sys_s")) if time else None,
            ),
        ]
        return [pairs_table("Results", "results", pairs)]


TOOL = Dd()

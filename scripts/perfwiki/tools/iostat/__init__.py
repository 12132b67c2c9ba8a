"""iostat: device and CPU load sampled beside a benchmark (sysstat's text and -o JSON)."""

from __future__ import annotations

import re
from typing import Any

from ... import units
from ...findings import Evidence, Finding
from ...model import Run
from ..base import Tool
from . import parser


def busy_device(run: Run, ev: Evidence) -> list[Finding]:
    found = []
    samples = [s for s in run.metrics.get("samples", []) if not s.get("since_boot")]
    busy = sorted({d["name"] for s in samples for d in s["devices"] if (d.get("util_pct") or 0) >= 95})
    for name in busy:
        found.append(
            ev.finding(
                "iostat-device-busy",
                "warning",
                f"{name} is at 95% util or more while sampled: anything measured on it now competes with that load",
                rf"^\s*{re.escape(name)}\s.*(?:9[5-9]|100)\.\d+\s*$",
            )
        )
    return found


def devices_table(metrics: dict[str, Any]) -> dict[str, Any]:
    """Per device over the interval samples (the since-boot one left out): mean and peak."""
    samples = [sample for sample in metrics.get("samples", []) if not sample.get("since_boot")] or metrics.get(
        "samples", []
    )
    devices: dict[str, list[dict[str, Any]]] = {}
    for sample in samples:
        for device in sample["devices"]:
            devices.setdefault(device["name"], []).append(device)

    def mean(rows: list[dict[str, Any]], key: str) -> float | None:
        values = [row[key] for row in rows if row.get(key) is not None]
        return sum(values) / len(values) if values else None

    rows = []
    for name, entries in devices.items():
        util = [entry["util_pct"] for entry in entries if entry.get("util_pct") is not None]
        rows.append(
            [
                name,
                str(len(entries)),
                # Means of the samples: computed, so three significant digits as every computed number.
                None if mean(entries, "r_per_s") is None else units.significant(mean(entries, "r_per_s")),
                None if mean(entries, "w_per_s") is None else units.significant(mean(entries, "w_per_s")),
                units.format_bytes_per_s(mean(entries, "read_bytes_per_s")),
                units.format_bytes_per_s(mean(entries, "write_bytes_per_s")),
                None if not util else f"{sum(util) / len(util):.1f}% (max {max(util):.1f}%)",
            ]
        )
    return {
        "title": f"Devices over {len(samples)} samples",
        "id": "results",
        "columns": ["Device", "Samples", "r/s", "w/s", "read", "write", "util"],
        "rows": rows,
    }


class Iostat(Tool):
    name = "iostat"
    measures = "storage"
    parser = parser
    formats = ("text", "json")
    checks = (busy_device,)

    runs_columns = ("Devices", "Samples", "Peak util")

    def runs_row(self, run: Run) -> list[Any]:
        samples = [sample for sample in run.metrics.get("samples", []) if not sample.get("since_boot")]
        devices = sorted({device["name"] for sample in samples for device in sample["devices"]})
        utils = [d["util_pct"] for s in samples for d in s["devices"] if d.get("util_pct") is not None]
        return [", ".join(devices) or None, str(len(samples)), f"{max(utils):.1f}%" if utils else None]

    def headline(self, run: Run) -> list[dict[str, Any]]:
        """iostat measures no result of its own: what it saw is the load on each device."""
        devices, samples, peak = self.runs_row(run)
        shown = [{"label": "Devices", "value": devices}, {"label": "Samples", "value": samples}]
        if peak is not None:
            shown.append({"label": "Peak util", "value": peak, "higher_is_better": False})
        return shown

    def result_tables(self, run: Run) -> list[dict[str, Any]]:
        return [devices_table(run.metrics)]


TOOL = Iostat()

"""DiskSpd: Microsoft's storage load generator for Windows; IOPS, bandwidth and latency per direction.

The text report is read in parser.py, the command line and caching modes in options.py; this
module declares what DiskSpd measures, what makes two runs comparable and what their pages show.
"""

from __future__ import annotations

from typing import Any

from ... import units
from ...findings import Evidence, Finding
from ...model import Run
from ..base import Measure, Metric, Tool, metric_at, shown
from . import parser

_DIRECTIONS = ("read", "write")
# The percentiles DiskSpd prints, in its order, and how a page names them.
_PERCENTILE_NAMES = {"min": "min", "max": "max"} | {key: f"p{key}" for key in ("25", "50", "75", "90", "95", "99")}
_PERCENTILE_NAMES |= {"99." + "9" * n: f"p99.{'9' * n}" for n in range(1, 8)}


def _ms_to_ns(value: float | None) -> float | None:
    return None if value is None else units.scaled(str(value), 10**6)


def _lat_mean(run: Run, part: str | None) -> float | None:
    return _ms_to_ns((run.metrics.get(part or "total") or {}).get("lat_mean_ms"))


def _p99(run: Run, part: str | None) -> float | None:
    return _ms_to_ns(((run.metrics.get("percentiles") or {}).get(part or "total") or {}).get("99"))


def software_cache(run: Run, ev: Evidence) -> list[Finding]:
    """A run with the Windows file cache on measured memory as much as the disk."""
    if run.params.get("caching") not in ("-Sb", "-Sw", "-Sr", "-Srw"):
        return []
    return [
        ev.finding(
            "diskspd-software-cache",
            "warning",
            f"DiskSpd ran with the Windows file cache on ({run.params['caching']}, no -Sh or -Su): reads and "
            "writes may have been served by memory, not the disk",
            r"using software (?:and hardware )?(?:write )?cache|remote cache enabled|Command Line:",
        )
    ]


def _access(params: dict[str, Any]) -> str | None:
    access = params.get("access")
    if access == "mixed" and params.get("random_pct") is not None:
        return f"{params['random_pct']}% random"
    return access


class Diskspd(Tool):
    name = "diskspd"
    measures = "storage"
    parser = parser
    metrics = (
        Metric("iops", "IOPS", "IOPS", True, metric_at("{part}", "iops")),
        Metric("bw", "Bandwidth", "B/s", True, metric_at("{part}", "bw_bytes_per_s")),
        Metric("lat_mean", "Mean latency", "ns", False, _lat_mean),
        Metric("lat_p99", "p99 latency", "ns", False, _p99),
    )
    checks = (software_cache,)
    paired_metrics = (("iops", "bw"),)
    lone_part_in_title = False
    scenario_group = "access"
    fingerprint_names = {
        "direction": "direction",
        "access": "access",
        "write_pct": "write %",
        "bs_bytes": "block size",
        "queue_depth": "queue depth",
        "threads": "threads",
        "caching": "caching",
    }

    def parts(self, run: Run) -> list[str | None]:
        """The directions that did I/O (a 70/30 run is a read result and a write result); the total
        alone when the paste showed no Read IO or Write IO table."""
        found = [d for d in _DIRECTIONS if (run.metrics.get(d) or {}).get("ios")]
        return found or ["total"]

    def fingerprint(self, run: Run, part: str | None) -> dict[str, Any]:
        params = run.params
        return {
            "tool": self.name,
            "direction": part,
            "access": _access(params),
            "write_pct": params.get("write_pct"),
            "bs_bytes": params.get("block_bytes"),
            "queue_depth": params.get("queue_depth"),
            "threads": params.get("threads"),
            "caching": params.get("caching"),
        }

    def run_name(self, run: Run) -> str:
        return run.label or self.name_from_params(run)

    def name_from_params(self, run: Run) -> str:
        """'4k-random-write-qd16': block size, access, direction and queue depth."""
        params = run.params
        block = params.get("block_bytes")
        write = params.get("write_pct")
        kind = {0: "read", 100: "write"}.get(write) or (f"{100 - write}-{write}" if write is not None else None)
        words = [
            f"{block // 1024}k" if block and block % 1024 == 0 else (f"{block}b" if block else None),
            {"random": "random", "sequential": "seq", "mixed": "mixed"}.get(params.get("access")),
            kind,
            f"qd{params['queue_depth']}" if params.get("queue_depth") else None,
        ]
        return "-".join(word for word in words if word) or self.name

    def badges(self, run: Run) -> list[str]:
        params = run.params
        found = [str(params["caching"])] if params.get("caching") else []
        if params.get("queue_depth") is not None:
            found.append(f"QD{params['queue_depth']} x {shown(params.get('threads')) or '?'} threads")
        return found

    def result_tables(self, run: Run) -> list[dict[str, Any]]:
        metrics = run.metrics
        tables = []
        sections = [name for name in ("total", "read", "write") if metrics.get(name)]
        rows = []
        for name in sections:
            data = metrics[name]
            rows.append(
                [
                    name,
                    units.format_count(data.get("iops")),
                    units.shown(data.get("bw_bytes_per_s"), "B/s"),
                    units.shown(data.get("bytes"), "B"),
                    units.format_count(data.get("ios")),
                    units.format_ns(_ms_to_ns(data.get("lat_mean_ms"))),
                    units.format_ns(_ms_to_ns(data.get("lat_stddev_ms"))),
                ]
            )
        tables.append(
            {
                "title": "Results",
                "id": "results",
                "columns": ["I/O", "IOPS", "Bandwidth", "Bytes", "I/Os", "Mean latency", "Latency stddev"],
                "rows": rows,
            }
        )
        threads = (metrics.get("total") or {}).get("threads") or []
        if threads:
            tables.append(
                {
                    "title": "Threads (Total IO)",
                    "id": "threads",
                    "columns": ["Thread", "File", "IOPS", "Bandwidth", "I/Os", "Mean latency"],
                    "rows": [
                        [
                            str(row["thread"]),
                            row.get("file"),
                            units.format_count(row.get("iops")),
                            units.shown(row.get("bw_bytes_per_s"), "B/s"),
                            units.format_count(row.get("ios")),
                            units.format_ns(_ms_to_ns(row.get("lat_mean_ms"))),
                        ]
                        for row in threads
                    ],
                }
            )
        percentiles = metrics.get("percentiles") or {}
        if percentiles:
            columns = [column for column in ("read", "write", "total") if percentiles.get(column)]
            keys = [key for key in _PERCENTILE_NAMES if any(key in percentiles[column] for column in columns)]
            values = [_ms_to_ns(value) for column in columns for value in percentiles[column].values()]
            scale = units.scale_for(values, "ns")  # one unit for the table, as DiskSpd prints ms throughout
            tables.append(
                {
                    "title": "Latency percentiles (-L)",
                    "id": "percentiles",
                    "columns": ["Percentile", *(column.title() for column in columns)],
                    "rows": [
                        [_PERCENTILE_NAMES[key], *(scale.text(_ms_to_ns(percentiles[c].get(key))) for c in columns)]
                        for key in keys
                    ],
                }
            )
        cpu = metrics.get("cpu")
        if cpu:
            tables.append(
                {
                    "title": "CPU (average of all processors)",
                    "id": "cpu",
                    "columns": ["CPUs", "Usage", "User", "Kernel", "Idle"],
                    "rows": [
                        [
                            shown(cpu.get("cpus")),
                            *(f"{cpu[key]:.2f}%" for key in ("usage_pct", "user_pct", "kernel_pct", "idle_pct")),
                        ]
                    ],
                }
            )
        return tables

    runs_columns = (
        "Access",
        "Block size",
        "Queue depth",
        "Threads",
        "Caching",
        "IOPS",
        "Bandwidth",
        "Mean latency",
        "p99",
    )

    def runs_rows(self, run: Run) -> list[tuple[str | None, list[Any]]]:
        """One row per direction that did I/O: a mixed run has a read row and a write row."""
        parts = self.parts(run)
        params = run.params
        rows = []
        for part in parts:
            data = run.metrics.get(part) or {}
            access = _access(params)
            if len(parts) > 1:
                access = f"{access} ({part})"
            rows.append(
                (
                    part,
                    [
                        access,
                        units.format_bytes(params.get("block_bytes")),
                        shown(params.get("queue_depth")),
                        shown(params.get("threads")),
                        params.get("caching"),
                        Measure(data.get("iops"), "IOPS"),
                        Measure(data.get("bw_bytes_per_s"), "B/s"),
                        Measure(_lat_mean(run, part), "ns"),
                        Measure(_p99(run, part), "ns"),
                    ],
                )
            )
        return rows


TOOL = Diskspd()

"""sysbench cpu, memory and fileio: the 1.0 line, the unreleased 1.1 format, and 0.4/0.5.

A real input (Debian sysbench 1.0.20, `sysbench cpu --time=1 run`, abridged)::

    sysbench 1.0.20 (using system LuaJIT 2.1.0-beta3)
    Number of threads: 1
    Prime numbers limit: 10000
    CPU speed:
        events per second:  4505.29
    General statistics:
        total time:                          1.0003s
        total number of events:              4509
    Latency (ms):
             min:                                    0.22
             avg:                                    0.22
             max:                                    1.03
             95th percentile:                        0.24
             sum:                                  998.59

Output metrics::

    test: cpu | memory | fileio | None, threads, events_per_s, total_events, total_time_s,
    latency_ms: {min, avg, max, p95 (or the --percentile printed), sum},
    fairness?: {events_avg, events_stddev, time_avg_s, time_stddev_s},
    memory: ops_per_s, bytes, bytes_per_s;  fileio: reads_per_s, writes_per_s, fsyncs_per_s,
    read_bytes_per_s, write_bytes_per_s, bytes_per_s (read + written)

events_per_s is the rate sysbench printed: "events per second:" (cpu), "events/s (eps):" (1.1's
Throughput, which wins where both are printed), else the rate of the operations or transactions
it counted as its events ("Total operations: 4679460 (4673687.11 per second)" of memory,
"transactions: 29611 (986.49 per sec.)" of OLTP, when their count is the total number of events).
0.4's fileio "5972.95 Requests/sec executed" likewise. Only where none is printed (fileio 1.0,
sysbench 0.4 cpu) is it events / total time, flagged with
`events_per_s_computed`; a rate recomputed so differs from the printed one by a few hundredths of
a percent. `printed` keeps each rate read from one token as sysbench printed it, keyed by the
value's name: {events_per_s: "4673687.11", ops_per_s: "4673687.11", bytes_per_s: "4564.15 MiB/sec"}.

sysbench 0.4's "MB/sec" and "Mb/sec" are MiB.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from ... import lazyre
from ..base import ToolReport

MiB = 2**20
# The banner opens each run; a log may put a prefix before it ("CPU 0 sysbench 1.0.11 (using ...").
_BANNER = lazyre.compile(r"^\s*(?:\S.*?\s)?sysbench (?P<v>\d+\.\d+(?:\.\d+)?(?:-\S+)?)(?::|\s|$)")
# What a run prints once: met again with no banner between, it is another run's result, and the
# run says so instead of letting the second overwrite the first.
_ONCE = ("total_events", "ops", "transferred", "events_per_s", "eps", "transactions")
_VALUE = r"([\d.]+)"
_PATTERNS: list[tuple[str, re.Pattern[str]]] = [
    ("threads", lazyre.compile(r"^\s*Number of threads:\s*(\d+)")),
    ("prime", lazyre.compile(r"^\s*(?:Prime numbers limit|Maximum prime number checked in CPU test):\s*(\d+)")),
    ("events_per_s", lazyre.compile(r"^\s*events per second:\s*" + _VALUE)),
    ("eps", lazyre.compile(r"^\s*events/s \(eps\):\s*" + _VALUE)),
    ("transactions", lazyre.compile(r"^\s*transactions:\s*(\d+)\s*\(\s*" + _VALUE + r"\s*per sec\.\)")),
    ("total_time_s", lazyre.compile(r"^\s*(?:total time|time elapsed):\s*" + _VALUE + r"s")),
    ("total_events", lazyre.compile(r"^\s*total number of events:\s*(\d+)")),
    ("lat_min", lazyre.compile(r"^\s*min:\s*" + _VALUE + r"(ms)?\s*$")),
    ("lat_avg", lazyre.compile(r"^\s*avg:\s*" + _VALUE + r"(ms)?\s*$")),
    ("lat_max", lazyre.compile(r"^\s*max:\s*" + _VALUE + r"(ms)?\s*$")),
    ("lat_pct", lazyre.compile(r"^\s*(?:approx\.\s+)?(\d+)(?:th)? percentile:\s*" + _VALUE + r"(ms)?\s*$")),
    ("lat_sum", lazyre.compile(r"^\s*sum:\s*" + _VALUE + r"\s*$")),
    ("fair_events", lazyre.compile(r"^\s*events \(avg/stddev\):\s*" + _VALUE + r"/" + _VALUE)),
    ("fair_time", lazyre.compile(r"^\s*execution time \(avg/stddev\):\s*" + _VALUE + r"/" + _VALUE)),
    (
        "ops",
        lazyre.compile(
            r"^\s*(?:Total operations|Operations performed):\s*(\d+)\s*\(\s*" + _VALUE + r"\s*(?:per second|ops/sec)\)"
        ),
    ),
    (
        "transferred",
        lazyre.compile(r"^\s*" + _VALUE + r"\s*(MiB|MB) transferred \((?P<rate>" + _VALUE + r"\s*(?:MiB|MB)/sec)\)"),
    ),
    ("reads_per_s", lazyre.compile(r"^\s*reads/s:\s*" + _VALUE)),
    ("writes_per_s", lazyre.compile(r"^\s*writes/s:\s*" + _VALUE)),
    ("fsyncs_per_s", lazyre.compile(r"^\s*fsyncs/s:\s*" + _VALUE)),
    ("read_mib", lazyre.compile(r"^\s*read, MiB/s:\s*" + _VALUE)),
    ("written_mib", lazyre.compile(r"^\s*written, MiB/s:\s*" + _VALUE)),
    ("fileio_04", lazyre.compile(r"Total transferred\s+\S+\s+\((?P<rate>" + _VALUE + r"\s*(Kb|Mb|Gb)/sec)\)")),
    ("requests_04", lazyre.compile(r"^\s*" + _VALUE + r" Requests/sec executed")),
    ("requests_total_04", lazyre.compile(r"^\s*Operations performed:\s*\d+ Read, \d+ Write, \d+ Other = (\d+) Total")),
    ("file_ops", lazyre.compile(r"^\s*File operations:")),
]


@dataclass
class SysbenchReport(ToolReport):
    metrics: dict[str, Any] = field(default_factory=lambda: {"test": None})

    def has_results(self) -> bool:
        return "total_events" in self.metrics or "events_per_s" in self.metrics


def detect(text: str) -> float:
    if "total number of events" not in text:
        return 0.0  # both forms print it; the cheap test first, detect runs on every segment
    if re.search(r"^\s*sysbench \d+\.\d+", text, re.M) and re.search(r"total number of events:", text):
        return 1.0
    if re.search(r"General statistics:|Test execution summary:", text) and "total number of events" in text:
        return 0.8
    return 0.0


def _printed(metrics: dict[str, Any], key: str, token: str) -> None:
    """Keep `token`, the text sysbench printed for the value `key`, for "Units: as printed"."""
    metrics.setdefault("printed", {})[key] = token


def _apply(metrics: dict[str, Any], key: str, match: re.Match[str]) -> None:
    latency = metrics.setdefault("latency_ms", {}) if key.startswith("lat_") else None
    if key in ("threads", "prime", "total_events"):
        metrics[{"prime": "prime_limit"}.get(key, key)] = int(match[1])
        if key == "prime":
            metrics["test"] = "cpu"
    elif key in ("events_per_s", "eps"):
        metrics["events_per_s"] = float(match[1])
        _printed(metrics, "events_per_s", match[1])
    elif key == "transactions":
        metrics["transactions"] = int(match[1])
        metrics["transactions_per_s"] = float(match[2])
        _printed(metrics, "transactions_per_s", match[2])
    elif key in ("total_time_s", "reads_per_s", "writes_per_s", "fsyncs_per_s"):
        metrics[key] = float(match[1])
    elif key in ("lat_min", "lat_avg", "lat_max", "lat_sum"):
        latency[key[4:]] = float(match[1])
    elif key == "lat_pct":
        latency[f"p{match[1]}"] = float(match[2])
    elif key == "fair_events":
        metrics.setdefault("fairness", {}).update({"events_avg": float(match[1]), "events_stddev": float(match[2])})
    elif key == "fair_time":
        metrics.setdefault("fairness", {}).update({"time_avg_s": float(match[1]), "time_stddev_s": float(match[2])})
    elif key == "ops":
        metrics["test"] = metrics["test"] or "memory"
        metrics["ops"] = int(match[1])
        metrics["ops_per_s"] = float(match[2])
        _printed(metrics, "ops_per_s", match[2])
    elif key == "transferred":
        metrics["test"] = "memory"
        metrics["bytes"] = round(float(match[1]) * MiB)  # 0.4 "MB" is MiB too
        metrics["bytes_per_s"] = round(float(match[4]) * MiB, 3)  # [3] is the rate with its unit
        _printed(metrics, "bytes_per_s", match["rate"])
    elif key in ("read_mib", "written_mib"):
        metrics["test"] = "fileio"
        metrics["read_bytes_per_s" if key == "read_mib" else "write_bytes_per_s"] = round(float(match[1]) * MiB, 3)
    elif key == "fileio_04":
        metrics["test"] = "fileio"
        factor = {"Kb": 2**10, "Mb": MiB, "Gb": 2**30}[match[3]]
        metrics["bytes_per_s"] = round(float(match[2]) * factor, 3)  # [1] is the rate with its unit
        _printed(metrics, "bytes_per_s", match["rate"])
    elif key == "requests_04":
        metrics["requests_per_s"] = float(match[1])
        _printed(metrics, "requests_per_s", match[1])
    elif key == "requests_total_04":
        metrics["requests"] = int(match[1])
    elif key == "file_ops":
        metrics["test"] = "fileio"


def parse(text: str) -> list[SysbenchReport]:
    reports: list[SysbenchReport] = []
    current: SysbenchReport | None = None
    for index, line in enumerate(text.split("\n")):
        banner = _BANNER.match(line)
        if banner or (current is None and any(pattern.match(line) for _, pattern in _PATTERNS[:2])):
            current = SysbenchReport(line_start=index, line_end=index, tool_version=banner["v"] if banner else None)
            reports.append(current)
            if banner:
                continue
        if current is None:
            continue
        if re.search(r"bytes written in [\d.]+ seconds", line):
            continue  # fileio prepare: creating the test files is not the benchmark
        for key, pattern in _PATTERNS:
            if match := pattern.search(line) if key == "fileio_04" else pattern.match(line):
                seen = current.metrics.setdefault("_seen", set())
                if key in _ONCE and key in seen:
                    current.problems.append(
                        (index, f"a second sysbench result ({line.strip()[:60]}) in one run, without a banner")
                    )
                    break
                seen.add(key)
                _apply(current.metrics, key, match)
                current.line_end = index
                break
    for report in reports:
        _finish(report)
    return [report for report in reports if report.has_results() or report.problems]


def _finish(report: SysbenchReport) -> None:
    metrics = report.metrics
    metrics.pop("_seen", None)
    if metrics.get("test") == "fileio" and "bytes_per_s" not in metrics:
        if "read_bytes_per_s" in metrics or "write_bytes_per_s" in metrics:
            metrics["bytes_per_s"] = round(metrics.get("read_bytes_per_s", 0) + metrics.get("write_bytes_per_s", 0), 3)
    if "events_per_s" not in metrics:
        # Memory counts an operation, OLTP a transaction, 0.4's fileio a request as one event: their
        # printed rate is the events'.
        total = metrics.get("total_events")
        for count, rate in (
            ("ops", "ops_per_s"),
            ("transactions", "transactions_per_s"),
            ("requests", "requests_per_s"),
        ):
            if total is not None and metrics.get(count) == total:
                metrics["events_per_s"] = metrics[rate]
                _printed(metrics, "events_per_s", metrics["printed"][rate])
                break
    if "events_per_s" not in metrics and metrics.get("total_events") and metrics.get("total_time_s"):
        # fileio, sysbench 0.4 and 1.0.0-1.0.7 cpu print no rate: derive it, and say so.
        metrics["events_per_s"] = round(metrics["total_events"] / metrics["total_time_s"], 2)
        metrics["events_per_s_computed"] = True
    if metrics.get("test") is None and "events_per_s" in metrics and "prime_limit" in metrics:
        metrics["test"] = "cpu"


def params(report: SysbenchReport, command: str | None) -> tuple[dict[str, Any], list[str]]:
    result: dict[str, Any] = {}
    metrics = report.metrics
    if command:
        test = re.search(r"--test=(\S+)", command) or re.search(
            r"\bsysbench\b(?:\s+--\S+)*\s+(cpu|memory|fileio|\S+\.lua|oltp\S*)", command
        )
        if test:
            name = test.group(1).removesuffix(".lua")
            result["test"] = name
            if metrics.get("test") is None and name in ("cpu", "memory", "fileio"):
                metrics["test"] = name
        for option, key in (
            ("threads", "threads"),
            ("num-threads", "threads"),
            ("time", "time_s"),
            ("max-time", "time_s"),
        ):
            found = re.search(rf"--{option}=(\d+)", command)
            if found:
                result[key] = int(found.group(1))
        for option in (
            "memory-block-size",
            "memory-total-size",
            "memory-oper",
            "file-test-mode",
            "file-total-size",
            "cpu-max-prime",
        ):
            found = re.search(rf"--{option}=(\S+)", command)
            if found:
                result[option.replace("-", "_")] = found.group(1)
    result.setdefault("test", metrics.get("test"))
    if "threads" in metrics:
        result["threads"] = metrics["threads"]
    return result, []

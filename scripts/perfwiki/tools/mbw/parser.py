"""mbw memory bandwidth: per-iteration lines and the AVG line of each method.

A real input (seed 001, mbw 512; tabs may be spaces in pasted pages)::

    Long uses 8 bytes. Allocating 2*67108864 elements = 1073741824 bytes of memory.
    Using 262144 bytes as blocks for memcpy block copy test.
    Getting down to business... Doing 10 runs per test.
    0       Method: MEMCPY  Elapsed: 0.07964        MiB: 512.00000  Copy: 6429.172 MiB/s
    ...
    AVG     Method: MEMCPY  Elapsed: 0.06756        MiB: 512.00000  Copy: 7578.348 MiB/s

Output metrics::

    array_mib: 512.0, block_bytes: 262144 | None, runs: 10
    methods: {MEMCPY|DUMB|MCBLOCK: {avg_bytes_per_s, runs_bytes_per_s: [...],
                                    avg_elapsed_s, runs_elapsed_s: [...]}}

AVG is what mbw printed: its array size over the mean elapsed time, which is
not the mean of the per-iteration rates (the first iteration is usually slow).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from ... import lazyre, units
from ..base import ToolReport

_LINE = lazyre.compile(
    r"^\s*(?P<run>\d+|AVG)\s+Method:\s+(?P<method>\w+)\s+Elapsed:\s+(?P<elapsed>[\d.]+)\s+"
    r"MiB:\s+(?P<mib>[\d.]+)\s+Copy:\s+(?P<rate>[\d.]+|inf)\s+MiB/s\s*$"
)
_ALLOCATING = lazyre.compile(r"Allocating 2\*(?P<elements>\d+) elements = (?P<bytes>\d+) bytes")
_BLOCK = lazyre.compile(r"^\s*Using (?P<bytes>\d+) bytes as blocks")
_RUNS = lazyre.compile(r"Doing (?P<runs>\d+) runs per test")


@dataclass
class MbwReport(ToolReport):
    metrics: dict[str, Any] = field(default_factory=lambda: {"methods": {}})

    def has_results(self) -> bool:
        return bool(self.metrics["methods"])


def detect(text: str) -> float:
    return 1.0 if re.search(r"Method:\s+(MEMCPY|DUMB|MCBLOCK)\s+Elapsed:", text) else 0.0


def _mib_per_s(text: str) -> units.Number | None:
    return None if text == "inf" else units.scaled(text, 2**20)


def parse(text: str) -> list[MbwReport]:
    """One report per mbw invocation; a new preamble or a repeated method starts the next."""
    reports: list[MbwReport] = []
    current: MbwReport | None = None
    for index, line in enumerate(text.split("\n")):
        if line.startswith("Long uses") or (current and _method_done(current, line)):
            current = None
        if current is None and (line.startswith("Long uses") or _LINE.match(line)):
            current = MbwReport(line_start=index, line_end=index)
            reports.append(current)
        if current is None:
            continue
        _read_line(current, line, index)
        current.line_end = index if line.strip() else current.line_end
    for report in reports:
        if not report.has_results():
            report.problems.append((report.line_start, "mbw output without any Method: line"))
    return reports


def _method_done(report: MbwReport, line: str) -> bool:
    """A per-iteration line of a method whose AVG was already printed belongs to a new run."""
    match = _LINE.match(line)
    if not match or match["run"] == "AVG":
        return False
    method = report.metrics["methods"].get(match["method"])
    return bool(method and "avg_bytes_per_s" in method)


def _read_line(report: MbwReport, line: str, index: int) -> None:
    metrics = report.metrics
    if match := _ALLOCATING.search(line):
        metrics["array_bytes"] = int(match["bytes"]) // 2  # mbw allocates two arrays
    elif match := _BLOCK.match(line):
        metrics["block_bytes"] = int(match["bytes"])
    elif match := _RUNS.search(line):
        metrics["runs"] = int(match["runs"])
    elif match := _LINE.match(line):
        method = metrics["methods"].setdefault(match["method"], {"runs_bytes_per_s": [], "runs_elapsed_s": []})
        metrics["array_mib"] = float(match["mib"])
        if match["run"] == "AVG" and "avg_bytes_per_s" in method:
            # mbw prints one AVG per method and run: a second one is another run's, and must
            # not replace the first without a word.
            report.problems.append(
                (index, f"a second AVG line for {match['method']} in one mbw run: the first is kept")
            )
        elif match["run"] == "AVG":
            method["avg_bytes_per_s"] = _mib_per_s(match["rate"])
            method["avg_elapsed_s"] = float(match["elapsed"])
        else:
            method["runs_bytes_per_s"].append(_mib_per_s(match["rate"]))
            method["runs_elapsed_s"].append(float(match["elapsed"]))


def params(report: MbwReport, command: str | None) -> tuple[dict[str, Any], list[str]]:
    """Array size and run count, from what mbw printed (the command's own flags vary by fork)."""
    metrics = report.metrics
    result: dict[str, Any] = {}
    if "array_mib" in metrics:
        result["array_mib"] = metrics["array_mib"]
    if "runs" in metrics:
        result["runs"] = metrics["runs"]
    result["methods"] = sorted(metrics["methods"])
    return result, []

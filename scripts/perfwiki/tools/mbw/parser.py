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

One output can hold several mbw runs (a loop over block sizes, tests/fixtures/mbw/)::

    With bandwidth 4096:
    AVG     Method: MEMCPY  Elapsed: 0.00290        MiB: 16.00000   Copy: 5525.816 MiB/s
    ...
    AVG     Method: MCBLOCK Elapsed: 0.00101        MiB: 16.00000   Copy: 15857.284 MiB/s
    With bandwidth 65536:
    AVG     Method: MEMCPY  Elapsed: 0.00281        MiB: 16.00000   Copy: 5704.100 MiB/s

Each is a run of its own: a new preamble ("Long uses ..."), a line that is not mbw's after an
AVG line, an iteration of a method already averaged, or iteration 0 again (mbw -a prints no
AVG) starts the next one; a short line between them is the next run's label. A method line cut
short ("AVG\tMethod: MEMCPY\tElapsed: 0.00") is a problem at its line, and what is whole is kept.
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
# The start of a method line, whole or cut short.
_METHOD_START = lazyre.compile(r"^\s*(?:\d+|AVG)\s+Method:")
# A line of the author's between runs, this short or shorter, names the next ("With bandwidth 4096:").
_MAX_LABEL_CHARS = 60


@dataclass
class MbwReport(ToolReport):
    metrics: dict[str, Any] = field(default_factory=lambda: {"methods": {}})
    label: str | None = None  # the short line just before this run, if any

    def has_results(self) -> bool:
        return bool(self.metrics["methods"])


def detect(text: str) -> float:
    return 1.0 if re.search(r"Method:\s+(MEMCPY|DUMB|MCBLOCK)\s+Elapsed:", text) else 0.0


def _mib_per_s(text: str) -> units.Number | None:
    return None if text == "inf" else units.scaled(text, 2**20)


def parse(text: str) -> list[MbwReport]:
    """One report per mbw invocation: see the module's docstring for where one ends."""
    reports: list[MbwReport] = []
    current: MbwReport | None = None
    label: str | None = None  # a short line seen since the last mbw line
    after_avg = False  # the last mbw line was an AVG line: the run may be complete
    for index, line in enumerate(text.split("\n")):
        stripped = line.strip()
        if not stripped:
            continue
        method = _METHOD_START.match(line)
        if not (method or _is_preamble(line)):
            if current is not None and after_avg and current.has_results():
                current = None  # "With bandwidth 65536:" after a run: that run is over
            label = stripped if len(stripped) <= _MAX_LABEL_CHARS else None
            continue
        if line.startswith("Long uses") or (current and _method_done(current, line)):
            current = None
        if current is None:
            current = MbwReport(line_start=index, line_end=index, label=label)
            reports.append(current)
        label = None
        if method and not _LINE.match(line):
            # Cut mid-line (a paste, a killed run): what it would have said is not known.
            current.problems.append((index, f"an mbw line cut short, left out: {stripped}"))
        else:
            _read_line(current, line, index)
        after_avg = bool(method) and stripped.startswith("AVG")
        current.line_end = index
    for report in reports:
        if not report.has_results():
            report.problems.append((report.line_start, "mbw output without any Method: line"))
    return reports


def _is_preamble(line: str) -> bool:
    """mbw's lines before its results (none with -q)."""
    return line.startswith("Long uses") or bool(_BLOCK.match(line) or _RUNS.search(line))


def _method_done(report: MbwReport, line: str) -> bool:
    """A per-iteration line of a method whose AVG was already printed, or its iteration 0 again
    (mbw -a prints no AVG), belongs to a new run."""
    match = _LINE.match(line)
    if not match or match["run"] == "AVG":
        return False
    method = report.metrics["methods"].get(match["method"])
    return bool(method and ("avg_bytes_per_s" in method or (match["run"] == "0" and method["runs_bytes_per_s"])))


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

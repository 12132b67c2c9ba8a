"""UnixBench (byte-unixbench `./Run`) reports: each "Benchmark Run" section is one run.

A real input (seed 001, byte-unixbench 5.1.x, a subset of tests, so no index)::

    Benchmark Run: Mon Aug 09 2021 17:19:07 - 17:48:22
    48 CPUs in system; running 1 parallel copy of tests

    Dhrystone 2 using register variables       34839728.4 lps   (10.0 s, 7 samples)
    Double-Precision Whetstone                     4368.3 MWIPS (8.8 s, 7 samples)
    Shell Scripts (1 concurrent)                   3604.5 lpm   (60.0 s, 2 samples)

With the full suite a run also prints its index::

    System Benchmarks Index Values               BASELINE       RESULT    INDEX
    Dhrystone 2 using register variables         116700.0   35279778.3   3023.1
    ========
    System Benchmarks Index Score                                        1150.3

Output metrics::

    copies, cpus, started, finished,
    tests: [{name, value, unit, seconds, samples}],
    index: [{name, baseline, result, index}]   (baseline/index None for "---")
    score (System Benchmarks Index Score; None when not printed), partial (subset index)
    system?: {system, os, machine, cpu}  (from the banner, when pasted)

A default run on an N-CPU machine prints two sections (1 copy, N copies):
they are separate runs because they measure different things.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from ... import lazyre
from ..base import ToolReport

_RUN = lazyre.compile(
    r"^\s*Benchmark Run:\s+(?P<day>.+?\d{4})\s+(?P<start>\d{2}:\d{2}:\d{2})\s+-\s+(?P<end>\d{2}:\d{2}:\d{2})"
)
_COPIES = lazyre.compile(r"^\s*(?P<cpus>\d+) CPUs? in system; running (?P<copies>\d+) parallel cop(?:y|ies) of tests")
_TEST = lazyre.compile(
    r"^(?P<name>\S.*?)\s+(?P<value>\d+(?:\.\d+)?)\s+(?P<unit>lps|lpm|MWIPS|KBps|score|\w+)\s+"
    r"\((?P<seconds>[\d.]+) s, (?P<samples>\d+) samples?\)\s*$"
)
_INDEX_HEADER = lazyre.compile(r"^(?P<category>.+?) (?:Index Values|Partial Index)\s+BASELINE\s+RESULT\s+INDEX\s*$")
_INDEX_ROW = lazyre.compile(
    r"^(?P<name>\S.*?)\s+(?P<baseline>[\d.]+|---)\s+(?P<result>[\d.]+)\s+(?P<index>[\d.]+|---)\s*$"
)
_SCORE = lazyre.compile(r"^System Benchmarks Index Score(?P<partial> \(Partial Only\))?\s+(?P<score>[\d.]+)\s*$")
_BANNER = {
    "system": lazyre.compile(r"^\s*System:\s*(?P<v>.+?)\s*$"),
    "os": lazyre.compile(r"^\s*OS:\s*(?P<v>.+?)\s*$"),
    "machine": lazyre.compile(r"^\s*Machine:\s*(?P<v>.+?)\s*$"),
    "cpu": lazyre.compile(r"^\s*CPU 0:\s*(?P<v>.+?)\s*$"),
}


@dataclass
class UnixbenchReport(ToolReport):
    metrics: dict[str, Any] = field(default_factory=lambda: {"tests": [], "index": [], "score": None})

    def has_results(self) -> bool:
        return bool(self.metrics["tests"]) or self.metrics["score"] is not None


def detect(text: str) -> float:
    if "Benchmark Run: " not in text and "Dhrystone 2 using register variables" not in text:
        return 0.0  # the cheap test first: detect runs on every segment
    if re.search(r"^\s*Benchmark Run: ", text, re.M) and re.search(r"parallel cop(y|ies) of tests", text):
        return 1.0
    if re.search(r"^Dhrystone 2 using register variables\s+[\d.]+ lps", text, re.M):
        return 0.8
    return 0.0


def _number(text: str) -> float | None:
    return None if text == "---" else float(text)


def parse(text: str) -> list[UnixbenchReport]:
    reports: list[UnixbenchReport] = []
    current: UnixbenchReport | None = None
    version: str | None = None
    system: dict[str, str] = {}
    in_index = False
    for index, line in enumerate(text.split("\n")):
        if match := re.search(r"BYTE UNIX Benchmarks \(Version (?P<v>[\d.]+)\)", line):
            version = match["v"]
            continue
        if current is None:
            for key, pattern in _BANNER.items():
                if banner := pattern.match(line):
                    system[key] = banner["v"]
        if match := _RUN.match(line):
            current = UnixbenchReport(line_start=index, line_end=index, tool_version=version)
            current.metrics.update({"started": f"{match['day']} {match['start']}", "finished": match["end"]})
            if system:
                current.metrics["system"] = dict(system)
            reports.append(current)
            in_index = False
            continue
        if current is None:
            continue
        if match := _COPIES.match(line):
            current.metrics["cpus"] = int(match["cpus"])
            current.metrics["copies"] = int(match["copies"])
        elif (match := _TEST.match(line)) and any(t["name"] == match["name"] for t in current.metrics["tests"]):
            # One line per test in a run: a second is another run's, never a silent twin.
            current.problems.append((index, f"UnixBench test {match['name']!r} twice in one run: the first is kept"))
        elif match:
            current.metrics["tests"].append(
                {
                    "name": match["name"],
                    "value": float(match["value"]),
                    "unit": match["unit"],
                    "seconds": float(match["seconds"]),
                    "samples": int(match["samples"]),
                }
            )
        elif _INDEX_HEADER.match(line):
            in_index = True
            if "Partial Index" in line:
                current.metrics["partial"] = True
        elif match := _SCORE.match(line):
            current.metrics["score"] = float(match["score"])
            if match["partial"]:
                current.metrics["partial"] = True
            in_index = False
        elif in_index and (match := _INDEX_ROW.match(line)):
            current.metrics["index"].append(
                {
                    "name": match["name"],
                    "baseline": _number(match["baseline"]),
                    "result": float(match["result"]),
                    "index": _number(match["index"]),
                }
            )
        else:
            continue
        current.line_end = index
    for report in reports:
        if not report.has_results():
            report.problems.append((report.line_start, "UnixBench run without any test result"))
    return reports


def params(report: UnixbenchReport, command: str | None) -> tuple[dict[str, Any], list[str]]:
    result: dict[str, Any] = {}
    if "copies" in report.metrics:
        result["copies"] = report.metrics["copies"]
    result["tests"] = [test["name"] for test in report.metrics["tests"]]
    if command:
        selected = [word for word in command.split()[1:] if not word.startswith("-") and not word.isdigit()]
        if selected:
            result["selected"] = selected
    return result, []


def command_fits(report: UnixbenchReport, command: str) -> bool:
    """`./Run -c N ...` printed this run when N is its copy count; without -c, `./Run` runs one copy,
    then (on more than one CPU) one per CPU, as "48 CPUs in system; running 48 parallel copies" says."""
    counts = [int(value) for value in re.findall(r"(?:^|\s)-c\s*(\d+)", command)]
    copies = report.metrics.get("copies")
    return copies in counts if counts else copies is not None and copies in (1, report.metrics.get("cpus"))

"""GNU dd transfer summaries in any locale, with the shell's `time` output next to them.

A real input (seed 002: old zh_CN wording, fullwidth punctuation, bash `time`)::

    记录了10240+0 的读入
    记录了10240+0 的写出
    10737418240字节（11 GB，10 GiB）已复制，23.0399 s，466 MB/s

    real	0m23.046s
    user	0m0.004s
    sys	0m8.033s

The transfer line is matched on its structure, not its words, because every
locale translates or reorders them: the first integer is the byte count, then
`<seconds> s` (the one word dd never translates), then the rate with an SI
unit. Covered: English (C), both Chinese wordings, German/French decimal commas,
Ukrainian verb-first, pre-8.25 `(SI)` only, `seconds` before 6.1, `%g`
exponents, `Infinity B/s`, BSD `bytes transferred in`, and bash `time`,
`time -p` and GNU `/usr/bin/time` (default and `-v`).

Output metrics::

    bytes, seconds, bytes_per_s (as printed), bytes_per_s_exact (bytes / seconds),
    printed: {bytes_per_s}          (the rate's text as dd printed it: "466 MB/s", "1,1 GB/s")
    records_in: {full, partial}, records_out: {full, partial},
    time: {real_s, user_s, sys_s}   (when `time` was used)
    progress_lines                  (status=progress lines folded into the summary)
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from ... import lazyre, units
from ..base import ToolReport

_NUMBER = r"\d+(?:[.,]\d+)?(?:e[-+]?\d+)?"
_TRANSFER = lazyre.compile(
    r"^\D*?(?P<bytes>\d+)(?!\d|[.,]\d|\+)\D.*?[,，]\s*(?P<secs>" + _NUMBER + r")\s*s(?:econds?)?\s*[,，]\s*"
    r"(?:(?P<rate>" + _NUMBER + r")\s*(?P<unit>[kKMGTPE]?B)|(?P<inf>Infinity)\s*B)/s\s*$"
)
_BSD = lazyre.compile(r"^\s*(?P<bytes>\d+) bytes transferred in (?P<secs>[\d.]+) secs \((?P<rate>\d+) bytes/sec\)\s*$")
_RECORDS = lazyre.compile(r"^\D*?(?P<full>\d+)\+(?P<partial>\d+)\D*$")
_BASH_TIME = lazyre.compile(r"^\s*(?P<key>real|user|sys)\s+(?:(?P<m>\d+)m)?(?P<s>\d+(?:[.,]\d+)?)s\s*$")
_POSIX_TIME = lazyre.compile(r"^\s*(?P<key>real|user|sys) (?P<s>\d+(?:[.,]\d+)?)\s*$")
_GNU_TIME = lazyre.compile(
    r"^\s*(?P<user>[\d.]+)user (?P<sys>[\d.]+)system (?:(?P<h>\d+):)?(?P<m>\d+):(?P<s>[\d.]+)elapsed"
)
_GNU_TIME_V = lazyre.compile(
    r"^\s*(?:(?P<user>User time \(seconds\)): (?P<u>[\d.]+)|(?P<sys>System time \(seconds\)): (?P<y>[\d.]+)"
    r"|Elapsed \(wall clock\) time \([^)]*\): (?:(?P<h>\d+):)?(?P<m>\d+):(?P<s>[\d.]+))\s*$"
)


@dataclass
class DdReport(ToolReport):
    def has_results(self) -> bool:
        return "bytes" in self.metrics


def detect(text: str) -> float:
    # Both summary lines end in their rate: only such lines are matched against the long patterns.
    ends = [line for line in text.split("\n") if line.rstrip().endswith(("/s", "bytes/sec)"))]
    if any(_TRANSFER.match(line) or _BSD.match(line) for line in ends):
        return 0.9 if re.search(r"\d+\+\d+", text) else 0.6
    return 0.0


def _decimal(text: str) -> str:
    return text.replace(",", ".")


def _transfer(report: DdReport, match: re.Match[str]) -> None:
    seconds = float(_decimal(match["secs"]))
    metrics = report.metrics
    metrics["bytes"] = int(match["bytes"])
    metrics["seconds"] = seconds
    if match["inf"]:
        metrics["bytes_per_s"] = None  # dd printed "Infinity B/s": too fast to time
    else:
        metrics["bytes_per_s"] = units.scaled(_decimal(match["rate"]), units.SI_PREFIX[match["unit"][:-1]])
        # The rate as dd wrote it, in its locale ("466 MB/s", "1,1 GB/s"), for "Units: as printed".
        metrics["printed"] = {"bytes_per_s": match.string[match.start("rate") : match.end("unit") + len("/s")]}
    metrics["bytes_per_s_exact"] = round(metrics["bytes"] / seconds, 3) if seconds else None
    printed, exact = metrics["bytes_per_s"], metrics["bytes_per_s_exact"]
    if (
        printed
        and exact
        and abs(printed - exact) / exact > units.last_digit(match["rate"]) + units.last_digit(match["secs"])
    ):
        # dd's rate is bytes / seconds: a rate that does not add up was edited or mistyped.
        report.warnings.append(
            f"the rate {match['rate']} {match['unit']}/s does not match {metrics['bytes']} bytes in {match['secs']} s"
            f" ({exact / units.SI_PREFIX[match['unit'][:-1]]:.4g} {match['unit']}/s); the printed rate is kept"
        )


def _time(report: DdReport, line: str) -> bool:
    times = report.metrics.setdefault("time", {})
    if match := _BASH_TIME.match(line) or _POSIX_TIME.match(line):
        minutes = int(match.groupdict().get("m") or 0)
        times[f"{match['key']}_s"] = round(minutes * 60 + float(_decimal(match["s"])), 6)
        return True
    if match := _GNU_TIME.match(line):
        hours = int(match["h"] or 0)
        times.update(
            {
                "real_s": round(hours * 3600 + int(match["m"]) * 60 + float(match["s"]), 6),
                "user_s": float(match["user"]),
                "sys_s": float(match["sys"]),
            }
        )
        return True
    if match := _GNU_TIME_V.match(line):
        if match["u"]:
            times["user_s"] = float(match["u"])
        elif match["y"]:
            times["sys_s"] = float(match["y"])
        else:
            times["real_s"] = round(int(match["h"] or 0) * 3600 + int(match["m"]) * 60 + float(match["s"]), 6)
        return True
    if not times:
        report.metrics.pop("time")
    return False


def _is_progress(report: DdReport, records: list[tuple[int, dict[str, int]]]) -> bool:
    """A `status=progress` line: a transfer line with no record counts, followed by the counts
    and the final summary of the same copy. It is part of that run, not a run of its own."""
    return "records_in" not in report.metrics and len(records) >= 2 and report.line_end < records[0][0]


def parse(text: str) -> list[DdReport]:
    """One report per transfer summary; record counts above it and `time` lines below it belong to it.

    `status=progress` prints transfer lines while copying; they are folded into the summary
    that follows them (`progress_lines` counts them), never taken for a copy of their own.
    """
    reports: list[DdReport] = []
    records: list[tuple[int, dict[str, int]]] = []
    current: DdReport | None = None
    for index, line in enumerate(text.split("\n")):
        transfer = _TRANSFER.match(line) or _BSD.match(line)
        if transfer:
            start = records[0][0] if records else index
            progress = 0
            if current is not None and reports and reports[-1] is current and _is_progress(current, records):
                reports.pop()
                start = current.line_start
                progress = current.metrics.get("progress_lines", 0) + 1
            current = DdReport(line_start=start, line_end=index)
            if progress:
                current.metrics["progress_lines"] = progress
            if len(records) >= 2:
                current.metrics["records_in"] = records[-2][1]
                current.metrics["records_out"] = records[-1][1]
            if transfer.re is _BSD:
                seconds = float(transfer["secs"])
                current.metrics.update(
                    {
                        "bytes": int(transfer["bytes"]),
                        "seconds": seconds,
                        "bytes_per_s": int(transfer["rate"]),
                        "bytes_per_s_exact": round(int(transfer["bytes"]) / seconds, 3) if seconds else None,
                        "printed": {"bytes_per_s": f"{transfer['rate']} bytes/sec"},  # BSD: "(1048576 bytes/sec)"
                    }
                )
            else:
                _transfer(current, transfer)
            reports.append(current)
            records = []
            continue
        if (match := _RECORDS.match(line)) and not _BASH_TIME.match(line):
            records.append((index, {"full": int(match["full"]), "partial": int(match["partial"])}))
            continue
        if current is not None and _time(current, line):
            current.line_end = index
    return reports


_DD_OPERAND = lazyre.compile(
    r"(?:^|\s)(?P<key>if|of|bs|ibs|obs|count|skip|seek|conv|oflag|iflag|status)=(?P<value>\S+)"
)


def params(report: DdReport, command: str | None) -> tuple[dict[str, Any], list[str]]:
    """Operands of the dd command (bs, count, conv, oflag ...) and whether `time` wrapped it."""
    result: dict[str, Any] = {}
    warnings: list[str] = []
    if not command:
        return result, warnings
    dd_part = next((part for part in re.split(r"\s*(?:;|&&|\|\|)\s*", command) if re.search(r"\bdd\b", part)), command)
    for match in _DD_OPERAND.finditer(dd_part):
        key, value = match["key"], match["value"]
        if key in ("bs", "ibs", "obs"):
            try:
                result[f"{key}_bytes"] = units.parse_dd_size(value)
            except units.UnitError:
                warnings.append(f"cannot read dd operand {key}={value}")
        elif key in ("count", "skip", "seek") and value.isdigit():
            result[key] = int(value)
        else:
            result[key] = value
    if "of" in result and "if" in result:
        result["direction"] = "read" if result["of"] == "/dev/null" else "write"
    return result, warnings

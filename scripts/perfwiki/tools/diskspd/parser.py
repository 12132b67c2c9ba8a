"""DiskSpd's text report (its default, -Rtext), every version's wording from 2.0 to 2.2.

A real input (VirtualClient's DiskSpd example, a 70/30 random 4 KiB run with -L)::

    Results for timespan 1:
    *******************************************************************************

    actual test time:       30.01s
    thread count:           1
    ...
    Total IO
    thread |       bytes     |     I/Os     |    MiB/s   |  I/O per s |  AvgLat  | IopsStdDev | LatStdDev |  file
    ------------------------------------------------------------------------------------------------------------------
         0 |       146169856 |        35686 |       4.64 |    1189.03 |    0.840 |     129.18 |     1.051 | diskspd.dat (1024MiB)
    ------------------------------------------------------------------------------------------------------------------
    total:         146169856 |        35686 |       4.64 |    1189.03 |    0.840 |     129.18 |     1.051

then "Read IO" and "Write IO" tables alike, and with -L the percentiles::

      %-ile |  Read (ms) | Write (ms) | Total (ms)
    ----------------------------------------------
        min |      0.036 |      1.209 |      0.036
       25th |      0.175 |      1.607 |      0.198

Before the results: "Command Line:" and the "Input parameters:" DiskSpd worked from (block size,
random or sequential, write ratio, outstanding I/Os, threads per file, caching). The columns
AvgLat and LatStdDev (-L) and IopsStdDev (-D) are there only when asked for. The bandwidth
column is MiB (2^20 bytes) per second, whether headed "MiB/s" or, before 2.0.18, "MB/s".

Output metrics::

    total, read, write: {bytes, ios, bw_bytes_per_s, iops, lat_mean_ms?, lat_stddev_ms?, iops_stddev?,
                         threads: [{thread, bytes, ios, bw_bytes_per_s, iops, lat_mean_ms?,
                                    lat_stddev_ms?, iops_stddev?, file, file_bytes?}]}
    percentiles: {read|write|total: {"min", "25", "50", "75", "90", "95", "99", "99.9", ...
                                     "99.9999999", "max": ms}} (-L; a column of N/A is left out)
    cpu: {usage_pct, user_pct, kernel_pct, idle_pct, cpus}, test_time_s, thread_count, timespan

A latency of a direction that did no I/O (0.000, N/A) is left out, never kept as 0.
XML output (-Rxml) is refused with a problem: perfwiki reads the text report.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from ... import lazyre, units
from ..base import ToolReport
from . import options

_COMMAND = lazyre.compile(r"^\s*Command Line:\s?(?P<command>.*?)\s*$")
_INPUT = lazyre.compile(r"^\s*Input parameters:\s*$")
_TIMESPAN = lazyre.compile(r"^\s*timespan:\s*(?P<n>\d+)\s*$")
_RESULTS = lazyre.compile(r"^\s*Results for timespan (?P<n>\d+):\s*$")
_SECTION = lazyre.compile(r"^\s*(?P<name>Total|Read|Write) IO\s*$")
_TABLE_HEADER = lazyre.compile(r"^\s*thread\s*\|\s*bytes\s*\|")
_TOTAL_ROW = lazyre.compile(r"^\s*total:\s+\d")
_PERCENTILE_HEADER = lazyre.compile(r"^\s*%-ile\s*\|\s*Read \(ms\)\s*\|\s*Write \(ms\)\s*\|\s*Total \(ms\)\s*$")
_PERCENTILE_ROW = lazyre.compile(r"^\s*(?P<name>min|max|\d+th|\d-nines)\s*\|(?P<values>.*)$")
_CPU_AVERAGE = lazyre.compile(
    r"^\s*avg\.\s*\|\s*(?P<usage>[\d.]+)%\s*\|\s*(?P<user>[\d.]+)%\s*\|\s*(?P<kernel>[\d.]+)%\s*\|\s*(?P<idle>[\d.]+)%"
)
_CPU_HEADER = lazyre.compile(r"\bCPU\s*\|\s*Usage\s*\|")
_CPU_ROW = lazyre.compile(r"^\s*(?:\d+\s*[PE ]?\|\s*)*\d+\s*\|\s*[\d.]+%\s*\|")
_FILE = lazyre.compile(r"^(?P<path>.*?)\s*\((?P<size>[\d.]+)(?P<unit>[KMGT]i?B|B)?\)\s*$")
_XML = lazyre.compile(r"^\s*<Results>\s*$")
_INTERRUPTED = "The test was interrupted before the measurements began"
_ERROR = lazyre.compile(r"^\s*(?:ERROR:|Error |There has been an error)")
_PERCENTILE_KEYS = {"min": "min", "max": "max"} | {f"{n}th": str(n) for n in (25, 50, 75, 90, 95, 99)}
_PERCENTILE_KEYS |= {f"{n}-nines": "99." + "9" * (n - 2) for n in range(3, 10)}
# Size labels of a file in the tables: 2.0.18 on print KiB/MiB/GiB/TiB, older ones KB/MB/GB for the same 2^n.
_FILE_UNIT = {"B": 1, "KB": 2**10, "MB": 2**20, "GB": 2**30, "TB": 2**40}
_FILE_UNIT |= {"KiB": 2**10, "MiB": 2**20, "GiB": 2**30, "TiB": 2**40}
_COLUMNS = {
    "bytes": "bytes",
    "I/Os": "ios",
    "MiB/s": "bw_bytes_per_s",
    "MB/s": "bw_bytes_per_s",
    "I/O per s": "iops",
    "AvgLat": "lat_mean_ms",
    "IopsStdDev": "iops_stddev",
    "LatStdDev": "lat_stddev_ms",
    "file": "file",
}


@dataclass
class DiskspdReport(ToolReport):
    command_line: str | None = None
    profile: dict[str, Any] = field(default_factory=dict)  # the Input parameters of its timespan

    def has_results(self) -> bool:
        return any("iops" in (self.metrics.get(section) or {}) for section in ("total", "read", "write"))


def detect(text: str) -> float:
    # Substring tests before the patterns: detect runs on every segment, and most are no DiskSpd at all.
    if "IO\n" in text and "thread |" in text and re.search(r"^\s*thread\s*\|\s*bytes\s*\|\s*I/Os\s*\|", text, re.M):
        return 1.0
    if "%-ile |  Read (ms)" in text or ("Input parameters:" in text and "timespan:" in text):
        return 0.9
    if "<Results>" in text and "<TimeSpan>" in text:
        return 0.9
    return 0.0


def _number(text: str) -> int | float | None:
    text = text.strip()
    if re.fullmatch(r"\d+", text):
        return int(text)
    if re.fullmatch(r"\d+\.\d+", text):
        return float(text)
    return None


def _size(text: str) -> int | None:
    """Bytes of a size DiskSpd printed in its parameters: '4096', '4KiB', '1.50GiB'."""
    match = re.fullmatch(r"(?P<number>\d+(?:\.\d+)?)\s*(?P<unit>[KMGT]i?B|B)?", text.strip())
    if not match:
        return None
    value = units.scaled(match["number"], _FILE_UNIT[match["unit"] or "B"])
    return int(value) if value == int(value) else None


class _Profile:
    """The Input parameters block: per timespan, its own settings and its targets'."""

    def __init__(self) -> None:
        self.timespans: dict[int, dict[str, Any]] = {}
        self.current: dict[str, Any] | None = None
        self.target: dict[str, Any] | None = None

    def line(self, text: str) -> bool:
        """Read one line of the block; whether it was one."""
        stripped = text.strip()
        if match := _TIMESPAN.match(text):
            self.current = self.timespans.setdefault(int(match["n"]), {"targets": []})
            self.target = None
            return True
        if self.current is None:
            self.current = self.timespans.setdefault(1, {"targets": []})
        span, target = self.current, self.target
        if stripped.startswith("path: "):
            self.target = {"path": stripped[len("path: ") :].strip("'")}
            span["targets"].append(self.target)
            return True
        if match := re.fullmatch(r"(duration|warm up time|cool down time): (\d+)s", stripped):
            span[{"duration": "duration_s", "warm up time": "warmup_s", "cool down time": "cooldown_s"}[match[1]]] = (
                int(match[2])
            )
        elif stripped == "measuring latency":
            span["latency"] = True
        elif match := re.fullmatch(r"gathering IOPS at intervals of (\d+)ms", stripped):
            span["iops_interval_ms"] = int(match[1])
        elif match := re.fullmatch(r"thread pool with (\d+) threads", stripped):
            span["thread_pool"] = int(match[1])
        elif match := re.fullmatch(r"number of outstanding I/O operations(?: per thread)?: (\d+)", stripped):
            (target if target is not None else span)["queue_depth"] = int(match[1])
        elif target is not None:
            return _target_line(target, stripped)
        return True


def _target_line(target: dict[str, Any], stripped: str) -> bool:
    """One line of a target's parameters."""
    # Caching, in every version's words (ResultParser.cpp's _PrintTarget).
    if stripped in (
        "software cache disabled",
        "software and hardware cache disabled",
        "software and hardware write cache disabled",
    ):
        target["software_cache"] = "off"
        if stripped != "software cache disabled":  # 2.0.11-2.0.16's -h: write-through too
            target["writethrough"] = True
    elif stripped in (
        "using software cache",
        "using software and hardware cache",
        "using software and hardware write cache",
    ):
        target["software_cache"] = "on"
    elif stripped == "local software cache disabled, remote cache enabled":
        target["software_cache"] = "remote"
    elif stripped.endswith("writethrough on"):
        target["writethrough"] = True
    elif stripped.endswith("writethrough off"):
        target["writethrough"] = False
    elif stripped == "performing read test":
        target["write_pct"] = 0
    elif stripped == "performing write test":
        target["write_pct"] = 100
    elif match := re.fullmatch(r"performing mix test \(read/write ratio: (\d+)/(\d+)\)", stripped):
        target["write_pct"] = int(match[2])
    elif match := re.fullmatch(r"block size: (\S+)", stripped):
        target["block_bytes"] = _size(match[1])
    elif stripped.startswith("using random I/O"):
        target["access"] = "random"
    elif match := re.match(r"using mixed random/sequential I/O \((\d+)% random\)", stripped):
        target["access"] = "mixed"
        target["random_pct"] = int(match[1])
    elif re.match(r"using (?:interlocked )?sequential I/O", stripped):
        target["access"] = "sequential"
        if "interlocked" in stripped:
            target["interlocked"] = True
    elif match := re.fullmatch(r"threads per file: (\d+)", stripped):
        target["threads_per_file"] = int(match[1])
    elif stripped.startswith("memory mapped I/O enabled"):
        target["memory_mapped"] = True
    elif match := re.fullmatch(r"throughput rate-limited to (\d+) (IOPS|B/ms)", stripped):
        target["rate_limit"] = f"{match[1]} {match[2]}"
    return True


class _Parser:
    def __init__(self, lines: list[str]):
        self.lines = lines
        self.reports: list[DiskspdReport] = []
        self.profile: _Profile | None = None
        self.profile_start: int | None = None
        self.command: str | None = None
        self.report: DiskspdReport | None = None
        self.in_input = False
        self.cpu_rows = 0  # rows of the CPU table read so far

    def run(self) -> list[DiskspdReport]:
        index = 0
        while index < len(self.lines):
            index = self._line(index)
        for report in self.reports:
            self._finish(report)
        return self.reports

    def _new_profile(self, index: int) -> None:
        self.profile, self.profile_start, self.command, self.report = _Profile(), index, None, None

    def _open(self, index: int, timespan: int) -> DiskspdReport:
        start = index
        if self.profile_start is not None and not any(r.line_start >= self.profile_start for r in self.reports):
            start = self.profile_start  # the first run of a profile starts at its command line
        report = DiskspdReport(line_start=start, line_end=index, command_line=self.command)
        report.metrics["timespan"] = timespan
        self.cpu_rows = 0
        if self.profile is not None:
            report.profile = self.profile.timespans.get(timespan, {})
        self.reports.append(report)
        self.report = report
        return report

    def _line(self, index: int) -> int:
        line = self.lines[index]
        if match := _COMMAND.match(line):
            self._new_profile(index)
            self.command = match["command"] or None
            return index + 1
        if _INPUT.match(line):
            if self.profile is None or self.profile.timespans or self.report is not None:
                self._new_profile(index)
            self.in_input = True
            return index + 1
        if match := _RESULTS.match(line):
            self.in_input = False
            self._open(index, int(match["n"]))
            return index + 1
        if _XML.match(line):
            report = DiskspdReport(line_start=index, line_end=index, format="text")
            report.problems.append(
                (index, "DiskSpd XML output (-Rxml) is not read: run it with -Rtext (its default) and paste that")
            )
            self.reports.append(report)
            return len(self.lines)  # the rest is the same document
        if self.in_input:
            if line.strip().startswith(("System information:", "Results for timespan")):
                self.in_input = False
            elif self.profile is not None and (not line.strip() or self.profile.line(line)):
                return index + 1
            else:
                self.in_input = False
        if match := _SECTION.match(line):
            return self._section(index, match["name"].lower())
        if _PERCENTILE_HEADER.match(line):
            return self._percentiles(index)
        if self.report is not None:
            self._result_line(self.report, index, line)
        elif _INTERRUPTED in line or _ERROR.match(line):
            report = self._open(index, 1)
            report.problems.append((index, f"DiskSpd printed no results: {line.strip()}"))
        return index + 1

    def _result_line(self, report: DiskspdReport, index: int, line: str) -> None:
        stripped = line.strip()
        metrics = report.metrics
        if match := re.fullmatch(r"actual test time:\s*([\d.]+)s", stripped):
            metrics["test_time_s"] = _number(match[1])
        elif match := re.fullmatch(r"thread count:\s*(\d+)", stripped):
            metrics["thread_count"] = int(match[1])
        elif match := _CPU_AVERAGE.match(line):
            metrics["cpu"] = {
                "usage_pct": float(match["usage"]),
                "user_pct": float(match["user"]),
                "kernel_pct": float(match["kernel"]),
                "idle_pct": float(match["idle"]),
                "cpus": self.cpu_rows,
            }
        elif _CPU_ROW.match(line):
            self.cpu_rows += 1
        elif _INTERRUPTED in line or (_ERROR.match(line) and not report.has_results()):
            report.problems.append((index, f"DiskSpd printed no results: {stripped}"))
        else:
            return
        report.line_end = index

    # -- the Total IO, Read IO and Write IO tables ------------------------------------------------

    def _section(self, index: int, name: str) -> int:
        report = self.report if self.report is not None else self._open(index, 1)
        header_at = index + 1
        if header_at >= len(self.lines) or not _TABLE_HEADER.match(self.lines[header_at]):
            report.problems.append((index, f"DiskSpd {name.title()} IO without its table header"))
            return index + 1
        columns = [cell.strip() for cell in self.lines[header_at].split("|")]
        unknown = [column for column in columns[1:] if column not in _COLUMNS]
        if unknown:
            report.problems.append((header_at, f"DiskSpd table column {unknown[0]!r} not understood: table not read"))
            return header_at + 1
        keys = [_COLUMNS[column] for column in columns[1:]]
        section: dict[str, Any] = {"threads": []}
        row_at = header_at + 1
        # Thread rows, a line of dashes, the total: row (DiskSpd before 2.0.17 left a blank line before the dashes).
        while row_at < len(self.lines):
            line = self.lines[row_at]
            stripped = line.strip()
            if not stripped or set(stripped) == {"-"}:
                row_at += 1
                continue
            thread, _, rest = line.partition("|")
            if _TOTAL_ROW.match(line):
                values = self._cells(report, row_at, line.split("total:", 1)[1], [key for key in keys if key != "file"])
                if values is None:
                    return row_at + 1
                section.update(values)
                report.line_end = row_at
                row_at += 1
                break
            if not thread.strip().isdigit():
                break
            values = self._cells(report, row_at, rest, keys)
            if values is None:
                return row_at + 1
            section["threads"].append({"thread": int(thread), **values})
            report.line_end = row_at
            row_at += 1
        if "iops" not in section:
            report.problems.append((index, f"DiskSpd {name.title()} IO table without its total: row"))
            return row_at
        report.metrics[name] = section
        return row_at

    def _cells(self, report: DiskspdReport, index: int, text: str, keys: list[str]) -> dict[str, Any] | None:
        """One row's cells after its thread number (or 'total:'), by column."""
        cells = text.split("|", len(keys) - 1)
        if len(cells) != len(keys):
            report.problems.append((index, f"DiskSpd table row with {len(cells)} cells, its header has {len(keys)}"))
            return None
        values: dict[str, Any] = {}
        for key, cell in zip(keys, cells, strict=True):
            cell = cell.strip()
            if key == "file":
                match = _FILE.match(cell)
                values["file"] = match["path"] if match else cell
                if match:
                    values["file_bytes"] = units.scaled(match["size"], _FILE_UNIT[match["unit"] or "B"])
                continue
            if cell == "N/A":
                continue  # no I/O of this kind: no latency, never a 0
            number = _number(cell)
            if number is None:
                report.problems.append((index, f"DiskSpd table cell {cell!r} is not a number"))
                return None
            if key == "bw_bytes_per_s":
                number = units.scaled(cell, 2**20)
            values[key] = number
        if not values.get("ios"):
            values.pop("lat_mean_ms", None)  # 0.000 for a direction that did no I/O
        return values

    # -- latency percentiles (-L) ----------------------------------------------------------------

    def _percentiles(self, index: int) -> int:
        report = self.report if self.report is not None else self._open(index, 1)
        table: dict[str, dict[str, float]] = {"read": {}, "write": {}, "total": {}}
        row_at = index + 1
        while row_at < len(self.lines):
            line = self.lines[row_at]
            if set(line.strip()) == {"-"}:
                row_at += 1
                continue
            match = _PERCENTILE_ROW.match(line)
            if not match:
                break
            cells = [cell.strip() for cell in match["values"].split("|")]
            if len(cells) != 3 or match["name"] not in _PERCENTILE_KEYS:
                report.problems.append((row_at, f"DiskSpd percentile row not understood: {line.strip()!r}"))
                break
            key = _PERCENTILE_KEYS[match["name"]]
            for column, cell in zip(("read", "write", "total"), cells, strict=True):
                number = _number(cell)
                if number is not None:
                    table[column][key] = number
                elif cell != "N/A":
                    report.problems.append((row_at, f"DiskSpd percentile {cell!r} is not a number"))
            report.line_end = row_at
            row_at += 1
        # With several targets DiskSpd prints one table per target first: the last is of them all.
        report.metrics["percentiles"] = {column: values for column, values in table.items() if values}
        return row_at

    def _finish(self, report: DiskspdReport) -> None:
        if not report.has_results() and not report.problems:
            report.problems.append(
                (report.line_start, "DiskSpd output without its Total IO, Read IO and Write IO tables")
            )


def parse(text: str) -> list[DiskspdReport]:
    return _Parser(text.split("\n")).run()


def params(report: DiskspdReport, command: str | None) -> tuple[dict[str, Any], list[str]]:
    """The run's settings: from the Input parameters DiskSpd printed, else its command line (its own
    "Command Line:", else the one typed above the output)."""
    warnings: list[str] = []
    line = report.command_line or command
    words = options.command_words(line) if line else None
    if words is None and report.command_line:
        words = report.command_line.split()[1:]  # a Command Line: names the program that printed it
    asked = options.command_params(words) if words is not None else {}
    result: dict[str, Any] = {
        key: value for key, value in asked.items() if key not in ("software_cache", "writethrough")
    }
    if report.command_line and not command:
        result["command_line"] = report.command_line  # DiskSpd's own record of the command, none typed above it
    profile = report.profile
    targets = profile.get("targets") or []
    for key in ("duration_s", "warmup_s", "cooldown_s", "latency", "iops_interval_ms", "thread_pool", "queue_depth"):
        if key in profile:
            result[key] = profile[key]
    if targets:
        first = targets[0]
        result["targets"] = [target["path"] for target in targets]
        for key in (
            "block_bytes",
            "access",
            "random_pct",
            "write_pct",
            "queue_depth",
            "threads_per_file",
            "memory_mapped",
        ):
            if first.get(key) is not None:
                result[key] = first[key]
        if "software_cache" in first:
            result["caching"] = options.caching(first["software_cache"], bool(first.get("writethrough")))
        if len(targets) > 1 and any(
            (target.get("block_bytes"), target.get("write_pct"), target.get("access"))
            != (first.get("block_bytes"), first.get("write_pct"), first.get("access"))
            for target in targets
        ):
            warnings.append("targets with different block sizes, write ratios or access: the first one's are shown")
    if "targets" in result:
        result["target"] = result["targets"][0]
    if report.metrics.get("thread_count") is not None:
        result["threads"] = report.metrics["thread_count"]
    elif result.get("thread_pool") or result.get("threads_per_file"):
        # Without the results' thread count: a pool's threads, else each target's.
        result["threads"] = result.get("thread_pool") or result["threads_per_file"] * max(
            len(result.get("targets", [])), 1
        )
    if "access" not in result and (asked or targets):
        result["access"] = "sequential"  # DiskSpd's default (-s)
    if "write_pct" not in result and (asked or targets):
        result["write_pct"] = 0  # DiskSpd's default: reads only
    return result, warnings

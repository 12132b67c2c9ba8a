"""fio's text output: the summaries after every job's block, per group and per disk.

Real lines (seed 000, fio-3.1)::

    Run status group 0 (all jobs):
      WRITE: bw=927MiB/s (972MB/s), 927MiB/s-927MiB/s (972MB/s-972MB/s), io=54.5GiB (58.5GB), run=60249-60249msec
    Disk stats (read/write):
      nvme10n1: ios=60/446640, merge=0/0, ticks=3/64519554, in_queue=64532536, util=96.82%

fio 2.0-2.16 printed a group's line as "  WRITE: io=1024.0MB, aggrb=48272KB/s, minb=...,
maxb=..., mint=21722msec, maxt=21722msec". A report with a group summary is complete: the
next version line or job header starts another (text_output.TextParser._open).
"""

from __future__ import annotations

import re
from typing import Any

from ... import lazyre, units

_RUN_STATUS = lazyre.compile(r"^\s*Run status group (?P<g>\d+) \(all jobs\):\s*$")
_GROUP_LINE = lazyre.compile(
    r"^\s*(?P<dir>READ|WRITE|TRIM|MIXED): bw=(?P<bw>\S+) \((?P<bw_alt>[^)]+)\), "
    r"(?P<min>\S+)-(?P<max>\S+) \((?P<min_alt>[^-]+)-(?P<max_alt>[^)]+)\), "
    r"io=(?P<io>\S+) \((?P<io_alt>[^)]+)\), run=(?P<rmin>\d+)-(?P<rmax>\d+)msec\s*$"
)
# fio 2.0-2.16: "  WRITE: io=1024.0MB, aggrb=48272KB/s, minb=..., maxb=..., mint=21722msec, maxt=21722msec"
_GROUP_LINE_2X = lazyre.compile(
    r"^\s*(?P<dir>READ|WRITE|TRIM|MIXED): io=(?P<io>[^,]+?)\s*, aggrb=(?P<bw>[^,]+?)\s*, minb=(?P<min>[^,]+?)\s*, "
    r"maxb=(?P<max>[^,]+?)\s*, mint=(?P<rmin>\d+)msec, maxt=(?P<rmax>\d+)msec\s*$"
)
_DISK_HEADER = lazyre.compile(r"^\s*Disk stats \(read/write\):\s*$")
_DISK_LINE = lazyre.compile(r"^\s*(?P<name>[^\s:]+): (?P<body>ios=.*)$")
_DISK_PERCENT = lazyre.compile(r"(\d+(?:\.\d+)?)%")
_DISK_PAIR = lazyre.compile(r"(\d+)/(\d+)")

# The handlers below, with the first words of the lines each can take (None: any line, as a
# disk's name comes first), and those a line's first word points to first.
HANDLERS: tuple[tuple[str, tuple[str, ...] | None], ...] = (
    ("_run_status", ("Run",)),
    ("_group_line", ("READ", "WRITE", "TRIM", "MIXED")),
    ("_disk_header", ("Disk",)),
    ("_disk_line", None),
)
LIKELY: dict[str, tuple[str, ...]] = {
    "Run": ("_run_status",),
    **dict.fromkeys(("READ", "WRITE", "TRIM", "MIXED"), ("_group_line",)),
    "Disk": ("_disk_header", "_disk_line"),
}


def _disk(match: re.Match[str]) -> dict[str, Any]:
    disk: dict[str, Any] = {"name": match["name"]}
    aggregate: dict[str, Any] = {}
    for pair in match["body"].split(","):
        if "=" not in pair:
            continue
        key, _, value = pair.partition("=")
        key, value = key.strip(), value.strip()
        target = disk
        if key.startswith(("aggr", "agg")):
            target = aggregate
            key = key[4:] if key.startswith("aggr") else key[3:]
        # A value that is not a number (a paste cut or garbled mid-line) is left out, not guessed.
        if key == "util" and (percent := _DISK_PERCENT.fullmatch(value)):
            target["util_pct"] = float(percent[1])
        elif pair_ := _DISK_PAIR.fullmatch(value):
            target[f"read_{key}"] = int(pair_[1])
            target[f"write_{key}"] = int(pair_[2])
        elif value.isdigit():
            target[key] = int(value)
    if aggregate:
        disk["aggr"] = aggregate
    return disk


class StatusLines:
    """Handlers of the group and disk summaries (state: text_output.TextParser)."""

    def _run_status(self, index: int, line: str) -> bool:
        match = _RUN_STATUS.match(line)
        if not match:
            return False
        report = self._open(index, may_start_new=False)
        self.section = "status"
        self.job = self.direction = None
        self.group = {"id": int(match["g"])}
        report.groups.append(self.group)
        return True

    def _group_line(self, index: int, line: str) -> bool:
        if self.group is None:
            return False
        for pattern, rate, size in (  # at most one matches: "READ: bw=" from fio 2.17, "READ: io=" before
            (_GROUP_LINE, units.parse_rate, units.parse_size),
            (_GROUP_LINE_2X, units.parse_fio2_rate, units.parse_fio2_size),
        ):
            match = pattern.match(line)
            if match:
                self.group[match["dir"].lower()] = {
                    "bw_bytes_per_s": rate(match["bw"]),
                    "bw_min_bytes_per_s": rate(match["min"]),
                    "bw_max_bytes_per_s": rate(match["max"]),
                    "io_bytes": size(match["io"]),
                    "run_min_ms": int(match["rmin"]),
                    "run_max_ms": int(match["rmax"]),
                }
                return True
        return False

    def _disk_header(self, index: int, line: str) -> bool:
        if not _DISK_HEADER.match(line):
            return False
        self._open(index, may_start_new=False)
        self.section = "disks"
        return True

    def _disk_line(self, index: int, line: str) -> bool:
        match = _DISK_LINE.match(line) if self.section == "disks" else None
        if not match:
            return False
        self.report.disks.append(_disk(match))
        return True

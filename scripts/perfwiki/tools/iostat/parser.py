"""sysstat iostat: every `-x` layout, the plain tps table, avg-cpu blocks, `-t` timestamps, `-o JSON`.

A real input (seed 002, sysstat before 11.5.7: `Device:` with avgrq-sz and svctm)::

    Linux 3.10.0-327.ali2017.alios7.x86_64 (k28a11352.eu95sqa) 	05/13/2021 	_x86_64_	(64 CPU)

    avg-cpu:  %user   %nice %system %iowait  %steal   %idle
               0.32    0.00    0.17    0.07    0.00   99.44

    Device:         rrqm/s   wrqm/s     r/s     w/s    rkB/s    wkB/s avgrq-sz avgqu-sz   await r_await w_await  svctm  %util
    nvme1n1           0.00    47.19    0.19  445.15     2.03 43110.89   193.62     0.31    0.70    0.03    0.70   0.06   2.85

Output metrics::

    host?, kernel?, cpus?,
    samples: [{timestamp?, since_boot?, cpu?: {user_pct, nice_pct, system_pct, iowait_pct, steal_pct, idle_pct},
               devices: [{name, r_per_s, w_per_s, read_bytes_per_s, write_bytes_per_s, await_ms?,
                          r_await_ms?, w_await_ms?, queue_size?, util_pct?, tps?, ...}]}]

Columns are mapped by name, so the five header generations (< 9.1.2, 9.1.2-11.5.6,
11.5.7-12.1.1, 12.1.2-12.2, >= 12.3.1 with flush columns) need no special case:
sizes become bytes (kB = KiB, MB = MiB, sectors and Blk = 512 B; the old
avgrq-sz is in sectors, the new rareq-sz/wareq-sz in kB).

Why not jc: jc's iostat parser (1.26) reads `-t` timestamp lines as device rows
and decimal commas as thousands separators (`1,20` becomes 120), both common
in pasted output; this module handles both and flags the since-boot first sample.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

from ... import lazyre
from ..base import ToolReport

# header column -> (metric name, factor to canonical units)
_COLUMNS: dict[str, tuple[str, float]] = {
    "r/s": ("r_per_s", 1),
    "w/s": ("w_per_s", 1),
    "d/s": ("d_per_s", 1),
    "f/s": ("f_per_s", 1),
    "tps": ("tps", 1),
    "rkB/s": ("read_bytes_per_s", 1024),
    "wkB/s": ("write_bytes_per_s", 1024),
    "dkB/s": ("discard_bytes_per_s", 1024),
    "rMB/s": ("read_bytes_per_s", 2**20),
    "wMB/s": ("write_bytes_per_s", 2**20),
    "dMB/s": ("discard_bytes_per_s", 2**20),
    "rsec/s": ("read_bytes_per_s", 512),
    "wsec/s": ("write_bytes_per_s", 512),
    "kB_read/s": ("read_bytes_per_s", 1024),
    "kB_wrtn/s": ("write_bytes_per_s", 1024),
    "kB_dscd/s": ("discard_bytes_per_s", 1024),
    "MB_read/s": ("read_bytes_per_s", 2**20),
    "MB_wrtn/s": ("write_bytes_per_s", 2**20),
    "MB_dscd/s": ("discard_bytes_per_s", 2**20),
    "Blk_read/s": ("read_bytes_per_s", 512),
    "Blk_wrtn/s": ("write_bytes_per_s", 512),
    "kB_read": ("read_bytes", 1024),
    "kB_wrtn": ("write_bytes", 1024),
    "kB_dscd": ("discard_bytes", 1024),
    "MB_read": ("read_bytes", 2**20),
    "MB_wrtn": ("write_bytes", 2**20),
    "MB_dscd": ("discard_bytes", 2**20),
    "Blk_read": ("read_bytes", 512),
    "Blk_wrtn": ("write_bytes", 512),
    "rrqm/s": ("rrqm_per_s", 1),
    "wrqm/s": ("wrqm_per_s", 1),
    "drqm/s": ("drqm_per_s", 1),
    "%rrqm": ("rrqm_pct", 1),
    "%wrqm": ("wrqm_pct", 1),
    "%drqm": ("drqm_pct", 1),
    "await": ("await_ms", 1),
    "r_await": ("r_await_ms", 1),
    "w_await": ("w_await_ms", 1),
    "d_await": ("d_await_ms", 1),
    "f_await": ("f_await_ms", 1),
    "svctm": ("svctm_ms", 1),
    "avgrq-sz": ("avg_request_bytes", 512),
    "rareq-sz": ("read_request_bytes", 1024),
    "wareq-sz": ("write_request_bytes", 1024),
    "dareq-sz": ("discard_request_bytes", 1024),
    "avgqu-sz": ("queue_size", 1),
    "aqu-sz": ("queue_size", 1),
    "%util": ("util_pct", 1),
}
_CPU_COLUMNS = {"%user": "user_pct", "%nice": "nice_pct", "%system": "system_pct", "%iowait": "iowait_pct"}
_CPU_COLUMNS |= {"%steal": "steal_pct", "%idle": "idle_pct"}
_BANNER = lazyre.compile(
    r"^(?P<kernel>\w+ \S+) \((?P<host>[^)]*)\)\s+(?P<date>\S+)\s+_(?P<arch>\S+?)_\s+\((?P<cpus>\d+) CPU\)"
)
_TIMESTAMP = lazyre.compile(
    r"^\s*(?:\d{1,4}[/.-]\d{1,2}[/.-]\d{1,4}(?:T|\s+)\d{1,2}:\d{2}:\d{2}(?:\s*[AP]M)?(?:[+-]\d{4})?"
    r"|\d{4}年\d{1,2}月\d{1,2}日\s+\d{1,2}时\d{1,2}分\d{1,2}秒)\s*$"
)
_NUMBER = lazyre.compile(r"^-?\d+(?:[.,]\d+)?$")


@dataclass
class IostatReport(ToolReport):
    metrics: dict[str, Any] = field(default_factory=lambda: {"samples": []})

    def has_results(self) -> bool:
        return bool(self.metrics["samples"])


def detect(text: str) -> float:
    # The substring tests first: detect runs on every segment, and most are no iostat at all.
    if (
        ("Device" in text or "avg-cpu" in text)
        and re.search(r"^\s*Device:?\s+(?:rrqm/s|r/s|tps)\b", text, re.M)
        or re.search(r"^\s*avg-cpu:\s+%user", text, re.M)
    ):
        return 1.0
    if '"sysstat"' in text and '"disk"' in text:
        return 0.9
    return 0.0


def _value(text: str) -> float | None:
    """'0,32' (decimal comma in de_DE, fr, ru) reads as 0.32, never as 32."""
    if not _NUMBER.match(text):
        return None
    return float(text.replace(",", "."))


def _other_column(name: str) -> tuple[str, float]:
    """(metric name, factor) of a column _COLUMNS does not know: its name made an identifier, as printed.

    Called only for such a column: as a default of .get() it was built for every value of every row.
    """
    return re.sub(r"\W+", "_", name).strip("_"), 1


def _scaled(value: float | None, factor: float) -> float | None:
    return None if value is None else round(value * factor, 6)


class _Parser:
    def __init__(self) -> None:
        self.report: IostatReport | None = None
        self.reports: list[IostatReport] = []
        self.sample: dict[str, Any] | None = None
        self.columns: list[str] | None = None
        self.cpu_columns: list[str] | None = None
        self.pending_timestamp: str | None = None

    def _new_sample(self) -> dict[str, Any]:
        samples = self.report.metrics["samples"]
        self.sample = {"devices": []}
        if not samples:
            self.sample["since_boot"] = True  # iostat's first report covers the time since boot
        if self.pending_timestamp:
            self.sample["timestamp"] = self.pending_timestamp
            self.pending_timestamp = None
        samples.append(self.sample)
        return self.sample

    def _ensure_report(self, index: int) -> IostatReport:
        if self.report is None:
            self.report = IostatReport(line_start=index, line_end=index)
            self.reports.append(self.report)
        return self.report

    def feed(self, index: int, line: str) -> None:
        stripped = line.strip()
        if not stripped:
            self.cpu_columns = None if self.cpu_columns and self.sample and "cpu" in self.sample else self.cpu_columns
            return
        if banner := _BANNER.match(stripped):
            self.report = None  # a banner starts a new iostat run
            report = self._ensure_report(index)
            report.metrics.update({"kernel": banner["kernel"], "host": banner["host"], "cpus": int(banner["cpus"])})
            self.sample = None
            return
        if _TIMESTAMP.match(stripped):
            self._ensure_report(index)
            self.pending_timestamp = stripped
            self.sample = None
            return
        words = stripped.split()
        if words[0] == "avg-cpu:":
            self._ensure_report(index)
            if self.sample is None or "cpu" in self.sample or self.sample["devices"] or self.pending_timestamp:
                self._new_sample()
            self.cpu_columns = words[1:]
            self._touch(index)
            return
        if self.cpu_columns and all(_NUMBER.match(word) for word in words) and len(words) == len(self.cpu_columns):
            self.sample["cpu"] = {
                _CPU_COLUMNS.get(name, name.lstrip("%") + "_pct"): _value(word)
                for name, word in zip(self.cpu_columns, words, strict=True)
            }
            self.cpu_columns = None
            self._touch(index)
            return
        if words[0] in ("Device:", "Device"):
            self._ensure_report(index)
            if self.sample is None or self.sample["devices"] or self.pending_timestamp:
                self._new_sample()
            self.columns = words[1:]
            self._touch(index)
            return
        if self.columns and self.sample is not None and len(words) == len(self.columns) + 1:
            values = [_value(word) for word in words[1:]]
            if all(value is not None for value in values) and any(
                known["name"] == words[0] for known in self.sample["devices"]
            ):
                # iostat prints each device once per sample: a second row is another sample's.
                self.report.problems.append((index, f"device {words[0]} twice in one iostat sample: the first is kept"))
            elif all(value is not None for value in values):
                device: dict[str, Any] = {"name": words[0]}
                for name, value in zip(self.columns, values, strict=True):
                    key, factor = _COLUMNS.get(name) or _other_column(name)
                    device[key] = _scaled(value, factor)
                self.sample["devices"].append(device)
                self._touch(index)

    def _touch(self, index: int) -> None:
        self.report.line_end = index


def _parse_json(text: str) -> list[IostatReport]:
    try:
        document = json.loads(text[text.index("{") :])
    except (ValueError, json.JSONDecodeError):
        return []
    reports = []
    for host in (document.get("sysstat") or {}).get("hosts", []):
        report = IostatReport(line_start=0, line_end=text.count("\n"), format="json")
        report.metrics.update(
            {
                "host": host.get("nodename"),
                "kernel": f"{host.get('sysname')} {host.get('release')}",
                "cpus": host.get("number-of-cpus"),
            }
        )
        for position, statistic in enumerate(host.get("statistics", [])):
            sample: dict[str, Any] = {"devices": []}
            if position == 0:
                sample["since_boot"] = True
            if "timestamp" in statistic:
                sample["timestamp"] = statistic["timestamp"]
            if "avg-cpu" in statistic:
                sample["cpu"] = {f"{key}_pct": value for key, value in statistic["avg-cpu"].items()}
            for disk in statistic.get("disk", []):
                device: dict[str, Any] = {"name": disk.get("disk_device")}
                for key, value in disk.items():
                    if key == "disk_device":
                        continue
                    # JSON keys drop the '%' (util, rrqm are percentages)
                    column = {"util": "%util", "rrqm": "%rrqm", "wrqm": "%wrqm", "drqm": "%drqm"}.get(key, key)
                    name, factor = _COLUMNS.get(column) or _other_column(key)
                    device[name] = _scaled(float(value), factor)
                sample["devices"].append(device)
            report.metrics["samples"].append(sample)
        reports.append(report)
    return reports


def parse(text: str) -> list[IostatReport]:
    if '"sysstat"' in text:
        found = _parse_json(text)
        if found:
            return found
    parser = _Parser()
    for index, line in enumerate(text.split("\n")):
        parser.feed(index, line)
    for report in parser.reports:
        if not report.has_results():
            report.problems.append((report.line_start, "iostat output without any sample"))
    return parser.reports


def params(report: IostatReport, command: str | None) -> tuple[dict[str, Any], list[str]]:
    result: dict[str, Any] = {}
    if command:
        words = command.split()
        flags = "".join(word[1:] for word in words if word.startswith("-") and not word.startswith("--"))
        result["extended"] = "x" in flags
        numbers = [word for word in words if word.isdigit()]
        if numbers:
            result["interval_s"] = int(numbers[0])
        if len(numbers) > 1:
            result["count"] = int(numbers[1])
        if "y" in flags:
            for sample in report.metrics["samples"][:1]:
                sample.pop("since_boot", None)  # -y: the since-boot report was not printed
    result["devices"] = sorted({d["name"] for s in report.metrics["samples"] for d in s["devices"]})
    return result, []

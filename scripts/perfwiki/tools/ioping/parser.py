"""ioping latency: request lines and the statistics summary of 0.6, 0.8-0.9 and 1.x; `-J` JSON.

A real input (Debian ioping 1.3, `ioping -c 4 -i 0.1 /tmp/iop`)::

    4 KiB <<< /tmp/iop (ext4 /dev/vda 252.0 GiB): request=2 time=248.1 us
    --- /tmp/iop (ext4 /dev/vda 252.0 GiB) ioping statistics ---
    3 requests completed in 618.7 us, 12 KiB read, 4.85 k iops, 18.9 MiB/s
    generated 4 requests in 300.4 ms, 16 KiB, 13 iops, 53.3 KiB/s
    min/avg/max/mdev = 172.1 us / 206.2 us / 248.1 us / 31.5 us

ioping 0.6 and before printed each request's size in bytes and its time in ms (ioping.c at
koct9i/ioping v0.6: "%lld bytes from %s (%s %s): request=%d time=%.1f ms")::

    4096 bytes from . (ext4 /dev/sda3): request=1 time=0.2 ms

Older summaries (seed 003 is 0.8-0.9 style; 0.6 has one unit for all four)::

    10 requests completed in 9.0 s, 1.3 k iops, 5.1 MiB/s
    min/avg/max/mdev = 285 us / 764 us / 1.9 ms / 554 us
    5 requests completed in 4794.0 ms, 364 iops, 1.4 mb/s
    min/avg/max/mdev = 0.2/2.8/12.7/5.0 ms

Output metrics::

    requests, time_ns, bytes?, iops, bytes_per_s, lat_ns: {min, avg, max, mdev},
    generated?: {requests, time_ns, bytes, iops, bytes_per_s},
    request_bytes?, target?, series: [{request, time_ns, notice?}]

The headline numbers come from the "requests completed" line, which counts time
spent in I/O only; the "generated" line (1.x) is wall clock including the `-i`
pauses and the warm-up request.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from ... import lazyre, units
from ..base import ToolReport

_TIME = r"[\d.]+\s*(?:ns|us|ms|s|min|hour)"
_REQUEST = lazyre.compile(
    r"^\s*(?:(?P<size>[\d.]+\s*[KMGTP]?i?B)|(?P<bytes>\d+) bytes)\s+(?:<<<|>>>|from|to)\s+(?P<target>.+?):\s+"
    r"request=(?P<n>\d+)\s+time=(?P<time>" + _TIME + r")(?:\s+\((?P<notice>[^)]*)\))?\s*$"
)
_HEADER = lazyre.compile(r"^\s*---\s+(?P<target>.+?)\s+ioping statistics\s+---\s*$")
_COMPLETED = lazyre.compile(
    r"^\s*(?P<requests>[\d.]+\s*[kMG]?)\s+requests completed in\s+(?P<time>" + _TIME + r"),\s*"
    r"(?:(?P<bytes>[\d.]+\s*[KMGTP]?i?B)\s+(?:read|written),\s*)?"
    r"(?P<iops>[\d.]+\s*[kMG]?)\s+iops,\s*(?P<rate>[\d.]+\s*(?:[KMGTP]i?B|B|mb)/s)\s*$"
)
_GENERATED = lazyre.compile(
    r"^\s*(?:.*?,\s*)?generated\s+(?P<requests>[\d.]+\s*[kMG]?)\s+requests in\s+(?P<time>" + _TIME + r"),\s*"
    r"(?P<bytes>[\d.]+\s*[KMGTP]?i?B),\s*(?P<iops>[\d.]+\s*[kMG]?)\s+iops,\s*(?P<rate>[\d.]+\s*[KMGTP]?i?B/s)\s*$"
)
_STATS = lazyre.compile(r"^\s*min/avg/max/mdev\s*=\s*(?P<values>.+?)\s*$")


@dataclass
class IopingReport(ToolReport):
    def has_results(self) -> bool:
        return "lat_ns" in self.metrics


def detect(text: str) -> float:
    # Substring tests before the patterns: detect runs on every segment, and most are no ioping at all.
    if "ioping statistics ---" in text or (
        "min/avg/max/mdev = " in text and re.search(r"^\s*min/avg/max/mdev = ", text, re.M)
    ):
        return 1.0 if "ioping" in text or "requests completed" in text else 0.4
    if '"iops"' in text and re.search(r'"stat"\s*:\s*\{', text):
        return 0.8
    return 0.0


def _time_ns(text: str) -> units.Number:
    number, unit = re.match(r"([\d.]+)\s*(\w+)", text.strip()).groups()
    return units.to_ns(number, unit)


def _rate(text: str) -> units.Number:
    # ioping 0.6 printed "mb/s" for what it computed in MiB.
    return units.parse_rate(re.sub(r"\bmb/s$", "MiB/s", text.strip()))


def _stats(values: str) -> dict[str, units.Number]:
    """'285 us / 764 us / 1.9 ms / 554 us' (a unit each) or '0.2/2.8/12.7/5.0 ms' (one unit)."""
    parts = [part.strip() for part in values.split("/")]
    if len(parts) != 4:
        raise units.UnitError(f"not four values: {values!r}")
    shared = re.search(r"[a-z]+$", parts[-1]).group(0)
    numbers = [part if re.search(r"[a-z]$", part) else f"{part} {shared}" for part in parts]
    return {key: _time_ns(value) for key, value in zip(("min", "avg", "max", "mdev"), numbers, strict=True)}


def _parse_json(text: str) -> list[IopingReport]:
    try:
        entries = json.loads(text)
    except json.JSONDecodeError:
        return []
    if not isinstance(entries, list):
        return []
    report = IopingReport(line_start=0, line_end=text.count("\n"), format="json")
    series = []
    for entry in entries:
        io = entry.get("io") if isinstance(entry, dict) else None
        if io:
            point = {"request": io.get("request"), "time_ns": io.get("time")}
            if io.get("notice"):
                point["notice"] = io["notice"]
            series.append(point)
            if io.get("size") is not None:  # what the text output prints on each request line ("4 KiB <<<")
                report.metrics.setdefault("request_bytes", io["size"])
        stat = entry.get("stat") if isinstance(entry, dict) else None
        if stat:
            report.metrics.update(
                {
                    "requests": stat.get("count"),
                    "time_ns": stat.get("time"),
                    "bytes": stat.get("size"),
                    "iops": stat.get("iops"),
                    "bytes_per_s": stat.get("bps"),
                    "lat_ns": {key: stat.get(key) for key in ("min", "avg", "max", "mdev")},
                }
            )
            load = entry.get("load") or {}
            if load:
                report.metrics["generated"] = {
                    "requests": load.get("count"),
                    "time_ns": load.get("time"),
                    "bytes": load.get("size"),
                    "iops": load.get("iops"),
                    "bytes_per_s": load.get("bps"),
                }
            target = entry.get("target") or {}
            if target.get("path"):
                report.metrics["target"] = target["path"]
    report.metrics["series"] = series
    return [report] if report.has_results() else []


def parse(text: str) -> list[IopingReport]:
    if text.lstrip().startswith("["):
        found = _parse_json(text)
        if found:
            return found
    reports: list[IopingReport] = []
    current: IopingReport | None = None
    for index, line in enumerate(text.split("\n")):
        if current is None or (current.has_results() and (_REQUEST.match(line) or _HEADER.match(line))):
            if not (_REQUEST.match(line) or _HEADER.match(line) or _COMPLETED.match(line)):
                continue
            current = IopingReport(line_start=index, line_end=index, metrics={"series": []})
            reports.append(current)
        repeated = _repeated(current, line)
        if repeated:
            current.problems.append((index, f"a second ioping {repeated} line in one run: the first is kept"))
            continue
        try:
            if _read_line(current, line):
                current.line_end = index
        except (units.UnitError, AttributeError) as exc:
            current.problems.append((index, f"ioping line not understood: {exc}"))
    for report in reports:
        if not report.has_results() and not report.problems:
            report.problems.append((report.line_start, "ioping output without its statistics summary"))
    return reports


def _repeated(report: IopingReport, line: str) -> str | None:
    """The summary line this one repeats within the run ("requests completed", "min/avg/max"), if any."""
    if _COMPLETED.match(line) and "requests" in report.metrics:
        return "requests completed"
    if _STATS.match(line) and "lat_ns" in report.metrics:
        return "min/avg/max"
    return None


def _read_line(report: IopingReport, line: str) -> bool:
    metrics = report.metrics
    if match := _REQUEST.match(line):
        metrics.setdefault("request_bytes", int(match["bytes"]) if match["bytes"] else units.parse_size(match["size"]))
        metrics.setdefault("target", match["target"])
        point: dict[str, Any] = {"request": int(match["n"]), "time_ns": _time_ns(match["time"])}
        if match["notice"]:
            point["notice"] = match["notice"]
        metrics["series"].append(point)
    elif match := _HEADER.match(line):
        metrics["target"] = match["target"]
    elif match := _COMPLETED.match(line):
        metrics["requests"] = units.parse_count(match["requests"])
        metrics["time_ns"] = _time_ns(match["time"])
        if match["bytes"]:
            metrics["bytes"] = units.parse_size(match["bytes"])
        metrics["iops"] = units.parse_count(match["iops"])
        metrics["bytes_per_s"] = _rate(match["rate"])
    elif match := _GENERATED.match(line):
        metrics["generated"] = {
            "requests": units.parse_count(match["requests"]),
            "time_ns": _time_ns(match["time"]),
            "bytes": units.parse_size(match["bytes"]),
            "iops": units.parse_count(match["iops"]),
            "bytes_per_s": units.parse_rate(match["rate"]),
        }
    elif match := _STATS.match(line):
        metrics["lat_ns"] = _stats(match["values"])
    else:
        return False
    return True


def params(report: IopingReport, command: str | None) -> tuple[dict[str, Any], list[str]]:
    result: dict[str, Any] = {}
    if "request_bytes" in report.metrics:
        result["request_bytes"] = report.metrics["request_bytes"]
    if "target" in report.metrics:
        result["target"] = report.metrics["target"]
    if command:
        count = re.search(r"(?:^|\s)-c\s*(\d+)", command)
        if count:
            result["count"] = int(count.group(1))
        for flag, name in (
            ("-D", "direct"),
            ("-C", "cached"),
            ("-L", "sequential"),
            ("-W", "write"),
            ("-R", "seek_rate"),
        ):
            if re.search(rf"(?:^|\s){flag}(?:\s|$)", command):
                result[name] = True
    return result, []

"""fio `--output-format=json` and `json+` documents.

A real input (Debian fio 3.33, abridged)::

    {
      "fio version" : "fio-3.33",
      "global options" : {"ioengine" : "psync", "size" : "16M", ...},
      "jobs" : [
        {
          "jobname" : "mixed", "groupid" : 0, "error" : 0,
          "job options" : {"rw" : "randrw", "bs" : "4k", "numjobs" : "2"},
          "read" : {"io_bytes" : 82026496, "bw_bytes" : 81944551, "iops" : 20005.994006, "runtime" : 1001,
                    "slat_ns" : {...}, "clat_ns" : {"min" : 270, "mean" : 38596.129, "stddev" : ...,
                    "percentile" : {"99.000000" : 128000, ...}, "bins" : {...}}, ...},
          "usr_cpu" : 1.7, "sys_cpu" : 31.4, "ctx" : 11477, "majf" : 0, "minf" : 13,
          "iodepth_level" : {"1" : 100.0, ...}, "latency_ns" : {...}, "latency_us" : {...}, ...
        }
      ],
      "disk_util" : [{"name" : "vda", "read_ios" : 17290, ...}]
    }

Output: FioReport with the same `metrics` shape as the text parser (see fio.py),
format "json" or "json+" (when latency objects carry `bins`). JSON has no
"Run status group" summary, so `groups` stays empty.

Version differences handled: `slat`/`clat`/`lat` in microseconds before fio
2.99 (`*_ns` after); `io_bytes` in KiB before 2.21 (then `io_kbytes` exists);
`bw_bytes` only from 3.2 (`bw` in KiB/s before); percentile maps padded with
duplicate "0.00" keys before 3.4; lines printed before the document.
"""

from __future__ import annotations

import json
import re
from typing import Any

from ... import units, wholejson
from ...linenumbers import LineNumbers
from .report import DIRECTIONS, FioReport, fio_message

_LATENCY_KINDS = ("slat", "clat", "lat")
_DEPTH_KEYS = ("1", "2", "4", "8", "16", "32", ">=64")


def find_documents(text: str) -> list[tuple[int, int, dict[str, Any]]]:
    """(first line, last line, document) for every fio JSON document in the text (0-based lines)."""
    decoder = json.JSONDecoder()
    found = []
    if not text.startswith("{") and "\n{" not in text:
        return found  # no line starts with "{": text output, told without scanning it for one
    position = 0
    lines = LineNumbers(text)
    while True:
        match = re.compile(r"^\{", re.M).search(text, position)
        if not match:
            return found
        try:
            document, end = wholejson.raw_decode(decoder, text, match.start())
        except json.JSONDecodeError:
            position = match.end()
            continue
        if isinstance(document, dict) and "fio version" in document:
            found.append((lines.index(match.start()), lines.index(end), document))
        position = end


# Below this a float that is a whole number is that integer exactly, as its decimal text reads.
_EXACT_FLOAT = 2**53


def _number(value: Any, factor: int) -> units.Number | None:
    if factor == 1 and type(value) is int:  # nearly every number of a document: asked first
        return value
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    if factor == 1:  # most of a document (times in ns, counts): the number itself, as units.scaled gives it
        if type(value) is int:
            return value
        if abs(value) < _EXACT_FLOAT:  # not NaN, infinite, or a whole number floats cannot all hold
            if value.is_integer():
                return int(value)
            if "e" not in repr(value):
                return value  # a fraction: its shortest decimal text reads back as this very float
    return units.scaled(repr(float(value)) if isinstance(value, float) else str(value), factor)


def _stats(value: Any, factor: int) -> dict[str, units.Number | None] | None:
    """{min, max, mean, stdev} in ns; a field the document lacks is None, never 0."""
    if not isinstance(value, dict) or not value.get("N", 1) and not value.get("max"):
        return None
    stats = {
        "min": _number(value.get("min"), factor),
        "max": _number(value.get("max"), factor),
        "mean": _number(value.get("mean"), factor),
        "stdev": _number(value.get("stddev"), factor),
    }
    return stats if any(v is not None for v in stats.values()) else None


def _percentiles(value: Any, factor: int) -> dict[str, units.Number]:
    table = {}
    percentiles = value.get("percentile") if isinstance(value, dict) else None
    for key, number in (percentiles if isinstance(percentiles, dict) else {}).items():
        point = _POINTS.get(key) or _point(key)
        if not point:
            continue  # not a percentile, or the "0.00" padding entries of fio before 3.4
        measured = _number(number, factor)
        if measured is not None:
            table[point] = measured
    return table


# fio's percentile keys ("99.000000") as pages name them ("99.00"); "" for one that is none.
_POINTS: dict[str, str] = {}


def _point(key: str) -> str:
    try:
        point = float(key)
    except ValueError:
        point = 0.0
    name = f"{point:.2f}" if point != 0.0 else ""
    if len(_POINTS) < 4096:  # the few dozen keys fio prints, not whatever an edited file holds
        _POINTS[key] = name
    return name


def _bins(bins: dict[str, Any]) -> list[list[int]]:
    """json+ latency bins, [[ns, I/Os], ...] by latency. From fio 2.99 on (the `*_ns` objects) a bin's
    key is its latency in ns; the older index and usec keys are left out rather than guessed at."""
    found = []
    for key, count in bins.items():
        if key.isdigit() and isinstance(count, int) and not isinstance(count, bool):
            found.append([int(key), count])
    return sorted(found)


def _direction(data: dict[str, Any], legacy_bytes: bool) -> dict[str, Any]:
    io_bytes = data.get("io_bytes", 0) * (1024 if legacy_bytes else 1)
    if "bw_bytes" in data:
        bandwidth = data["bw_bytes"]
    else:
        bandwidth = units.scaled(str(data.get("bw", 0)), 1024)
    result: dict[str, Any] = {
        "iops": units.normalize(units.Decimal(repr(float(data.get("iops", 0))))),
        "bw_bytes_per_s": bandwidth,
        "io_bytes": io_bytes,
        "runtime_ms": data.get("runtime"),
    }
    for kind in _LATENCY_KINDS:
        # fio 2.99 moved from usec keys ("clat") to nsec keys ("clat_ns").
        value, factor = (data[f"{kind}_ns"], 1) if f"{kind}_ns" in data else (data.get(kind), 1000)
        stats = _stats(value, factor)
        if stats:
            result[f"{kind}_ns"] = stats
        percentiles = _percentiles(value, factor)
        if percentiles and "percentiles_ns" not in result:
            result["percentiles_ns"] = percentiles
            result["percentiles_of"] = kind
            if f"{kind}_ns" in data and isinstance(value.get("bins"), dict):
                result["bins_ns"] = _bins(value["bins"])
    if "bw_samples" in data or "bw_mean" in data:
        result["bw_samples"] = {
            "min": units.scaled(str(data.get("bw_min", 0)), 1024),
            "max": units.scaled(str(data.get("bw_max", 0)), 1024),
            "mean": units.scaled(repr(float(data.get("bw_mean", 0))), 1024),
            "stdev": units.scaled(repr(float(data.get("bw_dev", 0))), 1024),
            "per_pct": float(data.get("bw_agg", 0)),
        }
        if "bw_samples" in data:
            result["bw_samples"]["samples"] = data["bw_samples"]
    if "iops_samples" in data:
        result["iops_samples"] = {
            "min": data.get("iops_min"),
            "max": data.get("iops_max"),
            "mean": float(data.get("iops_mean", 0)),
            "stdev": float(data.get("iops_stddev", 0)),
            "samples": data["iops_samples"],
        }
    return result


def _buckets(job: dict[str, Any]) -> list[dict[str, Any]]:
    buckets = []
    for key, factor in (("latency_ns", 1), ("latency_us", 1000), ("latency_ms", 1_000_000)):
        for edge, pct in (job.get(key) or {}).items():
            if not pct:
                continue  # the text output prints only non-zero buckets too
            if edge.startswith(">="):
                buckets.append({"ge_ns": int(edge[2:]) * factor, "pct": float(pct)})
            else:
                buckets.append({"le_ns": int(edge) * factor, "pct": float(pct)})
    return buckets


def _job(data: dict[str, Any], legacy_bytes: bool) -> dict[str, Any]:
    job: dict[str, Any] = {
        "name": data.get("jobname"),
        "groupid": data.get("groupid"),
        "jobs": None,  # JSON does not say how many threads a job block aggregates
        "error": data.get("error", 0),
    }
    for name in DIRECTIONS:
        direction = data.get(name)
        if direction and (direction.get("total_ios") or direction.get("io_bytes")):
            job[name] = _direction(direction, legacy_bytes)
    buckets = _buckets(data)
    if buckets:
        job["lat_buckets"] = buckets
    if "usr_cpu" in data:
        job["cpu"] = {
            "usr_pct": float(data["usr_cpu"]),
            "sys_pct": float(data["sys_cpu"]),
            "ctx": data.get("ctx"),
            "majf": data.get("majf"),
            "minf": data.get("minf"),
        }
    if "iodepth_level" in data:
        job["io_depths_pct"] = {
            key: float(data["iodepth_level"][key]) for key in _DEPTH_KEYS if key in data["iodepth_level"]
        }
    return job


def _disk(data: dict[str, Any]) -> dict[str, Any]:
    disk: dict[str, Any] = {"name": data.get("name")}
    renames = {"read_merges": "read_merge", "write_merges": "write_merge", "util": "util_pct"}
    aggregate: dict[str, Any] = {}
    for key, value in data.items():
        if key == "name":
            continue
        if key.startswith("aggr_"):
            short = key[5:].replace("write_merge", "write_merges")  # fio spells one aggr key singular
            aggregate[renames.get(short, short)] = value
        else:
            disk[renames.get(key, key)] = value
    if aggregate:
        disk["aggr"] = aggregate
    return disk


def _is_json_plus(document: dict[str, Any]) -> bool:
    for job in document.get("jobs", []):
        for name in DIRECTIONS:
            for kind in _LATENCY_KINDS:
                if "bins" in ((job.get(name) or {}).get(f"{kind}_ns") or {}):
                    return True
    return False


def _legacy_bytes(version: str) -> bool:
    """fio before 2.21 wrote io_bytes in KiB."""
    numbers = re.match(r"(\d+)\.(\d+)", version)
    return bool(numbers) and (int(numbers[1]), int(numbers[2])) < (2, 21)


def report(document: dict[str, Any], first: int, last: int) -> FioReport:
    version = str(document.get("fio version", "")).removeprefix("fio-") or None
    legacy = _legacy_bytes(version or "")
    result = FioReport(line_start=first, line_end=last, tool_version=version)
    result.format = "json+" if _is_json_plus(document) else "json"
    result.jobs = [_job(job, legacy) for job in document.get("jobs", [])]
    result.disks = [_disk(disk) for disk in document.get("disk_util", [])]
    options: dict[str, list[tuple[str, str | None]]] = {}
    if document.get("global options"):
        options["global"] = [(key, str(value)) for key, value in document["global options"].items()]
    for job in document.get("jobs", []):
        if job.get("job options"):
            options[job["jobname"]] = [(key, str(value)) for key, value in job["job options"].items()]
    result.job_file = options
    if result.jobs:
        result.headers = [{"name": result.jobs[0]["name"]}]
    return result


def parse(text: str) -> list[FioReport]:
    """Every fio JSON document in the text. Status-interval updates collapse to the final one.

    A document whose shape is not fio's (edited, cut, another version) becomes a problem.
    """
    reports: list[FioReport] = []
    starts: list[float | None] = []
    documents = find_documents(text)
    lines: list[str] | None = None  # split when a document has lines above it
    previous_end = -1
    for first, last, document in documents:
        try:
            current = report(document, first, last)
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            broken = FioReport(line_start=first, line_end=last, format="json")
            broken.problems.append((first, f"fio JSON document not understood ({type(exc).__name__}: {exc})"))
            reports.append(broken)
            starts.append(None)
            previous_end = last
            continue
        # fio prints its messages (errors, notes) before the document, even with --output.
        if first > previous_end + 1 and lines is None:
            lines = text.split("\n")
        for line in lines[previous_end + 1 : first] if lines else ():
            message = fio_message(line)
            if message:
                current.warnings.append(message)
        previous_end = last
        start = _started_at(document)
        if reports and _same_jobs(reports[-1], current) and _same_start(starts[-1], start):
            reports[-1] = current  # --status-interval: a later snapshot of the same run
            starts[-1] = start
        else:
            reports.append(current)
            starts.append(start)
    return reports


def _started_at(document: dict[str, Any]) -> float | None:
    """When the run began: the document's timestamp less the first job's elapsed seconds."""
    jobs = document.get("jobs") or []
    if "timestamp" not in document or not jobs or "elapsed" not in jobs[0]:
        return None
    return float(document["timestamp"]) - float(jobs[0]["elapsed"])


def _same_start(earlier: float | None, later: float | None) -> bool:
    return earlier is not None and later is not None and abs(earlier - later) <= 2


def _same_jobs(earlier: FioReport, later: FioReport) -> bool:
    names = [job["name"] for job in earlier.jobs]
    return bool(names) and names == [job["name"] for job in later.jobs] and earlier.job_file == later.job_file

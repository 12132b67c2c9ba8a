"""fio's own logs (`--write_bw_log`, `--write_iops_log`, `--write_lat_log`), as per-second series.

fio writes `PREFIX_bw.N.log`, `PREFIX_iops.N.log` and `PREFIX_{lat,clat,slat}.N.log` (N the job,
1-based; no N with per_job_logs=0) beside where it ran, one line a sample:

    time (ms), value, direction (0 read, 1 write, 2 trim), block size, offset[, priority]

With `--log_avg_msec=W` a line is the average over W ms and its block size is 0; without it a line
is one I/O. A raw file named like that is a log, not a transcript: ingest reads it into a series,
and the fio run whose command wrote it (the same folder, the same PREFIX) carries it in
`metrics.logs`, in canonical units (B/s, IOPS, ns), for the run page's charts.
Samples of one I/O each are summed (bytes, I/Os) or averaged (latency) per second of the run.
"""

from __future__ import annotations

import math
import posixpath
import re
from dataclasses import dataclass, field
from typing import Any

from ...model import Problem, Run

NAME = re.compile(r"(?P<prefix>.+)_(?P<kind>bw|iops|lat|clat|slat)(?:\.(?P<job>\d+))?\.log\Z")
_SAMPLE = re.compile(r"\s*(\d+),\s*(-?\d+),\s*([012]),\s*(\d+)(?:,\s*-?\d+){0,2}\s*\Z")
DIRECTIONS = ("read", "write", "trim")
UNITS = {"bw": "B/s", "iops": "IOPS", "lat": "ns", "clat": "ns", "slat": "ns"}
# The option that writes each log; --write_lat_log writes the three latency logs.
OPTIONS = {
    "bw": "write_bw_log",
    "iops": "write_iops_log",
    "lat": "write_lat_log",
    "clat": "write_lat_log",
    "slat": "write_lat_log",
}
# A last second shorter than this says nothing about a rate: fio stopped within it.
_SHORTEST_MS = 100


@dataclass
class Log:
    """One log file as fio wrote it: its samples by direction, still in fio's units."""

    path: str  # the raw file, as sources name it
    folder: str  # its folder, where its run's transcript is
    prefix: str
    kind: str  # bw, iops, lat, clat or slat
    job: int | None
    averaged: bool  # written with log_avg_msec: each sample is a window's average
    samples: dict[str, list[tuple[int, int, int]]] = field(default_factory=dict)  # direction -> (ms, value, bytes)


def is_log(path: str) -> bool:
    return NAME.match(posixpath.basename(path.replace("\\", "/"))) is not None


def parse(path: str, text: str) -> tuple[Log | None, list[Problem]]:
    """The samples of one log file; a line that is not a sample is a problem naming it."""
    name = posixpath.basename(path.replace("\\", "/"))
    match = NAME.match(name)
    assert match, name
    job = int(match["job"]) if match["job"] else None
    log = Log(path, posixpath.dirname(path.replace("\\", "/")), match["prefix"], match["kind"], job, averaged=True)
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        sample = _SAMPLE.match(line)
        if sample is None:
            return None, [
                Problem(
                    path,
                    number,
                    f"not a fio {match['kind']} log sample (time, value, direction, size, offset): {line[:80]!r}",
                )
            ]
        ms, value, direction, size = (int(group) for group in sample.groups())
        log.samples.setdefault(DIRECTIONS[direction], []).append((ms, value, size))
        log.averaged = log.averaged and size == 0
    return log, []


def series(log: Log, version: str | None) -> list[dict[str, Any]]:
    """The log's series in canonical units, one per direction: {kind, job, direction, unit, window_ms, t_s, values}.

    `version` is the run's fio version: before 3.0, latency logs were in microseconds.
    """
    major = (version or "").split(".")[0]
    scale = 1000 if log.kind in ("lat", "clat", "slat") and major.isdigit() and int(major) < 3 else 1
    found = []
    for direction, samples in log.samples.items():
        if log.averaged:
            times = [ms / 1000 for ms, _, _ in samples]
            factor = 1024 if log.kind == "bw" else scale  # bw logs are KiB/s
            values = [value * factor for _, value, _ in samples]
            window = samples[1][0] - samples[0][0] if len(samples) > 1 else None
        else:
            times, values = _per_second(log.kind, samples, scale)
            window = 1000
        found.append(
            {
                "kind": log.kind,
                "file": log.path,
                "job": log.job,
                "direction": direction,
                "unit": UNITS[log.kind],
                "window_ms": window,
                "t_s": times,
                "values": values,
            }
        )
    return found


def _per_second(kind: str, samples: list[tuple[int, int, int]], scale: int) -> tuple[list[float], list[float]]:
    """Samples of one I/O each, as one point a second: bytes or I/Os per second, or the mean latency."""
    seconds: dict[int, list[tuple[int, int, int]]] = {}
    for sample in samples:
        seconds.setdefault(sample[0] // 1000, []).append(sample)
    last = max(seconds)
    times, values = [], []
    for second in sorted(seconds):
        within = seconds[second]
        span_ms = 1000
        if second == last:  # fio stopped within it: a rate over the part it ran
            span_ms = max(ms for ms, _, _ in within) - second * 1000
            if span_ms < _SHORTEST_MS and kind in ("bw", "iops"):
                continue
        times.append(float(second + 1))
        if kind == "bw":
            values.append(sum(size for _, _, size in within) * 1000 / span_ms)
        elif kind == "iops":
            values.append(len(within) * 1000 / span_ms)
        else:
            values.append(math.fsum(value for _, value, _ in within) * scale / len(within))
    return times, values


def _without_final_window(averaged: list[dict[str, Any]]) -> None:
    """Averaged series cut to the windows all of them have. At exit fio writes the latency logs' last,
    partial window (the queue draining) but not the bandwidth and IOPS logs': kept, it drew a spike
    at the end that no other chart of the run shows."""
    written = [entry for entry in averaged if entry["t_s"]]
    if len({entry["kind"] for entry in written}) < 2:
        return  # one kind of log alone: nothing says its last window is partial
    last = min(entry["t_s"][-1] for entry in written)
    for entry in averaged:
        kept = [index for index, moment in enumerate(entry["t_s"]) if moment <= last]
        entry["t_s"] = [entry["t_s"][index] for index in kept]
        entry["values"] = [entry["values"][index] for index in kept]


def _prefixes(run: Run, kind: str) -> list[str]:
    """The log prefix a run's command gave for this kind of log: the option's value, else the job name."""
    value = run.params.get(OPTIONS[kind])
    if value is None or value is False:
        return []
    if value is True or value == "":
        return [str(run.params["name"])] if run.params.get("name") else []
    return [posixpath.basename(str(value).replace("\\", "/"))]


def attach(runs: list[Run], logs: list[Log]) -> list[Log]:
    """Each fio run's logs into its metrics.logs; returns the logs no run wrote.

    A run's logs carry the prefix its command gave, beside its transcript or in a folder named
    after it (`perfwiki bench` keeps each transcript's logs in `<transcript name>/`).
    """
    used: set[int] = set()
    for run in runs:
        if run.tool != "fio":
            continue
        transcript = run.source.path.replace("\\", "/")
        folders = {posixpath.dirname(transcript), posixpath.splitext(transcript)[0]}
        found, averaged = [], []
        for index, log in enumerate(logs):
            if log.folder in folders and log.prefix in _prefixes(run, log.kind):
                made = series(log, run.tool_version)
                found.extend(made)
                if log.averaged:
                    averaged.extend(made)
                used.add(index)
        if found:
            _without_final_window(averaged)
            order = {kind: position for position, kind in enumerate(UNITS)}
            found.sort(
                key=lambda entry: (order[entry["kind"]], entry["job"] or 0, DIRECTIONS.index(entry["direction"]))
            )
            run.metrics = {**run.metrics, "logs": found}  # assigned: a packed run keeps it (Run.pack)
    return [log for index, log in enumerate(logs) if index not in used]

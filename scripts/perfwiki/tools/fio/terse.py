"""fio terse output (`--minimal`, `--output-format=terse`), versions 3, 4 and 5.

A real input (Debian fio 3.33, terse v3, one job; cut after the read block)::

    3;fio-3.33;mixed;0;0;80104;80023;20005;1001;0;0;0.000000;0.000000;0;920;38.596129;40.753553;
    1.000000%=0;5.000000%=1;...;99.000000%=128;...;99.990000%=634;0%=0;0%=0;0%=0;
    0;920;38.630951;40.757721;76960;76960;48.197600%;76960.000000;0.000000;...

One `;`-separated line per job: version, fio version, job name, group, error;
then per direction (read, write; v4+ also trim) io KiB, bw KiB/s, iops,
runtime ms, slat/clat min max mean stdev in usec, 20 `p%=usec` percentile
fields, lat min max mean stdev, bw min max agg% mean stdev (v5 adds bw samples
and iops min max mean stdev samples); then cpu usr% sys% ctx majf minf, IO
depths x7, latency buckets usec x10 and msec x12, and disks of 9 fields each.

Output: FioReport with the text parser's `metrics` shape, format "terse".
Terse carries usec, so nanosecond values are multiples of 1000 and means keep
fio's six decimals.
"""

from __future__ import annotations

from typing import Any

from ... import lazyre, units
from .report import FioReport

TERSE_LINE = lazyre.compile(r"^(?P<v>[345]);fio-[^;]*;")
_DEPTHS = ("1", "2", "4", "8", "16", "32", ">=64")
_US_EDGES = (2, 4, 10, 20, 50, 100, 250, 500, 750, 1000)
_MS_EDGES = (2, 4, 10, 20, 50, 100, 250, 500, 750, 1000, 2000)
_DISK_KEYS = ("read_ios", "write_ios", "read_merge", "write_merge", "read_ticks", "write_ticks", "in_queue")


class _Fields:
    """Reads a terse line's fields in order."""

    def __init__(self, fields: list[str]):
        self.fields = fields
        self.index = 0

    def take(self, count: int = 1) -> list[str]:
        taken = self.fields[self.index : self.index + count]
        if len(taken) < count:
            raise ValueError(f"terse line ends after {len(self.fields)} fields")
        self.index += count
        return taken

    def one(self) -> str:
        return self.take()[0]

    def rest(self) -> list[str]:
        return self.fields[self.index :]


def _usec_stats(values: list[str]) -> dict[str, units.Number]:
    return {key: units.to_ns(value, "usec") for key, value in zip(("min", "max", "mean", "stdev"), values, strict=True)}


def _direction(fields: _Fields, version: int) -> dict[str, Any] | None:
    io_kib, bw_kib, iops, runtime = fields.take(4)
    slat = _usec_stats(fields.take(4))
    clat = _usec_stats(fields.take(4))
    percentiles = {}
    for entry in fields.take(20):
        point, _, value = entry.partition("%=")
        if float(point) > 0:
            percentiles[f"{float(point):.2f}"] = units.to_ns(value, "usec")
    lat = _usec_stats(fields.take(4))
    bw_min, bw_max, bw_agg, bw_mean, bw_dev = fields.take(5)
    result: dict[str, Any] = {
        "iops": units.parse_count(iops),
        "bw_bytes_per_s": units.scaled(bw_kib, 1024),
        "io_bytes": units.scaled(io_kib, 1024),
        "runtime_ms": int(runtime),
        "slat_ns": slat,
        "clat_ns": clat,
        "lat_ns": lat,
        "percentiles_ns": percentiles,
        "percentiles_of": "clat",
        "bw_samples": {
            "min": units.scaled(bw_min, 1024),
            "max": units.scaled(bw_max, 1024),
            "mean": units.scaled(bw_mean, 1024),
            "stdev": units.scaled(bw_dev, 1024),
            "per_pct": float(bw_agg.rstrip("%")),
        },
    }
    if version >= 5:
        result["bw_samples"]["samples"] = int(fields.one())
        iops_min, iops_max, iops_mean, iops_dev, iops_samples = fields.take(5)
        result["iops_samples"] = {
            "min": int(iops_min),
            "max": int(iops_max),
            "mean": float(iops_mean),
            "stdev": float(iops_dev),
            "samples": int(iops_samples),
        }
    if int(runtime) == 0 and int(io_kib) == 0:
        return None  # a direction that did no I/O: text output leaves it out too
    return result


def _buckets(values: list[str], edges: tuple[int, ...], factor: int, last_open: bool) -> list[dict[str, Any]]:
    buckets = []
    for position, value in enumerate(values):
        pct = float(value.rstrip("%"))
        if not pct:
            continue
        if last_open and position == len(edges):
            buckets.append({"ge_ns": edges[-1] * factor, "pct": pct})
        else:
            buckets.append({"le_ns": edges[position] * factor, "pct": pct})
    return buckets


def parse_line(line: str) -> tuple[dict[str, Any], list[dict[str, Any]], str]:
    """(job, disks, fio version) of one terse line."""
    fields = _Fields(line.strip().split(";"))
    version = int(fields.one())
    fio_version = fields.one().removeprefix("fio-")
    job: dict[str, Any] = {"name": fields.one(), "groupid": int(fields.one()), "jobs": None, "error": int(fields.one())}
    for name in ("read", "write", "trim") if version >= 4 else ("read", "write"):
        direction = _direction(fields, version)
        if direction:
            job[name] = direction
    usr, sys, ctx, majf, minf = fields.take(5)
    job["cpu"] = {
        "usr_pct": float(usr.rstrip("%")),
        "sys_pct": float(sys.rstrip("%")),
        "ctx": int(ctx),
        "majf": int(majf),
        "minf": int(minf),
    }
    job["io_depths_pct"] = {key: float(value.rstrip("%")) for key, value in zip(_DEPTHS, fields.take(7), strict=True)}
    buckets = _buckets(fields.take(10), _US_EDGES, 1000, False) + _buckets(fields.take(12), _MS_EDGES, 1_000_000, True)
    if buckets:
        job["lat_buckets"] = buckets
    disks = []
    rest = fields.rest()
    while len(rest) >= 9 and not rest[0].isdigit():
        name, *numbers, util = rest[:9]
        disk: dict[str, Any] = {"name": name}
        disk.update({key: int(value) for key, value in zip(_DISK_KEYS, numbers, strict=True)})
        disk["util_pct"] = float(util.rstrip("%"))
        disks.append(disk)
        rest = rest[9:]
    return job, disks, fio_version


def parse(text: str) -> list[FioReport]:
    """One report per run of consecutive terse lines (a job each); broken lines become problems."""
    reports: list[FioReport] = []
    if ";fio-" not in text:
        return reports  # no terse line: the common case, decided without looking at each line
    current: FioReport | None = None
    for index, line in enumerate(text.split("\n")):
        if not TERSE_LINE.match(line.strip()):
            current = None
            continue
        if current is None:
            current = FioReport(line_start=index, line_end=index)
            current.format = "terse"
            reports.append(current)
        try:
            job, disks, fio_version = parse_line(line)
        except ValueError as exc:
            current.problems.append((index, f"fio terse line not understood: {exc}"))
            continue
        current.tool_version = fio_version
        current.jobs.append(job)
        current.job_lines.append(index)
        current.disks = disks or current.disks
        current.line_end = index
        if not current.headers:
            current.headers = [{"name": job["name"]}]
    return reports

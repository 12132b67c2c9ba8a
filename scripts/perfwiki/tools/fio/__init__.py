"""fio: the flexible I/O tester, in every output format it has had (text 2.0-3.x, JSON, json+, terse).

Parsing lives in parser.py (the dispatch to text_output.py, json_output.py and terse.py),
parameters in options.py, checks in checks.py, run page tables and charts in pages.py;
this module declares the tool: how it is recognised, what it measures, what makes
two runs comparable.
"""

from __future__ import annotations

from typing import Any

from ...findings import Evidence, Finding
from ...model import Run
from ..base import Metric, Tool
from . import checks, names, pages, parser
from .options import MIXED, depth_text, effective_depth, in_effect, io_mode, per_job, ran_on


def _jobs(run: Run, direction: str | None) -> list[dict[str, Any]]:
    return [job[direction] for job in run.metrics.get("jobs") or [] if direction and direction in job]


def _sum(key: str):
    def read(run: Run, direction: str | None) -> float | None:
        values = [job.get(key) for job in _jobs(run, direction)]
        return sum(values) if values and None not in values else None

    return read


def _clat_mean(run: Run, direction: str | None) -> float | None:
    """Mean completion latency over all jobs, weighted by each job's IOPS."""
    parts = [(job.get("iops") or 0, (job.get("clat_ns") or {}).get("mean")) for job in _jobs(run, direction)]
    parts = [(weight, mean) for weight, mean in parts if mean is not None]
    total = sum(weight for weight, _ in parts)
    if not parts or not total:
        return parts[0][1] if len(parts) == 1 else None
    return sum(weight * mean for weight, mean in parts) / total


def _p99(run: Run, direction: str | None) -> float | None:
    """The worst job's p99: fio prints no percentile of the union of jobs."""
    values = [(job.get("percentiles_ns") or {}).get("99.00") for job in _jobs(run, direction)]
    values = [value for value in values if value is not None]
    return max(values) if values else None


def target_kind(run: Run) -> str | None:
    """'raw device' for /dev/... (or \\\\.\\ on Windows), 'file' for a file or directory, None when unknown.

    A job file written for Windows (filename=\\\\.\\PhysicalDrive1) run by fio on Linux makes an
    ordinary file of that name in the working folder: a file, however the name reads."""
    filename = str(run.params.get("filename") or run.params.get("directory") or "")
    if not filename:
        return None
    if filename.startswith("\\\\.\\"):
        return "file" if ran_on(run.params, run.metrics) == "linux" else "raw device"
    return "raw device" if filename.startswith("/dev/") else "file"


# The metrics whose value is one token of a direction's line, and the name its `printed` map gives it.
_PRINTED = {"iops": "iops", "bw": "bw_bytes_per_s"}


# fio's mixed modes, and the share of reads it uses when rwmixread is not given.
MIXED_MODES = ("randrw", "rw", "readwrite")
DEFAULT_READ_MIX = 50


def read_mix(params: dict[str, Any]) -> int | None:
    """The read percentage of a mixed workload (fio's default 50), None for a pure read or write."""
    if params.get("rw") not in MIXED_MODES:
        return None
    mix = params.get("rwmixread")
    return DEFAULT_READ_MIX if mix is None else mix


class Fio(Tool):
    name = "fio"
    measures = "storage"
    parser = parser
    formats = ("text", "json", "json+", "terse")
    metrics = (
        Metric("iops", "IOPS", "IOPS", True, _sum("iops")),
        Metric("bw", "Bandwidth", "B/s", True, _sum("bw_bytes_per_s")),
        Metric("clat_mean", "Mean completion latency", "ns", False, _clat_mean),
        Metric("clat_p99", "p99 completion latency", "ns", False, _p99),
    )
    checks = checks.CHECKS
    paired_metrics = (("iops", "bw"),)
    lone_part_in_title = False
    scenario_group = "rw"
    fingerprint_names = {
        "direction": "direction",
        "rw": "rw",
        "bs_bytes": "block size",
        "iodepth": "queue depth",
        "numjobs": "jobs",
        "io": "I/O mode",
        "ioengine": "engine",
        "target": "target",
        "rwmixread": "read %",
    }

    def printed_text(self, run: Run, part: str | None, metric: Metric) -> str | None:
        """fio's token for a job's IOPS or bandwidth ("IOPS=13k", "BW=1056MiB/s"); none for a sum of
        several jobs' (numjobs without group_reporting), which fio never printed."""
        key = _PRINTED.get(metric.key)
        jobs = _jobs(run, part)
        if key is None or len(jobs) != 1:
            return None
        return (jobs[0].get("printed") or {}).get(key)

    def error_lines(self, run: Run, evidence: Evidence) -> list[Finding]:
        """fio's error lines come with err≠0 on the job, which its own checks report (fio-error)."""
        return []

    def run_name(self, run: Run) -> str:
        """The job name on the command, else in the output."""
        if run.params.get("name"):
            return str(run.params["name"])
        jobs = run.metrics.get("jobs") or []
        if jobs and jobs[0].get("name"):
            return str(jobs[0]["name"])
        return super().run_name(run)

    def name_contradictions(self, run: Run, name: str) -> list[str]:
        """What a job name says about the job that its rw, bs, iodepth or I/O mode deny (names.py)."""
        return names.contradictions(run, name, io_mode(run.params))

    def name_from_params(self, run: Run) -> str:
        """'4k-seq-read': the block size and rw= mode, for a job whose name contradicts them."""
        return names.name_from_params(self, run)

    def parts(self, run: Run) -> list[str | None]:
        """The directions that did I/O: a randrw run is a read result and a write result."""
        found: list[str | None] = []
        for _, direction, _ in pages.directions(run):
            if direction not in found:
                found.append(direction)
        return found

    def _in_effect(self, run: Run) -> dict[str, Any]:
        """The run's options with fio's defaults filled in where its options are all known
        (options.in_effect): the same command gives one scenario whether fio printed text, JSON,
        json+ or terse."""
        complete = run.format != "manual" and (
            run.format in ("json", "json+")
            or bool(run.command and not run.params.get("job_files"))
            or bool(run.params.get("job_file_sections"))
        )
        # fio's text header prints rw, bs, ioengine and iodepth itself (parser.HEADER_KEYS).
        printed = parser.HEADER_KEYS if run.format == "text" else ()
        return in_effect(run.params, complete=complete, version=run.tool_version, printed=printed)

    def fingerprint(self, run: Run, part: str | None) -> dict[str, Any]:
        params = self._in_effect(run)
        return {
            "tool": self.name,
            "direction": part,
            "rw": params.get("rw"),
            "bs_bytes": params.get("bs_bytes"),
            # What the device saw: psync with iodepth=64 is the same workload as psync at iodepth=1.
            "iodepth": effective_depth(params, ran_on(params, run.metrics)),
            "numjobs": params.get("numjobs"),
            "io": io_mode(params),
            "ioengine": params.get("ioengine"),
            "target": target_kind(run),
            # A mixed workload's read share changes what it measures: 70/30 is not 50/50.
            "rwmixread": read_mix(params),
        }

    # The run finder offers the depth configured (iodepth=64) beside the effective one its fingerprint
    # keeps (qd): psync at iodepth=64 is found at qd=1 and at iodepth=64.
    finder_extra_names = ("iodepth",)

    def finder_extras(self, run: Run) -> dict[str, Any]:
        return {"iodepth": self._in_effect(run).get("iodepth")}

    def result_tables(self, run: Run) -> list[dict[str, Any]]:
        return pages.result_tables(run)

    def run_charts(self, run: Run) -> list[dict[str, Any]]:
        return pages.run_charts(run)

    def destroys(self, run: Run) -> str | None:
        """The raw device a job that writes names (rw=write, randrw, trim...): fio overwrites it."""
        rws = {str(job.get("rw") or "read") for job in per_job(run.params)}
        if target_kind(run) != "raw device" or rws <= {"read", "randread"}:
            return None
        return str(run.params.get("filename") or "")

    def badges(self, run: Run) -> list[str]:
        params = run.params
        badges = [str(value) for value in (io_mode(params), target_kind(run), params.get("ioengine")) if value]
        if params.get("iodepth") is not None:
            jobs = params.get("numjobs") or 1
            depth = depth_text(params, ran_on(params, run.metrics))
            badges.append(f"{depth}, numjobs mixed" if jobs == MIXED else f"{depth} x {jobs}")
        return badges

    runs_columns = ("rw", "bs", "iodepth", "IOPS", "Bandwidth", "Mean clat", "clat p99")

    def runs_rows(self, run: Run) -> list[tuple[str | None, list[Any]]]:
        """One row per direction that did I/O: a randrw run has a read row and a write row."""
        found = list(pages.directions(run))
        rows = []
        for _, direction, metrics in found:
            cells = pages.summary_cells(run, metrics)
            if len(found) > 1:  # a randrw run's two rows: say which is which
                cells[0] = f"{cells[0]} ({direction})"
            rows.append((direction, cells))
        return rows

    def overlay_series(self, run: Run, fingerprint: dict[str, Any]) -> dict[str, Any]:
        job = run.metrics["jobs"][0]
        return {
            "percentiles": (job.get(fingerprint.get("direction")) or {}).get("percentiles_ns") or {},
            "buckets": job.get("lat_buckets") or [],
        }

    def scenario_charts(self, names: list[str], series: list[dict[str, Any]]) -> list[dict[str, Any]]:
        ladder = pages.percentile_ladder(
            [(name, one["percentiles"]) for name, one in zip(names, series, strict=True)], "chart-percentiles"
        )
        buckets = pages.bucket_histogram(
            [(name, one["buckets"]) for name, one in zip(names, series, strict=True)], "chart-buckets"
        )
        return [chart for chart in (ladder, buckets) if chart]


TOOL = Fio()

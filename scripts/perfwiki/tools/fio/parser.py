"""fio's output in any of its formats, and the params of each run: the interface tools/ asks for.

`parse` sends JSON to json_output.py, terse lines to terse.py and the normal text output
(fio 2.0 to 3.x) to text_output.py, whose line readers are text_headers.py, text_results.py,
text_latency.py, text_job.py and text_status.py. `params` and `command_fits` are job_params.py's:
each job section's own options, and the run's where they agree.

A real input (seed 000, fio-3.1, abridged)::

    sequential_write_bandwidth_test: (g=0): rw=write, bs=(R) 1024KiB-1024KiB, (W) 1024KiB-1024KiB, (T) 1024KiB-1024KiB, ioengine=libaio, iodepth=4096
    fio-3.1
    Starting 1 process
    sequential_write_bandwidth_test: (groupid=0, jobs=1): err= 0: pid=10944: Thu Jul 12 16:09:58 2018
      write: IOPS=872, BW=927MiB/s (972MB/s)(54.5GiB/60249msec)
        slat (usec): min=124, max=11720, avg=1139.54, stdev=1007.79
        clat (msec): min=247, max=7027, avg=4476.22, stdev=1759.98
         lat (msec): min=250, max=7028, avg=4477.33, stdev=1760.32
        clat percentiles (msec):
         |  1.00th=[ 1183],  5.00th=[ 2668], 10.00th=[ 2702], 20.00th=[ 2769],
         | 99.99th=[ 7013]
       bw (  KiB/s): min=419096, max=1709402, per=94.23%, avg=894157.55, stdev=391496.27, samples=119
       iops        : min=  409, max= 1669, avg=872.80, stdev=382.28, samples=119
      lat (msec)   : 250=0.01%, 500=0.29%, 750=0.28%, 1000=0.29%, 2000=1.17%
      lat (msec)   : >=2000=104.16%
      cpu          : usr=5.27%, sys=11.27%, ctx=39050, majf=0, minf=20
      IO depths    : 1=0.1%, 2=0.1%, 4=0.1%, 8=0.1%, 16=0.1%, 32=0.1%, >=64=106.1%
         issued rwt: total=0,52572,0, short=0,0,0, dropped=0,0,0
    Run status group 0 (all jobs):
      WRITE: bw=927MiB/s (972MB/s), 927MiB/s-927MiB/s (972MB/s-972MB/s), io=54.5GiB (58.5GB), run=60249-60249msec
    Disk stats (read/write):
      nvme10n1: ios=60/446640, merge=0/0, ticks=3/64519554, in_queue=64532536, util=96.82%

Output of `parse(text)`: a list of `FioReport`, one per fio invocation found,
each with `metrics` in the v1 schema::

    jobs: [{name, groupid, jobs, error, error_text, pid,
            read|write|trim|mixed: {iops, bw_bytes_per_s, io_bytes, runtime_ms,
                                    printed: {iops, bw_bytes_per_s, io_bytes},
                                    slat_ns, clat_ns, lat_ns: {min, max, mean, stdev},
                                    percentiles_ns: {"99.00": ns, ...}, percentiles_of,
                                    bw_samples: {min, max, mean, stdev, per_pct, samples},
                                    iops_samples: {min, max, mean, stdev, samples}},
            lat_buckets: [{le_ns, pct} | {ge_ns, pct}],
            cpu: {usr_pct, sys_pct, ctx, majf, minf},
            io_depths_pct: {"1": pct, ..., ">=64": pct},
            issued: {total: [r, w, t(, s)], short: [...], dropped: [...]}}]
    groups: [{id, read|write|trim|mixed: {bw_bytes_per_s, bw_min_bytes_per_s,
              bw_max_bytes_per_s, io_bytes, run_min_ms, run_max_ms}}]
    disks: [{name, read_ios, write_ios, read_merge, write_merge, read_ticks,
             write_ticks, in_queue, util_pct, aggr: {...}?}]

Units follow what each line says: the latency unit is read per line, the
percentile unit from its own header (it can differ from the clat line above),
sizes by their IEC or SI prefix. Values are what fio printed: "IOPS=188k" is
188000, not the more precise average on the `iops :` line.

`printed` keeps, beside the values read from a direction's line, the tokens they were read from,
character for character, keyed by the value's name: "read: IOPS=13k, BW=1056MiB/s (1107MB/s)
(61.9GiB/60001msec)" gives {iops: "13k", bw_bytes_per_s: "1056MiB/s", io_bytes: "61.9GiB"}; fio
2.x's "io=1024.0MB, bw=48273KB/s, iops=12068" gives {iops: "12068", bw_bytes_per_s: "48273KB/s",
io_bytes: "1024.0MB"}. Pages show them under "Units: as printed". JSON and terse output print
numbers, not display text: their runs have no `printed`.
"""

from __future__ import annotations

import re

from . import json_output, terse, text_output
from .job_params import HEADER_KEYS, command_fits, params
from .report import FioReport

__all__ = ["HEADER_KEYS", "command_fits", "detect", "params", "parse"]


def detect(text: str) -> float:
    """Confidence that `text` is fio output, in any of its formats."""
    # A substring test before each pattern: a 14 KB JSON document holds no "(groupid=", and the
    # pattern takes ten times longer than the test to read through it and say so.
    if ("(groupid=" in text and re.search(r"\(groupid=\d+, jobs=\d+\)", text)) or (
        '"fio version"' in text and re.search(r'"fio version"\s*:', text)
    ):
        return 1.0
    if re.search(terse.TERSE_LINE.pattern, text, re.M):
        return 0.9
    if re.search(r"^\s*fio-\d+\.\d+", text, re.M) or re.search(r"\(g=\d+\): rw=", text):
        return 0.6
    return 0.0


def parse(text: str) -> list[FioReport]:
    """Every fio invocation in one segment's output (usually one), in whatever format. Pure.

    One run printed in several formats at once (`--output-format=terse,json,normal`)
    is kept once, from the richest: JSON, then normal text, then terse.
    """
    documents = json_output.parse(text)
    if len(documents) == 1 and documents[0].line_start == 0 and documents[0].line_end == text.count("\n"):
        return documents  # one JSON document and nothing else, as `--output-format=json` writes
    lines = text.split("\n")
    for document in documents:  # hide JSON from the text parser, keeping line numbers
        lines[document.line_start : document.line_end + 1] = [""] * (document.line_end - document.line_start + 1)
    terse_reports = terse.parse("\n".join(lines) if documents else text)
    for report in terse_reports:
        lines[report.line_start : report.line_end + 1] = [""] * (report.line_end - report.line_start + 1)
    text_reports = text_output.parse_text(lines)
    if documents or terse_reports:
        # fio's messages before a JSON document or terse lines are their preamble (kept as
        # warnings there), not a text report of their own.
        text_reports = [report for report in text_reports if report.jobs]
    return sorted(_one_per_run(documents + text_reports + terse_reports), key=lambda report: report.line_start)


def _one_per_run(reports: list[FioReport]) -> list[FioReport]:
    """The reports in order, each twin of a kept one in another format absorbed by the first it can be.

    A kept report absorbs at most one copy of itself per other format. Only reports of the same job
    names can be twins, so the kept ones are indexed by their names and format family, each list
    with a cursor at its first report not yet absorbed for a format: a transcript of 6,500 runs of one
    job name compared each with every run kept before it, a third of its parse time.
    """
    kept: list[FioReport] = []
    by_names: dict[tuple[str, ...], dict[str, list[int]]] = {}
    cursors: dict[tuple[tuple[str, ...], str, str], int] = {}  # (names, family, absorbing format): next
    for report in reports:
        names = tuple(job["name"] for job in report.jobs)
        families = by_names.setdefault(names, {}) if names else {}
        own = _family(report.format)
        twin = None
        for family, indices in families.items():
            if family == own:
                continue
            at = cursors.get((names, family, report.format), 0)
            if at < len(indices) and (twin is None or indices[at] < twin[0]):
                twin = (indices[at], family)
        if twin is None:
            if names:
                families.setdefault(own, []).append(len(kept))
            kept.append(report)
        else:
            key = (names, twin[1], report.format)
            cursors[key] = cursors.get(key, 0) + 1
    return kept


def _family(output_format: str) -> str:
    """fio's JSON and JSON+ are one family: a run is never printed in both at once."""
    return "json" if output_format.startswith("json") else output_format

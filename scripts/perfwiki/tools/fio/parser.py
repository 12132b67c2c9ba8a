"""fio normal (human-readable) text output, fio 2.17 and later (3.x), and the dispatch to the other formats.

Why this module is over 400 lines: fio's text output has a dozen kinds of line that
changed wording and units across versions (2.0 to 3.x), and one state machine
(`_Parser`) reads them all; split up, each piece would need that machine's state.
`parse` sends JSON to json_output.py and terse lines to terse.py.

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

import functools
import re
from typing import Any

from ... import lazyre, units
from . import json_output, terse
from .options import params_from_command, params_from_options
from .report import PSHARED_NOTICE, FioReport, fio_message

_VERSION = lazyre.compile(r"^\s*(?:fio-)?(?P<v>\d+\.\d+(?:\.\d+)?(?:-[\w.-]+)?)\s*$")
_JOB_HEADER = lazyre.compile(
    r"^(?P<name>\S.*?): \(g=(?P<g>\d+)\): rw=(?P<rw>\w+), bs=(?P<bs>.*?), "
    r"ioengine=(?P<engine>[^,]+), iodepth=(?P<qd>\d+)\s*$"
)
_STARTING = lazyre.compile(r"^\s*Starting \d+ (?:process|thread)")
_RESULT_HEADER = lazyre.compile(
    r"^(?P<name>.+?): \(groupid=(?P<g>\d+), jobs=(?P<jobs>\d+)\): "
    r"err=\s*(?P<err>\d+)(?: \((?P<errtext>.*)\))?: pid=(?P<pid>\d+)(?::\s*(?P<date>.*?))?\s*$"
)
# fio 2.0-2.16: "  write: io=1024.0MB, bw=48273KB/s, iops=12068, runt= 21722msec"
_DIRECTION_2X = lazyre.compile(
    r"^\s*(?P<dir>read|write|trim|mixed)\s*: io=(?P<io>[^,]+?)\s*, bw=(?P<bw>[^,]+?)\s*, "
    r"iops=(?P<iops>[\d.]+[KMG]?)\s*, runt=\s*(?P<runt>\d+)msec\s*$"
)
_DIRECTION = lazyre.compile(
    r"^\s*(?P<dir>read|write|trim|mixed)\s*: IOPS=(?P<iops>[\d.]+[kMG]?), "
    r"BW=(?P<bw>[^ (]+) \((?P<bw_alt>[^)]+)\)\((?P<io>[^/]+)/(?P<runt>\d+)msec\)(?P<rest>.*)$"
)
# What fio 3.x adds after a direction's runtime: "; 0 zone resets", "; Cachehit=12.5%".
_ZONE_RESETS = lazyre.compile(r"(\d+) zone resets")
_CACHE_HIT = lazyre.compile(r"Cachehit=([\d.]+)%")
_LATENCY = lazyre.compile(
    r"^\s*(?P<kind>slat|clat|lat|sync) \((?P<unit>[num]?sec)\): min=\s*(?P<min>[\d.]+[kKMG]?)\s*,\s*"
    r"max=\s*(?P<max>[\d.]+[kKMG]?)\s*,\s*avg=\s*(?P<avg>[\d.]+)\s*,\s*stdev=\s*(?P<stdev>[\d.]+)\s*$"
)
_PERCENTILE_HEADER = lazyre.compile(r"^\s*(?P<kind>clat|lat|slat|sync) percentiles \((?P<unit>[num]?sec)\):\s*$")
# "99.90th=[ 7013]". The key is the percentile with two decimals, as fio's JSON names it; fio's
# text prints it so (the first group: ASCII, no leading zero, at most 15 digits, so float and
# back would give these very digits), any other spelling (the second group) goes through float.
# An entry starts with a digit: saying so first (?=\d) lets the engine pass the rest of the row
# quickly; the possessive ++ cannot change a match, as what follows each run is no digit.
_PERCENTILE_ENTRY = lazyre.compile(
    r"(?=\d)(?:(?P<as_key>(?:0|[1-9][0-9]{0,12})\.[0-9]{2})|(?P<p>\d++\.\d++))th=\[\s*+(?P<v>\d++)\]"
)
_BW_SAMPLES = lazyre.compile(
    r"^\s*bw \(\s*(?P<unit>[KMG]i?B|[kKMG]i?bit|B)\s*/s\)\s*: min=\s*(?P<min>\d+)\s*, max=\s*(?P<max>\d+)\s*, "
    r"per=\s*(?P<per>[\d.]+)%, avg=\s*(?P<avg>[\d.]+), stdev=\s*(?P<stdev>[\d.]+)(?:, samples=\s*(?P<n>\d+))?\s*$"
)
_IOPS_SAMPLES = lazyre.compile(
    r"^\s*iops\s*: min=\s*(?P<min>\d+), max=\s*(?P<max>\d+), avg=\s*(?P<avg>[\d.]+), "
    r"stdev=\s*(?P<stdev>[\d.]+)(?:, samples=\s*(?P<n>\d+))?\s*$"
)
_LAT_BUCKETS = lazyre.compile(r"^\s*lat \((?P<unit>[num]sec)\)\s*: (?P<body>.*)$")
# "4=31.87%" or ">=64=0.0%"; the lookahead is the first character any entry starts with (as above).
_BUCKET = lazyre.compile(r"(?=[>\d])(?P<ge>>=)?(?P<k>\d+)=(?P<pct>[\d.]+)%")
_CPU = lazyre.compile(
    r"^\s*cpu\s*: usr=(?P<usr>[\d.]+)%, sys=(?P<sys>[\d.]+)%, ctx=(?P<ctx>\d+), "
    r"majf=(?P<majf>\d+), minf=(?P<minf>\d+)\s*$"
)
_DEPTHS = lazyre.compile(r"^\s*(?P<kind>IO depths|submit|complete)\s*: (?P<body>.*)$")
_ISSUED = lazyre.compile(
    r"^\s*issued rwts?: total=(?P<total>[\d,]+?),? short=(?P<short>[\d,]+?),? dropped=(?P<dropped>[\d,]+)\s*$"
)
_ISSUED_2X = lazyre.compile(
    r"^\s*issued\s*: total=r=(?P<r>\d+)/w=(?P<w>\d+)/d=(?P<d>\d+), short=r=(?P<sr>\d+)/w=(?P<sw>\d+)/d=(?P<sd>\d+)"
    r"(?:, drop=r=(?P<dr>\d+)/w=(?P<dw>\d+)/d=(?P<dd>\d+))?\s*$"
)
_SYNC_HEADER = lazyre.compile(r"^\s*fsync/fdatasync/sync_file_range(?:/syncfs)?:\s*$")
_ERRORS = lazyre.compile(r"^\s*errors\s*: total=(?P<total>\d+), first_error=(?P<first>\d+)/<(?P<text>[^>]*)>\s*$")
_STEADYSTATE = lazyre.compile(r"^\s*steadystate\s*: attained=(?P<attained>\w+)")
_LATENCY_TARGET = lazyre.compile(r"^\s*latency\s*: target=")
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
# A job file shown in the text: "[global]", "[iometer]", "rw=randrw", "time_based".
_JOBFILE_SECTION = lazyre.compile(r"^\s*\[(?P<name>[^\]\s][^\]]*)\]\s*$")
_JOBFILE_OPTION = lazyre.compile(r"^\s*(?P<key>[a-z_]+)\s*(?:=\s*(?P<value>.*?))?\s*$")
# A short line of the author's between reports names the next one ("direct sync").
_MAX_LABEL_CHARS = 60
_DISK_HEADER = lazyre.compile(r"^\s*Disk stats \(read/write\):\s*$")
_DISK_LINE = lazyre.compile(r"^\s*(?P<name>[^\s:]+): (?P<body>ios=.*)$")
# Lines fio prints that carry nothing we report; recognised so that anything
# else can be flagged instead of silently dropped.
_NOISE = [
    lazyre.compile(r"^\s*Jobs: \d+"),
    lazyre.compile(r"^\s*\.\.\.\s*$"),
    lazyre.compile(r"^\s*\S+: Laying out IO file"),
    lazyre.compile(r"^\s*Description\s*: \["),
]


def detect(text: str) -> float:
    """Confidence that `text` is fio output, in any of its formats."""
    if re.search(r"\(groupid=\d+, jobs=\d+\)", text) or re.search(r'"fio version"\s*:', text):
        return 1.0
    if re.search(terse.TERSE_LINE.pattern, text, re.M):
        return 0.9
    if re.search(r"^\s*fio-\d+\.\d+", text, re.M) or re.search(r"\(g=\d+\): rw=", text):
        return 0.6
    return 0.0


def _latency(match: re.Match[str]) -> dict[str, units.Number]:
    unit = match["unit"]
    low, high, mean, stdev = match.group("min", "max", "avg", "stdev")
    return {
        "min": units.to_ns(low, unit),
        "max": units.to_ns(high, unit),
        "mean": units.to_ns(mean, unit),
        "stdev": units.to_ns(stdev, unit),
    }


_BS_RANGE = lazyre.compile(r"(?:\(R\) )?(?P<lo>[^-,/\s]+)-(?P<hi>[^-,/\s]+)")


def _bs_from_header(text: str) -> int | None:
    """bs_bytes of the read range when it is one size.

    2.19+: '(R) 1024KiB-1024KiB, (W) ...'; 2.17-2.18: '4096B-4096B,4096B-4096B,...';
    before 2.17: '4K-4K/4K-4K/4K-4K' with K meaning 1024.
    """
    match = _BS_RANGE.match(text)
    if not match or match["lo"] != match["hi"]:
        return None
    # '4K' and '4096B' read as fio option sizes (K = 1024); '16.0KiB' and '16.4kB' say their base.
    for parse_size in (units.parse_fio2_size, units.parse_size):
        try:
            return int(parse_size(match["lo"]))
        except units.UnitError:
            continue
    return None


def _is_legacy(version: str) -> bool:
    """True for fio versions before 2.17, whose text output uses the old formats."""
    numbers = re.match(r"(\d+)\.(\d+)", version)
    return bool(numbers) and (int(numbers[1]), int(numbers[2])) < (2, 17)


def _counts(text: str) -> list[int]:
    return [int(value) for value in text.split(",") if value != ""]


def _bw_samples(match: re.Match[str], legacy: bool) -> dict[str, units.Number]:
    # Before 2.17 "KB"/"MB" mean KiB/MiB; from 2.17 fio spells IEC and SI out.
    factor = (units.parse_fio2_size if legacy else units.parse_size)("1" + match["unit"])
    low, high, mean, stdev = match.group("min", "max", "avg", "stdev")
    samples = {
        "min": units.scaled(low, factor),
        "max": units.scaled(high, factor),
        "mean": units.scaled(mean, factor),
        "stdev": units.scaled(stdev, factor),
    }
    samples["per_pct"] = float(match["per"])
    if match["n"]:
        samples["samples"] = int(match["n"])
    return samples


_DISK_PERCENT = lazyre.compile(r"(\d+(?:\.\d+)?)%")
_DISK_PAIR = lazyre.compile(r"(\d+)/(\d+)")


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


# Every handler of a line, in the order they are tried, with the first words of the lines it
# can take: its patterns start with one of them. None: any line (a version, or a job or disk
# name first).
_HANDLERS: tuple[tuple[str, tuple[str, ...] | None], ...] = (
    ("_version", None),
    ("_job_header", None),
    ("_result_header", None),
    ("_direction", ("read", "write", "trim", "mixed")),
    ("_latency", ("slat", "clat", "lat", "sync")),
    ("_percentile_header", ("slat", "clat", "lat", "sync")),
    ("_bw_line", ("bw",)),
    ("_iops_line", ("iops",)),
    ("_lat_buckets", ("lat",)),
    ("_cpu", ("cpu",)),
    ("_depths", ("IO", "submit", "complete")),
    ("_issued", ("issued",)),
    ("_issued_2x", ("issued",)),
    ("_sync_header", ("fsync/fdatasync/sync_file_range", "fsync/fdatasync/sync_file_range/syncfs")),
    ("_errors", ("errors",)),
    ("_steadystate", ("steadystate",)),
    ("_latency_target", ("latency",)),
    ("_run_status", ("Run",)),
    ("_group_line", ("READ", "WRITE", "TRIM", "MIXED")),
    ("_disk_header", ("Disk",)),
    ("_disk_line", None),
)
# The handlers a line's first word points to, tried before the others (a line of job "read"
# that no direction handler takes is still a job's header).
_LIKELY_HANDLERS = {
    **dict.fromkeys(("read", "write", "trim", "mixed"), ("_direction",)),
    **dict.fromkeys(("slat", "clat", "sync"), ("_latency", "_percentile_header")),
    "lat": ("_latency", "_percentile_header", "_lat_buckets"),
    "bw": ("_bw_line",),
    "iops": ("_iops_line",),
    "cpu": ("_cpu",),
    **dict.fromkeys(("IO", "submit", "complete"), ("_depths",)),
    "issued": ("_issued", "_issued_2x"),
    "errors": ("_errors",),
    "steadystate": ("_steadystate",),
    "latency": ("_latency_target",),
    "Run": ("_run_status",),
    **dict.fromkeys(("READ", "WRITE", "TRIM", "MIXED"), ("_group_line",)),
    "Disk": ("_disk_header", "_disk_line"),
}


def _handlers_for(word: str | None) -> tuple[str, ...]:
    """The handlers worth trying on a line starting with `word`, in the order they are tried.

    A handler whose patterns start with other words cannot take the line: leaving it out
    changes nothing but the time spent (most lines went through a dozen patterns that
    could not match).
    """
    likely = _LIKELY_HANDLERS.get(word or "", ())
    rest = (name for name, words in _HANDLERS if words is None or word in words)
    return likely + tuple(name for name in rest if name not in likely)


class _Parser:
    """A line-by-line state machine over one segment's output."""

    def __init__(self, lines: list[str]):
        self.lines = lines
        self.reports: list[FioReport] = []
        self.report: FioReport | None = None
        self.job: dict[str, Any] | None = None
        self.direction: dict[str, Any] | None = None
        self.percentiles: tuple[dict[str, Any], int] | None = None  # the table being read, ns per its unit
        self.group: dict[str, Any] | None = None
        self.section = "preamble"  # preamble | job | status | disks
        self.legacy = False  # fio before 2.17: other line formats, KB meaning KiB
        self.job_file: dict[str, list[tuple[str, str | None]]] = {}
        self.job_file_section: str | None = None
        self.pending_label: str | None = None

    def run(self) -> list[FioReport]:
        """Read every line. The common cases (a blank line, a percentile row, a line a handler
        takes) are decided in this loop, which runs per line; the rest in _unclaimed."""
        for index, line in enumerate(self.lines):
            if not line or line.isspace():
                self.percentiles = None
            elif self.percentiles and line.lstrip().startswith("|"):  # a row: "     |  1.00th=[ 860], ..."
                self._percentile_row(line)
                self.report.line_end = index
            else:
                self.percentiles = None
                # Most lines say by their first word which handler reads them ("clat", "bw", "cpu"):
                # those are tried first, then the ones that read any line (see _handlers_for).
                word = line.split(None, 1)[0].rstrip(":")
                for handler in _HANDLERS_BY_WORD.get(word, _ANY_LINE_HANDLERS):
                    if handler(self, index, line):
                        if self.report is not None and index > self.report.line_end:
                            self.report.line_end = index
                        break
                else:
                    self._unclaimed(index, line)
        self._close()
        return self.reports

    def _open(self, index: int, may_start_new: bool = True) -> FioReport:
        """The report a line belongs to; a finished report is followed by a new one."""
        finished = self.section in ("status", "disks") and self._completed()
        if self.report is None or (may_start_new and finished):
            self._close()
            self.report = FioReport(line_start=index, line_end=index, label=self.pending_label)
            self.report.job_file = self.job_file
            self.reports.append(self.report)
            self.section = "preamble"
            self.pending_label = None
        return self.report

    def _completed(self) -> bool:
        return bool(self.report and self.report.groups)

    def _close(self) -> None:
        self.job = self.direction = self.percentiles = self.group = None

    def _unclaimed(self, index: int, line: str) -> None:
        """A line no handler took: fio's noise and messages, a job file, or a line not understood."""
        if _STARTING.match(line) or any(pattern.match(line) for pattern in _NOISE):
            return
        message = fio_message(line)
        if message:
            # fio's own messages (errors, queue-depth notes) belong to the run.
            self._open(index).warnings.append(message)
            return
        if PSHARED_NOTICE.match(line):
            return
        between_reports = self.report is None or (self.section in ("status", "disks") and self._completed())
        if between_reports:
            self._between_reports(line)
        elif self.section != "preamble":
            self.report.warnings.append(f"line not understood: {line.strip()}")

    def _between_reports(self, line: str) -> None:
        """Text before a report: a job file, or the author's words naming the next run."""
        section = _JOBFILE_SECTION.match(line)
        if section:
            self.job_file_section = section["name"]
            self.job_file = {**self.job_file, section["name"]: []}
            return
        stripped = line.strip()
        option = _JOBFILE_OPTION.match(line)
        if self.job_file_section and option and not stripped.startswith(("#", ";")):
            self.job_file[self.job_file_section].append((option["key"], option["value"]))
            return
        if stripped.startswith(("#", ";")) or not re.search(r"\w", stripped):
            return  # job-file comments and ===== rulers
        self.job_file_section = None
        # The line right above names the run, when it is short words: a long line (prose, code) is no
        # label, nor is a shorter line above it (">>> import subprocess" over ">>> subprocess.run([...])").
        short = len(stripped) <= _MAX_LABEL_CHARS and not stripped.startswith(">>>")  # Python's prompt: code
        self.pending_label = stripped if short else None

    # -- preamble -----------------------------------------------------------
    def _version(self, index: int, line: str) -> bool:
        match = _VERSION.match(line)
        if not match:
            return False
        report = self._open(index)
        report.tool_version = match["v"]
        self.legacy = _is_legacy(match["v"])
        return True

    def _job_header(self, index: int, line: str) -> bool:
        # A job or result header is tried on every line that starts with a name; the substring
        # its pattern needs rules most of them out without the pattern's scan of the name.
        match = _JOB_HEADER.match(line.strip()) if ": (g=" in line else None
        if not match:
            return False
        report = self._open(index)
        report.headers.append(
            {
                "name": match["name"],
                "groupid": int(match["g"]),
                "rw": match["rw"],
                "bs_bytes": _bs_from_header(match["bs"]),
                "bs_text": match["bs"],
                "ioengine": match["engine"],
                "iodepth": int(match["qd"]),
            }
        )
        return True

    # -- per-job blocks -----------------------------------------------------
    def _result_header(self, index: int, line: str) -> bool:
        match = _RESULT_HEADER.match(line.strip()) if ": (groupid=" in line else None
        if not match:
            return False
        report = self._open(index)
        self.section = "job"
        self.direction = None
        self.job = {
            "name": match["name"],
            "groupid": int(match["g"]),
            "jobs": int(match["jobs"]),
            "error": int(match["err"]),
            "pid": int(match["pid"]),
        }
        if match["errtext"]:
            self.job["error_text"] = match["errtext"]
        report.jobs.append(self.job)
        report.job_lines.append(index)
        return True

    def _cross_check(self, direction: str, bw_text: str, io_text: str) -> None:
        """fio's printed bandwidth is io / runtime: a disagreement past what the printed digits
        allow is fio misprinting (2.2.8 printed bw=1092.1MB/s for 2185.9MB in 2000 msec). The
        printed value is kept; the run says it does not add up."""
        data = self.direction or {}
        bw, io, runtime = data.get("bw_bytes_per_s"), data.get("io_bytes"), data.get("runtime_ms")
        if not (bw and io and runtime) or self.report is None:
            return
        computed = io / (runtime / 1000)
        allowed = units.last_digit(bw_text) + units.last_digit(io_text) + 0.5 / runtime
        if abs(bw - computed) / computed > allowed:
            # The computed rate in the printed value's own unit, one digit finer: 1092.95MB/s.
            number = re.search(r"\d+(?:\.(\d+))?", bw_text)
            digits = len(number.group(1) or "") + 1 if number else 2
            said = (
                f"{computed * float(number.group(0)) / bw:.{digits}f}{bw_text[number.end() :].strip()}"
                if number
                else ""
            )
            self.report.warnings.append(
                f"{direction} bandwidth printed as {bw_text.strip()}, but {io_text.strip()} in {runtime} ms is "
                f"{said}: more than fio's rounding apart (the printed value is kept)"
            )

    def _direction(self, index: int, line: str) -> bool:
        if self.job is None:
            return False
        match = _DIRECTION.match(line)
        old = None if match else _DIRECTION_2X.match(line)  # fio before 2.17; never both
        match = match or old
        if not match:
            return False
        if match["dir"] in self.job and self.report is not None:
            # A job prints each direction once: a second line is another job's, never an overwrite.
            self.report.problems.append(
                (index, f"a second {match['dir']} result in job {self.job['name']!r}: the first is kept")
            )
            return True
        if old:
            self.direction = {
                "iops": units.parse_count(old["iops"]),
                "bw_bytes_per_s": units.parse_fio2_rate(old["bw"]),
                "io_bytes": units.parse_fio2_size(old["io"]),
                "runtime_ms": int(old["runt"]),
                "printed": {"iops": old["iops"], "bw_bytes_per_s": old["bw"], "io_bytes": old["io"]},
            }
            self.job[old["dir"]] = self.direction
            self.legacy = True
            self._cross_check(old["dir"], old["bw"], old["io"])
            return True
        self.direction = {
            "iops": units.parse_count(match["iops"]),
            "bw_bytes_per_s": units.parse_rate(match["bw"]),
            "io_bytes": units.parse_size(match["io"]),
            "runtime_ms": int(match["runt"]),
            # The tokens as fio printed them, for "Units: as printed" (units.shown): parsing loses
            # their spelling ("13k", "1056MiB/s"), and a page converting back would not find it.
            "printed": {"iops": match["iops"], "bw_bytes_per_s": match["bw"], "io_bytes": match["io"]},
        }
        rest = match["rest"]
        if rest:  # "; 0 zone resets" and the like; most lines end at the runtime
            zone = _ZONE_RESETS.search(rest)
            if zone:
                self.direction["zone_resets"] = int(zone.group(1))
            cache = _CACHE_HIT.search(rest)
            if cache:
                self.direction["cachehit_pct"] = float(cache.group(1))
        self.job[match["dir"]] = self.direction
        self._cross_check(match["dir"], match["bw"], match["io"])
        return True

    def _latency(self, index: int, line: str) -> bool:
        match = _LATENCY.match(line)
        if not match or self.job is None:
            return False
        if match["kind"] == "sync":
            self.job.setdefault("sync", {})["lat_ns"] = _latency(match)
        elif self.direction is not None:
            self.direction[f"{match['kind']}_ns"] = _latency(match)
        return True

    def _percentile_header(self, index: int, line: str) -> bool:
        match = _PERCENTILE_HEADER.match(line)
        if not match or self.job is None:
            return False
        if match["kind"] == "sync":
            target = self.job.setdefault("sync", {})
        elif self.direction is not None:
            target = self.direction
            target["percentiles_of"] = match["kind"]
        else:
            return False
        target["percentiles_ns"] = {}
        self.percentiles = (target["percentiles_ns"], units.ns_per(match["unit"]))
        return True

    def _percentile_row(self, line: str) -> None:
        table, ns_per_unit = self.percentiles
        for as_key, percentile, value in _PERCENTILE_ENTRY.findall(line):
            # The value is digits (\d+): units.to_ns would read it the same way, as an exact int.
            table[as_key or f"{float(percentile):.2f}"] = int(value) * ns_per_unit

    def _bw_line(self, index: int, line: str) -> bool:
        match = _BW_SAMPLES.match(line) if self.direction is not None else None
        if not match:
            return False
        self.direction["bw_samples"] = _bw_samples(match, self.legacy)
        return True

    def _iops_line(self, index: int, line: str) -> bool:
        match = _IOPS_SAMPLES.match(line) if self.direction is not None else None
        if not match:
            return False
        samples: dict[str, Any] = {
            "min": int(match["min"]),
            "max": int(match["max"]),
            "mean": float(match["avg"]),
            "stdev": float(match["stdev"]),
        }
        if match["n"]:
            samples["samples"] = int(match["n"])
        self.direction["iops_samples"] = samples
        return True

    # Per-job lines after the direction blocks: distribution, cpu, depths, issued, sync, errors.
    def _lat_buckets(self, index: int, line: str) -> bool:
        match = _LAT_BUCKETS.match(line) if self.job is not None else None
        if not match:
            return False
        buckets = self.job.setdefault("lat_buckets", [])
        ns_per_unit = units.ns_per(match["unit"])
        for at_least, edge, pct in _BUCKET.findall(match["body"]):
            # The edge is digits (\d+): units.to_ns would read it the same way, as an exact int.
            buckets.append({"ge_ns" if at_least else "le_ns": int(edge) * ns_per_unit, "pct": float(pct)})
        return True

    def _cpu(self, index: int, line: str) -> bool:
        match = _CPU.match(line) if self.job is not None else None
        if not match:
            return False
        self.job["cpu"] = {
            "usr_pct": float(match["usr"]),
            "sys_pct": float(match["sys"]),
            "ctx": int(match["ctx"]),
            "majf": int(match["majf"]),
            "minf": int(match["minf"]),
        }
        return True

    def _depths(self, index: int, line: str) -> bool:
        match = _DEPTHS.match(line) if self.job is not None else None
        if not match:
            return False
        key = {"IO depths": "io_depths_pct", "submit": "submit_pct", "complete": "complete_pct"}[match["kind"]]
        self.job[key] = {at_least + depth: float(pct) for at_least, depth, pct in _BUCKET.findall(match["body"])}
        return True

    def _issued(self, index: int, line: str) -> bool:
        match = _ISSUED.match(line) if self.job is not None else None
        if not match:
            return False
        self.job["issued"] = {
            "total": _counts(match["total"]),
            "short": _counts(match["short"]),
            "dropped": _counts(match["dropped"]),
        }
        return True

    def _issued_2x(self, index: int, line: str) -> bool:
        match = _ISSUED_2X.match(line) if self.job is not None else None
        if not match:
            return False
        issued = {
            "total": [int(match[k]) for k in ("r", "w", "d")],
            "short": [int(match[k]) for k in ("sr", "sw", "sd")],
        }
        if match["dr"] is not None:
            issued["dropped"] = [int(match[k]) for k in ("dr", "dw", "dd")]
        self.job["issued"] = issued
        return True

    def _sync_header(self, index: int, line: str) -> bool:
        if self.job is None or not _SYNC_HEADER.match(line):
            return False
        self.direction = None  # the sync lines that follow belong to the job, not a direction
        self.job.setdefault("sync", {})
        return True

    def _errors(self, index: int, line: str) -> bool:
        match = _ERRORS.match(line) if self.job is not None else None
        if not match:
            return False
        self.job["errors"] = {
            "total": int(match["total"]),
            "first_error": int(match["first"]),
            "text": match["text"],
        }
        return True

    def _steadystate(self, index: int, line: str) -> bool:
        match = _STEADYSTATE.match(line) if self.job is not None else None
        if not match:
            return False
        self.job["steadystate_attained"] = match["attained"] == "yes"
        return True

    def _latency_target(self, index: int, line: str) -> bool:
        return self.job is not None and bool(_LATENCY_TARGET.match(line))

    # -- summaries ----------------------------------------------------------
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


# Per first word, the handlers to try (functions of _Parser): chosen once, not per line or per parse.
_HANDLERS_BY_WORD = {
    word: tuple(getattr(_Parser, name) for name in _handlers_for(word))
    for word in {*_LIKELY_HANDLERS, *(word for _, words in _HANDLERS for word in words or ())}
}
_ANY_LINE_HANDLERS = tuple(getattr(_Parser, name) for name in _handlers_for(None))


def parse(text: str) -> list[FioReport]:
    """Every fio invocation in one segment's output (usually one), in whatever format. Pure.

    One run printed in several formats at once (`--output-format=terse,json,normal`)
    is kept once, from the richest: JSON, then normal text, then terse.
    """
    documents = json_output.parse(text)
    lines = text.split("\n")
    for document in documents:  # hide JSON from the text parser, keeping line numbers
        lines[document.line_start : document.line_end + 1] = [""] * (document.line_end - document.line_start + 1)
    terse_reports = terse.parse("\n".join(lines) if documents else text)
    for report in terse_reports:
        lines[report.line_start : report.line_end + 1] = [""] * (report.line_end - report.line_start + 1)
    text_reports = _parse_text(lines)
    if documents or terse_reports:
        # fio's messages before a JSON document or terse lines are their preamble (kept as
        # warnings there), not a text report of their own.
        text_reports = [report for report in text_reports if report.jobs]
    kept: list[FioReport] = []
    # A kept report absorbs at most one copy of itself per other format.
    absorbed: set[tuple[int, str]] = set()
    for report in documents + text_reports + terse_reports:
        twin = next(
            (
                i
                for i, other in enumerate(kept)
                if (i, report.format) not in absorbed and _same_run_other_format(report, other)
            ),
            None,
        )
        if twin is None:
            kept.append(report)
        else:
            absorbed.add((twin, report.format))
    return sorted(kept, key=lambda report: report.line_start)


def _same_run_other_format(one: FioReport, other: FioReport) -> bool:
    """The same jobs printed in another format by the same fio invocation."""
    if one.format == other.format or (one.format.startswith("json") and other.format.startswith("json")):
        return False
    names = [job["name"] for job in one.jobs]
    return bool(names) and names == [job["name"] for job in other.jobs]


def _parse_text(lines: list[str]) -> list[FioReport]:
    reports = _Parser(lines).run()
    for report in reports:
        if not report.jobs:
            report.problems.append((report.line_start, "fio output without any job result block"))
        elif not report.has_results():
            report.problems.append(
                (report.job_lines[0], "fio job result without read/write/trim lines this parser understands")
            )
    return reports


def params(report: FioReport, command: str | None) -> tuple[dict[str, Any], list[str]]:
    """Normalised parameters, and warnings where the command and the output disagree.

    What fio printed in its job header is what ran; the command line adds what
    the header never shows (direct, runtime, size, numjobs).
    """
    merged, warnings = params_from_command(command) if command else ({}, [])
    if report.job_file:
        job_name = report.headers[0]["name"] if report.headers else None
        options = report.job_file.get("global", []) + report.job_file.get(job_name, [])
        from_file, file_warnings = params_from_options(options)
        merged = {**from_file, **merged}
        warnings += file_warnings
        merged["job_file_sections"] = sorted(report.job_file)
    if report.headers:
        header = report.headers[0]
        for key in ("rw", "bs_bytes", "ioengine", "iodepth"):
            printed = header.get(key)
            if printed is None:
                continue
            given = merged.get(key)
            if given is not None and given != printed:
                warnings.append(f"command says {key}={given} but fio printed {key}={printed}")
            merged[key] = printed
    if report.jobs:
        printed_name = report.jobs[0]["name"]
        if merged.get("name") and merged["name"] != printed_name and len(report.jobs) == 1:
            warnings.append(f"command names job {merged['name']!r} but fio printed results for {printed_name!r}")
        merged.setdefault("numjobs", report.jobs[0]["jobs"] if len(report.jobs) == 1 else len(report.jobs))
    return merged, warnings


def command_fits(report: FioReport, command: str) -> bool:
    """Whether a command shown apart from any output could have printed this report.

    Everything fio's job header shows (job name, rw, bs, engine, depth) must agree.
    """
    if not report.headers:
        return False
    name, given = _header_params(command)
    header = report.headers[0]
    if name != header.get("name"):
        return False
    return all(value in (None, header.get(key)) for key, value in zip(HEADER_KEYS, given, strict=True))


# What a job header shows besides the job's name.
HEADER_KEYS = ("rw", "bs_bytes", "ioengine", "iodepth")


# A page that lists its commands apart from their outputs has each output tried against each
# command (6 x 6 in seed 001's copies): each command is read once. Values are str and int, never changed.
@functools.lru_cache(maxsize=512)
def _header_params(command: str) -> tuple[str | None, tuple[Any, ...]]:
    """The job name and the HEADER_KEYS params a fio command line gives (None where it gives none)."""
    given, _ = params_from_command(command)
    return given.get("name"), tuple(given.get(key) for key in HEADER_KEYS)

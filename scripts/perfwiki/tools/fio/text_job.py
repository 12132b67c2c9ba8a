"""fio's text output: the lines that close a job's result block, after its directions.

Real lines (tests/fixtures/fio/fio-3.33-randrw-numjobs2.txt)::

      cpu          : usr=1.70%, sys=31.40%, ctx=11477, majf=0, minf=13
      IO depths    : 1=100.0%, 2=0.0%, 4=0.0%, 8=0.0%, 16=0.0%, 32=0.0%, >=64=0.0%
         submit    : 0=0.0%, 4=100.0%, 8=0.0%, 16=0.0%, 32=0.0%, 64=0.0%, >=64=0.0%
         complete  : 0=0.0%, 4=100.0%, 8=0.0%, 16=0.0%, 32=0.0%, 64=0.0%, >=64=0.0%
         issued rwts: total=20026,20056,0,0 short=0,0,0,0 dropped=0,0,0,0
         latency   : target=0, window=0, percentile=100.00%, depth=1

and, where a job ran them, "fsync/fdatasync/sync_file_range:" (a block of sync latencies,
read by text_latency.py), "errors    : total=3, first_error=5/<Input/output error>" and
"steadystate  : attained=yes, ...". fio 2.x printed issued as "total=r=0/w=262144/d=0, short=...".
Each sets a key of the job (`self.job`).
"""

from __future__ import annotations

from ... import lazyre
from .text_latency import BUCKET

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

# The handlers below, with the first words of the lines each can take, and those a line's first
# word points to first.
HANDLERS: tuple[tuple[str, tuple[str, ...] | None], ...] = (
    ("_cpu", ("cpu",)),
    ("_depths", ("IO", "submit", "complete")),
    ("_issued", ("issued",)),
    ("_issued_2x", ("issued",)),
    ("_sync_header", ("fsync/fdatasync/sync_file_range", "fsync/fdatasync/sync_file_range/syncfs")),
    ("_errors", ("errors",)),
    ("_steadystate", ("steadystate",)),
    ("_latency_target", ("latency",)),
)
LIKELY: dict[str, tuple[str, ...]] = {
    "cpu": ("_cpu",),
    **dict.fromkeys(("IO", "submit", "complete"), ("_depths",)),
    "issued": ("_issued", "_issued_2x"),
    "errors": ("_errors",),
    "steadystate": ("_steadystate",),
    "latency": ("_latency_target",),
}


def _counts(text: str) -> list[int]:
    return [int(value) for value in text.split(",") if value != ""]


class JobLines:
    """Handlers of a job's cpu, depth, issued, sync, error and steady-state lines (state: text_output.TextParser)."""

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
        self.job[key] = {at_least + depth: float(pct) for at_least, depth, pct in BUCKET.findall(match["body"])}
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

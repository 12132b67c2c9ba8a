"""fio's text output: the lines that name a run and its jobs, before and at the top of their results.

Three kinds of line (seed 000, fio-3.1)::

    sequential_write_bandwidth_test: (g=0): rw=write, bs=(R) 1024KiB-1024KiB, (W) 1024KiB-1024KiB, (T) 1024KiB-1024KiB, ioengine=libaio, iodepth=4096
    fio-3.1
    sequential_write_bandwidth_test: (groupid=0, jobs=1): err= 0: pid=10944: Thu Jul 12 16:09:58 2018

The first, a job header, is printed once per job section before the run starts: the options
that job ran with (`FioReport.headers`). A section run by several processes (numjobs=2 and up)
has "..." on the line after its header, and no count: its header gets `clones: True`
(job_params.py counts them). The version line opens a report. The third opens a job's result
block (`FioReport.jobs`): with group_reporting, `jobs=N` counts every process of the group,
whichever job section each came from.
"""

from __future__ import annotations

import re

from ... import lazyre, units

_VERSION = lazyre.compile(r"^\s*(?:fio-)?(?P<v>\d+\.\d+(?:\.\d+)?(?:-[\w.-]+)?)\s*$")
_JOB_HEADER = lazyre.compile(
    r"^(?P<name>\S.*?): \(g=(?P<g>\d+)\): rw=(?P<rw>\w+), bs=(?P<bs>.*?), "
    r"ioengine=(?P<engine>[^,]+), iodepth=(?P<qd>\d+)\s*$"
)
_RESULT_HEADER = lazyre.compile(
    r"^(?P<name>.+?): \(groupid=(?P<g>\d+), jobs=(?P<jobs>\d+)\): "
    r"err=\s*(?P<err>\d+)(?: \((?P<errtext>.*)\))?: pid=(?P<pid>\d+)(?::\s*(?P<date>.*?))?\s*$"
)
_CLONES = lazyre.compile(r"^\s*\.\.\.\s*$")
_BS_RANGE = lazyre.compile(r"(?:\(R\) )?(?P<lo>[^-,/\s]+)-(?P<hi>[^-,/\s]+)")

# The handlers below, with the first words of the lines each can take (None: any line, as a
# version or a job's name comes first), and those a line's first word points to first.
HANDLERS: tuple[tuple[str, tuple[str, ...] | None], ...] = (
    ("_version", None),
    ("_job_header", None),
    ("_result_header", None),
    ("_clones", ("...",)),
)
LIKELY: dict[str, tuple[str, ...]] = {}


def bs_from_header(text: str) -> int | None:
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


def is_legacy(version: str) -> bool:
    """True for fio versions before 2.17, whose text output uses the old formats."""
    numbers = re.match(r"(\d+)\.(\d+)", version)
    return bool(numbers) and (int(numbers[1]), int(numbers[2])) < (2, 17)


class HeaderLines:
    """Handlers of the version, job header and result header lines (state: text_output.TextParser)."""

    def _version(self, index: int, line: str) -> bool:
        match = _VERSION.match(line)
        if not match:
            return False
        report = self._open(index)
        report.tool_version = match["v"]
        self.legacy = is_legacy(match["v"])
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
                "bs_bytes": bs_from_header(match["bs"]),
                "bs_text": match["bs"],
                "ioengine": match["engine"],
                "iodepth": int(match["qd"]),
            }
        )
        return True

    def _clones(self, index: int, line: str) -> bool:
        """ "..." right after a job header: fio's init.c prints it for the section's second process
        (and nothing for the others), so the section ran numjobs of 2 or more."""
        if self.report is None or self.section != "preamble" or not self.report.headers or not _CLONES.match(line):
            return False
        self.report.headers[-1]["clones"] = True
        return True

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

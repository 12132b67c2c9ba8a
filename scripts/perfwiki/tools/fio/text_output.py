"""fio's normal (human-readable) text output, fio 2.0 to 3.x: the reader that walks its lines.

One pass over a segment's lines, one `TextParser`: each line goes to the handler that reads its
kind, and handlers share the state of where the reader is (the report, job, direction, group
being filled). The handlers live by what they read:

- text_headers.py: the version, each job's header ("name: (g=0): rw=..."), a result block's
  first line ("name: (groupid=0, jobs=1): err= 0: ...");
- text_results.py: a direction's result ("read: IOPS=..., BW=...") and its bw/iops samples;
- text_latency.py: slat/clat/lat lines, percentile tables, the latency distribution;
- text_job.py: cpu, IO depths, issued, sync, errors, steady state;
- text_status.py: "Run status group" summaries and disk stats.

This module keeps what is left: which handler a line goes to, when a report starts and ends,
and the lines no handler takes (fio's noise and messages, a job file shown before the output,
the author's words naming the next run, and anything not understood, which is reported).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from ... import lazyre
from . import text_headers, text_job, text_latency, text_results, text_status
from .report import PSHARED_NOTICE, FioReport, fio_message

_STARTING = lazyre.compile(r"^\s*Starting \d+ (?:process|thread)")
# A job file shown in the text: "[global]", "[iometer]", "rw=randrw", "time_based".
_JOBFILE_SECTION = lazyre.compile(r"^\s*\[(?P<name>[^\]\s][^\]]*)\]\s*$")
_JOBFILE_OPTION = lazyre.compile(r"^\s*(?P<key>[a-z_]+)\s*(?:=\s*(?P<value>.*?))?\s*$")
# A short line of the author's between reports names the next one ("direct sync").
_MAX_LABEL_CHARS = 60
# Lines fio prints that carry nothing we report; recognised so that anything
# else can be flagged instead of silently dropped.
_NOISE = [
    lazyre.compile(r"^\s*Jobs: \d+"),
    lazyre.compile(r"^\s*\.\.\.\s*$"),
    lazyre.compile(r"^\s*\S+: Laying out IO file"),
    lazyre.compile(r"^\s*Description\s*: \["),
]

# The modules whose handlers read lines, in the order their handlers are tried.
_LINE_KINDS = (text_headers, text_results, text_latency, text_job, text_status)
# Every handler, with the first words of the lines it can take (None: any line).
_HANDLERS = tuple(handler for kind in _LINE_KINDS for handler in kind.HANDLERS)
# The handlers a line's first word points to, tried before the others.
_LIKELY = {word: names for kind in _LINE_KINDS for word, names in kind.LIKELY.items()}


def _handlers_for(word: str | None) -> tuple[str, ...]:
    """The handlers worth trying on a line starting with `word`, in the order they are tried.

    A handler whose patterns start with other words cannot take the line: leaving it out
    changes nothing but the time spent (most lines went through a dozen patterns that
    could not match).
    """
    likely = _LIKELY.get(word or "", ())
    rest = (name for name, words in _HANDLERS if words is None or word in words)
    return likely + tuple(name for name in rest if name not in likely)


class TextParser(
    text_headers.HeaderLines,
    text_results.ResultLines,
    text_latency.LatencyLines,
    text_job.JobLines,
    text_status.StatusLines,
):
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


# Per first word, the handlers to try (functions of TextParser): chosen once, not per line or per parse.
_HANDLERS_BY_WORD: dict[str, tuple[Callable[[TextParser, int, str], bool], ...]] = {
    word: tuple(getattr(TextParser, name) for name in _handlers_for(word))
    for word in {*_LIKELY, *(word for _, words in _HANDLERS for word in words or ())}
}
_ANY_LINE_HANDLERS = tuple(getattr(TextParser, name) for name in _handlers_for(None))


def parse_text(lines: list[str]) -> list[FioReport]:
    """The text reports in a segment's lines (JSON and terse blanked out by parser.parse)."""
    reports = TextParser(lines).run()
    for report in reports:
        if not report.jobs:
            report.problems.append((report.line_start, "fio output without any job result block"))
        elif not report.has_results():
            report.problems.append(
                (report.job_lines[0], "fio job result without read/write/trim lines this parser understands")
            )
    return reports

"""The result of parsing one fio invocation, whatever format fio printed it in."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ... import lazyre

DIRECTIONS = ("read", "write", "trim", "mixed")

# Every Windows build prints this; it says nothing about the run.
PSHARED_NOTICE = lazyre.compile(r"^\s*fio: this platform does not support process shared mutexes")


def fio_message(line: str) -> str | None:
    """A message fio printed about the run ("fio: io_u error ...", "note: ..."), worth keeping."""
    stripped = line.strip()
    if not stripped.startswith(("fio: ", "note: ")) or PSHARED_NOTICE.match(stripped):
        return None
    return stripped


@dataclass
class FioReport:
    """One fio invocation's output: what parse() finds in a segment."""

    line_start: int  # 0-based index into the segment's lines
    line_end: int
    tool_version: str | None = None
    format: str = "text"  # text | json | json+ | terse
    headers: list[dict[str, Any]] = field(default_factory=list)
    jobs: list[dict[str, Any]] = field(default_factory=list)
    groups: list[dict[str, Any]] = field(default_factory=list)
    disks: list[dict[str, Any]] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    problems: list[tuple[int, str]] = field(default_factory=list)
    job_lines: list[int] = field(default_factory=list)  # where each job's result header is
    label: str | None = None  # the author's short line just before this report, if any
    job_file: dict[str, list[tuple[str, str | None]]] = field(default_factory=dict)

    @property
    def metrics(self) -> dict[str, Any]:
        return {"jobs": self.jobs, "groups": self.groups, "disks": self.disks}

    def has_results(self) -> bool:
        """A job that did I/O, or one that failed with an error: either is worth publishing."""
        return any(_did_io(job) or job.get("error") for job in self.jobs)


def _did_io(job: dict[str, Any]) -> bool:
    return any(direction in job for direction in DIRECTIONS)

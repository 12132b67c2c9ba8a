"""The run schema v1 and the problem record.

A Run is one invocation of one benchmark tool, with where it came from. Its
field names are fixed by DESIGN.md (external checks read them); `to_dict` is the
single place that decides how a run looks in YAML and JSON.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

SCHEMA_VERSION = 1

TOOLS = ("fio", "iperf3", "unixbench", "mbw", "ioping", "dd", "iostat", "sysbench")
FORMATS = ("text", "json", "json+", "terse", "manual")


@dataclass(frozen=True)
class Problem:
    """Something in an input that could not be used, and exactly where it is."""

    path: str
    line: int
    message: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.message}"

    def to_dict(self) -> dict[str, Any]:
        return {"path": self.path, "line": self.line, "message": self.message}


@dataclass(frozen=True)
class Source:
    path: str
    line_start: int
    line_end: int
    sha256: str  # of the whole raw file as committed
    redacted: bool = False  # published and parsed with the site's redaction applied

    def to_dict(self) -> dict[str, Any]:
        source = {
            "path": self.path,
            "line_start": self.line_start,
            "line_end": self.line_end,
            "sha256": self.sha256,
        }
        if self.redacted:
            source["redacted"] = True
        return source


@dataclass
class Run:
    id: str
    tool: str
    tool_version: str | None
    format: str
    label: str | None
    command: str | None
    source: Source
    params: dict[str, Any] = field(default_factory=dict)
    metrics: dict[str, Any] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)
    # Not in the fixed set, but useful: the heading the label sits under, and
    # the environment the run belongs to (set by ingest).
    section: str | None = None
    environment: str | None = None
    reproduce: str | None = None  # the `perfwiki bench` command that produced this run, when one did
    checks: list[dict[str, Any]] = field(default_factory=list)  # methodology findings (perfwiki.checks)

    def validate(self) -> list[str]:
        """Schema errors, empty when the run is well formed."""
        errors = []
        if self.tool not in TOOLS:
            errors.append(f"unknown tool {self.tool!r}")
        if self.format not in FORMATS:
            errors.append(f"unknown format {self.format!r}")
        if not self.id:
            errors.append("empty run id")
        if self.source.line_start > self.source.line_end:
            errors.append("source line range is reversed")
        return errors

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "id": self.id,
            "tool": self.tool,
            "tool_version": self.tool_version,
            "format": self.format,
            "label": self.label,
            "command": self.command,
            "source": self.source.to_dict(),
            "params": self.params,
            "metrics": self.metrics,
            "warnings": list(self.warnings),
            "section": self.section,
        }
        if self.environment is not None:
            data["environment"] = self.environment
        if self.reproduce is not None:
            data["reproduce"] = self.reproduce
        data["checks"] = list(self.checks)
        return data

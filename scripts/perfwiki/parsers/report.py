"""The result of parsing one run of a tool: what every parser's parse() returns a list of."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass
class ToolReport:
    """One invocation found in a segment. Lines are 0-based within the text the parser was given."""

    line_start: int
    line_end: int
    tool_version: str | None = None
    format: str = "text"
    metrics: dict[str, Any] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)
    problems: list[tuple[int, str]] = field(default_factory=list)

    def has_results(self) -> bool:
        return bool(self.metrics)

"""Methodology findings: what a reviewer should catch before a number goes into a capacity plan.

The checks themselves belong to each tool (`Tool.checks`). Each looks at one run (and
its raw lines, for evidence) and returns findings with a stable id, a severity
(error | warning | info), a one-line explanation and the raw line that shows it.
Extraction runs them once per run; findings are stored on the run (`checks`, and as
text in `warnings`), shown on its page and summarised on the report page.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from dataclasses import dataclass

from .model import Run


@dataclass(frozen=True)
class Finding:
    id: str
    severity: str
    message: str
    evidence: str | None = None
    line: int | None = None
    # Set when the finding means the number measured something else (a cache): the few words
    # a verdict names it by, in the same line (artefacts.py).
    artefact: str | None = None

    def to_dict(self) -> dict[str, object]:
        found: dict[str, object] = {
            "id": self.id,
            "severity": self.severity,
            "message": self.message,
            "evidence": self.evidence,
            "line": self.line,
        }
        if self.artefact:
            found["artefact"] = self.artefact
        return found


class Evidence:
    """The raw lines of a run, searched for the line that shows a finding."""

    def __init__(self, run: Run, lines: list[str] | None):
        self.run = run
        self.lines = lines or []
        self._joined: str | None = None  # the run's lines as one text, once a search needs it

    def _range(self) -> tuple[int, int]:
        """The run's first and last line, within the lines there are."""
        return max(self.run.source.line_start, 1), min(self.run.source.line_end, len(self.lines))

    def find(self, pattern: str, after: str | None = None) -> tuple[str | None, int | None]:
        """The first line matching `pattern`; with `after`, the first past the first line matching
        `after` (fio's write p99.99 is in its write section, not the read one's), else the first."""
        first, last = self._range()
        if after is not None:
            anchor = re.compile(after).search
            start = next(
                (number for number, text in enumerate(self.lines[first - 1 : last], start=first) if anchor(text)),
                None,
            )
            if start is not None:
                evidence, line = self._search(pattern, start, last)
                if evidence is not None:
                    return evidence, line
        return self._search(pattern, first, last)

    def _search(self, pattern: str, first: int, last: int) -> tuple[str | None, int | None]:
        # Most runs never print what a check looks for: one search of the run's text says so, where the
        # loop below runs the pattern on each line (a fio JSON document's hundreds of lines for "IOPS=",
        # a tenth of parsing one). A line that matches is a match of the text, so nothing is missed.
        words = _words_of(pattern)
        text = self._text()
        if not (any(word in text for word in words) if words else re.compile(pattern, re.M).search(text)):
            return None, None
        search = re.compile(pattern).search
        for number, text in enumerate(self.lines[first - 1 : last], start=first):
            if search(text):
                # As a terminal shows the line: tabs to their stops (iperf3 -J indents with tabs), so
                # the evidence reads the same copied from a terminal or from the file.
                return text.expandtabs(8).strip(), number
        return None, None

    def mentions(self, text: str) -> bool:
        """Whether one of the run's lines holds `text` as it is: one substring test of all of them,
        where find() runs its pattern on each line (most runs never print what a check looks for)."""
        return text in self._text()

    def _text(self) -> str:
        """The run's lines as one text, joined once."""
        if self._joined is None:
            first, last = self._range()
            self._joined = "\n".join(self.lines[first - 1 : last])
        return self._joined

    def finding(
        self, check_id: str, severity: str, message: str, pattern: str | None = None, after: str | None = None
    ) -> Finding:
        evidence, line = self.find(pattern, after) if pattern else (None, None)
        if evidence is None and self.run.command and pattern is None:
            evidence, line = self.run.command, self.run.source.line_start
        return Finding(check_id, severity, message, evidence, line)


@functools.cache
def _words_of(pattern: str) -> tuple[str, ...] | None:
    """The words a pattern that is only a choice of words matches ('(?:IOPS=|iops=)': 'IOPS=', 'iops='),
    else None. A text holds a match exactly when it holds one of them, and a substring test reads a 14 KB
    fio JSON document in a tenth of the time the pattern takes to (no one literal starts it)."""
    inner = pattern[3:-1] if pattern.startswith("(?:") and pattern.endswith(")") else pattern
    words = tuple(inner.split("|"))
    return words if all(word and re.escape(word) == word for word in words) else None


Check = Callable[[Run, Evidence], list[Finding]]

SEVERITY_ORDER = {"error": 0, "warning": 1, "info": 2}


def by_severity(findings: list[Finding]) -> list[Finding]:
    """Most severe first; the order the checks ran in otherwise."""
    return sorted(findings, key=lambda finding: SEVERITY_ORDER[finding.severity])


def flags(run: Run) -> list[str]:
    """The messages of the checks that flag a run (⚠ on its report, beside its value on the compare
    page and the Runs page): its warnings and errors."""
    return [finding["message"] for finding in run.checks if finding["severity"] in ("error", "warning")]


def failure(run: Run) -> str | None:
    """Why a run is not a result: its first error-severity finding (fio err≠0, a tool's own error
    line). Comparisons, verdicts and histories leave such a run out."""
    return next((check["message"] for check in run.checks if check["severity"] == "error"), None)

"""The interface every tool implements, and the record its parser returns.

A tool is a subclass of `Tool` with one instance in the registry (`tools/__init__.py`).
It holds everything perfwiki knows about one benchmark program: the names it is run by
and how its output looks (`detect`), its parser, its parameters, the metrics a
comparison may show (unit and better direction), what makes two runs comparable
(`fingerprint`), its methodology checks, and what its run pages show. The defaults
here are what a tool with a single, unnamed result and no checks needs.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any

from .. import units
from ..findings import Check, Evidence, Finding, by_severity
from ..model import Run, slug
from .programs import PROGRAMS


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


@dataclass(frozen=True)
class Metric:
    """A number a comparison can show: how to read it from a run, and how to show it."""

    key: str
    title: str
    unit: str  # canonical unit of the value: "IOPS", "B/s", "bit/s", "ns", "events/s", ...
    higher_is_better: bool
    read: Callable[[Run, str | None], float | None]


def metric_at(*keys: str) -> Callable[[Run, str | None], float | None]:
    """A reader for a number at a path in run.metrics; "{part}" stands for the part compared."""

    def read(run: Run, part: str | None) -> float | None:
        value: Any = run.metrics
        for key in keys:
            value = value.get(part if key == "{part}" else key) if isinstance(value, dict) else None
        return value if isinstance(value, (int, float)) and not isinstance(value, bool) else None

    read.path = keys  # type: ignore[attr-defined]  # where Tool.printed_text finds the printed token
    return read


def printed_at(run: Run, part: str | None, keys: tuple[str, ...]) -> str | None:
    """The token a parser kept beside the value at `keys` (a `printed` map in the same mapping, keyed
    by the value's name): what the tool printed for it, character for character, or None."""
    where: Any = run.metrics
    for key in keys[:-1]:
        where = where.get(part if key == "{part}" else key) if isinstance(where, dict) else None
    printed = where.get("printed") if isinstance(where, dict) else None
    last = part if keys[-1] == "{part}" else keys[-1]
    token = printed.get(last) if isinstance(printed, dict) else None
    return token if isinstance(token, str) else None


def shown(value: Any) -> str | None:
    """A table cell for a plain value: its text, or None (shown as missing, never as 0)."""
    return None if value is None else str(value)


@dataclass(frozen=True)
class Measure:
    """A runs-table cell that is a number in a unit: the table shows its whole column in one prefix,
    and `printed`, the tool's own token for it when it has one, under "Units: as printed"."""

    value: float | None
    unit: str
    printed: str | None = None


def pairs_table(title: str, table_id: str, pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """A two-column Metric / Value table; a value of None is shown as missing, a quantity (units.shown)
    as the unit switch shows it."""
    rows = [[name, value if isinstance(value, dict) else shown(value)] for name, value in pairs]
    return {"title": title, "id": table_id, "columns": ["Metric", "Value"], "rows": rows}


class Tool:
    """One benchmark tool. Subclasses set the class attributes and override what differs."""

    name: str = ""
    # The module with detect(text), parse(text), params(report, command) and optionally command_fits.
    parser: ModuleType
    formats: tuple[str, ...] = ("text",)
    # How the tool prints byte quantities ("iec": KiB/MiB, "si": kB/MB); pages show that by default.
    printed_prefixes: str = "iec"
    metrics: tuple[Metric, ...] = ()
    # For a client/server tool: the server `perfwiki bench` starts on 127.0.0.1 ({port} filled in)
    # when a suite names no server, and the line it prints once it accepts connections.
    loopback_server: tuple[str, ...] = ()
    server_ready: str = ""
    checks: tuple[Check, ...] = ()
    # Whether a column title names the part compared when it is the run's only one: an mbw
    # method or UnixBench test must be named, a lone fio direction is implied by rw.
    lone_part_in_title: bool = True
    # Display names of this tool's fingerprint parameters ("bs_bytes" -> "block size").
    fingerprint_names: dict[str, str] = {}
    # The fingerprint parameter a tool page groups its scenarios by (default: the first).
    scenario_group: str | None = None
    # Metric pairs whose ratios agree by construction (fio: bandwidth = IOPS × block size): a report
    # shows the two as one block with both columns, not the same verdict twice.
    paired_metrics: tuple[tuple[str, str], ...] = ()
    # What it loads: "storage", "network", "memory" or "cpu" ("" when a run can be any), so a
    # check knows which of an environment's facts bound it (a disk's link, not the NIC's).
    measures: str = ""

    # -- recognising and parsing ----------------------------------------------------------

    @property
    def commands(self) -> tuple[str, ...]:
        """Program names that run it (`sudo fio ...`); tools/programs.py lists them for every tool."""
        return PROGRAMS[self.name][0]

    @property
    def path_only_commands(self) -> tuple[str, ...]:
        """Names that count only when run by path (`./Run`)."""
        return PROGRAMS[self.name][1]

    def detect(self, text: str) -> float:
        """How much `text` looks like this tool's output, 0 to 1."""
        return self.parser.detect(text)

    def parse(self, text: str) -> list[ToolReport]:
        """Every invocation in one segment of output. Pure: text in, reports out."""
        return self.parser.parse(text)

    def params(self, report: ToolReport, command: str | None) -> tuple[dict[str, Any], list[str]]:
        """Normalised parameters of one invocation, and warnings where command and output disagree."""
        return self.parser.params(report, command)

    def command_fits(self, report: ToolReport, command: str) -> bool:
        """Whether a command shown apart from any output could have printed this report."""
        fits = getattr(self.parser, "command_fits", None)
        return bool(fits and fits(report, command))

    def run_name(self, run: Run) -> str:
        """What a run calls itself: its label, else the tool's name."""
        return run.label or self.name

    def name_contradictions(self, run: Run, name: str) -> list[str]:
        """What `name` says about the run that its parameters deny ('says random, ran rw=read')."""
        return []

    def name_from_params(self, run: Run) -> str:
        """A name that says what the run did, for when its own says nothing true: the tool's name."""
        return self.name

    def id_name(self, run: Run) -> str:
        """The name a run's id is made from: its own (`run_name`) when that says something (a label
        in Chinese alone has no letters an id can keep) and nothing its parameters deny, else
        `name_from_params`. An id is an address people cite: it must not say what the run is not."""
        name = self.run_name(run)
        if slug(name) and not self.name_contradictions(run, name):
            return name
        return self.name_from_params(run)

    # -- comparing ------------------------------------------------------------------------

    def parts(self, run: Run) -> list[str | None]:
        """The separately comparable parts of a run (fio directions, mbw methods); one unnamed part by default."""
        return [None]

    def scenario_parts(self, run: Run) -> list[str | None]:
        """The parts that are scenarios of their own on scenario and tool pages."""
        return self.parts(run)

    def fingerprint(self, run: Run, part: str | None) -> dict[str, Any]:
        """The parameters that must match for two results to be compared; starts with the tool."""
        return {"tool": self.name}

    # Filters the run finder offers beyond the fingerprint's parameters (pages/finder.py), by their
    # address names: fio's configured iodepth beside the effective depth its fingerprint keeps.
    finder_extra_names: tuple[str, ...] = ()

    def finder_extras(self, run: Run) -> dict[str, Any]:
        """The run's values of `finder_extra_names` (None or absent when unknown)."""
        return {}

    # -- checking -------------------------------------------------------------------------

    def check(self, run: Run, lines: list[str] | None) -> list[Finding]:
        """Every methodology finding for one run, most severe first."""
        evidence = Evidence(run, lines)
        found = [finding for rule in self.checks for finding in rule(run, evidence)]
        if not any(finding.severity == "error" for finding in found):
            found += self.error_lines(run, evidence)
        return by_severity(found)

    def error_lines(self, run: Run, evidence: Evidence) -> list[Finding]:
        """The tool's own error line among the run's ('dd: error writing …: No space left on device'):
        whatever it measured then is not the result asked for, and comparisons leave it out."""
        names = "|".join(re.escape(name) for name in self.commands)
        if not names or not any(evidence.mentions(word) for word in ("rror", "No space left", "Permission denied")):
            return []
        pattern = rf"^\s*(?:{names}):\s.*(?:\berror\b|No space left|Input/output error|Permission denied)"
        text, line = evidence.find(pattern)
        if text is None:
            return []
        return [Finding(f"{self.name}-error", "error", f"{self.name} reported an error: {text}", text, line)]

    # -- showing --------------------------------------------------------------------------

    def headline(self, run: Run) -> list[dict[str, Any]]:
        """The numbers a reader wants first from a run: every metric of every part that has a value.

        Each is {label, value, number, metric, unit, higher_is_better, part}: `value` is a
        display string, or {text, si, iec} for bytes and for a value the tool printed as a token
        of its own (the page's unit switch swaps them, units.shown); `number` the value in its
        canonical unit.
        """
        shown = []
        for part in run.fingerprints:
            for metric in self.metrics:
                value = metric.read(run, part)
                if value is None:
                    continue
                display: Any = (
                    units.shown(value, metric.unit, self.printed_prefixes, self.printed_text(run, part, metric))
                    if metric.unit != "per test"
                    else f"{value:g}"
                )
                label = metric.title
                if part and self.lone_part_in_title:  # a named result: mbw's MEMCPY, a UnixBench test
                    label = part if len(self.metrics) == 1 else f"{part} {metric.title}"
                elif part and len(run.fingerprints) > 1:  # fio's read and write of one randrw run
                    label = f"{part} {metric.title}"
                shown.append(
                    {
                        "label": label,
                        "value": display,
                        "number": value,  # canonical unit, for sorting
                        "metric": metric.key,
                        "unit": metric.unit,
                        "higher_is_better": metric.higher_is_better,
                        "part": part,
                    }
                )
        return shown

    def printed_text(self, run: Run, part: str | None, metric: Metric) -> str | None:
        """What the tool printed for this metric of this run, character for character ("1056MiB/s"),
        when one token of its output gave the value; None for a value computed from several (a sum,
        a mean) or read from output that prints numbers only (JSON). The parser keeps the tokens
        (a `printed` map beside the values); a metric read by metric_at finds them by its path."""
        path = getattr(metric.read, "path", None)
        return printed_at(run, part, path) if path else None

    def result_tables(self, run: Run) -> list[dict[str, Any]]:
        """The tables of results a run page shows after its parameters."""
        return []

    def run_charts(self, run: Run) -> list[dict[str, Any]]:
        """The charts of one run's page."""
        return []

    def badges(self, run: Run) -> list[str]:
        """Test conditions a reader must know before comparing (I/O mode, queue depth)."""
        return []

    def destroys(self, run: Run) -> str | None:
        """The device the run's command writes over, when it writes to one raw (its data is gone
        after a rerun): said beside the command a reader is invited to copy."""
        return None

    # Columns this tool's rows add to a report's runs table, after Environment and Run.
    runs_columns: tuple[str, ...] = ()

    def unit_of(self, run: Run, part: str | None, metric: Metric) -> str:
        """The unit a comparison column of this metric is in; a tool whose unit varies by part says which."""
        return metric.unit

    def runs_rows(self, run: Run) -> list[tuple[str | None, list[Any]]]:
        """(anchor suffix, cells) for each row a run adds to its report's runs table: one by default."""
        return [(None, self.runs_row(run))]

    def runs_row(self, run: Run) -> list[Any]:
        """The cells of a run's one row in the runs table, under `runs_columns`.

        A cell is display text, None (missing) or a `Measure`, which the table shows in
        its column's one unit.
        """
        return []

    def overlay_series(self, run: Run, fingerprint: dict[str, Any]) -> dict[str, Any]:
        """What one run adds to its scenario page's overlay charts."""
        return {}

    def scenario_charts(self, names: list[str], series: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """Charts overlaying every run of one scenario; `names` label the series."""
        return []

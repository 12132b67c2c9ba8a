"""Old names that keep working: a report's retired run ids and its former slugs.

A run's address is `/runs/<report slug>/<run id>/`, and narratives cite it by the same two
names. When one changes (a report folder renamed, a run id corrected because it said what the
run was not), every page, citation and export that used the old name must still reach the run.

- A report's retired run ids are in ONE committed file beside its text,
  `content/reports/<slug>/aliases.yaml`: `old-id: new-id`, one a line, written and reviewed
  with the rename it records. It is the only place an old run id lives.
- A report's former slugs are its front matter's Hugo `aliases` (`/reports/<old-slug>/`),
  which redirect its page; ingest reads them from there for everything under the report.

An old id is retired for good: ingest gives no run that id again (`read`, then
`extract.assign_ids`). It checks the table against the report's runs (`check`: every new id a
run of the report; each mistake a problem at its file and line) and writes what holds into the
report's document in data/ (`Aliases.document`). Everything that resolves a run id reads it from
there: the citing shortcodes (layouts/_partials/cite-ref.html, cited-run.html), `perfwiki
export` (`current_slug`, `resolve_run`), and the content adapters, which give each run page and
raw-file page its old addresses as Hugo aliases (`run_addresses`, `raw_addresses`).
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from . import datafile
from .model import Problem, Run, slug

# A front matter alias that names a report's old address: '/reports/<slug>/', or '<slug>' (Hugo
# reads an alias without a leading slash relative to the page's section).
_REPORT_ADDRESS = re.compile(r"/reports/([^/]+)/?")


@dataclass
class Aliases:
    """A report's old names, as checked: {old run id: run id now}, and the slugs it had before."""

    runs: dict[str, str] = field(default_factory=dict)
    slugs: list[str] = field(default_factory=list)

    def document(self) -> dict[str, Any] | None:
        """What the report's document holds of them (data/reports/<slug>.json, `aliases`), None for nothing."""
        found = {key: value for key, value in (("runs", self.runs), ("slugs", self.slugs)) if value}
        return found or None

    @functools.cached_property
    def _old_ids(self) -> dict[str, list[str]]:
        """{run id: its old ids}, once: a report's runs each ask for theirs."""
        found: dict[str, list[str]] = {}
        for old, new in self.runs.items():
            found.setdefault(new, []).append(old)
        return found

    def run_addresses(self, report: str, run_id: str) -> list[str]:
        """Every old address of a run's page: its old ids and its id, under the report's slugs now and before."""
        ids = [run_id, *self._old_ids.get(run_id, [])]
        addresses = [f"/runs/{where}/{name}/" for where in (report, *self.slugs) for name in ids]
        return [address for address in addresses if address != f"/runs/{report}/{run_id}/"]

    def raw_addresses(self, page: str) -> list[str]:
        """The old addresses of a raw file's page ('raw/<slug>/<env>/<file>'): under each former slug."""
        rest = page.split("/", 2)[2]
        return [f"/raw/{before}/{rest}/" for before in self.slugs]


def former_slugs(front_matter: dict[str, Any], report: str) -> list[str]:
    """The slugs a report had before, from its front matter's `aliases` ('/reports/<old-slug>/')."""
    found = []
    given = front_matter.get("aliases") or []
    for alias in [given] if isinstance(given, str) else given:
        address = str(alias).strip()
        match = _REPORT_ADDRESS.fullmatch(address if address.startswith("/") else f"/reports/{address}")
        if match and slug(match[1]) == match[1] and match[1] != report and match[1] not in found:
            found.append(match[1])
    return found


def check_slugs(
    root: Path, reports: dict[str, tuple[str, dict[str, Any]]]
) -> tuple[dict[str, list[str]], list[Problem]]:
    """Each report's former slugs, and a problem for one that names a report now or is claimed twice.

    `reports` is {slug: (its index.md relative to `root`, its front matter)}. A former slug that is a report's slug
    now would put a redirect where that report's pages are; one claimed by two reports would
    send its old addresses to either.
    """
    claimed: dict[str, str] = {}
    found: dict[str, list[str]] = {}
    problems = []
    for report, (path, front_matter) in reports.items():
        found[report] = []
        for before in former_slugs(front_matter, report):
            line = _line_naming(root / path, before)
            if before in reports:
                problems.append(Problem(path, line, f"alias /reports/{before}/ is the address of report {before!r}"))
            elif before in claimed:
                message = f"alias /reports/{before}/ is also an alias of report {claimed[before]!r}"
                problems.append(Problem(path, line, message))
            else:
                claimed[before] = report
                found[report].append(before)
    return found, problems


def _line_naming(path: Path, text: str) -> int:
    """The first line of a file that names `text`, else 1: where a problem about it points."""
    try:
        lines = path.read_text(encoding="utf-8-sig").split("\n")
    except OSError:
        return 1
    return next((number for number, line in enumerate(lines, start=1) if text in line), 1)


def read(path: str, text: str | None) -> tuple[dict[str, tuple[str, int]], list[Problem]]:
    """A report's aliases.yaml (its text, None when there is none): {old id: (new id, line)}, and problems.

    Each old id is retired: `extract.assign_ids` never gives it to a run again, so an address
    once published never comes to mean another run. An old id given twice, or a file that is
    not a mapping of ids to ids, is a problem at its line.
    """
    if text is None:
        return {}, []
    try:
        root = yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        return {}, [Problem(path, mark.line + 1 if mark else 1, f"not YAML: {getattr(exc, 'problem', exc)}")]
    if root is None:
        return {}, []
    shape = "must map each old run id to the run's id now, one a line: 'old-id: new-id'"
    if not isinstance(root, yaml.MappingNode):
        return {}, [Problem(path, root.start_mark.line + 1, shape)]
    entries: dict[str, tuple[str, int]] = {}
    problems = []
    for key, value in root.value:
        line = key.start_mark.line + 1
        if not (isinstance(key, yaml.ScalarNode) and isinstance(value, yaml.ScalarNode) and key.value and value.value):
            problems.append(Problem(path, line, shape))
        elif key.value in entries:
            first = entries[key.value][1]
            problems.append(Problem(path, line, f"{key.value!r} is given twice (first at line {first})"))
        else:
            entries[key.value] = (value.value, line)
    return entries, problems


def check(path: str, entries: dict[str, tuple[str, int]], runs: list[Run]) -> tuple[dict[str, str], list[Problem]]:
    """The entries of a report's aliases.yaml (`read`) that hold for its runs, {old id: run id}, and
    a problem at its line for each that does not: a new id that is no run of the report (or is an
    old id itself), an old id that a run has (only an id given by hand can be one: ingest gives none).
    An entry that does not hold is left out, so no page redirects to nowhere.
    """
    runs_by_id = {run.id: run for run in runs}
    table, problems = {}, []
    for old, (new, line) in entries.items():
        if old in runs_by_id:
            run = runs_by_id[old]
            where = f"{run.source.path}:{run.source.line_start}"
            problems.append(Problem(path, line, f"{old!r} is the id of a run ({where}): an old id cannot be a run's"))
        elif new in runs_by_id:
            table[old] = new
        elif new in entries:
            message = f"{old!r} -> {new!r}: {new!r} is an old id too (-> {entries[new][0]!r}); name the run itself"
            problems.append(Problem(path, line, message))
        else:
            problems.append(Problem(path, line, f"{old!r} -> {new!r}: the report has no run {new!r}"))
    return table, problems


def current_slug(root: Path, report: str) -> str | None:
    """The report a slug names: itself when it is a report's, else the report that had it before."""
    reports = root / "data" / "reports"
    if slug(report) != report:  # not a name a report could have had, nor a path to look up
        return None
    if (reports / datafile.name(report)).is_file():
        return report
    for path in sorted(reports.glob("*" + datafile.SUFFIX)) if reports.is_dir() else []:
        if report in ((datafile.load(path).get("aliases") or {}).get("slugs") or []):
            return path.name.removesuffix(datafile.SUFFIX)
    return None


def resolve_run(document: dict[str, Any], run_id: str) -> str | None:
    """The id now of the run a report's document knows as `run_id` (its id, or an old one), else None."""
    if any(entry["id"] == run_id for entry in document["run_index"]):
        return run_id
    return ((document.get("aliases") or {}).get("runs") or {}).get(run_id)

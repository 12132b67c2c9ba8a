"""The report page: comparison blocks (pages/comparison.py), checks summary, environments side by side, runs tables."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from .. import __version__, chartsvg, tools, underload, units
from ..aliases import Aliases
from ..findings import SEVERITY_ORDER, flags
from ..model import SCHEMA_VERSION, Run
from ..tools.base import Measure
from . import comparison, fold, network, summary
from .run import page_title, raw_page_path, run_page


@dataclass
class Report:
    """One report as ingest builds it: front matter, runs (with ids), comparisons, the environments it shows."""

    slug: str
    front_matter: dict[str, Any]
    runs: list[Run] = field(default_factory=list)
    index_path: str = ""
    comparisons_line: int = 1  # where `comparisons:` sits in index.md, for problems
    comparisons: list[dict[str, Any]] = field(default_factory=list)
    environment_pages: list[dict[str, Any]] = field(default_factory=list)  # {id, title, kind, facts}, display order
    aliases: Aliases = field(default_factory=Aliases)  # its retired run ids and former slugs, as checked

    @property
    def baseline(self) -> str | None:
        """The front matter's baseline, else the first environment."""
        chosen = self.front_matter.get("baseline")
        if chosen:
            return str(chosen)
        return self.environments[0] if self.environments else None

    @property
    def environments(self) -> list[str]:
        """Display order: the front matter's list first, then any other env with runs."""
        order = [str(env) for env in self.front_matter.get("environments") or []]
        for run in self.runs:
            if run.environment not in order:
                order.append(run.environment)
        return order


def runs_tables(runs: list[Run], listed: int = fold.RUNS_LISTED) -> list[dict[str, Any]]:
    """The report's runs, one table per tool (in registry order), each row linked to its run page.

    A table lists the tool's first `listed` runs (pages/fold.py) and says how many it has (`runs`);
    a tool's rows may be several per run (fio: one per direction). A column of measures is shown in
    one unit, which its header states. A row's cells are those of the columns but the Label, the
    run's title, which runs-table.html takes from the run's page.
    """
    tables = []
    for tool in tools.REGISTRY:
        rows = []
        shown, count = fold.first([run for run in runs if run.tool == tool.name], listed)
        for run in shown:
            for suffix, cells in tool.runs_rows(run):
                # The row's anchor is the run's id, and the part's (a fio direction) when it has several.
                row = {"run": run.id, "cells": [run.environment, run.title, *cells]}
                rows.append({**row, "part": suffix} if suffix else row)
        if rows:
            columns = ["Environment", "Label", *tool.runs_columns]
            table = {
                "tool": tool.name,
                "columns": columns,
                "runs": count,
                "listed": len(shown),
                **_in_column_units(rows, columns, tool.printed_prefixes),
            }
            for row in table["rows"]:
                # The label is the run page's title before " — <environment>": the page prints it from there.
                del row["cells"][1]
            tables.append(table)
    return tables


def _in_column_units(rows: list[dict[str, Any]], columns: list[str], printed: str) -> dict[str, Any]:
    """Measures replaced by their display in their column's one unit; the unit of each column (or None)."""
    width = len(rows[0]["cells"])
    column_units: list[Any] = [None] * width
    for index in range(width):
        measures = [row["cells"][index] for row in rows if isinstance(row["cells"][index], Measure)]
        if not measures:
            continue
        scale = units.ColumnUnits([m.value for m in measures], measures[0].unit, printed)
        caption = scale.caption()
        said = units.quantity_text(caption)
        # "IOPS" under a column named IOPS says nothing; "MiB/s" under Bandwidth does.
        column_units[index] = None if said == columns[index] else caption
        for row in rows:
            cell = row["cells"][index]
            if isinstance(cell, Measure):
                row["cells"][index] = scale.quantity(cell.value, cell.printed)
    return {"rows": rows, "units": column_units}


def with_printed(comparisons: list[dict[str, Any]], runs: list[Run]) -> list[dict[str, Any]]:
    """The comparisons with, in each cell that is one run's value, the token the tool printed for it
    (`printed`, Tool.printed_text): the table shows it under "Units: as printed". A median of several
    runs has none. Cells are copied, not changed: the report's exports publish the comparisons as
    compare.py made them."""
    by_id = {run.id: run for run in runs}
    shown = []
    for found in comparisons:
        tool = tools.get(found["tool"]) if found.get("tool") in tools.NAMES else None
        metrics = {metric.key: metric for metric in tool.metrics} if tool else {}
        rows = []
        for row in found["rows"]:
            cells = []
            for column, cell in zip(found["columns"], row["cells"], strict=True):
                run = by_id.get(cell["runs"][0]) if cell.get("n") == 1 and cell.get("runs") else None
                metric = metrics.get(column["metric"])
                token = _printed_token(tool, run, metric, column, cell["value"]) if run and metric and tool else None
                cells.append({**cell, "printed": token} if token else cell)
            rows.append({**row, "cells": cells})
        shown.append({**found, "rows": rows})
    return shown


def _printed_token(tool: Any, run: Run, metric: Any, column: dict[str, Any], value: Any) -> str | None:
    """The tool's token for the part of `run` whose `metric` is the cell's value (a fio column is one
    direction of a run, named in its parameters; an authored column names none)."""
    direction = (column.get("parameters") or {}).get("direction")
    for part in [direction] if direction else tool.parts(run):
        if metric.read(run, part) == value:
            return tool.printed_text(run, part, metric)
    return None


def raw_files(runs: list[Run], renamed: Aliases | None = None) -> list[dict[str, Any]]:
    """Each raw file the report's runs came from, once: its page, its source (and so its published copy), its sha256
    (and whether the site published it redacted), its runs' lines, and its page's old addresses when the report
    had another slug (Hugo aliases, which content/raw/_content.gotmpl gives the page)."""
    files: dict[str, dict[str, Any]] = {}
    for run in runs:
        if run.source.path not in files:
            page = raw_page_path(run.source.path)
            old = renamed.raw_addresses(page) if renamed else []
            files[run.source.path] = {
                "page": page,
                "source": run.source.path,  # published at the same path without content/ (model.published_path)
                "sha256": run.source.sha256,
                "environment": run.environment,
                "runs": [],
                **({"redacted": True} if run.source.redacted else {}),
                **({"aliases": old} if old else {}),
            }
        files[run.source.path]["runs"].append(
            {"id": run.id, "line_start": run.source.line_start, "line_end": run.source.line_end}
        )
    return list(files.values())


def run_index(report: Report) -> list[dict[str, Any]]:
    """What the runs' content adapter makes their pages from, in the report's order: id, title, and
    the page's old addresses (aliases.py: old ids, former slugs) for Hugo to redirect."""
    index = []
    for run in report.runs:
        entry = {"id": run.id, "title": page_title(run.title, run.environment)}
        old = report.aliases.run_addresses(report.slug, run.id)
        index.append({**entry, "aliases": old} if old else entry)
    return index


def checks_summary(runs: list[Run]) -> list[dict[str, Any]]:
    """Per check id: severity, message of the first finding, the first runs it flags and how many it flags
    (`count`); `varies` when another run's finding says it in other words (its own duration, its own
    depth), so the page does not pass the first run's numbers off as every run's."""
    summary: dict[str, dict[str, Any]] = {}
    for run in runs:
        for finding in run.checks:
            entry = summary.setdefault(
                finding["id"],
                {"id": finding["id"], "severity": finding["severity"], "message": finding["message"], "runs": []},
            )
            if finding["message"] != entry["message"]:
                entry["varies"] = True
            if not entry["runs"] or entry["runs"][-1] != run.id:  # a run's findings come together
                entry["runs"].append(run.id)
    ordered = sorted(summary.values(), key=lambda entry: (SEVERITY_ORDER[entry["severity"]], entry["id"]))
    return [fold.folded(entry, "runs", fold.RUNS_NAMED) for entry in ordered]


# The recommended fact vocabulary (ARCHITECTURE.md), in the order a reader scans a machine.
FACT_ORDER = (
    "host",
    "hypervisor",
    "container",
    "cpu",
    "cpus",
    "memory",
    "os",
    "kernel",
    "disk",
    "disk_model",
    "filesystem",
    "mount_options",
    "scheduler",
    "raid",
    "lvm",
    "vm_cache_mode",
    "vm_disk_bus",
    "vm_queues",
    "nic",
    "driver",
    "link_speed",
    "mtu",
    "offloads",
    "qdisc",
    "tcp_congestion",
    "network",
)


def environments_side_by_side(environments: list[dict[str, Any]]) -> dict[str, Any]:
    """Facts in rows, environments in columns; the rows that differ first, the equal ones folded.

    Each environment is {id, title, kind, facts}. A fact one environment lacks counts
    as different (shown as missing), so a gap is never hidden among equal rows. In a differing
    row, `differs` marks the cells whose value is not the first environment's (the report's
    baseline leads), so a reader sees what changed, not a whole row lit up.
    """
    if not environments:  # a report just scaffolded (`perfwiki new report`): nothing to set side by side yet
        return {"environments": [], "differing": [], "same": []}
    keys: list[str] = []
    for env in environments:
        for key in env.get("facts") or {}:
            if key not in keys:
                keys.append(key)
    ordered = [key for key in FACT_ORDER if key in keys] + sorted(key for key in keys if key not in FACT_ORDER)
    differing, same = [], []
    for key in ["kind", *ordered]:
        values = [(env.get("kind") if key == "kind" else (env.get("facts") or {}).get(key)) for env in environments]
        values = [None if value is None else str(value) for value in values]
        if len(set(values)) > 1 or len(environments) == 1:
            row: dict[str, Any] = {"fact": key, "values": values, "differs": len(environments) > 1}
            if len(environments) > 1:
                row["cells"] = [index > 0 and value != values[0] for index, value in enumerate(values)]
            differing.append(row)
        else:
            same.append({"fact": key, "value": values[0]})
    return {
        "environments": [{"id": env["id"], "title": env.get("title") or env["id"]} for env in environments],
        "differing": differing,
        "same": same,
    }


# More environments than this side by side are split into the groups the report compares.
_SIDE_BY_SIDE = 6


def compared_together(
    comparisons: list[dict[str, Any]], environments: list[str], titles_by_id: dict[str, str] | None = None
) -> list[tuple[list[str], list[str]]]:
    """The report's environments in groups that its comparisons put side by side (a host and its guests,
    one network's paths), each with the titles of those comparisons; in the report's order."""
    group_of = {env: index for index, env in enumerate(environments)}
    titles: dict[str, list[str]] = {env: [] for env in environments}

    def root(env: str) -> str:
        while environments[group_of[env]] != env:
            env = environments[group_of[env]]
        return env

    for compared in comparisons:
        present = [
            row["environment"]
            for row in compared["rows"]
            if row["environment"] in group_of and any(cell["value"] is not None for cell in row["cells"])
        ]
        if len(present) < 2:
            continue
        first = root(present[0])
        for env in present[1:]:
            other = root(env)
            if other != first:
                group_of[other] = group_of[first]
        title = (titles_by_id or {}).get(compared["id"], compared["title"])
        if title not in titles[first]:
            titles[first].append(title)
    groups: dict[str, list[str]] = {}
    for env in environments:
        groups.setdefault(root(env), []).append(env)
    named = {root(env): [] for env in environments}
    for env, said in titles.items():
        for title in said:
            if title not in named[root(env)]:
                named[root(env)].append(title)
    found = [(members, named[key]) for key, members in groups.items() if len(members) > 1]
    alone = [env for members in groups.values() if len(members) == 1 for env in members]
    if alone:  # environments no comparison sets beside another: one table of their own
        found.append((alone, []))
    return found


def environment_tables(
    pages: list[dict[str, Any]], comparisons: list[dict[str, Any]], blocks: list[dict[str, Any]]
) -> list[dict[str, Any]]:
    """The environments side by side: one table, or past _SIDE_BY_SIDE one per group compared together,
    named by the titles of the blocks that compare them (a block of IOPS and bandwidth once)."""
    if len(pages) <= _SIDE_BY_SIDE:
        return [environments_side_by_side(pages)]
    by_id = {page["id"]: page for page in pages}
    titles = {key: block["title"] for block in blocks for key in [block["id"], *block.get("aliases", [])]}
    groups = compared_together(comparisons, [page["id"] for page in pages], titles)
    if len(groups) == 1:
        return [environments_side_by_side(pages)]
    return [
        {**environments_side_by_side([by_id[env] for env in members]), "compared_in": titles}
        for members, titles in groups
    ]


@dataclass
class ReportDocuments:
    """A report's data/ documents: what every build holds (`document`, in hugo.Data), what only its
    page reads (`views`, data/views/<slug>.json) and each run page's (`runs`, data/runs/<slug>/<id>.json)."""

    document: dict[str, Any]
    views: dict[str, Any]
    runs: dict[str, dict[str, Any]]
    charts: dict[str, Any] = field(default_factory=dict)  # the specs of its charts, published as charts.json


def report_documents(report: Report, with_runs: bool = True) -> ReportDocuments:
    """The report's documents (without its runs' when `with_runs` is False: run_documents makes them).

    Only `document` is in hugo.Data, which Hugo keeps for the whole build: what the content
    adapters make the run and raw-file pages from, and what those pages look up. The report
    page's views are three quarters of a report's bytes and one page reads them, so they are
    a file it reads; run pages read files of their own. Ingest rewrites only the files of a
    report that changed, and no single document grows with the wiki.
    """
    environments = report.environments
    baseline = report.baseline
    comparisons = report.comparisons
    flagged = {run.id: flags(run) for run in report.runs if run.checks}
    blocks, alone = comparison.blocks(with_printed(comparisons, report.runs), environments, baseline, flagged)
    document = {
        "schema_version": SCHEMA_VERSION,
        "generator": f"perfwiki {__version__}",
        "report": report.slug,
        "baseline": baseline,
        "environments": environments,
        # What the runs' content adapter needs to make their pages, in the report's order. The
        # comparisons are in the report's exports, which ingest publishes (exports.report_json).
        "run_index": run_index(report),
        "raw_files": raw_files(report.runs, report.aliases),
    }
    if len(report.runs) > fold.TABLES_APART_RUNS:
        # Its tables on a page of their own, which content/reports/_content.gotmpl makes.
        document["tables"] = {"title": f"{report.front_matter.get('title') or report.slug}: tables"}
    # The one alias table (aliases.py) every citation and export resolves an old run id or slug by.
    if report.aliases.document():
        document["aliases"] = report.aliases.document()
    views = {
        "runs_tables": runs_tables(report.runs),
        "summary": summary.summary_table(comparisons, blocks, environments),
        "blocks": blocks,
        "alone": alone,
        "left_out": comparison.left_out(comparisons),
        "has_manual": any(run.format == "manual" for run in report.runs),
        "checks": checks_summary(report.runs),
        "environments": environment_tables(report.environment_pages, comparisons, blocks),
    }
    network_table = network.network_table(report.runs, environments)
    if network_table:  # iperf or ping runs: throughput, latency and loss side by side
        views["network"] = network_table
    under_load = underload.report_section(report.runs, environments)
    if under_load:  # pings paired with a load (underload.py): network reports only
        views["under_load"] = under_load
    chartsvg.attach(views)  # every chart's static rendering, read by the report page alone
    charts = chartsvg.specs_apart(views)  # fetched when the reader reaches for a chart (js/charts.js)
    runs = dict(run_documents(report, document)) if with_runs else {}
    return ReportDocuments(document, views, runs, charts)


def run_documents(
    report: Report, document: dict[str, Any], raw_pages: dict[str, dict[str, int]] | None = None
) -> Iterator[tuple[str, dict[str, Any]]]:
    """(id, page document) of each run, one at a time: ingest encodes each as it comes rather than
    holding them all (a sixth of the peak memory of a 10,000-run report). `raw_pages`: per run, the
    page of its capped raw file that shows each line its page links to, when not the first (pages/raw.py)."""
    facts = {page["id"]: page.get("facts") or {} for page in report.environment_pages}
    raw_index = {entry["source"]: number for number, entry in enumerate(document["raw_files"])}
    for run in report.runs:
        page = run_page(run, raw_index[run.source.path], facts.get(run.environment))
        if raw_pages and run.id in raw_pages:
            page["raw_pages"] = raw_pages[run.id]
        yield run.id, page

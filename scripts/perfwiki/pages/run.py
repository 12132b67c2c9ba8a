"""A run's page: headline facts, parameters, the tool's result tables and charts, the raw file it came from."""

from __future__ import annotations

from typing import Any

from .. import chartsvg, tools, units
from ..model import Run, published_path
from . import layouts, scenario_keys


def run_page(run: Run, raw: int, environment_facts: dict[str, Any] | None = None) -> dict[str, Any]:
    """What a run's page shows and nothing else: its data/ document (data/runs/<report>/<id>.json).

    The run itself, every parameter and metric, is published beside the page as index.json
    (exports.run_json); this holds the page's tables, headline and charts, and of the run only
    what the page prints as it is (command, checks, lines). `raw` is the run's raw file in its
    report's `raw_files`, which names the file and its sha256 once for all its runs. Keys
    without a value are left out: a template's `with` reads a missing key as empty.
    """
    tool = tools.get(run.tool)
    charts = tool.run_charts(run)
    document = {
        "tool": run.tool,
        "tool_version": run.tool_version,
        "format": run.format,
        "environment": run.environment,
        "command": run.command,
        "reproduce": run.reproduce,
        "destroys": tool.destroys(run),
        "raw": raw,
        "lines": [run.source.line_start, run.source.line_end],
        "checks": run.checks,
        "original_title": run.original_heading if run.original_heading != run.heading else None,
        "warnings": _not_said_by_checks(run),
        "headline": layouts.compact_headline([_headline_entry(entry) for entry in tool.headline(run)]) or None,
        "tables": [
            layouts.compact(table) for table in (_params_table(run), *tool.result_tables(run)) if _has_values(table)
        ],
        "charts": [layouts.compact_chart(chart) for chart in charts],
        "static": _static_charts(run, charts),
        "scenarios": scenario_keys(run),
        "badges": badges(run, environment_facts),
    }
    return {key: value for key, value in document.items() if value not in (None, [])}


def _static_charts(run: Run, charts: list[dict[str, Any]]) -> dict[str, list[list[str]]] | None:
    """Each chart's static rendering by its id. A chart that names only its kind is drawn from the
    run's metrics, where its page's plotly rendering will read it too (chartsvg.run_series)."""
    drawn = {chart["id"]: chartsvg.static(chartsvg.run_series(chart["plot"], run.metrics)) for chart in charts}
    return {key: renderings for key, renderings in drawn.items() if renderings} or None


def _headline_entry(entry: dict[str, Any]) -> dict[str, Any]:
    """What the page shows of a headline number: its label, its display and which way is better."""
    return {key: entry[key] for key in ("label", "value", "higher_is_better") if key in entry}


def raw_page_path(source_path: str) -> str:
    """Where a raw file's own page is: /raw/<report>/<env>/<file>/, its name's dots as dashes."""
    published = published_path(source_path).removeprefix("reports/")
    report, _, rest = published.partition("/raw/")
    return f"raw/{report}/{rest.replace('.', '-')}"


def _not_said_by_checks(run: Run) -> list[str]:
    """The run's warnings a check does not already say (the schema keeps both; the page says it once)."""
    said = {finding["message"] for finding in run.checks}
    return [warning for warning in run.warnings if warning.removeprefix("warning: ") not in said]


def _has_values(table: dict[str, Any]) -> bool:
    """A table shows something when a cell past its first column has a value (a manual run's may not)."""
    return any(cell is not None for row in table["rows"] for cell in row[1:])


def badges(run: Run, environment_facts: dict[str, Any] | None = None) -> list[str]:
    """The test conditions a reader must know before comparing: manual entry, the tool's own, the cache mode."""
    found = ["manual"] if run.format == "manual" else []
    found += tools.get(run.tool).badges(run)
    cache = (environment_facts or {}).get("vm_cache_mode") or (environment_facts or {}).get("nas_cache_mode")
    if cache:
        found.append(f"cache {cache}")
    return found


def _params_table(run: Run) -> dict[str, Any]:
    rows = []
    for key, value in run.params.items():
        if value is None:
            continue  # not given: the output did not say (fio's JSON has no numjobs when it is 1)
        if isinstance(value, list) and all(isinstance(item, dict) for item in value):
            # fio's job sections of one run (params.jobs): a row per job, its own values.
            rows += [_job_row(key, item) for item in value]
            continue
        if isinstance(value, list):
            rows.append([key, ", ".join(map(str, value))])
            continue
        if key.endswith("_bytes") and isinstance(value, (int, float)):
            shown = units.format_bytes(value)
        elif isinstance(value, bool):
            shown = "yes" if value else "no"
        elif key.endswith("_s") and isinstance(value, (int, float)):
            shown = f"{value} s"
        else:
            shown = str(value)
        rows.append([key, shown])
    return {"title": "Parameters", "id": "parameters", "columns": ["Parameter", "Value"], "rows": rows}


def _job_row(key: str, job: dict[str, Any]) -> list[str]:
    """One job section's row: 'jobs: reader' and 'rw=randread, bs=4 KiB, ioengine=psync, ...'."""
    said = []
    for name, value in job.items():
        if name == "name":
            continue
        if name.endswith("_bytes") and isinstance(value, (int, float)):
            name, value = name.removesuffix("_bytes"), units.format_bytes(value)
        elif isinstance(value, bool):
            value = "yes" if value else "no"
        said.append(f"{name}={value}")
    return [f"{key}: {job.get('name')}", ", ".join(said)]


def page_title(title: str, environment: str | None) -> str:
    """A run page's title: the run's, with its environment, as lists across reports need it."""
    return f"{title} — {environment}" if environment else title

"""A run's page: headline facts, parameters, the tool's result tables and charts, the raw file it came from."""

from __future__ import annotations

from typing import Any

from .. import tools, units
from ..model import Run, published_path
from . import scenario_keys


def run_page(run: Run, environment_facts: dict[str, Any] | None = None) -> dict[str, Any]:
    """Title, tables, charts and badges of one run's page, and its link to the published raw file."""
    tool = tools.get(run.tool)
    return {
        "title": page_title(run.title, run.environment),
        "original_title": run.original_heading if run.original_heading != run.heading else None,
        "raw_url": run.source.published_path,
        "raw_page": raw_page_path(run.source.path),
        "warnings": _not_said_by_checks(run),
        "headline": tool.headline(run),
        "tables": [table for table in (_params_table(run), *tool.result_tables(run)) if _has_values(table)],
        "charts": tool.run_charts(run),
        "scenarios": scenario_keys(run),
        "badges": badges(run, environment_facts),
    }


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
        if key.endswith("_bytes"):
            shown = units.format_bytes(value)
        elif isinstance(value, bool):
            shown = "yes" if value else "no"
        elif key.endswith("_s") and isinstance(value, (int, float)):
            shown = f"{value} s"
        else:
            shown = str(value)
        rows.append([key, shown])
    return {"title": "Parameters", "id": "parameters", "columns": ["Parameter", "Value"], "rows": rows}


def page_title(title: str, environment: str | None) -> str:
    """A run page's title: the run's, with its environment, as lists across reports need it."""
    return f"{title} — {environment}" if environment else title

"""Exports: every CSV the site offers, made here and only here (templates print them as they are)."""

from __future__ import annotations

import csv
import io
from typing import Any

from .model import Run


def _csv(header: list[str], rows: list[list[Any]]) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(header)
    writer.writerows(rows)
    return out.getvalue()


def _flatten(prefix: str, value: Any, out: list[tuple[str, Any]]) -> None:
    if isinstance(value, dict):
        for key, item in value.items():
            _flatten(f"{prefix}.{key}" if prefix else str(key), item, out)
    elif isinstance(value, list):
        for index, item in enumerate(value):
            _flatten(f"{prefix}[{index}]", item, out)
    else:
        out.append((prefix, value))


def run_csv(run: Run) -> str:
    """Every parameter and metric of a run as `path,value` rows (metrics in canonical units)."""
    rows: list[tuple[str, Any]] = []
    _flatten("params", run.params, rows)
    _flatten("metrics", run.metrics, rows)
    return _csv(["field", "value"], [[path, "" if value is None else value] for path, value in rows])


def comparisons_csv(comparisons: list[dict[str, Any]]) -> str:
    """Every comparison cell as one CSV row, for spreadsheets."""
    rows = []
    for comparison in comparisons:
        for row in comparison["rows"]:
            for column, cell in zip(comparison["columns"], row["cells"], strict=True):
                rows.append(
                    [
                        comparison["title"],
                        comparison["metric"],
                        comparison["unit"],
                        row["environment"],
                        column["title"],
                        column["scenario"],
                        "" if cell["value"] is None else cell["value"],
                        "" if cell["relative"] is None else cell["relative"],
                        cell["n"],
                    ]
                )
    header = ["comparison", "metric", "unit", "environment", "column", "scenario", "value", "relative", "n"]
    return _csv(header, rows)


def environment_runs_csv(entries: list[dict[str, Any]]) -> str:
    """Every run on one environment, across reports: report, run id, tool, label."""
    return _csv(
        ["report", "run", "tool", "label"], [[e["report"], e["id"], e["tool"], e["label"] or ""] for e in entries]
    )

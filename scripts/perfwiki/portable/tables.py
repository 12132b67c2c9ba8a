"""A report block's table (a comparison, or one environment's profile) as plain rows, for both formats."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..units import quantity_text


@dataclass
class Cell:
    value: str | None  # as the report page prints it; None: no comparable run (n/a)
    run: str | None  # the run it comes from
    relative: str | None = None  # % of the baseline
    manual: bool = False  # typed by hand
    verdict: str | None = None  # better, worse, baseline: the page's colour
    artefact: str | None = None  # why it is not a speed result (artefacts.py)


@dataclass
class Row:
    label: str
    link: str | None  # the environment's or the scenario's page, relative to the wiki
    baseline: bool
    cells: list[Cell]


@dataclass
class Table:
    corner: str  # what the rows are: Environment or Scenario
    columns: list[str]  # "title (unit, direction)"
    rows: list[Row]


def _cell(cell: dict[str, Any]) -> Cell:
    if not cell.get("text") and not cell.get("iec"):
        return Cell(None, None)
    return Cell(
        quantity_text(cell),
        cell.get("run"),
        cell.get("relative"),
        bool(cell.get("manual")),
        cell.get("class"),
        cell.get("artefact"),
    )


def _column(title: str, column: dict[str, Any]) -> str:
    return f"{title} ({quantity_text(column['unit'])}, {column['direction']})"


def table(block: dict[str, Any]) -> Table:
    """The block's table as its page shows it: environments x scenarios, or scenarios x metrics."""
    if block["kind"] == "comparison":
        data = block["table"]
        return Table(
            "Environment",
            [_column(column["title"], column) for column in data["columns"]],
            [
                Row(
                    row["environment"],
                    f"environments/{row['environment']}/",
                    row["environment"] == block.get("baseline"),
                    [_cell(cell) for cell in row["cells"]],
                )
                for row in data["rows"]
            ],
        )
    data = block["table"]
    return Table(
        "Scenario",
        [_column(metric["title"], metric) for metric in data["metrics"]],
        [
            Row(row["scenario"], f"scenarios/{row['scenario_key']}/", False, [_cell(cell) for cell in row["cells"]])
            for row in data["rows"]
        ],
    )


def verdict(block: dict[str, Any]) -> str | None:
    return quantity_text(block["verdict"]) if block.get("verdict") else None

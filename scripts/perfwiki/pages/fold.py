"""How much of a long list of runs a page shows: the first few, and how many there are in all.

A report of 100,000 runs in one file made a 48.5 MB page that froze the browser (issue 32). A table
of thousands of rows is searched rather than read, and the Runs page (/runs/?report=<slug>,
js/runs.js) filters, sorts and pages through every run in the browser, so a page lists the first
RUNS_LISTED runs and says how many more there are and where they are.
"""

from __future__ import annotations

from typing import Any, TypeVar

T = TypeVar("T")

# Runs a table lists (a report's per tool, a scenario's, an environment's): as many as the Runs page
# shows at a time (js/runs.js, PAGE). A row of a report's fio runs table is some 450 bytes of HTML,
# so a table is under 100 KB a direction whatever the report's size.
RUNS_LISTED = 200
# A report of more runs than this keeps its tables on a page of their own (/reports/<slug>/tables/):
# the per-environment summary, each comparison's medians, ranges and runs, and the runs tables. Its
# page keeps the verdicts and the charts. A report of 300 runs and 60 charts made a 586 KiB page
# whose tables were 354 KiB, the whole of it parsed and laid out before its first chart showed on a
# phone (issue 32); the example's largest report, 93 runs, is 193 KiB with its tables.
TABLES_APART_RUNS = 100
# Runs named in a line of text (a check's runs, the runs left out of comparisons): a link each.
RUNS_NAMED = 50


def first(items: list[T], limit: int) -> tuple[list[T], int]:
    """The first `limit` items and how many there are in all."""
    return items[:limit], len(items)


def folded(entry: dict[str, Any], key: str, limit: int) -> dict[str, Any]:
    """`entry` with its list `key` cut to the first `limit`, and that list's whole length as `count`."""
    shown, count = first(entry[key], limit)
    return {**entry, key: shown, "count": count}

"""One answer per environment: the table a report of three or more environments opens with.

A long report answers "which is faster" once per comparison; a reader of a report of nine
guests wants one line per guest first. Each comparison block of two or more environments
gives a group of rows, one per environment that is not its baseline: the geometric mean of
its speed factors over the like-for-like scenarios it shares with the baseline (artefacts
left out, and counted), how many of those it wins, loses or draws by noise.py's rule, and a
bar on a log scale around 1× that a phone draws without any script.
"""

from __future__ import annotations

import math
from typing import Any

from .. import noise, units, verdict
from .comparison import direction, metric_title

# Where the bars end: a factor of 4 either way fills half the bar (log scale); past it they stop.
_BAR_REACH = math.log(4)


def _bar(found: float) -> dict[str, Any]:
    """Where a factor's bar starts and how wide it is, in % of the cell: from the 1× line in the middle,
    right when faster, left when slower."""
    width = round(min(abs(math.log(found)) / _BAR_REACH, 1.0) * 50, 1)
    faster = found > 1
    return {"side": "faster" if faster else "slower", "left": 50 if faster else round(50 - width, 1), "width": width}


def _row(
    env: str,
    like: list[verdict.Entry],
    artefacts: list[verdict.Entry],
    failed: int,
    unit: str | None = None,
    unlike: list[str] | None = None,
) -> dict[str, Any]:
    even = [entry for entry in like if entry[2].get("even")]
    beyond = [entry for entry in like if not entry[2].get("even")]
    row: dict[str, Any] = {
        "environment": env,
        "scenarios": len(like),
        "better": sum(1 for entry in beyond if entry[0] > 1),
        "worse": sum(1 for entry in beyond if entry[0] < 1),
        "even": len(even),
        "left_out": len(artefacts) + failed,
    }
    if any(entry[2].get("manual") for entry in like):
        row["manual"] = True
    if artefacts:
        row["artefact"] = artefacts[0][2]["artefact"]
    if unlike:  # runs of another scenario than the baseline's, refused from the columns (compare.py)
        row["unlike"], row["unlike_reason"] = len(unlike), unlike[0]
    if like:
        mean = verdict.geometric_mean([entry[0] for entry in like])
        row["factor"] = round(mean, 4)
        row["mean"] = units.ratio_text(mean)
        # One form per column: the ratio says how much, the word only which way. An even mean over
        # wins and losses (reads 30 % faster, writes 35 % slower) is "mixed", never "even".
        if noise.even_factor(mean) or not (row["better"] or row["worse"]):
            # Every scenario even by its repeats' noise is even, whatever the mean of their ratios.
            row["said"] = "mixed" if row["better"] and row["worse"] else "even"
        else:
            row["said"] = verdict.words(unit)[0 if mean > 1 else 1]  # "better"/"worse" for what is no speed
        row["bar"] = _bar(mean)
        if row["said"] == "even":  # grey: a red or green sliver beside "1.00× even" says slower or faster
            row["bar"]["side"] = "even"
    return row


def _refused(comparison: dict[str, Any]) -> tuple[dict[str, int], dict[str, list[str]]]:
    """Per environment, the runs refused because they failed (findings.failure), and the reasons of
    those refused as another scenario than the baseline's ("queue depth 16, not 1")."""
    failed: dict[str, int] = {}
    unlike: dict[str, list[str]] = {}
    for column in comparison["columns"]:
        for entry in column.get("refused") or []:
            if entry.get("failed"):
                failed[entry["environment"]] = failed.get(entry["environment"], 0) + 1
            else:
                unlike.setdefault(entry["environment"], []).append(entry.get("reason") or "")
    return failed, unlike


def summary_table(
    comparisons: list[dict[str, Any]], blocks: list[dict[str, Any]], environments: list[str]
) -> dict[str, Any] | None:
    """The report's summary: a group of rows per comparison block, or None under three environments.

    `comparisons` are the report's comparisons; `blocks` its blocks (pages/comparison.blocks), whose
    ids say which comparisons are shown and in which order (a block of IOPS and bandwidth is one).
    """
    if len(environments) < 3:
        return None
    by_id = {comparison["id"]: comparison for comparison in comparisons}
    groups = []
    for block in blocks:
        comparison = by_id.get(block["id"]) if block["kind"] == "comparison" else None
        if comparison is None:
            continue
        like, artefacts = verdict.split(comparison)
        failed, unlike = _refused(comparison)
        baseline = comparison["baseline"]
        if baseline not in like:
            continue  # its verdict says why: every factor is to a result that is no speed result
        rows = [
            _row(
                row["environment"],
                like.get(row["environment"], []),
                artefacts.get(row["environment"], []),
                failed.get(row["environment"], 0),
                comparison["columns"][0].get("unit"),
                unlike.get(row["environment"]),
            )
            for row in comparison["rows"]
            if row["environment"] != baseline and (row["environment"] in like or row["environment"] in artefacts)
        ]
        if not rows:
            continue
        # Fastest first; an environment with nothing like-for-like last.
        rows.sort(key=lambda row: -row["factor"] if "factor" in row else math.inf)
        group = {
            "block": block["id"],
            "title": block["title"],
            "baseline": baseline,
            "metric": f"{metric_title(comparison)}, {direction(comparison['higher_is_better'])}",
            "rows": rows,
        }
        # What "another scenario" in its rows means, said once under the table.
        reasons = list(dict.fromkeys(row["unlike_reason"] for row in rows if row.get("unlike_reason")))
        if reasons:
            group["unlike_reasons"] = reasons
        groups.append(group)
    return {"groups": groups} if groups else None

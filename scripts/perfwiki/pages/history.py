"""History: one environment's runs of one scenario across reports, in date order, and which
changes between consecutive reports are larger than the runs' noise.

A report measured again later (a new kernel, firmware or cache mode, or another load on the
machine) gives the same environment and scenario a second point. Each point is the median of that
report's runs. A change is flagged, as a regression or an improvement by the metric's direction,
when it is larger than the noise: with repeats on both sides, when their min-max ranges do not
overlap; with a single run on either side, which says nothing of its noise, when it exceeds
noise.EVEN (noise.py: the one rule verdicts, tables and histories share). asv does the same for a
benchmark suite's commits.
"""

from __future__ import annotations

import statistics
import uuid
from typing import Any

from .. import noise, tools, units


def measured(values: Any) -> list[float]:
    """The numbers among a metric's values: a run that did not measure it holds None."""
    return [value for value in values if isinstance(value, (int, float)) and not isinstance(value, bool)]


def _point(report: str, date: str, runs: list[dict[str, Any]]) -> dict[str, Any]:
    """One report's runs of the scenario on the environment: the median of each metric, and the range."""
    columns = list(zip(*(run["numbers"] for run in runs), strict=True))
    medians, lows, highs = [], [], []
    for column in columns:
        numbers = measured(column)
        medians.append(statistics.median(numbers) if numbers else None)
        lows.append(min(numbers) if numbers else None)
        highs.append(max(numbers) if numbers else None)
    return {
        "report": report,
        "date": date,
        "runs": [run["run"] for run in runs],
        "values": medians,
        "low": lows,
        "high": highs,
    }


def _change(tool: str, before: dict[str, Any], after: dict[str, Any]) -> dict[str, Any] | None:
    """What changed between two consecutive points, judged on the tool's first metric."""
    metrics = tools.get(tool).metrics
    old, new = before["values"][0], after["values"][0]
    if not metrics or not old or new is None:
        return None
    metric = metrics[0]
    ratio = new / old
    # noise.py's rule, the one verdicts and tables use: a change flagged here is "faster" or
    # "slower" on every page, and one within the noise is "even" everywhere.
    before_spread = noise.Spread(len(before["runs"]), before["low"][0], before["high"][0])
    after_spread = noise.Spread(len(after["runs"]), after["low"][0], after["high"][0])
    beyond = not noise.is_even(ratio, after_spread, before_spread)
    noise_said = noise.rule(beyond, after_spread, before_spread)
    kind = "noise"
    if beyond:
        kind = "improvement" if (ratio > 1) == metric.higher_is_better else "regression"
    said = []
    for index, each in enumerate(metrics):
        a, b = before["values"][index], after["values"][index]
        if a is None or b is None or each.unit == "per test":
            continue
        scale = units.scale_for([a, b], each.unit)  # both in one unit: 57,905 → 8,361
        said.append(f"{each.title} {scale.text(a)} → {scale.text(b)} ({_percent(b / a if a else None)})")
    return {"kind": kind, "ratio": ratio, "metric": metric.title, "noise": noise_said, "text": "; ".join(said)}


def _percent(ratio: float | None) -> str:
    if ratio is None:
        return "n/a"
    if ratio >= 2:
        return units.ratio_text(ratio)
    change = (ratio - 1) * 100  # three significant digits, as every computed number (units.significant)
    return f"{'−' if change < 0 else '+'}{units.significant(abs(change))} %"


def histories(scenarios: dict[str, dict[str, Any]], dates: dict[str, str]) -> dict[str, list[dict[str, Any]]]:
    """Per scenario key, each environment measured in two or more reports: its points by date and the changes.

    `dates` is each report's date (ISO text); a report without one sorts first, by its slug.
    """
    found: dict[str, list[dict[str, Any]]] = {}
    for key, scenario in scenarios.items():
        by_environment: dict[str, dict[str, list[dict[str, Any]]]] = {}
        for run in scenario["runs"]:
            if run.get("failed") or run.get("artefact"):
                continue  # a failed job or a cache hit is no point of a disk's history
            by_environment.setdefault(run["environment"], {}).setdefault(run["report"], []).append(run)
        for environment, reports in sorted(by_environment.items()):
            if len(reports) < 2:
                continue
            order = sorted(reports, key=lambda report: (dates.get(report) or "", report))
            points = [_point(report, dates.get(report) or "", reports[report]) for report in order]
            changes = []
            for index in range(1, len(points)):
                change = _change(scenario["tool"], points[index - 1], points[index])
                if change:
                    before, after = points[index - 1], points[index]
                    changes.append(
                        {
                            "from": before["report"],
                            "from_date": before["date"],
                            "from_runs": before["runs"],
                            "to": after["report"],
                            "to_date": after["date"],
                            "to_runs": after["runs"],
                            **change,
                        }
                    )
            found.setdefault(key, []).append({"environment": environment, "points": points, "changes": changes})
    return found


def trend_chart(tool: str, series: list[dict[str, Any]]) -> dict[str, Any] | None:
    """The trend of a scenario's first metric by date, one line per environment, each point marked
    when the change that led to it was flagged."""
    metrics = tools.get(tool).metrics
    if not metrics or not series:
        return None
    flags = []
    for entry in series:
        kinds = {change["to"]: change["kind"] for change in entry["changes"]}
        flags.append([kinds.get(point["report"], "") for point in entry["points"]])
    return {
        "id": "chart-history",
        "title": f"{metrics[0].title} by report date",
        "plot": {
            "kind": "trend",
            "unit": metrics[0].unit,
            "metric": metrics[0].title,
            "series": [
                {
                    "name": entry["environment"],
                    "x": [point["date"] for point in entry["points"]],
                    "values": [point["values"][0] for point in entry["points"]],
                    "reports": [point["report"] for point in entry["points"]],
                    "flags": flag,
                }
                for entry, flag in zip(series, flags, strict=True)
            ],
        },
    }


def atom_time(date: str | None) -> str:
    """A report's date as Atom's RFC 3339 wants it, in UTC: "2026-11-24" is that day's midnight."""
    if not date:
        return "1970-01-01T00:00:00Z"
    return date.replace(" ", "T") + ("Z" if " " in date else "T00:00:00Z")


def change_id(scenario: str, environment: str, change: dict[str, Any]) -> str:
    """An Atom entry id for a change that survives renamed runs and reports: a UUID of what was
    measured (scenario, environment) and when (the two reports' dates, their slugs without one)."""
    when = [change.get("from_date") or change["from"], change.get("to_date") or change["to"]]
    return "urn:uuid:" + str(
        uuid.uuid5(uuid.NAMESPACE_URL, "/".join(["perfwiki-change", scenario, environment, *when]))
    )


def flagged_changes(
    histories: dict[str, list[dict[str, Any]]], scenarios: dict[str, dict[str, Any]]
) -> list[dict[str, Any]]:
    """Every change beyond the noise between consecutive reports of one scenario on one environment,
    across the wiki, newest first: what /regressions/ lists and its Atom feed carries."""
    found = []
    for key, entries in histories.items():
        for entry in entries:
            for change in entry["changes"]:
                if change["kind"] == "noise":
                    continue
                found.append(
                    {
                        "id": change_id(key, entry["environment"], change),
                        "updated": atom_time(change.get("to_date")),
                        "scenario": key,
                        "description": scenarios[key]["description"],
                        "tool": scenarios[key]["tool"],
                        "environment": entry["environment"],
                        "percent": _percent(change["ratio"]),
                        **change,
                    }
                )
    return sorted(
        found, key=lambda c: (c["to_date"] or "", c["from_date"] or "", c["scenario"], c["environment"]), reverse=True
    )

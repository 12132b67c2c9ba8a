"""Scenario, tool and environment pages: which runs did the same thing, and where, across every report."""

from __future__ import annotations

import datetime
import statistics
from collections.abc import Callable
from typing import Any

from .. import artefacts, chartsvg, datafile, noise, tools, units
from ..compare import describe, differences, fingerprint_key, parameter_name, parameter_text
from ..findings import failure, flags
from ..model import Run
from . import finder, fold, history, layouts, scenario_keys


def _headline(run: Run, part: str | None) -> list[tuple[str, Any, Any]]:
    """The metrics a scenario page lists per run: (title, displayed, number in its canonical unit)."""
    tool = tools.get(run.tool)
    shown = []
    for metric in tool.metrics:
        value = metric.read(run, part)
        if metric.unit == "per test":
            shown.append((metric.title, value, value))
            continue
        # One run's value: as the tool printed it when it did (units.shown), else in its one format.
        display = units.shown(value, metric.unit, tool.printed_prefixes, tool.printed_text(run, part, metric))
        shown.append((metric.title, display, value))
    return shown


# The most runs a scenario page overlays in one chart. A report's share keeps the series of one
# run more than that per scenario, no more: past it the chart is left out whatever the other
# reports hold, and a 100,000-run wiki's shares carried every run's series for nothing.
OVERLAID = 12


def report_date(value: Any) -> str | None:
    """A report's front matter date as history orders it: "2026-11-24", or "2026-11-24 23:43:11" (UTC)."""
    if isinstance(value, datetime.datetime):
        if value.tzinfo is not None:
            value = value.astimezone(datetime.UTC).replace(tzinfo=None)
        return value.strftime("%Y-%m-%d %H:%M:%S")
    if isinstance(value, datetime.date):
        return value.isoformat()
    return str(value) if value else None


def decided_across(comparisons: list[dict[str, Any]], runs: list[Run]) -> list[dict[str, Any]]:
    """The scenarios a report put side by side on purpose: each column of its comparisons that
    compares across a parameter (`ignore: [ioengine]`) and holds runs of more than one scenario.
    The compare page honours them as the report does (compare_index)."""
    by_id = {run.id: run for run in runs}
    found: list[dict[str, Any]] = []
    for comparison in comparisons:
        for index, column in enumerate(comparison["columns"]):
            if not column.get("compared_across"):
                continue
            keys = set()
            for row in comparison["rows"]:
                cell = row["cells"][index] if index < len(row["cells"]) else None
                for run_id in (cell or {}).get("runs") or []:
                    if (run := by_id.get(run_id)) is not None and run.fingerprints:
                        keys.add(fingerprint_key(_closest(run, column["parameters"])))
            entry = {"scenarios": sorted(keys), "across": column["compared_across"], "column": column["title"]}
            if len(keys) > 1 and entry not in found:
                found.append(entry)
    return found


def _closest(run: Run, parameters: dict[str, Any]) -> dict[str, Any]:
    """The run's fingerprint (of its parts: a randrw run's read or write) that a column's is: the one
    that shares the most of its parameters."""
    return max(
        run.fingerprints.values(),
        key=lambda print_: sum(print_.get(key) == value for key, value in parameters.items()),
    )


def index_share(
    report: str, runs: list[Run], title: str | None = None, date: Any = None, decided: list[dict[str, Any]] = ()
) -> dict[str, Any]:
    """One report's share of the scenario and tool pages; site_index merges the shares.

    Ingest keeps each report's share with the report, so an unchanged report is not
    re-read to rebuild the index. A share carries, per scenario entry, the series its
    overlay charts need.
    """
    scenarios: dict[str, dict[str, Any]] = {}
    by_tool: dict[str, dict[str, Any]] = {}
    environments: dict[str, list[dict[str, Any]]] = {}
    facet_sets: dict[bytes | str, dict[str, list[Any]]] = {}
    for run in runs:
        tool = by_tool.setdefault(run.tool, {"runs": 0, "scenarios": []})
        tool["runs"] += 1
        environments.setdefault(run.environment, []).append(
            {
                "report": report,
                "id": run.id,
                "title": run.title,
                "tool": run.tool,
                "label": run.label,
                "command": run.command,
                # What the environment page lists beside the run: its first three headline numbers.
                "key_results": [
                    {"label": entry["label"], "value": entry["value"], "number": entry.get("number")}
                    for entry in tools.get(run.tool).headline(run)[:3]
                ],
                # What the run finder filters it by (rw, bs, qd, protocol, ...): pages/finder.py. Runs
                # of one scenario have the same: one mapping, pickled once (reading them took a
                # quarter of the time at 100,000 runs), which the finder walks once.
                "facets": finder.interned(finder.run_facets(run), facet_sets),
                # Its scenarios, for the finder's "compare these" (the compare page's ?scenario=).
                "scenarios": scenario_keys(run),
                # What the finder lists under its title (direct, psync, QD1 (iodepth=64, psync) x 1),
                # and how many checks flag it (⚠ on its page): a buffered "QD1" is read as one.
                "badges": tools.get(run.tool).badges(run),
                "flags": len(flags(run)),
            }
        )
        for part in tools.get(run.tool).scenario_parts(run):
            print_ = run.fingerprints[part]
            key = fingerprint_key(print_)
            scenario = scenarios.setdefault(
                key,
                {"tool": run.tool, "description": describe(print_), "fingerprint": print_, "runs": [], "series": []},
            )
            headline = _headline(run, part)
            scenario["runs"].append(
                {
                    "report": report,
                    "run": run.id,
                    "environment": run.environment,
                    "title": run.title,
                    "values": [value for _, value, _ in headline],
                    # The numbers behind them, for the compare page (compare_index); not in data/.
                    "numbers": [number for _, _, number in headline],
                    # Not a speed result: the compare page and histories leave them out, and say why.
                    **({"failed": failed} if (failed := failure(run)) else {}),
                    **({"artefact": reason} if (reason := artefacts.artefact(run)) else {}),
                    **({"manual": True} if run.format == "manual" else {}),
                    # What the report's ⚠ says of the run: the compare page shows it beside its value.
                    **({"checks": flagged} if (flagged := flags(run)) else {}),
                }
            )
            if len(scenario["series"]) <= OVERLAID:  # one more says the chart is left out (_scenario_charts)
                scenario["series"].append(tools.get(run.tool).overlay_series(run, print_))
            scenario["columns"] = [title for title, _, _ in headline]
            if key not in tool["scenarios"]:
                tool["scenarios"].append(key)
    return {
        "report": report,
        "title": title or report,
        "date": report_date(date),
        "scenarios": scenarios,
        "tools": by_tool,
        "environments": environments,  # what the run finder lists (cached apart: ingest.py, "listings")
        # What each environment's page lists of these runs, made here with the report rather than for
        # every report's runs each time the site index is (0.26 s at 100,000 runs).
        "environment_pages": {env: [_environment_entry(run) for run in runs] for env, runs in environments.items()},
        "decided": list(decided),
    }


# A report's overlay series by scenario, for the reports whose shares were kept without them.
Overlays = Callable[[str], dict[str, list[dict[str, Any]]]]


def _merged_scenarios(
    shares: list[dict[str, Any]], overlays: Overlays | None = None
) -> tuple[dict[str, dict[str, Any]], dict[str, list[Any]]]:
    """Every report's share of each scenario as one: its runs across reports, in report order, and
    (site_index, with `overlays`) the overlay series of those runs, as many as _scenario_charts
    reads: past OVERLAID it draws none, so a scenario run in 500 reports needs the first few of
    them. A share kept without its series (ingest's "series" entries, two fifths of the bytes at
    100,000 runs) has them asked of `overlays(report)` only then."""
    scenarios: dict[str, dict[str, Any]] = {}
    series: dict[str, list[dict[str, Any]]] = {}
    for share in sorted(shares, key=lambda share: share["report"]):
        for key, found in share["scenarios"].items():
            scenario = scenarios.setdefault(
                key,
                {"tool": found["tool"], "description": found["description"], "fingerprint": found["fingerprint"]},
            )
            scenario.setdefault("runs", []).extend(found["runs"])
            scenario["columns"] = found["columns"]
            overlaid = series.setdefault(key, [])
            if overlays is not None and len(overlaid) <= OVERLAID:
                overlaid.extend(found["series"] if "series" in found else overlays(share["report"])[key])
    return scenarios, series


def site_index(shares: list[dict[str, Any]], overlays: Overlays | None = None) -> dict[str, Any]:
    """Scenario, tool and environment pages across every report: which runs did the same thing, and where.
    `overlays` gives the series of a share kept without them (_merged_scenarios)."""
    scenarios, series = _merged_scenarios(shares, overlays or _series_kept)
    by_tool: dict[str, dict[str, Any]] = {}
    environments: dict[str, list[dict[str, Any]]] = {}
    for share in sorted(shares, key=lambda share: share["report"]):
        for env, entries in share["environment_pages"].items():
            environments.setdefault(env, []).extend(entries)
        for name, counted in share["tools"].items():
            tool = by_tool.setdefault(name, {"runs": 0, "reports": [], "scenarios": []})
            tool["runs"] += counted["runs"]
            tool["reports"].append(share["report"])
            tool["scenarios"] += [key for key in counted["scenarios"] if key not in tool["scenarios"]]
    dates = {share["report"]: share.get("date") for share in shares}
    histories = history.histories(scenarios, dates)
    for key, scenario in scenarios.items():
        scenario["charts"] = _scenario_charts(scenario, series[key])
        if key in histories:
            scenario["history"] = histories[key]
            scenario["history_chart"] = history.trend_chart(scenario["tool"], histories[key])
    for name, tool in by_tool.items():
        tool["groups"], tool["columns"], tool["grouped_by"] = _grouped(
            name, {key: scenarios[key] for key in tool["scenarios"]}
        )
    by_environment: dict[str, list[dict[str, Any]]] = {}
    for key in sorted(histories):
        for entry in histories[key]:
            chart = history.trend_chart(scenarios[key]["tool"], [entry])
            chart["id"] = f"chart-history-{len(by_environment.get(entry['environment'], [])) + 1}"
            by_environment.setdefault(entry["environment"], []).append(
                {
                    "scenario": key,
                    "description": scenarios[key]["description"],
                    "changes": entry["changes"],
                    "chart": chart,
                }
            )
    return {
        "scenarios": scenarios,
        "tools": by_tool,
        "environments": environments,
        "related": _related(scenarios),
        "history": by_environment,
        "dates": dates,
        "changes": history.flagged_changes(histories, scenarios),
    }


def _series_kept(report: str) -> dict[str, list[dict[str, Any]]]:
    raise ValueError(f"the share of {report} was kept without its overlay series, and none were given")


def _grouped(tool: str, scenarios: dict[str, dict[str, Any]]) -> tuple[list[dict[str, Any]], list[str], str]:
    """A tool's scenarios as tables: grouped by the parameter the tool groups by (fio: rw), sorted by the rest.

    Returns the groups, {title, rows: [{scenario, cells, runs, environments}]}, the column
    names, and the name of the parameter grouped by.
    """
    known = tools.get(tool) if tool in tools.NAMES else None
    names = known.fingerprint_names if known else {}
    keys = [key for key in next(iter(scenarios.values()))["fingerprint"] if key != "tool"] if scenarios else []
    group_key = known.scenario_group if known and known.scenario_group in keys else (keys[0] if keys else None)
    rest = [key for key in keys if key != group_key]
    groups: dict[str, list[dict[str, Any]]] = {}
    for key, scenario in scenarios.items():
        print_ = scenario["fingerprint"]
        groups.setdefault(str(print_.get(group_key)), []).append(
            {
                "scenario": key,
                "sort": [_sortable(print_.get(name)) for name in rest],
                "cells": [parameter_text(name, print_.get(name)) for name in rest],
                "runs": len(scenario["runs"]),
                "environments": len({run["environment"] for run in scenario["runs"]}),
            }
        )
    title = names.get(group_key, group_key) if group_key else ""
    ordered = []
    for value in sorted(groups):
        rows = sorted(groups[value], key=lambda row: row["sort"])
        for row in rows:
            del row["sort"]
        ordered.append({"title": f"{title} {value}".strip(), "rows": rows})
    return ordered, [names.get(name, name) for name in rest], title


def _sortable(value: Any) -> tuple[int, float, str]:
    """Numbers in numeric order, then text, then missing values last."""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return (0, float(value), "")
    return (1, 0.0, "") if value is None else (1, 0.0, str(value))


# How many related environments an environment page names: the closest ones. A scenario run on
# every environment of a large wiki would otherwise make each page list all of them (2,000
# names per page, 240 MB of data/ at 100,000 runs).
RELATED_SHOWN = 12


def _related(scenarios: dict[str, dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """For each environment, the others that ran at least one of its scenarios.

    Returns {env: {"closest": [{environment, scenarios}], "count": n}}: the RELATED_SHOWN
    sharing the most scenarios (then by name), and how many there are in all.

    The counts are bit-sliced: each scenario is a bit set over the environments (in name order),
    and an environment's count against every other is the sum of its scenarios' sets, added as
    binary planes (plane p holds bit p of every count), a few big-integer operations per scenario.
    Comparing every pair of environments took 0.35 s at 100,000 runs (2,000 environments, 157
    scenarios), on the critical path of an ingest that changes one report's results; counting
    scenario by scenario took time in the square of the environments on each.
    """
    scenario_sets: dict[str, list[int]] = {}
    for bit, scenario in enumerate(scenarios.values()):
        for run in scenario["runs"]:
            if run["environment"]:
                scenario_sets.setdefault(run["environment"], []).append(bit)
    names = sorted(scenario_sets)
    environments = [0] * len(scenarios)  # per scenario, the environments that ran it, bit i for names[i]
    for index, name in enumerate(names):
        for bit in scenario_sets[name]:
            environments[bit] |= 1 << index
    related = {}
    for index, name in enumerate(names):
        planes: list[int] = []
        for bit in dict.fromkeys(scenario_sets[name]):  # a scenario once, however many runs it has here
            carry = environments[bit]
            for plane, held in enumerate(planes):
                planes[plane], carry = held ^ carry, held & carry
                if not carry:
                    break
            else:
                planes.append(carry)
        others = 0
        for held in planes:
            others |= held
        others &= ~(1 << index)  # not its own relative
        count = others.bit_count()
        if not count:
            continue
        closest: list[dict[str, Any]] = []
        while others and len(closest) < RELATED_SHOWN:
            # Those left that share the most: kept plane by plane from the highest down, where any has it.
            most, shared = others, 0
            for plane in range(len(planes) - 1, -1, -1):
                if found := most & planes[plane]:
                    most, shared = found, shared | 1 << plane
            others &= ~most
            while most and len(closest) < RELATED_SHOWN:  # by name: the lowest bits first
                lowest = most & -most
                closest.append({"environment": names[lowest.bit_length() - 1], "scenarios": shared})
                most ^= lowest
        related[name] = {"closest": closest, "count": count}
    return related


def _scenario_charts(scenario: dict[str, Any], series: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The tool's overlay of every run of the scenario (fio latency, iperf3 intervals)."""
    if len(series) > OVERLAID:
        return []  # overlaid lines stop being readable; the table stays
    names = [entry["environment"] or entry["run"] for entry in scenario["runs"]]
    # An environment measured in several reports (its history) is one line per report, named so.
    repeated = {name for name in names if names.count(name) > 1}
    names = [
        f"{name} ({entry['report']})" if name in repeated else name
        for name, entry in zip(names, scenario["runs"], strict=True)
    ]
    return tools.get(scenario["tool"]).scenario_charts(names, series)


def index_files(shares: list[dict[str, Any]], overlays: Overlays | None = None) -> dict[str, str]:
    """data/ files for the scenario, tool and environment pages, one per page (see report_documents)."""
    index = site_index(shares, overlays)
    files = {datafile.name("tools"): datafile.dump(index["tools"])}
    # The headings and labels run pages' tables share (pages/layouts.py), in hugo.Data for all of them.
    files[datafile.name("layouts")] = datafile.dump(layouts.document())
    # What the scenario pages' content adapter makes them from; each page reads its own document.
    scenario_index = {
        key: {"tool": s["tool"], "description": s["description"]} for key, s in index["scenarios"].items()
    }
    files[datafile.name("scenario_index")] = datafile.dump(scenario_index)
    # Every change beyond the noise, newest first: /regressions/ and its feed read it.
    files[datafile.name("regressions")] = datafile.dump(index["changes"])
    files.update(
        {
            datafile.name(f"scenarios/{key}"): datafile.dump(chartsvg.attached(_scenario_document(scenario)))
            for key, scenario in index["scenarios"].items()
        }
    )
    files.update(
        {
            datafile.name(f"environments/{env}"): datafile.dump(
                {
                    # Every run, for the page's CSV and JSON; its table lists the first `listed` (pages/fold.py).
                    "runs": runs,
                    **({"listed": fold.RUNS_LISTED} if len(runs) > fold.RUNS_LISTED else {}),
                    "related": index["related"].get(env),
                    # Its charts are its history's alone: the walk for charts is not taken through every run.
                    **({"history": chartsvg.attached(index["history"][env])} if env in index["history"] else {}),
                }
            )
            for env, runs in index["environments"].items()
        }
    )
    return files


def _scenario_document(scenario: dict[str, Any]) -> dict[str, Any]:
    """What a scenario page reads: its first RUNS_LISTED runs (pages/fold.py) and how many it has
    (`count`), without their titles, which the page takes from each run page's (its title, then
    " — " and its environment: run.page_title)."""
    shown, count = fold.first(scenario["runs"], fold.RUNS_LISTED)
    runs = [{key: value for key, value in run.items() if key not in ("title", "numbers")} for run in shown]
    return {**scenario, "runs": runs, "count": count}


def _environment_entry(run: dict[str, Any]) -> dict[str, Any]:
    """What an environment page and its JSON export show of a run: the list of every run
    (runs_list) also carries its title and the numbers its key results sort by."""
    return {
        "report": run["report"],
        "id": run["id"],
        "tool": run["tool"],
        "label": run["label"],
        "command": run["command"],
        "key_results": layouts.compact_key_results(run["key_results"]),
    }


def compare_index(shares: list[dict[str, Any]]) -> str:
    """What the compare page (js/compare.js) picks from, in one file (runs/compare.json): per scenario
    (one fingerprint), each environment's runs and the median of each metric over them.

    A scenario is one fingerprint, so the page can only put side by side runs that did the same
    thing; each carries its parameters by name, for the page to say what differs when an environment
    ran a near scenario instead.
    """
    merged, _ = _merged_scenarios(shares)  # without the series: the compare page draws none
    dates = {share["report"]: share.get("date") or "" for share in shares}
    near = near_scenarios({key: scenario["fingerprint"] for key, scenario in merged.items()})
    decided = _decided(shares, merged)
    used: dict[str, dict[str, Any]] = {}
    scenarios = []
    counts: dict[str, int] = {}
    for key in sorted(merged):
        scenario = merged[key]
        tool = tools.get(scenario["tool"])
        if not tool.metrics:
            continue  # nothing to put side by side (iostat samples a device; it has no result)
        used.setdefault(
            tool.name,
            {
                "metrics": [
                    {"title": metric.title, "unit": metric.unit, "higher": metric.higher_is_better}
                    for metric in tool.metrics
                ]
            },
        )
        by_environment: dict[str, dict[str, Any]] = {}
        for run, reports in _newest_report(scenario["runs"], dates):
            cell = by_environment.setdefault(
                run["environment"], {"runs": [], "numbers": [], "artefacts": [], "checks": []}
            )
            for message in run.get("checks") or []:
                cell["checks"].append([len(cell["runs"]), message])  # the run's place in the cell, its check
            cell["runs"].append([run["report"], run["run"]])
            cell["numbers"].append(run["numbers"])
            cell["artefacts"].append(run.get("artefact"))
            cell["manual"] = cell.get("manual") or bool(run.get("manual"))
            cell["reports"] = reports
            counts[run["environment"]] = counts.get(run["environment"], 0) + 1
        print_ = scenario["fingerprint"]
        scenarios.append(
            {
                "key": key,
                "tool": tool.name,
                "title": scenario["description"],
                "params": [
                    [parameter_name(tool.name, name), parameter_text(name, value) or "unknown"]
                    for name, value in print_.items()
                    if name != "tool" and value is not None
                ],
                "cells": {env: _compare_cell(cell) for env, cell in sorted(by_environment.items())},
                **({"near": near[key]} if near.get(key) else {}),
                **({"decided": decided[key]} if decided.get(key) else {}),
            }
        )
    # noise.EVEN: the page calls a ratio better or worse by the rule every other page uses.
    return datafile.dump(
        {
            "environments": dict(sorted(counts.items())),
            "tools": used,
            "scenarios": scenarios,
            "even": noise.EVEN,
        }
    )


def _newest_report(runs: list[dict[str, Any]], dates: dict[str, str]) -> list[tuple[dict[str, Any], int]]:
    """An environment's runs of a scenario from its newest report only (by date, then name), each
    with how many reports had some: a quiet week's runs and a busy week's are two results, and the
    median of both is a number no run measured. Failed runs are no result."""
    by_environment: dict[str, dict[str, list[dict[str, Any]]]] = {}
    for run in runs:
        if not run.get("failed"):  # not a result (findings.failure): its page says why
            by_environment.setdefault(run["environment"], {}).setdefault(run["report"], []).append(run)
    kept = []
    for reports in by_environment.values():
        newest = max(reports, key=lambda report: (dates.get(report, ""), report))
        kept += [(run, len(reports)) for run in reports[newest]]
    return kept


def near_scenarios(prints: dict[str, dict[str, Any]]) -> dict[str, list[list[str]]]:
    """Per scenario, the scenarios of its tool that differ from it in one parameter only:
    [key, that parameter's name, what differs ("engine windowsaio, not libaio")], as
    compare.differences says it. Scenarios are filed by their fingerprint less one parameter, so
    this is linear in the scenarios, not quadratic."""
    filed: dict[tuple[Any, ...], list[str]] = {}
    for key, print_ in prints.items():
        for left_out in print_:
            if left_out != "tool":
                rest = tuple((name, value) for name, value in print_.items() if name != left_out)
                filed.setdefault((left_out, rest), []).append(key)
    found: dict[str, list[list[str]]] = {}
    for (left_out, _), keys in sorted(filed.items(), key=lambda item: item[1]):
        for key in keys:
            for other in keys:
                if other != key:
                    (said,) = differences(prints[key], prints[other])
                    found.setdefault(key, []).append([other, parameter_name(prints[key]["tool"], left_out), said])
    return found


def _decided(shares: list[dict[str, Any]], merged: dict[str, dict[str, Any]]) -> dict[str, list[list[str]]]:
    """Per scenario, the others a report compared it with on purpose: [key, what differs, the report]."""
    found: dict[str, list[list[str]]] = {}
    for share in sorted(shares, key=lambda share: share["report"]):
        for decision in share.get("decided") or []:
            for key in decision["scenarios"]:
                for other in decision["scenarios"]:
                    if other != key and key in merged and other in merged:
                        said = "; ".join(differences(merged[key]["fingerprint"], merged[other]["fingerprint"]))
                        entry = [other, said, share["report"]]
                        if entry not in found.setdefault(key, []):
                            found[key].append(entry)
    return found


def _compare_cell(cell: dict[str, Any]) -> dict[str, Any]:
    """An environment's runs of a scenario for the compare page: the medians of each metric, and
    the artefact that explains them when every run was flagged for one (left out of the means)."""
    found: dict[str, Any] = {
        "runs": cell["runs"],
        "values": [_median(column) for column in zip(*cell["numbers"], strict=True)],
    }
    reasons = cell["artefacts"]
    if reasons and all(reasons):
        found["artefact"] = reasons[0]
    if cell.get("manual"):
        found["manual"] = True  # typed by hand: the page marks the cell, as every page does
    if cell["reports"] > 1:
        found["reports"] = cell["reports"]  # the newest of this many reports that ran it here
    if cell["checks"]:
        found["checks"] = cell["checks"]  # [run's place in `runs`, the check's message]: ⚠ beside the value
    return found


def _median(values: tuple[Any, ...]) -> float | None:
    """The median of a metric over an environment's runs of one scenario (None when none measured it)."""
    numbers = history.measured(values)
    return statistics.median(numbers) if numbers else None

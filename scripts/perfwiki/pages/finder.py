"""What the run finder (/runs/, and the finder on each tool and environment page) reads: every run of
the wiki, filterable by what was measured, in files small enough for a phone at 100,000 runs.

One list of every run in one file was 546 bytes a run, 53 MB at 100,000 runs, all of it fetched and
parsed before the first row showed. The finder's files instead let a page fetch what its filters
need (published under runs/_find/; js/runs.js reads them):

- `facets.json`: each filter and its values, with how many runs have each; a filter of more than
  LISTED_VALUES values (environments, reports) has them in `values-<facet>.json`, fetched when its
  field is used. A few KB whatever the wiki's size.
- `reports.json`: each report's title and date, for a date range and a sort by date.
- `by-<facet>.json`: for each value of one filter, the runs that have it, as row numbers (each the
  gap from the one before, so the file compresses to little). A filter fetches its own file only.
- `rows-<n>.json`: the runs themselves, ROWS_PER_FILE to a file, in the list's first order (by
  title). The first rows of a filtered list are in the first files that hold matches.
- `by-result.json`: the row numbers in key-result order (runs measuring the same thing together),
  for sorting every match by its number without fetching every row.

A run's parameters are its scenario's (compare.fingerprint): read once, at extraction, from wherever
the run got them (its command line, a job file, fio's JSON), with fio's defaults filled in where its
options are all known. A filter therefore finds a run by the parameters it ran with, not by words on
its command line: the NAS runs whose job file set iodepth=64 are found at qd=64.
"""

from __future__ import annotations

import math
from typing import Any

import orjson

from .. import datafile, tools
from ..compare import parameter_name, parameter_text
from ..model import Run

ROWS_PER_FILE = 200  # as many as the page lists at a time (js/runs.js, PAGE): the first screen is one file
# A filter of more values than this is a field to type in, with suggestions, not a list to pick from:
# 19,000 environments made facets.json 1.5 MB and a select no one can read.
LISTED_VALUES = 200
FOLDER = "_find"  # under runs/; a report's slug never starts with "_", so no report's runs land here

# The address's name of a fingerprint parameter (?bs=4KiB&qd=1): short, and the same for every tool
# that has it. A parameter not named here is called by its fingerprint key.
ADDRESS_NAMES = {
    "bs_bytes": "bs",
    "iodepth": "qd",  # fio's fingerprint keeps the effective depth (options.effective_depth)
    "queue_depth": "qd",
    "numjobs": "jobs",
    "ioengine": "engine",
    "mode": "protocol",
    "rwmixread": "read_pct",
    "request_bytes": "request",
    "response_bytes": "response",
    "message_bytes": "message",
    "payload_bytes": "payload",
    "interval_s": "interval",
    "target_kind": "target",
    "array_mib": "array_mib",
}
# The filters every run has, before its tool's own.
COMMON = ("tool", "environment", "report")
# What a filter means, said under it where its name alone misleads.
HINTS = {
    "qd": "I/Os served at once: 1 for psync, sync and buffered libaio, whatever iodepth says",
    "iodepth": "what the job asked for (iodepth=)",
}
TITLES = {
    "tool": "Tool",
    "environment": "Environment",
    "report": "Report",
    "qd": "queue depth (effective)",
    "iodepth": "iodepth (as configured)",
}


def value_text(key: str, value: Any) -> str:
    """A parameter as a filter shows it: '4 KiB', 'yes' for True."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float) and value.is_integer():
        value = int(value)  # mbw's array of 512.0 MiB is 512
    return parameter_text(key, value) or str(value)


def address_value(text: str) -> str:
    """A size as the address writes it: '4 KiB' as 4KiB, so ?bs=4KiB reads as typed. (The page
    matches a value typed into the address without spaces and in any case too.)"""
    return text.replace(" ", "")


def run_facets(run: Run) -> dict[str, list[Any]]:
    """A run's filter values: {facet: [[address value, shown, order], ...]}, from each scenario it
    belongs to (a randrw run is a read scenario and a write one: direction read and write)."""
    tool = tools.get(run.tool)
    pairs = [
        (ADDRESS_NAMES.get(key, key), key, value)
        for part in tool.scenario_parts(run)
        for key, value in run.fingerprints[part].items()
        if key != "tool"
    ]
    pairs += [(facet, facet, value) for facet, value in tool.finder_extras(run).items()]
    found: dict[str, dict[str, list[Any]]] = {}
    for facet, key, value in pairs:
        if value is None:
            continue
        shown = value_text(key, value)
        order = value if isinstance(value, (int, float)) and not isinstance(value, bool) else None
        value_id = address_value(shown) if key.endswith("_bytes") else shown
        found.setdefault(facet, {}).setdefault(value_id, [value_id, shown, order])
    return {facet: list(values.values()) for facet, values in found.items()}


def facet_titles(tool_name: str) -> dict[str, str]:
    """What the finder calls each of a tool's filters: its fingerprint's names ('block size')."""
    tool = tools.get(tool_name)
    titles = {ADDRESS_NAMES.get(key, key): parameter_name(tool_name, key) for key in tool.fingerprint_names}
    titles.update({facet: TITLES.get(facet, facet) for facet in tool.finder_extra_names})
    return {facet: TITLES.get(facet, title) for facet, title in titles.items()}


def _gaps(rows: list[int]) -> list[int]:
    """Sorted row numbers as the gap from each to the one before (the first from 0)."""
    return [row - before for row, before in zip(rows, [0, *rows[:-1]], strict=True)]


def _value_order(entry: list[Any]) -> tuple[Any, ...]:
    """Numbers by size (4 KiB before 64 KiB, QD 2 before QD 16), then words alphabetically."""
    _, shown, order = entry
    return (0, order, shown) if order is not None else (1, shown.lower(), shown)


def files(shares: list[dict[str, Any]]) -> dict[str, str]:
    """Every file of the finder, by its name under runs/ (see the module's docstring)."""
    runs = [
        {**entry, "environment": env, "date": share["date"]}
        for share in shares
        for env, entries in share["environments"].items()
        for entry in entries
    ]
    runs.sort(key=lambda run: (run["title"].lower(), run["report"], run["id"]))
    postings, values, per_tool = _postings(runs)
    found: dict[str, str] = {}
    for facet, lists in postings.items():
        found[f"{FOLDER}/by-{facet}.json"] = datafile.dump({value: _gaps(rows) for value, rows in lists.items()})
    pages = math.ceil(len(runs) / ROWS_PER_FILE)
    for page in range(pages):
        shown = runs[page * ROWS_PER_FILE : (page + 1) * ROWS_PER_FILE]
        found[f"{FOLDER}/rows-{page}.json"] = datafile.dump([_row(run) for run in shown])
    found[f"{FOLDER}/by-result.json"] = datafile.dump(_by_result(runs))
    titles: dict[str, str] = {}
    present = {run["tool"] for run in runs}
    for tool_name in sorted(present):
        for facet, title in facet_titles(tool_name).items():
            titles.setdefault(facet, title)
    # The filters some run has (a wiki of no runs yet has none).
    order = [facet for facet in (*COMMON, *_facet_order(present)) if facet in postings]
    described = {}
    for facet in order:
        listed = [
            [value, shown, len(postings[facet][value])]
            for value, shown, _ in sorted(values[facet].values(), key=_value_order)
        ]
        info: dict[str, Any] = {"title": TITLES.get(facet) or titles.get(facet, facet)}
        if facet in HINTS:
            info["hint"] = HINTS[facet]
        if facet in per_tool:
            info["per_tool"] = per_tool[facet]
        if len(listed) > LISTED_VALUES:
            # Thousands of environments: a field to type in, its suggestions fetched when it is used.
            info["many"] = len(listed)
            found[f"{FOLDER}/values-{facet}.json"] = datafile.dump(listed)
        else:
            info["values"] = listed
        described[facet] = info
    found[f"{FOLDER}/facets.json"] = datafile.dump(
        {"total": len(runs), "rows_per_file": ROWS_PER_FILE, "order": order, "facets": described}
    )
    # Each report's title and date: for a date range, a sort by date and the report column's titles.
    found[f"{FOLDER}/reports.json"] = datafile.dump(
        {share["report"]: [share["title"], share["date"]] for share in shares}
    )
    return found


def _postings(
    runs: list[dict[str, Any]],
) -> tuple[dict[str, dict[str, list[int]]], dict[str, dict[str, list[Any]]], dict[str, dict[str, dict[str, int]]]]:
    """Per filter and value, the rows that have it, in order; each value's entry (its first run's: the
    text shown and the order); and per tool parameter, how many runs of each tool have each value
    (fio's "direction" is read or write, iperf3's forward or reverse).

    Runs of one scenario have the same values of their tool's filters. Each set of them is walked once,
    at its first run, and given the rows of every run that has it at the end: at 100,000 runs there
    were 125 sets, and walking every run's values took 1 s. Walked at the first run, every mapping
    gets its keys in the order a walk of each run gives them, so the files are the same bytes.
    """
    postings: dict[str, dict[str, list[int]]] = {}
    values: dict[str, dict[str, list[Any]]] = {}
    per_tool: dict[str, dict[str, dict[str, int]]] = {}
    # (tool, its filter values) -> (the common filters walked per run, those values, their rows)
    groups: dict[tuple[str, bytes | str], tuple[list[str], dict[str, list[Any]], list[int]]] = {}
    # A report's runs with the same values share one mapping of them (index_share): made once each.
    identities: dict[int, bytes | str] = {}
    for row, run in enumerate(runs):
        own = run.get("facets") or _NO_FACETS
        identity = identities.get(id(own))
        if identity is None:
            identity = identities[id(own)] = _identity(own)
        key = (run["tool"], identity)
        group = groups.get(key)
        first = group is None
        if group is None:
            group = groups[key] = ([name for name in COMMON if name not in own], own, [])
        for facet in {**dict.fromkeys(COMMON), **own} if first else group[0]:
            if facet in own:  # walked once for the group; its rows are added at the end
                for entry in own[facet]:
                    if facet not in COMMON:
                        per_tool.setdefault(facet, {}).setdefault(run["tool"], {}).setdefault(entry[0], 0)
                    postings.setdefault(facet, {}).setdefault(entry[0], [])
                    values.setdefault(facet, {}).setdefault(entry[0], entry)
            else:
                value = run[facet]
                postings.setdefault(facet, {}).setdefault(value, []).append(row)
                values.setdefault(facet, {}).setdefault(value, [value, value, None])
        group[2].append(row)
    grouped: set[str] = set()
    for (tool, _), (_, own, rows) in groups.items():
        for facet, entries in own.items():
            grouped.add(facet)
            for entry in entries:
                postings[facet][entry[0]] += rows
                if facet not in COMMON:
                    per_tool[facet][tool][entry[0]] += len(rows)
    for facet in grouped:  # rows from several groups, each in order: merged by sorting
        for rows in postings[facet].values():
            rows.sort()
    return postings, values, per_tool


_NO_FACETS: dict[str, list[Any]] = {}


def interned(facets: dict[str, list[Any]], seen: dict[bytes | str, dict[str, list[Any]]]) -> dict[str, list[Any]]:
    """`facets`, or the equal mapping already in `seen` (one report's runs): equal values, one object."""
    return seen.setdefault(_identity(facets), facets)


def _identity(facets: dict[str, list[Any]]) -> bytes | str:
    """Filter values as one hashable text: equal exactly when the values are (orjson, or repr where
    orjson refuses, such as an integer past 64 bits)."""
    try:
        return orjson.dumps(facets)
    except orjson.JSONEncodeError:
        return repr(facets)


def _facet_order(present: set[str]) -> list[str]:
    """Each tool's filters in its fingerprint's order, tools in the registry's order (those some run has)."""
    order: list[str] = []
    for tool_name in tools.NAMES:
        if tool_name not in present:
            continue
        tool = tools.get(tool_name)
        for facet in [*(ADDRESS_NAMES.get(key, key) for key in tool.fingerprint_names), *tool.finder_extra_names]:
            if facet not in order:
                order.append(facet)
    return order


def _row(run: dict[str, Any]) -> dict[str, Any]:
    """One row of the list: what it shows, and the label and command its text filter reads."""
    return {
        "report": run["report"],
        "id": run["id"],
        "title": run["title"],
        "tool": run["tool"],
        "environment": run["environment"],
        "date": (run["date"] or "")[:10] or None,
        "label": run.get("label"),
        "command": run.get("command"),
        "key_results": run["key_results"],
        "scenarios": run.get("scenarios") or [],
        **({"badges": run["badges"]} if run.get("badges") else {}),
        **({"flags": run["flags"]} if run.get("flags") else {}),
    }


def _by_result(runs: list[dict[str, Any]]) -> dict[str, Any]:
    """Row numbers by key result: grouped by what the first number measures (label order), smallest
    first within a group, runs without one last; each group's [label, first, end] for sorting the
    other way within groups."""
    keyed = []
    for row, run in enumerate(runs):
        first = run["key_results"][0] if run["key_results"] else None
        number = first.get("number") if first else None
        label = first["label"] if first and isinstance(number, (int, float)) else None
        keyed.append((label is None, (label or "").lower(), number if label else 0, row))
    keyed.sort()
    order = [row for *_, row in keyed]
    groups: list[list[Any]] = []
    for position, (missing, label, _, _) in enumerate(keyed):
        name = None if missing else label
        if not groups or groups[-1][0] != name:
            groups.append([name, position, position])
        groups[-1][2] = position + 1
    return {"groups": groups, "rows": order}

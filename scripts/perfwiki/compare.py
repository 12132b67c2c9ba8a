"""Comparisons: which runs may stand side by side, and how they compare to the baseline.

A scenario fingerprint is the tool plus the parameters that make two results
comparable (fio: rw, block size, queue depth x jobs, direct or buffered, engine,
raw device or file). Comparison columns are what the author grouped (a label,
or failing that a fingerprint); a run whose fingerprint differs from its column's
is refused from it with a reason the page shows, never charted with unlike runs.

Each comparison is one metric: columns are scenarios, rows are environments,
a cell is the median of that environment's runs (with min, max and count when
there are repeats) and `relative` is value / baseline value.
"""

from __future__ import annotations

import bisect
import statistics
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from . import noise, tools, units
from .findings import failure
from .model import Run, slug
from .tools.base import Metric


def fingerprint(run: Run, part: str | None = None) -> dict[str, Any]:
    """The parameters that must match for two results to be compared (computed once, at extraction)."""
    return run.fingerprints[part]


def fingerprint_key(print_: dict[str, Any]) -> str:
    """A stable, readable slug for a fingerprint: 'fio-randread-4096-qd16x1-direct-libaio-file-read'."""
    return "-".join(str(value).lower().replace(" ", "") for value in print_.values() if value is not None)


def parameter_name(tool: str, key: str) -> str:
    """How a page names a fingerprint parameter: 'bs_bytes' -> 'block size'."""
    return tools.get(tool).fingerprint_names.get(key, key) if tool in tools.NAMES else key


def parameter_text(key: str, value: Any) -> str | None:
    """A fingerprint parameter as pages show it: sizes in bytes as '4 KiB', None as None."""
    if value is None:
        return None
    if key.endswith("_bytes") and isinstance(value, (int, float)):
        return units.format_bytes(value) or str(value)
    return str(value)  # a size that is not a number: fio's "mixed", of job sections with different ones


def _shown(key: str, value: Any) -> str:
    return parameter_text(key, value) or "unknown"


def differences(reference: dict[str, Any], other: dict[str, Any]) -> list[str]:
    """'block size 8 KiB, not 4 KiB' for every parameter that differs."""
    found = []
    for key in reference:
        if reference.get(key) != other.get(key):
            name = parameter_name(reference["tool"], key)
            found.append(f"{name} {_shown(key, other.get(key))}, not {_shown(key, reference.get(key))}")
    return found


def describe(print_: dict[str, Any]) -> str:
    """A short human description of a fingerprint, for column subtitles and scenario pages."""
    shown = [
        f"{parameter_name(print_['tool'], key)} {_shown(key, value)}"
        for key, value in print_.items()
        if key != "tool" and value is not None
    ]
    return f"{print_['tool']}: " + ", ".join(shown)


# -- comparisons ------------------------------------------------------------------------


@dataclass
class Column:
    id: str
    title: str
    tool: str
    part: str | None
    fingerprint: dict[str, Any]
    members: list[Run] = field(default_factory=list)
    refused: list[dict[str, Any]] = field(default_factory=list)
    metric: Metric | None = None  # an authored column may show its own metric
    ignored: tuple[str, ...] = ()  # parameters the author chose to compare across
    original: str | None = None  # the title as the raw file wrote it, when the report renamed it


def _comparable(reference: dict[str, Any], other: dict[str, Any], ignored: tuple[str, ...]) -> bool:
    return all(reference.get(key) == other.get(key) for key in reference if key not in ignored)


def _fill(column: Column, members: list[tuple[Run, str | None]], baseline: str | None) -> None:
    """Pick the column's reference scenario (the baseline's, else the most common) and sort runs in or out."""
    prints = [fingerprint(run, part) for run, part in members]
    on_baseline = [p for (run, _), p in zip(members, prints, strict=True) if run.environment == baseline]
    keyed = [fingerprint_key(p) for p in prints]
    # Most common scenario wins; a tie goes to the one met first (environments in report order):
    # most_common sorts stably, and a Counter keeps the order keys were first met.
    common = Counter(keyed).most_common(1)
    column.fingerprint = on_baseline[0] if on_baseline else prints[keyed.index(common[0][0])]
    for (run, _), print_ in zip(members, prints, strict=True):
        failed = failure(run)
        if failed:
            column.refused.append(
                {"run": run.id, "environment": run.environment, "reason": f"failed: {failed}", "failed": True}
            )
        elif _comparable(column.fingerprint, print_, column.ignored):
            column.members.append(run)
        else:
            reasons = [reason for reason in differences(column.fingerprint, print_) if reason]
            column.refused.append({"run": run.id, "environment": run.environment, "reason": "; ".join(reasons)})


def _column_title(run: Run, part: str | None, original: bool = False) -> str:
    """The column's name: the run's heading (as the report renames it, or as written), else its scenario."""
    title = (run.original_heading if original else run.heading) or describe(fingerprint(run, part))
    if part and (tools.get(run.tool).lone_part_in_title or len(run.fingerprints) > 1):
        title = f"{title} ({part})" if title else part
    return title


def _columns_for(runs: list[Run], tool: str, baseline: str | None, ignored: tuple[str, ...] = ()) -> list[Column]:
    """Columns the author's labels define; unlike runs in a column are refused with a reason."""
    grouped: dict[str, list[tuple[Run, str | None]]] = {}
    titles: dict[str, str] = {}
    originals: dict[str, str] = {}
    for run, part in _parts_in_order(runs, tool, baseline):
        title = _column_title(run, part)
        key = title.lower()
        grouped.setdefault(key, []).append((run, part))
        titles.setdefault(key, title)
        originals.setdefault(key, _column_title(run, part, original=True))
    columns = []
    for key, members in grouped.items():
        column = Column(id="", title=titles[key], tool=tool, part=members[0][1], fingerprint={}, ignored=ignored)
        column.original = originals[key] if originals[key] != titles[key] else None
        _fill(column, members, baseline)
        columns.append(column)
    columns = _merge_same_scenario(columns)
    _drop_shared_prefix(columns)
    for index, column in enumerate(columns, start=1):
        column.id = f"{tool}-{index}"
    return columns


def _parts_in_order(runs: list[Run], tool: str, baseline: str | None) -> Iterator[tuple[Run, str | None]]:
    """(run, part) of each comparable part of `tool`'s runs, in the order columns follow: the baseline's
    runs in file order, then whatever only others ran."""
    for run in [run for run in runs if run.environment == baseline] + [
        run for run in runs if run.environment != baseline
    ]:
        if run.tool == tool:
            for part in run.fingerprints:
                yield run, part


def _drop_shared_prefix(columns: list[Column]) -> None:
    """'测试数据 / 4KB随机读', '测试数据 / 4KB随机写': the shared section says nothing."""

    def shared(titles: list[str | None]) -> bool:
        heads = {title.split(" / ", 1)[0] for title in titles if title and " / " in title}
        return len(titles) > 1 and len(heads) == 1 and all(title and " / " in title for title in titles)

    if shared([column.title for column in columns]):
        for column in columns:
            column.title = column.title.split(" / ", 1)[1]
    if shared([column.original for column in columns]):
        for column in columns:
            column.original = (column.original or "").split(" / ", 1)[1]


def _environments(column: Column) -> set[str | None]:
    return {run.environment for run in column.members} | {entry["environment"] for entry in column.refused}


def _merge_same_scenario(columns: list[Column]) -> list[Column]:
    """One scenario labelled differently per environment ("物理机" / "虚拟机") is one column.

    A column joins the first column before it (in merged order) whose fingerprint it is
    comparable to and that shares none of its environments. Found through an index rather
    than by trying every column before it: a file of 100,000 runs, each labelled, made
    100,000 columns, and trying each against the others took hours (_TwinIndex).
    """
    merged: list[Column] = []
    index = _TwinIndex()
    for column in columns:
        position = index.twin(column)
        if position is None:
            index.add(column)
            merged.append(column)
            continue
        twin = merged[position]
        index.grow(position, column)
        twin.members += column.members
        twin.refused += column.refused
        if twin.title != column.title:
            twin.title = twin.part or describe(twin.fingerprint)
            twin.original = None
    return merged


def _frozen(value: Any) -> Any:
    """A fingerprint value as a dictionary key, equal exactly when the values are equal (==)."""
    if isinstance(value, dict):
        return tuple(sorted((key, _frozen(item)) for key, item in value.items()))
    if isinstance(value, list | tuple | set):
        return tuple(map(_frozen, value))
    return value


class _TwinIndex:
    """The merged columns, by what _merge_same_scenario asks of a twin.

    `_comparable(twin, column)` holds when the column's fingerprint has the twin's value (a
    missing key reads as None) for every key of the twin's that is not ignored (all columns of
    one tool share `ignored`). Columns are filed by those keys (few sets of them), then by their
    values, then by their environments (few sets again); each last list holds merged positions
    in order, so its first entry is the earliest twin of that kind.
    """

    def __init__(self) -> None:
        self.files: dict[tuple[str, ...], dict[tuple[Any, ...], dict[frozenset[Any], list[int]]]] = {}
        self.columns: list[Column] = []
        self.places: list[list[int]] = []  # by merged position: the list it is filed in

    @staticmethod
    def _keys(column: Column) -> tuple[str, ...]:
        return tuple(sorted(key for key in column.fingerprint if key not in column.ignored))

    @staticmethod
    def _values(fingerprint: dict[str, Any], keys: tuple[str, ...]) -> tuple[Any, ...]:
        return tuple(_frozen(fingerprint.get(key)) for key in keys)

    def _file(self, column: Column, environments: frozenset[Any]) -> list[int]:
        keys = self._keys(column)
        by_values = self.files.setdefault(keys, {}).setdefault(self._values(column.fingerprint, keys), {})
        return by_values.setdefault(environments, [])

    def add(self, column: Column) -> None:
        place = self._file(column, frozenset(_environments(column)))
        place.append(len(self.columns))
        self.columns.append(column)
        self.places.append(place)

    def twin(self, column: Column) -> int | None:
        """The merged position of the column's twin, if it has one."""
        environments = _environments(column)
        best: int | None = None
        for keys, by_values in self.files.items():
            for others, positions in by_values.get(self._values(column.fingerprint, keys), {}).items():
                if positions and not (others & environments) and (best is None or positions[0] < best):
                    best = positions[0]
        return best

    def grow(self, position: int, column: Column) -> None:
        """The twin at `position` takes the column's runs: it is filed again under its larger set of environments."""
        twin = self.columns[position]
        self.places[position].remove(position)
        moved = self._file(twin, frozenset(_environments(twin) | _environments(column)))
        bisect.insort(moved, position)
        self.places[position] = moved


def _cell(values: list[float]) -> dict[str, Any]:
    cell: dict[str, Any] = {"value": statistics.median(values), "n": len(values)}
    if len(values) > 1:
        mean = statistics.fmean(values)
        cell.update({"min": min(values), "max": max(values)})
        cell["cv_pct"] = round(100 * statistics.stdev(values) / mean, 2) if mean else None
    return cell


def _comparison(
    metric: Metric, columns: list[Column], environments: list[str], baseline: str | None
) -> dict[str, Any] | None:
    rows = []
    base_values: dict[str, float | None] = {}
    table: dict[str, dict[str, dict[str, Any]]] = {}
    for column in columns:
        read = (column.metric or metric).read
        for env in environments:
            runs = [run for run in column.members if run.environment == env]
            values = [read(run, column.part) for run in runs]
            present = [value for value in values if value is not None]
            cell = _cell(present) if present else {"value": None, "n": 0}
            cell["runs"] = [run.id for run, value in zip(runs, values, strict=True) if value is not None]
            if any(run.format == "manual" for run, value in zip(runs, values, strict=True) if value is not None):
                cell["manual"] = True
            table.setdefault(env, {})[column.id] = cell
        base_values[column.id] = (table.get(baseline, {}).get(column.id) or {}).get("value")
    if all(cell["value"] is None for env in table.values() for cell in env.values()):
        return None
    for env in environments:
        cells = []
        for column in columns:
            cell = table[env][column.id]
            base = base_values[column.id]
            cell["relative"] = cell["value"] / base if cell["value"] is not None and base else None
            if env != baseline and cell["relative"] is not None:
                base_cell = table.get(baseline, {}).get(column.id) or {}
                mine, theirs = noise.spread(cell), noise.spread(base_cell)
                if noise.is_even(cell["relative"], mine, theirs):
                    # Not a result: no colour, no "faster" (noise.py, the one rule every page uses).
                    cell["even"] = True
                    if noise.ranges_overlap(mine, theirs):
                        cell["within_noise"] = True  # and the repeats show why
            cells.append(cell)
        rows.append({"environment": env, "cells": cells})
    unit = metric.unit
    return {
        "id": f"{columns[0].tool}-{metric.key}",
        "title": metric.title if columns[0].tool in metric.title.lower() else f"{columns[0].tool} {metric.title}",
        "tool": columns[0].tool,
        "metric": metric.key,
        "unit": unit,
        "higher_is_better": metric.higher_is_better,
        "baseline": baseline,
        "columns": [_column_entry(column, metric) for column in columns],
        "rows": rows,
    }


def _column_entry(column: Column, metric: Metric) -> dict[str, Any]:
    shown = column.metric or metric
    unit = shown.unit
    if column.members and column.tool in tools.NAMES:  # UnixBench: each test in its own unit
        unit = tools.get(column.tool).unit_of(column.members[0], column.part, shown)
    entry = {
        "id": column.id,
        "title": column.title,
        "scenario": fingerprint_key(column.fingerprint),
        "description": describe(column.fingerprint),
        "parameters": {key: value for key, value in column.fingerprint.items() if key != "tool"},
        "metric": shown.key,
        "unit": unit,
        "higher_is_better": shown.higher_is_better,
        "refused": column.refused,
    }
    if column.original:
        entry["original"] = column.original
    if column.ignored:
        entry["compared_across"] = [parameter_name(column.tool, key) for key in column.ignored]
    return entry


# Past this many labels, a tool's automatic comparisons have a column per scenario instead of per
# label. A chart or table of hundreds of labelled columns is read by nobody, and a long session that
# names each of its runs (each hour's, each copy's) is repeats of a few scenarios: as columns of
# scenarios they show as a median with its range and count, every run still listed by its label in
# the runs table. (A file of 100,000 such runs made 100,000 columns per metric: 400 MB to build.)
MAX_LABELLED_COLUMNS = 60


def labels_of(runs: list[Run], tool: str) -> int:
    """How many columns `tool`'s labels would make (before twins in other environments are merged)."""
    return len({_column_title(run, part).lower() for run in runs if run.tool == tool for part in run.fingerprints})


def _scenario_columns(runs: list[Run], tool: str, baseline: str | None) -> list[Column]:
    """A column per scenario of `tool`, in the order the baseline's runs, then the others', first ran it."""
    grouped: dict[str, list[tuple[Run, str | None]]] = {}
    for run, part in _parts_in_order(runs, tool, baseline):
        grouped.setdefault(fingerprint_key(fingerprint(run, part)), []).append((run, part))
    columns = []
    for index, members in enumerate(grouped.values(), start=1):
        column = Column(id=f"{tool}-{index}", title="", tool=tool, part=members[0][1], fingerprint={})
        _fill(column, members, baseline)
        columns.append(column)
    # Each named by what sets it apart from the others ("I/O mode direct"), the whole scenario
    # in its description: every column's title repeating "fio: direction read, rw randread..." hides it.
    prints = [column.fingerprint for column in columns]
    apart = (
        [key for key in prints[0] if key != "tool" and len({repr(p.get(key)) for p in prints}) > 1] if prints else []
    )
    for column in columns:
        shown = {"tool": tool, **{key: column.fingerprint.get(key) for key in apart}}
        # (a parameter one scenario lacks says nothing of that one: it is named in full)
        column.title = describe(shown).removeprefix(f"{tool}: ") if apart else ""
        column.title = column.title if column.title.strip() else describe(column.fingerprint)
    return columns


def automatic(runs: list[Run], environments: list[str], baseline: str | None) -> list[dict[str, Any]]:
    """One comparison per tool and metric, columns = the report's scenarios of that tool: each as its
    labels name it, or past MAX_LABELLED_COLUMNS labels each scenario once (`by_scenario`)."""
    comparisons = []
    for tool in tools.NAMES:
        labels = labels_of(runs, tool)
        by_scenario = labels > MAX_LABELLED_COLUMNS
        columns = _scenario_columns(runs, tool, baseline) if by_scenario else _columns_for(runs, tool, baseline)
        if not columns:
            continue
        # Only the environments that ran this tool: a CPU table needs no rows for network paths.
        ran = {run.environment for run in runs if run.tool == tool}
        tool_envs = [env for env in environments if env in ran]
        for metric in tools.get(tool).metrics:
            comparison = _comparison(metric, columns, tool_envs, baseline)
            if comparison:
                if by_scenario:
                    comparison["by_scenario"] = {"labels": labels}
                comparisons.append(comparison)
    return comparisons


class SpecError(ValueError):
    """An authored comparison in front matter that cannot be built; the message says why."""


def _metric(tool: str, key: str | None) -> Metric:
    known = tools.get(tool).metrics if tool in tools.NAMES else ()
    if not known:
        raise SpecError(f"no comparable metrics for tool {tool!r}")
    if key is None:
        return known[0]
    for metric in known:
        if metric.key == key:
            return metric
    raise SpecError(f"unknown metric {key!r} for {tool}; one of: {', '.join(m.key for m in known)}")


def _selected(runs: list[Run], tool: str, spec: dict[str, Any]) -> list[tuple[Run, str | None]]:
    chosen = []
    for run in runs:
        if run.tool != tool:
            continue
        for part in run.fingerprints:
            if spec.get("part") is not None and part != spec["part"]:
                continue
            if spec.get("label") is not None and run.label != spec["label"]:
                continue
            if spec.get("section") is not None and run.section != spec["section"]:
                continue
            if spec.get("scenario") is not None and fingerprint_key(fingerprint(run, part)) != spec["scenario"]:
                continue
            if spec.get("command") is not None and spec["command"] not in (run.command or ""):
                continue
            chosen.append((run, part))
    return chosen


def authored(spec: dict[str, Any], runs: list[Run], environments: list[str], baseline: str | None) -> dict[str, Any]:
    """A comparison the report's author defined in front matter.

    Keys: title, tool, metric, baseline, environments (subset and order), ignore
    (fingerprint parameters compared across on purpose), and columns: a list of
    {title, label?, section?, scenario?, command? (a substring), part?, tool?, metric?} picking runs.
    """
    if not isinstance(spec, dict) or not spec.get("title"):
        raise SpecError("each comparison needs a title")
    base = str(spec.get("baseline") or baseline or "") or None
    envs = [str(env) for env in spec.get("environments") or environments]
    unknown = [env for env in envs if env not in environments]
    if unknown:
        raise SpecError(f"comparison {spec['title']!r}: no runs on environment(s) {', '.join(unknown)}")
    ignored = tuple(str(key) for key in spec.get("ignore") or ())
    # In the comparison's environment order, so a tie between scenarios goes to the first listed.
    in_scope = sorted((run for run in runs if run.environment in envs), key=lambda run: envs.index(run.environment))
    tool = spec.get("tool")
    if spec.get("columns"):
        columns = []
        for index, column_spec in enumerate(spec["columns"], start=1):
            column_tool = column_spec.get("tool") or tool
            if not column_tool:
                raise SpecError(f"comparison {spec['title']!r}, column {index}: which tool?")
            members = _selected(in_scope, column_tool, column_spec)
            if not members:
                raise SpecError(
                    f"comparison {spec['title']!r}: column {column_spec.get('title', index)!r} matches no run"
                )
            column = Column(
                id=f"c{index}",
                title=str(column_spec.get("title") or _column_title(*members[0])),
                tool=column_tool,
                part=members[0][1],
                fingerprint={},
                metric=_metric(column_tool, column_spec.get("metric") or spec.get("metric")),
                ignored=ignored,
            )
            _fill(column, members, base)
            columns.append(column)
        metric = columns[0].metric
    else:
        if not tool:
            raise SpecError(f"comparison {spec['title']!r} needs a tool (or columns)")
        metric = _metric(tool, spec.get("metric"))
        columns = _columns_for(in_scope, tool, base, ignored)
        if not columns:
            raise SpecError(f"comparison {spec['title']!r}: no {tool} runs on its environments")
    comparison = _comparison(metric, columns, envs, base)
    if comparison is None:
        raise SpecError(f"comparison {spec['title']!r}: no values")
    units_used = {column["unit"] for column in comparison["columns"]}
    comparison.update(
        {
            "id": str(spec.get("id") or slug(spec["title"]) or "comparison"),
            "title": spec["title"],
            "authored": True,
            "unit": units_used.pop() if len(units_used) == 1 else "mixed",
            "metric": metric.key if len({c["metric"] for c in comparison["columns"]}) == 1 else "mixed",
        }
    )
    return comparison


def for_report(
    specs: list[dict[str, Any]],
    runs: list[Run],
    environments: list[str],
    baseline: str | None,
    automatic_tools: bool | list[str] | None = None,
) -> tuple[list[dict[str, Any]], list[str]]:
    """Authored comparisons first, then the automatic ones the front matter keeps.

    `automatic_tools` is the front matter's `automatic:`: absent or true keeps every
    tool's automatic comparisons, false none, a list only those tools'.
    """
    comparisons, errors = [], []
    for spec in specs or []:
        try:
            comparisons.append(authored(spec, runs, environments, baseline))
        except SpecError as exc:
            errors.append(str(exc))
    if automatic_tools is False:
        return comparisons, errors
    keep = None if automatic_tools in (None, True) else {str(tool) for tool in automatic_tools}
    automatic_ones = [c for c in automatic(runs, environments, baseline) if keep is None or c["tool"] in keep]
    return comparisons + automatic_ones, errors

"""A report's comparisons as the page shows them: verdict, chart panels, table, left-out runs.

A comparison of two or more environments becomes a block that leads with its verdict,
then one bar panel per column (scenario), every environment a bar printing its value,
then its table. Comparisons where only one environment has values are not comparisons:
a report of one environment shows them as a profile (its scenarios side by side, one
panel per metric); a report of several lists those runs in its runs tables only.
"""

from __future__ import annotations

from typing import Any

from .. import charts, tools, units, verdict
from ..compare import parameter_text
from . import fold


def _printed(tool: str | None) -> str:
    return tools.get(tool).printed_prefixes if tool in tools.NAMES else "iec"


def direction(higher_is_better: bool) -> str:
    return "higher is better" if higher_is_better else "lower is better"


def _column_units(comparison: dict[str, Any]) -> list[units.ColumnUnits]:
    printed = _printed(comparison.get("tool"))
    return [
        units.ColumnUnits(
            [row["cells"][index]["value"] for row in comparison["rows"]],
            column["unit"],
            printed,
            [row["cells"][index].get("relative") for row in comparison["rows"]],  # one form of ratio a column
        )
        for index, column in enumerate(comparison["columns"])
    ]


def measured_columns(comparison: dict[str, Any]) -> dict[str, Any]:
    """The comparison without its columns that hold no value at all (every run of them failed or was
    refused): "Left out of comparisons" lists those runs; a column of n/a says nothing."""
    keep = [
        index
        for index in range(len(comparison["columns"]))
        if any(row["cells"][index]["value"] is not None for row in comparison["rows"])
    ]
    if len(keep) == len(comparison["columns"]):
        return comparison
    return {
        **comparison,
        "columns": [comparison["columns"][index] for index in keep],
        "rows": [{**row, "cells": [row["cells"][index] for index in keep]} for row in comparison["rows"]],
    }


def environments_with_values(comparison: dict[str, Any]) -> list[str]:
    return [row["environment"] for row in comparison["rows"] if any(c["value"] is not None for c in row["cells"])]


def comparison_table(comparison: dict[str, Any], flagged: dict[str, list[str]] | None = None) -> dict[str, Any]:
    """The table of one comparison: display text in the column's unit, % of baseline, a class, the run.

    `flagged` maps run ids to their warning-level check messages: such cells carry a marker, and
    the numbers of their messages in the table's `flags`.
    Rows of environments without any value are left out; `without` names them.
    """
    flagged = flagged or {}
    scales = _column_units(comparison)
    baseline = comparison["baseline"]
    rows, without = [], []
    for row in comparison["rows"]:
        if all(cell["value"] is None for cell in row["cells"]):
            without.append(row["environment"])
            continue
        cells = []
        for column, cell, scale in zip(comparison["columns"], row["cells"], scales, strict=True):
            cells.append(_cell(cell, column, scale, row["environment"] == baseline, flagged))
        rows.append({"environment": row["environment"], "cells": cells})
    messages = _flags_by_number(rows)
    columns = [
        {
            "title": column["title"],
            "scenario": column["scenario"],
            "compared_across": column.get("compared_across") or [],
            "unit": scale.caption(),
            "direction": direction(column["higher_is_better"]),
            **({"metric": column["metric_title"]} if column.get("metric_title") else {}),
        }
        for column, scale in zip(comparison["columns"], scales, strict=True)
    ]
    table = {"id": comparison["id"], "rows": rows, "columns": columns, "without": without}
    if any("range" in cell for row in rows for cell in row["cells"]) and any(
        cell.get("printed") for row in comparison["rows"] for cell in row["cells"]
    ):
        table["medians"] = True  # medians beside printed tokens: the page says how "as printed" shows them
    return {**table, "flags": messages} if messages else table


def _flags_by_number(rows: list[dict[str, Any]]) -> list[str]:
    """The table's check messages once, in order; each flagged cell keeps their numbers (a message is
    long, and the same one flags a whole row of an environment's runs)."""
    messages: dict[str, int] = {}
    for row in rows:
        for cell in row["cells"]:
            if "flags" in cell:
                cell["flags"] = [messages.setdefault(message, len(messages)) for message in cell["flags"]]
    return list(messages)


def _cell(
    cell: dict[str, Any],
    column: dict[str, Any],
    scale: units.ColumnUnits,
    is_baseline: bool,
    flagged: dict[str, list[str]],
) -> dict[str, Any]:
    relative = cell.get("relative")
    quantity = scale.quantity(cell["value"], cell.get("printed"))
    # Only what the page shows: a cell without a value is {} (its template says n/a), a baseline's has
    # no relative; the count of runs behind a cell shows as its range (below).
    found = {
        "text": units.quantity_text(quantity),
        "relative": None if is_baseline else scale.relative(relative),
        "run": cell["runs"][0] if cell.get("runs") else None,
    }
    shown: dict[str, Any] = {key: value for key, value in found.items() if value is not None}
    if isinstance(quantity, dict):
        shown["si"], shown["iec"] = quantity["si"], quantity["iec"]
    if cell.get("manual"):
        shown["manual"] = True
    notes = [message for run_id in cell.get("runs", []) for message in flagged.get(run_id, [])]
    if notes:
        shown["flags"] = sorted(set(notes))
    if cell.get("n", 0) > 1:
        shown["range"] = {"low": scale.quantity(cell["min"]), "high": scale.quantity(cell["max"])}
    if cell.get("cv_pct") is not None:
        shown["cv"] = f"CV {cell['cv_pct']:.1f}%"
    if cell.get("artefact"):
        shown["artefact"] = cell["artefact"]  # not a speed difference: no colour, the reason in the cell
    if is_baseline:
        shown["class"] = "baseline"
    elif cell.get("artefact"):
        shown["class"] = "artefact"
    elif cell.get("within_noise"):
        shown["class"] = "noise"  # the ranges overlap: not coloured as a win or a loss
        shown["noise"] = True
    elif relative is not None and not cell.get("even"):
        shown["class"] = "better" if (relative > 1) == column["higher_is_better"] else "worse"
    return shown


def comparison_panels(
    comparison: dict[str, Any], colours: dict[str, str]
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """One bar panel per column: every environment with a value is a bar printing it.

    A column with a value on one environment only compares nothing: it gets no panel and
    is returned in the second list, {column, environments}, for the page to say so.
    """
    printed = _printed(comparison.get("tool"))
    baseline = comparison["baseline"]
    colours = _with_grey_baseline(colours, baseline)
    panels, uncharted = [], []
    for index, column in enumerate(comparison["columns"]):
        cells = [(row["environment"], row["cells"][index]) for row in comparison["rows"]]
        present = [(env, cell) for env, cell in cells if cell["value"] is not None]
        if len(present) < 2:
            uncharted.append({"column": column["title"], "environments": [env for env, _ in present]})
            continue
        values, relatives = [cell["value"] for _, cell in present], [cell.get("relative") for _, cell in present]
        column_units = units.ColumnUnits(values, column["unit"], printed, relatives)
        base_cell = next((cell for env, cell in present if env == baseline), None)
        bars = [
            {
                # A result a check explains is drawn, and labelled as left out of the verdict (hover: why).
                "label": (f"{env} (baseline)" if env == baseline else env)
                + (" (typed)" if cell.get("manual") else "")
                + (" (left out)" if cell.get("artefact") else ""),
                "value": cell["value"],
                "manual": bool(cell.get("manual")),
                "colour": colours.get(env, charts.PALETTE[0]),
                "hover": _hover(
                    cell, env == baseline, baseline, column["higher_is_better"], column_units.form, column.get("unit")
                ),
            }
            for env, cell in present
        ]
        panel = charts.bar_panel(
            f"chart-{comparison['id']}-{index + 1}",
            bars,
            column["unit"],
            printed,
            base_cell["value"] if base_cell else None,
        )
        panel.update(
            {
                "title": column["title"],
                "original": column.get("original"),
                "unit": column_units.caption(),
                "direction": direction(column["higher_is_better"]),
            }
        )
        panels.append(panel)
    return panels, uncharted


def _with_grey_baseline(colours: dict[str, str], baseline: str | None) -> dict[str, str]:
    """The report's colours, with this comparison's own baseline grey (a network table has its own)."""
    if baseline is None or colours.get(baseline) == charts.BASELINE_COLOUR:
        return colours
    swapped = dict(colours)
    for env, colour in colours.items():
        if colour == charts.BASELINE_COLOUR:  # the report's baseline takes the colour this one had
            swapped[env] = colours.get(baseline, charts.PALETTE[0])
    swapped[baseline] = charts.BASELINE_COLOUR
    return swapped


def _hover(
    cell: dict[str, Any], is_baseline: bool, baseline: str | None, higher: bool, form: str, unit: str | None = None
) -> str:
    if cell.get("artefact"):
        return f"<br>not a speed result: {cell['artefact']}"
    if is_baseline:
        return " (baseline)"
    found = verdict.factor(cell, higher)
    if found is None:
        return ""
    said = verdict.speed(found, bool(cell.get("even")), unit)
    return f"<br>{units.format_relative(cell['relative'], form)} of {baseline}: {said}"


def _switchable(say: Any, printed: str, subject: Any) -> dict[str, str] | str | None:
    """A verdict as the tool printed its units, and in SI and IEC when it names a byte
    quantity: a units.quantity, which the page's unit switch swaps."""
    said = say(subject, printed)
    if said is None:
        return None
    si, iec = say(subject, "si"), say(subject, "iec")
    return said if si == iec else units.quantity(said, si, iec)


def comparison_block(
    comparison: dict[str, Any],
    colours: dict[str, str],
    flagged: dict[str, list[str]],
    twin: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """A comparison of two or more environments: its verdict, panels and table.

    `twin` is the same runs through a second metric that says the same thing (fio's bandwidth of the
    jobs whose IOPS `comparison` shows): one block, one verdict, one table with both columns.
    """
    directions = {column["higher_is_better"] for column in comparison["columns"]}
    panels, uncharted = comparison_panels(comparison, colours)
    block = {
        "kind": "comparison",
        "id": comparison["id"],
        "title": comparison["title"] if twin is None else _joined_title(comparison["title"], twin["title"]),
        "baseline": comparison["baseline"],
        "direction": direction(directions.pop()) if len(directions) == 1 else None,
        "verdict": _switchable(verdict.comparison_verdict, _printed(comparison.get("tool")), comparison),
        "panels": panels,
        "uncharted": uncharted,
        "table": comparison_table(comparison if twin is None else _side_by_side(comparison, twin), dict(flagged)),
    }
    # Values from runs a methodology check flagged (⚠): said beside a table kept on another page, and
    # whether a legend needs to explain the mark at all.
    block["flagged"] = sum(1 for row in block["table"]["rows"] for cell in row["cells"] if cell.get("flags"))
    if comparison.get("by_scenario"):
        block["by_scenario"] = comparison["by_scenario"]
    if twin is not None:
        block["aliases"] = [twin["id"]]  # a citation or an address of the twin's block still finds it
        block["table"]["groups"] = [column["title"] for column in comparison["columns"]]
    return block


def metric_title(comparison: dict[str, Any]) -> str:
    tool = comparison.get("tool")
    known = {metric.key: metric.title for metric in tools.get(tool).metrics} if tool in tools.NAMES else {}
    return known.get(comparison.get("metric"), comparison.get("metric") or "value")


def twins(first: dict[str, Any], second: dict[str, Any]) -> bool:
    """Two comparisons of the same runs through metrics whose ratios agree by construction: IOPS and
    bandwidth of jobs of one block size (bandwidth = IOPS × block size), per the tool's `paired_metrics`."""
    tool = first.get("tool")
    if tool not in tools.NAMES or tool != second.get("tool") or first.get("baseline") != second.get("baseline"):
        return False
    if (first.get("metric"), second.get("metric")) not in tools.get(tool).paired_metrics:
        return False
    if [column["scenario"] for column in first["columns"]] != [column["scenario"] for column in second["columns"]]:
        return False
    return [(row["environment"], [cell.get("runs") for cell in row["cells"]]) for row in first["rows"]] == [
        (row["environment"], [cell.get("runs") for cell in row["cells"]]) for row in second["rows"]
    ]


def _joined_title(first: str, second: str) -> str:
    """'Local storage, IOPS (% of host)' and 'Local storage, bandwidth (% of host)' ->
    'Local storage, IOPS and bandwidth (% of host)'."""
    start = 0
    while start < min(len(first), len(second)) and first[start] == second[start]:
        start += 1
    start = first.rfind(" ", 0, start) + 1  # whole words
    end = 0
    while end < min(len(first), len(second)) - start and first[-1 - end] == second[-1 - end]:
        end += 1
    first_end, second_end = len(first) - end, len(second) - end
    added = second[start:second_end]
    if added[:1].isupper() and not added[1:2].isupper():  # "Bandwidth" mid-sentence, "IOPS" as it is
        added = added[:1].lower() + added[1:]
    return f"{first[:first_end]} and {added}{first[first_end:]}"


def _side_by_side(first: dict[str, Any], second: dict[str, Any]) -> dict[str, Any]:
    """One comparison with each scenario's column from `first`, then the same scenario's from `second`."""
    named = [
        [
            {
                **column,
                "title": f"{column['title']}: {metric_title(comparison)}",
                "metric_title": metric_title(comparison),
            }
            for column in comparison["columns"]
        ]
        for comparison in (first, second)
    ]
    return {
        **first,
        "columns": [column for pair in zip(*named, strict=True) for column in pair],
        "rows": [
            {**row, "cells": [cell for pair in zip(row["cells"], other["cells"], strict=True) for cell in pair]}
            for row, other in zip(first["rows"], second["rows"], strict=True)
        ],
    }


# The parameters a sweep runs along, and how its axis names them.
_SWEEPS = {"iodepth": "queue depth", "bs_bytes": "block size", "numjobs": "jobs"}


def sweep_parameter(columns: list[dict[str, Any]]) -> str | None:
    """The one parameter three or more scenarios differ in, when it is a queue depth, block size or job count."""
    prints = [column.get("parameters") or {} for column in columns]
    if len(prints) < 3:
        return None
    varying = [key for key in prints[0] if len({str(p.get(key)) for p in prints}) > 1]
    if len(varying) != 1 or varying[0] not in _SWEEPS:
        return None
    values = [p.get(varying[0]) for p in prints]
    return varying[0] if all(isinstance(v, (int, float)) for v in values) and len(set(values)) == len(values) else None


def profile_block(comparisons: list[dict[str, Any]], environment: str, colour: str) -> dict[str, Any]:
    """One environment's results across scenarios: a panel per metric, a table of scenarios x metrics.

    `comparisons` are one tool's comparisons (one per metric), over the first one's columns or
    some of them: a metric only some scenarios have (iperf3's UDP loss, ping's RTT under load) is
    n/a in the others' rows. When the scenarios differ only in queue depth, block size or jobs,
    each panel is that sweep: the metric against the parameter, as a line.
    """
    first = comparisons[0]
    sweep = sweep_parameter(first["columns"])
    panels, metrics, values_by_metric, scales = [], [], [], []
    for comparison in comparisons:
        row = next(row for row in comparison["rows"] if row["environment"] == environment)
        cells = row["cells"]
        values = [cell["value"] for cell in cells]
        unit, higher = comparison["columns"][0]["unit"], comparison["columns"][0]["higher_is_better"]
        printed = _printed(comparison.get("tool"))
        scale = units.ColumnUnits(values, unit, printed)
        bars = [
            {"label": column["title"], "value": value, "colour": colour, "hover": _scenario_hover(column)}
            for column, value in zip(comparison["columns"], values, strict=True)
        ]
        if sweep:
            order = sorted(range(len(values)), key=lambda i: comparison["columns"][i]["parameters"][sweep])
            points = [(parameter_text(sweep, comparison["columns"][i]["parameters"][sweep]), values[i]) for i in order]
            panel = charts.line_panel(f"chart-{comparison['id']}", points, unit, printed, _SWEEPS[sweep])
        else:
            panel = charts.bar_panel(f"chart-{comparison['id']}", bars, unit, printed)
        panel.update({"title": comparison["title"], "unit": scale.caption(), "direction": direction(higher)})
        panels.append(panel)
        metrics.append({"title": comparison["title"], "unit": scale.caption(), "direction": direction(higher)})
        values_by_metric.append(cells)
        scales.append(scale)
    said = _switchable(
        verdict.profile_verdict,
        _printed(first.get("tool")),
        [
            {
                "title": _metric_name(comparison),
                "higher_is_better": comparison["columns"][0]["higher_is_better"],
                "unit": comparison["columns"][0]["unit"],
                "columns": comparison["columns"],
                "values": [cell["value"] for cell in cells],
                "artefacts": [cell.get("artefact") for cell in cells],
                "manual": [bool(cell.get("manual")) for cell in cells],
                "short": [cell.get("short_s") for cell in cells],
            }
            for comparison, cells in zip(comparisons, values_by_metric, strict=True)
        ],
    )
    cells_by_title = [
        {column["title"]: cell for column, cell in zip(comparison["columns"], cells, strict=True)}
        for comparison, cells in zip(comparisons, values_by_metric, strict=True)
    ]
    rows = [
        {
            "scenario": column["title"],
            "scenario_key": column["scenario"],
            "description": column["description"],
            "cells": [
                _profile_cell(by_title[column["title"]], scale) if column["title"] in by_title else {"text": None}
                for by_title, scale in zip(cells_by_title, scales, strict=True)
            ],
        }
        for column in first["columns"]
    ]
    return {
        "kind": "profile",
        "id": f"profile-{first['tool']}-{environment}",
        "title": first["title"] if first.get("authored") else f"{first['tool']} on {environment}",
        "environment": environment,
        "verdict": said,
        "panels": panels,
        "table": {"metrics": metrics, "rows": rows},
        **({"by_scenario": first["by_scenario"]} if first.get("by_scenario") else {}),
    }


def _scenario_hover(column: dict[str, Any]) -> str:
    """Under a profile bar's value: the raw file's own label when the report renamed it, and the scenario."""
    said = f"<br>as written: {column['original']}" if column.get("original") else ""
    return f"{said}<br>{column['description']}"


def _metric_name(comparison: dict[str, Any]) -> str:
    """How a verdict names a comparison's metric mid-sentence: 'IOPS', 'mean completion latency'."""
    title = metric_title(comparison) if comparison.get("metric") else "value"
    return title if title[:2].isupper() else title[:1].lower() + title[1:]


def _profile_cell(cell: dict[str, Any], scale: units.ColumnUnits) -> dict[str, Any]:
    quantity = scale.quantity(cell["value"], cell.get("printed"))
    shown: dict[str, Any] = {
        "text": units.quantity_text(quantity),
        "run": cell["runs"][0] if cell.get("runs") else None,
    }
    if isinstance(quantity, dict):
        shown["si"], shown["iec"] = quantity["si"], quantity["iec"]
    if cell.get("manual"):
        shown["manual"] = True
    if cell.get("artefact"):
        shown["artefact"] = cell["artefact"]
    if cell.get("n", 1) > 1:  # a scenario's repeats (compare.MAX_LABELLED_COLUMNS): how many, and their range
        shown["n"] = cell["n"]
        shown["range"] = [units.quantity_text(scale.quantity(cell[end], None)) for end in ("min", "max")]
    return shown


def blocks(
    comparisons: list[dict[str, Any]],
    environments: list[str],
    baseline: str | None,
    flagged: dict[str, list[str]],
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The report's comparison blocks in order, and what was measured on one environment only.

    Returns (blocks, alone): `alone` lists {tool, environment} of automatic comparisons
    that found values on one environment in a report that compares several.
    """
    colours = charts.colours(environments, baseline)
    comparisons = [measured_columns(comparison) for comparison in comparisons]
    compares = any(len(environments_with_values(c)) >= 2 for c in comparisons)
    shown, alone = [], []
    profiles: dict[tuple[str, str], list[dict[str, Any]]] = {}
    merged: set[int] = set()
    for index, comparison in enumerate(comparisons):
        if index in merged:
            continue
        present = environments_with_values(comparison)
        if len(present) >= 2:
            twin = next(
                (
                    (other_index, other)
                    for other_index, other in enumerate(comparisons)
                    if other_index not in merged and other_index != index and twins(comparison, other)
                ),
                None,
            )
            if twin:
                merged.add(twin[0])
            shown.append(comparison_block(comparison, colours, flagged, twin[1] if twin else None))
            continue
        if not present:
            continue
        env = present[0]
        if comparison.get("authored"):
            shown.append(profile_block([comparison], env, charts.PALETTE[0]))
        elif not compares:
            key = (comparison["tool"], env)
            if key not in profiles:
                profiles[key] = []
                shown.append({"kind": "pending", "key": key})
            profiles[key].append(comparison)
        elif {"tool": comparison["tool"], "environment": env} not in alone:
            alone.append({"tool": comparison["tool"], "environment": env})
    for index, block in enumerate(shown):
        if block["kind"] == "pending":
            tool, env = block["key"]
            shown[index] = profile_block(profiles[block["key"]], env, charts.PALETTE[0])
    return shown, alone


def left_out(comparisons: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Runs refused from a comparison, once per report: grouped by reason, each run listed once, the
    first RUNS_NAMED of a reason (pages/fold.py) with how many it refused (`count`)."""
    groups: dict[str, dict[str, Any]] = {}
    listed: set[tuple[str, str]] = set()  # (reason, run): asked once a refused run, of every run listed
    for comparison in comparisons:
        for column in comparison["columns"]:
            for entry in column.get("refused", []):
                group = groups.setdefault(entry["reason"], {"reason": entry["reason"], "runs": []})
                if (entry["reason"], entry["run"]) not in listed:
                    listed.add((entry["reason"], entry["run"]))
                    group["runs"].append(
                        {"run": entry["run"], "environment": entry["environment"], "column": column["title"]}
                    )
    return [fold.folded(group, "runs", fold.RUNS_NAMED) for group in groups.values()]

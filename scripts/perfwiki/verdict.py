"""The one line a comparison leads with: which environment is faster, and by how much.

Computed from the comparison's cells, never written by hand. "Faster" folds in each
column's direction: a bar of IOPS is faster when higher, a latency when lower, so a
column's speed factor is value / baseline for the first and baseline / value for the
second. Several columns are summarised by the median of their factors, so one scenario
that hit a cache (147x on a 4 KiB random read) does not decide the ranking; the extremes
are named beside it. A verdict says when numbers behind it were typed by hand.
"""

from __future__ import annotations

import statistics
from typing import Any

from . import units

# Closer to the baseline than this is "even": a 3 % difference is not a result.
EVEN = 0.05


def speed(factor: float) -> str:
    """A speed factor in words: 1.14 -> '14 % faster', 0.32 -> '3.1x slower', 1.0 -> 'even'."""
    if abs(factor - 1) < 0.005:
        return "even"
    if factor >= 2:
        return f"{factor:.1f}× faster"
    if factor <= 0.5:
        return f"{1 / factor:.1f}× slower"
    if factor > 1:
        return f"{(factor - 1) * 100:.0f} % faster"
    return f"{(1 - factor) * 100:.0f} % slower"


def against(factor: float, baseline: str) -> str:
    """'14 % faster than host', 'even with host'."""
    said = speed(factor)
    return f"even with {baseline}" if said == "even" else f"{said} than {baseline}"


def factor(cell: dict[str, Any], higher_is_better: bool) -> float | None:
    """How many times faster than the baseline this cell is (lower latency is faster)."""
    relative = cell.get("relative")
    if not relative:
        return None
    return relative if higher_is_better else 1 / relative


def _across_note(columns: list[dict[str, Any]]) -> str:
    """' Compared across engine on purpose.' when the author let a parameter differ."""
    across = sorted({name for column in columns for name in column.get("compared_across") or []})
    return f" Compared across {', '.join(across)} on purpose: it differs between environments." if across else ""


def _manual_note(factors: dict[str, list[tuple[float, dict, dict]]]) -> str:
    """' nvme-ext4's numbers were typed by hand, not parsed from raw output.' when any were."""
    typed = [env for env, entries in factors.items() if any(entry[2].get("manual") for entry in entries)]
    if not typed:
        return ""
    whose = " and ".join(f"{env}'s" for env in typed)
    return f" {whose} numbers were typed by hand, not parsed from raw output."


def comparison_verdict(comparison: dict[str, Any], convention: str = "iec") -> str | None:
    """'nvme-ext4 against nvme-raw: faster in 6 of 10 scenarios, …' for two or more environments.

    `convention` is how the tool printed byte units ('iec' or 'si'), as the chart shows them.
    """
    baseline = comparison.get("baseline")
    columns = comparison["columns"]
    factors: dict[str, list[tuple[float, dict[str, Any], dict[str, Any]]]] = {}
    for row in comparison["rows"]:
        for column, cell in zip(columns, row["cells"], strict=True):
            found = factor(cell, column["higher_is_better"])
            if found is not None:
                factors.setdefault(row["environment"], []).append((found, column, cell))
    others = [env for env in factors if env != baseline]
    if baseline not in factors or not others:
        return None
    if len(columns) == 1:
        said = _one_column(comparison, factors, convention)
    elif len(others) == 1:
        said = _one_against_baseline(others[0], baseline, factors[others[0]])
    else:
        said = _ranking(baseline, factors, len(columns))
    return said + _manual_note(factors) + _across_note(columns)


def _one_column(comparison: dict[str, Any], factors: dict[str, list[tuple[float, dict, dict]]], convention: str) -> str:
    """'Fastest: X, 9.41 Gbit/s; slowest: Y, 2.1 Gbit/s, 4.5x slower than the baseline.'"""
    column = comparison["columns"][0]
    baseline = comparison["baseline"]
    ranked = sorted(factors.items(), key=lambda item: -item[1][0][0])
    scale = units.scale_for([entries[0][2]["value"] for _, entries in ranked], column["unit"], convention)
    spread = [entries[0][0] for _, entries in ranked]
    if len(ranked) > 2 and all(abs(found - 1) < EVEN for found in spread):
        values = sorted(entries[0][2]["value"] for _, entries in ranked)
        within = max(abs(found - 1) for found in spread)
        return (
            f"All {len(ranked)} within {max(within * 100, 1):.0f} % of {baseline}"
            f" ({scale.text(values[0])} to {scale.said(values[-1])}): no meaningful difference."
        )

    def told(env: str, entries: list[tuple[float, dict, dict]]) -> str:
        found, _, cell = entries[0]
        said = f"{env}, {scale.said(cell['value'])}"
        return f"{said} (the baseline)" if env == baseline else f"{said}, {against(found, baseline)}"

    (best, best_entries), (worst, worst_entries) = ranked[0], ranked[-1]
    if len(ranked) == 2:
        other = worst if best == baseline else best
        return told(other, factors[other]) + f" ({scale.said(factors[baseline][0][2]['value'])})."
    return f"Fastest: {told(best, best_entries)}; slowest: {told(worst, worst_entries)}."


def _one_against_baseline(env: str, baseline: str, entries: list[tuple[float, dict, dict]]) -> str:
    """'nvme-ext4 against nvme-raw: faster in 6 of 10, slower in 2, even in 2; from … to ….'"""
    even = [entry for entry in entries if abs(entry[0] - 1) < EVEN or entry[2].get("within_noise")]
    faster = [entry for entry in entries if entry not in even and entry[0] > 1]
    slower = [entry for entry in entries if entry not in even and entry[0] < 1]
    counts = [
        f"{word} in {len(group)}"
        for word, group in (("faster", faster), ("slower", slower), (f"even (within {EVEN:.0%})", even))
        if group
    ]
    counts[-1] += f" of {len(entries)} scenario{'s' if len(entries) != 1 else ''}"
    worst = min(entries, key=lambda entry: entry[0])
    best = max(entries, key=lambda entry: entry[0])
    extremes = f"from {speed(worst[0])} ({worst[1]['title']}) to {speed(best[0])} ({best[1]['title']})"
    if len(entries) < 2 or worst is best:
        extremes = f"{speed(best[0])} ({best[1]['title']})"
    return f"{env} against {baseline}: {', '.join(counts)}; {extremes}."


def _ranking(baseline: str, factors: dict[str, list[tuple[float, dict, dict]]], columns: int) -> str:
    """'Fastest: X, 4 % slower than B; slowest: Y, 12x slower (median over 6 scenarios).'"""
    medians = {env: statistics.median(entry[0] for entry in entries) for env, entries in factors.items()}
    ranked = sorted(medians, key=lambda env: -medians[env])

    def told(env: str) -> str:
        if env == baseline:
            return f"{env} (the baseline)"
        said = f"{env}, {against(medians[env], baseline)}"
        spread = sorted(entry[0] for entry in factors[env])
        if len(spread) > 1 and (spread[-1] / spread[0] > 1.25):  # the median hides a range: say it
            said += f" (from {speed(spread[0])} to {speed(spread[-1])})"
        return said

    best, worst = ranked[0], ranked[-1]
    said = f"Fastest: {told(best)}; slowest: {told(worst)}"
    if best == baseline and len(ranked) > 2:
        said += f"; closest to it: {told(ranked[1])}"
    counts = sorted({len(entries) for entries in factors.values()})
    over = f"{counts[0]}" if len(counts) == 1 else f"{counts[0]} to {counts[-1]}"
    return f"{said}. Medians over each environment's {over} scenarios."


def profile_verdict(metrics: list[dict[str, Any]], convention: str = "iec") -> str | None:
    """One environment, several scenarios: the best scenario of each metric.

    Each metric is {title, higher_is_better, unit, columns, values}. Scenarios of one
    environment differ by design (4 KiB random against 1 MiB sequential), so there is
    no "worst" to name: the line says where each metric peaks. With two scenarios it
    also says how far apart they are.
    """
    said = []
    for metric in metrics:
        present = [(c, v) for c, v in zip(metric["columns"], metric["values"], strict=True) if v]
        if not present:
            continue
        higher = metric["higher_is_better"]
        ranked = sorted(present, key=lambda item: item[1], reverse=higher)
        scale = units.scale_for([value for _, value in present], metric["unit"], convention)
        (best, best_value) = ranked[0]
        best_said = ("highest" if higher else "lowest") if len(present) > 1 else ""
        line = f"{best_said} {metric['title']}: {scale.said(best_value)} ({best['title']})".lstrip()
        if len(ranked) == 2:
            other, other_value = ranked[1]
            ratio = best_value / other_value if higher else other_value / best_value
            line += f", {speed(ratio)} than {other['title']}"
        said.append(line)
    if not said:
        return None
    text = "; ".join(said) + "."
    return text[0].upper() + text[1:]

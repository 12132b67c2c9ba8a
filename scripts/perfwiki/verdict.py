"""The one line a comparison leads with: which environment is faster, and by how much.

Computed from the comparison's cells, never written by hand, and only from like-for-like
results: a cell flagged as an artefact (artefacts.py: a page-cache hit, a guest served by its
host's cache, a file system "faster" than its own device) is left out of "faster", "fastest",
"slowest" and every range, and the same line says why ("win2008-vm-writeback-q4: 23.2×
r730-host — served from the host's cache, not the disk"). "Even" is noise.py's rule, the one
every page uses.

"Faster" folds in each column's direction: a bar of IOPS is faster when higher, a latency when
lower, so a column's speed factor is value / baseline for the first and baseline / value for
the second. Several columns are summarised by the geometric mean of their factors (the mean of
ratios that treats 2× and 0.5× alike), and the extremes are named beside it. A verdict says
when numbers behind it were typed by hand.
"""

from __future__ import annotations

import math
from typing import Any

from . import noise, units
from .units import ratio_text, significant  # the one number formatter: '1.50×', '14.2 %'

Entry = tuple[float, dict[str, Any], dict[str, Any]]  # (speed factor, column, cell)


# The units of a speed: a rate, or a time per operation. Anything else (retransmits, packets lost,
# a loss %) is better or worse, never "faster": 537× more retransmits is not a speed.
SPEED_UNITS = frozenset({"B/s", "bit/s", "IOPS", "ns", "events/s", "trans/s", "per test"})


def words(unit: str | None) -> tuple[str, str]:
    """('faster', 'slower') for a speed's unit (or when the unit is not known), else ('better', 'worse')."""
    return ("faster", "slower") if unit is None or unit in SPEED_UNITS else ("better", "worse")


def speed(factor: float, even: bool | None = None, unit: str | None = None) -> str:
    """A speed factor in words: 1.142 -> '14.2 % faster', 0.32 -> '3.13× slower', 'even' when `even`
    (a cell's own judgement, by noise.py: repeats can make 3 % a result), else within EVEN; 'better'
    and 'worse' for a unit that is no speed (`words`)."""
    up, down = words(unit)
    if noise.even_factor(factor) if even is None else even:
        return "even"
    if factor >= 2:
        return f"{ratio_text(factor)} {up}"
    if factor <= 0.5:
        return f"{ratio_text(1 / factor)} {down}"
    if factor > 1:
        return f"{significant((factor - 1) * 100)} % {up}"
    return f"{significant((1 - factor) * 100)} % {down}"


def against(factor: float, baseline: str, even: bool | None = None, unit: str | None = None) -> str:
    """'14.2 % faster than host', 'even with host'."""
    said = speed(factor, even, unit)
    return f"even with {baseline}" if said == "even" else f"{said} than {baseline}"


def factor(cell: dict[str, Any], higher_is_better: bool) -> float | None:
    """How many times faster than the baseline this cell is (lower latency is faster)."""
    relative = cell.get("relative")
    if not relative:
        return None
    return relative if higher_is_better else 1 / relative


def geometric_mean(factors: list[float]) -> float:
    return math.exp(sum(math.log(found) for found in factors) / len(factors))


def _is_even(entry: Entry) -> bool:
    return bool(entry[2].get("even"))


def joined(names: list[str]) -> str:
    """'a', 'a and b', 'a, b and c'."""
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


def _across_note(columns: list[dict[str, Any]]) -> str:
    """' Compared on purpose, although the engine differs between environments.' when the author let
    parameters differ (`ignore:`)."""
    across = sorted({name for column in columns for name in column.get("compared_across") or []})
    if not across:
        return ""
    differ = "differs" if len(across) == 1 else "differ"
    return f" Compared on purpose, although {joined([f'the {name}' for name in across])} {differ} between environments."


def _buffered_note(like: dict[str, list[Entry]]) -> str:
    """' Buffered I/O: the page cache is part of every number here, not the disks alone.' A buffered
    write returns once the page cache holds it and a buffered read may never reach the disk, so a
    ranking of buffered results ranks caches and write-back as much as disks. Counted over the
    scenarios the verdict compared, not the table's empty columns."""
    columns = list({column["id"]: column for entries in like.values() for _, column, _ in entries}.values())
    buffered = sum((column.get("parameters") or {}).get("io") == "buffered" for column in columns)
    if not buffered:
        return ""
    if buffered == len(columns):
        return " Buffered I/O: the page cache is part of every number here, not the disks alone."
    return (
        f" Buffered I/O in {buffered} of {len(columns)} scenarios: the page cache is part of those numbers, "
        "not the disks alone."
    )


def _manual_note(entries: dict[str, list[Entry]]) -> str:
    """' nvme-ext4's numbers were typed by hand, not parsed from raw output.' when any were."""
    typed = [env for env, found in entries.items() if any(entry[2].get("manual") for entry in found)]
    if not typed:
        return ""
    if len(typed) == 1:
        return f" {typed[0]}'s numbers were typed by hand, not parsed from raw output."
    return f" The numbers of {joined(typed)} were typed by hand, not parsed from raw output."


def _even_words(entries: list[Entry]) -> str:
    """How 'even' was judged, for the cells that were."""
    bound = f"±{noise.EVEN * 100:.0f} %"
    if any(entry[2].get("within_noise") for entry in entries):
        return f"even (within the repeats' noise or {bound})"
    return f"even (within {bound})"


def artefact_clause(artefacts: dict[str, list[Entry]], baseline: str | None) -> str:
    """' Left out, not a speed difference: X: 23.2× B (4 KiB random read) and 3 more, Y: … — served from
    the host's cache, not the disk.' Every environment is named, grouped by the reason."""
    if not artefacts:
        return ""
    by_reason: dict[str, list[str]] = {}
    for env, entries in artefacts.items():
        top = max(entries, key=lambda entry: entry[0])
        more = f" and {len(entries) - 1} more" if len(entries) > 1 else ""
        said = f"{env}: {ratio_text(top[0])} {baseline} ({top[1]['title']}){more}"
        by_reason.setdefault(top[2]["artefact"], []).append(said)
    groups = [f"{', '.join(envs)} — {reason}" for reason, envs in by_reason.items()]
    return " Left out, not a speed difference: " + "; ".join(groups) + "."


def split(comparison: dict[str, Any]) -> tuple[dict[str, list[Entry]], dict[str, list[Entry]]]:
    """Per environment, its like-for-like entries and its artefacts (cells a check explains)."""
    like: dict[str, list[Entry]] = {}
    artefacts: dict[str, list[Entry]] = {}
    for row in comparison["rows"]:
        for column, cell in zip(comparison["columns"], row["cells"], strict=True):
            found = factor(cell, column["higher_is_better"])
            if found is None:
                continue
            into = artefacts if cell.get("artefact") else like
            into.setdefault(row["environment"], []).append((found, column, cell))
    return like, artefacts


def comparison_verdict(comparison: dict[str, Any], convention: str = "iec") -> str | None:
    """'nvme-ext4 against nvme-raw: faster in 6 of 10 scenarios, …' for two or more environments.

    `convention` is how the tool printed byte units ('iec' or 'si'), as the chart shows them.
    """
    baseline = comparison.get("baseline")
    columns = comparison["columns"]
    values = [cell.get("max", cell.get("value")) for row in comparison["rows"] for cell in row["cells"]]
    if len(comparison["rows"]) > 1 and values and all(value == 0 for value in values):
        # Nothing to rank and no ratio to take: 0 packets lost, 0 retransmits, on every path.
        return f"0 on every environment ({len(comparison['rows'])}): nothing to set apart."
    like, artefacts = split(comparison)
    others = [env for env in like if env != baseline]
    if baseline not in like and baseline not in artefacts:
        return None
    if baseline not in like:
        # Every ratio is to the baseline: with it not a speed result, none of them is one either.
        reason = artefacts[baseline][0][2]["artefact"]
        return f"No verdict: every ratio here is to {baseline}, whose result is not a speed result ({reason})."
    if not others and not artefacts:
        return None
    if not others:
        said = "No like-for-like result to compare with the baseline."
    elif len(columns) == 1:
        said = _one_column(comparison, like, convention)
    elif len(others) == 1 and len(like) == 2:
        said = _one_against_baseline(others[0], baseline, like[others[0]])
    else:
        said = _ranking(baseline, like)
    # In the comparison's order: a set's order changes from one process to the next, and so did the page.
    shown = dict.fromkeys(row["environment"] for row in comparison["rows"])
    every = {env: like.get(env, []) + artefacts.get(env, []) for env in shown if env in like or env in artefacts}
    return (
        said
        + _zero_note(comparison)
        + artefact_clause(artefacts, baseline)
        + _buffered_note(like)
        + _manual_note(every)
        + _across_note(columns)
    )


def _zero_note(comparison: dict[str, Any]) -> str:
    """The environments a ratio cannot place: 0 where less is better (no retransmits, nothing lost),
    against a baseline that had some. Left unsaid, the best paths would be missing from the line."""
    if comparison["columns"][0].get("higher_is_better", True):
        return ""
    zero = [
        row["environment"]
        for row in comparison["rows"]
        if row["environment"] != comparison.get("baseline")
        and (values := [cell.get("max", cell.get("value")) for cell in row["cells"] if cell.get("value") is not None])
        and all(value == 0 for value in values)  # every run, not only the median: max, over repeats
    ]
    if not zero:
        return ""
    names = zero[0] if len(zero) == 1 else f"{', '.join(zero[:-1])} and {zero[-1]}"
    return f" None at all on {names} (0 in every scenario measured)."


def _one_column(comparison: dict[str, Any], like: dict[str, list[Entry]], convention: str) -> str:
    """'Fastest: X, 9.41 Gbit/s; slowest: Y, 2.1 Gbit/s, 4.5x slower than the baseline.'"""
    column = comparison["columns"][0]
    baseline = comparison["baseline"]
    ranked = sorted(like.items(), key=lambda item: -item[1][0][0])
    scale = units.scale_for([entries[0][2]["value"] for _, entries in ranked], column["unit"], convention)
    others = [entries[0] for env, entries in ranked if env != baseline]
    if len(ranked) > 2 and all(_is_even(entry) for entry in others):
        values = sorted(entries[0][2]["value"] for _, entries in ranked)
        within = max(abs(math.log(entry[0])) for entry in others)
        said = (
            "within the repeats' noise"
            if any(entry[2].get("within_noise") for entry in others)
            else f"within {max(math.expm1(within) * 100, 1):.0f} %"
        )
        return (
            f"All {len(ranked)} {said} of {baseline}"
            f" ({scale.text(values[0])} to {scale.said(values[-1])}): no meaningful difference."
        )

    def told(env: str, entries: list[Entry]) -> str:
        found, _, cell = entries[0]
        said = f"{env}, {scale.said(cell['value'])}"
        if env == baseline:
            return f"{said} (the baseline)"
        even = _is_even(entries[0])
        return f"{said}, {'even with ' + baseline if even else against(found, baseline, False, column['unit'])}"

    (best, best_entries), (worst, worst_entries) = ranked[0], ranked[-1]
    if len(ranked) == 2:
        other = worst if best == baseline else best
        return told(other, like[other]) + f" ({scale.said(like[baseline][0][2]['value'])})."
    top, bottom = _extremes(column["unit"])
    return f"{top}: {told(best, best_entries)}; {bottom}: {told(worst, worst_entries)}."


def _extremes(unit: str | None) -> tuple[str, str]:
    return ("Fastest", "slowest") if words(unit)[0] == "faster" else ("Best", "worst")


def _one_against_baseline(env: str, baseline: str, entries: list[Entry]) -> str:
    """'nvme-ext4 against nvme-raw: faster in 6 of 10, slower in 2, even in 2; from … to ….'"""
    unit = entries[0][1].get("unit") if entries else None
    up, down = words(unit)
    even = [entry for entry in entries if _is_even(entry)]
    faster = [entry for entry in entries if entry not in even and entry[0] > 1]
    slower = [entry for entry in entries if entry not in even and entry[0] < 1]
    counts = [
        f"{word} in {len(group)}" for word, group in ((up, faster), (down, slower), (_even_words(even), even)) if group
    ]
    if len(even) == len(entries):
        return f"{env} against {baseline}: {_even_words(even)} in all {len(entries)} like-for-like scenarios."
    counts[-1] += f" of {len(entries)} scenario{'s' if len(entries) != 1 else ''}"
    worst = min(entries, key=lambda entry: entry[0])
    best = max(entries, key=lambda entry: entry[0])
    extremes = (
        f"from {speed(worst[0], _is_even(worst), unit)} ({worst[1]['title']})"
        f" to {speed(best[0], _is_even(best), unit)} ({best[1]['title']})"
    )
    if len(entries) < 2 or worst is best:
        extremes = f"{speed(best[0], _is_even(best), unit)} ({best[1]['title']})"
    return f"{env} against {baseline}: {', '.join(counts)}; {extremes}."


def _ranking(baseline: str, like: dict[str, list[Entry]]) -> str:
    """'Fastest: X, 4 % slower than B; slowest: Y, 12x slower (geometric means over 6 scenarios).'"""
    means = {env: geometric_mean([entry[0] for entry in entries]) for env, entries in like.items()}
    ranked = sorted(means, key=lambda env: -means[env])
    unit = next((entries[0][1].get("unit") for entries in like.values() if entries), None)

    def told(env: str) -> str:
        if env == baseline:
            return f"{env} (the baseline)"
        said = f"{env}, {against(means[env], baseline, unit=unit)}"
        spread = sorted(entry[0] for entry in like[env])
        if len(spread) > 1 and (spread[-1] / spread[0] > 1.25):  # the mean hides a range: say it
            said += f" (from {speed(spread[0], unit=unit)} to {speed(spread[-1], unit=unit)})"
        return said

    counts = sorted({len(entries) for env, entries in like.items() if env != baseline})
    if len(counts) == 1:
        means_over = f"Geometric means over each environment's {counts[0]} like-for-like scenarios."
    else:
        # A mean over 2 scenarios set beside means over 6 ranks other work: name whose cover less.
        fewer: dict[int, list[str]] = {}
        for env in ranked:
            if env != baseline and len(like[env]) < counts[-1]:
                fewer.setdefault(len(like[env]), []).append(env)
        named = "; ".join(f"{count} for {joined(envs)}" for count, envs in sorted(fewer.items()))
        means_over = (
            f"Geometric means over each environment's like-for-like scenarios: {counts[-1]}, but {named}, "
            "so those means cover less of the work than the others'."
        )
    others = [env for env in ranked if env != baseline]
    if others and all(speed(means[env], unit=unit) == "even" for env in others):
        # A fastest and a slowest "even with" the baseline would rank noise.
        return f"Every environment even with {baseline} (within ±{noise.EVEN * 100:.0f} %). {means_over}"
    best, worst = ranked[0], ranked[-1]
    top, bottom = _extremes(unit)
    said = f"{top}: {told(best)}; {bottom}: {told(worst)}"
    if best == baseline and len(ranked) > 2:
        said += f"; nearest the baseline: {told(ranked[1])}"
    return f"{said}. {means_over}"


def _differs_in(a: dict[str, Any], b: dict[str, Any]) -> set[str]:
    return {key for key in {*a, *b} if a.get(key) != b.get(key)}


# Scenarios that differ in one of these measure different work: never "faster" than each other.
_WORKLOAD = {"direction", "rw", "rwmixread", "bs_bytes", "numjobs", "tool"}


def comparable_scenarios(a: dict[str, Any], b: dict[str, Any]) -> bool:
    """Two scenarios of one environment a sentence may set against each other: they differ in
    exactly one parameter, and not in what work was done (read against write, 4 KiB against
    1 MiB). One knob turned, as in a queue-depth sweep or buffered against direct I/O."""
    differs = _differs_in(a.get("parameters") or {}, b.get("parameters") or {})
    return len(differs) == 1 and not differs & _WORKLOAD


def _queued(best: dict[str, Any], columns: list[dict[str, Any]]) -> str:
    """' — at queue depth 128, most of it waiting in the queue' when the lowest latency of scenarios run
    at different depths came from one run deep: a latency at depth N holds the wait behind N - 1 others,
    so it is the queue's as much as the device's."""
    depths = {(column.get("parameters") or {}).get("iodepth") for column in columns}
    depth = (best.get("parameters") or {}).get("iodepth")
    if len(depths) < 2 or not isinstance(depth, int) or depth < 32:
        return ""
    return f" — at queue depth {depth}, most of it waiting in the queue"


def profile_verdict(metrics: list[dict[str, Any]], convention: str = "iec") -> str | None:
    """One environment, several scenarios: the best scenario of each metric.

    Each metric is {title, higher_is_better, unit, columns, values, artefacts}. Scenarios of one
    environment differ by design (4 KiB random read against 1 MiB sequential write), so the
    line says where each metric peaks and sets two scenarios against each other only when
    they are the same work with one knob turned (comparable_scenarios); an artefact says so.
    """
    said = []
    for metric in metrics:
        artefacts = metric.get("artefacts") or [None] * len(metric["values"])
        short = dict(zip((column["title"] for column in metric["columns"]), metric.get("short") or [], strict=False))
        present = [
            (column, value, artefact)
            for column, value, artefact in zip(metric["columns"], metric["values"], artefacts, strict=True)
            if value
        ]
        if not present:
            continue
        higher = metric["higher_is_better"]
        ranked = sorted(present, key=lambda item: item[1], reverse=higher)
        scale = units.scale_for([value for _, value, _ in present], metric["unit"], convention)
        best, best_value, best_artefact = ranked[0]
        best_said = ("highest" if higher else "lowest") if len(present) > 1 else ""
        lasted = short.get(best["title"])
        # A peak from a run of a second or two is warm-up and caches as much as the device: said with it.
        in_run = f", lasting {lasted:.3g} s" if lasted else ""
        line = f"{best_said} {metric['title']}: {scale.said(best_value)} ({best['title']}{in_run})".lstrip()
        if len(ranked) == 2 and comparable_scenarios(best, ranked[1][0]):
            other, other_value, _ = ranked[1]
            ratio = best_value / other_value if higher else other_value / best_value
            # An artefact's ratio is what the cache gave, said as such, never as "faster".
            line += (
                f", {ratio_text(ratio)} {other['title']}"
                if best_artefact
                else f", {speed(ratio, unit=metric['unit'])} than {other['title']}"
            )
        if best_artefact:
            line += f" — {best_artefact}"
        elif metric["unit"] == "ns" and len(present) > 1:
            line += _queued(best, [column for column, _, _ in present])
        said.append(line)
    if not said:
        return None
    text = "; ".join(said) + "."
    if any(any(metric.get("manual") or []) for metric in metrics):
        text += " Some of these numbers were typed by hand, not parsed from raw output."
    return text[0].upper() + text[1:]

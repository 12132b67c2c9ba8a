"""Run ids that moved since the last ingest, kept as old names in the report's aliases.yaml.

A run's id is made from its own file (`extract.assign_ids`), so another file never moves it;
but renaming its file, or inserting a run above it in the same file, must. The old address
then has to keep reaching the run: ingest recognises each run it published before by its
content, and when that run's id now differs it retires the old id and writes `old: new` into
the report's aliases.yaml itself, saying so ("aliases.yaml:12: warning: kept old id ...").

Why aliases.yaml, and not a ledger of ingest's own (in data/ or .perfwiki-cache/): the wiki is
built from a clone (CI, a colleague's machine) where neither exists, and an old address must
keep working there too. aliases.yaml is committed with the rename it records, reviewed like
any change, and is already the one table every citation, export and redirect reads
(aliases.py). What ingest keeps of its own is only what it published last: data/ids/<report>.json,
{content digest: id}, from which the next ingest learns what moved (a report just renamed finds
it under its former slugs, `previous`). Without it (a first ingest,
a fresh clone) nothing is detected and nothing is written.

A run is known by a digest of its tool, format, command and parsed results (`digest`): the
same output in another file, or lower in the same one, is the same run. Two runs of a report
with one digest (one output pasted twice) are told apart by nothing, and neither is followed.
"""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

import orjson

from . import aliases, datafile
from .extract import assign_ids
from .files import write_atomically
from .model import Problem, Run

LEDGER = "ids"  # data/ids/<report>.json


def digest(run: Run) -> str:
    """What a run is, wherever it sits: its tool, format, command and results (not its place or id).

    fio logs handed to a run (metrics.logs) are left out: they are files of their own, named apart.
    orjson and blake2b directly: datafile.dump and sha256 took twice as long, and a cold ingest
    asks this of every run.
    """
    metrics = {key: value for key, value in run.metrics.items() if key != "logs"}
    content = [run.tool, run.format, run.command, metrics]
    try:
        encoded = orjson.dumps(content, option=orjson.OPT_SORT_KEYS)
    except TypeError:  # what orjson refuses (an integer past 64 bits): the standard library's encoder
        encoded = datafile.dump_with_json(content).encode("utf-8")
    return hashlib.blake2b(encoded, digest_size=10).hexdigest()


def ledger(runs: list[Run], digests: list[str]) -> dict[str, str]:
    """{digest: id} of the runs whose digest is theirs alone: what the next ingest compares with."""
    counted: dict[str, list[str]] = {}
    for key, run in zip(digests, runs, strict=True):
        counted.setdefault(key, []).append(run.id)
    return {key: ids[0] for key, ids in sorted(counted.items()) if len(ids) == 1}


def previous(root: Path, report: str, former_slugs: list[str] | tuple[str, ...] = ()) -> dict[str, str]:
    """What the last ingest published of a report's runs ({} without it): its ledger under its slug
    and under each slug it had before.

    A report folder renamed in the same change as one of its files was last published under its
    old slug, so that is where its runs' old ids are; read under the new slug alone, nothing would
    be found to have moved. Where two ledgers know one digest, the slug now wins, then the former
    slugs in the order the front matter gives them.
    """
    found: dict[str, str] = {}
    for name in (report, *former_slugs):
        path = root / "data" / LEDGER / datafile.name(name)
        try:
            ledger = datafile.load(path)
        except (OSError, ValueError):
            continue
        if isinstance(ledger, dict):
            found = {**ledger, **found}
    return found


def assign(
    runs: list[Run], digests: list[str], retired: dict[str, tuple[str, int]], before: dict[str, str]
) -> tuple[dict[str, str], list[Problem]]:
    """Give the runs their ids (extract.assign_ids); {old id: id now} of each run `before` knew by another id.

    An old id is retired before the runs are named again: a run inserted above its twin in the
    same file would otherwise take its twin's old id, and the old address would reach the wrong
    run. Retiring may move more ids (the next number is taken), so this repeats until no run's
    id moves; each round retires at least one more of `before`'s ids, so it ends.
    """
    by_hand = {index for index, run in enumerate(runs) if run.id}  # manual.yaml's ids are never moved
    hand_ids = {runs[index].id for index in by_hand}
    kept = set(retired)
    seen: dict[str, int] = {}
    for key in digests:
        seen[key] = seen.get(key, 0) + 1
    followed = [key if seen[key] == 1 else None for key in digests]  # one output pasted twice: neither
    while True:
        for index, run in enumerate(runs):
            if index not in by_hand:
                run.id = ""
        problems = assign_ids(runs, kept)
        moved = {
            before[key]: run.id
            for key, run in zip(followed, runs, strict=True)
            if key in before and before[key] != run.id and before[key] not in retired
        }
        more = {old for old in moved if old not in kept and old not in hand_ids}
        if not more:
            ids = {run.id for run in runs}
            return {old: now for old, now in moved.items() if old not in ids}, problems
        kept |= more


def keep(
    root: Path,
    shown: str,
    text: str | None,
    retired: dict[str, tuple[str, int]],
    moved: dict[str, str],
    header: str | None = None,
    written: str | None = None,
    noun: str = "id",
) -> tuple[dict[str, tuple[str, int]], list[Problem]]:
    """Write the `moved` ids into the report's aliases.yaml (`shown`, relative to `root`), and read it again.

    Returns its entries as aliases.read gives them, and a note per line written, or a problem
    naming the lines to add by hand when the file cannot be written. Another table of old names
    (scenario_aliases.py) gives its own `header` for a new file, `written` above the lines added,
    and the `noun` its notes name.
    """
    new_text, notes = _recorded(text, retired, moved, shown, header or _HEADER, written or _WRITTEN, noun)
    try:
        write_atomically(root / shown, new_text)
    except OSError as exc:
        lines = ", ".join(f"'{old}: {now}'" for old, now in sorted(moved.items()))
        return retired, [Problem(shown, 1, f"cannot write ({exc.strerror}): add {lines} to keep the old addresses")]
    entries, problems = aliases.read(shown, new_text)
    return entries, notes + problems


def _recorded(
    text: str | None,
    entries: dict[str, tuple[str, int]],
    moved: dict[str, str],
    shown: str,
    header: str,
    written: str,
    noun: str,
) -> tuple[str, list[Problem]]:
    """aliases.yaml's text with every id in `moved` kept as an old id, and a note per line written.

    An entry already there whose run moved is pointed at the run's id now (aliases.py allows no
    chains); each new old id is a line at the end.
    """
    lines = (text if text is not None else header).split("\n")
    notes = []
    for old, (target, line) in entries.items():
        if target in moved:
            value = re.compile(rf"(:\s*){re.escape(target)}(\s*(#.*)?)$")
            lines[line - 1] = value.sub(rf"\g<1>{moved[target]}\g<2>", lines[line - 1])
            note = f"kept old {noun} {old!r} -> {moved[target]!r} (it named {target!r}, which moved)"
            notes.append(Problem(shown, line, note, "warning"))
    while lines and not lines[-1].strip():
        lines.pop()
    added = [(old, now) for old, now in sorted(moved.items()) if old not in entries]
    if added:
        lines += ["", written]
    for old, now in added:
        lines.append(f"{old}: {now}")
        notes.append(Problem(shown, len(lines), f"kept old {noun} {old!r} -> {now!r}", "warning"))
    return "\n".join(lines) + "\n", notes


_WRITTEN = "# Written by `perfwiki ingest`: runs it had published under another id (a file renamed, a run inserted)."
_HEADER = """\
# Run ids this report's runs had before, and the id each has now: `old-id: new-id`, one a line.
# Citations ({{< run >}}, {{< command >}}), `perfwiki export` and the old run page addresses
# take an old id to its run, and no run is given an old id again. Add a line for every id
# that changes.
# (README, "Run ids, and old names that keep working"; scripts/perfwiki/aliases.py.)"""

"""Old scenario addresses that keep working: `/scenarios/<old key>/` after a scenario's key changed.

A scenario page is named by its fingerprint (compare.fingerprint_key): the tool and the parameters
that make runs comparable. perfwiki can change a key while no run changes: when fio's defaults were
filled into fingerprints (numjobs 1 where the output did not print it), build-vm's randread and
randwrite scenarios went from `fio-read-randread-4096-16-direct-libaio-file` to
`fio-read-randread-4096-16-1-direct-libaio-file`, and every link to the old pages led nowhere.

An old key is kept when what its page showed is still shown, and still true, on one page now: the
runs it listed (report and run id) that still exist are all runs of one scenario, whose fingerprint
says everything the old one said (each parameter the old one knew has the same value; the new one
may know more). That is the same measurement named more precisely. A run whose command was corrected
(qd16 to qd32) moves to a scenario that says something else: its old page would now claim what the
runs did not run, so it is left to 404 rather than lead there.

Why a committed table, as a report's retired run ids are (renames.py): the wiki is built from a
clone where the last ingest's data/ is not. `content/scenarios/aliases.yaml` holds `old-key: new-key`,
one a line; ingest appends a line when it sees a key move (the last generation's data/ against this
one) and says so, and checks every line each time: a line whose new key is no scenario now, or whose
old key is a scenario again (the page is that scenario's own), is a warning at its line and left out.
The content adapter gives each scenario page its old addresses as Hugo aliases, i.e. redirects.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from . import aliases, datafile, renames
from .model import Problem

TABLE = "content/scenarios/aliases.yaml"
INDEX = datafile.name("scenario_index")

_HEADER = """\
# Scenario keys that pages had before, and the key each scenario has now: `old-key: new-key`, one a line.
# The old address /scenarios/<old-key>/ redirects to the scenario's page. Ingest adds a line when a
# scenario's key changes while its runs stay the same runs (a default filled in, say); commit it.
# (README, "Run ids, and old names that keep working"; scripts/perfwiki/scenario_aliases.py.)"""
_WRITTEN = "# Written by `perfwiki ingest`: scenarios it had published under another key, the same runs."


@dataclass(frozen=True)
class Scenario:
    """What a scenario page showed: its fingerprint and its runs, as (report, run id)."""

    fingerprint: dict[str, Any]
    runs: frozenset[tuple[str, str]]

    @classmethod
    def of(cls, document: dict[str, Any]) -> Scenario:
        return cls(document["fingerprint"], frozenset((run["report"], run["run"]) for run in document["runs"]))

    def says_all_of(self, before: Scenario) -> bool:
        """Whether every parameter `before` knew has the same value here (a key filled in is fine)."""
        return all(self.fingerprint.get(key) == value for key, value in before.fingerprint.items() if value is not None)


def moved(before: dict[str, Scenario], now: dict[str, Scenario]) -> dict[str, str]:
    """{old key: key now} of each scenario of `before` gone under its key whose runs are one scenario's now."""
    # Each run's scenarios now: the candidates are the scenarios of any one old run, so a perfwiki
    # change that moves every key compares each with a few, not with every scenario.
    where: dict[tuple[str, str], list[str]] = {}
    for key, scenario in now.items():
        for run in scenario.runs:
            where.setdefault(run, []).append(key)
    found = {}
    for key, old in before.items():
        runs = {run for run in old.runs if run in where}
        if key in now or not runs:
            continue
        some = next(iter(runs))
        candidates = [new for new in where[some] if runs <= now[new].runs and now[new].says_all_of(old)]
        if len(candidates) == 1:
            found[key] = candidates[0]
    return found


def check(entries: dict[str, tuple[str, int]], now: set[str]) -> tuple[dict[str, str], list[Problem]]:
    """The lines of the table that hold, {old key: key now}, and a warning at each that does not."""
    table, problems = {}, []
    for old, (new, line) in entries.items():
        if old in now:
            problems.append(
                Problem(TABLE, line, f"{old!r} is a scenario's key now: its own page, the line is left out", "warning")
            )
        elif new not in now:
            problems.append(
                Problem(
                    TABLE, line, f"{old!r} -> {new!r}: there is no scenario {new!r}, the line is left out", "warning"
                )
            )
        else:
            table[old] = new
    return table, problems


def keep_old_keys(root: Path, files: dict[str, bytes], publishing: bool) -> tuple[dict[str, bytes], list[Problem]]:
    """The index's data/ files with each scenario's old addresses in scenario_index.json (`aliases`).

    `files` are this ingest's (scenario_index.json, scenarios/<key>.json); what moved is found against
    the last ingest's data/, and written into the table, only when this ingest publishes.
    """
    text, entries, problems, unreadable = _read_table(root)
    problems += unreadable
    index = json.loads(files[INDEX])
    before = _published_before(root, set(index)) if publishing else {}
    if before:  # some key is gone (most ingests: none, and no scenario document is read)
        found = moved(before, _now(files, index))
        if found and not unreadable:
            entries, notes = renames.keep(
                root, TABLE, text, entries, found, header=_HEADER, written=_WRITTEN, noun="scenario key"
            )
            problems += notes
    table, wrong = check(entries, set(index))
    if not table:
        return files, problems + wrong
    for old, new in sorted(table.items()):
        index[new].setdefault("aliases", []).append(f"/scenarios/{old}/")
    return {**files, INDEX: datafile.dump(index).encode("utf-8")}, problems + wrong


def table_problems(root: Path, published_index: bytes) -> list[Problem]:
    """What keep_old_keys says of the table when the index it was given is the one published last time,
    with this very table (`published_index`: that scenario_index.json): nothing moved since, so only
    the table's own problems, which every ingest reports."""
    _, entries, unread, unreadable = _read_table(root)
    _, wrong = check(entries, set(json.loads(published_index)))
    return unread + unreadable + wrong


def _read_table(root: Path) -> tuple[str | None, dict[str, tuple[str, int]], list[Problem], list[Problem]]:
    """The table's text, its entries, what kept the file from being read, and the lines it could not read."""
    text, unread = _table_text(root)
    entries, unreadable = aliases.read(TABLE, text)
    return text, entries, unread, unreadable


def table_text(root: Path) -> str | None:
    """The table as committed (None without one): what ingest's output depends on."""
    return _table_text(root)[0]


def _table_text(root: Path) -> tuple[str | None, list[Problem]]:
    path = root / TABLE
    try:
        return path.read_text(encoding="utf-8-sig"), []
    except FileNotFoundError:
        return None, []
    except UnicodeDecodeError as exc:
        return None, [Problem(TABLE, 1, f"not valid UTF-8 (byte {exc.start}): {exc.reason}")]
    except OSError as exc:
        return None, [Problem(TABLE, 1, f"cannot read ({exc.strerror})")]


def _published_before(root: Path, now: set[str]) -> dict[str, Scenario]:
    """The scenarios the last ingest published under a key that is no scenario's now."""
    data = root / "data"
    try:
        keys = datafile.load(data / INDEX)
    except (OSError, ValueError):
        return {}
    found = {}
    for key in sorted(set(keys) - now) if isinstance(keys, dict) else []:
        try:
            found[key] = Scenario.of(datafile.load(data / datafile.name(f"scenarios/{key}")))
        except (OSError, ValueError, KeyError, TypeError):
            continue  # a document of another shape (an older perfwiki): nothing to follow
    return found


def _now(files: dict[str, bytes], index: dict[str, Any]) -> dict[str, Scenario]:
    return {key: Scenario.of(json.loads(files[datafile.name(f"scenarios/{key}")])) for key in index}

"""Ingest split across machines: each ingests a part of the reports, then one ingest joins the parts.

A report's files depend on that report alone (tests/test_ingest_union.py), and every cache entry is
named by a digest of what it was made from, this code included (cache.py). So:

- `perfwiki ingest --part K/N` builds and publishes the K-th of N parts of the reports. Every
  machine of a CI job plans the same content/ and so splits it the same way: by raw bytes, the
  largest reports first, each to the part with the fewest bytes so far.
- `perfwiki ingest --parts SITE...` is an ordinary ingest that first looks for each report in
  the parts' sites: where a part published the report under the same key, the part's cache
  entries for it are linked into this site's cache and its published files are linked from the
  part's generation, as from this site's own last one. A report no part has (a part that failed,
  content/ or perfwiki changed since) is built here, so the joined site is always what one ingest
  of the whole content/ publishes; then the site index is made from every report's share.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from . import publish
from .cache import AS_IT_IS, DICTIONARY, SHARE_KINDS, Cache
from .files import link_or_copy

if TYPE_CHECKING:
    from .ingest import ReportJob


class PartError(ValueError):
    """A `--part` that is not K/N with 1 <= K <= N, or a `--parts` folder that is no ingested site."""


def parse(text: str) -> tuple[int, int]:
    """'2/3' as (2, 3): the second of three parts."""
    number, _, count = text.partition("/")
    try:
        k, n = int(number), int(count)
    except ValueError:
        raise PartError(f"--part {text!r}: expected K/N, such as 1/4") from None
    if not 1 <= k <= n:
        raise PartError(f"--part {text!r}: K must be from 1 to N")
    return k, n


def split(root: Path, jobs: list[ReportJob], part: tuple[int, int]) -> list[ReportJob]:
    """The jobs of part K of N, in their planned order.

    Greedy by size (the longest-processing-time rule): the reports by raw bytes, largest first
    (slug to break ties), each given to the part with the fewest bytes so far (the lowest
    numbered of equals). Deterministic, so every machine finds the same parts without talking."""
    number, count = part
    sizes = {job.slug: sum(os.path.getsize(root / raw.path) for raw in job.raw_files) for job in jobs}
    loads = [0] * count
    mine: set[str] = set()
    for slug in sorted(sizes, key=lambda slug: (-sizes[slug], slug)):
        lightest = loads.index(min(loads))
        loads[lightest] += sizes[slug]
        if lightest == number - 1:
            mine.add(slug)
    return [job for job in jobs if job.slug in mine]


@dataclass
class _Part:
    site: Path
    cache: Cache
    folders: dict[str, str]  # its generation in use, by tree name (publish.FOLDERS)
    reports: set[str]  # the keys of the reports that generation published


class Parts:
    """The sites of finished parts (`--parts`), and the reports each published."""

    def __init__(self, sites: list[Path]) -> None:
        self.parts: list[_Part] = []
        for site in sites:
            name = publish.current(site)
            if name is None:
                raise PartError(
                    f"--parts {site}: no ingest published there ({publish.DIR}/{publish.CURRENT} is missing)"
                )
            folders = {tree: os.fspath(path) for tree, path in publish.folders(site, name).items()}
            reports = set(publish.manifest(site, name).get("reports", []))
            self.parts.append(_Part(site, Cache(site), folders, reports))

    def adopt(self, store: Cache, job: ReportJob) -> dict[str, str] | None:
        """The generation folders of a part that published `job` under its key, its cache entries
        (the report, its share, its files' names, and its raw files' extracts and published texts)
        first linked into `store`; None when no part has it whole."""
        for part in self.parts:
            if job.key not in part.reports:
                continue
            entries = [(kind, job.key, ".pickle") for kind in ("reports", *SHARE_KINDS, "files")]
            if not all(part.cache.path(*entry).is_file() for entry in entries):
                continue
            for raw_file in job.raw_files:
                entries += [("extract", raw_file.key, ".pickle"), ("published", raw_file.key, "")]
                entries.append(("published", raw_file.key, AS_IT_IS))
            entries.append(DICTIONARY)  # what the extracts are compressed against
            for entry in entries:
                source = part.cache.path(*entry)
                if source.is_file():
                    _linked(source, store.path(*entry))
            return part.folders
        return None


def _linked(source: Path, target: Path) -> None:
    """A cache entry of a part in this site's cache (files.link_or_copy: entries are replaced by
    rename, never changed in place, so a link is safe), put in place by rename."""
    target.parent.mkdir(parents=True, exist_ok=True)
    temporary = target.with_name(f".{target.name}.{os.getpid()}.partial")
    temporary.unlink(missing_ok=True)
    link_or_copy(os.fspath(source), os.fspath(temporary))
    os.replace(temporary, target)

"""The last ingest's plan, kept per report folder with the names and stats of the files it was made from.

Planning reads every report's text, the names of its raw files and the environment pages it
shows, and checks them (validate.py): at 100,000 runs, 2,000 reports and 44,000 raw files,
that was 2.4 s of every ingest, however little had changed. What a report's plan holds (its
problems, whether it is held back, its raw files with their sha256, its front matter, its
problems of redaction) depends on the files in its folder and on what lies outside report
folders: the environment pages, hugo.toml, the rest of content/. So one walk of content/
(`survey`, a stat per file) tells which report folders are as the last ingest planned them,
and their plans are taken as they were; the others are planned again. Anything outside
report folders changed, and every report is planned again.

A folder with a file modified in the last seconds is not kept, as cache.FileDigests does: an
edit of the same size within the file system's clock step would leave its stats unchanged.
Nor is anything kept where the walk finds a symbolic link (what it points to may change
without a stat here saying so), or when hostnames are hidden: then the redaction depends on
every raw file's prompts.
"""

from __future__ import annotations

import contextlib
import dataclasses
import hashlib
import os
import pickle
import time
import zlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from . import cache
from .cache import DIR, FileDigests, _inflated
from .files import write_atomically
from .model import CONTENT_DIR

FILE = "plan.pickle"
# The layout of what is kept: another is read as nothing kept.
_FORMAT = 3
_PROTOCOL = pickle.HIGHEST_PROTOCOL
# Where perfwiki kept every raw file's digest before it kept plans (cache.FileDigests).
_DIGESTS_BEFORE = "digests.pickle"
# zlib level: the plan of 2,000 reports is a few MB of repeated names; level 1 is fast and enough.
_LEVEL = 1


@dataclass
class Survey:
    """What one walk of content/ found: a digest of everything outside report folders, and one per
    report folder (the names, sizes, mtimes and inodes of its files); the folders not yet settled."""

    outside: str
    folders: dict[str, str]
    unsettled: set[str] = field(default_factory=set)
    outside_settled: bool = True


def survey(root: Path) -> Survey | None:
    """The walk of content/ that says what changed since the last plan; None when a link is found."""
    content = os.fspath(root / CONTENT_DIR)
    reports = os.path.join(content, "reports")
    outside = hashlib.sha256(f"{cache.CODE_VERSION}\0{root}\0".encode())  # read here: tests change it
    now = time.time_ns()
    try:
        config = (root / "hugo.toml").stat()
        outside.update(f"hugo.toml {config.st_size} {config.st_mtime_ns} {config.st_ino}\n".encode())
        newest = config.st_mtime_ns
    except FileNotFoundError:
        outside.update(b"no hugo.toml\n")
        newest = 0
    # A report folder's name is not in `outside`: a report added plans no other again.
    newest_outside = _walk(content, outside, reports)
    if newest_outside is None:
        return None
    result = Survey("", {}, outside_settled=now - max(newest, newest_outside) > FileDigests.SETTLED_NS)
    for entry in _entries(reports):
        if entry.is_dir(follow_symlinks=False):
            digest = hashlib.sha256()
            newest = _walk(entry.path, digest)
            if newest is None:
                return None
            result.folders[entry.name] = digest.hexdigest()
            if now - newest <= FileDigests.SETTLED_NS:
                result.unsettled.add(entry.name)
    result.outside = outside.hexdigest()
    return result


def _walk(top: str, digest: Any, reports: str | None = None) -> int | None:
    """Every file under `top` into `digest` with its size, mtime and inode; the newest mtime, or None for
    a link. The folders in `reports` are left out: each report folder has a digest of its own."""
    newest = 0
    pending = [top]
    while pending:
        folder = pending.pop()
        for entry in _entries(folder):  # in the file system's order: another only plans again
            if entry.is_symlink():
                return None
            if entry.is_dir():
                if folder != reports:
                    pending.append(entry.path)
                    digest.update(f"{entry.path}/\n".encode())
            else:
                stat = entry.stat()
                newest = max(newest, stat.st_mtime_ns)
                digest.update(f"{entry.path} {stat.st_size} {stat.st_mtime_ns} {stat.st_ino}\n".encode())
    return newest


def _entries(folder: str) -> list[os.DirEntry[str]]:
    """A folder's entries; none when it is not there."""
    try:
        return list(os.scandir(folder))
    except FileNotFoundError:
        return []


@dataclass
class Memo:
    """The plan kept from the last ingest, for the parts of this survey that match it.

    `site` holds what was read outside report folders (the environment pages checked, each
    page's document, their problems of redaction); `reports` each report folder's record
    (ingest.FolderPlan), by folder name: both empty where anything differs. `known` is what
    every folder's files were found to be, matching or not (cache.FileDigests), with the
    `version` of the code that read them: a file whose stats are the same is not hashed again.
    """

    site: dict[str, Any] = field(default_factory=dict)
    reports: dict[str, Any] = field(default_factory=dict)
    known: dict[str, bytes] = field(default_factory=dict)  # pickled apart: read only for a folder planned anew
    version: str | None = None
    # Every file's digest as a perfwiki before plans were kept had them (digests.pickle), and its version.
    before: tuple[str | None, dict[str, tuple[int, int, int, str]]] | None = None

    def digests(self, folder: str) -> FileDigests:
        """What a folder planned anew starts from: its files as the last plan found them."""
        known = self.known.get(folder)
        if known is None and self.before is not None:
            return FileDigests(self.before[1], self.before[0])
        return FileDigests(pickle.loads(known) if known else {}, self.version)  # noqa: S301 - ours


def load(root: Path, found: Survey | None) -> Memo:
    """What of the last plan this survey allows to keep (nothing but the files' digests without a survey)."""
    kept = _unpickled(root / DIR / FILE)
    if not isinstance(kept, dict) or kept.get("format") != _FORMAT:
        # Upgraded from a perfwiki that kept the files' digests alone: they spare hashing every file again.
        before = _unpickled(root / DIR / _DIGESTS_BEFORE)
        return Memo(before=before if isinstance(before, tuple) and len(before) == 2 else None)
    known = {name: digests for name, (_, _, digests) in kept["reports"].items()}
    memo = Memo(known=known, version=kept["version"])
    if found is not None and kept["outside"] == found.outside:
        memo.site = kept["site"]
        memo.reports = {
            name: record
            for name, (digest, record, _) in kept["reports"].items()
            if digest is not None and found.folders.get(name) == digest and name not in found.unsettled
        }
    return memo


def _unpickled(path: Path) -> Any:
    """What a file of ours holds, or None when it is missing or unreadable."""
    try:
        with _inflated(path) as file:
            return pickle.load(file)  # noqa: S301 - ours
    except (OSError, EOFError, pickle.UnpicklingError, AttributeError, ImportError, TypeError, zlib.error):
        return None


def save(root: Path, found: Survey | None, site: dict[str, Any], reports: dict[str, Any]) -> None:
    """Keep this plan for the next ingest, each folder's record with the survey's digest of it (None
    when the folder is not settled, or there was no survey: then only its files' digests are kept)."""

    def digest(name: str) -> str | None:
        if found is None or name in found.unsettled:
            return None
        return found.folders.get(name)

    kept = {
        "format": _FORMAT,
        "version": cache.CODE_VERSION,
        "outside": found.outside if found is not None and found.outside_settled else None,
        "site": site,
        "reports": {
            # The files' digests pickled apart (a third of the whole): loaded only for a folder planned anew.
            name: (digest(name), dataclasses.replace(record, digests={}), pickle.dumps(record.digests, _PROTOCOL))
            for name, record in reports.items()
        },
    }
    data = pickle.dumps(kept, _PROTOCOL)
    (root / DIR).mkdir(exist_ok=True)
    write_atomically(root / DIR / FILE, zlib.compress(data, _LEVEL))
    with contextlib.suppress(FileNotFoundError):  # what kept the digests before plans were kept
        (root / DIR / _DIGESTS_BEFORE).unlink()

"""Publishing generations: the three trees ingest writes switch together, by one rename, or not at all.

Each ingest that publishes writes a whole generation, `.perfwiki-publish/<name>/` with `data/`,
`reports/` (site/static/reports) and `runs/` (site/static/runs) in it, beside the one in use. The
generation in use is the target of the symlink `.perfwiki-publish/current`; replacing that symlink
by rename(2) of a new one over it (`commit`) is the only step that changes what is published, so
a reader sees the old three trees or the new three, never one of each, and a process killed at
any moment leaves either generation whole. This is git's lock-file-and-rename and SQLite's
commit record: everything is written where no reader looks, then one atomic rename makes it
current, and whatever a crash leaves outside the current generation is known to be garbage, which
`recover` removes at the start of the next ingest (under the ingest lock).

Hugo reads the current generation through `hugo.toml`'s mounts (`.perfwiki-publish/current/data`
and the two static trees); Hugo's own `os.ReadFile` follows no symlink, so templates read a
generation's files by its name, which its `hugo/generation.json` holds (mounted as
hugo.Data.perfwiki.generation, `_partials/published.html`; not in data/, which stays the same
bytes whatever the generation is called).
`data`, `site/static/reports` and `site/static/runs` are symlinks into `current` for everything
else (perfwiki's own readers, people); Hugo ignores symlinks under a static folder. `hugo server`
needs `--poll`: its event watcher keeps watching the folders it first resolved, which the next
generation replaces.

The generation before the current one is kept until the next ingest: a server that has not
reloaded yet still reads whole, consistent files from it. The next ingest that publishes takes it
over (`recycle`): renamed to the new generation's name, it already holds every report that did not
change since it was made, and only what differs is taken out and put in (ingest._recycled). One
changed report then costs its own files and the site index's, not a link and an unlink for every
file of the wiki (2.2 s of one change at 100,000 runs: 87,000 links made, and as many removed).
When it cannot be taken over (none, or made by an older perfwiki), a new one is made (`begin`), its
unchanged files hard links to the current generation's.

A generation's name is a digest of what it publishes (its output key): the same content/ gives
the same name and the same bytes, however many ingests were killed on the way.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
from pathlib import Path

DIR = ".perfwiki-publish"
CURRENT = "current"
MANIFEST = "manifest.json"
# The document that names a generation, for templates (hugo.toml mounts it as hugo.Data.perfwiki.generation).
NAME_DOCUMENT = Path("hugo") / "generation.json"
# Each tree: its folder in a generation, and where it is published (a symlink into `current`).
# `exports` (each report's runs' exports, runstore.py) is read by Hugo's templates alone and published as
# nothing of its own: it has no place in PUBLISHED.
FOLDERS = {"data": "data", "raw": "reports", "runs": "runs", "exports": "exports"}
PUBLISHED = {"data": Path("data"), "raw": Path("site") / "static" / "reports", "runs": Path("site") / "static" / "runs"}
# What ingest published before generations, and a crash of it could leave behind.
LEGACY = (".data.new", ".data.old", ".raw.new", ".raw.old", ".runs.new", ".runs.old")


class PublishError(Exception):
    """Publishing failed (a full disk, a folder that cannot be written); what was published before stays."""


def crash_point(step: str) -> None:
    """For the crash tests: `PERFWIKI_CRASH_AT=<step>:<n>` kills this process at the n-th time it reaches `step`.

    SIGKILL, as a power cut or the OOM killer would: no handler, finally or atexit runs.
    """
    wanted = _CRASH.get(step)
    if wanted is None:
        return
    _REACHED[step] = _REACHED.get(step, 0) + 1
    if _REACHED[step] == wanted:
        os.kill(os.getpid(), signal.SIGKILL)


def _crash_plan() -> dict[str, int]:
    step, _, count = os.environ.get("PERFWIKI_CRASH_AT", "").partition(":")
    return {step: int(count or 1)} if step else {}


_CRASH = _crash_plan()
_REACHED: dict[str, int] = {}


def folder(root: Path) -> Path:
    return root / DIR


def current(root: Path) -> str | None:
    """The name of the generation in use, None before the first publication (or a dangling link)."""
    try:
        name = os.readlink(folder(root) / CURRENT)
    except OSError:
        return None
    return name if (folder(root) / name).is_dir() else None


def manifest(root: Path, name: str | None) -> dict:
    """What a generation was made from (`output`, `reports`) and which it replaced; {} when unreadable."""
    if name is None:
        return {}
    try:
        return json.loads((folder(root) / name / MANIFEST).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}


def recover(root: Path) -> None:
    """Remove what a killed ingest left: every generation but the current one and the one it replaced,
    a half-made `current` link, the staging folders of ingests before generations.

    Nothing to roll forward: a generation is either current (committed) or garbage.
    """
    publishing = folder(root)
    for name in LEGACY:
        _remove(root / name)
    (root / cache_written()).unlink(missing_ok=True)
    for tree in PUBLISHED.values():  # a link being replaced (_link) when the crash came
        _remove(root / tree.with_name(f".{tree.name}.link"))
    if not publishing.is_dir():
        return
    name = current(root)
    keep = {CURRENT, name, manifest(root, name).get("replaces")} if name else set()
    for entry in os.scandir(publishing):
        if entry.name not in keep:
            _remove(Path(entry.path))
            crash_point("recovered")


def cache_written() -> Path:
    """Where ingest recorded what it published before generations (now the generation's manifest)."""
    return Path(".perfwiki-cache") / "written"


def begin(root: Path, name: str) -> dict[str, str]:
    """A new, empty generation: {tree: its folder}, to be filled and then committed (or abandoned)."""
    generation = folder(root) / name
    _remove(generation)  # a leftover of the same name that recover() kept: never current here
    staging = {}
    for tree, sub in FOLDERS.items():
        (generation / sub).mkdir(parents=True)
        staging[tree] = os.fspath(generation / sub)
    (generation / NAME_DOCUMENT).parent.mkdir()
    (generation / NAME_DOCUMENT).write_text(json.dumps({"name": name}), encoding="utf-8")
    return staging


def recycle(root: Path, old: str, name: str) -> dict[str, str]:
    """Generation `old`, the one the current generation replaced, made the one being built under
    `name`: {tree: its folder}, its files still there for the caller to take out what differs.

    Its manifest goes first: from then on a crash leaves it garbage, never a generation that says
    it holds what it no longer does. Renamed, a server still reading it by its old name finds
    nothing there, as it would once it had been removed."""
    generation = folder(root) / old
    (generation / MANIFEST).unlink()
    crash_point("recycling")
    if old != name:
        _remove(folder(root) / name)  # a leftover of the same name that recover() kept: never current here
        os.rename(generation, folder(root) / name)
        generation = folder(root) / name
    document = generation / NAME_DOCUMENT
    document.unlink(missing_ok=True)
    document.write_text(json.dumps({"name": name}), encoding="utf-8")
    return {tree: os.fspath(generation / sub) for tree, sub in FOLDERS.items()}


def commit(root: Path, name: str, made_from: dict) -> None:
    """Make generation `name` the published one: one rename of a symlink. Then the older generations go."""
    publishing = folder(root)
    before = current(root)
    made_from = {**made_from, "replaces": before}
    (publishing / name / MANIFEST).write_text(json.dumps(made_from, sort_keys=True), encoding="utf-8")
    crash_point("manifest")
    link = publishing / f"{CURRENT}.new"
    _remove(link)
    os.symlink(name, link)
    crash_point("linked")
    os.replace(link, publishing / CURRENT)  # the commit
    crash_point("committed")
    link_published(root)
    for entry in os.scandir(publishing):
        if entry.name not in (CURRENT, name, before):
            _remove(Path(entry.path))
            crash_point("pruned")


def abandon(root: Path, name: str) -> None:
    """A generation that will not be committed (an error, Ctrl-C): removed, what is published unchanged."""
    _remove(folder(root) / name)


def folders(root: Path, name: str) -> dict[str, Path]:
    return {tree: folder(root) / name / sub for tree, sub in FOLDERS.items()}


def link_published(root: Path) -> None:
    """data/, site/static/reports and site/static/runs as symlinks into the current generation."""
    for tree, place in PUBLISHED.items():
        target = os.path.relpath(folder(root) / CURRENT / FOLDERS[tree], (root / place).parent)
        _link(root, root / place, target)
        crash_point("published")


def linked(root: Path) -> bool:
    """Every published path is the symlink link_published makes."""
    for tree, place in PUBLISHED.items():
        target = os.path.relpath(folder(root) / CURRENT / FOLDERS[tree], (root / place).parent)
        try:
            if os.readlink(root / place) != target:
                return False
        except OSError:
            return False
    return True


def _link(root: Path, path: Path, target: str) -> None:
    """`path` a symlink to `target`, replaced by rename; a folder there (published before generations)
    is moved into .perfwiki-publish/ first, where recover() or commit() removes it."""
    try:
        if os.readlink(path) == target:
            return
    except OSError:
        pass
    path.parent.mkdir(parents=True, exist_ok=True)
    new = path.with_name(f".{path.name}.link")
    _remove(new)
    os.symlink(target, new)
    if path.is_dir() and not path.is_symlink():
        aside = folder(root) / f"legacy-{path.name}"
        _remove(aside)
        os.rename(path, aside)
        os.replace(new, path)
        _remove(aside)
    else:
        os.replace(new, path)


def _remove(path: Path) -> None:
    """A file, symlink or folder, gone; nothing there is fine."""
    if path.is_symlink() or path.is_file():
        path.unlink(missing_ok=True)
    elif path.is_dir():
        shutil.rmtree(path, ignore_errors=True)
        if path.exists():  # ignore_errors hides a failure; one that leaves it there must not pass
            shutil.rmtree(path)


def publishing_error(exc: OSError) -> PublishError:
    """An OSError while publishing as a user reads it: what failed, on which path, and that nothing changed."""
    reason = (exc.strerror or str(exc)).strip()
    reason = reason[:1].lower() + reason[1:]
    where = f" while writing {exc.filename}" if exc.filename else ""
    return PublishError(f"{reason}{where}; the site published before is unchanged")

"""What `hugo server` reads under `perfwiki watch`: content/ as validation passed it, and what is gone 404s.

Hugo reads content/ front matter itself, and one page it cannot read (`date: 24.10.2021`, an
unclosed quote, `environments:` as a string) makes `hugo server` answer HTTP 500 on every page;
hugo 0.168 was also seen to panic (`Shift: unknown type *hugolib.pageMetaSource`) once such a page
was fixed. So under `make serve` Hugo's content mount is `.serve/content/`, a copy the watcher
brings up to date after each ingest (`Preview.update`): every file of content/ that Hugo reads,
except the folder of each report validation held back and each environment page with an error.
What Hugo had of those before they broke stays as it was (the last version it could read, its
runs said to be held back); one broken from its first save is not given to Hugo at all.

Hugo never reads a file before validation has: a save reaches it through the copy, after ingest
has published the data that goes with it. Leaving held-back reports out of content/ itself, by a
generated content mount's `files`, would have left Hugo polling the author's file as it is saved:
it reads a broken page within its 500 ms poll, before any ingest can have said anything.

`hugo server --renderToMemory` never forgets a page it rendered: with a report's index.md gone
from what it reads (held back, or its folder deleted) it logs the change and goes on serving the
old page, its run pages and raw pages. Hugo's own server redirects can answer for them: a
`[[server.redirects]]` entry with `status = 404` and `force = true` serves the 404 page with
status 404 even where a rendered file is. A change to a --config file makes Hugo 0.168 reload
its configuration and rebuild (about 2 s for the example site; other pages answer 200 meanwhile).

A second --config file cannot change one mount: its `module.mounts` replace all of hugo.toml's
(`hugo config mounts --config hugo.toml,other.toml` lists only the other's). So the watcher
writes `.serve/preview.toml`: hugo.toml's mounts with content's source moved to the copy, and a
404 for every page that is no longer served; before it starts the server, after each ingest, and
whenever hugo.toml changes. `make serve` passes it after hugo.toml and serve.toml.
"""

from __future__ import annotations

import json
import os
import shutil
import tomllib
from collections.abc import Iterable
from pathlib import Path
from urllib.parse import urlsplit

from . import content, validate
from .model import CONTENT_DIR, Problem

SERVE_DIR = Path(".serve")
COPY = SERVE_DIR / "content"
CONFIG = SERVE_DIR / "preview.toml"
# Where a file is written before it is renamed into the copy: outside what Hugo polls.
_STAGING = SERVE_DIR / "content.partial"


class Preview:
    """The copy of content/ Hugo reads and the configuration that mounts it, kept by one watcher.

    It remembers each report and environment page it has given Hugo: one that is not in the copy any
    more is answered with a 404 until it comes back (Hugo would serve what it rendered of it).
    """

    def __init__(self, root: Path) -> None:
        self.root = root
        self.given: set[str] = set()  # units (`reports/<slug>`, `environments/<id>.md`) Hugo has had

    def update(self, problems: Iterable[Problem]) -> set[str]:
        """After an ingest: the copy as validation passed content/, the configuration to match. Returns
        what is withheld (`withheld`)."""
        kept_out = withheld(problems)
        sync(self.root, kept_out)
        self.given |= units(self.root / COPY)
        self.write_config()
        return kept_out

    def write_config(self) -> bool:
        """Write `.serve/preview.toml` when it would change (True then); a hugo.toml that cannot be read
        is left to Hugo and ingest to report, the file as it was."""
        try:
            config = tomllib.loads((self.root / "hugo.toml").read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
            return False
        gone = self.given - units(self.root / COPY)
        text = "# Written by `perfwiki watch` from hugo.toml (preview.py): content/ as validation passed it.\n"
        text += "".join(_table("module.mounts", mount) for mount in mounts(config))
        text += "".join(_table("server.redirects", redirect) for redirect in redirects(config, gone))
        target = self.root / CONFIG
        if target.is_file() and target.read_text(encoding="utf-8") == text:
            return False
        target.parent.mkdir(parents=True, exist_ok=True)
        partial = target.with_name(f"{target.name}.partial")
        partial.write_text(text, encoding="utf-8")
        os.replace(partial, target)
        return True


def withheld(problems: Iterable[Problem]) -> set[str]:
    """What Hugo must not read, as paths under content/: each report ingest held back (its folder)
    and each environment page with an error."""
    problems = list(problems)
    kept_out = {f"reports/{slug}" for slug in validate.held_back(problems)}
    pages = f"{CONTENT_DIR}/environments/"
    for problem in problems:
        if problem.severity == "error" and problem.path.startswith(pages) and problem.path.endswith(".md"):
            kept_out.add(problem.path.removeprefix(f"{CONTENT_DIR}/"))
    return kept_out


def units(folder: Path) -> set[str]:
    """The report folders and environment pages under a content folder, as `withheld` names them."""
    found = {f"reports/{path.parent.name}" for path in folder.glob("reports/*/index.md")}
    pages = {f"environments/{path.name}" for path in folder.glob("environments/*.md") if path.name != "_index.md"}
    return found | pages


def mounts(config: dict) -> list[dict]:
    """hugo.toml's mounts, content's read from the copy."""
    listed = [dict(mount) for mount in config.get("module", {}).get("mounts", []) if isinstance(mount, dict)]
    content_dir = config.get("contentDir", CONTENT_DIR)
    moved = False
    for mount in listed:
        if mount.get("target") == "content" and mount.get("source") == content_dir:
            mount["source"] = COPY.as_posix()
            moved = True
    if not moved:  # Hugo's default content mount, which any mount listed would replace
        listed.insert(0, {"source": COPY.as_posix(), "target": "content"})
    return listed


def redirects(config: dict, gone: set[str]) -> list[dict]:
    """A 404 for every page of what is gone (a report: its page, run pages and raw pages), before
    hugo.toml's own redirects, which a later --config file's list replaces."""
    base = urlsplit(str(config.get("baseURL", "/"))).path.rstrip("/")
    patterns = []
    for unit in sorted(gone):
        kind, _, name = unit.partition("/")
        if kind == "reports":
            patterns += [f"{base}/{section}/{name}/**" for section in ("reports", "runs", "raw")]
        else:
            patterns.append(f"{base}/environments/{name.removesuffix('.md')}/**")
    own = config.get("server", {}).get("redirects", [])
    not_found = f"{base}/404.html"
    return [{"from": pattern, "to": not_found, "status": 404, "force": True} for pattern in patterns] + list(own)


def _table(name: str, values: dict) -> str:
    return f"\n[[{name}]]\n" + "".join(f"  {key} = {_toml(value)}\n" for key, value in values.items())


def _toml(value: object) -> str:
    """A value in TOML: strings (JSON's escapes are TOML's), booleans, numbers, lists of them."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return repr(value)
    if isinstance(value, list):
        return "[" + ", ".join(_toml(item) for item in value) + "]"
    return json.dumps(str(value), ensure_ascii=False)


def _read_by_hugo(relative: str) -> bool:
    """A file under content/ that Hugo reads as content: not hidden, not a report's raw file or
    aliases.yaml (hugo.toml's content mount leaves those out; ingest publishes what they hold)."""
    parts = relative.split("/")
    if any(part.startswith(".") for part in parts):
        return False
    in_report = len(parts) >= 3 and parts[0] == "reports"
    return not (in_report and (parts[2] == content.RAW_DIR or (len(parts) == 3 and parts[2] == content.ALIASES_FILE)))


def _kept_out(relative: str, withheld_paths: set[str]) -> bool:
    return any(relative == path or relative.startswith(f"{path}/") for path in withheld_paths)


def _files(folder: Path) -> dict[str, Path]:
    """{path relative to `folder`: file} of every file under it, but in folders Hugo does not read
    (hidden ones, raw/: a large wiki's thousands of raw files are not looked at on every save)."""
    found: dict[str, Path] = {}
    for here, folders, files in os.walk(folder):
        relative_here = os.path.relpath(here, folder)
        prefix = "" if relative_here == "." else relative_here.replace(os.sep, "/") + "/"
        folders[:] = [name for name in folders if _read_by_hugo(f"{prefix}{name}/")]
        for name in files:
            found[prefix + name] = Path(here) / name
    return found


def _same(source: Path, copied: Path) -> bool:
    """Copied with its time (copy2): the same size and modification time is the same file."""
    try:
        mine, theirs = source.stat(), copied.stat()
    except OSError:
        return False
    return (mine.st_size, mine.st_mtime_ns) == (theirs.st_size, theirs.st_mtime_ns)


def sync(root: Path, withheld_paths: set[str]) -> int:
    """Bring the copy Hugo reads up to date with content/, leaving out `withheld_paths`; the number of
    files written or removed. Each file is written beside the copy and renamed into it: Hugo, polling,
    sees the old file or the new one, never half of one."""
    source, copy, staging = root / CONTENT_DIR, root / COPY, root / _STAGING
    wanted = {
        relative: path
        for relative, path in _files(source).items()
        if _read_by_hugo(relative) and not _kept_out(relative, withheld_paths)
    }
    present = _files(copy) if copy.is_dir() else {}
    changed = 0
    for relative, path in sorted(wanted.items()):
        target = copy / relative
        if relative in present and _same(path, target):
            continue
        staging.mkdir(parents=True, exist_ok=True)
        partial = staging / f"{os.getpid()}.partial"
        try:
            shutil.copy2(path, partial)
        except FileNotFoundError:  # deleted since the walk: the next ingest's sync removes it from the copy
            continue
        target.parent.mkdir(parents=True, exist_ok=True)
        os.replace(partial, target)
        changed += 1
    for relative in sorted(set(present) - set(wanted)):
        if _kept_out(relative, withheld_paths):
            # Held back after Hugo had a version it could read: that version stays. Taking it out
            # rewrote preview.toml (a 404 for its pages) on every break and again on every fix, and
            # hugo server 0.168, reloading its configuration while the copy changed, at times
            # never finished the rebuild: the preview stopped following saves.
            continue
        (copy / relative).unlink(missing_ok=True)
        changed += 1
    _remove_empty_folders(copy)
    shutil.rmtree(staging, ignore_errors=True)
    return changed


def _remove_empty_folders(folder: Path) -> None:
    for here, _folders, _names in os.walk(folder, topdown=False):  # the deepest first
        if Path(here) != folder:
            try:
                os.rmdir(here)
            except OSError:  # not empty
                pass

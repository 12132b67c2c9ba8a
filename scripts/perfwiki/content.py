"""What people wrote, found on disk: report bundles, environment pages, raw files.

The one place that decides what a raw file is: every file under
content/reports/<slug>/raw/<environment>/ (sub-folders too), except hidden ones,
without following folder links. Ingest, `perfwiki status` and `make perf` all walk
it through `raw_files`.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from .model import CONTENT_DIR, Problem, slug

RAW_DIR = "raw"
# A report's retired run ids and the runs they name now (aliases.py); never a raw file, never a page.
ALIASES_FILE = "aliases.yaml"


@dataclass
class Bundle:
    """One report folder: its index.md, and its raw files by environment."""

    slug: str
    index_path: Path
    raw_files: list[tuple[str, Path]] = field(default_factory=list)  # (environment, file)

    @property
    def aliases_path(self) -> Path:
        """Its table of retired run ids (aliases.py), whether or not it has one."""
        return self.index_path.parent / ALIASES_FILE


class FrontMatterError(ValueError):
    """Front matter that cannot be read, and the line where it goes wrong (validate.py says more)."""

    def __init__(self, line: int, message: str) -> None:
        super().__init__(message)
        self.line = line


def front_matter_text(text: str) -> str | None:
    """The YAML between a page's opening '---' and the next '---' line (None when it has none).

    It starts with the rest of the opening line, so a YAML mark's line + 1 is the line in the file.
    """
    if not text.startswith("---"):
        return None
    end = text.find("\n---", 3)
    return text[3:end] if end >= 0 else None


def read_front_matter(path: Path) -> dict[str, Any]:
    """YAML front matter of a markdown file ({} when it has none); FrontMatterError when it cannot be read."""
    try:
        text = path.read_text(encoding="utf-8-sig")
    except UnicodeDecodeError as exc:
        raise FrontMatterError(1, f"not UTF-8 text (byte {exc.start}): save it as UTF-8") from None
    yaml_text = front_matter_text(text)
    if yaml_text is None:
        return {}
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml: every ingest reads every front matter
    try:
        loaded = yaml.load(yaml_text, Loader=loader)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        raise FrontMatterError(mark.line + 1 if mark else 1, f"front matter is not valid YAML: {exc.problem}") from None
    except (yaml.YAMLError, ValueError) as exc:  # ValueError: a date such as 2021-13-45
        raise FrontMatterError(1, f"front matter cannot be read: {' '.join(str(exc).split())}") from None
    return loaded if isinstance(loaded, dict) else {}


def line_of(path: Path, prefix: str) -> int:
    """The first line of a file that starts with `prefix` (1 when none does), for problems."""
    for number, line in enumerate(path.read_text(encoding="utf-8-sig").split("\n"), start=1):
        if line.startswith(prefix):
            return number
    return 1


def relative(path: Path, root: Path) -> str:
    """How runs and problems name a file: relative to the site root, with forward slashes."""
    text, base = str(path), str(root)
    prefix = base if base.endswith(os.sep) else base + os.sep  # os.path.join(base, ""), at a fifth of its cost
    if text.startswith(prefix) and prefix != os.sep:  # the usual case, without pathlib's parsing
        return text[len(prefix) :].replace(os.sep, "/")
    try:
        return path.relative_to(root).as_posix()
    except ValueError:
        return path.as_posix()


def known_environments(root: Path) -> set[str]:
    folder = root / CONTENT_DIR / "environments"
    if not folder.is_dir():
        return set()
    return {path.stem for path in folder.glob("*.md") if not path.name.startswith("_")}


def environment_page(root: Path, env: str) -> dict[str, Any]:
    """{id, title, kind, facts} of content/environments/<env>.md (empty when the page is missing)."""
    path = root / CONTENT_DIR / "environments" / f"{env}.md"
    front = read_front_matter(path) if path.is_file() else {}
    facts = front.get("facts") if isinstance(front.get("facts"), dict) else {}
    return {"id": env, "title": front.get("title"), "kind": front.get("kind"), "facts": facts}


def authored_pages(root: Path) -> list[Path]:
    """Pages people write and Hugo publishes as written: environments and report texts."""
    return environment_texts(root) + sorted((root / CONTENT_DIR / "reports").glob("*/index.md"))


def environment_texts(root: Path) -> list[Path]:
    """Every page under content/environments/, sorted: the authored pages outside report folders."""
    return sorted((root / CONTENT_DIR / "environments").glob("*.md"))


def report_path(root: Path, folder: str) -> Path:
    """A report folder's index.md."""
    return root / CONTENT_DIR / "reports" / folder / "index.md"


def files_under(folder: Path) -> list[Path]:
    """Every file under a folder, sub-folders too, without following folder links or hidden names."""
    return [path for path, _ in _files_and_links(folder)]


def _files_and_links(folder: Path) -> list[tuple[Path, bool]]:
    """(file, whether it is a link) under a folder, sorted by path: what `files_under` lists.

    Read with os.scandir, whose entries know their type without a stat of their own (a warm
    ingest of 10,000 runs lists 4,400 raw files three times over otherwise).
    """
    found: list[tuple[str, bool]] = []  # (path, is a link)
    pending = [os.fspath(folder)]
    while pending:
        try:
            entries = list(os.scandir(pending.pop()))
        except OSError:  # as os.walk does: a folder that cannot be read is skipped
            continue
        for entry in entries:
            if entry.name.startswith("."):
                continue
            if entry.is_dir(follow_symlinks=False):
                pending.append(entry.path)
            elif entry.is_file():  # a link to a file counts; a broken link or a link to a folder does not
                found.append((entry.path, entry.is_symlink()))
    # Sorted as Path objects sort, by their parts ("a/b" before "a-c"), as files_under always has: the
    # names split at the separator, not the Paths compared (a fifth of planning 44,000 raw files).
    found.sort(key=lambda item: item[0].split(os.sep))
    return [(Path(name), link) for name, link in found]


def bundles(root: Path) -> tuple[list[Bundle], list[Problem]]:
    """Every report bundle with its raw files, in a deterministic order; plus the folders refused.

    Refused: report and environment folders that are not slugs, environments without a
    page, and raw files that link outside content/ (a link to /etc/passwd would otherwise
    be parsed and published).
    """
    environments, inside = known_environments(root), (root / CONTENT_DIR).resolve()
    found: list[Bundle] = []
    problems: list[Problem] = []
    for folder in report_folders(root):
        bundle, refused = bundle_of(root, folder, environments, inside)
        problems += refused
        if bundle is not None:
            found.append(bundle)
    return found, problems


def report_folders(root: Path) -> list[Path]:
    """The folders under content/reports/ with an index.md, sorted: each a report bundle, if a slug."""
    reports_dir = root / CONTENT_DIR / "reports"
    return sorted(path.parent for path in reports_dir.glob("*/index.md")) if reports_dir.is_dir() else []


def bundle_of(root: Path, folder: Path, environments: set[str], inside: Path) -> tuple[Bundle | None, list[Problem]]:
    """One report folder's bundle (None when its name is not a slug), and what in it is refused
    (see bundles); `environments` are the known ids, `inside` the resolved content/."""
    index = folder / "index.md"
    if slug(folder.name) != folder.name:
        message = f"report folder {folder.name!r} is not a slug (a-z, 0-9, '-')"
        return None, [Problem(relative(index, root), 1, message)]
    bundle = Bundle(folder.name, index)
    problems = []
    raw = folder / RAW_DIR
    for env_dir in sorted(path for path in raw.iterdir() if path.is_dir()) if raw.is_dir() else []:
        env, where = env_dir.name, relative(env_dir, root)
        if slug(env) != env:
            problems.append(Problem(where, 1, f"environment folder {env!r} is not a slug (a-z, 0-9, '-')"))
            continue
        if env not in environments:
            problems.append(Problem(where, 1, f"unknown environment {env!r}: add content/environments/{env}.md"))
            continue
        linked_folder = env_dir.is_symlink()
        for path, linked in _files_and_links(env_dir):
            if (linked or linked_folder) and not path.resolve().is_relative_to(inside):
                problems.append(Problem(relative(path, root), 1, "links outside content/: not read"))
                continue
            bundle.raw_files.append((env, path))
    return bundle, problems


def raw_files(root: Path) -> list[Path]:
    """Every raw file ingest reads, in the order it reads them."""
    return [path for bundle in bundles(root)[0] for _, path in bundle.raw_files]

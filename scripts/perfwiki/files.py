"""Writing files and folders so that a crash or Ctrl-C never leaves half of one behind.

Every atomic write of perfwiki goes through here: a file (`write_atomically`), a folder of
files (`write_tree`), and a folder built beside the one it replaces (`swap_in`).
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable
from pathlib import Path


def write_atomically(target: Path, data: bytes | str) -> None:
    """Write beside the target, then rename over it: readers see the old file or the new one."""
    target.parent.mkdir(parents=True, exist_ok=True)
    # Named by the process rather than by mkstemp's random names (a cold ingest writes one per raw
    # file): no other process writes this name, and a leftover of a crashed one is overwritten.
    temporary = target.with_name(f".{target.name}.{os.getpid()}.partial")
    try:
        _write_file(temporary, data.encode("utf-8") if isinstance(data, str) else data)
        os.replace(temporary, target)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise


def _write_file(path: str | Path, data: bytes) -> None:
    """A whole file through the system calls themselves: a file object costs more than writing a small file."""
    handle = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_CLOEXEC, 0o666)
    try:
        rest = memoryview(data)
        while rest:  # a write may take less than all of it
            rest = rest[os.write(handle, rest) :]
    finally:
        os.close(handle)


def write_tree(folder: Path, files: dict[str, str]) -> None:
    """A folder of UTF-8 text files, whole or not at all."""
    temporary = folder.with_name(f".{folder.name}.{os.getpid()}.tmp")
    shutil.rmtree(temporary, ignore_errors=True)
    # Plain strings, and each folder made once: a report's tree is thousands of small files
    # (two per run), and pathlib's joins and a mkdir per file cost more than writing them.
    base = os.fspath(temporary)
    made: set[str] = set()
    for name, text in files.items():
        path = f"{base}/{name}"
        parent = os.path.dirname(path)
        if parent not in made:
            os.makedirs(parent, exist_ok=True)
            made.add(parent)
        _write_file(path, text.encode("utf-8"))
    temporary.mkdir(parents=True, exist_ok=True)  # an empty tree is still a tree
    shutil.rmtree(folder, ignore_errors=True)  # a leftover from an interrupted run
    os.rename(temporary, folder)


def recover(target: Path, previous: Path) -> None:
    """A crash between the two renames of `swap_in` leaves only the previous folder: put it back."""
    if not target.exists() and previous.exists():
        os.rename(previous, target)


def swap_in(staging: Path, target: Path, previous: Path) -> None:
    """Replace `target` by the fully built `staging` folder: two renames, then the old one goes."""
    if target.exists():
        os.rename(target, previous)
    os.rename(staging, target)
    shutil.rmtree(previous, ignore_errors=True)


def link_tree(built: Path, staging: Path, link: Callable[[str, str], None]) -> None:
    """Every file under `built` put at the same place under `staging` by `link` (link_or_copy), folders merged.

    What shutil.copytree(dirs_exist_ok=True, copy_function=link) did, without its copy of
    each folder's mode and times (two system calls a folder, and a run is a folder of its own).
    """
    pending = [(os.fspath(built), os.fspath(staging))]
    while pending:
        source, target = pending.pop()
        os.makedirs(target, exist_ok=True)
        with os.scandir(source) as entries:
            for entry in entries:
                if entry.is_dir():
                    pending.append((entry.path, f"{target}/{entry.name}"))
                else:
                    link(entry.path, f"{target}/{entry.name}")


def link_or_copy(built: str, target: str) -> None:
    """Put a finished file into a staging tree: a hard link (10,000 runs are 10,000 files), else a copy."""
    try:
        os.link(built, target)
    except OSError:
        shutil.copyfile(built, target)

"""Writing files and folders so that a crash or Ctrl-C never leaves half of one behind.

Every atomic write of perfwiki goes through here: a file (`write_atomically`), and a folder
built beside the one it replaces (`write_files` into it, then `swap_in`).
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path


def write_atomically(target: Path, data: bytes | str) -> None:
    """Write beside the target, then rename over it: readers see the old file or the new one."""
    # Named by the process rather than by mkstemp's random names (a cold ingest writes one per raw
    # file): no other process writes this name, and a leftover of a crashed one is overwritten.
    temporary = target.with_name(f".{target.name}.{os.getpid()}.partial")
    encoded = data.encode("utf-8") if isinstance(data, str) else data
    try:
        try:
            _write_file(temporary, encoded)
        except FileNotFoundError:  # the folder first: asking each time was a failed mkdir a file
            target.parent.mkdir(parents=True, exist_ok=True)
            _write_file(temporary, encoded)
        os.replace(temporary, target)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise


# A staging folder's files are new: O_EXCL refuses a path that is already there, which may be
# a hard link to a published file (write_files) that truncating would change in place.
_NEW = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC
_REPLACED = os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_CLOEXEC


def _write_file(path: str | Path, data: bytes, flags: int = _REPLACED) -> None:
    """A whole file through the system calls themselves: a file object costs more than writing a small file."""
    handle = os.open(path, flags, 0o666)
    try:
        rest = memoryview(data)
        while rest:  # a write may take less than all of it
            rest = rest[os.write(handle, rest) :]
    finally:
        os.close(handle)


def write_files(folder: str, files: dict[str, bytes], published: str | None = None) -> None:
    """Files into a staging folder (a crash leaves a folder nobody reads, never half of a published one).

    With `published`, the folder where the same files were published last: each is a hard link
    to it there, and written only when it is not there (deleted by hand, on another file system).
    Plain strings, and each subfolder made once: a report's files are thousands of small ones
    (three a run), and pathlib's joins and a mkdir per file cost more than writing them.
    """
    made: set[str] = set()
    for name, data in files.items():
        path = f"{folder}/{name}"
        parent = path.rpartition("/")[0]
        if parent not in made:
            os.makedirs(parent, exist_ok=True)
            made.add(parent)
        if published is not None:
            try:
                os.link(f"{published}/{name}", path)
                continue
            except OSError:
                pass
        _write_file(path, data, _NEW)


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


def link_or_copy(built: str, target: str) -> None:
    """Put a file that is already on disk (a raw file) into a staging tree: a hard link, else a copy."""
    try:
        os.link(built, target)
    except OSError:
        shutil.copyfile(built, target)

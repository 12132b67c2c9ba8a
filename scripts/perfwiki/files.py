"""Writing files and folders so that a crash or Ctrl-C never leaves half of one behind.

Every atomic write of perfwiki goes through here: a file (`write_atomically`), and the files of a
publishing generation (`write_files`, `copy_file`; `publish` makes the generation current).
"""

from __future__ import annotations

import errno
import fcntl
import os
import shutil
from collections.abc import Iterable, Iterator
from pathlib import Path

from .publish import crash_point


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
    except OSError as exc:
        temporary.unlink(missing_ok=True)
        # Named by the target: write(2) failing for a full disk names no file, and the temporary name is ours.
        raise OSError(exc.errno, exc.strerror, os.fspath(target)) from exc
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


class OnDisk(str):
    """A file's content given as the path of a file that holds it, for write_files to copy: a file
    too large to hold as bytes (a report's JSON export of 100,000 runs is some 600 MB)."""


def write_files(folder: str, files: dict[str, bytes | OnDisk]) -> None:
    """Files into a generation being built (a crash leaves a folder nobody reads, never half of a published one)."""
    for path, data in zip(_staged(folder, files), files.values(), strict=True):
        if isinstance(data, OnDisk):
            copy_file(data, path)
        else:
            _named(_write_file, path, data, _NEW)


def link_files(folder: str, names: list[str], published: str) -> None:
    """Files of the generation in use (`published`) into one being built, each a hard link to the
    same file (published copies only, never a file under content/): what did not change is not
    written again."""
    for name, path in zip(names, _staged(folder, names), strict=True):
        link_or_copy(f"{published}/{name}", path)


# Where no hard link can be made: another file system (a part's generation or cache, `ingest --parts`),
# one without hard links, or a file at its link limit.
_UNLINKABLE = (errno.EXDEV, errno.EPERM, errno.EMLINK)


def link_or_copy(source: str, target: str) -> None:
    """`target` a hard link to `source`, a file perfwiki wrote (published or cached, never one under
    content/, which its author may edit in place), or a copy of it where no link can be made."""
    try:
        os.link(source, target)
    except OSError as exc:
        if exc.errno not in _UNLINKABLE:
            raise
        copy_file(source, target)


def _staged(folder: str, names: Iterable[str]) -> Iterator[str]:
    """The path of each named file in `folder`, its subfolder made first. Plain strings, and each
    subfolder made once: a report's files are hundreds of small ones, and pathlib's joins and a
    mkdir per file cost more than writing them."""
    made: set[str] = set()
    for name in names:
        path = f"{folder}/{name}"
        parent = path.rpartition("/")[0]
        if parent not in made:
            _named(os.makedirs, parent, exist_ok=True)
            made.add(parent)
        crash_point("staged")
        yield path


def copy_file(source: str, target: str) -> None:
    """A copy of a file that people may edit (a raw file under content/), never a link to it.

    A reflink where the file system shares blocks (btrfs, XFS: no data copied, and writing either
    file leaves the other as it was), else the kernel's own copy (copy_file_range/sendfile).
    """
    crash_point("staged")
    try:
        with open(source, "rb") as src, open(target, "xb") as dst:
            try:
                fcntl.ioctl(dst.fileno(), _FICLONE, src.fileno())
            except OSError:
                _send(src, dst)
    except OSError as exc:
        if exc.filename is None:
            raise OSError(exc.errno, exc.strerror, target) from exc
        raise


# The Linux ioctl that makes `dst` share `src`'s blocks (<linux/fs.h>: _IOW(0x94, 9, int)).
_FICLONE = 0x40049409


def _send(src, dst) -> None:
    """The whole file through sendfile(2), as shutil.copyfile does on Linux."""
    size, offset = os.fstat(src.fileno()).st_size, 0
    while offset < size:
        sent = os.sendfile(dst.fileno(), src.fileno(), offset, size - offset)
        if sent == 0:
            break
        offset += sent


def _named(call, path: str, *args, **kwargs) -> None:
    """call(path, ...), its OSError naming the path: write(2) failing for a full disk names no file."""
    try:
        call(path, *args, **kwargs)
    except OSError as exc:
        if exc.filename is None:
            raise OSError(exc.errno, exc.strerror, path) from exc
        raise


def recover(target: Path, previous: Path) -> None:
    """A crash between the two renames of `swap_in` leaves only the previous folder: put it back.

    For one folder on its own (the development server's search index, searchindex.py); ingest's
    trees switch together as a generation (publish.py).
    """
    if not target.exists() and previous.exists():
        os.rename(previous, target)


def swap_in(staging: Path, target: Path, previous: Path) -> None:
    """Replace `target` by the fully built `staging` folder: two renames, then the old one goes.

    A `previous` left by a crash after both renames is removed first: renaming onto a folder
    that is not empty fails (ENOTEMPTY), which wedged every later swap.
    """
    if target.exists():
        shutil.rmtree(previous, ignore_errors=True)
        os.rename(target, previous)
    os.rename(staging, target)
    shutil.rmtree(previous, ignore_errors=True)

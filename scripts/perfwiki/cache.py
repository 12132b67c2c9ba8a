"""What ingest already worked out, kept between runs in <site>/.perfwiki-cache/.

Every entry is named by a key that hashes everything its value depends on,
including the perfwiki code itself (`CODE_VERSION`): a changed parser, view or
writer invalidates every entry, so a stale cache can never be served. Entries are
written to a temporary name and renamed, so a crash leaves no half entry; an entry
that fails to load is treated as missing.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import os
import pickle
import shutil
import time
import zlib
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any, BinaryIO

from . import __version__
from .files import write_atomically

DIR = ".perfwiki-cache"
# The mark ("published" kind) of a raw file redaction found nothing to hide in: published as it is,
# from content/, rather than as a copy the cache would keep.
AS_IT_IS = ".as-it-is"


def _code_version() -> str:
    """A digest of every module of this package: parser version and more."""
    digest = hashlib.sha256(__version__.encode())
    package = Path(__file__).resolve().parent
    for path in sorted(package.rglob("*")):
        if path.suffix in (".py", ".yaml") and "__pycache__" not in path.parts:
            digest.update(path.relative_to(package).as_posix().encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()


CODE_VERSION = _code_version()


def key(*parts: str | bytes) -> str:
    """A cache key for these inputs under this code version."""
    digest = hashlib.sha256(CODE_VERSION.encode())
    for part in parts:
        data = part.encode() if isinstance(part, str) else part
        digest.update(len(data).to_bytes(8, "little") + data)  # length-prefixed: no two inputs collide
    return digest.hexdigest()


class Cache:
    def __init__(self, root: Path) -> None:
        self.folder = root / DIR
        self.used: set[str] = set()  # as text: a warm ingest of 10,000 runs marks 4,000 entries
        # Kinds whose entries in use are named wholesale (keep): {kind: names, whatever their suffix}.
        self.kept: dict[str, set[str]] = {}

    def path(self, kind: str, name: str, suffix: str) -> Path:
        return Path(self.mark(kind, name, suffix))

    def mark(self, kind: str, name: str, suffix: str) -> str:
        """An entry's path, which prune() keeps: this ingest uses it."""
        path = f"{self.folder}/{kind}/{name}{suffix}"
        self.used.add(path)
        return path

    def keep(self, kind: str, names: Iterable[str]) -> None:
        """Mark every entry of a kind with one of these names, whatever its suffix: at 100,000 runs a
        mark per raw file and kind made 126,000 paths for prune() to look up."""
        self.kept.setdefault(kind, set()).update(names)

    def load(self, kind: str, name: str, each: dict[str, Callable[[list], list]] | None = None) -> Any | None:
        """An entry, or None when it is missing or unreadable; `each[key]` is given every list piece of
        that key of an entry written in pieces as it is read (to pack runs before the next piece is read)."""
        path = self.path(kind, name, ".pickle")
        try:
            with _inflated(path, self.dictionary(kind)) as file:
                value = pickle.load(file)  # noqa: S301 - our own files, written by save() or pieces()
                return _merged(file, each) if isinstance(value, str) and value == _IN_PIECES else value
        except (OSError, EOFError, pickle.UnpicklingError, AttributeError, ImportError, zlib.error):
            return None

    @contextlib.contextmanager
    def pieces(self, kind: str, name: str) -> Iterator[Callable[[str, Any], None]]:
        """An entry written a piece at a time: yields put(key, value); load() returns the mapping of
        every key to its pieces, lists joined and mappings merged in the order put. The entry is in
        place when the block ends.

        A report's files ({tree: {path: bytes}}) and a raw file's runs are the larger part of what
        building them holds; in pieces, a file of 100,000 runs never has them all in memory at once.
        """
        with _replaced(self.path(kind, name, ".pickle")) as raw, _deflated(raw, self.dictionary(kind)) as file:
            pickler = pickle.Pickler(file, protocol=pickle.HIGHEST_PROTOCOL)
            pickler.dump(_IN_PIECES)
            # Each object is loaded by an unpickler of its own, whose memo starts empty: so must the
            # pickler's, or a piece's back-references point one object off (the marker's string).
            pickler.clear_memo()

            def put(key: str, value: Any) -> None:
                pickler.dump((key, value))
                pickler.clear_memo()  # or the pickler keeps every piece alive

            yield put

    def save(self, kind: str, name: str, value: Any) -> None:
        """The entry written beside its place and renamed over it (as write_atomically), pickled straight
        into the file: pickle.dumps held a second copy of a report's files, a fifth of a large build's peak."""
        with _replaced(self.path(kind, name, ".pickle")) as raw, _deflated(raw, self.dictionary(kind)) as file:
            pickle.dump(value, file, protocol=pickle.HIGHEST_PROTOCOL)

    def dictionary(self, kind: str) -> bytes | None:
        """What entries of this kind are compressed against: runs against runs (cachedict.py), the rest
        alone. Kept in the cache under the code's version, which is what it is made from: making it
        costs each process that reads or writes runs 20 ms, reading it nothing."""
        if kind != "extract":
            return None
        path = self.path(*DICTIONARY)  # prune() keeps it
        made = _DICTIONARIES.get(path)
        if made is None:
            try:
                made = path.read_bytes()
            except OSError:
                from . import cachedict  # it imports every parser: only processes that read or write runs

                made = cachedict.runs()
                write_atomically(path, made)
            _DICTIONARIES[path] = made
        return made

    def prune(self) -> None:
        """Drop every entry this ingest did not use, so the cache tracks the content."""
        if not self.folder.is_dir():
            return
        self.mark(*DICTIONARY)  # this code's, whichever process made or read it
        # os.scandir, not pathlib: a warm ingest of 10,000 runs looks at 4,000 entries to drop none.
        for kind in os.scandir(self.folder):  # the lock file beside the kinds stays
            kept = self.kept.get(kind.name, ())
            for entry in os.scandir(kind.path) if kind.is_dir() else []:
                if entry.path not in self.used and entry.name.partition(".")[0] not in kept:
                    shutil.rmtree(entry.path) if entry.is_dir(follow_symlinks=False) else os.unlink(entry.path)


@contextlib.contextmanager
def _replaced(target: Path) -> Iterator[BinaryIO]:
    """A file written beside `target` and renamed over it once whole (as write_atomically); on any
    failure the partial file goes, and a write error names the file (_named)."""
    temporary = target.with_name(f".{target.name}.{os.getpid()}.partial")
    target.parent.mkdir(parents=True, exist_ok=True)
    try:
        with temporary.open("wb") as file:
            yield file
        os.replace(temporary, target)
    except BaseException as exc:
        temporary.unlink(missing_ok=True)
        named = _named(exc, temporary)
        if named is exc:
            raise
        raise named from exc


def _named(exc: BaseException, path: Path) -> BaseException:
    """A write error with the file it was writing: a full disk is then said with its path
    (publish.publishing_error), as the writes of the published trees are, not as a bare ENOSPC."""
    if isinstance(exc, OSError) and exc.filename is None and exc.errno is not None:
        return OSError(exc.errno, exc.strerror, os.fspath(path))
    return exc


# Entries are pickles through zlib at its fastest-but-one level: a raw file's runs compress to
# half when whole, where each run's fields compressed apart (Run.pack) repeat every key name, and a
# report's share to a fifth. Runs are compressed against a dictionary of runs (cachedict.py): 30 %
# smaller again. The cache is then some 0.8 KiB a run, not 18.
_LEVEL = 6
_CHUNK = 64 * 1024


# The cache entry (kind, name, suffix) of the dictionary runs are compressed against, under this code's version.
DICTIONARY = ("dictionaries", key("runs"), "")
# The dictionaries this process read or made, by their path.
_DICTIONARIES: dict[Path, bytes] = {}
# A report's share of the site index is cached as three entries: its runs as the run finder lists them,
# with the report's title and date ("listings"), its scenarios' overlay series ("series"), and the rest
# ("shares"). The finder is made on a worker from the first alone while the ingest makes the rest of the
# index from the last; the series are read only for the few reports whose lines a scenario page draws.
SHARE_KINDS = ("shares", "listings", "series")


class _Deflating:
    """A file that writes through zlib (its own framing, which checks the dictionary and the data)."""

    def __init__(self, raw: BinaryIO, zdict: bytes | None) -> None:
        self.raw = raw
        options = {"zdict": zdict} if zdict else {}
        self.compressor = zlib.compressobj(_LEVEL, **options)

    def write(self, data: bytes) -> int:
        self.raw.write(self.compressor.compress(data))
        return len(data)

    def close(self) -> None:
        self.raw.write(self.compressor.flush())


class _Inflating(io.RawIOBase):
    """A file read through zlib a chunk at a time: an entry of 100,000 runs is never inflated whole."""

    def __init__(self, raw: BinaryIO, zdict: bytes | None) -> None:
        self.raw = raw
        self.decompressor = zlib.decompressobj(**({"zdict": zdict} if zdict else {}))

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        while True:
            if self.decompressor.eof:
                return 0
            data = self.decompressor.unconsumed_tail or self.raw.read(_CHUNK)
            if not data:  # cut short: not the end of the entry, which a reader of pieces would take it for
                raise OSError(f"{self.raw.name}: the entry ends before its compressed stream does")
            out = self.decompressor.decompress(data, len(buffer))
            if out:
                buffer[: len(out)] = out
                return len(out)


@contextlib.contextmanager
def _deflated(file: BinaryIO, zdict: bytes | None = None) -> Iterator[BinaryIO]:
    deflating = _Deflating(file, zdict)
    yield deflating  # type: ignore[misc]
    deflating.close()


@contextlib.contextmanager
def _inflated(path: Path, zdict: bytes | None = None) -> Iterator[BinaryIO]:
    with path.open("rb") as raw, io.BufferedReader(_Inflating(raw, zdict), _CHUNK) as inflated:
        yield inflated


# The first object of an entry that pieces() wrote: (key, value) pieces follow it to the end.
_IN_PIECES = "perfwiki entry in pieces v1"


def _merged(file: Any, each: dict[str, Callable[[list], list]] | None = None) -> dict[str, Any]:
    merged: dict[str, Any] = {}
    while True:
        try:
            key, value = pickle.load(file)  # noqa: S301 - ours
        except EOFError:
            return merged
        if isinstance(value, list):
            merged.setdefault(key, []).extend(each[key](value) if each and key in each else value)
        elif isinstance(value, dict):
            merged.setdefault(key, {}).update(value)
        else:
            merged[key] = value


class FileDigests:
    """The sha256 of raw files, kept with each file's size, mtime and inode so an unchanged file is not read.

    A warm ingest of 10,000 runs spent a quarter of its time reading and hashing every raw
    file to find that none changed; this is git's index trick. A file modified within the
    last seconds is not remembered (its mtime could still be shared with a later edit of
    the same size), so it is hashed again next time. planned.py keeps what each report
    folder's files were found to be (`seen`) with that folder's plan.
    """

    SETTLED_NS = 2_000_000_000

    def __init__(self, known: dict[str, tuple[int, int, int, str]], version: str | None) -> None:
        self.known = known
        # The code that judged the files text: a perfwiki whose rules changed reads each one again.
        self.version = version
        self.seen: dict[str, tuple[int, int, int, str]] = {}
        self.stats: dict[str, os.stat_result] = {}  # taken by unchanged(), used once by digest()

    def unchanged(self, path: Path) -> bool:
        """Whether the file is as the last ingest hashed it: the same bytes, which that ingest read as
        text (validation keeps a file that is not text from being hashed at all)."""
        name = str(path)
        found = self.known.get(name)
        if found is None or self.version != CODE_VERSION:
            return False
        stat = self.stats[name] = path.stat()  # for digest(), which asks next
        return found[:3] == (stat.st_size, stat.st_mtime_ns, stat.st_ino)

    def digest(self, path: Path) -> str:
        """The file's sha256, as model.sha256_hex of its bytes."""
        name = str(path)
        stat = self.stats.pop(name, None) or path.stat()
        found = self.known.get(name)
        if found is not None and found[:3] == (stat.st_size, stat.st_mtime_ns, stat.st_ino):
            self.seen[name] = found
            return found[3]
        with path.open("rb") as file:  # in pieces: a raw file may be hundreds of MB
            digest = hashlib.file_digest(file, "sha256").hexdigest()
        if time.time_ns() - stat.st_mtime_ns > self.SETTLED_NS:
            self.seen[name] = (stat.st_size, stat.st_mtime_ns, stat.st_ino, digest)
        return digest

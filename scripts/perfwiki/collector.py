"""Python's cyclic garbage collector kept out of the way of steps that make many objects and few cycles.

The collector runs a young collection every 700 allocations, and now and then a full one over every
object alive. A step that builds a large tree of plain dicts, lists and strings, all of them kept,
pays for collections that find nothing: the ingest's site index loaded 500 reports' shares (98 MB
unpickled) in 5.3 s with the collector on and 0.9 s with it off. Reference counting still frees
what is dropped; only cycles wait until the collector is back.
"""

from __future__ import annotations

import contextlib
import gc
from collections.abc import Iterator

# Allocations between two young collections while a file is parsed (Python's default is 700).
_YOUNG_COLLECTION = 50_000


@contextlib.contextmanager
def paused() -> Iterator[None]:
    """No collection inside the block; the collector as it was after it."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


@contextlib.contextmanager
def fewer_collections() -> Iterator[None]:
    """The collector's young collections run less often inside the block: parsing allocates many small
    objects, few of them in cycles, and the default costs more the more runs a long file keeps alive.
    On 32 MB of fio transcripts (tests/test_linear_parse.py's input) it took 0.118 s a MB against 0.105 s
    without it; on files of a few KB it changes nothing measurable (300 fio transcripts, a cold ingest
    of 2,000 runs: 1.00x)."""
    threshold = gc.get_threshold()
    gc.set_threshold(max(threshold[0], _YOUNG_COLLECTION), *threshold[1:])
    try:
        yield
    finally:
        gc.set_threshold(*threshold)


def worker_start() -> None:
    """A forked worker's collector on again (the ingest that forked it pauses its own: paused())."""
    gc.enable()

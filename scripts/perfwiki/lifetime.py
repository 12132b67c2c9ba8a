"""Processes that end with the one that started them: Linux's parent-death signal (prctl).

`make serve`'s Hugo and ingest's workers ask for a signal when their parent dies, even by SIGKILL,
so that none of them outlives it: a worker left running would go on writing into a generation
the next ingest has already removed.
"""

from __future__ import annotations

import signal
import sys
from collections.abc import Callable


def _prctl() -> Callable[..., int] | None:
    """Linux's prctl, looked up when this module loads: a child forked later then only calls it,
    loading nothing (a fork beside another thread, watchfiles', could wait on a loader lock forever)."""
    if sys.platform != "linux":  # elsewhere, SIGKILL of the parent can leave its children running
        return None
    import ctypes

    try:
        return ctypes.CDLL(None, use_errno=True).prctl
    except (OSError, AttributeError):
        return None


_PRCTL = _prctl()
_PR_SET_PDEATHSIG = 1


def parent_death_signal(signum: int) -> None:
    """In a child: have `signum` sent to this process when its parent dies."""
    if _PRCTL is not None:
        _PRCTL(_PR_SET_PDEATHSIG, int(signum), 0, 0, 0)


def die_with_parent() -> None:
    """A pool worker's initializer: killed when the ingest that started it dies."""
    parent_death_signal(signal.SIGKILL)

"""A one-line progress bar with an ETA, redrawn in place on a terminal."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TextIO

WIDTH = 24
# Below this many work items a progress bar would only flicker.
SHOWN_FROM = 200


def eta(seconds: float) -> str:
    minutes, secs = divmod(int(seconds), 60)
    return f"{minutes}m{secs:02d}s" if minutes else f"{secs}s"


def draw(out: TextIO, done: int, total: int, remaining: float, label: str) -> None:
    filled = int(WIDTH * done / total) if total else WIDTH
    bar = "#" * filled + "-" * (WIDTH - filled)
    out.write(f"\r[{bar}] {done}/{total} eta {eta(remaining)}  {label[:40]:<40}")
    out.flush()


def bar(total: int, out: TextIO | None) -> Callable[[str], None]:
    """A callback per finished item: a bar with an ETA on a terminal for long runs, else silent."""
    if out is None or total < SHOWN_FROM or not out.isatty():
        return lambda label: None
    started, finished = time.monotonic(), 0

    def step(label: str) -> None:
        nonlocal finished
        finished += 1
        elapsed = time.monotonic() - started
        draw(out, finished, total, elapsed / finished * (total - finished), label)
        if finished == total:
            out.write("\n")

    return step

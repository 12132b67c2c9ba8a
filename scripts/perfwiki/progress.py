"""A one-line progress bar with an ETA, redrawn in place on a terminal."""

from __future__ import annotations

from typing import TextIO

WIDTH = 24


def eta(seconds: float) -> str:
    minutes, secs = divmod(int(seconds), 60)
    return f"{minutes}m{secs:02d}s" if minutes else f"{secs}s"


def draw(out: TextIO, done: int, total: int, remaining: float, label: str) -> None:
    filled = int(WIDTH * done / total) if total else WIDTH
    bar = "#" * filled + "-" * (WIDTH - filled)
    out.write(f"\r[{bar}] {done}/{total} eta {eta(remaining)}  {label[:40]:<40}")
    out.flush()

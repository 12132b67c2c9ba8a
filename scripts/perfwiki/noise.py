"""When two results differ: the one rule every page uses to call a difference a result or noise.

A verdict ("14 % faster"), a table cell coloured better or worse, the compare page and a
regression flag in a history all ask the same question, so they ask it here, and a change is
never "faster" on one page and "no change" on another.

- With repeats on both sides (two or more runs each), the difference is noise when their
  min–max ranges overlap: the runs themselves show how far one measurement can move.
  MMTests and asv judge their comparisons the same way.
- Otherwise a single run cannot show its own noise, and a speed factor within EVEN of 1
  (0.95 to 1.05) is even. Storage and network benchmarks commonly move a few
  percent from run to run.
"""

from __future__ import annotations

from dataclasses import dataclass

# A speed factor within this much of 1, either way, is even when there are no repeats to judge by.
EVEN = 0.05


@dataclass(frozen=True)
class Spread:
    """What is known of one side's runs: how many, and their lowest and highest value."""

    n: int
    low: float | None = None
    high: float | None = None


def spread(cell: dict) -> Spread:
    """A comparison cell's spread: {n, min, max} when it has repeats, {n} when not."""
    return Spread(int(cell.get("n") or 0), cell.get("min"), cell.get("max"))


def ranges_overlap(a: Spread, b: Spread) -> bool | None:
    """Whether two sides' min–max ranges overlap; None when either side has no repeats."""
    if a.n < 2 or b.n < 2 or None in (a.low, a.high, b.low, b.high):
        return None
    return a.low <= b.high and b.low <= a.high  # type: ignore[operator]


def even_factor(factor: float) -> bool:
    """A speed factor (above 1 is faster) within EVEN of 1, either way: 0.95 to 1.05 is even."""
    # A little slack, so that 950 against 1000 (a ratio that floats hold as 0.9499999…) is even.
    return 1 - EVEN - 1e-9 <= factor <= 1 + EVEN + 1e-9


def is_even(factor: float, a: Spread | None = None, b: Spread | None = None) -> bool:
    """Whether a difference is noise: by the repeats when both sides have them, else by EVEN."""
    overlap = ranges_overlap(a, b) if a is not None and b is not None else None
    return even_factor(factor) if overlap is None else overlap


def rule(beyond: bool, a: Spread | None = None, b: Spread | None = None) -> str:
    """Which rule judged a difference, and what it found, as a page says it."""
    if a is not None and b is not None and ranges_overlap(a, b) is not None:
        return (
            "the min–max ranges of the repeats do not overlap" if beyond else "within the min–max ranges of the repeats"
        )
    return f"{'beyond' if beyond else 'within'} ±{EVEN * 100:.0f} % (a single run shows no noise of its own)"

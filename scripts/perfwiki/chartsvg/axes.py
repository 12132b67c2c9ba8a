"""Axes of a static chart: where a value falls (a fraction of the plot) and which ticks it shows.

The choices are js/charts.js's, ported: a log axis only past a 4x range, its ticks at the fewest
marks per decade that put three labels on the data (logAxis), whole-number count ticks at a 1-2-5
step (countAxis), ten-thousands as 10k (countTicks). Automatic linear ticks follow plotly's own
rule (a step of 2, 5 or 10 times a power of ten, at least the range over the number of ticks), so
the static rendering and the interactive one label an axis alike.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from .. import units


@dataclass
class Axis:
    """A linear or log axis from `low` to `high` (for log, the powers of ten), or categories."""

    kind: str  # "linear", "log" or "category"
    low: float = 0.0
    high: float = 1.0
    categories: list[str] = field(default_factory=list)
    ticks: list[tuple[float, str]] = field(default_factory=list)  # (value or category index, label)
    title: str | None = None
    reversed: bool = False

    def fraction(self, value: float) -> float:
        """Where `value` (a category's index on a category axis) falls, 0 at the start, 1 at the end."""
        if self.kind == "category":
            at = (value + 0.5) / max(len(self.categories), 1)
        elif self.kind == "log":
            at = (math.log10(value) - self.low) / ((self.high - self.low) or 1) if value > 0 else 0.0
        else:
            at = (value - self.low) / ((self.high - self.low) or 1)
        return 1 - at if self.reversed else at


def tick_text(value: float) -> str:
    """A round value an axis labels (format.js tickText): its own digits, '0.5', '20', '1,000'."""
    if abs(value) >= 1000:
        return units.whole(value)
    shown = float(f"{value:.3g}")
    return str(int(shown)) if shown.is_integer() else repr(shown)


def short_text(value: float) -> str:
    """A tick in d3's '~s' format, as plotly prints it: '10k', '2.5M', '500M', '0'."""
    for factor, prefix in ((1e12, "T"), (1e9, "G"), (1e6, "M"), (1e3, "k")):
        if abs(value) >= factor:
            return f"{float(f'{value / factor:.3g}'):g}{prefix}"
    return f"{float(f'{value:.3g}'):g}"


def nice_step(span: float, count: int) -> float:
    """plotly's automatic tick step: 2, 5 or 10 times the power of ten below span/count."""
    rough = span / max(count, 1)
    if rough <= 0:
        return 1.0
    base = 10 ** math.floor(math.log10(rough))
    return next(m * base for m in (2, 5, 10) if m * base >= rough * (1 - 1e-9))


def auto_count(length_px: float, vertical: bool) -> int:
    """How many ticks plotly aims for on an axis this long: one per 40 px up, 80 px across, 4 to 9."""
    return int(min(max(length_px / (40 if vertical else 80), 4), 9)) + 1


def linear(low: float, high: float, count: int, short: bool = False, suffix: str = "") -> Axis:
    """A linear axis with ticks every nice_step from the first multiple at or past `low`."""
    step = nice_step(high - low, count)
    first = math.ceil(low / step - 1e-9) * step
    ticks, at = [], first
    while at <= high + step * 1e-9:
        value = round(at / step) * step
        value = 0.0 if abs(value) < step * 1e-9 else value
        ticks.append((value, (short_text(value) if short else tick_text(value)) + suffix))
        at += step
    return Axis("linear", low, high, ticks=ticks)


def padded(values: list[float], from_zero: bool) -> tuple[float, float]:
    """plotly's autorange, near enough: the data's span with 5% more each side, from zero when asked."""
    shown = [v for v in values if v is not None]
    if not shown:
        return 0.0, 1.0
    low, high = min(shown), max(shown)
    if from_zero:
        low = min(low, 0.0)
        high = max(high, 0.0)
        span = (high - low) or abs(high) or 1.0
        return (low - 0.05 * span if low < 0 else 0.0), high + 0.05 * span
    span = (high - low) or abs(high) or 1.0
    return low - 0.05 * span, high + 0.05 * span


_MANTISSAS = ((1,), (1, 2, 5), (1, 2, 3, 5), (1, 2, 3, 4, 5, 6, 7, 8, 9))


def log_or_linear(values: list[float | None], what: str, label: str, length_px: float) -> Axis:
    """charts.js logAxis: a log axis over `values` past a 4x range, ticks at the fewest marks per
    decade that put three labels on the data; a linear one below it."""
    shown = [v for v in values if v is not None and v > 0]
    if not shown or max(shown) / min(shown) < 4:
        low, high = padded([v for v in values if v is not None], from_zero=False)
        axis = linear(low, high, auto_count(length_px, True))
        axis.title = f"{what} ({label})"
        return axis
    low, high = min(shown), max(shown)
    pad = 0.04 * math.log10(high / low)
    start, end = math.log10(low) - pad, math.log10(high) + pad

    def marks(mantissas: tuple[int, ...]) -> list[float]:
        found = []
        for decade in range(math.floor(start), math.ceil(end) + 1):
            found += [m * 10.0**decade for m in mantissas]
        return [v for v in found if start <= math.log10(v) <= end]

    chosen = next((marks(m) for m in _MANTISSAS if sum(low <= v <= high for v in marks(m)) >= 3), marks(_MANTISSAS[-1]))
    ticks = [(v, tick_text(v)) for v in chosen]
    return Axis("log", start, end, ticks=ticks, title=f"{what} ({label}, log)")


def counts(values: list[float | None]) -> Axis:
    """charts.js countAxis: whole-number ticks at a 1-2-5 step near a fifth of the largest."""
    largest = max([0.0, *(v for v in values if v is not None)])
    rough = max(1.0, largest / 5)
    power = 10 ** math.floor(math.log10(rough))
    step = next(m * power for m in (1, 2, 5, 10) if m * power >= rough)
    high = max(largest, 1) * 1.05
    ticks = [(float(k * step), units.whole(k * step)) for k in range(int(high // step) + 1)]
    return Axis("linear", 0.0, high, ticks=ticks)


def categories(labels: list[str], reversed_: bool = False) -> Axis:
    return Axis(
        "category", categories=list(labels), ticks=[(i, label) for i, label in enumerate(labels)], reversed=reversed_
    )

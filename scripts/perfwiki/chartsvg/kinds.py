"""Each chart kind drawn as a static SVG, from the compact series perfwiki.charts describes.

js/charts.js draws the same series with plotly when the reader reaches for a chart; the rules of
each kind (scales, axis ranges, log or linear, tick marks, what each value prints) are that file's,
ported here function by function, so both renderings of a chart say the same. What a static chart
cannot know is its width: choices that depend on it (how far a bar axis runs so a value printed
beside its bar fits, how many ticks, whether category labels turn) are made for a phone's chart,
NARROW px wide, and hold on anything wider.
"""

from __future__ import annotations

import math
from datetime import datetime
from html import escape
from typing import Any

from .. import units
from ..tools.fio.pages import bucket_shares
from . import axes
from .axes import Axis
from .canvas import Canvas
from .textwidth import width

NARROW = 350  # px: a chart's width on a 390 px phone, the narrowest we draw for
TALL = 384  # px: a chart without a height of its own (.chart__plot's 24rem)
COUNT_UNITS = {"IOPS", "events/s", "trans/s"}
SERIES = 8  # colours in the theme's colorway (main.css --series-0 ...)
LINE_H = 18  # px a legend row or an axis title takes


def _present(values: list[Any]) -> list[float]:
    return [v for v in values if v is not None]


def _scale(plot: dict[str, Any], mode: str, values: list[Any]) -> units.Scale:
    """charts.js chartScale: the unit switch's convention, or the one the tool printed."""
    convention = mode if mode in ("si", "iec") else plot.get("printed") or "iec"
    return units.scale_for(list(values), plot.get("unit") or "", convention)


def _scaled(scale: units.Scale, value: Any) -> float | None:
    return None if value is None else scale.number(value)


# -- the frame every xy chart shares ----------------------------------------------------------


class Legend:
    """Entries above the plot, left to right, wrapped at a phone's width (charts.js LEGEND)."""

    def __init__(self, entries: list[tuple[str, str, str]]) -> None:
        self.entries = entries  # (name, css class, swatch: line | bar | dot)
        self.placed: list[tuple[float, int, tuple[str, str, str]]] = []
        x, row = 0.0, 0
        for entry in entries:
            room = 34 + width(entry[0])
            if x and x + room > NARROW - 8:
                x, row = 0.0, row + 1
            self.placed.append((x, row, entry))
            x += room
        self.rows = row + 1 if entries else 0

    def draw(self, canvas: Canvas) -> None:
        for x, row, (name, css, swatch) in self.placed:
            y = 6 + row * LINE_H + 8
            if swatch == "bar":
                canvas.raw_word(f"<rect x='{x + 4:.0f}' y='{y - 5}' width='20' height='10' class='b {css}'/>")
            else:
                canvas.raw_word(f"<path d='M{x + 2:.0f} {y}h24' class='l {css}'/>")
            canvas.word(name, f"x='{x + 30:.0f}'", y + 4, "lg")


def _room_for_ticks(x: Axis, left: float, right: float) -> float:
    """The right margin, widened so a level tick label centred near the plot's right end stays
    inside the chart on a phone."""
    plot = NARROW - left - right
    return max([right, *(width(label) / 2 + 2 - (1 - x.fraction(value)) * plot for value, label in x.ticks)])


def _tick_width(axis: Axis) -> float:
    return max([0.0, *(width(label) for _, label in axis.ticks)])


def xy_canvas(
    height: int,
    x: Axis,
    y: Axis,
    legend: Legend | None = None,
    y2: Axis | None = None,
    turned: int = 0,
    min_left: float = 0,
    gridx: bool = True,
) -> Canvas:
    """The plot area inside room for the legend, the y ticks and title (left), a second axis's
    (right), the x ticks (turned by `turned` degrees, 45 or 90) and title (below); then the grid, ticks
    and titles drawn."""
    top = 6 + legend.rows * LINE_H + 4 if legend and legend.rows else 16
    left = max(min_left, 10 + _tick_width(y) + (LINE_H + 4 if y.title else 0))
    right = 16 + (_tick_width(y2) + 10 + (LINE_H + 4 if y2.title else 0) if y2 else 0)
    if not turned and x.kind != "category":
        right = _room_for_ticks(x, left, right)
    widest = max([0.0, *(width(label) for _, label in x.ticks)])
    tick_room = {0: 18, 45: 0.72 * widest + 10, 90: widest + 10}[turned]
    bottom = 4 + tick_room + (LINE_H if x.title else 0)
    canvas = Canvas(height, top, right, bottom, left)
    if legend:
        legend.draw(canvas)
    grid = []
    for value, label in y.ticks:
        at = y.fraction(value)
        grid.append(f"M0 {canvas.my(at)}H1000")
        canvas.word(label, f"x='{left - 6:.0f}'", canvas.y(at, 4), "y")
    if x.kind != "category" and gridx:
        grid += [f"M{canvas.mx(x.fraction(value))} 0V{canvas.plot_height:.1f}" for value, _ in x.ticks]
    if grid:
        canvas.mark(f"<path class='grid' d='{''.join(grid)}'/>")
    below = canvas.top + canvas.plot_height
    for value, label in x.ticks:
        at = x.fraction(value)
        if turned:
            canvas.word(label, canvas.x(at, 3), below + 12, "x r" if turned == 45 else "x r90")
        else:
            canvas.word(label, canvas.x(at), below + 15, "x")
    if x.title:
        canvas.word(x.title, canvas.x(0.5), height - 5, "tx")
    mid = canvas.top + canvas.plot_height / 2
    if y.title:
        canvas.word(y.title, "x='14'", mid, "ty")
    if y2:
        for value, label in y2.ticks:
            canvas.word(label, canvas.x(1, 6), canvas.y(y2.fraction(value), 4), "y2")
        if y2.title:
            canvas.word(y2.title, "x='100%' dx='-8'", mid, "ty2")
    return canvas


def _from_zero(lines: list[list[float | None]], length_px: float = TALL - 100) -> Axis:
    """A value axis from zero past the largest of `lines` (plotly's rangemode tozero)."""
    values = [v for line in lines for v in line if v is not None]
    return axes.linear(*axes.padded(values, from_zero=True), axes.auto_count(length_px, True))


def _escape(text: str) -> str:
    return escape(text, quote=False)


def _turns(labels: list[str], plot_px: float) -> int:
    """How far category labels turn on a phone: 0 when level ones fit side by side, 45 degrees when
    turned ones then clear each other (a line of text apart), else 90."""
    if not labels:
        return 0
    spacing = plot_px / len(labels)
    if max(width(label) for label in labels) + 6 <= spacing:
        return 0
    return 45 if spacing * 0.7 >= LINE_H - 2 else 90


def _polyline(canvas: Canvas, xs: list[float | None], ys: list[float | None]) -> list[str]:
    """Runs of points with both coordinates, as path pieces: a missing value breaks the line."""
    return ["M" + "L".join(f"{canvas.mx(fx)} {canvas.my(fy)}" for fx, fy in run) for run in _runs(xs, ys)]


def _thinned(xs: list[Any], ys: list[Any], most: int = 600) -> tuple[list[Any], list[Any]]:
    """A long series (a fio log's thousands of points) kept to its outline: per slice of the x range,
    the first point, the lowest and the highest, in order. A phone's plot is 300 px across."""
    if len(xs) <= most:
        return xs, ys
    size = math.ceil(len(xs) / (most // 3))
    kept = []
    for start in range(0, len(xs), size):
        part = [(i, ys[i]) for i in range(start, min(start + size, len(xs))) if ys[i] is not None]
        if not part:
            kept.append(start)
            continue
        low = min(part, key=lambda p: p[1])[0]
        high = max(part, key=lambda p: p[1])[0]
        kept += sorted({start, low, high})
    return [xs[i] for i in kept], [ys[i] for i in kept]


def draw_line(
    canvas: Canvas,
    xs: list[float | None],
    ys: list[float | None],
    css: str,
    markers: bool = True,
    dash: bool = False,
    step: bool = False,
    fill: bool = False,
) -> None:
    """A series as a line (and its markers), `xs` and `ys` as fractions of the plot."""
    if step:  # plotly's line.shape "hv": across first, then up or down
        stepped_x, stepped_y = [], []
        for index, (fx, fy) in enumerate(zip(xs, ys, strict=True)):
            if index and fx is not None and stepped_y and stepped_y[-1] is not None:
                stepped_x.append(fx)
                stepped_y.append(stepped_y[-1])
            stepped_x.append(fx)
            stepped_y.append(fy)
        xs, ys = stepped_x, stepped_y
    paths = _polyline(canvas, xs, ys)
    if fill:
        for fx_run in _runs(xs, ys):
            first, last = fx_run[0], fx_run[-1]
            body = "L".join(f"{canvas.mx(fx)} {canvas.my(fy)}" for fx, fy in fx_run)
            canvas.mark(
                f"<path class='area {css}' d='M{canvas.mx(first[0])} {canvas.my(0)}L{body}"
                f"L{canvas.mx(last[0])} {canvas.my(0)}Z'/>"
            )
    extra = " dash" if dash else ""
    canvas.mark(f"<path class='l {css}{extra}' d='{''.join(paths)}'/>")
    if markers:
        dots = "".join(
            f"M{canvas.mx(fx)} {canvas.my(fy)}h0"
            for fx, fy in zip(xs, ys, strict=True)
            if fx is not None and fy is not None
        )
        canvas.mark(f"<path class='m {css}' d='{dots}'/>")


def _runs(xs: list[Any], ys: list[Any]) -> list[list[tuple[float, float]]]:
    """The stretches of (x, y) with both present, in order."""
    found, run = [], []
    for fx, fy in zip(xs, ys, strict=True):
        if fx is None or fy is None:
            if run:
                found.append(run)
            run = []
        else:
            run.append((fx, fy))
    if run:
        found.append(run)
    return found


def _clamp(value: float) -> float:
    return min(max(value, -0.02), 1.02)


# -- bars: one per environment or scenario --------------------------------------------------------

BAR_HEIGHT_PX = 26
BAR_MARGIN = {"t": 4, "r": 16, "b": 24, "l": 8}


def _value_room(numbers: list[float | None], texts: list[str | None], labels: list[str], manual: set[int]) -> float:
    """charts.js valueRoom, for a phone's chart: the axis's end, so every value printed beside its
    bar fits. A static chart always prints the value beside the bar: it cannot know whether the
    bar is wide enough to hold it."""
    end = max([0.0, *_present(numbers)]) * 1.3 or 1.0
    names = max([0.0, *(width(f"{label} ") for label in labels)])
    plot = NARROW - BAR_MARGIN["l"] - BAR_MARGIN["r"] - names - 12
    for _ in range(4):
        needed = end
        for value, text in zip(numbers, texts, strict=True):
            if value is None or not text:
                continue
            room = plot - width(text) - 8
            bar = value / end * plot
            if bar > room > 0:
                needed = max(needed, value * plot / room)
        if needed == end:
            break
        end = needed
    return end


def _tick_count(end: float, short: bool, plot_px: float, most: int = 4) -> int:
    """How many ticks (plotly's nticks) a value axis from 0 to `end` takes: `most`, or fewer when their
    labels would run together on a phone (20,000,000 beside 40,000,000)."""
    for count in range(most, 1, -1):
        ticks = axes.linear(0.0, end, count, short=short).ticks
        gap = plot_px / max(len(ticks) - 1, 1)
        if max(width(label) for _, label in ticks) + 8 <= gap:
            return count
    return 1


def bar_room(plot: dict[str, Any]) -> dict[str, Any]:
    """A bar chart's value axis as its tool printed it, for both renderings: its end in canonical units
    (`end`, so every value printed beside its bar fits on a phone) and how many ticks it takes
    (`nticks`). chartsvg.attach puts both in the chart's spec, and js/charts.js draws the interactive
    chart with them: nothing moves when it turns interactive."""
    values = plot["series"][0]["values"]
    scale = _scale(plot, "printed", values)
    numbers = [_scaled(scale, v) for v in values]
    texts = [scale.text(v) for v in values]
    end = plot.get("end")
    end = scale.number(end) if end is not None else _value_room(numbers, texts, plot["labels"], set())
    names = max([0.0, *(width(f"{label} ") for label in plot["labels"])])
    plot_px = NARROW - BAR_MARGIN["l"] - BAR_MARGIN["r"] - names - 12
    largest = max([0.0, *_present(numbers)])
    nticks = plot.get("nticks") or _tick_count(end, scale.unit in COUNT_UNITS and largest >= 10_000, plot_px)
    return {"end": end * scale.factor, "nticks": nticks}


def bars(plot: dict[str, Any], mode: str) -> Canvas:
    values = plot["series"][0]["values"]
    labels = plot["labels"]
    scale = _scale(plot, mode, values)
    numbers = [_scaled(scale, v) for v in values]
    texts = [scale.text(v) for v in values]
    manual = set(plot.get("manual") or [])
    largest = max([0.0, *_present(numbers)])
    short = scale.unit in COUNT_UNITS and largest >= 10_000
    room = bar_room(plot)
    x = axes.linear(0.0, scale.number(room["end"]), room["nticks"], short=short)
    y = axes.categories(labels, reversed_=True)
    height = 40 + BAR_HEIGHT_PX * max(len(values), 1)
    left = BAR_MARGIN["l"] + max([0.0, *(width(f"{label} ") for label in labels)]) + 4
    canvas = Canvas(height, BAR_MARGIN["t"], _room_for_ticks(x, left, BAR_MARGIN["r"]), BAR_MARGIN["b"], left)
    grid = "".join(f"M{canvas.mx(x.fraction(v))} 0V{canvas.plot_height:.1f}" for v, _ in x.ticks)
    canvas.mark(f"<path class='grid' d='{grid}'/>")
    band = 1 / max(len(values), 1)
    below = canvas.top + canvas.plot_height
    for value, label in x.ticks:
        canvas.word(label, canvas.x(x.fraction(value)), below + 15, "x")
    colours = plot.get("colours") or []
    for index, (label, number, text) in enumerate(zip(labels, numbers, texts, strict=True)):
        centre = y.fraction(index)
        canvas.word(label, f"x='{left - 4:.0f}'", canvas.y(centre, 4), "y")
        if number is None:
            continue
        reach = max(x.fraction(number), 0.0)
        thick = band * 0.7
        colour = colours[index] if index < len(colours) else "#4e79a7"
        hatched = " manual" if index in manual else ""
        canvas.mark(
            f"<rect class='bar{hatched}' x='0' y='{canvas.my(centre + thick / 2)}' width='{canvas.mx(reach)}' "
            f"height='{canvas.plot_height * thick:.1f}' style='color:{colour}'/>"
        )
        if text:
            canvas.word(text, canvas.x(reach, 4), canvas.y(centre, 4), "v")
    if plot.get("baseline") is not None:
        at = canvas.mx(x.fraction(scale.number(plot["baseline"])))
        canvas.mark(f"<path class='baseline' d='M{at} 0V{canvas.my(0)}'/>")
    return canvas


# -- sweep: one metric against the parameter that changes ----------------------------------------


def sweep(plot: dict[str, Any], mode: str) -> Canvas:
    values = plot["series"][0]["values"]
    scale = _scale(plot, mode, values)
    shown = [(label, v) for label, v in zip(plot["labels"], values, strict=True) if v is not None]
    numbers = [scale.number(v) for _, v in shown]
    largest = max([0.0, *numbers])
    short = scale.unit in COUNT_UNITS and largest >= 10_000
    y = axes.linear(0.0, largest * 1.25 or 1.0, 5, short=short)
    x = axes.categories([label for label, _ in shown])
    x.title = plot.get("axis")
    canvas = xy_canvas(260, x, y)
    xs = [x.fraction(i) for i in range(len(shown))]
    ys = [y.fraction(n) for n in numbers]
    draw_line(canvas, xs, ys, "s0")
    for fx, fy, (_, v) in zip(xs, ys, shown, strict=True):
        canvas.word(scale.text(v) or "", canvas.x(fx), canvas.y(fy, -8), "v c")
    return canvas


# -- fio's latency percentiles, buckets and bins ---------------------------------------------------


def _legend(names: list[str], swatch: str = "line") -> Legend | None:
    return Legend([(name, f"s{i % SERIES}", swatch) for i, name in enumerate(names)]) if len(names) > 1 else None


def ladder(plot: dict[str, Any], mode: str) -> Canvas:
    series = plot["series"]
    keys = sorted({key for s in series for key in s["percentiles"]}, key=float)
    largest = max([0.0, *(v for s in series for v in s["percentiles"].values() if v is not None)])
    unit, factor = next(((u, f) for u, f in (("s", 1e9), ("ms", 1e6), ("µs", 1e3)) if largest >= f), ("ns", 1))
    lines = [[None if s["percentiles"].get(k) is None else s["percentiles"][k] / factor for k in keys] for s in series]
    y = axes.log_or_linear([v for line in lines for v in line], "completion latency", unit, TALL - 80)
    labels = [f"p{key}" for key in keys]
    x = axes.categories(labels)
    legend = _legend([s["name"] for s in series])
    canvas = xy_canvas(TALL, x, y, legend, turned=_turns(labels, NARROW - 100), min_left=72)
    for index, line in enumerate(lines):
        xs = [x.fraction(i) for i in range(len(keys))]
        ys = [None if v is None else _clamp(y.fraction(v)) for v in line]
        draw_line(canvas, xs, ys, f"s{index % SERIES}")
    return canvas


def histogram(plot: dict[str, Any], mode: str) -> Canvas:
    series = plot["series"]
    labels, shares = bucket_shares([s["buckets"] for s in series])
    largest = max([0.0, *(v for share in shares for v in share.values() if v is not None)])
    y = axes.linear(0.0, largest * 1.05 or 1.0, axes.auto_count(TALL - 100, True), suffix="%")
    y.title = "% of I/Os"
    x = axes.categories(labels)
    legend = _legend([s["name"] for s in series], "bar")
    canvas = xy_canvas(TALL, x, y, legend, turned=_turns(labels, NARROW - 100), min_left=72)
    band = 1 / max(len(labels), 1)
    each = band * 0.8 / max(len(series), 1)
    for index, share in enumerate(shares):
        columns = [
            (at * band + band * 0.1 + index * each, each, y.fraction(share[label]))
            for at, label in enumerate(labels)
            if share.get(label)
        ]
        canvas.mark(f"<path class='b s{index % SERIES}' d='{_columns(canvas, columns)}'/>")
    return canvas


def _columns(canvas: Canvas, columns: list[tuple[float, float, float]]) -> str:
    """Upright bars from the axis, as one path: (start across, width, height up), fractions of the plot."""
    return "".join(
        f"M{canvas.mx(start)} {canvas.my(0)}V{canvas.my(top)}h{canvas.mx(wide)}V{canvas.my(0)}Z"
        for start, wide, top in columns
    )


def bins(plot: dict[str, Any], mode: str) -> Canvas:
    series = plot["series"]
    scale = units.scale_for([ns for s in series for ns, _ in s["bins"]], "ns")
    lines = []
    for s in series:
        total = sum(count for _, count in s["bins"]) or 1
        lines.append(([scale.number(ns) for ns, _ in s["bins"]], [100 * count / total for _, count in s["bins"]]))
    x = axes.log_or_linear([v for xs, _ in lines for v in xs], "completion latency", scale.label, NARROW - 100)
    if x.kind == "linear":
        x = axes.linear(x.low, x.high, axes.auto_count(NARROW - 100, False))
        x.title = f"completion latency ({scale.label})"
    largest = max([0.0, *(v for _, ys in lines for v in ys)])
    y = axes.linear(0.0, largest * 1.05 or 1.0, axes.auto_count(TALL - 100, True), suffix="%")
    y.title = "% of I/Os"
    legend = _legend([s["name"] for s in series])
    canvas = xy_canvas(TALL, x, y, legend, min_left=72)
    for index, (xs, ys) in enumerate(lines):
        xs, ys = _thinned(xs, ys)
        draw_line(
            canvas,
            [_clamp(x.fraction(v)) for v in xs],
            [y.fraction(v) for v in ys],
            f"s{index % SERIES}",
            markers=False,
            step=True,
            fill=True,
        )
    return canvas


# -- over time: fio's logs, ping's replies, iperf3's intervals, mbw's iterations, history ---------


def timeline(plot: dict[str, Any], mode: str) -> Canvas:
    series = plot["series"]
    scale = _scale(plot, mode, [v for s in series for v in s["values"]])
    ends = [t for s in series for t in s["t_s"] if t is not None]
    x = axes.linear(*axes.padded(ends, from_zero=True), axes.auto_count(NARROW - 100, False))
    x.title = "seconds"
    numbers = [[_scaled(scale, v) for v in s["values"]] for s in series]
    y = _from_zero(numbers)
    y.title = scale.axis_title
    legend = _legend([s["name"] for s in series])
    canvas = xy_canvas(TALL, x, y, legend, min_left=72)
    for index, (s, ns) in enumerate(zip(series, numbers, strict=True)):
        xs, ys = _thinned(s["t_s"], ns)
        draw_line(
            canvas,
            [None if t is None else x.fraction(t) for t in xs],
            [None if v is None else y.fraction(v) for v in ys],
            f"s{index % SERIES}",
            markers=len(s["values"]) <= 120,
        )
    return canvas


def iterations(plot: dict[str, Any], mode: str) -> Canvas:
    series = plot["series"]
    label = "MB/s" if mode == "si" else "MiB/s"
    factor = 1e6 if mode == "si" else 2**20
    lines = [[None if v is None else v / factor for v in s["values"]] for s in series]
    count = max([1, *(len(line) for line in lines)])
    x = axes.linear(*axes.padded(list(range(count)), False), count)
    x.ticks = [(float(i), str(i)) for i in range(count)]  # whole iterations (dtick 1)
    x.title = "iteration"
    y = axes.linear(*axes.padded([v for line in lines for v in line if v is not None], True), 6)
    y.title = label
    legend = _legend([s["name"] for s in series])
    canvas = xy_canvas(TALL, x, y, legend, min_left=72)
    for index, line in enumerate(lines):
        draw_line(
            canvas,
            [x.fraction(i) for i in range(len(line))],
            [None if v is None else y.fraction(v) for v in line],
            f"s{index % SERIES}",
        )
    return canvas


def intervals(plot: dict[str, Any], mode: str) -> Canvas:
    series = plot["series"]
    ends = [t for s in series for t in s["x"] if t is not None]
    x = axes.linear(*axes.padded(ends, False), axes.auto_count(NARROW - 140, False))
    x.title = "seconds"
    rates = [v for s in series for v in s["values"] if v is not None]
    y = axes.linear(*axes.padded(rates, True), axes.auto_count(TALL - 100, True), short=True)
    y.title = "bit/s"
    counts = [v for s in series for v in (s.get("retransmits") or []) if v is not None]
    with_retransmits = any(s.get("retransmits") for s in series)
    y2 = axes.counts(counts) if with_retransmits else None
    if y2:
        y2.title = "retransmits"
    names = []
    for s in series:
        names.append((s["name"], "line"))
        if s.get("retransmits"):
            names.append((f"{s['name']} retransmits", "bar"))
    # The retransmits' swatch as pale as their bars (plotly's opacity 0.4 shows in its legend too).
    legend = (
        Legend(
            [
                (name, f"s{i % SERIES}" + (" faint" if swatch == "bar" else ""), swatch)
                for i, (name, swatch) in enumerate(names)
            ]
        )
        if len(names) > 1
        else None
    )
    canvas = xy_canvas(TALL, x, y, legend, y2=y2, min_left=72)
    trace = 0
    for s in series:
        line_css = f"s{trace % SERIES}"
        trace += 1
        if s.get("retransmits") and y2:
            css = f"s{trace % SERIES}"
            trace += 1
            step = min((b - a for a, b in zip(s["x"], s["x"][1:], strict=False) if b > a), default=1.0)
            half = abs(x.fraction(step) - x.fraction(0)) * 0.4
            columns = [
                (x.fraction(t) - half, 2 * half, y2.fraction(count))
                for t, count in zip(s["x"], s["retransmits"], strict=True)
                if count
            ]
            canvas.mark(f"<path class='b {css} faint' d='{_columns(canvas, columns)}'/>")
        draw_line(
            canvas,
            [x.fraction(t) for t in s["x"]],
            [None if v is None else y.fraction(v) for v in s["values"]],
            line_css,
        )
    return canvas


def _epoch(text: str) -> float:
    return datetime.fromisoformat(text).timestamp()


FLAG_CSS = {"regression": "flag-regression", "improvement": "flag-improvement"}


def trend(plot: dict[str, Any], mode: str) -> Canvas:
    series = plot["series"]
    scale = _scale(plot, mode, [v for s in series for v in s["values"]])
    moments = sorted({s_x for s in series for s_x in s["x"]})
    times = [_epoch(moment) for moment in moments]
    low, high = axes.padded(times, False)
    x = Axis("linear", low, high, ticks=_date_ticks(moments, times))
    x.title = "report date"
    numbers = [[_scaled(scale, v) for v in s["values"]] for s in series]
    y = _from_zero(numbers)
    title = scale.axis_title
    y.title = plot.get("metric") if title == plot.get("metric") else f"{plot.get('metric')} ({title})"
    legend = _legend([s["name"] for s in series])
    canvas = xy_canvas(TALL, x, y, legend, min_left=72, gridx=False)
    for index, (s, ns) in enumerate(zip(series, numbers, strict=True)):
        xs = [x.fraction(_epoch(t)) for t in s["x"]]
        ys = [None if v is None else y.fraction(v) for v in ns]
        # A flagged point's ring first, its marker then drawn over it: a red or green halo.
        for fx, fy, flag in zip(xs, ys, s.get("flags") or [], strict=False):
            if flag in FLAG_CSS and fy is not None:
                canvas.mark(f"<path class='ring {FLAG_CSS[flag]}' d='M{canvas.mx(fx)} {canvas.my(fy)}h0'/>")
        draw_line(canvas, xs, ys, f"s{index % SERIES}")
    return canvas


def _date_ticks(moments: list[str], times: list[float]) -> list[tuple[float, str]]:
    """A tick per report day (at most four, as charts.js asks plotly for), labelled by its date; by
    its time of day when every report is of one day."""
    days: dict[str, float] = {}
    one_day = len({moment[:10] for moment in moments}) == 1
    # Reports of one day apart by the minute, or by the second when a minute holds two.
    clock = slice(11, 16) if len({moment[11:16] for moment in moments}) == len(moments) else slice(11, 19)
    for moment, at in zip(moments, times, strict=True):
        days.setdefault(moment[clock] if one_day and len(moment) >= 16 else moment[:10], at)
    picked = list(days.items())
    if len(picked) > 4:
        step = math.ceil(len(picked) / 4)
        picked = picked[::step]
    return [(at, day) for day, at in picked]


def under_load(plot: dict[str, Any], mode: str) -> Canvas:
    rtt, load = plot["rtt"], plot["load"]
    convention = mode if mode in ("si", "iec") else "si"
    scale = units.scale_for(load["values"], "bit/s", convention)
    ends = [t for t in rtt["t_s"] + load["t_s"] if t is not None]
    x = axes.linear(*axes.padded(ends, True), axes.auto_count(NARROW - 150, False))
    x.title = "seconds from the first reply"
    y = axes.log_or_linear(rtt["values"], "RTT", "ms", TALL - 100)
    rates = [_scaled(scale, v) for v in load["values"]]
    y2 = axes.linear(*axes.padded([v for v in rates if v is not None], True), 5)
    y2.title = f"throughput ({scale.axis_title})"
    legend = Legend([(rtt["name"], "s0", "line"), (load["name"], "s1", "line")])
    canvas = xy_canvas(TALL, x, y, legend, y2=y2, min_left=72)
    start, end = plot["window"]
    a, b = x.fraction(start), x.fraction(end)
    canvas.marks.insert(
        0,
        f"<path class='window' d='{_columns(canvas, [(a, b - a, 1.0)])}'/>",
    )
    xs, ys = _thinned(rtt["t_s"], rtt["values"])
    draw_line(
        canvas,
        [None if t is None else x.fraction(t) for t in xs],
        [None if v is None else _clamp(y.fraction(v)) for v in ys],
        "s0",
        markers=len(xs) <= 300,
    )
    draw_line(
        canvas,
        [x.fraction(t) for t in load["t_s"]],
        [None if v is None else y2.fraction(v) for v in rates],
        "s1",
        dash=True,
    )
    return canvas


KINDS = {
    "bars": bars,
    "sweep": sweep,
    "ladder": ladder,
    "histogram": histogram,
    "bins": bins,
    "timeline": timeline,
    "iterations": iterations,
    "intervals": intervals,
    "trend": trend,
    "under_load": under_load,
}

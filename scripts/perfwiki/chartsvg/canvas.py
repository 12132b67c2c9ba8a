"""The two SVG layers of a static chart, sized so the chart fits any width without JavaScript.

A chart's width is the reader's (a phone's 350 px, a desktop's 1,100), its height fixed. So:
- the marks (grid, bars, lines, markers, shading) are drawn in one SVG stretched over the plot
  area: 1000 units across whatever its width, its height in px; strokes keep their width
  (vector-effect), and a marker is a zero-length round-capped stroke, so it stays round;
- the words (ticks, values, titles, legend) are in a second SVG in px over the whole chart, each
  placed at a percentage of the width plus a px offset (x="40%" dx="-12"): the plot runs from
  `left` px to `right` px short of the edge, so a point a fraction f across it is at
  f * 100% + left * (1 - f) - right * f.
"""

from __future__ import annotations

from html import escape

MARKS_WIDTH = 1000  # the marks layer's units across the plot, whatever its width in px


def _n(value: float) -> str:
    """A coordinate, to a tenth: '12.5', '300'."""
    text = f"{value:.1f}"
    return text[:-2] if text.endswith(".0") else text


class Canvas:
    """A chart's plot area inside its margins (px), and the elements of both layers."""

    def __init__(self, height: int, top: float, right: float, bottom: float, left: float) -> None:
        self.height = height
        self.top, self.right, self.bottom, self.left = top, right, bottom, left
        self.plot_height = max(height - top - bottom, 10)
        self.marks: list[str] = []
        self.words: list[str] = []

    # -- the marks layer: x a fraction of the plot's width, y a fraction of its height from the bottom
    def mx(self, fraction: float) -> str:
        return _n(MARKS_WIDTH * fraction)

    def my(self, fraction: float) -> str:
        return _n(self.plot_height * (1 - fraction))

    def mark(self, element: str) -> None:
        self.marks.append(element)

    # -- the words layer: px, x across the plot by fraction. How each class of word is anchored and
    # turned is main.css's: x ticks and titles centred, y ticks ending at the axis, a turned x tick
    # ending at its tick, y titles turned a quarter about their middle.
    def x(self, fraction: float, shift: float = 0.0) -> str:
        """The x and dx attributes of a word at `fraction` across the plot, moved `shift` px."""
        offset = _n(self.left * (1 - fraction) - self.right * fraction + shift)
        return f"x='{100 * fraction:.2f}%'" + ("" if offset in ("0", "-0") else f" dx='{offset}'")

    def y(self, fraction: float, shift: float = 0.0) -> str:
        """The px y of `fraction` up the plot, moved `shift` px down."""
        return _n(self.top + self.plot_height * (1 - fraction) + shift)

    def word(self, text: str, x: str, y: str | float, css: str) -> None:
        """A label of class `css`: `x` an attribute string from x() or a px "x='12'", `y` px."""
        y = y if isinstance(y, str) else _n(y)
        self.words.append(f"<text {x} y='{y}' class='{css}'>{escape(text, quote=False)}</text>")

    def raw_word(self, element: str) -> None:
        self.words.append(element)

    def rendering(self, units: str | None = None) -> list[str]:
        """The chart's static rendering, both layers in one box of the chart's height, as the fields
        markup() puts into its frame: [units, height, left, top, width taken, plot height, words, marks].

        Kept as fields, its frame (the two SVG elements' attributes, some 300 characters) is written by
        the page (layouts/_partials/chart-static.html) rather than stored with every chart in data/.
        """
        return [
            units or "",
            str(self.height),
            _n(self.left),
            _n(self.top),
            _n(self.left + self.right),
            _n(self.plot_height),
            "".join(self.words),
            "".join(self.marks),
        ]


def markup(renderings: list[list[str]]) -> str:
    """The static renderings' markup, as layouts/_partials/chart-static.html writes it, byte for byte.

    Single-quoted attributes: the markup sat in JSON documents, where each " would be \".
    A data-units rendering is one of a chart's two, shown by the unit switch (CSS alone). Its height is
    set for main.css's content-visibility: a chart off screen is not laid out (its words were most of
    the first layout of a report of 60 charts), and takes the same room.
    """
    parts = []
    for units, height, left, top, width, plot, words, marks in renderings:
        shown = f" data-units='{units}'" if units else ""
        parts.append(
            f"<div class='chart__static'{shown} style='height:{height}px'>"
            f"<svg class='chart__words' width='100%' height='{height}' aria-hidden='true' focusable='false'>"
            f"{words}</svg>"
            f"<svg class='chart__marks' style='left:{left}px;top:{top}px;width:calc(100% - {width}px);height:{plot}px' "
            f"viewBox='0 0 {MARKS_WIDTH} {plot}' preserveAspectRatio='none' aria-hidden='true' "
            f"focusable='false'>{marks}</svg></div>"
        )
    return "".join(parts)

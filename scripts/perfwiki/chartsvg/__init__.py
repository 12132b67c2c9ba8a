"""Static SVG renderings of every chart: the answer on screen before, and without, any JavaScript.

`static(plot)` draws a chart's compact series (perfwiki.charts) as the markup its page shows until
the reader reaches for the chart; js/charts.js then draws the same series with plotly. A chart of
byte quantities gets one rendering per convention (SI, IEC), the one its tool printed shown by
default and the others shown by the unit switch through CSS alone. `attach` gives every chart of
a page's document its rendering; `run_series` finds a run chart's series in the run's metrics,
where a run page's document leaves them (js/charts.js runSeries does the same in the browser).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from .canvas import markup as markup  # what a page writes of a chart's renderings, for Python readers
from .kinds import KINDS, bar_room

# fio's directions a run's latency charts draw, in fio's order (tools/fio/pages.py).
_DIRECTIONS = ("read", "write", "trim")


def switches(plot: dict[str, Any]) -> bool:
    """Whether the unit switch changes the chart: mbw's iterations and any chart of bytes."""
    return plot.get("kind") == "iterations" or plot.get("unit") in ("B/s", "B")


def static(plot: dict[str, Any]) -> list[list[str]] | None:
    """The chart's static renderings (Canvas.rendering; markup() writes them), or None for a kind no
    static rendering draws or a chart with no series."""
    draw = KINDS.get(plot.get("kind", ""))
    if draw is None or not _has_series(plot):
        return None
    if not switches(plot):
        return [draw(plot, "printed").rendering()]
    printed = "iec" if plot["kind"] == "iterations" else plot.get("printed") or "iec"
    return [
        draw(plot, convention).rendering(convention + (" printed" if convention == printed else ""))
        for convention in ("si", "iec")
    ]


def _has_series(plot: dict[str, Any]) -> bool:
    if plot.get("kind") == "under_load":
        return bool(plot.get("rtt", {}).get("values"))
    return bool(plot.get("series"))


def _dicts(node: Any) -> Iterator[dict[str, Any]]:
    """Every mapping in a page's document, each before what it holds: a chart ({id, plot}) wherever it sits.
    What a caller changes in one (a `plot` taken out or put in) is what the walk then goes into."""
    # A stack rather than nested generators, whose every yield passed up through each level of the
    # document; and the numbers of a chart's series are never visited one by one.
    stack = [node]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            yield node
            values = node.values()  # read after the yield, as the caller left it
        elif isinstance(node, list):
            values = node
        else:
            continue
        stack += [value for value in reversed(values) if isinstance(value, (dict, list))]


def attach(node: Any) -> None:
    """Every chart in a page's document ({id, plot} wherever it sits) given its `static` renderings."""
    for chart in _dicts(node):
        plot = chart.get("plot")
        if isinstance(plot, dict) and "kind" in plot and "id" in chart and "static" not in chart:
            if plot["kind"] == "bars" and _has_series(plot):
                # The value axis the static rendering draws, in the spec: plotly draws the same one.
                plot.update(bar_room(plot))
            drawn = static(plot)
            if drawn:
                chart["static"] = drawn


def specs_apart(node: Any) -> dict[str, Any]:
    """Every chart in `node` that has a static rendering, its spec taken out ({id: plot}).

    A page shows the static rendering and needs the spec only when the reader reaches for a chart:
    published apart (a report's charts.json), the specs of a report of 60 charts are some 40 KB its
    page does not carry. A chart without a static rendering keeps its spec: it is drawn at once.
    """
    return {
        str(chart["id"]): chart.pop("plot")
        for chart in _dicts(node)
        if chart.get("static") and isinstance(chart.get("plot"), dict) and "id" in chart
    }


def specs_back(node: Any, specs: dict[str, Any]) -> Any:
    """`node` with each chart's spec from `specs` (what specs_apart took out) in place again."""
    for chart in _dicts(node):
        if "plot" not in chart and chart.get("static") and chart.get("id") in specs:
            chart["plot"] = specs[chart["id"]]
    return node


def attached(document: Any) -> Any:
    """`document`, its charts given their static renderings (attach)."""
    attach(document)
    return document


def run_series(plot: dict[str, Any], metrics: dict[str, Any]) -> dict[str, Any]:
    """A run chart that carries only its kind, with its series from the run's metrics."""
    if plot.get("series"):
        return plot
    jobs = metrics.get("jobs") or []
    kind = plot.get("kind")
    if kind == "ladder":
        return {**plot, "series": _per_direction(jobs, "percentiles_ns", "percentiles")}
    if kind == "histogram":
        first = jobs[0] if jobs else {}
        series = [{"name": str(first.get("name")), "buckets": first["lat_buckets"]}] if first.get("lat_buckets") else []
        return {**plot, "series": series}
    if kind == "bins":
        return {**plot, "series": _per_direction(jobs, "bins_ns", "bins")}
    if kind == "timeline":
        logs = [log for log in metrics.get("logs") or [] if log.get("kind") == plot.get("log")]
        several = len({log.get("job") for log in logs}) > 1
        series = [
            {
                "name": f"{log['direction']} (job {log['job']})" if several else log["direction"],
                "t_s": log["t_s"],
                "values": log["values"],
            }
            for log in logs
        ]
        unit = {"bw": "B/s", "iops": "IOPS"}.get(plot.get("log"), "ns")
        return {**plot, "series": series, "unit": unit}
    return plot


def _per_direction(jobs: list[dict[str, Any]], field: str, name: str) -> list[dict[str, Any]]:
    """One series per job and direction that has `field` (fio's percentiles or bins), named as a run page names it."""
    return [
        {"name": f"{d} ({job.get('name')})", name: job[d][field]}
        for job in jobs
        for d in _DIRECTIONS
        if (job.get(d) or {}).get(field)
    ]

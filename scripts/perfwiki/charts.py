"""Plotly figure specs as plain JSON.

The site's JavaScript only hands these specs to the vendored plotly.js; it
never computes anything. Every chart carries its data table for the fallback.

Specs are plain dicts rather than plotly.graph_objects: building a validated
figure costs ~7 ms, which at wiki scale (10,000 runs, two charts each) was most
of ingest. tests/test_charts.py puts every spec ingest writes through
plotly.graph_objects, so a misspelt property still fails the build of the tests.
"""

from __future__ import annotations

from typing import Any

from . import units

MARGIN = {"t": 16, "r": 16, "b": 16, "l": 72}


def figure(traces: list[dict[str, Any]], **layout: Any) -> dict[str, Any]:
    """A plotly.js figure: {data, layout}."""
    return {"data": traces, "layout": layout}


def comparison_chart(comparison: dict[str, Any]) -> dict[str, Any]:
    """Grouped bars of one comparison: a bar group per column, a bar per environment.

    Bars show % of the baseline, so columns with different scales and units (UnixBench
    tests, 4 KiB and 1 MiB fio runs) share one axis; a line at 100% marks the baseline,
    and the axis turns logarithmic when results span more than 20x. Without a baseline
    value the bars show the values themselves.
    """
    # % of baseline needs something to compare: at least two environments with values.
    compared = [row for row in comparison["rows"] if any(cell["relative"] is not None for cell in row["cells"])]
    relative = len(compared) >= 2
    titles = [column["title"] for column in comparison["columns"]]
    traces = []
    shown_values = []
    for row in comparison["rows"]:
        if all(cell["value"] is None for cell in row["cells"]):
            continue  # nothing comparable here (refused or not run): the table says why
        is_baseline = row["environment"] == comparison["baseline"]
        name = f"{row['environment']} (baseline)" if is_baseline else row["environment"]
        values = [
            (cell["relative"] * 100 if cell["relative"] is not None else None) if relative else cell["value"]
            for cell in row["cells"]
        ]
        shown_values += [value for value in values if value]
        texts = [
            units.format_value(cell["value"], column["unit"]) or "n/a"
            for cell, column in zip(row["cells"], comparison["columns"], strict=True)
        ]
        traces.append(
            {
                "type": "bar",
                "name": name,
                "x": list(titles),
                "y": values,
                "marker": {"line": {"width": 2 if is_baseline else 0, "color": "#444"}},
                "customdata": texts,
                "hovertemplate": "%{x}<br>%{customdata}"
                + (" (%{y:.1f}% of baseline)" if relative else "")
                + "<extra>"
                + name
                + "</extra>",
            }
        )
    spread = max(shown_values) / min(shown_values) if shown_values and min(shown_values) > 0 else 1
    yaxis: dict[str, Any] = {"rangemode": "tozero", "tickformat": "~s"}
    layout: dict[str, Any] = {"barmode": "group", "xaxis": {"automargin": True}, "legend": {"orientation": "h"}}
    if relative:
        yaxis["title"] = {"text": f"% of {comparison['baseline']}"}
        yaxis["ticksuffix"] = "%"
        # The baseline: a dotted line at 100 % across the whole plot width.
        layout["shapes"] = [
            {
                "type": "line",
                "xref": "x domain",
                "x0": 0,
                "x1": 1,
                "yref": "y",
                "y0": 100,
                "y1": 100,
                "line": {"dash": "dot", "width": 1, "color": "#888"},
            }
        ]
    else:
        yaxis["title"] = {"text": comparison["unit"]}
    if spread > 20:
        yaxis.update({"type": "log", "rangemode": "normal"})
    table_rows = [
        [row["environment"]]
        + [
            " ".join(
                bit
                for bit in (
                    units.format_value(cell["value"], column["unit"]),
                    f"({units.format_relative(cell['relative'])})" if cell["relative"] is not None else None,
                )
                if bit
            )
            or None
            for cell, column in zip(row["cells"], comparison["columns"], strict=True)
        ]
        for row in comparison["rows"]
    ]
    return {
        "id": f"chart-{comparison['id']}",
        "title": comparison["title"] + (f", % of {comparison['baseline']}" if relative else f" ({comparison['unit']})"),
        "spec": figure(traces, yaxis=yaxis, margin=MARGIN, **layout),
        "table": {"columns": ["Environment"] + titles, "rows": table_rows},
    }


def headline_charts(comparisons: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A chart for every comparison the author defined, and one per tool among the automatic ones.

    Mixed-unit comparisons (bandwidth, IOPS and latency side by side) share no axis:
    their table stands alone.
    """
    charted_tools: set[str] = set()
    charts = []
    for comparison in comparisons:
        if comparison["unit"] == "mixed":
            continue
        if comparison.get("authored"):
            charts.append(comparison_chart(comparison))
            charted_tools.add(comparison["tool"])
        elif comparison["tool"] not in charted_tools:
            charted_tools.add(comparison["tool"])
            charts.append(comparison_chart(comparison))
    return charts


def _ns_scale(values: list[float]) -> tuple[float, str]:
    """The display unit for a set of latencies: the largest that keeps the biggest >= 1."""
    top = max(values) if values else 0
    for unit, factor in (("s", 1e9), ("ms", 1e6), ("µs", 1e3)):
        if top >= factor:
            return factor, unit
    return 1.0, "ns"


def percentile_ladder(series: list[tuple[str, dict[str, float]]], chart_id: str) -> dict[str, Any] | None:
    """fio completion-latency percentiles (p1 ... p99.99), one line per run or environment."""
    series = [(name, table) for name, table in series if table]
    if not series:
        return None
    keys = sorted({key for _, table in series for key in table}, key=float)
    factor, unit = _ns_scale([value for _, table in series for value in table.values()])
    traces = [
        {
            "type": "scatter",
            "name": name,
            "x": [f"p{key}" for key in keys],
            "y": [table[key] / factor if key in table else None for key in keys],
            "mode": "lines+markers",
            "hovertemplate": "%{x}: %{y:.4g} " + unit + "<extra>" + name + "</extra>",
        }
        for name, table in series
    ]
    rows = [[f"p{key}"] + [units.format_ns(table.get(key)) for _, table in series] for key in keys]
    return {
        "id": chart_id,
        "title": "Completion latency percentiles",
        "spec": figure(
            traces,
            yaxis={"title": {"text": f"completion latency ({unit})"}, "type": "log"},
            xaxis={"type": "category"},
            margin=MARGIN,
            legend={"orientation": "h"},
            showlegend=len(series) > 1,
        ),
        "table": {"columns": ["Percentile"] + [name for name, _ in series], "rows": rows},
    }


def _bucket_label(bucket: dict[str, Any]) -> str:
    if "ge_ns" in bucket:
        return f"≥ {units.format_ns(bucket['ge_ns'])}"
    return f"≤ {units.format_ns(bucket['le_ns'])}"


def bucket_histogram(series: list[tuple[str, list[dict[str, Any]]]], chart_id: str) -> dict[str, Any] | None:
    """fio's latency distribution (share of I/Os per bucket), overlaid across runs."""
    series = [(name, buckets) for name, buckets in series if buckets]
    if not series:
        return None
    edges: dict[str, float] = {}
    for _, buckets in series:
        for bucket in buckets:
            edges[_bucket_label(bucket)] = bucket.get("le_ns", bucket.get("ge_ns", 0)) + (
                0.5 if "ge_ns" in bucket else 0
            )
    labels = sorted(edges, key=edges.get)
    traces = []
    for name, buckets in series:
        share = {_bucket_label(bucket): bucket["pct"] for bucket in buckets}
        traces.append({"type": "bar", "name": name, "x": labels, "y": [share.get(label, 0) for label in labels]})
    rows = [
        [label]
        + [next((f"{b['pct']:.2f}%" for b in buckets if _bucket_label(b) == label), None) for _, buckets in series]
        for label in labels
    ]
    return {
        "id": chart_id,
        "title": "Latency distribution",
        "spec": figure(
            traces,
            barmode="group",
            yaxis={"title": {"text": "% of I/Os"}, "ticksuffix": "%"},
            xaxis={"type": "category"},
            margin=MARGIN,
            legend={"orientation": "h"},
            showlegend=len(series) > 1,
        ),
        "table": {"columns": ["Latency"] + [name for name, _ in series], "rows": rows},
    }


def iperf3_intervals(series: list[tuple[str, list[dict[str, Any]]]], chart_id: str) -> dict[str, Any] | None:
    """Throughput per interval (lines) and retransmits per interval (bars, right axis)."""
    series = [(name, rows) for name, rows in series if rows]
    if not series:
        return None
    traces = []
    has_retransmits = False
    for name, rows in series:
        traces.append(
            {
                "type": "scatter",
                "name": name,
                "x": [row["end_s"] for row in rows],
                "y": [row["bits_per_s"] for row in rows],
                "mode": "lines+markers",
                "hovertemplate": "%{x} s: %{y:.3s}bit/s<extra>" + name + "</extra>",
            }
        )
        if any("retransmits" in row for row in rows):
            has_retransmits = True
            traces.append(
                {
                    "type": "bar",
                    "name": f"{name} retransmits",
                    "x": [row["end_s"] for row in rows],
                    "y": [row.get("retransmits") for row in rows],
                    "yaxis": "y2",
                    "opacity": 0.4,
                }
            )
    layout: dict[str, Any] = {
        "xaxis": {"title": {"text": "seconds"}},
        "yaxis": {"title": {"text": "bit/s"}, "tickformat": "~s", "rangemode": "tozero"},
        "margin": {"t": 16, "r": 56, "b": 16, "l": 72},
        "legend": {"orientation": "h"},
    }
    if has_retransmits:
        layout["yaxis2"] = {"title": {"text": "retransmits"}, "overlaying": "y", "side": "right", "rangemode": "tozero"}
    name, first = series[0]
    rows = [
        [f"{row['start_s']:g}–{row['end_s']:g} s", units.format_bits_per_s(row["bits_per_s"]), row.get("retransmits")]
        for row in first
    ]
    return {
        "id": chart_id,
        "title": "Throughput per interval",
        "spec": figure(traces, **layout),
        "table": {"columns": ["Interval", f"{name} throughput", "Retransmits"], "rows": rows},
    }


def mbw_iterations(methods: dict[str, dict[str, Any]], chart_id: str) -> dict[str, Any] | None:
    """Copy rate of every mbw iteration per method; the first is often slow (page faults)."""
    if not methods:
        return None
    traces = []
    longest = 0
    for method, data in sorted(methods.items()):
        rates = [None if rate is None else rate / 2**20 for rate in data.get("runs_bytes_per_s", [])]
        longest = max(longest, len(rates))
        traces.append(
            {"type": "scatter", "name": method, "x": list(range(len(rates))), "y": rates, "mode": "lines+markers"}
        )
    names = sorted(methods)
    rows = [
        [str(i)]
        + [
            units.format_bytes_per_s(
                (methods[m].get("runs_bytes_per_s") or [None] * longest)[i]
                if i < len(methods[m].get("runs_bytes_per_s", []))
                else None
            )
            for m in names
        ]
        for i in range(longest)
    ]
    rows.append(["AVG"] + [units.format_bytes_per_s(methods[m].get("avg_bytes_per_s")) for m in names])
    return {
        "id": chart_id,
        "title": "Copy rate per iteration",
        "spec": figure(
            traces,
            xaxis={"title": {"text": "iteration"}, "dtick": 1},
            yaxis={"title": {"text": "MiB/s"}, "rangemode": "tozero"},
            margin=MARGIN,
            legend={"orientation": "h"},
        ),
        "table": {"columns": ["Iteration"] + names, "rows": rows},
    }

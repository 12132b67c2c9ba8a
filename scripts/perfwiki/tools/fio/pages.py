"""What fio's pages show: per-direction results and latency tables, latency charts, badges."""

from __future__ import annotations

from typing import Any

from ... import units
from ...model import Run, slug
from ..base import Measure, shown
from .options import effective_depth, ran_on
from .report import DIRECTIONS


def directions(run: Run) -> list[tuple[dict[str, Any], str, dict[str, Any]]]:
    """(job, direction name, direction metrics) for every direction that did I/O."""
    found = []
    for job in run.metrics.get("jobs") or []:
        for name in DIRECTIONS:
            if name in job:
                found.append((job, name, job[name]))
    return found


def _anchor(name: Any) -> str:
    """An HTML id fragment from a job name such as "EBS 4K randwrite test" (ids have no spaces)."""
    return slug(str(name)) or "job"


def _stats_row(name: str, stats: dict[str, Any] | None) -> list[str | None]:
    """One latency's min, mean, max and stdev in one unit, as fio prints each on one line in one."""
    if not stats:
        return [name, None, None, None, None]
    values = [stats.get(key) for key in ("min", "mean", "max", "stdev")]
    scale = units.scale_for(values, "ns")
    return [name] + [scale.text(value) for value in values]


def _depth(run: Run) -> str | None:
    """The iodepth asked, and the depth in effect when a synchronous engine ignored it: '64 (QD1)'."""
    asked, depth = run.params.get("iodepth"), effective_depth(run.params, ran_on(run.params, run.metrics))
    return shown(asked) if asked == depth else f"{asked} (QD{depth})"


def _bytes(value: Any) -> str | None:
    """A size, or what stands for one: "mixed", of job sections with different block sizes."""
    return units.format_bytes(value) if value is None or isinstance(value, (int, float)) else str(value)


def summary_cells(run: Run, metrics: dict[str, Any]) -> list[Any]:
    """The numbers a reader compares first, for one direction: the runs table's cells."""
    return [
        run.params.get("rw"),
        _bytes(run.params.get("bs_bytes")),
        _depth(run),
        Measure(metrics.get("iops"), "IOPS", (metrics.get("printed") or {}).get("iops")),
        Measure(metrics.get("bw_bytes_per_s"), "B/s", (metrics.get("printed") or {}).get("bw_bytes_per_s")),
        Measure((metrics.get("clat_ns") or {}).get("mean"), "ns"),
        Measure((metrics.get("percentiles_ns") or {}).get("99.00"), "ns"),
    ]


def _shown(metrics: dict[str, Any], key: str, unit: str) -> Any:
    """A direction's value, with fio's own token for it when it printed one ("1056MiB/s", shown under
    "Units: as printed"; units.shown)."""
    return units.shown(metrics.get(key), unit, printed=(metrics.get("printed") or {}).get(key))


def result_tables(run: Run) -> list[dict[str, Any]]:
    """Results, latency and percentiles per job and direction; latency buckets and CPU per job; disk stats."""
    tables: list[dict[str, Any]] = []
    for job, direction, metrics in directions(run):
        title = f"{direction} — job {job.get('name')}"
        anchor = _anchor(job.get("name"))  # once for its three tables: a slug is a regex substitution
        tables.append(
            {
                "title": f"Results: {title}",
                "id": f"results-{anchor}-{direction}",
                "columns": ["Metric", "Value"],
                "rows": [
                    ["IOPS", _shown(metrics, "iops", "IOPS")],
                    ["Bandwidth", _shown(metrics, "bw_bytes_per_s", "B/s")],
                    ["I/O", _shown(metrics, "io_bytes", "B")],
                    ["Runtime", units.format_ns(units.ms_to_ns(metrics.get("runtime_ms")))],
                ],
            }
        )
        tables.append(
            {
                "title": f"Latency: {title}",
                "id": f"latency-{anchor}-{direction}",
                "columns": ["Latency", "min", "mean", "max", "stdev"],  # slat, clat, lat: never an empty heading
                "rows": [_stats_row(kind, metrics.get(f"{kind}_ns")) for kind in ("slat", "clat", "lat")],
            }
        )
        percentiles = metrics.get("percentiles_ns") or {}
        if percentiles:
            scale = units.scale_for(list(percentiles.values()), "ns")  # one column: one unit
            tables.append(
                {
                    "title": f"{metrics.get('percentiles_of', 'clat')} percentiles: {title}",
                    "id": f"percentiles-{anchor}-{direction}",
                    "columns": ["Percentile", "Latency"],
                    "rows": [[f"p{key}", scale.text(value)] for key, value in percentiles.items()],
                }
            )
    for job in run.metrics.get("jobs") or []:
        tables.extend(_job_tables(job))
    disks = run.metrics.get("disks") or []
    if disks:
        tables.append(
            {
                "title": "Disk stats",
                "id": "disks",
                "columns": ["Device", "read ios", "write ios", "read ticks", "write ticks", "util"],
                "rows": [
                    [
                        disk["name"],
                        units.format_count(disk.get("read_ios")),  # counts, whole with separators
                        units.format_count(disk.get("write_ios")),
                        units.format_count(disk.get("read_ticks")),
                        units.format_count(disk.get("write_ticks")),
                        None if disk.get("util_pct") is None else f"{disk['util_pct']:.2f}%",
                    ]
                    for disk in disks
                ],
            }
        )
    return tables


def _job_tables(job: dict[str, Any]) -> list[dict[str, Any]]:
    tables = []
    name = job.get("name")
    buckets = job.get("lat_buckets") or []
    if buckets:
        rows = []
        for bucket in buckets:
            edge = (
                "≤ " + units.format_ns(bucket["le_ns"])
                if "le_ns" in bucket
                else "≥ " + units.format_ns(bucket["ge_ns"])
            )
            rows.append([edge, f"{bucket['pct']:.2f}%"])
        total = sum(bucket["pct"] for bucket in buckets)
        rows.append(["total", f"{total:.2f}%"])
        tables.append(
            {
                "title": f"Latency distribution: job {name}",
                "id": f"buckets-{_anchor(name)}",
                "columns": ["Latency", "Share of I/Os"],
                "rows": rows,
            }
        )
    cpu = job.get("cpu")
    if cpu:
        tables.append(
            {
                "title": f"CPU: job {name}",
                "id": f"cpu-{_anchor(name)}",
                "columns": ["usr", "sys", "ctx", "majf", "minf"],
                "rows": [
                    [
                        f"{cpu['usr_pct']:.2f}%",
                        f"{cpu['sys_pct']:.2f}%",
                        units.format_count(cpu["ctx"]),
                        units.format_count(cpu["majf"]),
                        units.format_count(cpu["minf"]),
                    ]
                ],
            }
        )
    return tables


# The directions whose percentiles a run page charts, in fio's order.
_LADDER_DIRECTIONS = ("read", "write", "trim")
_LADDER = {"kind": "ladder"}
_HISTOGRAM = {"kind": "histogram"}
_BINS = {"kind": "bins"}
# fio's logs a run page charts over time (tools/fio/logs.py); completion latency when logged, else total.
_TIMELINES = (
    ("bw", "Bandwidth over time (fio log)"),
    ("iops", "IOPS over time (fio log)"),
    ("clat", "Completion latency over time (fio log)"),
    ("lat", "Latency over time (fio log)"),
)


def run_charts(run: Run) -> list[dict[str, Any]]:
    """A run page's charts: completion-latency percentiles of every direction of every job, and
    the first job's latency distribution.

    A run chart says only what it draws (`kind`). js/charts.js finds its series in the run's
    published index.json, where fio's metrics hold them (`jobs[].read.percentiles_ns`,
    `jobs[0].lat_buckets`), so neither data/ nor the page holds a second copy of the numbers,
    and the tables beside the charts print the same ones.
    """
    jobs = run.metrics.get("jobs") or []
    charts = []
    # fio's own logs first: steady state, a write cliff or a stall shows over time, not in a mean.
    logged = {entry["kind"] for entry in run.metrics.get("logs") or []}
    for kind, title in _TIMELINES:
        if kind in logged and (kind != "lat" or "clat" not in logged):
            charts.append({"id": f"chart-log-{kind}", "title": title, "plot": {"kind": "timeline", "log": kind}})
    if any((job.get(direction) or {}).get("percentiles_ns") for job in jobs for direction in _LADDER_DIRECTIONS):
        charts.append({"id": "chart-percentiles", "title": "Completion latency percentiles", "plot": _LADDER})
    if any((job.get(direction) or {}).get("bins_ns") for job in jobs for direction in _LADDER_DIRECTIONS):
        charts.append({"id": "chart-bins", "title": "Completion latency histogram (json+ bins)", "plot": _BINS})
    if jobs and jobs[0].get("lat_buckets"):
        charts.append({"id": "chart-buckets", "title": "Latency distribution", "plot": _HISTOGRAM})
    return charts


def percentile_ladder(series: list[tuple[str, dict[str, float]]], chart_id: str) -> dict[str, Any] | None:
    """fio completion-latency percentiles (p1 ... p99.99), one line per run or environment."""
    series = [(name, table) for name, table in series if table]
    if not series:
        return None
    keys = sorted({key for _, table in series for key in table}, key=float)
    scales = [units.scale_for(list(table.values()), "ns") for _, table in series]  # a unit per column
    rows = [
        [f"p{key}"] + [scale.text(table.get(key)) for scale, (_, table) in zip(scales, series, strict=True)]
        for key in keys
    ]
    return {
        "id": chart_id,
        "title": "Completion latency percentiles",
        # Each series is fio's own {percentile: ns} map, as a run's metrics hold it.
        "plot": {"kind": "ladder", "series": [{"name": name, "percentiles": table} for name, table in series]},
        "table": {"columns": ["Percentile"] + [name for name, _ in series], "rows": rows},
    }


def _bucket_label(bucket: dict[str, Any]) -> str:
    if "ge_ns" in bucket:
        return f"≥ {units.format_ns(bucket['ge_ns'])}"
    return f"≤ {units.format_ns(bucket['le_ns'])}"


def bucket_shares(series: list[list[dict[str, Any]]]) -> tuple[list[str], list[dict[str, float]]]:
    """fio's latency buckets of several runs on one axis: every bucket's label ("≤ 750 µs", "≥ 2 s") in
    the order of its edge, and each run's share of I/Os by label. The table below a histogram and its
    static rendering (perfwiki.chartsvg) read them alike."""
    edges: dict[str, float] = {}
    for buckets in series:
        for bucket in buckets:
            edges[_bucket_label(bucket)] = bucket["ge_ns"] + 0.5 if "ge_ns" in bucket else bucket["le_ns"]
    labels = sorted(edges, key=edges.get)
    return labels, [{_bucket_label(bucket): bucket["pct"] for bucket in buckets} for buckets in series]


def bucket_histogram(series: list[tuple[str, list[dict[str, Any]]]], chart_id: str) -> dict[str, Any] | None:
    """fio's latency distribution (share of I/Os per bucket), overlaid across runs."""
    series = [(name, buckets) for name, buckets in series if buckets]
    if not series:
        return None
    labels, shares = bucket_shares([buckets for _, buckets in series])
    rows = [
        [label] + [None if share.get(label) is None else f"{share[label]:.2f}%" for share in shares] for label in labels
    ]
    return {
        "id": chart_id,
        "title": "Latency distribution",
        # Each series is fio's own [{le_ns|ge_ns, pct}] list, as a run's metrics hold it.
        "plot": {"kind": "histogram", "series": [{"name": name, "buckets": buckets} for name, buckets in series]},
        "table": {"columns": ["Latency"] + [name for name, _ in series], "rows": rows},
    }

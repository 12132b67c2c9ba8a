"""What pages show, computed in Python so templates only lay out.

Every table here is `{columns: [...], rows: [[cell, ...]]}` where a cell is a
display string or None (shown as missing, never as 0). Canonical numbers stay
in the run; these are their renderings with explicit units.
"""

from __future__ import annotations

import csv
import io
from typing import Any

from . import units
from .model import Run

DIRECTIONS = ("read", "write", "trim", "mixed")


def fio_directions(run: Run) -> list[tuple[dict[str, Any], str, dict[str, Any]]]:
    """(job, direction name, direction metrics) for every direction that did I/O."""
    found = []
    for job in run.metrics.get("jobs", []):
        for name in DIRECTIONS:
            if name in job:
                found.append((job, name, job[name]))
    return found


def _mean(stats: dict[str, Any] | None) -> Any:
    return stats.get("mean") if stats else None


def fio_summary_rows(run: Run) -> list[dict[str, Any]]:
    """One row per direction: the numbers a reader compares first."""
    rows = []
    for job, direction, metrics in fio_directions(run):
        rows.append(
            {
                "direction": direction,
                "job": job.get("name"),
                "iops": metrics.get("iops"),
                "bw_bytes_per_s": metrics.get("bw_bytes_per_s"),
                "clat_mean_ns": _mean(metrics.get("clat_ns")),
                "clat_p99_ns": (metrics.get("percentiles_ns") or {}).get("99.00"),
            }
        )
    return rows


def runs_table(runs: list[Run]) -> dict[str, Any]:
    """The report's table of runs: one row per run and direction, linked to its page."""
    columns = ["Environment", "Label", "rw", "bs", "iodepth", "IOPS", "Bandwidth", "Mean clat", "clat p99"]
    rows = []
    for run in runs:
        for summary in fio_summary_rows(run):
            rows.append(
                {
                    "run": run.id,
                    "anchor": f"{run.id}-{summary['direction']}",
                    "cells": [
                        run.environment,
                        run_title(run),
                        run.params.get("rw"),
                        units.format_bytes(run.params.get("bs_bytes")),
                        _text(run.params.get("iodepth")),
                        units.format_count(summary["iops"]),
                        units.format_bytes_per_s(summary["bw_bytes_per_s"]),
                        units.format_ns(summary["clat_mean_ns"]),
                        units.format_ns(summary["clat_p99_ns"]),
                    ],
                }
            )
    return {"columns": columns, "rows": rows}


def _text(value: Any) -> str | None:
    return None if value is None else str(value)


def run_title(run: Run) -> str:
    """'3.1 BandWidth / 【1. Sequential Write】': section and label, whichever exist."""
    parts = [part for part in (run.section, run.label) if part]
    if parts and run.section == run.label:
        parts = [run.label]
    return " / ".join(parts) if parts else run.id


def _stats_row(name: str, stats: dict[str, Any] | None) -> list[str | None]:
    if not stats:
        return [name, None, None, None, None]
    return [name] + [units.format_ns(stats.get(key)) for key in ("min", "mean", "max", "stdev")]


def run_page(run: Run) -> dict[str, Any]:
    """Tables for one run's page: parameters, results, latency, percentiles, buckets, cpu, disks."""
    tables = [_params_table(run)]
    for job, direction, metrics in fio_directions(run):
        title = f"{direction} — job {job.get('name')}"
        tables.append(
            {
                "title": f"Results: {title}",
                "id": f"results-{job.get('name')}-{direction}",
                "columns": ["Metric", "Value"],
                "rows": [
                    ["IOPS", units.format_count(metrics.get("iops"))],
                    ["Bandwidth", units.format_bytes_per_s(metrics.get("bw_bytes_per_s"))],
                    ["Bandwidth (SI)", units.format_bytes_per_s(metrics.get("bw_bytes_per_s"), "si")],
                    ["I/O", units.format_bytes(metrics.get("io_bytes"))],
                    ["Runtime", units.format_ns(units.ms_to_ns(metrics.get("runtime_ms")))],
                ],
            }
        )
        tables.append(
            {
                "title": f"Latency: {title}",
                "id": f"latency-{job.get('name')}-{direction}",
                "columns": ["", "min", "mean", "max", "stdev"],
                "rows": [_stats_row(kind, metrics.get(f"{kind}_ns")) for kind in ("slat", "clat", "lat")],
            }
        )
        percentiles = metrics.get("percentiles_ns") or {}
        if percentiles:
            tables.append(
                {
                    "title": f"{metrics.get('percentiles_of', 'clat')} percentiles: {title}",
                    "id": f"percentiles-{job.get('name')}-{direction}",
                    "columns": ["Percentile", "Latency"],
                    "rows": [[f"p{key}", units.format_ns(value)] for key, value in percentiles.items()],
                }
            )
    for job in run.metrics.get("jobs", []):
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
                        _text(disk.get("read_ios")),
                        _text(disk.get("write_ios")),
                        _text(disk.get("read_ticks")),
                        _text(disk.get("write_ticks")),
                        None if disk.get("util_pct") is None else f"{disk['util_pct']:.2f}%",
                    ]
                    for disk in disks
                ],
            }
        )
    title = run_title(run) if not run.environment else f"{run_title(run)} — {run.environment}"
    return {"title": title, "tables": tables, "csv": run_csv(run)}


def _flatten(prefix: str, value: Any, out: list[tuple[str, Any]]) -> None:
    if isinstance(value, dict):
        for key, item in value.items():
            _flatten(f"{prefix}.{key}" if prefix else str(key), item, out)
    elif isinstance(value, list):
        for index, item in enumerate(value):
            _flatten(f"{prefix}[{index}]", item, out)
    else:
        out.append((prefix, value))


def run_csv(run: Run) -> str:
    """Every parameter and metric of a run as `path,value` rows (metrics in canonical units)."""
    rows: list[tuple[str, Any]] = []
    _flatten("params", run.params, rows)
    _flatten("metrics", run.metrics, rows)
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["field", "value"])
    writer.writerows((path, "" if value is None else value) for path, value in rows)
    return out.getvalue()


def _params_table(run: Run) -> dict[str, Any]:
    rows = []
    for key, value in run.params.items():
        if key.endswith("_bytes"):
            shown = units.format_bytes(value)
        elif isinstance(value, bool):
            shown = "yes" if value else "no"
        elif key.endswith("_s") and isinstance(value, (int, float)):
            shown = f"{value} s"
        else:
            shown = str(value)
        rows.append([key, shown])
    return {"title": "Parameters", "id": "parameters", "columns": ["Parameter", "Value"], "rows": rows}


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
                "id": f"buckets-{name}",
                "columns": ["Latency", "Share of I/Os"],
                "rows": rows,
            }
        )
    cpu = job.get("cpu")
    if cpu:
        tables.append(
            {
                "title": f"CPU: job {name}",
                "id": f"cpu-{name}",
                "columns": ["usr", "sys", "ctx", "majf", "minf"],
                "rows": [
                    [
                        f"{cpu['usr_pct']:.2f}%",
                        f"{cpu['sys_pct']:.2f}%",
                        str(cpu["ctx"]),
                        str(cpu["majf"]),
                        str(cpu["minf"]),
                    ]
                ],
            }
        )
    return tables


def comparison_view(comparison: dict[str, Any]) -> dict[str, Any]:
    """A comparison as the page shows it: display text, % of baseline, a verdict class, the run."""
    rows = []
    for row in comparison["rows"]:
        cells = []
        for column, cell in zip(comparison["columns"], row["cells"], strict=True):
            relative = cell.get("relative")
            unit, higher = column["unit"], column["higher_is_better"]
            shown: dict[str, Any] = {
                "text": units.format_value(cell["value"], unit),
                "relative": units.format_relative(relative) if row["environment"] != comparison["baseline"] else None,
                "run": cell["runs"][0] if cell.get("runs") else None,
                "n": cell.get("n", 0),
            }
            if cell.get("n", 0) > 1:
                low, high = (units.format_value(cell[key], unit) for key in ("min", "max"))
                shown["range"] = f"{low} – {high}"
            if row["environment"] == comparison["baseline"]:
                shown["class"] = "baseline"
            elif relative is not None and abs(relative - 1) >= 0.05:
                better = (relative > 1) == higher
                shown["class"] = "better" if better else "worse"
            cells.append(shown)
        rows.append({"environment": row["environment"], "cells": cells})
    refusals = [
        {"column": column["title"], **entry} for column in comparison["columns"] for entry in column.get("refused", [])
    ]
    return {"id": comparison["id"], "rows": rows, "refusals": refusals}


# The recommended fact vocabulary (DESIGN.md), in the order a reader scans a machine.
FACT_ORDER = (
    "host",
    "hypervisor",
    "cpu",
    "cpus",
    "memory",
    "os",
    "kernel",
    "disk",
    "disk_model",
    "filesystem",
    "mount_options",
    "scheduler",
    "raid",
    "lvm",
    "vm_cache_mode",
    "vm_disk_bus",
    "vm_queues",
    "nic",
    "network",
)


def environments_side_by_side(environments: list[dict[str, Any]]) -> dict[str, Any]:
    """Facts in rows, environments in columns; the rows that differ first, the equal ones folded.

    Each environment is {id, title, kind, facts}. A fact one environment lacks counts
    as different (shown as missing), so a gap is never hidden among equal rows.
    """
    keys: list[str] = []
    for env in environments:
        for key in env.get("facts") or {}:
            if key not in keys:
                keys.append(key)
    ordered = [key for key in FACT_ORDER if key in keys] + sorted(key for key in keys if key not in FACT_ORDER)
    differing, same = [], []
    for key in ["kind", *ordered]:
        values = [(env.get("kind") if key == "kind" else (env.get("facts") or {}).get(key)) for env in environments]
        values = [None if value is None else str(value) for value in values]
        if len(set(values)) > 1 or len(environments) == 1:
            differing.append({"fact": key, "values": values})
        else:
            same.append({"fact": key, "value": values[0]})
    return {
        "environments": [{"id": env["id"], "title": env.get("title") or env["id"]} for env in environments],
        "differing": differing,
        "same": same,
    }

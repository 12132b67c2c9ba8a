"""What pages show, computed in Python so templates only lay out.

Every table here is `{columns: [...], rows: [[cell, ...]]}` where a cell is a
display string or None (shown as missing, never as 0). Canonical numbers stay
in the run; these are their renderings with explicit units.
"""

from __future__ import annotations

import csv
import io
from typing import Any

from . import charts, units
from .compare import METRICS, describe, fingerprint, fingerprint_key, io_mode, parts, target_kind
from .extract import slug
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


def _anchor(name: Any) -> str:
    """An HTML id fragment from a job name such as "EBS 4K randwrite test" (ids have no spaces)."""
    return slug(str(name)) or "job"


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
                        units.byte_quantity(summary["bw_bytes_per_s"], "B/s", run.tool),
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


def _pairs(title: str, table_id: str, pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    rows = [[name, None if value is None else str(value)] for name, value in pairs]
    return {"title": title, "id": table_id, "columns": ["Metric", "Value"], "rows": rows}


def _tool_tables(run: Run) -> list[dict[str, Any]]:
    """Result tables of the tools other than fio."""
    metrics = run.metrics
    if run.tool == "iperf3":
        pairs: list[tuple[str, Any]] = []
        for end in ("sender", "receiver"):
            data = metrics.get(end) or {}
            pairs += [(f"{end} throughput", units.format_bits_per_s(data.get("bits_per_s")))]
            pairs += [(f"{end} transferred", units.format_bytes(data.get("bytes")))]
            if "retransmits" in data:
                pairs.append((f"{end} retransmits", data["retransmits"]))
        if metrics.get("mode") == "udp":
            pairs += [
                ("jitter", f"{metrics.get('jitter_ms')} ms"),
                ("lost", f"{metrics.get('lost')} / {metrics.get('packets')}"),
            ]
            pairs += [("lost %", metrics.get("lost_pct"))]
        return [_pairs("Results", "results", pairs)]
    if run.tool == "mbw":
        rows = [
            [method, units.format_bytes_per_s(data.get("avg_bytes_per_s")), str(len(data.get("runs_bytes_per_s", [])))]
            for method, data in sorted(metrics.get("methods", {}).items())
        ]
        return [
            {
                "title": "Copy rate (AVG as mbw printed it)",
                "id": "results",
                "columns": ["Method", "AVG", "Iterations"],
                "rows": rows,
            }
        ]
    if run.tool == "unixbench":
        copies = metrics.get("copies")
        tables = [
            {
                "title": f"Results ({copies} parallel {'copy' if copies == 1 else 'copies'})",
                "id": "results",
                "columns": ["Test", "Result", "Unit", "Time", "Samples"],
                "rows": [
                    [t["name"], f"{t['value']:.1f}", t["unit"], f"{t['seconds']} s", str(t["samples"])]
                    for t in metrics.get("tests", [])
                ],
            }
        ]
        if metrics.get("index"):
            tables.append(
                {
                    "title": "Index",
                    "id": "index",
                    "columns": ["Test", "Baseline", "Result", "Index"],
                    "rows": [
                        [
                            i["name"],
                            None if i["baseline"] is None else str(i["baseline"]),
                            str(i["result"]),
                            None if i["index"] is None else str(i["index"]),
                        ]
                        for i in metrics["index"]
                    ]
                    + [
                        [
                            "System Benchmarks Index Score",
                            None,
                            None,
                            None if metrics.get("score") is None else str(metrics["score"]),
                        ]
                    ],
                }
            )
        return tables
    if run.tool == "dd":
        time = metrics.get("time") or {}
        return [
            _pairs(
                "Results",
                "results",
                [
                    ("copied", units.format_bytes(metrics.get("bytes"))),
                    ("seconds", metrics.get("seconds")),
                    ("rate (as dd printed it)", units.format_bytes_per_s(metrics.get("bytes_per_s"), "si")),
                    ("rate (bytes / seconds)", units.format_bytes_per_s(metrics.get("bytes_per_s_exact"), "si")),
                    (
                        "time real / user / sys",
                        " / ".join(f"{time.get(k)} s" for k in ("real_s", "user_s", "sys_s")) if time else None,
                    ),
                ],
            )
        ]
    if run.tool == "ioping":
        lat = metrics.get("lat_ns") or {}
        pairs = [("requests", metrics.get("requests")), ("IOPS", units.format_count(metrics.get("iops")))]
        pairs += [("throughput", units.format_bytes_per_s(metrics.get("bytes_per_s")))]
        pairs += [(f"latency {key}", units.format_ns(lat.get(key))) for key in ("min", "avg", "max", "mdev")]
        return [_pairs("Results", "results", pairs)]
    if run.tool == "sysbench":
        lat = metrics.get("latency_ms") or {}
        pairs = [("test", metrics.get("test")), ("events per second", metrics.get("events_per_s"))]
        if metrics.get("events_per_s_computed"):
            pairs.append(("note", "events/s computed as events / total time (not printed by this sysbench)"))
        pairs += [("total events", metrics.get("total_events")), ("total time", f"{metrics.get('total_time_s')} s")]
        if metrics.get("bytes_per_s") is not None:
            pairs.append(("throughput", units.format_bytes_per_s(metrics["bytes_per_s"])))
        pairs += [(f"latency {key}", f"{value} ms") for key, value in lat.items()]
        return [_pairs("Results", "results", pairs)]
    if run.tool == "iostat":
        return [_iostat_table(metrics)]
    return []


def _iostat_table(metrics: dict[str, Any]) -> dict[str, Any]:
    """Per device over the interval samples (the since-boot one left out): mean and peak."""
    samples = [sample for sample in metrics.get("samples", []) if not sample.get("since_boot")] or metrics.get(
        "samples", []
    )
    devices: dict[str, list[dict[str, Any]]] = {}
    for sample in samples:
        for device in sample["devices"]:
            devices.setdefault(device["name"], []).append(device)

    def mean(rows: list[dict[str, Any]], key: str) -> float | None:
        values = [row[key] for row in rows if row.get(key) is not None]
        return sum(values) / len(values) if values else None

    rows = []
    for name, entries in devices.items():
        util = [entry["util_pct"] for entry in entries if entry.get("util_pct") is not None]
        rows.append(
            [
                name,
                str(len(entries)),
                None if mean(entries, "r_per_s") is None else f"{mean(entries, 'r_per_s'):.1f}",
                None if mean(entries, "w_per_s") is None else f"{mean(entries, 'w_per_s'):.1f}",
                units.format_bytes_per_s(mean(entries, "read_bytes_per_s")),
                units.format_bytes_per_s(mean(entries, "write_bytes_per_s")),
                None if not util else f"{sum(util) / len(util):.1f}% (max {max(util):.1f}%)",
            ]
        )
    return {
        "title": f"Devices over {len(samples)} samples",
        "id": "results",
        "columns": ["Device", "Samples", "r/s", "w/s", "read", "write", "util"],
        "rows": rows,
    }


def run_charts(run: Run) -> list[dict[str, Any]]:
    """Charts of one run: fio latency, iperf3 intervals, mbw iterations."""
    found = []
    if run.tool == "fio":
        directions = fio_directions(run)
        ladder = charts.percentile_ladder(
            [
                (f"{direction} ({job.get('name')})", metrics.get("percentiles_ns") or {})
                for job, direction, metrics in directions
            ],
            "chart-percentiles",
        )
        buckets = charts.bucket_histogram(
            [(str(job.get("name")), job.get("lat_buckets") or []) for job in run.metrics.get("jobs", [])][:1],
            "chart-buckets",
        )
        found += [chart for chart in (ladder, buckets) if chart]
    elif run.tool == "iperf3":
        chart = charts.iperf3_intervals(
            [(run.environment or run.id, run.metrics.get("intervals") or [])], "chart-intervals"
        )
        found += [chart] if chart else []
    elif run.tool == "mbw":
        chart = charts.mbw_iterations(run.metrics.get("methods") or {}, "chart-iterations")
        found += [chart] if chart else []
    return found


def condition_badges(run: Run, environment_facts: dict[str, Any] | None = None) -> list[str]:
    """The test conditions a reader must know before comparing: I/O mode, target, engine, depth."""
    params = run.params
    badges = []
    if run.format == "manual":
        badges.append("manual")
    if run.tool == "fio":
        for value in (io_mode(params), target_kind(run), params.get("ioengine")):
            if value:
                badges.append(str(value))
        if params.get("iodepth") is not None:
            badges.append(f"QD{params['iodepth']} x {params.get('numjobs') or 1}")
    cache = (environment_facts or {}).get("vm_cache_mode") or (environment_facts or {}).get("nas_cache_mode")
    if cache:
        badges.append(f"cache {cache}")
    return badges


def checks_summary(runs: list[Run]) -> list[dict[str, Any]]:
    """Per check id: severity, message of the first finding, and the runs it flags."""
    summary: dict[str, dict[str, Any]] = {}
    for run in runs:
        for finding in run.checks:
            entry = summary.setdefault(
                finding["id"],
                {"id": finding["id"], "severity": finding["severity"], "message": finding["message"], "runs": []},
            )
            if run.id not in entry["runs"]:
                entry["runs"].append(run.id)
    order = {"error": 0, "warning": 1, "info": 2}
    return sorted(summary.values(), key=lambda entry: (order[entry["severity"]], entry["id"]))


def published_path(source_path: str) -> str:
    """Where the site serves a raw file, beside its report page: content/reports/x/... -> reports/x/..."""
    return source_path.removeprefix("content/")


def run_page(run: Run) -> dict[str, Any]:
    """Tables for one run's page: parameters, results, latency, percentiles, buckets, cpu, disks."""
    tables = [_params_table(run), *_tool_tables(run)]
    for job, direction, metrics in fio_directions(run):
        title = f"{direction} — job {job.get('name')}"
        tables.append(
            {
                "title": f"Results: {title}",
                "id": f"results-{_anchor(job.get('name'))}-{direction}",
                "columns": ["Metric", "Value"],
                "rows": [
                    ["IOPS", units.format_count(metrics.get("iops"))],
                    ["Bandwidth", units.byte_quantity(metrics.get("bw_bytes_per_s"), "B/s", run.tool)],
                    ["I/O", units.byte_quantity(metrics.get("io_bytes"), "B", run.tool)],
                    ["Runtime", units.format_ns(units.ms_to_ns(metrics.get("runtime_ms")))],
                ],
            }
        )
        tables.append(
            {
                "title": f"Latency: {title}",
                "id": f"latency-{_anchor(job.get('name'))}-{direction}",
                "columns": ["", "min", "mean", "max", "stdev"],
                "rows": [_stats_row(kind, metrics.get(f"{kind}_ns")) for kind in ("slat", "clat", "lat")],
            }
        )
        percentiles = metrics.get("percentiles_ns") or {}
        if percentiles:
            tables.append(
                {
                    "title": f"{metrics.get('percentiles_of', 'clat')} percentiles: {title}",
                    "id": f"percentiles-{_anchor(job.get('name'))}-{direction}",
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
    scenarios = [fingerprint_key(fingerprint(run, part)) for part in parts(run) if part != "Index Score"]
    return {
        "title": title,
        "raw_url": published_path(run.source.path),
        "tables": tables,
        "charts": run_charts(run),
        "scenarios": scenarios,
        "csv": run_csv(run),
    }


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
                        str(cpu["ctx"]),
                        str(cpu["majf"]),
                        str(cpu["minf"]),
                    ]
                ],
            }
        )
    return tables


def comparison_view(comparison: dict[str, Any], flagged: dict[str, list[str]] | None = None) -> dict[str, Any]:
    """A comparison as the page shows it: display text, % of baseline, a verdict class, the run.

    `flagged` maps run ids to their warning-level check messages: such cells carry a marker.
    """
    flagged = flagged or {}
    rows = []
    for row in comparison["rows"]:
        cells = []
        for column, cell in zip(comparison["columns"], row["cells"], strict=True):
            relative = cell.get("relative")
            unit, higher = column["unit"], column["higher_is_better"]
            quantity = units.byte_quantity(cell["value"], unit, comparison.get("tool"))
            shown: dict[str, Any] = {
                "text": quantity["text"] if isinstance(quantity, dict) else quantity,
                "relative": units.format_relative(relative) if row["environment"] != comparison["baseline"] else None,
                "run": cell["runs"][0] if cell.get("runs") else None,
                "n": cell.get("n", 0),
            }
            if cell.get("manual"):
                shown["manual"] = True
            notes = [message for run_id in cell.get("runs", []) for message in flagged.get(run_id, [])]
            if notes:
                shown["flags"] = sorted(set(notes))
            if isinstance(quantity, dict):
                shown["si"], shown["iec"] = quantity["si"], quantity["iec"]
            if cell.get("n", 0) > 1:
                low, high = (units.format_value(cell[key], unit) for key in ("min", "max"))
                shown["range"] = f"{low} – {high}"
            if cell.get("cv_pct") is not None:
                shown["cv"] = f"CV {cell['cv_pct']:.1f}%"
            if row["environment"] == comparison["baseline"]:
                shown["class"] = "baseline"
            elif cell.get("within_noise"):
                shown["class"] = "noise"  # the ranges overlap: not coloured as a win or a loss
                shown["noise"] = True
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


def _headline(run: Run, part: str | None) -> list[tuple[str, Any]]:
    """The metrics a scenario page lists per run, displayed."""
    shown = []
    for metric in METRICS.get(run.tool, []):
        value = metric.read(run, part)
        shown.append((metric.title, units.format_value(value, metric.unit) if metric.unit != "per test" else value))
    return shown


def index_share(report: str, runs: list[Run]) -> dict[str, Any]:
    """One report's share of the scenario and tool pages; site_index merges the shares.

    Ingest keeps each report's share with the report, so an unchanged report is not
    re-read to rebuild the index. A share carries, per scenario entry, the series its
    overlay charts need.
    """
    scenarios: dict[str, dict[str, Any]] = {}
    tools: dict[str, dict[str, Any]] = {}
    environments: dict[str, list[dict[str, Any]]] = {}
    for run in runs:
        tool = tools.setdefault(run.tool, {"runs": 0, "scenarios": []})
        tool["runs"] += 1
        environments.setdefault(run.environment, []).append(
            {
                "report": report,
                "id": run.id,
                "title": run_title(run),
                "tool": run.tool,
                "label": run.label,
                "command": run.command,
            }
        )
        for part in parts(run):
            if run.tool == "unixbench" and part == "Index Score":
                continue
            print_ = fingerprint(run, part)
            key = fingerprint_key(print_)
            scenario = scenarios.setdefault(
                key,
                {"tool": run.tool, "description": describe(print_), "fingerprint": print_, "runs": [], "series": []},
            )
            headline = _headline(run, part)
            scenario["runs"].append(
                {
                    "report": report,
                    "run": run.id,
                    "environment": run.environment,
                    "title": run_title(run),
                    "values": [value for _, value in headline],
                }
            )
            scenario["series"].append(_overlay_series(run, print_))
            scenario["columns"] = [title for title, _ in headline]
            if key not in tool["scenarios"]:
                tool["scenarios"].append(key)
    return {"report": report, "scenarios": scenarios, "tools": tools, "environments": environments}


def _overlay_series(run: Run, print_: dict[str, Any]) -> dict[str, Any]:
    """What one run adds to its scenario's overlay charts."""
    if run.tool == "fio":
        job = run.metrics["jobs"][0]
        return {
            "percentiles": (job.get(print_.get("direction")) or {}).get("percentiles_ns") or {},
            "buckets": job.get("lat_buckets") or [],
        }
    if run.tool == "iperf3":
        return {"intervals": run.metrics.get("intervals") or []}
    return {}


def site_index(shares: list[dict[str, Any]]) -> dict[str, Any]:
    """Scenario, tool and environment pages across every report: which runs did the same thing, and where."""
    scenarios: dict[str, dict[str, Any]] = {}
    series: dict[str, list[dict[str, Any]]] = {}
    tools: dict[str, dict[str, Any]] = {}
    environments: dict[str, list[dict[str, Any]]] = {}
    for share in sorted(shares, key=lambda share: share["report"]):
        for env, entries in share["environments"].items():
            environments.setdefault(env, []).extend(entries)
        for name, counted in share["tools"].items():
            tool = tools.setdefault(name, {"runs": 0, "reports": [], "scenarios": []})
            tool["runs"] += counted["runs"]
            tool["reports"].append(share["report"])
            tool["scenarios"] += [key for key in counted["scenarios"] if key not in tool["scenarios"]]
        for key, found in share["scenarios"].items():
            scenario = scenarios.setdefault(
                key,
                {"tool": found["tool"], "description": found["description"], "fingerprint": found["fingerprint"]},
            )
            scenario.setdefault("runs", []).extend(found["runs"])
            scenario["columns"] = found["columns"]
            series.setdefault(key, []).extend(found["series"])
    for key, scenario in scenarios.items():
        scenario["charts"] = _scenario_charts(scenario, series[key])
    return {"scenarios": scenarios, "tools": tools, "environments": environments}


def _scenario_charts(scenario: dict[str, Any], series: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Latency of every run of an fio scenario overlaid; iperf3 intervals overlaid."""
    if len(series) > 12:
        return []  # overlaid lines stop being readable; the table stays
    names = [entry["environment"] or entry["run"] for entry in scenario["runs"]]
    if scenario["tool"] == "fio":
        ladder = charts.percentile_ladder(
            [(name, one["percentiles"]) for name, one in zip(names, series, strict=True)], "chart-percentiles"
        )
        buckets = charts.bucket_histogram(
            [(name, one["buckets"]) for name, one in zip(names, series, strict=True)], "chart-buckets"
        )
        return [chart for chart in (ladder, buckets) if chart]
    if scenario["tool"] == "iperf3":
        chart = charts.iperf3_intervals(
            [(name, one["intervals"]) for name, one in zip(names, series, strict=True)], "chart-intervals"
        )
        return [chart] if chart else []
    return []

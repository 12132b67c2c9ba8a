"""A network report's answer in one table: throughput, latency and loss side by side per environment.

A network engineer reads a path as three numbers at once: how much it carries, how long a packet
waits idle and under load, and what it drops. The comparisons below it set one metric at a time
against a baseline; this table puts them in one row per environment, each cell the median of the
runs of one scenario with how many there were and their range, linked to a run.

Columns, each shown when some environment has it:
- TCP throughput per tool (iperf3, iperf2), one stream, forward: what arrived (the receiver's
  rate), else the sender's;
- UDP at the rate offered (-b): the rate received and the datagrams lost;
- RTT idle: ping's average, over pings that ran alone;
- RTT under load: the median RTT of the replies during the load (underload.py), and what it added.
"""

from __future__ import annotations

import statistics
from collections.abc import Callable
from typing import Any

from .. import tools, units, verdict
from ..compare import fingerprint_key
from ..model import Run

THROUGHPUT_TOOLS = ("iperf3", "iperf2")


def _tcp_single(run: Run) -> bool:
    """One TCP stream, forward: the scenario a path's throughput is quoted at (its fingerprint)."""
    print_ = run.fingerprints.get(None) or {}
    return (
        run.tool in THROUGHPUT_TOOLS
        and print_.get("mode") == "tcp"
        and (print_.get("streams") or 1) == 1
        and print_.get("direction") == "forward"
    )


def _metric(key: str) -> Callable[[Run], float | None]:
    """The run's own tool's reader of that metric: what its comparisons read (iperf3's and iperf2's
    throughput is what arrived, the receiver's rate, where the output has it)."""

    def read(run: Run) -> float | None:
        return next(metric.read(run, None) for metric in tools.get(run.tool).metrics if metric.key == key)

    return read


def _idle_ping(run: Run) -> bool:
    return run.tool == "ping" and not run.params.get("load") and run.metrics.get("rtt_avg_ms") is not None


def _loaded_ping(run: Run) -> bool:
    return run.tool == "ping" and "rtt_loaded_median_ms" in (run.metrics.get("under_load") or {})


def _pct_text(value: float) -> str:
    return "0 %" if value == 0 else f"{units.significant(value)} %"


def _bits_text(value: float) -> str:
    return units.format_bits_per_s(value) or ""


# (id, title, which runs, the number read, how it is shown)
Column = tuple[str, str, Callable[[Run], bool], Callable[[Run], float | None], Callable[[float], str]]


def _columns(runs: list[Run]) -> list[Column]:
    columns: list[Column] = []
    for tool in THROUGHPUT_TOOLS:
        is_tcp = lambda r, t=tool: r.tool == t and _tcp_single(r)  # noqa: E731
        columns.append((f"{tool}-tcp", f"TCP, {tool}", is_tcp, _metric("throughput"), _bits_text))
    # The rate offered as the command gave it (-b 500M): one for every UDP run, or said generally.
    offered = {str(r.params.get("target_bitrate")) for r in runs if r.metrics.get("mode") == "udp"}
    udp = f" (-b {offered.pop()})" if len(offered) == 1 and "None" not in offered else " (at the rate offered)"
    for tool in THROUGHPUT_TOOLS:
        is_udp = lambda r, t=tool: r.tool == t and r.metrics.get("mode") == "udp"  # noqa: E731
        columns.append((f"{tool}-udp", f"UDP received, {tool}{udp}", is_udp, _metric("udp_received"), _bits_text))
        lost = lambda r: r.metrics.get("lost_pct")  # noqa: E731
        columns.append((f"{tool}-udp-loss", f"UDP lost, {tool}", is_udp, lost, _pct_text))
    columns += [
        ("rtt-idle", "RTT idle", _idle_ping, lambda r: r.metrics.get("rtt_avg_ms"), units.format_ms),
        ("ping-loss", "Ping loss", _idle_ping, lambda r: r.metrics.get("loss_pct"), _pct_text),
        (
            "rtt-loaded",
            "RTT under load",
            _loaded_ping,
            lambda r: r.metrics["under_load"]["rtt_loaded_median_ms"],
            units.format_ms,
        ),
    ]
    return columns


def _cell(runs: list[Run], read: Callable[[Run], float | None], show: Callable[[float], str]) -> dict[str, Any] | None:
    values = [(value, run) for run in runs if (value := read(run)) is not None]
    if not values:
        return None
    middle = statistics.median(value for value, _ in values)
    # The run whose value is nearest the median: the one a reader opens to see where it came from.
    nearest = min(values, key=lambda item: abs(item[0] - middle))[1]
    cell: dict[str, Any] = {"text": show(middle), "run": nearest.id}
    if len(values) > 1:
        cell["n"] = len(values)
        low, high = show(min(v for v, _ in values)), show(max(v for v, _ in values))
        if low != high:  # "median of 3, 0 % to 0 %" says less than "3 runs"
            cell["range"] = [low, high]
    return cell


def _scenario(run: Run) -> str:
    return fingerprint_key(run.fingerprints.get(None) or {})


def _one_scenario(runs_by_env: list[list[Run]]) -> tuple[list[list[Run]], int]:
    """Each environment's runs of the column's one scenario, and how many scenarios the column had.

    A median over two scenarios (pings at two intervals, iperf2 with two window sizes) is a number no
    run measured, and rows of different scenarios are no comparison: the column keeps the scenario
    most environments ran (then the one of most runs, then the first), the same in every row.
    """
    envs: dict[str, set[int]] = {}
    count: dict[str, int] = {}
    for index, runs in enumerate(runs_by_env):
        for run in runs:
            envs.setdefault(_scenario(run), set()).add(index)
            count[_scenario(run)] = count.get(_scenario(run), 0) + 1
    if len(envs) < 2:
        return runs_by_env, len(envs)
    kept = max(envs, key=lambda key: (len(envs[key]), count[key]))
    return [[run for run in runs if _scenario(run) == kept] for runs in runs_by_env], len(envs)


def network_table(runs: list[Run], environments: list[str]) -> dict[str, Any] | None:
    """One row per environment with network runs, one column per measure some of them have; None
    when the report has no iperf or ping runs."""
    network = [run for run in runs if run.tool in (*THROUGHPUT_TOOLS, "ping")]
    if not network:
        return None
    by_env: dict[str, list[Run]] = {}
    for run in network:
        by_env.setdefault(run.environment or "", []).append(run)
    order = [env for env in environments if env in by_env] + sorted(set(by_env) - set(environments))
    rows, shown = [], []
    for column_id, title, chosen, read, show in _columns(network):
        measured = [[run for run in by_env[env] if chosen(run) and read(run) is not None] for env in order]
        kept, scenarios = _one_scenario(measured)
        cells = [_cell(runs, read, show) for runs in kept]
        if scenarios > 1:  # said in each cell: the others are in the comparisons, one scenario each
            cells = [{**cell, "scenarios": scenarios} if cell else None for cell in cells]
        if any(cells):
            shown.append({"id": column_id, "title": title})
            rows.append(cells)
    if not shown:
        return None
    ids = {column["id"] for column in shown}
    # What the table holds, which its heading and note name: no "loss" over a TCP-only table.
    kinds = [
        kind
        for kind, has in (
            ("tcp", bool(ids & {"iperf3-tcp", "iperf2-tcp"})),
            ("udp", bool(ids & {"iperf3-udp", "iperf2-udp"})),
            ("rtt-idle", "rtt-idle" in ids),
            ("rtt-loaded", "rtt-loaded" in ids),
        )
        if has
    ]
    named = [
        word
        for word, has in (
            ("throughput", "tcp" in kinds or "udp" in kinds),
            ("latency", "rtt-idle" in kinds or "rtt-loaded" in kinds),
            ("loss", "udp" in kinds or "ping-loss" in ids),
        )
        if has
    ]
    heading = verdict.joined(named)
    return {
        "heading": heading[0].upper() + heading[1:],
        "kinds": kinds,
        "columns": shown,
        "rows": [
            {"environment": env, "cells": [column_cells[index] for column_cells in rows]}
            for index, env in enumerate(order)
        ],
    }

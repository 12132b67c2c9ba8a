"""ping: round-trip time and packet loss to one target, per packet and summarised.

The parser (iputils old and new, BSD/macOS, busybox, Windows) is parser.py; this module declares
what ping measures and how its pages show it. ping prints milliseconds and its runs keep them
(`rtt_avg_ms`); comparisons and charts take nanoseconds, the canonical unit, from them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ... import underload, units
from ...findings import Evidence, Finding
from ...model import Run
from ..base import Measure, Metric, Tool, metric_at, pairs_table
from . import parser

# The most reply rows a chart's data table lists: a long run under load has thousands of them.
TABLE_ROWS = 500


def _ns(*keys: str) -> Callable[[Run, str | None], float | None]:
    """A reader of a time the run keeps in milliseconds (at that path in its metrics), in nanoseconds."""
    in_ms = metric_at(*keys)

    def read(run: Run, part: str | None) -> float | None:
        value = in_ms(run, part)
        return None if value is None else units.ms_to_ns(value)

    return read


def _idle(read: Callable[[Run, str | None], float | None]) -> Callable[[Run, str | None], float | None]:
    """`read`, for a ping that ran alone; None for one paired with a load (underload.py)."""

    def idle(run: Run, part: str | None) -> float | None:
        return None if run.metrics.get("under_load") else read(run, part)

    return idle


def _loss_text(value: float | None) -> str | None:
    return None if value is None else f"{units.significant(value) if value % 1 else int(value)}%"


def loss(run: Run, ev: Evidence) -> list[Finding]:
    sent, received = run.metrics.get("packets_sent") or 0, run.metrics.get("packets_received")
    if not sent or received is None or received >= sent:
        return []
    if received == 0:
        message = f"no reply to any of the {sent} packets: no round-trip time was measured"
    else:
        message = (
            f"{sent - received} of {sent} packets lost ({_loss_text(run.metrics.get('loss_pct'))}): "
            "the path drops packets, and the round-trip times are of the packets that came back"
        )
    return [ev.finding("ping-loss", "warning", message, r"packets transmitted|Packets: Sent")]


def duplicates(run: Run, ev: Evidence) -> list[Finding]:
    count = run.metrics.get("duplicates")
    if not count:
        return []
    return [
        ev.finding(
            "ping-duplicates",
            "warning",
            f"{count} duplicate {'reply' if count == 1 else 'replies'}: more than one answer to a request "
            "(a broadcast or multicast target, "
            "or a path that copies packets), and ping's round-trip statistics count them too",
            r"\+\d+ duplicates",
        )
    ]


def errors(run: Run, ev: Evidence) -> list[Finding]:
    metrics = run.metrics
    count = metrics.get("errors") or metrics.get("corrupted")
    windows = [error for error in metrics.get("icmp_errors") or [] if error.get("from")]
    if count:
        first = (metrics.get("icmp_errors") or [{}])[0].get("message")
        what = "ICMP errors" if metrics.get("errors") else "replies with a bad checksum"
        said = f" ({first})" if first and metrics.get("errors") else ""
        return [
            ev.finding(
                "ping-errors",
                "warning",
                f"{count} {what}{said} instead of replies",
                r"\+\d+ (?:errors|corrupted)",
            )
        ]
    if metrics.get("variant") == "windows" and windows:
        return [
            ev.finding(
                "ping-errors",
                "warning",
                f"{len(windows)} '{windows[0]['message']}' replies, which Windows counts as received: "
                "the loss it prints is less than the packets that got no echo reply",
                r"^\s*Reply from \S+: [A-Z][A-Za-z ]*\.\s*$",
            )
        ]
    return []


def resolution(run: Run, ev: Evidence) -> list[Finding]:
    below = [reply for reply in run.metrics.get("replies") or [] if "time_below_ms" in reply]
    if not below:
        return []
    bound = below[0]["time_below_ms"]
    return [
        ev.finding(
            "ping-resolution",
            "warning",
            f"{len(below)} replies took under {bound} ms, which Windows ping prints as 'time<{bound}ms' and its "
            "summary as whole milliseconds: too coarse to compare with a ping that prints microseconds",
            r"time<\d+ ?ms",
        )
    ]


def rtt_chart(series: list[tuple[str, dict[str, Any]]], chart_id: str) -> dict[str, Any] | None:
    """Round-trip time per packet on the run's time axis (a timeline, in ns), with its data table."""
    drawn = [(name, points) for name, points in series if any(value is not None for value in points["values"])]
    if not drawn:
        return None
    chart: dict[str, Any] = {
        "id": chart_id,
        "title": "Round-trip time per packet",
        "plot": {
            "kind": "timeline",
            "unit": "ns",
            "series": [{"name": name, "t_s": points["t_s"], "values": points["values"]} for name, points in drawn],
        },
    }
    name, first = drawn[0]
    if len(first["t_s"]) <= TABLE_ROWS:
        rows = [
            [f"{t_s:g} s", units.format_ns(value)] for t_s, value in zip(first["t_s"], first["values"], strict=True)
        ]
        chart["table"] = {"columns": ["Time", f"{name} round-trip time"], "rows": rows}
    return chart


def replies_series(run: Run) -> dict[str, Any]:
    """Each first reply's time and round-trip time (ns); a timeout a gap (None) at its time."""
    points = [
        (reply["t_s"], units.ms_to_ns(reply.get("time_ms")))
        for reply in run.metrics.get("replies") or []
        if not reply.get("dup") and reply.get("t_s") is not None
    ]
    points += [(entry["t_s"], None) for entry in run.metrics.get("timeouts") or [] if entry.get("t_s") is not None]
    points.sort(key=lambda point: point[0])
    return {"t_s": [t_s for t_s, _ in points], "values": [value for _, value in points]}


class Ping(Tool):
    name = "ping"
    measures = "network"
    parser = parser
    metrics = (
        # ping's own average and maximum cover its whole run: for one paired with a load, idle and
        # loaded replies together, so no comparison takes them (rtt_loaded does, from the load alone).
        Metric("rtt_avg", "Average round-trip time", "ns", False, _idle(_ns("rtt_avg_ms"))),
        Metric("rtt_max", "Maximum round-trip time", "ns", False, _idle(_ns("rtt_max_ms"))),
        Metric("loss", "Packet loss (%)", "%", False, metric_at("loss_pct")),
        # A ping paired with a throughput test on the same path (underload.py): its replies during the load.
        Metric(
            "rtt_loaded", "Median round-trip time under load", "ns", False, _ns("under_load", "rtt_loaded_median_ms")
        ),
    )
    checks = (loss, duplicates, errors, resolution)
    fingerprint_names = {
        "payload_bytes": "payload",
        "interval_s": "interval (s)",
        "family": "IP version",
        "target_kind": "target",
        "load": "load",
    }

    def fingerprint(self, run: Run, part: str | None) -> dict[str, Any]:
        params = run.params
        return {
            "tool": self.name,
            "payload_bytes": params.get("payload_bytes"),
            "interval_s": params.get("interval_s"),
            "family": params.get("family"),
            # A unicast target is what the environment is (127.0.0.1 on loopback, a host across the
            # path): no scenario of its own. A broadcast or multicast ping is (every host answers).
            "target_kind": "unicast"
            if params.get("target_kind") in ("loopback", "host")
            else params.get("target_kind"),
            # Under load (underload.py) a ping measures the queue the load builds, not the idle path.
            "load": params.get("load") or "idle",
        }

    def result_tables(self, run: Run) -> list[dict[str, Any]]:
        metrics = run.metrics
        spread = "stddev" if metrics.get("rtt_spread") == "stddev" else "mdev"
        pairs: list[tuple[str, Any]] = [("target", metrics.get("target"))]
        if metrics.get("address") and metrics.get("address") != metrics.get("target"):
            pairs.append(("address", metrics["address"]))
        pairs += [
            ("packets sent", units.format_count(metrics.get("packets_sent"))),
            ("packets received", units.format_count(metrics.get("packets_received"))),
            ("packet loss", _loss_text(metrics.get("loss_pct"))),
        ]
        for key in ("duplicates", "corrupted", "errors"):
            if metrics.get(key) is not None:
                pairs.append((key, units.format_count(metrics[key])))
        for key, label in (("min", "min"), ("avg", "avg"), ("max", "max"), ("mdev", spread)):
            if metrics.get(f"rtt_{key}_ms") is not None:
                pairs.append((f"round-trip {label}", units.format_ns(units.ms_to_ns(metrics[f"rtt_{key}_ms"]))))
        if metrics.get("elapsed_ms") is not None:
            pairs.append(("elapsed", units.format_ns(units.ms_to_ns(metrics["elapsed_ms"]))))
        if metrics.get("pipe") is not None:
            pairs.append(("pipe (most requests in flight)", units.format_count(metrics["pipe"])))
        tables = [pairs_table("Results", "results", pairs)]
        under = metrics.get("under_load")
        if under:  # the summary above is the whole run's, idle and loaded replies together
            loaded = [
                ("load", under["load"]),
                ("replies under load", units.format_count(under["replies_loaded"])),
                ("replies idle", units.format_count(under["replies_idle"])),
            ]
            for key, label in (
                ("rtt_loaded_median_ms", "median RTT under load"),
                ("rtt_loaded_max_ms", "largest RTT under load"),
                ("rtt_idle_median_ms", "median RTT idle"),
                ("added_median_ms", "added by the load (median)"),
            ):
                if under.get(key) is not None:
                    loaded.append((label, units.format_ms(under[key])))
            tables.append(pairs_table("Under load (the summary above covers the whole run)", "under-load", loaded))
        return tables

    def run_charts(self, run: Run) -> list[dict[str, Any]]:
        loaded = underload.chart(run)
        chart = rtt_chart([(run.environment or run.id, replies_series(run))], "chart-rtt")
        return [one for one in (loaded, chart) if one]

    runs_columns = ("Target", "Payload", "Interval", "Sent", "Loss", "Average RTT", "Maximum RTT")

    def runs_row(self, run: Run) -> list[Any]:
        params, metrics = run.params, run.metrics
        interval = params.get("interval_s")
        return [
            metrics.get("target"),
            units.format_bytes(params.get("payload_bytes")),
            None if interval is None else f"{interval:g} s",
            units.format_count(metrics.get("packets_sent")),
            _loss_text(metrics.get("loss_pct")),
            Measure(_ns("rtt_avg_ms")(run, None), "ns"),
            Measure(_ns("rtt_max_ms")(run, None), "ns"),
        ]

    def overlay_series(self, run: Run, fingerprint: dict[str, Any]) -> dict[str, Any]:
        return {"rtt": replies_series(run)}

    def scenario_charts(self, names: list[str], series: list[dict[str, Any]]) -> list[dict[str, Any]]:
        chart = rtt_chart([(name, one["rtt"]) for name, one in zip(names, series, strict=True)], "chart-rtt")
        return [chart] if chart else []


TOOL = Ping()

"""netperf: TCP and UDP throughput (the _STREAM tests) and transaction rates (the _RR tests).

The parser (classic tables in parser.py, the omni -k/-o/-O forms in omni.py, the command
line in options.py) reads what netperf printed; this module declares what it measures, what
makes two runs comparable and what their pages show.
"""

from __future__ import annotations

from typing import Any

from ... import units
from ...findings import Evidence, Finding
from ...model import Run
from ..base import Measure, Metric, Tool, metric_at, pairs_table, shown
from . import parser

# A test this much shorter than netperf's default -l 10 says little about a steady rate.
SHORT_S = 9.0
# A UDP_STREAM that lost more than this share of the messages it sent.
UDP_LOSS = 0.01
_LATENCIES = ("min", "mean", "p50", "p90", "p99", "max", "stddev")


def _latency_ns(key: str):
    """A reader of a latency netperf printed in microseconds, in the canonical nanoseconds."""

    def read(run: Run, part: str | None) -> float | None:
        value = run.metrics.get(f"latency_{key}_us")
        return None if value is None else units.scaled(str(value), 1000)

    return read


def short_test(run: Run, ev: Evidence) -> list[Finding]:
    elapsed = run.metrics.get("elapsed_s")
    if elapsed is None or elapsed >= SHORT_S:
        return []
    return [
        ev.finding(
            "netperf-short",
            "warning",
            f"the test ran {elapsed:g} s: too short for a steady rate (netperf's default is 10 s, -l sets it)",
        )
    ]


def udp_loss(run: Run, ev: Evidence) -> list[Finding]:
    udp = run.metrics.get("udp") or {}
    sent = (udp.get("send") or {}).get("messages")
    arrived = (udp.get("receive") or {}).get("messages")
    if not sent or arrived is None or 1 - arrived / sent <= UDP_LOSS:
        return []
    lost = sent - arrived
    return [
        ev.finding(
            "netperf-udp-loss",
            "warning",
            f"{units.format_count(lost)} of {units.format_count(sent)} messages sent never arrived "
            f"({100 * lost / sent:.1f}%): the receiving side's rate is the result, the sending side's is not",
        )
    ]


def confidence(run: Run, ev: Evidence) -> list[Finding]:
    if not run.metrics.get("confidence_missed"):
        return []
    return [
        ev.finding(
            "netperf-confidence",
            "warning",
            "netperf did not reach the confidence interval asked for (-i/-I): the rate varied between iterations",
            r"Desired confidence was not achieved",
        )
    ]


def intervals_chart(run: Run) -> dict[str, Any] | None:
    """The interim results of a run with -D: its rate over time."""
    rows = [row for row in run.metrics.get("intervals") or [] if row.get("bits_per_s") is not None]
    if not rows:
        return None
    name = run.environment or run.id
    return {
        "id": "chart-intervals",
        "title": "Throughput per interval (interim results)",
        "plot": {
            "kind": "intervals",
            "unit": "bit/s",
            "series": [
                {"name": name, "x": [row["end_s"] for row in rows], "values": [row["bits_per_s"] for row in rows]}
            ],
        },
        "table": {
            "columns": ["Interval", "Throughput"],
            "rows": [
                [f"{row['start_s']:g}–{row['end_s']:g} s", units.format_bits_per_s(row["bits_per_s"])] for row in rows
            ],
        },
    }


class Netperf(Tool):
    name = "netperf"
    measures = "network"
    parser = parser
    metrics = (
        Metric("throughput", "Throughput", "bit/s", True, metric_at("bits_per_s")),
        Metric("transactions", "Transactions per second", "trans/s", True, metric_at("transactions_per_s")),
        Metric("latency_mean", "Mean latency", "ns", False, _latency_ns("mean")),
        Metric("latency_p99", "p99 latency", "ns", False, _latency_ns("p99")),
    )
    checks = (short_test, udp_loss, confidence)
    fingerprint_names = {
        "test": "test",
        "message_bytes": "message size",
        "request_bytes": "request size",
        "response_bytes": "response size",
    }

    def run_name(self, run: Run) -> str:
        """The label, else the test (TCP_RR): a transcript of several netperf tests names each by its test."""
        return run.label or str(run.params.get("test") or self.name)

    def fingerprint(self, run: Run, part: str | None) -> dict[str, Any]:
        params = run.params
        request_response = parser.is_request_response(params.get("test"))
        return {
            "tool": self.name,
            "test": params.get("test"),
            # A stream test's size is its message, a request/response test's its request and response.
            "message_bytes": None if request_response else params.get("message_bytes"),
            "request_bytes": params.get("request_bytes") if request_response else None,
            "response_bytes": params.get("response_bytes") if request_response else None,
        }

    def result_tables(self, run: Run) -> list[dict[str, Any]]:
        metrics = run.metrics
        pairs: list[tuple[str, Any]] = [("test", run.params.get("test")), ("target", run.params.get("target"))]
        if metrics.get("bits_per_s") is not None:
            pairs.append(("throughput", units.format_bits_per_s(metrics["bits_per_s"])))
        if metrics.get("transactions_per_s") is not None:
            pairs.append(("transactions per second", f"{metrics['transactions_per_s']:g}"))
        pairs += [
            ("units as printed", metrics.get("throughput_units")),
            ("elapsed", _seconds(metrics.get("elapsed_s"))),
        ]
        for key, label in (
            ("message_bytes", "message size"),
            ("request_bytes", "request size"),
            ("response_bytes", "response size"),
            ("local_send_socket_bytes", "local send socket"),
            ("local_recv_socket_bytes", "local receive socket"),
            ("remote_send_socket_bytes", "remote send socket"),
            ("remote_recv_socket_bytes", "remote receive socket"),
        ):
            if metrics.get(key) is not None:
                pairs.append((label, units.shown(metrics[key], "B")))
        for key, label in (("cpu_local_pct", "local CPU"), ("cpu_remote_pct", "remote CPU")):
            if metrics.get(key) is not None:
                pairs.append((label, f"{metrics[key]:g}%"))
        for side in ("local", "remote"):
            if metrics.get(f"service_demand_{side}") is not None:
                demand = f"{metrics[f'service_demand_{side}']:g} {metrics.get('service_demand_unit', '')}".strip()
                pairs.append((f"{side} service demand", demand))
        tables = [pairs_table("Results", "results", pairs)]
        udp = metrics.get("udp")
        if udp:
            tables.append(
                {
                    "title": "UDP_STREAM: each side",
                    "id": "udp-sides",
                    "columns": ["Side", "Socket", "Messages", "Errors", "Elapsed", "Throughput"],
                    "rows": [
                        [
                            side,
                            units.shown(udp[side].get("socket_bytes"), "B"),
                            units.format_count(udp[side].get("messages")),
                            units.format_count(udp[side].get("errors")),
                            _seconds(udp[side].get("elapsed_s")),
                            units.format_bits_per_s(udp[side].get("bits_per_s")),
                        ]
                        for side in ("send", "receive")
                    ],
                }
            )
        latencies = [(key, metrics.get(f"latency_{key}_us")) for key in _LATENCIES]
        latencies = [(key, value) for key, value in latencies if value is not None]
        if latencies:
            tables.append(
                {
                    "title": "Latency (omni statistics)",
                    "id": "latency",
                    "columns": ["Statistic", "Latency"],
                    "rows": [[key, units.format_ns(value * 1000)] for key, value in latencies],
                }
            )
        return tables

    def run_charts(self, run: Run) -> list[dict[str, Any]]:
        chart = intervals_chart(run)
        return [chart] if chart else []

    runs_columns = ("Test", "Size", "Throughput", "Transactions/s", "Mean latency", "p99 latency")

    def runs_row(self, run: Run) -> list[Any]:
        params = run.params
        if parser.is_request_response(params.get("test")):
            size = f"{shown(params.get('request_bytes'))}/{shown(params.get('response_bytes'))} B"
        else:
            size = units.format_bytes(params.get("message_bytes"))
        return [
            params.get("test"),
            size,
            Measure(run.metrics.get("bits_per_s"), "bit/s"),
            Measure(run.metrics.get("transactions_per_s"), "trans/s"),
            Measure(_latency_ns("mean")(run, None), "ns"),
            Measure(_latency_ns("p99")(run, None), "ns"),
        ]


def _seconds(value: float | None) -> str | None:
    return None if value is None else f"{value:g} s"


TOOL = Netperf()

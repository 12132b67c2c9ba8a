"""iperf2: network throughput, TCP or UDP, one or many streams, one way or both.

Another program than iperf3, with other output: parser.py reads it (transcripts in transcript.py,
-y C lines in csv_output.py, both made into metrics in streams.py). Its runs have iperf3's metric
names wherever they mean the same, and its pages iperf3's chart of throughput per interval.
"""

from __future__ import annotations

from typing import Any

from ... import units
from ...findings import Evidence, Finding
from ...model import Run
from ..base import Metric, metric_at, pairs_table
from ..iperf3 import Iperf3, rate, retransmits_check, udp_received
from . import parser

_ENDS = ("sender", "receiver", "transferred")


def _udp_sent_alone(run: Run, part: str | None) -> float | None:
    """A UDP client's own rate when no server report came back (-y C of 2.1 prints none): what it sent."""
    if run.metrics.get("mode") != "udp" or (run.metrics.get("receiver") or {}).get("bits_per_s") is not None:
        return None
    return (run.metrics.get("sender") or {}).get("bits_per_s")


def no_server_report(run: Run, ev: Evidence) -> list[Finding]:
    """A UDP client's own rate is what it sent, whatever arrived: without the server's report
    ("WARNING: did not receive ack of last datagram") nothing says the datagrams got there."""
    metrics = run.metrics
    if metrics.get("mode") == "udp" and metrics.get("role") == "client" and "sender" in metrics:
        if "receiver" not in metrics and not metrics.get("reverse"):
            return [
                ev.finding(
                    "iperf2-no-server-report",
                    "warning",
                    "UDP client without the server's report: its rate is what it sent, not what arrived",
                    r"did not receive ack|Sent \d+ datagrams",
                )
            ]
    return []


def _ends(metrics: dict[str, Any], prefix: str) -> list[tuple[str, Any]]:
    """Rate, transfer and counts of each end a run (or its other direction) has."""
    pairs: list[tuple[str, Any]] = []
    for end in _ENDS:
        data = metrics.get(end)
        if not data:
            continue
        printed = data.get("printed") or {}  # iperf2's own tokens, shown under "Units: as printed"
        name = prefix + ("transferred (end not known)" if end == "transferred" else end)
        rate = units.shown(data.get("bits_per_s"), "bit/s", printed=printed.get("bits_per_s"))
        pairs.append((f"{name} throughput", rate))
        pairs.append((f"{name} transferred", units.shown(data.get("bytes"), "B", printed=printed.get("bytes"))))
        for key, title in _COUNTS:
            if key in data:
                pairs.append((f"{name} {title}", units.format_count(data[key])))
    return pairs


def _udp(metrics: dict[str, Any]) -> list[tuple[str, Any]]:
    """What the receiving end of UDP counted."""
    jitter = metrics.get("jitter_ms")
    pairs = [
        ("jitter", None if jitter is None else f"{jitter} ms"),
        ("lost", f"{units.format_count(metrics.get('lost'))} / {units.format_count(metrics['packets'])}"),
        ("lost %", metrics.get("lost_pct")),
    ]
    if "out_of_order" in metrics:
        pairs.append(("out of order", units.format_count(metrics["out_of_order"])))
    return pairs


_COUNTS = (("retransmits", "retransmits"), ("writes", "writes"), ("errors", "write errors"), ("reads", "reads"))


class Iperf2(Iperf3):
    """iperf3's metrics, pages and charts (their names mean the same), with iperf2's own parser,
    directions (-r runs one way then the other), results table and checks."""

    name = "iperf2"
    parser = parser
    formats = ("text", "csv")
    # perfwiki bench's server on loopback: iperf2 prints and flushes this line to a pipe as it listens.
    loopback_server = ("iperf", "-s", "-B", "127.0.0.1", "-p", "{port}")
    server_ready = "Server listening"
    metrics = (
        Metric("throughput", "Throughput", "bit/s", True, rate),
        Metric("udp_received", "UDP received", "bit/s", True, udp_received),
        Metric("udp_sent", "UDP sent (no server report)", "bit/s", True, _udp_sent_alone),
        Metric("retransmits", "Retransmits", "count", False, metric_at("sender", "retransmits")),
        Metric("loss", "UDP datagrams lost (%)", "%", False, metric_at("lost_pct")),
    )
    checks = (retransmits_check("iperf2", r"Rtry"), no_server_report)

    def direction(self, params: dict[str, Any]) -> str:
        if params.get("tradeoff"):
            return "tradeoff"  # -r: one way, then the other
        if params.get("bidir"):
            return "bidir"  # -d, --full-duplex: both ways at once
        return "reverse" if params.get("reverse") else "forward"

    def result_tables(self, run: Run) -> list[dict[str, Any]]:
        metrics = run.metrics
        pairs = _ends(metrics, "")
        if metrics.get("mode") == "udp" and metrics.get("packets") is not None:
            pairs += _udp(metrics)
        back = metrics.get("reverse_direction") or {}
        pairs += _ends(back, "other way: ")  # -d, -r, --full-duplex: what went back
        if metrics.get("mode") == "udp" and back.get("packets") is not None:
            pairs += [(f"other way: {name}", value) for name, value in _udp(back)]
        return [pairs_table("Results", "results", pairs)]


TOOL = Iperf2()

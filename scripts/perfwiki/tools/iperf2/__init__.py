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
from ..base import Measure, Metric, Tool, metric_at, pairs_table, shown
from ..iperf3 import intervals_chart
from . import parser

_ENDS = ("sender", "receiver", "transferred")


def _rate_ends(run: Run) -> tuple[str, ...]:
    """Where the throughput is read: the receiver's rate, what arrived, when the transcript has it (a
    server's, a UDP client's server report); else the sender's, as iperf3's (_rate_ends there)."""
    return ("receiver", "sender", "transferred")


def _rate(run: Run, part: str | None) -> float | None:
    """The rate _rate_ends says to read, as iperf3's."""
    if run.metrics.get("mode") == "udp":
        # UDP runs at the rate offered (-b, or the tool's default of about 1 Mbit/s): what arrived
        # says whether the path kept up at that rate, not what it can carry. Its loss and jitter are
        # its results; as a throughput it would tie or lose by the rate chosen, not by the path.
        return None
    for end in _rate_ends(run):
        value = (run.metrics.get(end) or {}).get("bits_per_s")
        if value is not None:
            return value
    return None


def _udp_received(run: Run, part: str | None) -> float | None:
    """What arrived of a UDP run, at the rate it offered: whether the path kept up at that rate."""
    if run.metrics.get("mode") != "udp":
        return None
    return (run.metrics.get("receiver") or {}).get("bits_per_s")


def _udp_sent_alone(run: Run, part: str | None) -> float | None:
    """A UDP client's own rate when no server report came back (-y C of 2.1 prints none): what it sent."""
    if run.metrics.get("mode") != "udp" or (run.metrics.get("receiver") or {}).get("bits_per_s") is not None:
        return None
    return (run.metrics.get("sender") or {}).get("bits_per_s")


def _printed_rate(run: Run) -> str | None:
    """iperf2's own text for the rate _rate reads ("19.8 Gbits/sec"), when one row printed it."""
    for end in _rate_ends(run):
        data = run.metrics.get(end) or {}
        if data.get("bits_per_s") is not None:
            return (data.get("printed") or {}).get("bits_per_s")
    return None


def retransmits(run: Run, ev: Evidence) -> list[Finding]:
    """iperf2 -e prints a TCP client's retransmits (Rtry); iperf3's rule for how many are too many."""
    sender = run.metrics.get("sender") or {}
    resent, sent = sender.get("retransmits"), sender.get("bytes")
    share = resent / (sent / 1448) if resent and sent else 0  # of ~1448-byte TCP segments
    if share > 0.0005:  # 0.05%: on a LAN, more than one segment in 2000 resent is a lossy path
        return [
            ev.finding(
                "iperf2-retransmits",
                "warning",
                f"{resent} retransmits, {100 * share:.2f}% of segments: lost on the path or dropped at a host",
                r"Rtry",
            )
        ]
    return []


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


def _direction(params: dict[str, Any]) -> str:
    if params.get("tradeoff"):
        return "tradeoff"  # -r: one way, then the other
    if params.get("bidir"):
        return "bidir"  # -d, --full-duplex: both ways at once
    return "reverse" if params.get("reverse") else "forward"


class Iperf2(Tool):
    name = "iperf2"
    measures = "network"
    parser = parser
    formats = ("text", "csv")
    # perfwiki bench's server on loopback: iperf2 prints and flushes this line to a pipe as it listens.
    loopback_server = ("iperf", "-s", "-B", "127.0.0.1", "-p", "{port}")
    server_ready = "Server listening"
    metrics = (
        Metric("throughput", "Throughput", "bit/s", True, _rate),
        Metric("udp_received", "UDP received", "bit/s", True, _udp_received),
        Metric("udp_sent", "UDP sent (no server report)", "bit/s", True, _udp_sent_alone),
        Metric("retransmits", "Retransmits", "count", False, metric_at("sender", "retransmits")),
        Metric("loss", "UDP datagrams lost (%)", "%", False, metric_at("lost_pct")),
    )
    checks = (retransmits, no_server_report)
    fingerprint_names = {"mode": "protocol", "streams": "streams", "direction": "direction"}

    def fingerprint(self, run: Run, part: str | None) -> dict[str, Any]:
        params = run.params
        print_ = {
            "tool": self.name,
            "mode": params.get("mode"),
            "streams": params.get("streams"),
            "direction": _direction(params),
        }
        if params.get("mode") == "udp":  # UDP at 500M offered is another test than at 100M
            print_["offered"] = params.get("target_bitrate") or "default"
        return print_

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

    def printed_text(self, run: Run, part: str | None, metric: Metric) -> str | None:
        return _printed_rate(run) if metric.key == "throughput" else super().printed_text(run, part, metric)

    def run_charts(self, run: Run) -> list[dict[str, Any]]:
        chart = intervals_chart([(run.environment or run.id, run.metrics.get("intervals") or [])], "chart-intervals")
        return [chart] if chart else []

    runs_columns = ("Protocol", "Streams", "Direction", "Throughput", "Retransmits")

    def runs_row(self, run: Run) -> list[Any]:
        print_ = run.fingerprints[None]
        resent = (run.metrics.get("sender") or {}).get("retransmits")
        return [
            print_["mode"],
            shown(print_["streams"]),
            print_["direction"],
            Measure(_rate(run, None), "bit/s", _printed_rate(run)),
            units.format_count(resent),
        ]

    def overlay_series(self, run: Run, fingerprint: dict[str, Any]) -> dict[str, Any]:
        return {"intervals": run.metrics.get("intervals") or []}

    def scenario_charts(self, names: list[str], series: list[dict[str, Any]]) -> list[dict[str, Any]]:
        chart = intervals_chart(
            [(name, one["intervals"]) for name, one in zip(names, series, strict=True)], "chart-intervals"
        )
        return [chart] if chart else []


TOOL = Iperf2()

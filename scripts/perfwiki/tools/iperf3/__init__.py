"""iperf3: network throughput, TCP or UDP, one or many streams, either direction.

The parser (client and server transcripts, every version's wording, and -J JSON) is
parser.py; this module declares what iperf3 measures and how its pages show it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ... import noise, units
from ...findings import Evidence, Finding
from ...model import Run
from ..base import Measure, Metric, Tool, metric_at, pairs_table, shown
from . import parser

# Where the throughput is read, in order: the receiver's rate, what arrived, whenever it was printed.
# The sender's counts what it handed to its socket, and over TCP that includes bytes still queued
# when the test ended (4 streams "sent" 107 Mbit/s through a 100 Mbit/s shaper, 95.8 arrived); a
# client transcript cut before the receiver line has only the sender's. "transferred" is iperf2's
# (-y C of a TCP run without its command: which end printed it is not known).
RATE_ENDS = ("receiver", "sender", "transferred")


def rate(run: Run, part: str | None) -> float | None:
    """The throughput, at the first of RATE_ENDS the run has; iperf2 reads its runs with it too."""
    if run.metrics.get("mode") == "udp":
        # UDP runs at the rate offered (-b, or the tool's default of about 1 Mbit/s): what arrived
        # says whether the path kept up at that rate, not what it can carry. Its loss and jitter are
        # its results; as a throughput it would tie or lose by the rate chosen, not by the path.
        return None
    for end in RATE_ENDS:
        value = (run.metrics.get(end) or {}).get("bits_per_s")
        if value is not None:
            return value
    return None


def udp_received(run: Run, part: str | None) -> float | None:
    """What arrived of a UDP run, at the rate it offered: whether the path kept up at that rate."""
    if run.metrics.get("mode") != "udp":
        return None
    return (run.metrics.get("receiver") or {}).get("bits_per_s")


def printed_rate(run: Run) -> str | None:
    """The tool's own text for the rate `rate` reads ("8.33 Gbits/sec"), when it printed one."""
    for end in RATE_ENDS:
        data = run.metrics.get(end) or {}
        if data.get("bits_per_s") is not None:
            return (data.get("printed") or {}).get("bits_per_s")
    return None


def retransmits_check(tool: str, evidence: str) -> Callable[[Run, Evidence], list[Finding]]:
    """The check of a TCP sender's retransmits, for iperf3 and iperf2 (-e's Rtry); `evidence` finds
    the line that shows them."""

    def retransmits(run: Run, ev: Evidence) -> list[Finding]:
        sender = run.metrics.get("sender") or {}
        resent, sent = sender.get("retransmits"), sender.get("bytes")
        share = resent / (sent / 1448) if resent and sent else 0  # of ~1448-byte TCP segments
        if share > 0.0005:  # 0.05%: on a LAN, more than one segment in 2000 resent is a lossy path
            return [
                ev.finding(
                    f"{tool}-retransmits",
                    "warning",
                    f"{resent} retransmits, {100 * share:.2f}% of segments: lost on the path or dropped at a host",
                    evidence,
                )
            ]
        return []

    return retransmits


def sender_ahead(run: Run, ev: Evidence) -> list[Finding]:
    """A TCP sender's rate well above what arrived: data still queued at the end of a short test."""
    sent = (run.metrics.get("sender") or {}).get("bits_per_s")
    arrived = (run.metrics.get("receiver") or {}).get("bits_per_s")
    if run.metrics.get("mode") != "tcp" or not sent or not arrived or sent <= arrived * (1 + noise.EVEN):
        return []
    return [
        ev.finding(
            "iperf3-sender-ahead",
            "info",
            f"the sender's rate ({units.format_bits_per_s(sent)}) is {100 * (sent / arrived - 1):.0f} % above "
            f"what arrived ({units.format_bits_per_s(arrived)}): data still queued when the test ended, "
            "which a longer test (-t) dilutes; the receiver's rate is the throughput",
            r"sender",
        )
    ]


def intervals_chart(series: list[tuple[str, list[dict[str, Any]]]], chart_id: str) -> dict[str, Any] | None:
    """Throughput per interval (lines) and retransmits per interval (bars, right axis)."""
    series = [(name, rows) for name, rows in series if rows]
    if not series:
        return None
    charted = []
    for name, rows in series:
        one: dict[str, Any] = {
            "name": name,
            "x": [row["end_s"] for row in rows],
            "values": [row["bits_per_s"] for row in rows],
        }
        if any("retransmits" in row for row in rows):
            one["retransmits"] = [row.get("retransmits") for row in rows]
        charted.append(one)
    name, first = series[0]
    rows = [
        [f"{row['start_s']:g}–{row['end_s']:g} s", units.format_bits_per_s(row["bits_per_s"]), row.get("retransmits")]
        for row in first
    ]
    return {
        "id": chart_id,
        "title": "Throughput per interval",
        "plot": {"kind": "intervals", "unit": "bit/s", "series": charted},
        "table": {"columns": ["Interval", f"{name} throughput", "Retransmits"], "rows": rows},
    }


class Iperf3(Tool):
    name = "iperf3"
    measures = "network"
    parser = parser
    formats = ("text", "json")
    loopback_server = ("iperf3", "-s", "--forceflush", "-B", "127.0.0.1", "-p", "{port}")
    server_ready = "Server listening"
    metrics = (
        Metric("throughput", "Throughput", "bit/s", True, rate),
        Metric("udp_received", "UDP received", "bit/s", True, udp_received),
        Metric("retransmits", "Retransmits", "count", False, metric_at("sender", "retransmits")),
        Metric("loss", "UDP datagrams lost (%)", "%", False, metric_at("lost_pct")),
    )
    # The text summary's sender row, or -J's count.
    checks = (retransmits_check("iperf3", r"\bsender\s*$|\"retransmits\":"), sender_ahead)
    fingerprint_names = {"mode": "protocol", "streams": "streams", "direction": "direction"}

    def direction(self, params: dict[str, Any]) -> str:
        return "bidir" if params.get("bidir") else ("reverse" if params.get("reverse") else "forward")

    def fingerprint(self, run: Run, part: str | None) -> dict[str, Any]:
        params = run.params
        print_ = {
            "tool": self.name,
            "mode": params.get("mode"),
            "streams": params.get("streams"),
            "direction": self.direction(params),
        }
        if params.get("mode") == "udp":  # UDP at 500M offered is another test than at 100M
            print_["offered"] = params.get("target_bitrate") or "default"
        return print_

    def result_tables(self, run: Run) -> list[dict[str, Any]]:
        metrics = run.metrics
        pairs: list[tuple[str, Any]] = []
        for end in ("sender", "receiver"):
            data = metrics.get(end) or {}
            printed = data.get("printed") or {}  # iperf3's own tokens, shown under "Units: as printed"
            rate = units.shown(data.get("bits_per_s"), "bit/s", printed=printed.get("bits_per_s"))
            pairs += [(f"{end} throughput", rate)]
            pairs += [(f"{end} transferred", units.shown(data.get("bytes"), "B", printed=printed.get("bytes")))]
            if "retransmits" in data:
                pairs.append((f"{end} retransmits", units.format_count(data["retransmits"])))
        if metrics.get("mode") == "udp":
            pairs += [
                ("jitter", f"{metrics.get('jitter_ms')} ms"),
                ("lost", f"{units.format_count(metrics.get('lost'))} / {units.format_count(metrics.get('packets'))}"),
            ]
            pairs += [("lost %", metrics.get("lost_pct"))]
        return [pairs_table("Results", "results", pairs)]

    def printed_text(self, run: Run, part: str | None, metric: Metric) -> str | None:
        return printed_rate(run) if metric.key == "throughput" else super().printed_text(run, part, metric)

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
            Measure(rate(run, None), "bit/s", printed_rate(run)),
            units.format_count(resent),
        ]

    def overlay_series(self, run: Run, fingerprint: dict[str, Any]) -> dict[str, Any]:
        return {"intervals": run.metrics.get("intervals") or []}

    def scenario_charts(self, names: list[str], series: list[dict[str, Any]]) -> list[dict[str, Any]]:
        chart = intervals_chart(
            [(name, one["intervals"]) for name, one in zip(names, series, strict=True)], "chart-intervals"
        )
        return [chart] if chart else []


TOOL = Iperf3()

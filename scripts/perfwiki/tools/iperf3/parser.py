"""iperf3 client and server transcripts (TCP and UDP), and `-J` JSON.

A real input (seed 001, iperf 3.1-era: "Bandwidth" header, stream id 4)::

    Connecting to host 10.127.100.234, port 5201
    [  4] local 10.127.90.238 port 56856 connected to 10.127.100.234 port 5201
    [ ID] Interval           Transfer     Bandwidth       Retr  Cwnd
    [  4]   0.00-1.00   sec   818 MBytes  6.86 Gbits/sec   32   1.09 MBytes
    - - - - - - - - - - - - - - - - - - - - - - - - -
    [ ID] Interval           Transfer     Bandwidth       Retr
    [  4]   0.00-30.00  sec  29.1 GBytes  8.33 Gbits/sec  13596             sender
    [  4]   0.00-30.00  sec  29.1 GBytes  8.33 Gbits/sec                  receiver

Output metrics::

    mode: tcp | udp, reverse, bidir, streams, role: client | server,
    intervals: [{start_s, end_s, bytes, bits_per_s, retransmits?, cwnd_bytes?, omitted?}]
    sender: {bytes, bits_per_s, retransmits?, printed?}, receiver: {bytes, bits_per_s, printed?}
    printed: {bits_per_s, bytes}: a summary row's rate and transfer as printed ("8.33 Gbits/sec",
             "29.1 GBytes"), text output only
    UDP: jitter_ms, lost, packets, lost_pct (from the receiver row; lost_pct recomputed)
    start_epoch_s: when the test started, whole seconds since the epoch (-J only)
    bidir: the reverse direction's {intervals, sender, receiver} under `reverse_direction`

With several streams (-P) the [SUM] rows are used. Byte units are 1024-based
(KBytes, MBytes); bit rates 1000-based (Mbits/sec), as iperf3's units.c has them.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

from ... import lazyre, units, wholejson
from ...linenumbers import LineNumbers
from ..base import ToolReport

# iperf3's and iperf2's units alike: bytes 1024-based (KBytes), bit rates 1000-based (Mbits/sec).
_BYTES = {"Bytes": 1, "KBytes": 2**10, "MBytes": 2**20, "GBytes": 2**30, "TBytes": 2**40, "PBytes": 2**50}
_BITS = {"bits": 1, "Kbits": 10**3, "Mbits": 10**6, "Gbits": 10**9, "Tbits": 10**12, "Pbits": 10**15}
_ROW = lazyre.compile(
    r"^(?:.*?\s)?\[\s*(?P<id>\d+|SUM)\](?:\[(?P<role>[TR]X-[CS])\])?\s+(?P<start>[\d.]+)-\s*(?P<end>[\d.]+)\s+sec\s+"
    r"(?P<amount>[\d.]+)\s+(?P<amount_unit>[KMGT]?Bytes)\s+(?P<rate>[\d.]+)\s+(?P<rate_unit>[KMGT]?(?:bits|Bytes))/sec"
    r"(?P<rest>.*)$"
)
_UDP_REST = lazyre.compile(
    r"^\s+(?P<jitter>[\d.]+)\s+ms\s+(?P<lost>\d+|Unknown)/\s*(?P<total>\d+)\s+\((?P<pct>[^)]*)%\)\s*(?P<end>sender|receiver)?"
)
_TCP_REST = lazyre.compile(
    r"^\s+(?P<retr>\d+)(?:\s+(?P<cwnd>[\d.]+)\s+(?P<cwnd_unit>[KMGT]?Bytes))?\s*(?P<end>sender|receiver)?\s*$"
)
_END_ONLY = lazyre.compile(r"^\s*(?P<end>sender|receiver)\s*$")
_ERROR = lazyre.compile(r"^\s*iperf3?: (?:error|interrupt) - (?P<message>.+?)\s*$")
# The lines of a transcript, by what they start with (after blanks). Each line is tried only
# against the patterns its first character allows: most lines are rows, and start with '['.
_STARTS = lazyre.compile(r"^\s*(Connecting to host|Server listening on|-{11,}\s*$)")  # C, S, -
_SERVER = lazyre.compile(r"^\s*Server listening on|^\s*Accepted connection from")  # S, A
_REVERSE = lazyre.compile(r"^\s*Reverse mode, remote host")  # R
_VERSION = lazyre.compile(r"^\s*iperf (?P<v>3\.\S+)")  # i
_HEADER = lazyre.compile(r"^\s*\[ ID\]")  # [
_SEPARATOR = lazyre.compile(r"^\s*- - - -")  # -
_SENT = lazyre.compile(r"^\s*\[\s*(?P<id>\d+|SUM)\]\s+Sent (?P<n>\d+) datagrams")  # [


@dataclass
class Iperf3Report(ToolReport):
    def has_results(self) -> bool:
        return bool(self.metrics.get("sender") or self.metrics.get("receiver"))


def detect(text: str) -> float:
    # iperf2 heads its rows as iperf3 does ("[ ID] Interval  Transfer  Bandwidth"): its own lines say it is not this.
    if _iperf2_line(text) is not None:
        return 0.0
    # Substring tests before the patterns: detect runs on every segment, and most are no iperf3 at all.
    if "Interval" in text and re.search(
        r"^\s*\[ ID\](?:\[Role\])? Interval\s+Transfer\s+(?:Bitrate|Bandwidth)", text, re.M
    ):
        return 1.0
    if "Connecting to host" in text or "Server listening on" in text:
        return 0.8
    if (
        '"test_start"' in text
        and re.search(r'"test_start"\s*:', text)
        and '"sum_sent"' in text
        or '"sum_received"' in text
    ):
        return 0.9
    return 0.0


def _bytes(amount: str, unit: str) -> units.Number:
    return units.scaled(amount, _BYTES[unit])


def _bits_per_s(rate: str, unit: str) -> units.Number:
    if unit.endswith("Bytes"):  # -f K/M/G reports bytes per second
        return units.scaled(rate, _BYTES[unit] * 8)
    return units.scaled(rate, _BITS[unit])


def _is_row(line: str) -> re.Match[str] | None:
    """An interval or summary row: '[  4]   0.00-1.00   sec   818 MBytes  6.86 Gbits/sec ...'."""
    # Every row has a rate per second; the pattern's search of a '[' after any words is slow
    # on the lines that have none.
    return _ROW.match(line) if "/sec" in line else None


@dataclass
class _Direction:
    """Rows of one direction (bidir runs have two), split by stream id."""

    rows: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    summary: dict[str, dict[str, dict[str, Any]]] = field(default_factory=dict)


def measured(match: re.Match[str]) -> dict[str, Any]:
    """The interval, transfer and rate of an iperf3 or iperf2 row (groups start, end, amount,
    amount_unit, rate, rate_unit), with the transfer and rate as printed ("8.33 Gbits/sec") for
    "Units: as printed"."""
    return {
        "start_s": float(match["start"]),
        "end_s": float(match["end"]),
        "bytes": _bytes(match["amount"], match["amount_unit"]),
        "bits_per_s": _bits_per_s(match["rate"], match["rate_unit"]),
        "printed": {
            "bits_per_s": match.string[match.start("rate") : match.end("rate_unit") + len("/sec")],
            "bytes": match.string[match.start("amount") : match.end("amount_unit")],
        },
    }


def _row(match: re.Match[str]) -> tuple[dict[str, Any], str | None]:
    row = measured(match)  # its printed tokens: _finish keeps them for the sender and receiver rows only
    rest = match["rest"]
    if "(omitted)" in rest:
        row["omitted"] = True
        rest = rest.replace("(omitted)", "")
    end = None
    if udp := _UDP_REST.match(rest):
        row["jitter_ms"] = float(udp["jitter"])
        row["lost"] = None if udp["lost"] == "Unknown" else int(udp["lost"])
        row["packets"] = int(udp["total"])
        end = udp["end"]
    elif tcp := _TCP_REST.match(rest):
        if tcp["end"] is None and tcp["cwnd"] is None and not re.search(r"\d", rest.replace(tcp["retr"], "", 1)):
            row["datagrams_or_retransmits"] = int(tcp["retr"])
        else:
            row["retransmits"] = int(tcp["retr"])
        if tcp["cwnd"]:
            row["cwnd_bytes"] = _bytes(tcp["cwnd"], tcp["cwnd_unit"])
        end = tcp["end"]
    elif only := _END_ONLY.match(rest):
        end = only["end"]
    return row, end


def _pick(by_stream: dict[str, Any]) -> Any:
    """The [SUM] series when several streams ran, else the one stream's."""
    if "SUM" in by_stream:
        return by_stream["SUM"]
    return next(iter(by_stream.values())) if by_stream else None


def _finish(direction: _Direction, udp: bool) -> dict[str, Any]:
    result: dict[str, Any] = {}
    intervals = _pick(direction.rows) or []
    for rows in direction.rows.values():
        for row in rows:
            row.pop("printed", None)  # a run's metrics carry the summary's tokens, not every interval's
    for row in intervals:
        if "datagrams_or_retransmits" in row:  # UDP sender interval rows carry datagram counts
            row["packets" if udp else "retransmits"] = row.pop("datagrams_or_retransmits")
    result["intervals"] = intervals
    summary = _pick(direction.summary) or {}
    for end in ("sender", "receiver"):
        row = summary.get(end)
        if row is None:
            continue
        entry = {"bytes": row["bytes"], "bits_per_s": row["bits_per_s"]}
        if "printed" in row:
            entry["printed"] = row["printed"]
        if "retransmits" in row:
            entry["retransmits"] = row["retransmits"]
        if "datagrams_or_retransmits" in row:
            entry["retransmits"] = row["datagrams_or_retransmits"]
        result[end] = entry
    udp_row = summary.get("receiver") or summary.get("unlabelled")
    if udp and udp_row and "jitter_ms" in udp_row:
        result["jitter_ms"] = udp_row["jitter_ms"]
        result["lost"] = udp_row["lost"]
        result["packets"] = udp_row["packets"]
        if udp_row["lost"] is not None and udp_row["packets"]:
            result["lost_pct"] = round(100 * udp_row["lost"] / udp_row["packets"], 6)
    if "unlabelled" in summary and "receiver" not in result:
        # iperf3 <= 3.1 UDP: one summary row, computed at the receiving end.
        row = summary["unlabelled"]
        result["receiver"] = {"bytes": row["bytes"], "bits_per_s": row["bits_per_s"]}
        if "printed" in row:
            result["receiver"]["printed"] = row["printed"]
    return result


class _Parser:
    def __init__(self, lines: list[str]):
        self.lines = lines
        self.reports: list[Iperf3Report] = []

    def run(self) -> list[Iperf3Report]:
        report: Iperf3Report | None = None
        state: dict[str, Any] = {}
        for index, line in enumerate(self.lines):
            first = line.lstrip()[:1]  # "" for a blank line, which no pattern below takes
            starts = _STARTS.match(line) if first in ("C", "S", "-") else None
            if starts and (report is None or report.has_results() or state.get("rows_seen")):
                if report is not None:
                    self._close(report, state)
                if starts.group(1).startswith("-"):
                    report, state = None, {}
                    continue
                report, state = self._open(index)
            if "Server output:" in line and report is not None:
                report.metrics["server_output_included"] = True
                self._close(report, state)
                report, state = None, {}
                break  # the server's transcript repeats the same test from the other end
            error = _ERROR.match(line) if first == "i" else None
            if error:
                if report is None:
                    report, state = self._open(index)
                report.problems.append((index, f"iperf3 {error['message']}"))
                continue
            if report is None:
                if _is_row(line) or (first == "[" and _HEADER.match(line)):
                    report, state = self._open(index)
                else:
                    continue
            self._line(report, state, index, line, first)
        if report is not None:
            self._close(report, state)
        return self.reports

    def _open(self, index: int) -> tuple[Iperf3Report, dict[str, Any]]:
        report = Iperf3Report(line_start=index, line_end=index)
        self.reports.append(report)
        state = {"directions": {}, "summary": False, "udp": False, "rows_seen": False}
        report.metrics.update({"role": "client", "reverse": False, "bidir": False})
        return report, state

    def _line(self, report: Iperf3Report, state: dict[str, Any], index: int, line: str, first: str) -> None:
        """One line of a report; `first` is its first character after blanks."""
        metrics = report.metrics
        if first in ("S", "A") and _SERVER.match(line):
            metrics["role"] = "server"
        elif first == "R" and _REVERSE.match(line):
            metrics["reverse"] = True
        elif first == "i" and (match := _VERSION.match(line)):
            report.tool_version = match["v"]
        elif first == "[" and _HEADER.match(line):
            if "Jitter" in line or "Datagrams" in line:
                state["udp"] = True
            if "[Role]" in line:
                metrics["bidir"] = True
            # The summary is the table whose header follows a separator. With -P N (and -R)
            # iperf3 also prints a separator after every interval block, with no header after it.
            if state.get("separator"):
                state["summary"] = True
        elif first == "-" and _SEPARATOR.match(line):
            state["separator"] = True
        elif first == "[" and (match := _SENT.match(line)):
            # iperf3 <= 3.1 UDP: the row just above was the run's only summary.
            # When the summary table (header after a separator) already gave that row, it stays;
            # only an output with no such table has its summary as the last row before this line.
            direction = state["directions"].get("main")
            rows = direction.rows.get(match["id"]) if direction else None
            known = direction.summary.get(match["id"], {}) if direction else {}
            if rows and "unlabelled" not in known:
                known = direction.summary.setdefault(match["id"], {})
                known["unlabelled"] = rows.pop()
        elif match := _is_row(line):
            row, end = _row(match)
            state["rows_seen"] = True
            if "jitter_ms" in row:
                state["udp"] = True
            role = match["role"] or "main"
            direction = state["directions"].setdefault(role, _Direction())
            if state["summary"] or end:
                key = end or "unlabelled"
                known = direction.summary.setdefault(match["id"], {})
                if key in known:
                    # One sender and one receiver row per stream: a second is another run's.
                    report.problems.append(
                        (index, f"a second {key} summary row for stream {match['id']}: the first is kept")
                    )
                else:
                    known[key] = row
            else:
                direction.rows.setdefault(match["id"], []).append(row)
        else:
            return
        report.line_end = index

    def _close(self, report: Iperf3Report, state: dict[str, Any]) -> None:
        directions: dict[str, _Direction] = state.get("directions", {})
        if not directions:
            if not report.problems:
                report.problems.append((report.line_start, "iperf3 output without any interval or summary row"))
            return
        metrics = report.metrics
        udp = state.get("udp", False)
        metrics["mode"] = "udp" if udp else "tcp"
        main_key = "main" if "main" in directions else ("TX-C" if "TX-C" in directions else sorted(directions)[0])
        main = directions[main_key]
        # The streams are the ids of the rows, intervals or summary (a paste may keep only the summary);
        # [SUM] is their total, not a stream.
        metrics["streams"] = len({key for key in (*main.rows, *main.summary) if key != "SUM"}) or 1
        metrics.update(_finish(main, udp))
        others = [key for key in directions if key != main_key]
        if others:
            metrics["reverse_direction"] = _finish(directions[others[0]], udp)
        if not report.has_results() and not report.problems:
            report.problems.append((report.line_end, "iperf3 output ends before its summary (sender/receiver rows)"))


def _read_json(document: dict[str, Any], report: Iperf3Report) -> None:
    """Fill a report from one `iperf3 -J` document; raises KeyError/TypeError when a field is missing."""
    test = document["start"].get("test_start", {})
    version = str(document["start"].get("version", "")).removeprefix("iperf ")
    report.tool_version = version or None
    udp = str(test.get("protocol", "")).upper() == "UDP"
    metrics = report.metrics
    metrics.update(
        {
            "mode": "udp" if udp else "tcp",
            "reverse": bool(test.get("reverse")),
            "bidir": bool(test.get("bidirectional")),
            "streams": test.get("num_streams"),
            "role": "client" if "connecting_to" in document["start"] else "server",
        }
    )
    # When the test started (whole seconds since the epoch): what lines a ping -D beside it up with it.
    started = (document["start"].get("timestamp") or {}).get("timesecs")
    if isinstance(started, int):
        metrics["start_epoch_s"] = started
    metrics["intervals"] = [
        {
            "start_s": interval["sum"]["start"],
            "end_s": interval["sum"]["end"],
            "bytes": interval["sum"]["bytes"],
            "bits_per_s": interval["sum"]["bits_per_second"],
            **({"retransmits": interval["sum"]["retransmits"]} if "retransmits" in interval["sum"] else {}),
            **({"omitted": True} if interval["sum"].get("omitted") else {}),
        }
        for interval in document.get("intervals", [])
        if "sum" in interval
    ]
    end_block = document.get("end", {})
    if "sum_sent" in end_block:
        sent = end_block["sum_sent"]
        metrics["sender"] = {"bytes": sent["bytes"], "bits_per_s": sent["bits_per_second"]}
        if "retransmits" in sent:
            metrics["sender"]["retransmits"] = sent["retransmits"]
    if "sum_received" in end_block:
        received = end_block["sum_received"]
        metrics["receiver"] = {"bytes": received["bytes"], "bits_per_s": received["bits_per_second"]}
    if udp and "sum" in end_block:
        total = end_block["sum"]
        metrics.update(
            {
                "jitter_ms": total.get("jitter_ms"),
                "lost": total.get("lost_packets"),
                "packets": total.get("packets"),
                "lost_pct": total.get("lost_percent"),
            }
        )
        metrics.setdefault("receiver", {"bytes": total.get("bytes"), "bits_per_s": total.get("bits_per_second")})


def _parse_json(text: str) -> list[Iperf3Report]:
    decoder = json.JSONDecoder()
    reports = []
    position = 0
    lines = LineNumbers(text)
    while (start := text.find("{", position)) >= 0:
        try:
            document, end = wholejson.raw_decode(decoder, text, start)
        except json.JSONDecodeError:
            position = start + 1
            continue
        position = end
        # An object inside a damaged document (an interval's {"start": 0, ...}) is not a run.
        if not isinstance(document, dict) or not isinstance(document.get("start"), dict):
            continue
        first = lines.index(start)
        report = Iperf3Report(line_start=first, line_end=lines.index(end), format="json")
        try:
            _read_json(document, report)
        except (KeyError, TypeError, AttributeError) as missing:
            # A damaged paste can still be valid JSON with a field gone: say so, never guess.
            report.metrics = {}
            report.problems.append((first, f"iperf3 JSON document without the field {missing}: not read"))
            reports.append(report)
            continue
        if document.get("error"):
            report.problems.append((first, f"iperf3 {document['error']}"))
        reports.append(report)
    return reports


def _iperf2_line(text: str) -> int | None:
    """The first line only iperf2 prints ("Client connecting to ..., TCP port", "connected with",
    "Server Report:"), which the iperf2 tool knows; None in iperf3 output."""
    # Imported here, not above: the iperf2 package imports this one (its chart), and iperf3 output
    # alone needs no iperf2 patterns until a segment is read.
    from ..iperf2.parser import marker_line

    return marker_line(text)


def parse(text: str) -> list[Iperf3Report]:
    lines = text.split("\n")
    iperf2 = _iperf2_line(text)
    if iperf2 is not None:
        # Only a command that names iperf3 brings iperf2 output here; without one, the iperf2 tool reads it.
        report = Iperf3Report(line_start=iperf2, line_end=len(lines) - 1)
        report.problems.append(
            (iperf2, "this is iperf2 output, not iperf3: the command says iperf3, so it is not read as either")
        )
        return [report]
    if text.lstrip().startswith("{"):
        found = _parse_json(text)
        if found:
            return found
    return _Parser(lines).run()


def params(report: Iperf3Report, command: str | None) -> tuple[dict[str, Any], list[str]]:
    metrics = report.metrics
    result: dict[str, Any] = {
        key: metrics[key] for key in ("mode", "reverse", "bidir", "streams", "role") if key in metrics
    }
    if command:
        for pattern, name, convert in (
            (r"(?:^|\s)-c\s+(\S+)", "server", str),
            (r"(?:^|\s)-t\s+(\d+)", "duration_s", int),
            (r"(?:^|\s)-P\s+(\d+)", "streams", int),
            (r"(?:^|\s)-b\s+(\S+)", "target_bitrate", str),
            (r"(?:^|\s)-l\s+(\S+)", "length", str),
            (r"(?:^|\s)-w\s+(\S+)", "window", str),
        ):
            found = re.search(pattern, command)
            if found:
                result[name] = convert(found.group(1))
        if re.search(r"(?:^|\s)-R(?:\s|$)", command):
            result["reverse"] = True
        if re.search(r"(?:^|\s)(?:-u|--udp)(?:\s|$)", command):
            result["mode"] = "udp"
    return result, []

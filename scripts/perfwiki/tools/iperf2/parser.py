"""iperf2 (iperf 2.0.5 to 2.1): client and server transcripts, -e enhanced output, -y C CSV.

A real input (iperf 2.1.8, Debian 12, `iperf -c 127.0.0.1 -p 54563 -u -b 100M -t 2 -i 1`)::

    ------------------------------------------------------------
    Client connecting to 127.0.0.1, UDP port 54563
    Sending 1470 byte datagrams, IPG target: 112.15 us (kalman adjust)
    UDP buffer size:  208 KByte (default)
    ------------------------------------------------------------
    [  1] local 127.0.0.1 port 51943 connected with 127.0.0.1 port 54563
    [ ID] Interval       Transfer     Bandwidth
    [  1] 0.0000-1.0000 sec  12.5 MBytes   105 Mbits/sec
    [  1] 1.0000-2.0000 sec  12.5 MBytes   105 Mbits/sec
    [  1] 0.0000-2.0002 sec  25.0 MBytes   105 Mbits/sec
    [  1] Sent 17838 datagrams
    [  1] Server Report:
    [ ID] Interval       Transfer     Bandwidth        Jitter   Lost/Total Datagrams
    [  1] 0.0000-2.0000 sec  25.0 MBytes   105 Mbits/sec   0.000 ms 0/17837 (0%)

Output metrics (iperf3's names where the meaning is the same)::

    mode: tcp | udp, role: client | server, streams (not counting [SUM]), reverse (-R: only the
    other way), bidir (both ways at once: -d, --full-duplex), tradeoff (one way, then the other: -r),
    intervals: [{start_s, end_s, bytes, bits_per_s, retransmits?, cwnd_bytes?, rtt_us?, writes?,
                 errors?, reads?, pps?, jitter_ms?, lost?, packets?}]
    sender: {bytes, bits_per_s, printed?, writes?, errors?, retransmits?, cwnd_bytes?, rtt_us?,
             pps?, packets? (UDP datagrams sent)}
    receiver: {bytes, bits_per_s, printed?, reads?, pps?}
    printed: {bits_per_s, bytes}: a summary row's rate and transfer as printed ("105 Mbits/sec",
             "25.0 MBytes"); text output only, and only where one row gave the value
    UDP: jitter_ms, lost, packets, lost_pct (recomputed from lost/packets), out_of_order (when
         printed), all of the receiving end
    both directions (-d, -r, --full-duplex): the other one's {intervals, sender | receiver, ...}
         under `reverse_direction`; the client's forward way (what it wrote) is the run's own
    transferred: {bytes, bits_per_s}: what the printing end counted, when nothing says which end
         that was (-y C TCP output, a bare table); the command's -c or -s names it

The client's rows are what it wrote (`sender`), the server's what it read (`receiver`); the
"Server Report:" a UDP client prints is the server's reading (`receiver`). Transfer sizes are
1024-based (KBytes, MBytes), rates 1000-based (Mbits/sec), or 1024-based bytes with -f K/M/G
(MBytes/sec), as iperf2's stdio.c (byte_snprintf) prints them. Every 2.x version heads the
rate "Bandwidth"; iperf3 says "Bitrate" since 3.2.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from ... import lazyre, shell
from ..base import ToolReport
from . import csv_output, transcript
from .streams import Found, settle_end

# Lines only iperf2 prints: its banners, its "connected with" (iperf3 says "connected to"), the
# UDP server report, the version line; and its rows' intervals, which iperf3 always prints with
# two decimals and padding ("[  5]   0.00-1.00   sec"): iperf 2.0 prints one ("[  3]  0.0-10.0 sec"),
# 2.1 four ("[  1] 0.0000-1.0000 sec"), or two without padding ("[  3] 0.00-1.00 sec").
_SURELY_IPERF2 = lazyre.compile(
    r"^[ \t]*(?:Client connecting to [^,\n]*, (?:TCP|UDP) port \d|Server listening on (?:TCP|UDP) ports? \d"
    r"|\[[ *\d]{1,6}\] (?:Server Report:|local \S+ port \d+ connected with )|iperf version 2\.)",
    re.M,
)
# A whole -y C line, not its start alone: other programs' CSV begins with a timestamp too.
_CSV_LINE = lazyre.compile(csv_output.CSV.pattern, re.M)
_IPERF2_ROW = lazyre.compile(
    r"^[ \t]*\[(?:\s*\*?\d+|SUM(?:-\d+)?)\]\s+(?:\d+\.(?:\d|\d{4})\s*-\s*\d+\.(?:\d|\d{4})|\d+\.\d\d-\d{1,2}\.\d\d) sec ",
    re.M,
)


@dataclass
class Iperf2Report(ToolReport):
    def has_results(self) -> bool:
        return any(self.metrics.get(end) for end in ("sender", "receiver", "transferred"))


def _surely(text: str) -> re.Match[str] | None:
    # Substring tests first: detect runs on every segment, and most are no iperf2 at all.
    if "connect" in text or "Server " in text or "iperf version 2." in text:
        return _SURELY_IPERF2.search(text)
    return None


def _likely(text: str) -> re.Match[str] | None:
    found = _IPERF2_ROW.search(text) if " sec " in text else None
    return found or (_CSV_LINE.search(text) if "," in text else None)


def marker_line(text: str) -> int | None:
    """The 0-based line of the first thing in `text` that only iperf2 prints, or None."""
    found = _surely(text) or _likely(text)
    return None if found is None else text.count("\n", 0, found.start())


def detect(text: str) -> float:
    if _surely(text):
        return 1.0
    return 0.9 if _likely(text) else 0.0


def _report(found: Found, format_: str) -> Iperf2Report:
    report = Iperf2Report(
        line_start=found.line_start, line_end=found.line_end, tool_version=found.version, format=format_
    )
    report.metrics = (
        found.metrics if any(found.metrics.get(end) for end in ("sender", "receiver", "transferred")) else {}
    )
    report.problems = found.problems
    report.warnings = found.warnings
    return report


def parse(text: str) -> list[Iperf2Report]:
    lines = text.split("\n")
    reports = [_report(found, "text") for found in transcript.read(lines)]
    if csv_output.is_csv(lines):
        reports += [_report(found, "csv") for found in csv_output.read(lines)]
    return sorted(reports, key=lambda report: report.line_start)


# Options with a value, by every name iperf2 takes, and the parameter each sets.
_VALUED = {
    "-c": "server",
    "--client": "server",
    "-p": "port",
    "--port": "port",
    "-t": "duration_s",
    "--time": "duration_s",
    "-P": "streams",
    "--parallel": "streams",
    "-b": "target_bitrate",
    "--bandwidth": "target_bitrate",
    "-l": "length",
    "--len": "length",
    "-w": "window",
    "--window": "window",
    "-i": "interval_s",
    "--interval": "interval_s",
    "-y": "report_style",
    "--reportstyle": "report_style",
}
_FLAGS = {
    "-s": "listen",
    "--server": "listen",
    "-u": "udp",
    "--udp": "udp",
    "-r": "tradeoff",
    "--tradeoff": "tradeoff",
    "-d": "dualtest",
    "--dualtest": "dualtest",
    "-R": "reverse",
    "--reverse": "reverse",
    "--full-duplex": "full_duplex",
    "-e": "enhanced",
    "--enhanced": "enhanced",
}
_NUMBER = lazyre.compile(r"^\d+(?:\.\d+)?$")


def _options(command: str) -> dict[str, Any]:
    """The options of the iperf part of a command line (`sudo iperf -c host -t 10 -P4`)."""
    parts = [following for program, _, following in shell.programs(command) if shell.basename(program) in _PROGRAMS]
    # `iperf -v; iperf -c host`: the part that runs a client or a server is the run's.
    words = next(
        (part for part in parts if {"-c", "-s", "--client", "--server"} & set(part)), parts[0] if parts else []
    )
    found: dict[str, Any] = {}
    index = 0
    while index < len(words):
        word = words[index]
        name, _, attached = word.partition("=") if word.startswith("--") else (word, "", "")
        if name not in _VALUED and name not in _FLAGS and word[:2] in _VALUED and len(word) > 2:
            name, attached = word[:2], word[2:]  # "-P4", "-t10"
        if name in _FLAGS:
            found[_FLAGS[name]] = True
        elif name in _VALUED:
            value = attached
            if not value and index + 1 < len(words):
                index += 1
                value = words[index]
            if value:
                found[_VALUED[name]] = value
        index += 1
    return found


_PROGRAMS = ("iperf", "iperf.exe", "iperf2")


def _number(value: str) -> int | float | str:
    if not _NUMBER.match(value):
        return value
    return int(value) if "." not in value else float(value)


def params(report: Iperf2Report, command: str | None) -> tuple[dict[str, Any], list[str]]:
    metrics = report.metrics
    result: dict[str, Any] = {
        key: metrics[key] for key in ("mode", "role", "streams", "reverse", "bidir", "tradeoff") if key in metrics
    }
    warnings: list[str] = []
    if not command:
        if "transferred" in metrics:
            warnings.append(
                "iperf2 output that does not say which end printed it (-c or -s): its numbers are `transferred`"
            )
        return result, warnings
    options = _options(command)
    role = "client" if "server" in options else "server" if options.get("listen") else None
    if role is not None:
        if "transferred" in metrics:
            # -y C and a bare table do not say which end printed them; the command does.
            settle_end(metrics, role)
        elif metrics.get("role") not in (None, role):
            warnings.append(f"the command runs iperf as a {role}, the output is a {metrics['role']}'s")
        result["role"] = metrics["role"] = metrics.get("role") or role
    for key in ("server", "target_bitrate", "length", "window"):
        if key in options:
            result[key] = options[key]
    for key in ("port", "duration_s", "streams", "interval_s"):
        if key in options:
            result[key] = _number(options[key])
    if options.get("udp"):
        result["mode"] = "udp"
    if str(options.get("report_style", "")).upper() == "C":
        result["report_style"] = "csv"
    for flag in ("tradeoff", "dualtest", "full_duplex", "enhanced"):
        if options.get(flag):
            result[flag] = True
    if options.get("reverse"):
        result["reverse"] = True
    if options.get("dualtest") or options.get("full_duplex"):
        result["bidir"] = True
    return result, warnings

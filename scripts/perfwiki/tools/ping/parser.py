"""ping: round-trip times and packet loss, from Linux iputils, BSD/macOS (and inetutils), busybox and Windows.

A real input (Debian 12, iputils 20221126, `ping -c 5 127.0.0.1`)::

    PING 127.0.0.1 (127.0.0.1) 56(84) bytes of data.
    64 bytes from 127.0.0.1: icmp_seq=1 ttl=64 time=0.015 ms
    64 bytes from 127.0.0.1: icmp_seq=2 ttl=64 time=0.051 ms
    ...
    --- 127.0.0.1 ping statistics ---
    5 packets transmitted, 5 received, 0% packet loss, time 4056ms
    rtt min/avg/max/mdev = 0.007/0.032/0.051/0.017 ms

The other families print their summaries so (BSD/macOS, busybox, Windows)::

    5 packets transmitted, 4 packets received, 20.0% packet loss
    round-trip min/avg/max/stddev = 2.987/3.440/4.105/0.413 ms
    round-trip min/avg/max = 0.062/0.081/0.101 ms
        Packets: Sent = 4, Received = 3, Lost = 1 (25% loss),
        Minimum = 0ms, Maximum = 1ms, Average = 0ms

Output metrics::

    variant: iputils | bsd | busybox | windows
    target, address?, payload_bytes?, reply_bytes?, broadcast? (iputils' "WARNING: pinging broadcast address")
    packets_sent, packets_received, loss_pct, duplicates?, corrupted?, errors?, elapsed_ms?, pipe?
    rtt_min_ms?, rtt_avg_ms?, rtt_max_ms?, rtt_mdev_ms?, rtt_spread?: mdev | stddev, ipg_ms?, ewma_ms?
    replies: [{seq, time_ms?, time_below_ms?, ttl?, t_s, epoch_s?, dup?, from?, truncated?}]
    timeouts: [{seq, t_s, epoch_s?}], icmp_errors: [{seq?, from?, message, t_s?, epoch_s?}]
    time_axis: timestamps | interval | mean gap (-A: ipg) | default interval (no command shown: 1 s)

Times stay in milliseconds, as ping prints them and as issue 31 names them (`rtt_avg_ms`), not
in the canonical nanoseconds; the tool converts when it compares. `rtt_mdev_ms` holds iputils'
mdev or BSD's stddev (both the population standard deviation), `rtt_spread` says which was
printed. `loss_pct` is computed from the two counts: old iputils truncates it ("33%"), new
iputils prints "%g" ("33.3333%"), BSD one decimal. Every reply line is kept (`replies`), a
second reply to one sequence number as `dup`; each has a time axis `t_s`: with `-D` the
seconds since the first timestamp (and the timestamp itself, `epoch_s`, to line a run up with
another tool's clock), else its sequence number times the interval of the command (`params`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from ... import lazyre, units
from ..base import ToolReport
from .options import command_fits as command_fits  # the command's part of the interface: options.py
from .options import params as params

_NUMBER = r"\d+(?:\.\d+)?"
# iputils -D: "[1795767729.100973] " before a reply, an error or "no answer yet".
_STAMP = r"(?:\[(?P<epoch>\d+\.\d+)\]\s*)?"

# "PING 127.0.0.1 (127.0.0.1) 56(84) bytes of data." (iputils), "PING ::1(::1) 56 data bytes" and
# "PING host(host (2001:db8::1)) from 2001:db8::2 : 56 data bytes" (iputils IPv6), "PING host (10.0.0.1)
# from 10.0.0.2 eth0: 56(84) bytes of data.", "PING host (10.0.0.1): 56 data bytes" (BSD, busybox).
_HEADER = lazyre.compile(
    r"^PING (?P<host>\S*?) ?\((?:[^()\s]+ \((?P<named>[^()\s]*)\)|(?P<address>[^()\s]*))\)"
    r"(?: from (?P<source>\S+?)(?: (?P<device>[^\s:]+))? ?)?(?P<colon>:?) "
    r"(?P<payload>\d+)(?:\((?P<packet>\d+)\))? (?P<tail>bytes of data\.|data bytes)\s*$"
)
# macOS and FreeBSD ping6: "PING6(56=40+8+8 bytes) ::1 --> ::1".
_HEADER6 = lazyre.compile(
    r"^PING6\((?P<packet>\d+)=\d+\+\d+\+(?P<payload>\d+) bytes\) (?P<source>\S+) --> (?P<address>\S+)\s*$"
)
# Windows: "Pinging example.com [93.184.216.34] with 32 bytes of data:".
_WINDOWS_HEADER = lazyre.compile(
    r"^Pinging (?P<host>\S+)(?: \[(?P<address>[^\]]+)\])?(?: from \S+)? with (?P<payload>\d+) bytes of data:\s*$"
)
# "64 bytes from 127.0.0.1: icmp_seq=1 ttl=64 time=0.015 ms", "16 bytes from ::1, icmp_seq=0 hlim=64 time=0.071 ms"
# (BSD ping6), "64 bytes from 8.8.8.8: seq=0 ttl=42 time=1.637 ms" (busybox), with " (DUP!)", " (truncated)".
_REPLY = lazyre.compile(
    r"^" + _STAMP + r"(?P<bytes>\d+) bytes from (?P<source>.+?)[:,] (?P<seqword>icmp_seq|seq)=(?P<seq>\d+)"
    r"(?: ident=\d+)?(?: (?:ttl|hlim)=(?P<ttl>\d+))?(?: time=(?P<time>" + _NUMBER + r") ?ms)?"
    r"(?P<flags>(?: \([A-Za-z][A-Za-z !]*\))*)\s*$"
)
# Windows: "Reply from 10.0.0.1: bytes=32 time<1ms TTL=128", IPv6 "Reply from ::1: time<1ms".
_WINDOWS_REPLY = lazyre.compile(
    r"^Reply from (?P<source>\S+?): (?:bytes=(?P<bytes>\d+) )?time(?P<op>[=<]) ?(?P<time>\d+) ?ms(?: TTL=(?P<ttl>\d+))?\s*$"
)
# ICMP errors instead of a reply. iputils: "From 10.0.0.1 icmp_seq=1 Destination Host Unreachable";
# BSD: "92 bytes from gw (10.0.0.1): Destination Host Unreachable" (a header dump follows, not read);
# Windows: "Reply from 10.0.0.254: Destination host unreachable." (which Windows counts as received).
_FROM_ERROR = lazyre.compile(
    r"^" + _STAMP + r"From (?P<source>\S+?)(?: \([^)]*\))?:? icmp_seq=(?P<seq>\d+) (?P<message>\S.*?)\s*$"
)
_BSD_ERROR = lazyre.compile(r"^(?P<bytes>\d+) bytes from (?P<source>.+?): (?P<message>[A-Z][A-Za-z ]*[a-z])\s*$")
_WINDOWS_ERROR = lazyre.compile(r"^Reply from (?P<source>\S+?): (?P<message>[A-Z][A-Za-z ]*[a-z])\.\s*$")
_WINDOWS_FAILURE = lazyre.compile(
    r"^(?:PING: transmit failed\. )?(?P<message>Destination (?:host|net) unreachable|General failure"
    r"|TTL expired in transit|Transmit failed\. General failure)\.\s*$"
)
# A request that had no answer (yet): iputils -O, BSD, Windows.
_NO_ANSWER = lazyre.compile(r"^" + _STAMP + r"no answer yet for icmp_seq=(?P<seq>\d+)\s*$")
_BSD_TIMEOUT = lazyre.compile(r"^Request timeout for icmp_seq (?P<seq>\d+)\s*$")
_WINDOWS_TIMEOUT = lazyre.compile(r"^Request timed out\.\s*$")
# The summary. "--- 127.0.0.1 ping statistics ---" (a space before "ping": never ioping's summary).
_STATS = lazyre.compile(r"^--- (?:(?P<host>.*?) )?ping6? statistics ---\s*$")
_WINDOWS_STATS = lazyre.compile(r"^Ping statistics for (?P<host>.+?):\s*$")
_LOSS = lazyre.compile(
    r"^(?P<sent>\d+) packets transmitted, (?P<received>\d+) (?P<packets>packets )?received"
    r"(?P<extra>(?:, \+\d+ [a-z]+)*)(?:, (?P<loss>" + _NUMBER + r")% packet loss)?(?:, time (?P<elapsed>\d+) ?ms)?\s*$"
)
_WINDOWS_LOSS = lazyre.compile(
    r"^\s*Packets: Sent = (?P<sent>\d+), Received = (?P<received>\d+), Lost = (?P<lost>\d+) \((?P<loss>\d+)% loss\),?\s*$"
)
_RTT = lazyre.compile(
    r"^(?P<prefix>rtt|round-trip) min/avg/max(?:/(?P<spread>mdev|stddev|std-dev))? = "
    r"(?P<values>" + _NUMBER + r"(?:/" + _NUMBER + r"){2,3}) ms"
    r"(?P<rest>(?:, (?:pipe \d+|ipg/ewma " + _NUMBER + "/" + _NUMBER + r" ms))*)\s*$"
)
_PIPE = lazyre.compile(r"^pipe (?P<pipe>\d+)\s*$")  # iputils, when no reply came back (no rtt line)
_WINDOWS_RTT = lazyre.compile(r"^\s*Minimum = (?P<min>\d+)ms, Maximum = (?P<max>\d+)ms, Average = (?P<avg>\d+)ms\s*$")
# What only ping prints, for a line that starts like one of the above and is not: a problem, never a guess.
_LOOKS_LIKE = lazyre.compile(
    r"^(?:\[[\d.]+\]\s*)?(?:\d+ bytes from |From \S+ icmp_seq|PING6?[ (]|Pinging |Reply from |rtt |round-trip "
    r"|\d+ packets transmitted|\s*Packets: Sent|\s*Minimum = |no answer yet|Request time)"
)
# The program's own complaints: "ping: nonexistent.invalid: Name or service not known",
# "ping: connect: Network is unreachable", Windows' "Ping request could not find host x. ...".
_COMPLAINT = lazyre.compile(r"^(?P<text>(?:ping6?|ping\.exe): .+|connect: .+|Ping request could not find host .+)$")
_VERSION = lazyre.compile(r"^ping (?:from iputils |utility, iputils-)(?P<version>\S+)\s*$")

# A reply to a sequence number answered within this many replies is a duplicate; further back,
# iputils' 16-bit sequence number has wrapped.
_DUP_WINDOW = 32768


@dataclass
class PingReport(ToolReport):
    def has_results(self) -> bool:
        return "packets_sent" in self.metrics


def detect(text: str) -> float:
    # Substring tests before the patterns: detect runs on every segment, and most are no ping at all.
    if "statistics ---" in text and re.search(r"^--- (?:.*? )?ping6? statistics ---\s*$", text, re.M):
        return 1.0
    if "PING" in text and re.search(r"^PING6?[ (].*(?:bytes of data\.|data bytes|bytes\) )", text, re.M):
        return 1.0
    if "Pinging " in text and re.search(r"^Pinging \S+.* with \d+ bytes of data:\s*$", text, re.M):
        return 1.0
    if "Ping statistics for " in text and "Packets: Sent = " in text:
        return 1.0
    if " bytes from " in text and re.search(r"^(?:\[[\d.]+\]\s*)?\d+ bytes from .+?[:,] (?:icmp_)?seq=\d+", text, re.M):
        return 0.8
    return 0.0


def _ms(text: str) -> units.Number:
    return units.normalize(Decimal(text))


def _address_of(text: str) -> str:
    """'localhost (127.0.0.1)' -> '127.0.0.1'; '127.0.0.1' stays."""
    inner = re.search(r"\(([^()\s]+)\)\s*$", text)
    return inner.group(1) if inner else text


@dataclass
class _Run:
    """A run being read, and what reading it needs to remember."""

    report: PingReport
    votes: set[str] = field(default_factory=set)  # the families its lines showed
    seen: set[str] = field(default_factory=set)  # its header, statistics line and summary lines so far
    answered: dict[int, int] = field(default_factory=dict)  # seq -> the index of its first reply
    first_epoch: Decimal | None = None
    windows_seq: int = 0
    complaints: list[tuple[int, str]] = field(default_factory=list)

    def stamp(self, epoch: str | None) -> dict[str, Any]:
        """t_s and epoch_s from an iputils -D timestamp, relative to the run's first one."""
        if not epoch:
            return {}
        value = Decimal(epoch)
        if self.first_epoch is None:
            self.first_epoch = value
        return {"t_s": units.normalize(value - self.first_epoch), "epoch_s": float(value)}

    def next_windows_seq(self) -> int:
        """Windows prints no sequence numbers: its requests are counted in the order they were printed."""
        self.windows_seq += 1
        return self.windows_seq


class _Reader:
    """The runs of one segment, line by line."""

    def __init__(self) -> None:
        self.runs: list[_Run] = []
        self.current: _Run | None = None
        self.version: str | None = None

    # -- runs --------------------------------------------------------------------------------

    def open(self, index: int) -> _Run:
        report = PingReport(line_start=index, line_end=index, tool_version=self.version)
        report.metrics.update({"replies": [], "timeouts": [], "icmp_errors": []})
        self.current = _Run(report)
        self.runs.append(self.current)
        return self.current

    def run_for(self, index: int, line_kind: str) -> _Run:
        """The run a line belongs to. A header starts a new one after a header or a summary, and so do
        a reply and a statistics line after a summary (two runs pasted without their headers)."""
        run = self.current
        if run is None:
            return self.open(index)
        summarised = "stats" in run.seen or run.report.has_results()
        if line_kind == "header" and ("header" in run.seen or summarised):
            return self.open(index)
        if line_kind in ("reply", "stats") and summarised:
            return self.open(index)
        return run

    # -- lines -------------------------------------------------------------------------------

    def line(self, index: int, line: str) -> None:
        stripped = line.strip()
        if not stripped:
            return
        if match := _VERSION.match(stripped):
            self.version = match["version"]
            if self.current is not None and self.current.report.tool_version is None:
                self.current.report.tool_version = self.version
            return
        if stripped == "WARNING: pinging broadcast address":  # iputils, before the header of a ping -b
            self.run_for(index, "header").report.metrics["broadcast"] = True
            return
        for reader in (self._header, self._reply, self._trouble, self._summary):
            if reader(index, stripped):
                return
        if match := _COMPLAINT.match(stripped):
            run = self.current or self.open(index)
            run.report.warnings.append(match["text"])
            run.complaints.append((index, match["text"]))
            return
        if _LOOKS_LIKE.match(stripped):
            run = self.current or self.open(index)
            run.report.problems.append((index, f"ping line not understood: {stripped[:120]!r}"))

    def _header(self, index: int, line: str) -> bool:
        if match := _HEADER.match(line):
            run = self.run_for(index, "header")
            # "bytes of data." and "PING ::1(::1) 56 data bytes" (no colon) are iputils; "): 56 data bytes"
            # is BSD's and busybox's, told apart by their replies and summary.
            run.votes.add("iputils" if match["tail"] == "bytes of data." or not match["colon"] else "bsd-like")
            address = match["named"] or match["address"]
            target = match["host"] or address
        elif match := _HEADER6.match(line):
            run = self.run_for(index, "header")
            run.votes.add("bsd")
            target = address = match["address"]
        elif match := _WINDOWS_HEADER.match(line):
            run = self.run_for(index, "header")
            run.votes.add("windows")
            target, address = match["host"], match["address"] or match["host"]
        else:
            return False
        run.seen.add("header")
        metrics = run.report.metrics
        metrics["target"] = target
        if address:
            metrics["address"] = address
        metrics["payload_bytes"] = int(match["payload"])
        run.report.line_end = index
        return True

    def _reply(self, index: int, line: str) -> bool:
        if match := _REPLY.match(line):
            run = self.run_for(index, "reply")
            run.votes.add("busybox" if match["seqword"] == "seq" else "icmp_seq")
            seq = int(match["seq"])
            reply: dict[str, Any] = {"seq": seq}
            if match["time"] is not None:
                reply["time_ms"] = _ms(match["time"])
            if match["ttl"] is not None:
                reply["ttl"] = int(match["ttl"])
            reply.update(run.stamp(match["epoch"]))
            flags = match["flags"] or ""
            count = len(run.report.metrics["replies"])
            if "DUP!" in flags or (seq in run.answered and count - run.answered[seq] < _DUP_WINDOW):
                reply["dup"] = True
            else:
                run.answered[seq] = count
            if "truncated" in flags:
                reply["truncated"] = True
            if "BAD CHECKSUM" in flags:
                reply["bad_checksum"] = True
            run.report.metrics.setdefault("reply_bytes", int(match["bytes"]))
        elif match := _WINDOWS_REPLY.match(line):
            run = self.run_for(index, "reply")
            run.votes.add("windows")
            reply = {"seq": run.next_windows_seq()}
            if match["op"] == "<":  # "time<1ms": below the unit Windows prints, no number to keep
                reply["time_below_ms"] = int(match["time"])
            else:
                reply["time_ms"] = int(match["time"])
            if match["ttl"] is not None:
                reply["ttl"] = int(match["ttl"])
            if match["bytes"]:
                run.report.metrics.setdefault("reply_bytes", int(match["bytes"]))
        else:
            return False
        # Who answered, only when it is not the target (a broadcast's hosts).
        if _address_of(match["source"]) != run.report.metrics.get("address"):
            reply["from"] = match["source"]
        run.report.metrics["replies"].append(reply)
        run.report.line_end = index
        return True

    def _trouble(self, index: int, line: str) -> bool:
        """A request without its reply: no answer (yet), or an ICMP error instead."""
        if match := _NO_ANSWER.match(line):
            run = self.run_for(index, "reply")
            run.votes.add("iputils")
            run.report.metrics["timeouts"].append({"seq": int(match["seq"]), **run.stamp(match["epoch"])})
        elif match := _BSD_TIMEOUT.match(line):
            run = self.run_for(index, "reply")
            run.votes.add("bsd")
            run.report.metrics["timeouts"].append({"seq": int(match["seq"])})
        elif _WINDOWS_TIMEOUT.match(line):
            run = self.run_for(index, "reply")
            run.votes.add("windows")
            run.report.metrics["timeouts"].append({"seq": run.next_windows_seq()})
        elif match := _FROM_ERROR.match(line):
            run = self.run_for(index, "reply")
            run.votes.add("iputils")
            error = {"seq": int(match["seq"]), "from": match["source"], "message": match["message"]}
            run.report.metrics["icmp_errors"].append({**error, **run.stamp(match["epoch"])})
        elif match := _WINDOWS_ERROR.match(line):
            run = self.run_for(index, "reply")
            run.votes.add("windows")
            error = {"seq": run.next_windows_seq(), "from": match["source"], "message": match["message"]}
            run.report.metrics["icmp_errors"].append(error)
        elif match := _WINDOWS_FAILURE.match(line):
            run = self.run_for(index, "reply")
            run.votes.add("windows")
            run.report.metrics["icmp_errors"].append({"seq": run.next_windows_seq(), "message": match["message"]})
        elif match := _BSD_ERROR.match(line):
            run = self.run_for(index, "reply")
            run.report.metrics["icmp_errors"].append({"from": match["source"], "message": match["message"]})
        else:
            return False
        run.report.line_end = index
        return True

    def _summary(self, index: int, line: str) -> bool:
        windows = None if (match := _STATS.match(line)) else (match := _WINDOWS_STATS.match(line))
        if match:
            run = self.run_for(index, "stats")
            if windows:
                run.votes.add("windows")
            run.seen.add("stats")
            if match["host"]:
                run.report.metrics.setdefault("target", match["host"])
            run.report.line_end = index
            return True
        for pattern, read, name in (
            (_LOSS, self._loss, "packets transmitted"),
            (_WINDOWS_LOSS, self._windows_loss, "Packets: Sent"),
            (_RTT, self._rtt, "min/avg/max"),
            (_WINDOWS_RTT, self._windows_rtt, "Minimum/Maximum/Average"),
            (_PIPE, self._pipe, "pipe"),
        ):
            match = pattern.match(line)
            if match is None:
                continue
            run = self.current or self.open(index)
            if name in run.seen:
                run.report.problems.append((index, f"a second ping {name} line in one run: the first is kept"))
                return True
            run.seen.add(name)
            read(run, index, match)
            run.report.line_end = index
            return True
        return False

    # -- the summary's lines ---------------------------------------------------------------------

    def _counts(self, run: _Run, index: int, sent: int, received: int, printed: str | None) -> None:
        metrics = run.report.metrics
        metrics["packets_sent"], metrics["packets_received"] = sent, received
        if not sent:
            return
        loss = units.normalize(Decimal(100 * (sent - received)) / Decimal(sent))
        metrics["loss_pct"] = round(loss, 6) if isinstance(loss, float) else loss
        # iputils before 2020 truncates ("33%"), Windows rounds: a point apart at most, else the paste is damaged.
        if printed is not None and abs(float(printed) - metrics["loss_pct"]) >= 1:
            run.report.problems.append(
                (index, f"ping prints {printed}% packet loss, but {sent - received} of {sent} packets were lost")
            )

    def _loss(self, run: _Run, index: int, match: re.Match[str]) -> None:
        run.votes.add("bsd-like" if match["packets"] else "iputils")
        self._counts(run, index, int(match["sent"]), int(match["received"]), match["loss"])
        for count, word in re.findall(r"\+(\d+) ([a-z]+)", match["extra"] or ""):
            if word in ("duplicates", "corrupted", "errors"):
                run.report.metrics[word] = int(count)
            else:
                run.report.problems.append((index, f"ping summary with an unknown count: +{count} {word}"))
        if match["elapsed"] is not None:
            run.report.metrics["elapsed_ms"] = int(match["elapsed"])

    def _windows_loss(self, run: _Run, index: int, match: re.Match[str]) -> None:
        run.votes.add("windows")
        sent, received, lost = int(match["sent"]), int(match["received"]), int(match["lost"])
        if sent - received != lost:
            run.report.problems.append((index, f"ping counts {lost} lost, but sent {sent} and received {received}"))
        self._counts(run, index, sent, received, match["loss"])

    def _rtt(self, run: _Run, index: int, match: re.Match[str]) -> None:
        values = [_ms(value) for value in match["values"].split("/")]
        spread = match["spread"]
        if (spread is None) != (len(values) == 3):
            run.report.problems.append((index, f"ping round-trip line with {len(values)} values for its names"))
            return
        run.votes.add("iputils" if match["prefix"] == "rtt" else ("bsd" if spread else "busybox"))
        metrics = run.report.metrics
        for key, value in zip(("rtt_min_ms", "rtt_avg_ms", "rtt_max_ms", "rtt_mdev_ms"), values, strict=False):
            metrics[key] = value
        if spread:
            metrics["rtt_spread"] = "mdev" if spread == "mdev" else "stddev"
        if not values[0] <= values[1] <= values[2]:
            run.report.problems.append((index, "ping round-trip times out of order: min ≤ avg ≤ max does not hold"))
        if pipe := re.search(r"pipe (\d+)", match["rest"]):
            metrics["pipe"] = int(pipe.group(1))
        if ipg := re.search(r"ipg/ewma (" + _NUMBER + ")/(" + _NUMBER + ")", match["rest"]):
            metrics["ipg_ms"], metrics["ewma_ms"] = _ms(ipg.group(1)), _ms(ipg.group(2))

    def _windows_rtt(self, run: _Run, index: int, match: re.Match[str]) -> None:
        run.votes.add("windows")
        metrics = run.report.metrics
        metrics["rtt_min_ms"], metrics["rtt_avg_ms"] = int(match["min"]), int(match["avg"])
        metrics["rtt_max_ms"] = int(match["max"])

    def _pipe(self, run: _Run, index: int, match: re.Match[str]) -> None:
        run.report.metrics["pipe"] = int(match["pipe"])

    # -- the end ---------------------------------------------------------------------------------

    def finish(self) -> list[PingReport]:
        for run in self.runs:
            report, metrics = run.report, run.report.metrics
            family = next((name for name in ("windows", "busybox", "iputils", "bsd") if name in run.votes), None)
            if family is None and run.votes & {"bsd-like", "icmp_seq"}:
                family = "bsd"  # "): 56 data bytes", "packets received" and icmp_seq=: BSD, macOS, inetutils
            metrics["variant"] = family
            if report.has_results():
                repeated = sum(1 for reply in metrics["replies"] if reply.get("dup"))
                if metrics["replies"] and repeated != metrics.get("duplicates", 0):
                    report.warnings.append(
                        f"{repeated} reply {'line repeats' if repeated == 1 else 'lines repeat'} a sequence number, "
                        "but ping counts "
                        f"{metrics.get('duplicates', 0)} duplicates: a line pasted twice, or lines left out"
                    )
                continue
            if run.complaints and not metrics["replies"]:
                report.warnings.clear()
                for line, text in run.complaints:
                    report.problems.append((line, f"ping did not run: {text}"))
            elif not report.problems:
                report.problems.append(
                    (
                        report.line_end,
                        "ping output without its statistics summary (the 'packets transmitted' line): "
                        "no run is read from reply lines alone",
                    )
                )
        return [run.report for run in self.runs]


def parse(text: str) -> list[PingReport]:
    reader = _Reader()
    lines = text.split("\n")
    for index, line in enumerate(lines):
        reader.line(index, line)
    reports = reader.finish()
    if not reports and text.strip():
        # Given to ping by its command, yet nothing of it reads as ping's output: another language
        # ("正在 Ping ..."), or another program's. Said on the first line, never guessed at.
        first = next(index for index, line in enumerate(lines) if line.strip())
        report = PingReport(line_start=first, line_end=first)
        report.problems.append(
            (first, "ping output not understood: no PING header, reply or statistics line (English output only)")
        )
        reports = [report]
    return reports

"""iperf2's text output, 2.0.5 to 2.1: client and server transcripts, -e enhanced columns.

Which way a stream went comes from its "connected with" line: a connection this end made
(its remote port is the one "Client connecting to ..., TCP port 5001" names) is one it writes
to, a connection it accepted (its local port is a "Server listening on TCP port 5001") one it
reads from. iperf 2.1 marks the other half of a connection with a star: "[ *1]" is what the
client of -R or --full-duplex read on connection 1, or what the server wrote on it. The server
of -R (an accepted connection marked "(reverse)") writes on the connection itself.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from ... import lazyre, units
from ..iperf3.parser import measured
from .streams import Assembled, Found, Stream, assemble

_NUMBER = r"\d+(?:\.\d+)?"
_ROW = lazyre.compile(
    rf"^\s*\[(?P<id>[^\]]{{1,12}})\]\s+(?P<start>{_NUMBER})\s*-\s*(?P<end>{_NUMBER})\s+sec\s+"
    rf"(?P<amount>{_NUMBER})\s+(?P<amount_unit>[KMGTP]?Bytes)\s+(?P<rate>{_NUMBER})\s+"
    r"(?P<rate_unit>[KMGTP]?(?:bits|Bytes))/sec(?P<rest>.*)$"
)
# What may follow the rate, by the columns of the table it is in.
_JITTER_LOSS = lazyre.compile(
    rf"^\s+(?P<jitter>{_NUMBER})\s+ms\s+(?P<lost>-?\d+)/\s*(?P<total>-?\d+)\s+\((?P<pct>[^)]*)%\)(?P<tail>.*)$"
)
_LOSS = lazyre.compile(r"^\s+(?P<lost>-?\d+)/\s*(?P<total>-?\d+)\s+\((?P<pct>[^)]*)%\)\s*$")  # a UDP server's [SUM]
_PAIR = lazyre.compile(r"^\s+(?P<a>\d+)/(?P<b>\d+)(?P<tail>.*)$")  # Write/Err, or a UDP server SUM's Lost/Total
_TCP_WRITE_TAIL = lazyre.compile(
    r"^\s*(?P<retr>\d+)(?:\s+(?:(?P<cwnd>-?\d+)K|NA)/(?P<rtt>\d+)(?:\((?P<rttvar>\d+)\))?\s+us)?(?:\s+\S+)?\s*$"
)
_PPS = lazyre.compile(rf"(?P<pps>{_NUMBER})\s+pps\b")
# A server's -e Reads and read-size histogram: 2.1 "23116=618:0:...", 2.0 "40012    1002:1:...".
_READS = lazyre.compile(r"^\s+(?P<reads>\d+)(?:=|\s+)\d+(?::\d+){7}\s*$")

_CONNECTED = lazyre.compile(
    r"^\s*\[(?P<id>\s*\*?\d+)\]\s+local (?P<local>\S+?) port (?P<lport>\d+) connected with (?P<remote>\S+)"
    r" port (?P<rport>\d+)(?P<flags>.*)$"
)
_CLIENT = lazyre.compile(r"^\s*Client connecting to (?P<host>.*?), (?P<proto>TCP|UDP) port (?P<port>\d+)")
_LISTENING = lazyre.compile(r"^\s*Server listening on (?P<proto>TCP|UDP) ports? (?P<port>\d+)(?:-(?P<high>\d+))?")
_SENT = lazyre.compile(r"^\s*\[(?P<id>[^\]]{1,12})\]\s+Sent (?P<n>\d+) datagrams")
_SERVER_REPORT = lazyre.compile(r"^\s*\[(?P<id>[^\]]{1,12})\]\s+Server Report:")
_OUT_OF_ORDER = lazyre.compile(
    rf"^\s*\[(?P<id>[^\]]{{1,12}})\]\s+{_NUMBER}\s*-\s*{_NUMBER}\s+sec\s+(?P<n>\d+) datagrams received out-of-order"
)
_TABLE = lazyre.compile(r"^\s*\[(?: ID|SUM-cnt)\]\s+Interval")
_VERSION = lazyre.compile(r"^\s*iperf version (?P<v>2\.\S+)")
_UDP_SETTINGS = lazyre.compile(r"^\s*(?:UDP buffer size|Sending \d+ byte datagrams|Receiving \d+ byte datagrams)")
_SETTINGS = lazyre.compile(
    r"^\s*(?:-{20,}\s*$|(?:TCP window size|UDP buffer size|Write buffer size|Read buffer size|Sending \d+ byte"
    r"|Receiving \d+ byte|Binding to local address|TOS set to|Joining multicast|Waiting for server threads))"
)
# What iperf2 says when something went wrong: "tcp connect failed: Connection refused",
# "[  3] WARNING: did not receive ack of last datagram after 10 tries."
_FAILED = lazyre.compile(r"^\s*(?P<message>(?:[a-z][\w ]{0,30} )?failed: \S.*?)\s*$")
_WARNING = lazyre.compile(r"^\s*(?:\[[^\]]{1,12}\]\s+)?(?P<message>WARNING: \S.*?)\s*$")
_STREAM_ID = lazyre.compile(r"^\s*\*?\d+$")


def read_row(match: re.Match[str]) -> tuple[dict[str, Any], str | None]:
    """One interval or summary row, and the columns after its rate that no layout here reads."""
    row = measured(match)  # iperf2's units are iperf3's (checked in its Locale.c and units code)
    rest = match["rest"]
    if not rest.strip():
        return row, None
    if udp := _JITTER_LOSS.match(rest):
        row.update(jitter_ms=float(udp["jitter"]), lost=int(udp["lost"]), packets=int(udp["total"]))
        if pps := _PPS.search(udp["tail"]):
            row["pps"] = units.scaled(pps["pps"], 1)
        return row, None
    if loss := _LOSS.match(rest):
        row.update(lost=int(loss["lost"]), packets=int(loss["total"]))
        return row, None
    if pair := _PAIR.match(rest):
        row["pair"] = (int(pair["a"]), int(pair["b"]))
        tail = pair["tail"]
        if pps := _PPS.match(tail.lstrip()):
            row["pps"] = units.scaled(pps["pps"], 1)
        elif tcp := _TCP_WRITE_TAIL.match(tail):
            row["retransmits"] = int(tcp["retr"])
            if tcp["cwnd"] and int(tcp["cwnd"]) >= 0:  # "-1K": the window was not known
                row["cwnd_bytes"] = int(tcp["cwnd"]) * 1024
            if tcp["rtt"]:
                row["rtt_us"] = int(tcp["rtt"])
        elif tail.strip():
            return row, tail.strip()
        return row, None
    if reads := _READS.match(rest):
        row["reads"] = int(reads["reads"])
        return row, None
    return row, rest.strip()


@dataclass
class _Connection:
    key: str  # as printed, "1" or "*2"
    line: int
    local_port: int
    remote_port: int
    reverse: bool


@dataclass
class _Invocation:
    """What one run of iperf printed, gathered line by line, then assembled."""

    line_start: int
    line_end: int
    client_ports: set[int] = field(default_factory=set)
    listen_ports: set[int] = field(default_factory=set)
    client_headers: list[int] = field(default_factory=list)  # their lines
    server_headers: list[int] = field(default_factory=list)
    connections: dict[str, _Connection] = field(default_factory=dict)
    streams: dict[str, Stream] = field(default_factory=dict)
    total: Stream | None = None
    udp: bool = False
    version: str | None = None
    awaiting_report: set[str] = field(default_factory=set)  # streams whose next row is the server's report
    last_remote: str | None = None  # the stream whose server report was the row just read
    notes: dict[str, int] = field(default_factory=dict)  # iperf2's error and warning lines, first line of each
    unread: str | None = None  # the columns after the rate of the first row no layout here reads
    first_row: int | None = None  # the line of the first interval or summary row
    problems: list[tuple[int, str]] = field(default_factory=list)

    def first_kind(self) -> str | None:
        firsts = [
            (lines[0], kind)
            for kind, lines in (("client", self.client_headers), ("server", self.server_headers))
            if lines
        ]
        return min(firsts)[1] if firsts else None

    def has_rows(self) -> bool:
        return any(stream.rows for stream in self.streams.values())

    def finished(self) -> bool:
        """Every stream that printed has printed its summary, and every connection has printed."""
        printed = [stream for stream in self.streams.values() if stream.rows]
        if not printed or any(stream.final() is None for stream in printed):
            return False
        keys = {stream.key.lstrip("*") for stream in printed}
        return all(key.lstrip("*") in keys for key in self.connections)

    def made(self, connection: _Connection) -> bool | None:
        """Whether this end made the connection (True), accepted it (False), or the output does not say."""
        if connection.local_port in self.listen_ports:
            return False
        if connection.remote_port in self.client_ports:
            return True
        if self.client_headers and not self.server_headers:
            return True
        if self.server_headers and not self.client_headers:
            return False
        return None

    def role(self) -> str | None:
        """client when a "Client connecting to" header came before any connection this end accepted:
        the server of -d or -r prints one too, for the connection it makes back, after accepting."""
        accepted = [c.line for c in self.connections.values() if self.made(c) is False]
        if self.client_headers and (not accepted or self.client_headers[0] < min(accepted)):
            return "client"
        if self.server_headers or accepted:
            return "server"
        return None

    def sends(self, stream: Stream, role: str | None) -> bool | None:
        key = stream.key
        connection = self.connections.get(key) or self.connections.get(key.lstrip("*"))
        if connection is not None and (made := self.made(connection)) is not None:
            if connection.key == key:
                # The server of -R writes on the connection it accepted ("(reverse)").
                return True if made else connection.reverse
            return not made  # the starred half of a connection goes the other way
        # No connection line: what its rows say, then what this end is.
        if stream.sent is not None or stream.remote is not None or any("pair" in row for row in stream.rows):
            return True  # "Sent N datagrams", a server's report, Write/Err: the client's
        if any("reads" in row or "jitter_ms" in row for row in stream.rows):
            return False
        if any("retransmits" in row for row in stream.rows):
            return True
        return {"client": True, "server": False}.get(role or "")


class _Transcript:
    def __init__(self, lines: list[str]):
        self.lines = lines
        self.done: list[_Invocation] = []
        self.current: _Invocation | None = None
        self.header_since_rows: int | None = None  # a header printed after the last row: a new run may start there

    def read(self) -> list[_Invocation]:
        for index, line in enumerate(self.lines):
            self._line(index, line)
        if self.current is not None:
            self.done.append(self.current)
        return self.done

    def _open(self, index: int, inherit: _Invocation | None = None) -> _Invocation:
        if self.current is not None:
            self.done.append(self.current)
        self.current = _Invocation(line_start=index, line_end=index)
        if inherit is not None:
            # A server that stays up prints its banner once for every client after it.
            self.current.listen_ports = set(inherit.listen_ports)
            self.current.server_headers = [index] if inherit.server_headers else []
            self.current.udp = inherit.udp
            self.current.version = inherit.version
        self.header_since_rows = None
        return self.current

    def _run(self, index: int) -> _Invocation:
        return self.current if self.current is not None else self._open(index)

    def _line(self, index: int, line: str) -> None:
        first = line.lstrip()[:1]
        if not first:
            return
        if first == "[":
            self._bracketed(index, line)
            return
        if first == "C" and (client := _CLIENT.match(line)):
            run = self._header(index, "client")
            run.client_ports.add(int(client["port"]))
            run.client_headers.append(index)
            run.udp = run.udp or client["proto"] == "UDP"
        elif first == "S" and (listening := _LISTENING.match(line)):
            run = self._header(index, "server")
            run.listen_ports.update(int(port) for port in (listening["port"], listening["high"]) if port)
            run.server_headers.append(index)
            run.udp = run.udp or listening["proto"] == "UDP"
        elif first == "i" and (version := _VERSION.match(line)):
            self._run(index).version = version["v"]
        elif (note := _FAILED.match(line) or _WARNING.match(line)) is not None:
            self._run(index).notes.setdefault(note["message"], index)
        elif self.current is not None and _SETTINGS.match(line):
            if _UDP_SETTINGS.match(line):
                self.current.udp = True
        else:
            return
        if self.current is not None:
            self.current.line_end = index

    def _header(self, index: int, kind: str) -> _Invocation:
        """A "Client connecting to" or "Server listening on" banner: a new run when the one before
        has finished and began with the same banner (the client of -r prints a listener's banner
        too, the server of -r a client's)."""
        run = self.current
        if run is None:
            return self._open(index)
        if run.has_rows() and run.finished() and run.first_kind() == kind:
            return self._open(self.header_since_rows if self.header_since_rows is not None else index)
        if run.has_rows() and self.header_since_rows is None:
            self.header_since_rows = index
        return run

    def _bracketed(self, index: int, line: str) -> None:
        if "/sec" in line and (match := _ROW.match(line)):
            self._row(index, match)
        elif " connected with " in line and (connected := _CONNECTED.match(line)):
            self._connected(index, connected)
        elif "Sent" in line and (sent := _SENT.match(line)):
            run = self._run(index)
            run.udp = True
            self._stream(run, sent["id"], index).sent = int(sent["n"])
        elif "Server Report" in line and (report := _SERVER_REPORT.match(line)):
            run = self._run(index)
            run.udp = True
            run.awaiting_report.add(report["id"].strip())
        elif "out-of-order" in line and (late := _OUT_OF_ORDER.match(line)):
            run = self._run(index)
            key = late["id"].strip()
            if run.last_remote == key:
                self._stream(run, key, index).remote_out_of_order = int(late["n"])
            else:
                self._stream(run, key, index).out_of_order = int(late["n"])
        elif _TABLE.match(line):
            run = self._run(index)
            if "Jitter" in line or "PPS" in line or "Datagrams" in line:
                run.udp = True
        elif (note := _WARNING.match(line)) is not None:
            self._run(index).notes.setdefault(note["message"], index)
        else:
            return
        self.current.line_end = index  # type: ignore[union-attr]  # every branch above opened one

    def _stream(self, run: _Invocation, key: str, index: int) -> Stream:
        key = key.strip()
        if key.startswith("SUM"):  # "[SUM]", and iperf 2.1's "[SUM-2] Sent 3576 datagrams"
            if run.total is None:
                run.total = Stream("SUM", index)
            return run.total
        if key not in run.streams:
            run.streams[key] = Stream(key, index)
        return run.streams[key]

    def _connected(self, index: int, match: re.Match[str]) -> None:
        key = match["id"].replace(" ", "")
        connection = _Connection(key, index, int(match["lport"]), int(match["rport"]), "(reverse)" in match["flags"])
        run = self.current
        if run is not None and run.has_rows() and run.finished() and self._same_way(run, connection):
            # A new client of a server that stays up: a run of its own, under the server's banner.
            start = self.header_since_rows if self.header_since_rows is not None else index
            run = self._open(start, inherit=run)
        run = self._run(index)
        run.connections.setdefault(key, connection)

    @staticmethod
    def _same_way(run: _Invocation, connection: _Connection) -> bool:
        """Whether a connection is made (or accepted) as the finished run's were: the second half
        of -r is the other end connecting back, and belongs to the same run."""
        made = run.made(connection)
        return made is not None and any(run.made(known) == made for known in run.connections.values())

    def _row(self, index: int, match: re.Match[str]) -> None:
        run = self._run(index)
        key = match["id"].strip()
        if key.startswith("FD"):
            return  # iperf 2.1's full-duplex pair sums: each half is read from its own rows
        if not (key.startswith("SUM") or _STREAM_ID.match(key)):
            run.problems.append((index, f"an iperf2 row of stream '[{match['id']}]', which perfwiki does not read"))
            return
        row, unread = read_row(match)
        if unread is not None and run.unread is None:
            run.unread = unread
        if "jitter_ms" in row or "lost" in row or "pps" in row:
            run.udp = True
        if run.first_row is None:
            run.first_row = index
        stream = self._stream(run, key, index)
        if key in run.awaiting_report:
            run.awaiting_report.discard(key)
            stream.remote = row
            run.last_remote = key
        else:
            stream.rows.append(row)
            run.last_remote = None
        self.header_since_rows = None


def _finish(run: _Invocation) -> Assembled | None:
    role = run.role()
    for stream in run.streams.values():
        stream.sends = run.sends(stream, role)
    if not run.has_rows() and not (run.total and run.total.rows):
        return None
    # -r runs one direction, then connects the other way: that connection comes after the first rows.
    in_turn = run.first_row is not None and any(c.line > run.first_row for c in run.connections.values())
    return assemble(list(run.streams.values()), run.total, role, run.udp, in_turn)


def read(lines: list[str]) -> list[Found]:
    """Every iperf2 run in a transcript, in order."""
    found = []
    for run in _Transcript(lines).read():
        assembled = _finish(run)
        problems = list(run.problems)
        warnings: list[str] = []
        metrics: dict[str, Any] = {}
        if assembled is not None:
            metrics = assembled.metrics
            problems += assembled.problems
            warnings += assembled.warnings
        has_result = any(end in metrics for end in ("sender", "receiver", "transferred"))
        notes = sorted(run.notes.items(), key=lambda item: item[1])
        if has_result:
            warnings += [f"iperf2 printed: {message}" for message, _ in notes]
        elif notes:
            problems += [(index, f"iperf2 {message}") for message, index in notes]
        elif assembled is None and not problems:
            if not (run.client_headers or run.server_headers or run.connections):
                continue  # `iperf -v` alone: a version, no run
            problems.append((run.line_start, "iperf2 output without any interval or summary row"))
        if run.unread is not None and has_result:
            warnings.append(f"iperf2 columns after the rate that perfwiki does not read: {run.unread}")
        found.append(Found(run.line_start, run.line_end, run.version, metrics, problems, warnings))
    return found

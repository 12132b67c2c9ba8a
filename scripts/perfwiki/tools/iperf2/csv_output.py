"""iperf2's `-y C` output: one comma-separated line per interval and stream, no header.

    20090126182857,10.10.10.145,35875,10.10.10.65,5001,3,0.0-10.0,1252440,999997
    20090126182857,10.10.10.65,5001,10.10.10.145,35875,3,0.0-10.0,1252440,999970,0.008,0,852,0.000,0

Fields: timestamp, source address and port, destination address and port, transfer id,
interval, bytes, bits per second; a UDP line adds jitter (ms), datagrams lost, datagrams in
all, % lost and datagrams out of order (iperf2's Locale.c, reportCSV_bw_format and
reportCSV_bw_jitter_loss_format). Numbers are exact: bytes and bit/s as counted, nothing printed
to round. The id of a sum is -1, its addresses empty.

Which end a line is from: iperf 2.0 prints a UDP client's own lines with 9 fields and the
server's report of the same stream (its addresses swapped) with 14; iperf 2.1 prints 14 at
both ends, a client's with -1 datagrams in its last line, which counts nothing received. A
TCP line says nothing of its end: the command (-c or -s) does, or it stays `transferred`.
"""

from __future__ import annotations

import re
from typing import Any

from ... import lazyre, units
from .streams import Found, Stream, assemble

# What an iperf2 CSV line starts with: a YYYYMMDDHHMMSS timestamp (2.1 -e adds milliseconds),
# or iperf 2.2's header line, which perfwiki does not read.
CSV_START = lazyre.compile(r"^[ \t]*(?:\d{14}(?:\.\d+)?,|time,srcaddress,)")
CSV = lazyre.compile(
    r"^[ \t]*\d{14}(?:\.\d+)?,(?P<local>[^,\s]*),(?P<lport>\d*),(?P<remote>[^,\s]*),(?P<rport>\d*),(?P<id>-?\d+),"
    r"(?P<start>\d+(?:\.\d+)?)-(?P<end>\d+(?:\.\d+)?),(?P<bytes>\d+),(?P<bps>\d+)"
    r"(?:,(?P<jitter>-?\d+(?:\.\d+)?),(?P<lost>-?\d+),(?P<total>-?\d+),[^,\s]*,(?P<ooo>-?\d+))?[ \t]*$"
)
_UNREAD = (
    "an iperf2 CSV line perfwiki does not read: it reads -y C lines of 9 fields (TCP) and 14 (UDP)"
    " with the interval as one 'start-end' field, as iperf 2.0.5 to 2.1 print them"
)


def is_csv(lines: list[str]) -> bool:
    return any(CSV_START.match(line) for line in lines)


def _row(match: re.Match[str]) -> dict[str, Any]:
    row: dict[str, Any] = {
        "start_s": float(match["start"]),
        "end_s": float(match["end"]),
        "bytes": int(match["bytes"]),
        "bits_per_s": int(match["bps"]),
    }
    if match["jitter"] is not None:
        row.update(jitter_ms=units.scaled(match["jitter"], 1), lost=int(match["lost"]), packets=int(match["total"]))
        row["out_of_order"] = int(match["ooo"])
    return row


class _Run:
    def __init__(self, index: int):
        self.line_start = self.line_end = index
        self.lines: dict[tuple[str, ...], list[tuple[int, re.Match[str]]]] = {}
        self.problems: list[tuple[int, str]] = []

    def ids_done(self) -> set[str]:
        """Transfer ids whose last line is their summary (starts at 0)."""
        return {key[0] for key, found in self.lines.items() if float(found[-1][1]["start"]) == 0}


def _key(match: re.Match[str]) -> tuple[str, ...]:
    return (match["id"], match["local"], match["lport"], match["remote"], match["rport"])


def _mirror(key: tuple[str, ...]) -> tuple[str, ...]:
    return (key[0], key[3], key[4], key[1], key[2])


def _split(lines: list[str]) -> list[_Run]:
    """Runs in the order printed. A new run starts where a transfer id comes again on another
    connection after its summary: one invocation numbers its streams once."""
    runs: list[_Run] = []
    for index, line in enumerate(lines):
        if not CSV_START.match(line):
            continue
        match = CSV.match(line)
        if runs and match is not None:
            run = runs[-1]
            key = _key(match)
            if key not in run.lines and _mirror(key) not in run.lines and match["id"] in run.ids_done():
                runs.append(_Run(index))
        if not runs:
            runs.append(_Run(index))
        run = runs[-1]
        run.line_end = index
        if match is None:
            run.problems.append((index, _UNREAD))
        else:
            run.lines.setdefault(_key(match), []).append((index, match))
    return runs


def _assemble(run: _Run) -> Found:
    streams: list[Stream] = []
    total: Stream | None = None
    reports: dict[tuple[str, ...], list[tuple[int, re.Match[str]]]] = {}
    # A 14-field line whose addresses are another stream's swapped is the server's report of it (2.0).
    for key, found in run.lines.items():
        if (
            found[0][1]["jitter"] is not None
            and _mirror(key) in run.lines
            and run.lines[_mirror(key)][0][1]["jitter"] is None
        ):
            reports[_mirror(key)] = found
    udp = False
    for key, found in run.lines.items():
        if any(key == _mirror(sent) for sent in reports):
            continue
        stream = Stream("SUM" if key[0] == "-1" else key[0], found[0][0])
        stream.rows = [_row(match) for _, match in found]
        if any(row.get("jitter_ms") is not None for row in stream.rows):
            udp = True
            if any(row["packets"] < 0 for row in stream.rows):
                # iperf 2.1's UDP client: its UDP fields count what it sent, the last one -1.
                stream.sends = True
                stream.rows = [{k: row[k] for k in ("start_s", "end_s", "bytes", "bits_per_s")} for row in stream.rows]
            else:
                stream.sends = False
                stream.out_of_order = stream.rows[-1].pop("out_of_order")
        if key in reports:
            stream.sends = True  # a 2.0 UDP client: its own line, then the server's
            remote = _row(reports[key][-1][1])
            stream.remote_out_of_order = remote.pop("out_of_order")
            stream.remote = remote
            udp = True
        for row in stream.rows:
            row.pop("out_of_order", None)
        if stream.key == "SUM":
            total = stream
        else:
            streams.append(stream)
    sends = {stream.sends for stream in streams}
    role = "client" if sends == {True} else "server" if sends == {False} else None
    assembled = assemble(streams, total, role, udp)
    return Found(
        run.line_start, run.line_end, None, assembled.metrics, run.problems + assembled.problems, assembled.warnings
    )


def read(lines: list[str]) -> list[Found]:
    return [_assemble(run) for run in _split(lines)]

"""iperf2's streams, whichever way each went, made into a run's metrics.

Both readers (transcript.py, csv_output.py) give the same thing: every stream's rows in the order
printed, whether this end sent or received on it, the sum rows, and, for a UDP client, the
server's report of each stream. This module decides what a run says from them:

- an iperf2 client reports what it wrote (`sender`); a server what it read (`receiver`);
  a UDP client also prints the server's report of each stream, which is the `receiver`;
- a stream's summary is its last row when that row starts at 0 ("0.0-10.0 sec" after the
  "9.0-10.0 sec" interval); every row before it is an interval;
- with several streams the [SUM] rows speak for them, unless both directions ran (-d, -r,
  --full-duplex): iperf 2.1 then sums both directions in one [SUM] row, so each direction is
  summed here from its streams (and has no printed token, as no single token gave it).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from ... import units

# What a row may carry beyond its transfer and rate, by which end printed it.
SENDER_EXTRAS = ("writes", "errors", "retransmits", "cwnd_bytes", "rtt_us", "pps")
RECEIVER_EXTRAS = ("reads", "pps")
UDP_RECEIVED = ("jitter_ms", "lost", "packets")


@dataclass
class Stream:
    """The rows of one stream as printed ('[  3]', '[ *1]'), or of the sum ('[SUM]')."""

    key: str
    line: int  # where it first shows, 0-based
    sends: bool | None = None  # whether this end wrote its bytes; None when the output does not say
    rows: list[dict[str, Any]] = field(default_factory=list)
    remote: dict[str, Any] | None = None  # the server's report of it (UDP client): the receiving end
    sent: int | None = None  # "Sent 5350 datagrams"
    out_of_order: int | None = None  # "1 datagrams received out-of-order", counted at this end
    remote_out_of_order: int | None = None  # the same, under the server's report

    def final(self) -> dict[str, Any] | None:
        """The summary row: the last one, when it starts at 0 (an output cut short ends on an interval)."""
        return self.rows[-1] if self.rows and self.rows[-1]["start_s"] == 0 else None

    def intervals(self) -> list[dict[str, Any]]:
        return self.rows[:-1] if self.final() is not None else list(self.rows)


@dataclass
class Found:
    """One run as a reader found it; lines are 0-based within the text read."""

    line_start: int
    line_end: int
    version: str | None
    metrics: dict[str, Any]
    problems: list[tuple[int, str]]
    warnings: list[str]


@dataclass
class Assembled:
    metrics: dict[str, Any]
    problems: list[tuple[int, str]]
    warnings: list[str]


def _add(values: list[Any]) -> Any:
    """A sum of printed values, exact (2.06 GBytes + 2.41 GBytes, without a float's last digit)."""
    return units.normalize(sum((Decimal(str(value)) for value in values), Decimal(0)))


def _mean(values: list[float]) -> float:
    return round(sum(values) / len(values), 6)


def _as_sent(row: dict[str, Any]) -> dict[str, Any]:
    """A row of the sending end: a bare 'N/M' pair there is Write/Err."""
    row = dict(row)
    if "pair" in row:
        row["writes"], row["errors"] = row.pop("pair")
    return row


def _as_received(row: dict[str, Any]) -> dict[str, Any]:
    """A row of the receiving end: a bare 'N/M' pair there is Lost/Total. iperf 2.1's UDP server
    prints its [SUM] row as '0/3574  1785 pps' under a 'Write/Err  PPS' heading."""
    row = dict(row)
    if "pair" in row:
        row["lost"], row["packets"] = row.pop("pair")
    return row


def _interval(row: dict[str, Any], extras: tuple[str, ...]) -> dict[str, Any]:
    kept = {key: row[key] for key in ("start_s", "end_s", "bytes", "bits_per_s")}
    kept.update({key: row[key] for key in extras if row.get(key) is not None})
    return kept


def _summed_intervals(streams: list[Stream], convert: Any) -> list[dict[str, Any]]:
    """Per-interval sums of several streams, for the intervals every one of them printed."""
    groups: dict[tuple[float, float], list[dict[str, Any]]] = {}
    for stream in streams:
        for row in stream.intervals():
            groups.setdefault((round(row["start_s"], 3), round(row["end_s"], 3)), []).append(convert(row))
    summed = []
    for (start, end), rows in sorted(groups.items()):
        if len(rows) != len(streams):
            continue  # a stream without this interval: its sum would say less than it looks
        one: dict[str, Any] = {
            "start_s": start,
            "end_s": end,
            "bytes": _add([row["bytes"] for row in rows]),
            "bits_per_s": _add([row["bits_per_s"] for row in rows]),
        }
        if all("retransmits" in row for row in rows):
            one["retransmits"] = sum(row["retransmits"] for row in rows)
        summed.append(one)
    return summed


def _udp_received(rows: list[dict[str, Any]], total: dict[str, Any] | None) -> dict[str, Any]:
    """Jitter, loss and datagrams at the receiving end: a sum row's when it has them, else the streams'
    (lost and datagrams added, jitter their mean, as iperf3 sums its streams' jitter)."""
    found: dict[str, Any] = {}
    if total is not None and total.get("packets") is not None:
        found["lost"], found["packets"] = total.get("lost"), total["packets"]
    elif rows and all(row.get("packets") is not None for row in rows):
        found["lost"] = sum(row["lost"] for row in rows)
        found["packets"] = sum(row["packets"] for row in rows)
    if total is not None and total.get("jitter_ms") is not None:
        found["jitter_ms"] = total["jitter_ms"]
    elif rows and all(row.get("jitter_ms") is not None for row in rows):
        found["jitter_ms"] = rows[0]["jitter_ms"] if len(rows) == 1 else _mean([row["jitter_ms"] for row in rows])
    if found.get("packets"):
        found["lost_pct"] = round(100 * found["lost"] / found["packets"], 6)
    return found


def _counted(values: list[int | None]) -> int | None:
    printed = [value for value in values if value is not None]
    return sum(printed) if printed else None


class _Direction:
    """The streams that went one way, read as one result."""

    def __init__(self, streams: list[Stream], total: Stream | None, sends: bool | None, udp: bool):
        self.streams = streams
        # A sum row speaks for several streams; one stream speaks for itself.
        self.total = total if len(streams) > 1 and total is not None and total.final() is not None else None
        self.sends = sends
        self.udp = udp
        self.convert = _as_received if sends is False else _as_sent
        self.problems: list[tuple[int, str]] = []
        self.warnings: list[str] = []

    def metrics(self) -> dict[str, Any]:
        end = {True: "sender", False: "receiver", None: "transferred"}[self.sends]
        result: dict[str, Any] = {}
        summary, intervals = self._summary()
        extras = SENDER_EXTRAS if self.sends else RECEIVER_EXTRAS if self.sends is False else ()
        result["intervals"] = [
            _interval(row, extras + (UDP_RECEIVED if self.udp and self.sends is False else ())) for row in intervals
        ]
        if summary is None:
            return result
        result[end] = summary
        if self.sends and self.udp:
            sent = self.total.sent if self.total is not None and self.total.sent is not None else None
            sent = sent if sent is not None else _counted([stream.sent for stream in self.streams])
            if sent is not None:
                summary["packets"] = sent
            self._server_report(result)
        elif self.sends is False and self.udp:
            finals = [self.convert(stream.final()) for stream in self.streams if stream.final() is not None]
            total = self.convert(self.total.final()) if self.total is not None else None
            result.update(_udp_received(finals, total))
            seen = self.total.out_of_order if self.total is not None else None
            seen = seen if seen is not None else _counted([stream.out_of_order for stream in self.streams])
            if seen is not None:
                result["out_of_order"] = seen
        return result

    def _summary(self) -> tuple[dict[str, Any] | None, list[dict[str, Any]]]:
        extras = SENDER_EXTRAS if self.sends else RECEIVER_EXTRAS if self.sends is False else ()
        if self.total is not None:
            row = self.convert(self.total.final())
            return self._entry(row, extras), [self.convert(row) for row in self.total.intervals()]
        if len(self.streams) == 1:
            stream = self.streams[0]
            row = stream.final()
            if row is None:
                self._cut(stream)
                return None, [self.convert(row) for row in stream.rows]
            return self._entry(self.convert(row), extras), [self.convert(row) for row in stream.intervals()]
        finals = []
        for stream in self.streams:
            if stream.final() is None:
                self._cut(stream)
                return None, _summed_intervals(self.streams, self.convert)
            finals.append(self.convert(stream.final()))
        summary: dict[str, Any] = {
            "bytes": _add([row["bytes"] for row in finals]),
            "bits_per_s": _add([row["bits_per_s"] for row in finals]),
        }
        for key in ("writes", "errors", "retransmits", "reads") if self.sends is not False else ("reads",):
            if all(row.get(key) is not None for row in finals):
                summary[key] = sum(row[key] for row in finals)
        return summary, _summed_intervals(self.streams, self.convert)

    def _entry(self, row: dict[str, Any], extras: tuple[str, ...]) -> dict[str, Any]:
        entry = {"bytes": row["bytes"], "bits_per_s": row["bits_per_s"]}
        entry.update({key: row[key] for key in extras if row.get(key) is not None})
        if "printed" in row:
            entry["printed"] = row["printed"]
        return entry

    def _cut(self, stream: Stream) -> None:
        self.problems.append(
            (stream.line, f"iperf2 output ends before the summary of stream {stream.key} (its last row is an interval)")
        )

    def _server_report(self, result: dict[str, Any]) -> None:
        """A UDP client's receiving end: the server's report of each stream, printed at the client."""
        reports = [stream.remote for stream in self.streams]
        if not any(reports):
            return
        missing = [stream.key for stream in self.streams if stream.remote is None]
        if missing:
            self.warnings.append(
                f"no server report for stream {', '.join(missing)}: what the server received is not known"
            )
            return
        rows = [_as_received(row) for row in reports if row is not None]
        if len(rows) == 1:
            receiver = self._entry(rows[0], ())
        else:
            receiver = {
                "bytes": _add([row["bytes"] for row in rows]),
                "bits_per_s": _add([row["bits_per_s"] for row in rows]),
            }
        result["receiver"] = receiver
        result.update(_udp_received(rows, None))
        seen = _counted([stream.remote_out_of_order for stream in self.streams])
        if seen is not None:
            result["out_of_order"] = seen


def assemble(
    streams: list[Stream], total: Stream | None, role: str | None, udp: bool, in_turn: bool = False
) -> Assembled:
    """A run's metrics from its streams; `total` is the [SUM] series, `role` client, server or None,
    `in_turn` whether the two directions ran one after the other (-r) rather than at once."""
    data = [stream for stream in streams if stream.rows]
    problems: list[tuple[int, str]] = []
    counted = bool(data)
    if not data:
        if total is None or not total.rows:
            return Assembled({}, problems, [])
        # Only [SUM] rows (2.1's --sum-only): the sum is the one series, its streams not counted.
        total.sends = {"client": True, "server": False}.get(role or "")
        data, total = [total], None
    known = {stream.sends for stream in data} - {None}
    if len(known) == 1:  # a stream the output says nothing about went the way the others did
        for stream in data:
            if stream.sends is None:
                stream.sends = next(iter(known))
    sending = [stream for stream in data if stream.sends is True]
    receiving = [stream for stream in data if stream.sends is False]
    unknown = [stream for stream in data if stream.sends is None]
    if unknown and known:
        keys = ", ".join(stream.key for stream in unknown)
        problems.append((unknown[0].line, f"iperf2 output ran both ways and does not say which way stream {keys} went"))
        return Assembled({}, problems, [])
    # The forward direction is the client's sending one (the server's receiving one); with -R it is
    # the only one there is, the other way.
    forward, backward = (receiving, sending) if role == "server" else (sending, receiving)
    if forward:
        main, other, reverse = forward, backward, False
    elif backward:
        main, other, reverse = backward, [], True
    else:
        main, other, reverse = unknown, [], False
    sends = main[0].sends if main else None
    metrics: dict[str, Any] = {"mode": "udp" if udp else "tcp"}
    if role:
        metrics["role"] = role
    if counted:
        metrics["streams"] = len(main)
    metrics.update({"reverse": reverse, "bidir": bool(other) and not in_turn})
    if other and in_turn:
        metrics["tradeoff"] = True
    warnings: list[str] = []
    # Only a run of one direction has sum rows of its own (iperf 2.1 sums both ways in one).
    direction = _Direction(main, None if other else total, sends, udp)
    metrics.update(direction.metrics())
    problems += direction.problems
    warnings += direction.warnings
    if other:
        back = _Direction(other, None, other[0].sends, udp)
        metrics["reverse_direction"] = back.metrics()
        problems += back.problems
        warnings += back.warnings
    return Assembled(metrics, problems, warnings)


def settle_end(metrics: dict[str, Any], role: str) -> None:
    """Name the end that printed `transferred` once the command says which end ran (-c or -s)."""
    for where in (metrics, metrics.get("reverse_direction") or {}):
        if "transferred" in where:
            where["sender" if role == "client" else "receiver"] = where.pop("transferred")
    metrics["role"] = role

"""netperf 2.x: the classic result tables, and the omni tests' -k, -o and -O output.

A real input (the netperf manual, "TCP_STREAM", `netperf -H lag`)::

    TCP STREAM TEST from 0.0.0.0 (0.0.0.0) port 0 AF_INET to lag.hpl.hp.com (15.4.89.214) port 0 AF_INET
    Recv   Send    Send
    Socket Socket  Message  Elapsed
    Size   Size    Size     Time     Throughput
    bytes  bytes   bytes    secs.    10^6bits/sec

     32768  16384  16384    10.00      80.42

Every test starts with that banner: its name ("MIGRATED" when the omni code ran it) and the
target after "to". The classic tables are the stream one above (TCP_STREAM, TCP_MAERTS,
TCP_SENDFILE), UDP_STREAM's two lines (the sending side, then the receiving one), and the
request/response one (TCP_RR, UDP_RR, TCP_CRR: "Trans. Rate per sec"); with -c/-C each has CPU
columns too. The throughput unit is read from the header, never assumed: 10^6bits/sec by
default, -f k/m/g for 10^3/10^6/10^9 bits, -f K/M/G for KBytes/MBytes/GBytes (1024-based); an
RR test prints transactions unless -f asks for a rate. The omni forms are read in omni.py.

Output metrics::

    bits_per_s (stream tests; UDP_STREAM's is the receiving side's), transactions_per_s
    (request/response tests), throughput_units (as printed), elapsed_s,
    latency_{min,mean,p50,p90,p99,max,stddev}_us (omni selectors, microseconds as printed),
    message_bytes, request_bytes, response_bytes, {local,remote}_{send,recv}_socket_bytes,
    cpu_local_pct, cpu_remote_pct, service_demand_local, service_demand_remote, service_demand_unit,
    udp: {send: {socket_bytes, message_bytes, elapsed_s, messages, errors, bits_per_s},
          receive: {socket_bytes, elapsed_s, messages, bits_per_s}},
    intervals: [{start_s, end_s, bits_per_s | transactions_per_s}] (interim results, -D),
    omni: {selector or title: value as printed}, banner_test (the banner's name, "TCP STREAM"),
    target, migrated, confidence_missed
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from ... import lazyre
from ..base import ToolReport
from . import omni, options

# "MIGRATED TCP STREAM TEST from 0.0.0.0 (0.0.0.0) port 0 AF_INET to lag.hpl.hp.com (15.4.89.214) port 0 AF_INET"
BANNER = lazyre.compile(
    r"^\s*(?P<migrated>MIGRATED )?(?P<name>[A-Z][A-Za-z0-9/| _]*?) TEST from \S* \([^)]*\) port \d+ AF_\w+"
    r" to (?P<target>\S*) \((?P<address>[^)]*)\) port \d+ AF_\w+(?P<rest>.*)$"
)
# The banner's test name -> the -t name that prints it (src/nettest_bsd.c, src/nettest_omni.c).
TESTS = {
    "TCP STREAM": "TCP_STREAM",
    "TCP MAERTS": "TCP_MAERTS",
    "TCP SENDFILE": "TCP_SENDFILE",
    "UDP UNIDIRECTIONAL SEND": "UDP_STREAM",
    "UDP STREAM": "UDP_STREAM",
    "TCP REQUEST/RESPONSE": "TCP_RR",
    "UDP REQUEST/RESPONSE": "UDP_RR",
    "TCP Connect/Request/Response": "TCP_CRR",
    "TCP Connect/Close": "TCP_CC",
}
# An omni test's banner names its direction ("OMNI Send TEST"; "OMNI TEST" before 2.6): with the
# protocol, that is the classic test it runs.
_OMNI_DIRECTIONS = {
    "send": "STREAM",
    "receive": "MAERTS",
    "send|recv": "RR",
    "connect|send|recv": "CRR",
    "connection": "CC",
}
_DIRECTION_WORDS = {"send": "send", "stream": "send", "transmit": "send", "xmit": "send", "2": "send"}
_DIRECTION_WORDS |= {"recv": "receive", "receive": "receive", "maerts": "receive", "4": "receive"}
_DIRECTION_WORDS |= {"rr": "send|recv", "6": "send|recv"}

_STREAM_HEADER = lazyre.compile(r"^\s*Recv\s+Send\s+Send\b")
_UDP_HEADER = lazyre.compile(r"^\s*Socket\s+Message\s+Elapsed\s+Messages\b")
_RR_HEADER = lazyre.compile(r"^\s*Local\s*/\s*Remote\s*$")
_UNITS_LINE = lazyre.compile(r"^\s*bytes\s+[Bb]ytes\s")
# A throughput unit in a header: "10^6bits/sec", "MBytes/sec", "10^6bits/s" (the CPU table's).
_HEADER_UNIT = lazyre.compile(r"(10\^\d+bits|[KMG]?Bytes)/s(?:ec)?\b")
# The RR table with CPU columns and -f names its unit on the third line, cut to eight characters.
_TPUT_UNIT = lazyre.compile(r"\bTime\s+(10\^\d+bits|[KMG]?Bytes)\s")
_NUMBER = r"-?\d+(?:\.\d+)?"
_INTERIM = lazyre.compile(
    rf"^\s*Interim result:\s*(?P<value>{_NUMBER})\s+(?P<unit>\S+)\s+over\s+(?P<span>{_NUMBER})\s+seconds"
    rf"\s+ending at\s+(?P<end>{_NUMBER})"
)
# -o with -D: "2978.81,MBytes/s,1.25,1327962298.035" (value, unit, interval, ending).
_CSV_INTERIM = lazyre.compile(
    rf"^\s*(?P<value>{_NUMBER}),(?P<unit>[^,\s]+/s),(?P<span>{_NUMBER}),(?P<end>{_NUMBER})\s*$"
)
_CONFIDENCE = lazyre.compile(r"^\s*!!! Desired confidence was not achieved")


@dataclass
class NetperfReport(ToolReport):
    def has_results(self) -> bool:
        # A rate, or a latency alone (`-o P50_LATENCY,P90_LATENCY,P99_LATENCY`).
        return any(key in ("bits_per_s", "transactions_per_s") or key.startswith("latency_") for key in self.metrics)


def detect(text: str) -> float:
    # Substring tests before the patterns: detect runs on every segment, and most are no netperf at all.
    if " TEST from " in text and re.search(r" TEST from \S* \([^)]*\) port \d+ AF_\w+ to ", text):
        return 1.0
    if "Socket Socket  Message  Elapsed" in text or (
        "Trans." in text and re.search(r"^\s*Local /Remote\s*$", text, re.M)
    ):
        return 0.9
    if "Throughput,Throughput Units" in text or "Latency Microseconds," in text or "THROUGHPUT_UNITS=" in text:
        return 0.9
    return 0.0


def _numbers(line: str) -> list[str]:
    """The numbers of a table row, up to the first word that is none (a -B brand after them)."""
    found = []
    for word in line.split():
        if not re.fullmatch(_NUMBER, word):
            break
        found.append(word)
    return found


def _value(text: str) -> int | float:
    return int(text) if re.fullmatch(r"-?\d+", text) else float(text)


class _Parser:
    def __init__(self, lines: list[str]):
        self.lines = lines
        self.reports: list[NetperfReport] = []
        self.report: NetperfReport | None = None

    def run(self) -> list[NetperfReport]:
        index = 0
        while index < len(self.lines):
            index = self._line(index)
        for report in self.reports:
            self._finish(report)
        return self.reports

    def _open(self, index: int) -> NetperfReport:
        self.report = NetperfReport(line_start=index, line_end=index)
        self.reports.append(self.report)
        return self.report

    def _current(self, index: int) -> NetperfReport:
        """The report a result at `index` belongs to: the open one, unless it already has its results
        (a second table is a second run printed without a banner, -P 0)."""
        if self.report is None or self.report.has_results():
            return self._open(index)
        return self.report

    def _line(self, index: int) -> int:
        """Read the line at `index` (and the rest of its block); the index of the next line to read."""
        line = self.lines[index]
        if banner := BANNER.match(line):
            report = self._open(index)
            name = banner["name"].strip()
            report.metrics["banner_test"] = name
            report.metrics["migrated"] = bool(banner["migrated"])
            report.metrics["target"] = banner["target"] or banner["address"]
            return index + 1
        if _STREAM_HEADER.match(line):
            return self._stream(index)
        if _UDP_HEADER.match(line):
            return self._udp(index)
        if _RR_HEADER.match(line):
            return self._rr(index)
        if match := _INTERIM.match(line) or _CSV_INTERIM.match(line):
            self._interim(index, match["value"], match["unit"], match["span"], match["end"])
            return index + 1
        if _CONFIDENCE.match(line) and self.report is not None:
            self.report.metrics["confidence_missed"] = True
            self.report.line_end = index
            return index + 1
        if omni.KEYVAL.match(line):
            return self._keyval(index)
        if "," in line and index + 1 < len(self.lines) and self._is_csv(index):
            return self._csv(index)
        if self.report is not None and not self.report.has_results() and self._human_at(index):
            return self._human(index)
        return index + 1

    # -- classic tables ----------------------------------------------------------------------

    def _header(self, index: int) -> tuple[list[str], int]:
        """The header lines from `index` to its units line ('bytes  bytes ...'), and the first data line after it."""
        end = index
        while end < len(self.lines) and end < index + 6 and not _UNITS_LINE.match(self.lines[end]):
            end += 1
        header = self.lines[index : end + 1]
        data = end + 1
        while data < len(self.lines) and not self.lines[data].strip():
            data += 1
        return header, data

    def _unit(self, report: NetperfReport, header: list[str], index: int) -> str | None:
        text = "\n".join(header)
        if match := _HEADER_UNIT.search(text):
            return match.group(0)
        if match := _TPUT_UNIT.search(text):
            return match.group(1)
        if "Trans." in text and "per sec" in text:
            return "Trans/s"
        report.problems.append((index, "netperf table without a throughput unit in its header: not read"))
        return None

    def _row(self, report: NetperfReport, index: int, counts: tuple[int, ...]) -> list[str] | None:
        numbers = _numbers(self.lines[index]) if index < len(self.lines) else []
        if len(numbers) not in counts:
            line = min(index, len(self.lines) - 1)
            report.problems.append((line, f"netperf table row not understood: {self.lines[line].strip()!r}"))
            return None
        report.line_end = index
        return numbers

    def _rate(self, report: NetperfReport, value: str, unit: str, index: int) -> None:
        read = omni.throughput(value, unit)
        if read is None:
            report.problems.append((index, f"netperf throughput unit {unit!r} not understood"))
            return
        report.metrics[read[0]] = read[1]
        report.metrics["throughput_units"] = unit

    def _cpu(self, report: NetperfReport, values: list[str], header: list[str]) -> None:
        metrics = report.metrics
        metrics["cpu_local_pct"], metrics["cpu_remote_pct"] = _value(values[0]), _value(values[1])
        metrics["service_demand_local"], metrics["service_demand_remote"] = _value(values[2]), _value(values[3])
        unit = re.search(r"us/(?:KB|Tr)", "\n".join(header))
        if unit:
            metrics["service_demand_unit"] = unit.group(0)

    def _stream(self, index: int) -> int:
        report = self._current(index)
        header, data = self._header(index)
        unit = self._unit(report, header, index)
        row = self._row(report, data, (5, 9))
        if unit is None or row is None:
            return data + 1
        metrics = report.metrics
        # The receiving socket, the sending one, the sending side's message: netperf's end of a
        # TCP_STREAM sends, of a TCP_MAERTS receives.
        receiver, sender = ("local", "remote") if metrics.get("banner_test") == "TCP MAERTS" else ("remote", "local")
        metrics[f"{receiver}_recv_socket_bytes"] = _value(row[0])
        metrics[f"{sender}_send_socket_bytes"] = _value(row[1])
        metrics["message_bytes"] = _value(row[2])
        metrics["elapsed_s"] = _value(row[3])
        self._rate(report, row[4], unit, data)
        if len(row) == 9:
            self._cpu(report, row[5:], header)
        return data + 1

    def _udp(self, index: int) -> int:
        report = self._current(index)
        header, data = self._header(index)
        unit = self._unit(report, header, index)
        send = self._row(report, data, (6, 8))
        receive = self._row(report, data + 1, (4, 6)) if send else None
        if unit is None or send is None or receive is None:
            return data + 2
        send_rate, receive_rate = omni.throughput(send[5], unit), omni.throughput(receive[3], unit)
        if send_rate is None or receive_rate is None:
            report.problems.append((index, f"netperf throughput unit {unit!r} not understood"))
            return data + 2
        udp = {
            "send": {
                "socket_bytes": _value(send[0]),
                "message_bytes": _value(send[1]),
                "elapsed_s": _value(send[2]),
                "messages": _value(send[3]),
                "errors": _value(send[4]),
                send_rate[0]: send_rate[1],
            },
            "receive": {
                "socket_bytes": _value(receive[0]),
                "elapsed_s": _value(receive[1]),
                "messages": _value(receive[2]),
                receive_rate[0]: receive_rate[1],
            },
        }
        metrics = report.metrics
        metrics["udp"] = udp
        # What arrived is the result: UDP has no flow control, so the sender's rate can exceed the link.
        metrics[receive_rate[0]] = receive_rate[1]
        metrics["throughput_units"] = unit
        metrics["message_bytes"] = udp["send"]["message_bytes"]
        metrics["elapsed_s"] = udp["send"]["elapsed_s"]
        if len(send) == 8:
            metrics["cpu_local_pct"], metrics["service_demand_local"] = _value(send[6]), _value(send[7])
        if len(receive) == 6:
            metrics["cpu_remote_pct"], metrics["service_demand_remote"] = _value(receive[4]), _value(receive[5])
        return data + 2

    def _rr(self, index: int) -> int:
        report = self._current(index)
        header, data = self._header(index)
        unit = self._unit(report, header, index)
        first = self._row(report, data, (6, 10))
        second = self._row(report, data + 1, (2,)) if first else None
        if unit is None or first is None or second is None:
            return data + 2
        metrics = report.metrics
        metrics["local_send_socket_bytes"], metrics["local_recv_socket_bytes"] = _value(first[0]), _value(first[1])
        metrics["request_bytes"], metrics["response_bytes"] = _value(first[2]), _value(first[3])
        metrics["elapsed_s"] = _value(first[4])
        self._rate(report, first[5], unit, data)
        if len(first) == 10:
            self._cpu(report, first[6:], header)
        metrics["remote_send_socket_bytes"], metrics["remote_recv_socket_bytes"] = _value(second[0]), _value(second[1])
        return data + 2

    # -- interim results (-D) ----------------------------------------------------------------

    def _interim(self, index: int, value: str, unit: str, span: str, end: str) -> None:
        report = self._current(index) if self.report is None else self.report
        read = omni.throughput(value, unit)
        if read is None or not (re.fullmatch(_NUMBER, span.strip()) and re.fullmatch(_NUMBER, end.strip())):
            report.problems.append((index, f"netperf interim result not understood: {value} {unit} {span} {end}"))
            return
        points = report.metrics.setdefault("interim", [])
        points.append({"span_s": float(span), "ending": float(end), read[0]: read[1]})
        report.line_end = index

    # -- omni output ---------------------------------------------------------------------------

    def _keyval(self, index: int) -> int:
        report = self._current(index)
        values: dict[str, str] = {}
        interim: dict[str, dict[str, str]] = {}
        first_line: dict[str, int] = {}  # where each interim result's keys start
        end = index
        while end < len(self.lines) and (match := omni.KEYVAL.match(self.lines[end])):
            if match["index"] is not None:
                interim.setdefault(match["index"], {})[match["key"]] = match["value"]
                first_line.setdefault(match["index"], end)
            else:
                values[match["key"]] = match["value"]
            report.line_end = end
            end += 1
        for number, point in interim.items():
            if {"NETPERF_INTERIM_RESULT", "NETPERF_UNITS", "NETPERF_INTERVAL", "NETPERF_ENDING"} <= set(point):
                self._interim(
                    first_line[number],
                    point["NETPERF_INTERIM_RESULT"],
                    point["NETPERF_UNITS"],
                    point["NETPERF_INTERVAL"],
                    point["NETPERF_ENDING"],
                )
        if values:
            self._omni(report, values, index)
        return end

    def _is_csv(self, index: int) -> bool:
        """A -o title line: comma-separated fields with letters, the same number of values on the next line."""
        titles = omni.csv_fields(self.lines[index])
        if len(titles) < 2 or not all(re.search(r"[A-Za-z]", title) for title in titles):
            return False
        if not any(title in omni.SELECTOR_OF for title in titles):
            return False
        return bool(self.lines[index + 1].strip())

    def _csv(self, index: int) -> int:
        report = self._current(index)
        titles = omni.csv_fields(self.lines[index])
        values = omni.csv_fields(self.lines[index + 1])
        if len(values) != len(titles):
            report.problems.append(
                (index + 1, f"netperf CSV output with {len(titles)} titles and {len(values)} values: not read")
            )
            return index + 2
        report.line_end = index + 1
        self._omni(report, dict(zip(titles, values, strict=True)), index)
        return index + 2

    def _human_at(self, index: int) -> bool:
        """Whether an -O block starts at `index`: four header lines, then values under the first's columns."""
        header = self.lines[index : index + 4]
        return (
            len(header) == 4
            and index + 4 < len(self.lines)
            and bool(header[0].strip())
            and omni.human_columns(header, self.lines[index + 4]) is not None
        )

    def _human(self, index: int) -> int:
        report = self._current(index)
        values: dict[str, str] = {}
        while index + 4 < len(self.lines) and self.lines[index].strip():
            columns = omni.human_columns(self.lines[index : index + 4], self.lines[index + 4])
            if columns is None:
                break
            values.update(columns)
            report.line_end = index + 4
            index += 5
            # Blocks of one -O selection (';' between selectors) are a blank line apart.
            if index + 1 < len(self.lines) and not self.lines[index].strip() and self.lines[index + 1].strip():
                index += 1
        self._omni(report, values, report.line_end)
        return index

    def _omni(self, report: NetperfReport, values: dict[str, str], index: int) -> None:
        error = omni.read_values(values, report.metrics)
        if error:
            report.problems.append((index, error))

    # -- after every line ------------------------------------------------------------------------

    def _finish(self, report: NetperfReport) -> None:
        metrics = report.metrics
        rate = omni.transaction_rate(metrics)
        if rate is not None and "transactions_per_s" not in metrics and is_request_response(test_name(metrics, {})):
            metrics["transactions_per_s"] = rate
        points = metrics.pop("interim", [])
        if points:
            # The first interval starts when the test did: its ending less its span.
            start = points[0]["ending"] - points[0]["span_s"]
            metrics["intervals"] = [
                {
                    "start_s": round(point["ending"] - point["span_s"] - start, 3),
                    "end_s": round(point["ending"] - start, 3),
                    **{key: value for key, value in point.items() if key.endswith("_per_s")},
                }
                for point in points
            ]
        if not report.has_results() and not report.problems:
            after = next(
                (
                    line.strip()
                    for line in self.lines[report.line_start + 1 :]
                    if line.strip() and not BANNER.match(line)
                ),
                None,
            )
            said = f": {after}" if after else ""
            if "banner_test" in metrics:
                report.problems.append((report.line_start, f"netperf printed no result after its banner{said}"))
            else:
                report.problems.append((report.line_start, "netperf output without a throughput, rate or latency"))


def parse(text: str) -> list[NetperfReport]:
    return _Parser(text.split("\n")).run()


def test_name(metrics: dict[str, Any], asked: dict[str, Any]) -> str | None:
    """The classic name of the test a report ran: TCP_STREAM, UDP_RR, TCP_CRR... An omni test's is
    its protocol and direction's (`-t omni -- -d rr` is TCP_RR); a banner this does not know, as printed."""
    banner = metrics.get("banner_test")
    if banner in TESTS:
        return TESTS[banner]
    if banner is not None and not banner.startswith("OMNI"):
        return banner.replace(" ", "_")
    direction = (metrics.get("direction") or (banner or "").removeprefix("OMNI").strip()).lower()
    if not direction and asked.get("direction"):
        direction = _DIRECTION_WORDS.get(asked["direction"], asked["direction"])
    protocol = metrics.get("protocol") or asked.get("protocol") or "TCP"
    kind = _OMNI_DIRECTIONS.get(direction)
    if kind:
        return f"{protocol}_{kind}"
    test = asked.get("test")
    return None if test in (None, "OMNI") else test


def is_request_response(test: str | None) -> bool:
    return bool(test) and test.endswith(("_RR", "_CRR", "_CC"))


def params(report: NetperfReport, command: str | None) -> tuple[dict[str, Any], list[str]]:
    metrics = report.metrics
    asked = options.command_params(command) if command else {}
    warnings: list[str] = []
    result: dict[str, Any] = {key: value for key, value in asked.items() if key not in ("test", "direction")}
    test = test_name(metrics, asked)
    if test:
        result["test"] = test
    if asked.get("test") and test and asked["test"] not in (test, "OMNI") and metrics.get("banner_test") in TESTS:
        warnings.append(f"the command asks for {asked['test']} but netperf printed a {test} test")
    if metrics.get("banner_test", "").startswith("OMNI") or asked.get("test") == "OMNI":
        result["omni"] = True
    if metrics.get("target"):
        result["target"] = metrics["target"]
    result["protocol"] = metrics.get("protocol") or asked.get("protocol") or (test.split("_")[0] if test else None)
    # The sizes the test ran with, as it printed them; else as asked; else netperf's documented
    # default for a request/response test (one byte each way).
    for key in ("message_bytes", "request_bytes", "response_bytes"):
        if key in metrics:
            result[key] = metrics[key]
    if is_request_response(test):
        result.setdefault("request_bytes", 1)
        result.setdefault("response_bytes", 1)
    return {key: value for key, value in result.items() if value is not None}, warnings

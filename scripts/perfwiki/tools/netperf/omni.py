"""netperf's omni output: the values its output selectors name, in the three forms it prints them.

The omni code (netperf 2.5 and later; every classic test it migrated too) prints the selected
values as `-k` key=value lines, `-o` CSV (a line of titles, then a line of values) or `-O`
columns under four header lines. A CSV or column title is the selector's header lines joined by
spaces, as src/nettest_omni.c's set_output_elt() defines them: THROUGHPUT_UNITS is
"Throughput Units", P99_LATENCY "99th Percentile Latency Microseconds".

`-O`, as netperf's own manual shows it (`netperf -t omni -- -d rr -O "THROUGHPUT,THROUGHPUT_UNITS"`)::

    Throughput Throughput
               Units


    60492.57   Trans/s

Each column is as wide as its longest header line (or value) plus one: a value starts in the
column where its header does.
"""

from __future__ import annotations

import re
from typing import Any

from ... import lazyre

# Selector -> its title, for the selectors whose values a run keeps; any other is kept as printed.
TITLES: dict[str, str] = {
    "THROUGHPUT": "Throughput",
    "THROUGHPUT_UNITS": "Throughput Units",
    "ELAPSED_TIME": "Elapsed Time (sec)",
    "PROTOCOL": "Protocol",
    "DIRECTION": "Direction",
    "SOCKET_TYPE": "Socket Type",
    "DEST_ADDR": "Destination Address",
    "MIN_LATENCY": "Minimum Latency Microseconds",
    "MAX_LATENCY": "Maximum Latency Microseconds",
    "P50_LATENCY": "50th Percentile Latency Microseconds",
    "P90_LATENCY": "90th Percentile Latency Microseconds",
    "P99_LATENCY": "99th Percentile Latency Microseconds",
    "MEAN_LATENCY": "Mean Latency Microseconds",
    "STDDEV_LATENCY": "Stddev Latency Microseconds",
    "TRANSACTION_RATE": "Transaction Rate Tran/s",
    "RT_LATENCY": "Round Trip Latency usec/tran",
    "REQUEST_SIZE": "Request Size Bytes",
    "RESPONSE_SIZE": "Response Size Bytes",
    "LOCAL_SEND_SIZE": "Local Send Size",
    "REMOTE_SEND_SIZE": "Remote Send Size",
    "LSS_SIZE_END": "Local Send Socket Size Final",
    "LSR_SIZE_END": "Local Recv Socket Size Final",
    "RSS_SIZE_END": "Remote Send Socket Size Final",
    "RSR_SIZE_END": "Remote Recv Socket Size Final",
    "LOCAL_TRANSPORT_RETRANS": "Local Transport Retransmissions",
    "REMOTE_TRANSPORT_RETRANS": "Remote Transport Retransmissions",
    "TRANSPORT_MSS": "Transport MSS bytes",
    "CONFIDENCE_ITERATION": "Confidence Iterations Run",
    "THROUGHPUT_CONFID": "Throughput Confidence Width (%)",
    "LOCAL_CPU_UTIL": "Local CPU Util %",
    "REMOTE_CPU_UTIL": "Remote CPU Util %",
}
SELECTOR_OF = {title: selector for selector, title in TITLES.items()}

# Selector -> the metric its number goes to. Latencies are in microseconds, as netperf prints them.
NUMBERS: dict[str, str] = {
    "ELAPSED_TIME": "elapsed_s",
    "MIN_LATENCY": "latency_min_us",
    "MAX_LATENCY": "latency_max_us",
    "P50_LATENCY": "latency_p50_us",
    "P90_LATENCY": "latency_p90_us",
    "P99_LATENCY": "latency_p99_us",
    "MEAN_LATENCY": "latency_mean_us",
    "STDDEV_LATENCY": "latency_stddev_us",
    "RT_LATENCY": "round_trip_latency_us",
    "REQUEST_SIZE": "request_bytes",
    "RESPONSE_SIZE": "response_bytes",
    "LOCAL_SEND_SIZE": "message_bytes",
    "LSS_SIZE_END": "local_send_socket_bytes",
    "LSR_SIZE_END": "local_recv_socket_bytes",
    "RSS_SIZE_END": "remote_send_socket_bytes",
    "RSR_SIZE_END": "remote_recv_socket_bytes",
    "LOCAL_TRANSPORT_RETRANS": "local_retransmits",
    "REMOTE_TRANSPORT_RETRANS": "remote_retransmits",
    "TRANSPORT_MSS": "mss_bytes",
    "CONFIDENCE_ITERATION": "confidence_iterations",
    "THROUGHPUT_CONFID": "confidence_width_pct",
    "LOCAL_CPU_UTIL": "cpu_local_pct",
    "REMOTE_CPU_UTIL": "cpu_remote_pct",
}
# netperf prints -1 for what it could not measure (retransmissions over UDP, no confidence asked).
_NOT_MEASURED = {"-1", "-1.000", "-1.00"}

# The units netperf prints a throughput in (src/netlib.c format_units(), then "/s" or "/sec"):
# -f k, m, g are 10^3, 10^6, 10^9 bits; -f K, M, G are KBytes, MBytes, GBytes of 1024^n bytes.
UNIT = lazyre.compile(r"^(?:10\^(?P<power>\d+)bits|(?P<prefix>[KMG]?)Bytes|(?P<trans>Trans))(?:/s|/sec)?$")
_BYTE_PREFIX = {"": 1, "K": 2**10, "M": 2**20, "G": 2**30}

# A -k line: `THROUGHPUT=59092.65`, or an interim result's `NETPERF_INTERIM_RESULT[2]=25.00`.
KEYVAL = lazyre.compile(r"^\s*(?P<key>[A-Z][A-Z0-9_]*)(?:\[(?P<index>\d+)\])?=(?P<value>.*?)\s*$")


def throughput(value: str, unit: str) -> tuple[str, float] | None:
    """('bits_per_s', rate) or ('transactions_per_s', rate) from a value and its printed unit; None for
    a unit this does not know ("Usec", netperf's -f u)."""
    match = UNIT.match(unit.strip())
    number = _number(value)
    if not match or number is None:
        return None
    if match["trans"]:
        return "transactions_per_s", number
    if match["power"] is not None:
        return "bits_per_s", _exact(number * 10 ** int(match["power"]))
    return "bits_per_s", _exact(number * _BYTE_PREFIX[match["prefix"]] * 8)


def _number(text: str) -> float | int | None:
    text = text.strip()
    if re.fullmatch(r"-?\d+", text):
        return int(text)
    if re.fullmatch(r"-?\d+\.\d*|-?\.\d+", text):
        return float(text)
    return None


def _exact(value: float) -> float | int:
    """A rate scaled from netperf's two decimals: a whole number stays whole (2997.84 Mbit/s is 2997840000)."""
    rounded = round(value, 3)
    return int(rounded) if rounded == int(rounded) else rounded


def read_values(values: dict[str, str], metrics: dict[str, Any]) -> str | None:
    """Fill `metrics` from {selector or title: printed text}; the error, if its throughput unit is unknown."""
    by_selector = {SELECTOR_OF.get(key, key): text.strip() for key, text in values.items()}
    metrics["omni"] = dict(values)
    for selector, key in NUMBERS.items():
        text = by_selector.get(selector)
        number = None if text is None or text in _NOT_MEASURED else _number(text)
        if number is not None:
            metrics[key] = number
    if "PROTOCOL" in by_selector:
        metrics["protocol"] = by_selector["PROTOCOL"].upper()
    if "DIRECTION" in by_selector:
        metrics["direction"] = by_selector["DIRECTION"]
    if "THROUGHPUT" in by_selector:
        unit = by_selector.get("THROUGHPUT_UNITS")
        if unit is None:
            return "netperf THROUGHPUT printed without THROUGHPUT_UNITS: its unit is unknown, so it is not read"
        read = throughput(by_selector["THROUGHPUT"], unit)
        if read is None:
            return f"netperf throughput unit {unit!r} not understood"
        metrics[read[0]] = read[1]
        metrics["throughput_units"] = unit
    return None


def transaction_rate(metrics: dict[str, Any]) -> float | int | None:
    """TRANSACTION_RATE as printed, if it was selected. Only a request/response test's means
    anything: a stream test prints 1.000 there."""
    values = metrics.get("omni") or {}
    text = values.get("TRANSACTION_RATE", values.get(TITLES["TRANSACTION_RATE"]))
    return None if text is None else _number(text)


def csv_fields(line: str) -> list[str]:
    return [field.strip() for field in line.split(",")]


def human_columns(header: list[str], values: str) -> dict[str, str] | None:
    """{title: value} of one `-O` block: four header lines and the line of values under them; None
    when a value does not start where a column's first header line does (not an -O block)."""
    starts = [match.start() for match in re.finditer(r"\S+", values)]
    first = header[0]
    if not starts or any(
        start >= len(first) or first[start] == " " or (start and first[start - 1] != " ") for start in starts
    ):
        return None
    columns: dict[str, str] = {}
    bounds = [*starts, None]
    for index, start in enumerate(starts):
        end = bounds[index + 1]
        words = [line[start:end].strip() for line in header]
        title = " ".join(word for word in words if word)
        columns[title] = values[start:end].strip()
    return columns

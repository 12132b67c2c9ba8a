"""ping's command line: its options (iputils/BSD getopt style, Windows' /n 4), and what they add to a
run: target kind, payload, count, deadline, interval, and each reply's place on the time axis.

    $ ping -c 20 -i 0.2 -D 10.77.0.2      ->  count 20, interval_s 0.2, timestamps
    > ping -n 4 -l 1400 10.0.0.1          ->  (Windows) count 4, payload_bytes 1400
"""

from __future__ import annotations

import ipaddress
import re
from decimal import Decimal
from typing import TYPE_CHECKING, Any

from ... import units
from ...shell import programs

if TYPE_CHECKING:
    from .parser import PingReport

# The first sequence number each family sends (iputils 1, BSD and busybox 0); Windows prints none,
# and its replies are numbered here from 1.
_FIRST_SEQ = {"iputils": 1, "bsd": 0, "busybox": 0, "windows": 1}


# -- the command ---------------------------------------------------------------------------------

# Options that take a value, per family: getopt style ("-c5", "-c 5", "-qc 5"); Windows also "/n 4".
_VALUED = {
    "unix": set("cisWwtIpQlMmSFTe"),
    "windows": set("nlwiSrsjkv"),
}


def _options(command: str, windows: bool) -> tuple[dict[str, str | bool], str | None]:
    """The options of the ping in a command line (`sudo ping -c 5 host | tee x`), and the program.

    `windows`: the output is Windows ping's, whose options differ (-n count, -l size, -i TTL)."""
    for program, _, words in programs(command):
        if program not in ("ping", "ping6", "ping.exe"):
            continue
        windows = windows or program == "ping.exe"
        valued = _VALUED["windows" if windows else "unix"]
        options: dict[str, str | bool] = {}
        index = 0
        while index < len(words):
            word = words[index]
            index += 1
            if windows and re.match(r"^[-/][a-zA-Z]$", word):
                word = "-" + word[1:]
            if not word.startswith("-") or word == "-" or word.startswith("--"):
                continue
            for position, letter in enumerate(word[1:], start=1):
                if letter in valued:
                    value = word[position + 1 :]
                    if not value and index < len(words):
                        value, index = words[index], index + 1
                    options[letter] = value
                    break
                options[letter] = True
        return options, program
    return {}, None


def _number(text: str | bool | None) -> units.Number | None:
    if not isinstance(text, str) or not re.fullmatch(r"\d+(?:\.\d+)?|\.\d+", text):
        return None
    return units.normalize(Decimal(text))


def _family(address: str | None) -> str | None:
    try:
        return f"ipv{ipaddress.ip_address((address or '').split('%')[0]).version}"
    except ValueError:
        return None


def _target_kind(address: str | None, broadcast: bool) -> str | None:
    if broadcast:
        return "broadcast"
    try:
        parsed = ipaddress.ip_address((address or "").split("%")[0])
    except ValueError:
        return None
    if parsed.is_loopback:
        return "loopback"
    return "multicast" if parsed.is_multicast else "host"


def params(report: PingReport, command: str | None) -> tuple[dict[str, Any], list[str]]:
    """Target, payload and interval, count and deadline; and each reply's place on the run's time axis.

    The time axis needs the interval, which only the command gives, so the replies without a -D
    timestamp get their `t_s` here: (sequence number − the first one) × interval.
    """
    metrics = report.metrics
    windows = metrics.get("variant") == "windows"
    options, _ = _options(command, windows) if command else ({}, None)
    result: dict[str, Any] = {}
    warnings: list[str] = []
    for key in ("target", "address", "payload_bytes"):
        if metrics.get(key) is not None:
            result[key] = metrics[key]
    result["family"] = _family(metrics.get("address"))
    broadcast = bool(metrics.get("broadcast")) or (options.get("b") is True and not windows)
    result["target_kind"] = _target_kind(metrics.get("address"), broadcast)
    size = _number(options.get("l" if windows else "s"))
    if "payload_bytes" not in result and size is not None:
        result["payload_bytes"] = size
    elif size is not None and size != result.get("payload_bytes"):
        warnings.append(f"the command asks for {size}-byte payloads, the output says {result['payload_bytes']}")
    count = _number(options.get("n" if windows else "c"))
    if count is not None:
        result["count"] = count
        sent = metrics.get("packets_sent")
        deadline = not windows and "w" in options
        if sent is not None and sent < count and not deadline:
            warnings.append(f"{sent} of the {count} packets asked for (-c {count}) were sent: ping was stopped early")
    if not windows and (deadline_s := _number(options.get("w"))) is not None:
        result["deadline_s"] = deadline_s
    # Windows' -i is the TTL; its interval is fixed at about a second.
    interval = None if windows else _number(options.get("i"))
    if interval is None and options.get("f") is True:
        interval = 0  # flood: the next request as soon as a reply comes back
        result["flood"] = True
    if options.get("A") is True and not windows:
        result["adaptive"] = True  # the interval follows the round-trip time: no one interval to name
    elif interval is None and command:
        interval = 1  # ping's default
    result["interval_s"] = interval
    if options.get("D") is True:
        result["timestamps"] = True
    _time_axis(metrics, interval)
    return result, warnings


def _time_axis(metrics: dict[str, Any], interval: units.Number | None) -> None:
    """Fill each reply's, timeout's and error's `t_s` that no -D timestamp gave: sequence number times
    the interval; the mean gap ping printed (ipg) when it adapted the interval (-A); else 1 s."""
    entries = [*metrics.get("replies", []), *metrics.get("timeouts", []), *metrics.get("icmp_errors", [])]
    if not entries:
        return
    if any("epoch_s" in entry for entry in entries):
        metrics["time_axis"] = "timestamps"
        return
    if interval is not None:
        metrics["time_axis"], step = "interval", Decimal(str(interval))
    elif metrics.get("ipg_ms") is not None:  # -A: the interval followed the replies; ping says its mean
        metrics["time_axis"], step = "mean gap", Decimal(str(metrics["ipg_ms"])) / 1000
    else:  # no command shown: ping's default interval
        metrics["time_axis"], step = "default interval", Decimal(1)
    first = _FIRST_SEQ.get(metrics.get("variant") or "", 1)
    # A mean gap is a few µs under -A on loopback: to 0.1 ms, what an approximate axis can claim (and
    # no float under 1e-4, which JSON encoders spell differently: 6e-6 or 6e-06).
    places = Decimal("0.0001") if metrics["time_axis"] == "mean gap" else None
    for entry in entries:
        if entry.get("seq") is not None:
            at = Decimal(entry["seq"] - first) * step
            entry["t_s"] = units.normalize(at.quantize(places) if places else at)


def command_fits(report: PingReport, command: str) -> bool:
    """A ping command shown apart from its output fits when it names the output's target."""
    _, program = _options(command, report.metrics.get("variant") == "windows")
    target = report.metrics.get("target")
    return program is not None and bool(target) and target in command.split()

"""Every unit conversion perfwiki does, in one place.

Parsers hand this module the exact text a tool printed ("927MiB/s", "6813.5k",
"54.5GiB", "1m") and get canonical values back: bytes, bytes per second,
nanoseconds, seconds. Display helpers go the other way, with explicit SI or IEC
labels.

Arithmetic is exact, as Decimal's, so that "4476.22 msec" becomes exactly
4476220000 ns, not 4476220000.0000005; plain numbers such as that one take an
integer path that gives the same results without Decimal (_fixed_point).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation

from . import lazyre

Number = int | float

# SI prefixes, always powers of 1000: fio counts and latencies (6813.5k, 188k,
# 1.2M; fio 2.x writes upper-case K), SI byte sizes (kB) and dd's rates (MB/s).
SI_PREFIX = {"": 1, "k": 10**3, "K": 10**3, "M": 10**6, "G": 10**9, "T": 10**12, "P": 10**15, "E": 10**18}

# IEC byte-size prefixes as fio 2.17+ prints them (KiB).
_IEC = {"Ki": 2**10, "Mi": 2**20, "Gi": 2**30, "Ti": 2**40, "Pi": 2**50, "Ei": 2**60}

# Latency units fio prints in "(nsec)", "(usec)", "(msec)" headers.
_TIME_UNIT_NS = {
    "nsec": 1,
    "ns": 1,
    "usec": 10**3,
    "us": 10**3,
    "msec": 10**6,
    "ms": 10**6,
    "sec": 10**9,
    "s": 10**9,
    "min": 60 * 10**9,
    "hour": 3600 * 10**9,
}

_NUMBER_WITH_SUFFIX = lazyre.compile(r"^\s*(?P<num>-?\d+(?:\.\d+)?)\s*(?P<suffix>[kKMGTP]?)\s*$")
_SIZE = lazyre.compile(r"^\s*(?P<num>\d+(?:\.\d+)?)\s*(?P<prefix>[KMGTPE]i|[kKMGTPE])?(?P<unit>B|bit)?\s*$")


class UnitError(ValueError):
    """A value that does not read as the unit the caller expected."""


def _decimal(text: str) -> Decimal:
    try:
        return Decimal(text)
    except InvalidOperation as exc:  # pragma: no cover - guarded by the regexes
        raise UnitError(f"not a number: {text!r}") from exc


def normalize(value: Decimal) -> Number:
    """An int when the value is integral, else a float: YAML stays readable."""
    if value == value.to_integral_value():
        return int(value)
    return float(value)


# Decimal's default context keeps 28 significant digits: a product below this is exact there.
_DECIMAL_DIGITS = 28
_DECIMAL_EXACT = 10**_DECIMAL_DIGITS
_POWERS_OF_TEN = tuple(10**places for places in range(_DECIMAL_DIGITS + 1))


def _fixed_point(text: str, factor: int) -> Number | None:
    """normalize(Decimal(text) * factor) for a plain ASCII "4476" or "4476.22" and an int factor,
    without Decimal (20x slower, and most of what fio's text output costs to read); None for
    any other text, which the caller reads through Decimal as before.

    The result is the same value: integers are exact, and a fraction is one division of two
    integers, which Python rounds correctly, as float(Decimal) does.
    """
    if text.isdigit() and text.isascii() and len(text) <= _DECIMAL_DIGITS:  # a whole number: "76960"
        numerator = int(text) * factor
        return numerator if numerator < _DECIMAL_EXACT else None
    whole, dot, fraction = text.partition(".")
    digits = whole + fraction
    if not (digits.isdigit() and digits.isascii()) or not whole or (dot and not fraction):
        return None  # a sign, spaces, an exponent, "5." or ".5", non-ASCII digits: Decimal's to read
    if len(digits) > _DECIMAL_DIGITS or (numerator := int(digits) * factor) >= _DECIMAL_EXACT:
        return None  # Decimal would round this product; let it
    if not fraction:
        return numerator
    if factor == 1 and fraction.strip("0"):
        return float(text)  # the decimal as printed, which float reads correctly rounded too
    denominator = _POWERS_OF_TEN[len(fraction)]
    return numerator / denominator if numerator % denominator else numerator // denominator


def _times(text: str, factor: int) -> Number:
    """The printed number `text` times an integer unit factor, exactly (see _fixed_point)."""
    plain = _fixed_point(text, factor)
    return normalize(_decimal(text) * factor) if plain is None else plain


def parse_count(text: str) -> Number:
    """'188k' -> 188000, '6813.5k' -> 6813500, '872' -> 872, '1343.6K' -> 1343600."""
    match = _NUMBER_WITH_SUFFIX.match(text)
    if not match:
        raise UnitError(f"not a count: {text!r}")
    return _times(match["num"], SI_PREFIX[match["suffix"]])


def parse_size(text: str) -> Number:
    """Bytes from a size with an explicit IEC or SI prefix: '54.5GiB', '972MB', '4096B'."""
    match = _SIZE.match(text)
    number, prefix, unit = match.groups() if match else (None, None, None)
    if not (prefix or unit):
        raise UnitError(f"not a size: {text!r}")
    factor = _IEC.get(prefix) or SI_PREFIX[prefix or ""]
    if unit == "bit":
        return normalize(_decimal(number) * factor / 8)
    return _times(number, factor)


# fio before 2.17 prints sizes with K/M/G/T/P meaning powers of 1024 under its
# default kb_base=1024 ("48273KB/s" is 48273 KiB/s); a bare number is bytes.
_FIO2_SIZE = lazyre.compile(r"^\s*(?P<num>\d+(?:\.\d+)?)\s*(?P<prefix>[KMGTPE])?B?\s*$")


def parse_fio2_size(text: str) -> Number:
    """Bytes from a fio 2.x size: '1024.0MB' -> 1073741824, '150928KB', '514874 B'."""
    match = _FIO2_SIZE.match(text)
    if not match:
        raise UnitError(f"not a fio 2.x size: {text!r}")
    power = "KMGTPE".index(match["prefix"]) + 1 if match["prefix"] else 0
    return _times(match["num"], 1024**power)


def parse_fio2_rate(text: str) -> Number:
    """Bytes per second from a fio 2.x rate: '48273KB/s', '1936.3MB/s', '514874 B/s'."""
    stripped = text.strip()
    if not stripped.endswith("/s"):
        raise UnitError(f"not a rate: {text!r}")
    return parse_fio2_size(stripped[:-2])


def parse_rate(text: str) -> Number:
    """Bytes per second from '927MiB/s', '972MB/s', '0KiB/s'."""
    stripped = text.strip()
    if not stripped.endswith("/s"):
        raise UnitError(f"not a rate: {text!r}")
    return parse_size(stripped[:-2])


def to_ns(value: str | Decimal, unit: str) -> Number:
    """Nanoseconds from a value printed in 'nsec', 'usec', 'msec' or 'sec'.

    The value may carry fio's count suffix: 'max=6813.5k' in a '(nsec)' line is
    6 813 500 ns.
    """
    factor = ns_per(unit)
    if isinstance(value, Decimal):
        return normalize(value * factor)
    if value.isdigit():  # a percentile's "[ 7013]": exact in integers, and 20x cheaper than Decimal
        return int(value) * factor
    plain = _fixed_point(value, factor)  # "avg=38596.13": most latency values
    if plain is not None:
        return plain
    match = _NUMBER_WITH_SUFFIX.match(value)
    if not match:
        raise UnitError(f"not a latency: {value!r}")
    plain = _fixed_point(match["num"], SI_PREFIX[match["suffix"]] * factor)  # "max=6813.5k"
    if plain is not None:
        return plain
    return normalize(_decimal(match["num"]) * SI_PREFIX[match["suffix"]] * factor)


def ns_per(unit: str) -> int:
    """Nanoseconds in one 'nsec', 'usec', 'msec' or 'sec': a table of values in one unit is read with one lookup."""
    if unit not in _TIME_UNIT_NS:
        raise UnitError(f"unknown time unit: {unit!r}")
    return _TIME_UNIT_NS[unit]


def ms_to_ns(value: Number | None) -> Number | None:
    """fio reports runtimes in milliseconds; durations are displayed from nanoseconds."""
    return None if value is None else normalize(Decimal(str(value)) * _TIME_UNIT_NS["msec"])


def scaled(text: str, factor: Number) -> Number:
    """A printed plain number times a unit factor, exactly: ('894157.55', 1024) -> bytes."""
    if type(factor) is int and (plain := _fixed_point(text, factor)) is not None:
        return plain
    return normalize(_decimal(text) * Decimal(factor))


# fio option values (command line and job files) use kb_base=1024 by default:
# bs=4k is 4096 bytes, size=100G is 100 GiB. Explicit 'KiB'/'kB' forms exist too.
_FIO_OPTION_SIZE = lazyre.compile(r"^\s*(?P<num>\d+(?:\.\d+)?)\s*(?P<prefix>[kKmMgGtTpP])?(?P<i>i)?(?P<b>[bB])?\s*$")


def parse_fio_option_size(text: str) -> Number:
    """Bytes from a fio option value: '4k' -> 4096, '1M' -> 1048576, '100G', '512'."""
    match = _FIO_OPTION_SIZE.match(text)
    if not match:
        raise UnitError(f"not a fio size: {text!r}")
    prefix = (match["prefix"] or "").upper()
    power = " KMGTP".index(prefix) if prefix else 0
    return _times(match["num"], 1024**power)


# dd operands: K/M/G are powers of 1024, kB/MB/GB powers of 1000, w=2 and b=512 bytes.
_DD_SIZE = lazyre.compile(r"^\s*(?P<num>\d+)(?P<suffix>c|w|b|kB|KB|K|k|MB|M|GB|G|TB|T|KiB|MiB|GiB|TiB)?\s*$")
_DD_FACTOR = {
    None: 1,
    "c": 1,
    "w": 2,
    "b": 512,
    "k": 1024,
    "K": 1024,
    "KiB": 1024,
    "M": 2**20,
    "MiB": 2**20,
    "G": 2**30,
    "GiB": 2**30,
    "T": 2**40,
    "TiB": 2**40,
    "kB": 1000,
    "KB": 1000,
    "MB": 10**6,
    "GB": 10**9,
    "TB": 10**12,
}


def parse_dd_size(text: str) -> int:
    """Bytes from a dd operand: 'bs=1M' -> 1048576, '1MB' -> 1000000, '4k' -> 4096."""
    match = _DD_SIZE.match(text)
    if not match:
        raise UnitError(f"not a dd size: {text!r}")
    return int(match["num"]) * _DD_FACTOR[match["suffix"]]


_FIO_TIME = lazyre.compile(r"^\s*(?P<num>\d+(?:\.\d+)?)\s*(?P<unit>us|usec|ms|msec|s|sec|m|min|h|d)?\s*$")
# Whole seconds as ints, read exactly without Decimal (_times); fractions of a second as Decimal.
_FIO_TIME_S: dict[str | None, int | Decimal] = {
    None: 1,
    "s": 1,
    "sec": 1,
    "m": 60,
    "min": 60,
    "h": 3600,
    "d": 86400,
    "ms": Decimal("0.001"),
    "msec": Decimal("0.001"),
    "us": Decimal("0.000001"),
    "usec": Decimal("0.000001"),
}


def parse_fio_option_seconds(text: str) -> Number:
    """Seconds from a fio time option: '1m' -> 60, '2s' -> 2, '30' -> 30 (fio's default unit)."""
    match = _FIO_TIME.match(text)
    if not match:
        raise UnitError(f"not a fio time: {text!r}")
    seconds = _FIO_TIME_S[match["unit"]]
    if type(seconds) is int:
        return _times(match["num"], seconds)
    return normalize(_decimal(match["num"]) * seconds)


# ---------------------------------------------------------------------------
# Display: chosen at render time, always with an explicit SI or IEC label.

# The display strings of single values are kept: run pages show the same numbers again and
# again (fio prints latency percentiles at its histogram's bucket values; the 156 distinct
# shipped runs made 10,467 format_ns calls for 2,200 values). typed: 1 and 1.0 are kept apart.
_remembered = functools.lru_cache(maxsize=8192, typed=True)


def _significant(value: float, digits: int = 4) -> str:
    """A number with at most `digits` significant digits and no exponent."""
    if value == 0:
        return "0"
    text = f"{value:.{digits}g}"
    if "e" in text:
        text = f"{value:.0f}"
    return text


_PRINTED_NUMBER = lazyre.compile(r"\d+(?:[.,](\d+))?")


def last_digit(printed: str) -> float:
    """One unit of a printed number's last digit, relative to the number: how far a tool's
    rounding (or truncation) can have moved it. '1092.1MB/s' -> 0.1/1092.1, '23,0399' -> 1e-4/23.04."""
    number = _PRINTED_NUMBER.search(printed)
    value = float(number.group(0).replace(",", ".")) if number else 0.0
    if not value:
        return 1.0
    return 10 ** -len(number.group(1) or "") / value


@_remembered
def format_bytes_per_s(value: Number | None, convention: str = "iec") -> str | None:
    """927 MiB/s (IEC) or 972 MB/s (SI); None stays None (shown as missing, never 0)."""
    if value is None:
        return None
    if convention == "iec":
        steps, base = ["B/s", "KiB/s", "MiB/s", "GiB/s", "TiB/s"], 1024
    else:
        steps, base = ["B/s", "kB/s", "MB/s", "GB/s", "TB/s"], 1000
    scaled = float(value)
    index = 0
    while scaled >= base and index < len(steps) - 1:
        scaled /= base
        index += 1
    return f"{_significant(scaled)} {steps[index]}"


@_remembered
def format_bits_per_s(value: Number | None) -> str | None:
    """Network rates in SI bits, the way iperf3 prints them: 8.33 Gbit/s."""
    if value is None:
        return None
    for unit, factor in (("Tbit/s", 10**12), ("Gbit/s", 10**9), ("Mbit/s", 10**6), ("kbit/s", 10**3)):
        if abs(value) >= factor:
            return f"{_significant(value / factor, 3)} {unit}"
    return f"{_significant(float(value), 3)} bit/s"


def format_value(value: Number | None, unit: str) -> str | None:
    """Any comparison value in its canonical unit, shown with an explicit label."""
    if value is None:
        return None
    if unit == "B/s":
        return format_bytes_per_s(value)
    if unit == "bit/s":
        return format_bits_per_s(value)
    if unit == "ns":
        return format_ns(value)
    if unit in ("IOPS", "events/s"):
        return format_count(value)
    if unit == "count":
        return str(int(value))
    return _significant(float(value), 6)


def byte_quantity(value: Number | None, unit: str, printed: str = "iec") -> dict[str, str] | str | None:
    """A bytes or bytes/s value in both conventions, shown by default as the tool printed it (`printed`).

    Returns {"text", "si", "iec"} for byte units (the page's unit toggle swaps them),
    the plain display string for any other unit, and None when the value is missing.
    """
    if value is None:
        return None
    if unit not in ("B/s", "B"):
        return format_value(value, unit)
    suffix = unit == "B/s"
    show = format_bytes_per_s if suffix else format_bytes
    iec, si = show(value, "iec"), show(value, "si")
    return quantity(si if printed == "si" else iec, si, iec)


def quantity(text: str, si: str, iec: str) -> dict[str, str]:
    """A byte quantity as documents hold it: {si, iec}, and its `text` only when that is not its IEC
    spelling (a tool that printed SI prefixes). _partials/quantity.html shows `.text | default .iec`.
    Made compact here, not by a pass over every document: that pass was 9 % of building a report."""
    return {"si": si, "iec": iec} if text == iec else {"text": text, "si": si, "iec": iec}


def quantity_text(shown: dict[str, str] | str) -> str:
    """What a quantity (or a plain display string) reads as by default."""
    if isinstance(shown, dict):
        return shown["text"] if "text" in shown else shown["iec"]  # a plain {text} cell has no iec
    return shown


def format_relative(relative: float | None) -> str | None:
    """value / baseline: 1.256 -> '126%', 0.8253 -> '82.5%'; past 20x a ratio reads better: 147.2 -> '147×'."""
    if relative is None:
        return None
    if relative >= 20:
        return f"{relative:.0f}×"
    percent = relative * 100
    return f"{percent:.0f}%" if percent >= 100 else f"{percent:.3g}%"


def format_bytes(value: Number | None, convention: str = "iec") -> str | None:
    rate = format_bytes_per_s(value, convention)
    return rate[:-2] if rate else None


@_remembered
def format_ns(value: Number | None) -> str | None:
    """A latency in the largest unit that keeps it >= 1: '4476 ms' style, µs for micro."""
    if value is None:
        return None
    for unit, factor in (("s", 10**9), ("ms", 10**6), ("µs", 10**3)):
        if abs(value) >= factor:
            return f"{_significant(value / factor)} {unit}"
    return f"{_significant(float(value))} ns"


@_remembered
def format_count(value: Number | None) -> str | None:
    """IOPS and other counts: 872, 58.6k, 1.2M — the way fio itself abbreviates."""
    if value is None:
        return None
    for suffix, factor in (("M", 10**6), ("k", 10**3)):
        if abs(value) >= 10 * factor:
            return f"{_significant(value / factor)}{suffix}"
    return _significant(float(value), 6)


# ---------------------------------------------------------------------------
# One prefix per column or axis: a table column or a chart axis never mixes
# "981 KiB/s" with "1.8 GiB/s"; every value in it is shown in the same unit.

# unit -> the steps of its display prefixes: (label, factor), smallest first.
_STEPS: dict[str, dict[str, tuple[tuple[str, float], ...]]] = {
    "B/s": {
        "iec": (("B/s", 1), ("KiB/s", 2**10), ("MiB/s", 2**20), ("GiB/s", 2**30), ("TiB/s", 2**40)),
        "si": (("B/s", 1), ("kB/s", 1e3), ("MB/s", 1e6), ("GB/s", 1e9), ("TB/s", 1e12)),
    },
    "B": {
        "iec": (("B", 1), ("KiB", 2**10), ("MiB", 2**20), ("GiB", 2**30), ("TiB", 2**40)),
        "si": (("B", 1), ("kB", 1e3), ("MB", 1e6), ("GB", 1e9), ("TB", 1e12)),
    },
    "bit/s": {"si": (("bit/s", 1), ("kbit/s", 1e3), ("Mbit/s", 1e6), ("Gbit/s", 1e9), ("Tbit/s", 1e12))},
    "ns": {"si": (("ns", 1), ("µs", 1e3), ("ms", 1e6), ("s", 1e9))},
    # Counts are shown whole, with thousands separators ("28,700", "195"), up to millions.
    "IOPS": {"si": (("", 1), ("M", 1e6))},
    "events/s": {"si": (("", 1), ("M", 1e6))},
}

# The largest number a scaled column shows before it moves to the next prefix: four
# digits, as fio prints "1854MiB/s" and "IOPS=8134"; three for networks, as iperf3 does.
_LIMIT = {"bit/s": 1000, "IOPS": 1e7, "events/s": 1e7}


@dataclass(frozen=True)
class Scale:
    """The one display unit of a column or axis: values are divided by `factor`, labelled `label`.

    `unit` is the canonical unit ('B/s'); `label` the display unit ('MiB/s', 'µs', '' or 'M'
    for counts such as IOPS, or the unit itself when it has no prefixes, as UnixBench's 'lps').
    """

    unit: str
    label: str
    factor: float

    @property
    def is_count(self) -> bool:
        return self.unit in ("IOPS", "events/s")

    @property
    def axis_title(self) -> str:
        """The unit an axis or a column caption states: 'MiB/s', 'IOPS', 'IOPS (M)'."""
        if self.is_count:
            return f"{self.unit} ({self.label})" if self.label else self.unit
        return self.label

    def number(self, value: Number) -> float:
        return float(value) / self.factor

    def text(self, value: Number | None) -> str | None:
        """'1854 MiB/s', '0.958 MiB/s', '188,000', '13.05 µs'; None stays None."""
        if value is None:
            return None
        shown = _significant(self.number(value))
        if self.is_count:
            number = self.number(value)
            return f"{number:,.0f}" if self.label == "" and abs(number) >= 100 else f"{shown}{self.label}"
        return f"{shown} {self.label}" if self.label else shown

    def said(self, value: Number) -> str | None:
        """The value in a sentence: counts name their unit ('82,493 IOPS'), others carry it."""
        shown = self.text(value)
        return f"{shown} {self.unit}" if shown is not None and self.is_count else shown


def scale_for(values: list[Number | None], unit: str, convention: str = "iec") -> Scale:
    """The prefix that shows the largest of `values` in at most four digits before the point.

    `convention` is 'iec' or 'si' for byte units; other units have one convention.
    """
    conventions = _STEPS.get(unit)
    if not conventions:
        return Scale(unit, unit, 1)
    steps = conventions.get(convention) or next(iter(conventions.values()))
    largest = max((abs(float(value)) for value in values if value is not None), default=0.0)
    limit = _LIMIT.get(unit, 10_000)
    label, factor = next(((label, factor) for label, factor in steps if largest / factor < limit), steps[-1])
    return Scale(unit, label, factor)


_BYTE_UNITS = ("B/s", "B")


class ColumnUnits:
    """One prefix per column, in each convention the page's unit switch offers."""

    def __init__(self, values: list[float | None], unit: str, printed: str):
        self.unit = unit
        self.printed = scale_for(values, unit, printed)
        self.alternatives = (
            {convention: scale_for(values, unit, convention) for convention in ("si", "iec")}
            if unit in _BYTE_UNITS
            else {}
        )

    def quantity(self, value: float | None) -> dict[str, str] | str | None:
        """A quantity() for byte units (the switch swaps them), else the display string."""
        if value is None:
            return None
        if not self.alternatives:
            return self.printed.text(value)
        return quantity(
            self.printed.text(value), self.alternatives["si"].text(value), self.alternatives["iec"].text(value)
        )

    def caption(self) -> dict[str, str] | str:
        """The unit the column's header states, switched with its numbers."""
        if not self.alternatives:
            return self.printed.axis_title
        return quantity(
            self.printed.axis_title, self.alternatives["si"].axis_title, self.alternatives["iec"].axis_title
        )

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
from typing import Any

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
# Display: the one number formatter. Every number a page, an export or a chart shows goes
# through these rules (js/format.js is their port, held to them character for character):
#
# - a count (IOPS, events/s, retransmits) is shown whole, with thousands separators: 8,361;
# - any other number shows three significant digits, trailing zeros kept (1.50×, 0.958 MiB/s,
#   13.1 µs), and from 1,000 on the whole number (1,056 MiB/s): never an invented zero; an exact
#   whole number is shown whole (4 KiB, 60 s), as no digit after its point is uncertain;
# - one prefix per column or axis (Scale, ColumnUnits), the one that shows its largest value in
#   at most four digits before the point, unless its values span more than three decades: then
#   each value takes its own, the prefix that gives it one to four digits (772 ns, 1.20 ms);
# - a ratio is a % of its baseline, or a × past 20× (format_relative), one form per column;
# - "as printed" is the tool's own token ("1056MiB/s", "IOPS=13k"), kept by its parser at parse
#   time (the `printed` maps of a run's metrics): a display of a value that has one takes it as
#   its `text` (quantity), which the page's unit switch shows under "as printed".

# The display strings of single values are kept: run pages show the same numbers again and
# again (fio prints latency percentiles at its histogram's bucket values; the 156 distinct
# shipped runs made 10,467 format_ns calls for 2,200 values). typed: 1 and 1.0 are kept apart.
_remembered = functools.lru_cache(maxsize=8192, typed=True)


def significant(value: float) -> str:
    """A computed number to three significant digits, trailing zeros kept: 1.5 -> '1.50', 0.8253 ->
    '0.825', 147.2 -> '147'; from 1000 on the whole number, 1056.4 -> '1,056'. No exponent ever:
    999.7 -> '1,000', 0.0000123 -> '0.0000123'."""
    if abs(value) >= 1000:
        return f"{value:,.0f}"
    text = f"{value:#.3g}"
    if "e" in text:  # rounded up to 1000, or below 0.0001: fixed-point digits, three of them significant
        exponent = int(text.partition("e")[2])
        return f"{value:,.0f}" if exponent >= 3 else f"{value:.{2 - exponent}f}"
    return text.rstrip(".")


def ratio_text(factor: float) -> str:
    """A speed factor or ratio, three significant digits: '1.50×', '23.2×', '147×', '1,442×'."""
    return f"{significant(factor)}×"


def whole(value: float) -> str:
    """A count as shown everywhere: whole, with thousands separators ('92,251', '8,361' for 8361.46)."""
    return f"{value:,.0f}"


def _number(value: float) -> str:
    """A measured number in its display unit: whole when it is exactly whole (4 KiB, 60 s, 1,056
    MiB/s), else three significant digits (significant)."""
    return whole(value) if float(value).is_integer() else significant(value)


_PRINTED_NUMBER = lazyre.compile(r"\d+(?:[.,](\d+))?")


def last_digit(printed: str) -> float:
    """One unit of a printed number's last digit, relative to the number: how far a tool's
    rounding (or truncation) can have moved it. '1092.1MB/s' -> 0.1/1092.1, '23,0399' -> 1e-4/23.04."""
    number = _PRINTED_NUMBER.search(printed)
    value = float(number.group(0).replace(",", ".")) if number else 0.0
    if not value:
        return 1.0
    return 10 ** -len(number.group(1) or "") / value


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
    # Counts have no prefix: shown whole, with thousands separators ("28,700", "1,200,000").
    "IOPS": {"si": (("", 1),)},
    "events/s": {"si": (("", 1),)},
    "trans/s": {"si": (("", 1),)},  # netperf's request/response transactions
    "count": {"si": (("", 1),)},
}
COUNT_UNITS = ("IOPS", "events/s", "trans/s", "count")

# The largest number a scaled column shows before it moves to the next prefix: four
# digits, as fio prints "1854MiB/s" and "IOPS=8134"; three for networks, as iperf3 does.
_LIMIT = {"bit/s": 1000}

# Past this ratio of its largest to its smallest value, a column or axis gives each value its own
# prefix: in one unit, the smallest of "772 ns" and "1.20 ms" would read "0.000772 ms".
PER_CELL_SPAN = 1000


@dataclass(frozen=True)
class Scale:
    """The one display unit of a column or axis: values are divided by `factor`, labelled `label`.

    `unit` is the canonical unit ('B/s'); `label` the display unit ('MiB/s', 'µs', '' for counts
    such as IOPS, or the unit itself when it has no prefixes, as UnixBench's 'lps'). A column whose
    values span more than three decades is `per_cell`: an axis still uses `label` and `factor`, but
    `text` gives each value its own prefix, in `convention`.
    """

    unit: str
    label: str
    factor: float
    convention: str = "iec"
    per_cell: bool = False

    @property
    def is_count(self) -> bool:
        return self.unit in COUNT_UNITS

    @property
    def axis_title(self) -> str:
        """The unit an axis or a column caption states: 'MiB/s', 'IOPS'."""
        return self.unit if self.is_count else self.label

    def number(self, value: Number) -> float:
        return float(value) / self.factor

    def text(self, value: Number | None) -> str | None:
        """'1,854 MiB/s', '0.958 MiB/s', '188,000', '13.1 µs'; None stays None."""
        return None if value is None else _scaled_text(self, value)

    def said(self, value: Number) -> str | None:
        """The value in a sentence: counts name their unit ('82,493 IOPS'), others carry it."""
        shown = self.text(value)
        return f"{shown} {self.unit}" if shown is not None and self.is_count and self.unit != "count" else shown


@_remembered
def _scaled_text(scale: Scale, value: Number) -> str:
    """Scale.text, kept: a run page's columns show the same latencies and rates again and again."""
    if scale.is_count:
        return whole(float(value))
    if scale.per_cell:
        return value_text(value, scale.unit, scale.convention)
    shown = _number(scale.number(value))
    return f"{shown} {scale.label}" if scale.label else shown


# The most values whose scale is kept: a table's column or a run's percentiles, not a chart's series.
_KEPT_SCALE = 32


def scale_for(values: list[Number | None], unit: str, convention: str = "iec") -> Scale:
    """The prefix that shows the largest of `values` in at most four digits before the point, or
    each value its own (`per_cell`) when they span more than three decades.

    `convention` is 'iec' or 'si' for byte units; other units have one convention.
    """
    if len(values) <= _KEPT_SCALE:
        return _kept_scale(tuple(values), unit, convention)
    return _scale(values, unit, convention)


@_remembered
def _kept_scale(values: tuple[Number | None, ...], unit: str, convention: str) -> Scale:
    return _scale(values, unit, convention)


def _scale(values: Any, unit: str, convention: str) -> Scale:
    conventions = _STEPS.get(unit)
    if not conventions:
        return Scale(unit, unit, 1)
    if convention not in conventions:
        convention = next(iter(conventions))
    steps = conventions[convention]
    sizes = [abs(value) for value in values if value]  # None and 0 say nothing of the span
    largest, smallest = (max(sizes), min(sizes)) if sizes else (0, 0)
    limit = _LIMIT.get(unit, 10_000)
    label, factor = next(((label, factor) for label, factor in steps if largest / factor < limit), steps[-1])
    per_cell = len(steps) > 1 and smallest > 0 and largest / smallest > PER_CELL_SPAN
    return Scale(unit, label, factor, convention, per_cell)


@_remembered
def value_text(value: Number | None, unit: str, convention: str = "iec") -> str | None:
    """One value on its own, in the prefix that gives it one to four digits before the point (three
    for bit/s): '1,056 MiB/s' (fio's 1056MiB/s, not 1.03 GiB/s), '772 ns', '941 µs', '8,361'; an
    exact whole number of a larger prefix in that one: '4 KiB', '2 ms'."""
    if value is None:
        return None
    conventions = _STEPS.get(unit)
    if not conventions:
        return f"{_number(value)} {unit}"  # a unit without prefixes, as Scale(unit, unit, 1) shows it
    if unit in COUNT_UNITS:
        return whole(value)
    # What scale_for([value]).text(value) says, without making a Scale: most values are shown alone.
    steps = conventions.get(convention) or next(iter(conventions.values()))
    size, limit = abs(value), _LIMIT.get(unit, 10_000)
    chosen = next((index for index, (_, factor) in enumerate(steps) if size / factor < limit), len(steps) - 1)
    if size:
        # An exact size or time reads in the largest prefix it is a whole number of: 4 KiB, 1 MiB,
        # 16 GiB, 2 ms (a block size, a bucket edge), not 4,096 B.
        for label, factor in steps[:chosen:-1]:
            if size >= factor and size % factor == 0:
                return f"{whole(value / factor)} {label}"
    label, factor = steps[chosen]
    return f"{_number(value / factor)} {label}"


def format_bytes_per_s(value: Number | None, convention: str = "iec") -> str | None:
    """1,056 MiB/s (IEC) or 1,107 MB/s (SI); None stays None (shown as missing, never 0)."""
    return value_text(value, "B/s", convention)


def format_bytes(value: Number | None, convention: str = "iec") -> str | None:
    """4 KiB, 61.9 GiB (IEC) or 66.5 GB (SI)."""
    return value_text(value, "B", convention)


def format_bits_per_s(value: Number | None) -> str | None:
    """Network rates in SI bits, three digits as iperf3 prints them: 9.41 Gbit/s, 941 Mbit/s."""
    return value_text(value, "bit/s")


def format_ns(value: Number | None) -> str | None:
    """A latency in the unit that gives it one to four digits before the point: 772 ns, 1,500 µs, 13.7 ms."""
    return value_text(value, "ns")


def format_ms(value: float) -> str:
    """A round-trip time in ms, as ping prints them, three significant digits: '0.0460 ms', '3.30 ms'."""
    return f"{significant(value)} ms"


def format_count(value: Number | None) -> str | None:
    """IOPS and other counts, whole with thousands separators: 872, 58,600, 8,361 (for 8361.46)."""
    return None if value is None else whole(float(value))


def format_value(value: Number | None, unit: str) -> str | None:
    """Any comparison value in its canonical unit, shown with an explicit label (a unit without
    prefixes, as UnixBench's 'lps', shows its number alone)."""
    if value is None:
        return None
    if unit in _STEPS:
        return value_text(value, unit)
    return _number(float(value))


def quantity(text: str, si: str, iec: str) -> dict[str, str]:
    """A switchable value as documents hold it: {si, iec}, and its `text` only when that is not its
    IEC spelling (a tool that printed SI prefixes, or a token as the tool printed it: "1056MiB/s").
    _partials/quantity.html shows `.text | default .iec`; the unit switch swaps in `si` or `iec`.
    Made compact here, not by a pass over every document: that pass was 9 % of building a report."""
    return {"si": si, "iec": iec} if text == iec else {"text": text, "si": si, "iec": iec}


def shown(value: Number | None, unit: str, convention: str = "iec", printed: str | None = None) -> Any:
    """One value as a page shows it: a quantity() for byte units (the switch swaps SI and IEC) and for
    any value with a `printed` token (shown under "as printed"), else its display string; None stays None.

    `convention` is how the tool prints byte prefixes; `printed` the exact text it printed for this
    value, when one line of its output gave it (a run's `printed` map), which is then the `text`."""
    if value is None:
        return None
    if unit in _BYTE_UNITS:
        si, iec = value_text(value, unit, "si"), value_text(value, unit, "iec")
        return quantity(printed or (si if convention == "si" else iec), si, iec)
    said = format_value(value, unit)
    return said if printed in (None, said) or said is None else quantity(printed, said, said)


def byte_quantity(value: Number | None, unit: str, printed: str = "iec") -> dict[str, str] | str | None:
    """A bytes or bytes/s value in both conventions, shown by default in the tool's (`printed`) convention:
    {"text", "si", "iec"} for byte units, the display string for any other unit, None when missing."""
    return shown(value, unit, printed)


def quantity_text(shown: dict[str, str] | str) -> str:
    """What a quantity (or a plain display string) reads as by default."""
    if isinstance(shown, dict):
        return shown["text"] if "text" in shown else shown["iec"]  # a plain {text} cell has no iec
    return shown


def relative_form(relatives: list[float | None]) -> str:
    """How a column of ratios reads, one form for all its cells: '×' when any is 20× or more (a
    cache hit at 147× reads better so than as 14,700 %), else '%'."""
    return "×" if any(relative is not None and relative >= 20 for relative in relatives) else "%"


def format_relative(relative: float | None, form: str | None = None) -> str | None:
    """value / baseline, three significant digits: 1.256 -> '126%', 0.8253 -> '82.5%', 14.42 -> '1,442%';
    in the × form (`form`, a column's relative_form; on its own, past 20×) 147.2 -> '147×', 0.8253 -> '0.825×'."""
    if relative is None:
        return None
    if (form or relative_form([relative])) == "×":
        return ratio_text(relative)
    return f"{significant(relative * 100)}%"


# ---------------------------------------------------------------------------
# One prefix per column or axis: a table column or a chart axis never mixes
# "981 KiB/s" with "1.8 GiB/s"; every value in it is shown in the same unit.

_BYTE_UNITS = ("B/s", "B")


class ColumnUnits:
    """One prefix per column, in each convention the page's unit switch offers, and one form of ratio."""

    def __init__(
        self, values: list[float | None], unit: str, printed: str, relatives: list[float | None] | None = None
    ):
        self.unit = unit
        self.printed = scale_for(values, unit, printed)
        self.alternatives = (
            {convention: scale_for(values, unit, convention) for convention in ("si", "iec")}
            if unit in _BYTE_UNITS
            else {}
        )
        self.form = relative_form(relatives or [])
        present = [abs(value) for value in values if value]
        self._span = (min(present), max(present)) if self.printed.per_cell else None

    def quantity(self, value: float | None, printed: str | None = None) -> dict[str, str] | str | None:
        """A quantity() for byte units (the switch swaps them) and for a value with its `printed` token
        (what the tool printed for it, shown under "as printed"), else the display string."""
        if value is None:
            return None
        if not self.alternatives:
            said = self.printed.text(value)
            return said if printed in (None, said) or said is None else quantity(printed, said, said)
        return quantity(
            printed or self.printed.text(value),
            self.alternatives["si"].text(value),
            self.alternatives["iec"].text(value),
        )

    def relative(self, relative: float | None) -> str | None:
        """A cell's ratio to its baseline, in the column's one form ('82.5%' or '0.825×')."""
        return format_relative(relative, self.form)

    def _caption(self, scale: Scale) -> str:
        if not (scale.per_cell and self._span):
            return scale.axis_title
        low, high = (scale_for([end], self.unit, scale.convention).label for end in self._span)
        return low if low == high else f"{low}–{high}"  # each cell in its own prefix: the range of them

    def caption(self) -> dict[str, str] | str:
        """The unit the column's header states, switched with its numbers."""
        if not self.alternatives:
            return self._caption(self.printed)
        return quantity(
            self._caption(self.printed), self._caption(self.alternatives["si"]), self._caption(self.alternatives["iec"])
        )

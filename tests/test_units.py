"""units: the exact values fio prints, converted; and displays with explicit SI/IEC labels."""

from __future__ import annotations

from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from perfwiki import units


@pytest.mark.parametrize(
    "text, expected",
    [
        ("872", 872),
        ("188k", 188_000),
        ("58.6k", 58_600),
        ("10.0k", 10_000),
        ("6813.5k", 6_813_500),
        ("1343.6K", 1_343_600),
        ("1.2M", 1_200_000),
    ],
)
def test_counts(text, expected):
    assert units.parse_count(text) == expected


@pytest.mark.parametrize(
    "text, expected",
    [
        ("927MiB/s", 972_029_952),
        ("972MB/s", 972_000_000),
        ("0KiB/s", 0),
        ("39.2MiB/s", 41_104_179.2),
        ("41.1MB/s", 41_100_000),
        ("2378MiB/s", 2_493_513_728),
    ],
)
def test_rates(text, expected):
    assert units.parse_rate(text) == pytest.approx(expected, abs=1e-6)


@pytest.mark.parametrize(
    "text, expected",
    [
        ("54.5GiB", 58_518_929_408),
        ("2352MiB", 2_466_250_752),
        ("1024KiB", 1_048_576),
        ("4096B", 4096),
        ("58.5GB", 58_500_000_000),
    ],
)
def test_sizes(text, expected):
    assert units.parse_size(text) == expected


@pytest.mark.parametrize(
    "value, unit, expected",
    [
        ("4476.22", "msec", 4_476_220_000),
        ("1139.54", "usec", 1_139_540),
        ("6736.0k", "nsec", 6_736_000),
        ("718", "nsec", 718),
    ],
)
def test_latencies_are_exact_nanoseconds(value, unit, expected):
    result = units.to_ns(value, unit)
    assert result == expected and isinstance(result, int)


@pytest.mark.parametrize(
    "text, expected", [("4k", 4096), ("1M", 1_048_576), ("1m", 1_048_576), ("100G", 107_374_182_400), ("512", 512)]
)
def test_fio_option_sizes_use_base_1024(text, expected):
    assert units.parse_fio_option_size(text) == expected


@pytest.mark.parametrize("text, expected", [("1m", 60), ("2s", 2), ("30", 30), ("500ms", 0.5), ("1h", 3600)])
def test_fio_option_times(text, expected):
    assert units.parse_fio_option_seconds(text) == expected


@pytest.mark.parametrize("bad", ["", "fast", "12 parsecs", "MiB/s"])
def test_rejects_what_is_not_a_rate(bad):
    with pytest.raises(units.UnitError):
        units.parse_rate(bad)


def test_displays_carry_explicit_labels_and_missing_stays_missing():
    assert units.format_bytes_per_s(972_029_952) == "927 MiB/s"  # fio's 927MiB/s
    assert units.format_bytes_per_s(972_029_952, "si") == "972 MB/s"
    assert units.format_ns(4_476_220_000) == "4,476 ms"  # fio's avg=4476.22 (msec): four digits, as printed
    assert units.format_ns(95_150) == "95.2 µs"  # avg=95.15 (usec), three significant digits
    assert units.format_count(188_000) == "188,000"  # IOPS=188k, in full
    assert units.format_count(872) == "872"
    assert units.format_bytes_per_s(None) is None and units.format_ns(None) is None and units.format_count(None) is None


@given(
    st.integers(min_value=0, max_value=999_999),
    st.integers(min_value=0, max_value=99),
    st.sampled_from(["Ki", "Mi", "Gi", "Ti", "k", "M", "G", "T"]),
)
def test_every_prefix_round_trips(whole, hundredths, prefix):
    """A size printed with two decimals and any prefix fio uses reads back exactly (to float precision)."""
    text = f"{whole}.{hundredths:02d}{prefix}B"
    factor = {"Ki": 2**10, "Mi": 2**20, "Gi": 2**30, "Ti": 2**40, "k": 10**3, "M": 10**6, "G": 10**9, "T": 10**12}[
        prefix
    ]
    expected_hundredths = (whole * 100 + hundredths) * factor
    assert units.parse_size(text) == pytest.approx(expected_hundredths / 100, rel=1e-15)


@given(
    st.integers(min_value=0, max_value=99_999),
    st.integers(min_value=0, max_value=9),
    st.sampled_from(["", "k", "K", "M", "G"]),
)
def test_every_count_suffix_round_trips(whole, tenth, suffix):
    """'6813.5k', '1343.6K', '1.2M': counts and latency values carry powers of 1000."""
    factor = {"": 1, "k": 10**3, "K": 10**3, "M": 10**6, "G": 10**9}[suffix]
    assert units.parse_count(f"{whole}.{tenth}{suffix}") == pytest.approx((whole * 10 + tenth) * factor / 10, rel=1e-15)


@given(
    st.integers(min_value=0, max_value=999_999),
    st.integers(min_value=0, max_value=99),
    st.sampled_from(["nsec", "usec", "msec", "sec"]),
)
def test_every_latency_unit_round_trips_to_exact_nanoseconds(whole, hundredths, unit):
    factor = {"nsec": 1, "usec": 10**3, "msec": 10**6, "sec": 10**9}[unit]
    result = units.to_ns(f"{whole}.{hundredths:02d}", unit)
    # Exact: the printed decimal survives (a fractional nanosecond stays a float of that decimal).
    assert Decimal(repr(result)) * 100 == (whole * 100 + hundredths) * factor
    if unit != "nsec":
        assert isinstance(result, int)


@given(
    st.integers(min_value=0, max_value=10**18),
    st.integers(min_value=0, max_value=8),
    st.sampled_from([1, 8, 1000, 1024, 10**6, 2**20, 10**9, 2**30, 10**12, 2**60]),
)
def test_plain_numbers_read_as_decimal_reads_them(digits, places, factor):
    """The integer path for "4476.22"-style values gives what Decimal gives: the same int, or the same float."""
    text = str(digits) if not places else f"{digits // 10**places}.{digits % 10**places:0{places}d}"
    for result, exact in (
        (units.scaled(text, factor), Decimal(text) * factor),
        (units.to_ns(text, "usec"), Decimal(text) * 1000),
        (units.parse_count(f"{text}M"), Decimal(text) * 10**6),
    ):
        expected = units.normalize(exact)
        assert result == expected and type(result) is type(expected)


@given(st.integers(min_value=0, max_value=99_999), st.sampled_from(["", "K", "M", "G", "T"]))
def test_fio_2x_sizes_are_powers_of_1024(value, prefix):
    factor = {"": 1, "K": 2**10, "M": 2**20, "G": 2**30, "T": 2**40}[prefix]
    assert units.parse_fio2_size(f"{value}{prefix}B") == value * factor
    assert units.parse_fio2_rate(f"{value}{prefix}B/s") == value * factor


def test_relative_values_read_as_percent_then_as_a_ratio_past_20x():
    # The VM report's 4 KiB random reads against the host: 126 %, 1,442 %, and a cache hit at 147x.
    assert [units.format_relative(r) for r in (1.256, 0.8253, 14.42, 147.18)] == ["126%", "82.5%", "1,442%", "147×"]
    # In one column they read in one form: the cache hit makes it ×, three significant digits each.
    column = units.ColumnUnits([1, 1.256, 0.8253, 14.42, 147.18], "IOPS", "iec", [1, 1.256, 0.8253, 14.42, 147.18])
    assert [column.relative(r) for r in (1.256, 0.8253, 14.42, 147.18)] == ["1.26×", "0.825×", "14.4×", "147×"]
    below = units.ColumnUnits([1, 1.256, 0.8253, 14.42], "IOPS", "iec", [1, 1.256, 0.8253, 14.42])
    assert [below.relative(r) for r in (1.256, 0.8253, 14.42)] == ["126%", "82.5%", "1,442%"]


def test_a_column_scale_keeps_one_prefix_within_three_decades():
    scale = units.scale_for([9810 * 1024, 1854 * 2**20], "B/s")
    assert (scale.label, scale.text(9810 * 1024), scale.text(1854 * 2**20)) == ("MiB/s", "9.58 MiB/s", "1,854 MiB/s")
    network = units.scale_for([9.41e9, 2.1e9], "bit/s")
    assert network.text(9.41e9) == "9.41 Gbit/s"  # three digits for networks, as iperf3 prints
    iops = units.scale_for([195, 28700], "IOPS")
    assert (iops.text(195), iops.text(28700), iops.said(28700)) == ("195", "28,700", "28,700 IOPS")


def test_a_quantity_printed_in_iec_units_drops_its_text_and_one_printed_in_si_keeps_it():
    # fio prints IEC prefixes: the quantity reads as its IEC spelling, which the template shows by default.
    assert units.byte_quantity(972_000_000, "B/s") == {"si": "972 MB/s", "iec": "927 MiB/s"}
    assert units.byte_quantity(972_000_000, "B/s", "si") == {"text": "972 MB/s", "si": "972 MB/s", "iec": "927 MiB/s"}
    assert units.quantity_text(units.byte_quantity(972_000_000, "B/s")) == "927 MiB/s"
    assert units.quantity_text(units.byte_quantity(972_000_000, "B/s", "si")) == "972 MB/s"
    # A column's scale does the same, for its cells and for the unit its header states.
    column = units.ColumnUnits([972_000_000, 10_000_000], "B/s", "iec")
    assert column.quantity(972_000_000) == {"si": "972 MB/s", "iec": "927 MiB/s"}
    assert column.caption() == {"si": "MB/s", "iec": "MiB/s"}
    assert units.ColumnUnits([972_000_000], "B/s", "si").caption() == {"text": "MB/s", "si": "MB/s", "iec": "MiB/s"}
    assert units.ColumnUnits([12.5], "IOPS", "iec").quantity(12.5) == "12"  # a count is shown whole
    # A token the tool printed is the text "as printed" shows; the switch still offers SI and IEC.
    assert column.quantity(972_029_952, "927MiB/s") == {"text": "927MiB/s", "si": "972 MB/s", "iec": "927 MiB/s"}
    assert units.shown(188_000, "IOPS", printed="188k") == {"text": "188k", "si": "188,000", "iec": "188,000"}
    assert units.shown(872, "IOPS", printed="872") == "872"  # printed as shown: nothing to switch

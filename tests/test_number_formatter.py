"""The one number formatter (units.py), on the numbers of the example reports and captured outputs:
counts whole, computed numbers to three significant digits, one prefix per column unless it spans
more than three decades, and "as printed" as the exact token the tool printed."""

from __future__ import annotations

import re

import pytest

from perfwiki import compare, tools, units
from perfwiki.extract import extract
from perfwiki.pages import comparison as comparison_view
from perfwiki.pages import report as report_view
from perfwiki.pages.run import run_page
from support import ALL_SLICES, FIXTURES, REPORTS, extract_slice

FIO = tools.get("fio")
NVME = "nvme-raw-vs-ext4/raw/nvme-raw/fio-bandwidth-iops-latency.md"
BUSY = "build-vm-disk-busy/raw/build-vm-vda/fio-logs-20261124-234359.txt"
QUIET = "build-vm-disk-quiet/raw/build-vm-vda/fio-logs-20261124-234311.txt"


def runs_of(name: str):
    return extract(f"content/reports/{name}", (REPORTS / name).read_bytes()).runs


def headline(run) -> dict[str, object]:
    return {entry["label"]: entry["value"] for entry in FIO.headline(run)}


def test_a_count_is_shown_whole_with_thousands_separators():
    # fio's JSON prints IOPS with six decimals; every page shows the count whole.
    busy, quiet = runs_of(BUSY)[0], runs_of(QUIET)[1]
    assert (busy.metrics["jobs"][0]["write"]["iops"], quiet.metrics["jobs"][0]["read"]["iops"]) == (
        8361.463854,
        92250.737463,
    )
    assert (headline(busy)["IOPS"], headline(quiet)["IOPS"]) == ("8,361", "92,251")  # JSON: no printed token
    # fio's text printed IOPS=28.7k: 28,700 in full, and the token itself under "as printed".
    q4 = next(run for run in extract_slice("vm-vs-bare-metal/raw/centos-vm-writeback-q4/fio.md").runs)
    assert headline(q4)["IOPS"] == {"text": "28.7k", "si": "28,700", "iec": "28,700"}
    assert units.format_count(q4.metrics["jobs"][0]["read"]["iops"]) == "28,700"
    # A column of counts has no prefix: 188k and 872 are 188,000 and 872 in one column.
    iops = [
        run.metrics["jobs"][0][d]["iops"]
        for run in runs_of(NVME)
        for d in ("read", "write")
        if d in run.metrics["jobs"][0]
    ]
    scale = units.scale_for(iops, "IOPS")
    assert (scale.axis_title, [scale.text(v) for v in (min(iops), max(iops))]) == ("IOPS", ["540", "196,000"])


def test_computed_numbers_have_three_significant_digits_and_keep_their_zeros():
    busy, quiet = runs_of(BUSY)[0], runs_of(QUIET)[0]
    before, after = quiet.metrics["jobs"][0]["write"], busy.metrics["jobs"][0]["write"]
    # The busy pass against the quiet one: a ratio, a percentage, a mean latency and a rate from JSON.
    assert units.ratio_text(after["iops"] / before["iops"]) == "0.144×"
    assert units.format_relative(after["iops"] / before["iops"]) == "14.4%"
    assert units.format_ns(after["clat_ns"]["mean"]) == "1,897 µs"  # 1,000 and past: whole, not 1,900
    assert units.format_bytes_per_s(after["bw_bytes_per_s"], "si") == "34.2 MB/s"
    # Two of seed 000's reads, 2,310 and 2,309 IOPS: 1.00×, its zeros kept.
    nvme = {run.label: run for run in runs_of(NVME)[:4]}
    reads = [
        nvme[label].metrics["jobs"][0]["read"]["iops"] for label in ("【4. Random Read】", "【3. Sequential Read】")
    ]
    assert reads == [2310, 2309] and units.ratio_text(reads[0] / reads[1]) == "1.00×"
    assert [units.significant(value) for value in (1.5, 0.8253, 999.7, 0.0000123)] == [
        "1.50",
        "0.825",
        "1,000",
        "0.0000123",
    ]


def test_a_runs_table_column_is_in_one_unit_unless_it_spans_more_than_three_decades():
    runs = runs_of(NVME)
    for index, run in enumerate(runs):
        run.id = f"run-{index}"
    (table,) = report_view.runs_tables(runs)
    unit = {name: table["units"][index] for index, name in enumerate(table["columns"])}
    column = {name: index - 1 for index, name in enumerate(table["columns"])}  # rows have no Label cell

    def cells(name: str) -> list:
        return [row["cells"][column[name]] for row in table["rows"]]

    # Bandwidth, 39.2MiB/s to 2378MiB/s (61×): one prefix in each convention.
    assert unit["Bandwidth"] == {"si": "MB/s", "iec": "MiB/s"}
    assert [cell["iec"] for cell in cells("Bandwidth")][-4:] == ["229 MiB/s", "208 MiB/s", "251 MiB/s", "39.2 MiB/s"]
    # Mean clat, 13.05 µs (QD1) to 6973 ms (QD4096), 534,000×: in ms the first would be 0.01305 ms.
    assert unit["Mean clat"] == "µs–ms"
    assert cells("Mean clat") == [
        "4,476 ms", "6,973 ms", "1,748 ms", "1,747 ms",
        "21.7 ms", "22.2 ms", "20.9 ms", "21.8 ms",
        "13.0 µs", "14.2 µs", "11.7 µs", "95.2 µs",
    ]  # fmt: skip


def test_a_run_pages_percentiles_are_one_column_in_one_unit():
    run = next(run for run in extract_slice("vm-vs-bare-metal/raw/r730-host/fio.md").runs if run.label == "1MB顺序读")
    page = run_page(run, 0)
    percentiles = next(table for table in page["tables"] if table["id"].startswith("percentiles-"))
    # fio printed 502 to 47973 (usec), 96× apart: one unit, the one that keeps 47973 in four digits.
    shown = [row[-1] for row in percentiles["rows"]]  # the p1.00… labels are a shared set (pages/layouts.py)
    assert (shown[0], shown[12], shown[-1]) == ("0.502 ms", "2.54 ms", "48.0 ms")
    assert {text.split()[1] for text in shown} == {"ms"}


def direction_lines(run) -> dict[str, str]:
    """Each direction's result line of a fio text run, as the raw file holds it."""
    text = (REPORTS.parent.parent / run.source.path).read_text(encoding="utf-8")
    lines = text.splitlines()[run.source.line_start - 1 : run.source.line_end]
    found = {}
    for line in lines:
        match = re.match(r"\s*(read|write|trim|mixed)\s*: (?:IOPS=|io=)", line)
        if match and match[1] not in found:
            found[match[1]] = line
    return found


def fio_text_runs():
    for name in ALL_SLICES:
        for run in extract_slice(name).runs:
            if run.tool == "fio" and run.format == "text" and len(run.metrics["jobs"]) == 1:
                yield name, run
    for path in sorted(FIXTURES.glob("fio/*.txt")):
        for run in extract(f"tests/fixtures/fio/{path.name}", path.read_bytes()).runs:
            if run.format == "text" and len(run.metrics["jobs"]) == 1:
                yield path.name, run


def test_as_printed_is_the_token_of_the_raw_line_character_for_character():
    checked = 0
    for name, run in fio_text_runs():
        page = run_page(run, 0)
        lines = direction_lines(run)
        for table in page["tables"]:
            if not table["id"].startswith("results-"):
                continue
            direction = table["id"].rsplit("-", 1)[1]
            line = lines[direction]
            iops, bandwidth, io = (units.quantity_text(row[0]) for row in table["rows"][:3])
            if "IOPS=" in line:  # fio 2.17 and later
                assert f"IOPS={iops}, BW={bandwidth} (" in line and f"({io}/" in line, (name, line)
            else:  # fio 2.0-2.16: "read : io=1024.0MB, bw=48273KB/s, iops=12068, runt= 21722msec"
                assert f"io={io}, bw={bandwidth}, iops={iops}," in line.replace(" ,", ","), (name, line)
            checked += 1
        # The run's headline shows the same token for a run of one direction.
        if len(lines) == 1:
            values = {entry["label"]: units.quantity_text(entry["value"]) for entry in FIO.headline(run)}
            assert (values["IOPS"], values["Bandwidth"]) == (iops, bandwidth), name
    assert checked >= 100  # every fio text result of the seeds and fixtures, fio 2.x and 3.x


def test_a_comparison_cell_of_one_run_is_as_printed_and_a_median_is_not():
    # The host's runs, and two guests' runs of the same fio commands taken as repeats of one "centos-vm".
    runs = []
    for folder, environment in (
        ("r730-host", "r730-host"),
        ("centos-vm-cache-none", "centos-vm"),
        ("centos-vm-writeback", "centos-vm"),
    ):
        for run in extract_slice(f"vm-vs-bare-metal/raw/{folder}/fio.md").runs:
            run.environment, run.id = environment, f"run-{len(runs)}"
            runs.append(run)
    comparisons, _ = compare.for_report([], runs, ["r730-host", "centos-vm"], "r730-host")
    bandwidth = next(found for found in comparisons if found["metric"] == "bw")
    table = comparison_view.comparison_table(report_view.with_printed([bandwidth], runs)[0])
    by_run = {run.id: run for run in runs}
    singles = medians = 0
    for row in table["rows"]:
        for cell in row["cells"]:
            if "range" in cell:  # the median of several runs: no token, fio's IEC spelling
                assert cell["text"] == cell["iec"] and cell["text"].endswith(" MiB/s"), cell
                medians += 1
            elif "run" in cell:
                job = by_run[cell["run"]].metrics["jobs"][0]
                (direction,) = [d for d in ("read", "write") if d in job]
                assert cell["text"] == job[direction]["printed"]["bw_bytes_per_s"]
                singles += 1
    assert singles and medians
    assert table.get("medians") is True  # the page says how "as printed" shows the medians


@pytest.mark.parametrize("token", ["13k", "1056MiB/s"])
def test_a_printed_token_survives_as_it_is(token):
    value = units.parse_count(token) if token[-1] == "k" else units.parse_rate(token)
    unit = "IOPS" if token[-1] == "k" else "B/s"
    assert units.quantity_text(units.shown(value, unit, printed=token)) == token


def tool_text_runs(tool: str):
    """Every text run of `tool` in the seed slices and its captured fixtures, with its raw lines."""
    found = [(f"content/reports/{name}", REPORTS / name) for name in ALL_SLICES]
    found += [(f"tests/fixtures/{tool}/{path.name}", path) for path in sorted(FIXTURES.glob(f"{tool}/*"))]
    for source, path in found:
        for run in extract(source, path.read_bytes()).runs:
            if run.tool == tool and run.format == "text":
                text = path.read_bytes().decode("utf-8", errors="replace")
                yield run, text.split("\n")[run.source.line_start - 1 : run.source.line_end]  # a \r glues progress


@pytest.mark.parametrize(
    ("tool", "unit", "pattern"), [("dd", "B/s", r"[kMGT]?B/s|bytes/sec"), ("iperf3", "bit/s", r"/sec")]
)
def test_dd_and_iperf3_rates_are_shown_as_printed_on_their_summary_line(tool, unit, pattern):
    checked = 0
    for run, lines in tool_text_runs(tool):
        (entry,) = [entry for entry in tools.get(tool).headline(run) if entry["unit"] == unit] or [None]
        if entry is None:
            continue  # dd printed "Infinity B/s": no rate
        value = entry["value"]
        printed = units.quantity_text(value)
        # The token is on the run's summary line, whole: dd's last line, iperf3's sender (or receiver) row.
        summary = [line for line in lines if re.search(pattern, line) and printed in line]
        assert summary, (run.source.path, printed)
        if isinstance(value, dict):  # the switch still has the formatter's spellings
            assert value["si"] == units.value_text(entry["number"], unit, "si"), value
        checked += 1
    assert checked >= 5

"""The compare page in Chromium: any environments side by side as ratios to a baseline or to the
best, a selection the address keeps, and runs of another fingerprint refused with the reason."""

from __future__ import annotations

import json
import math
import re
import statistics

import pytest

from perfwiki import units
from support import ROOT

pytestmark = pytest.mark.browser
PICKED = ["r730-host", "centos-vm-cache-none", "centos-vm-writeback", "win2008-vm-writeback"]
RANDREAD = "fio randread, 4 KiB, queue depth 1, jobs 1, direct, posixaio"
RANDREAD_KEY = "fio-read-randread-4096-1-1-direct-posixaio"


def compare_data() -> dict:
    document = json.loads((ROOT / "site" / "static" / "runs" / "compare.json").read_text(encoding="utf-8"))
    document["scenarios_by_key"] = {scenario["key"]: scenario for scenario in document["scenarios"]}
    return document


def row_cells(page, title: str, flags: bool = False) -> list[str]:
    """The row's cells as read, without the ⚠N marks of checks (test_checks_beside_values reads those)."""
    row = page.locator("#compare-result tbody tr", has=page.locator(f'th a:text-is("{title}")'))
    cells = [" ".join(text.split()) for text in row.locator("td").all_inner_texts()]
    return cells if flags else [re.sub(r" ?⚠\d+", "", cell) for cell in cells]


def expected_mean(env: str, reference: str) -> str:
    """The geometric mean of env's IOPS ratios to the reference over the scenarios both ran, how many
    are better or worse by 5 % or more, and the range: computed here from runs/compare.json."""
    ratios, left_out = [], 0
    for scenario in compare_data()["scenarios"]:
        cells = scenario["cells"]
        if scenario["tool"] == "fio" and env in cells and reference in cells and all(e in cells for e in PICKED[:3]):
            if cells[env].get("artefact") or cells[reference].get("artefact"):
                left_out += bool(cells[env].get("artefact"))
                continue  # a cache hit is shown, never set against another (artefacts.py)
            ratios.append(cells[env]["values"][0] / cells[reference]["values"][0])
    if not ratios:
        return f"no like-for-like result: {left_out} scenarios left out, not speed results"
    mean = math.exp(sum(map(math.log, ratios)) / len(ratios))
    # noise.py's rule, which runs/compare.json carries: within ±5 % is even.
    even = compare_data()["even"]
    better, worse = sum(r > 1 + even for r in ratios), sum(r < 1 - even for r in ratios)
    spread = f"({three_digits(min(ratios))} to {three_digits(max(ratios))})"
    median = three_digits(statistics.median(ratios))
    tally = f"better in {better}, worse in {worse}"
    return f"{three_digits(mean)} over {len(ratios)} scenarios: {tally} {spread}, median {median}"


def decided_artefacts(env: str, reference: str) -> int:
    """The fio scenarios the reference ran where env's value, its own or a run a report compared with
    it on purpose (compare.json `decided`), is a cache artefact."""
    data = compare_data()
    count = 0
    for scenario in data["scenarios"]:
        cells = scenario["cells"]
        if scenario["tool"] != "fio" or reference not in cells:
            continue
        partners = [data["scenarios_by_key"][key]["cells"] for key, _, _ in scenario.get("decided", [])]
        theirs = cells.get(env) or next((other[env] for other in partners if env in other), None)
        count += bool(theirs and theirs.get("artefact"))
    return count


def three_digits(ratio: float) -> str:
    return units.ratio_text(ratio)  # three significant digits, zeros kept, as every page says a ratio


def test_picked_environments_side_by_side_against_a_baseline(page, base_url_local, artifacts):
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    page.set_viewport_size({"width": 1440, "height": 1000})
    page.goto(f"{base_url_local}compare/?env={','.join(PICKED)}")
    page.locator("#compare-result table").wait_for()
    # The writeback guests' results are the host's page cache: shown, and said, never a ratio. The
    # Windows guest's 4 KiB random reads queued 16 (windowsaio) where posixaio on Linux queued one:
    # another scenario, so not in this row.
    assert row_cells(page, RANDREAD) == [
        "195",
        "245 1.26×",
        "13,000 not a speed result: served from the host's cache, not the disk",
        "not run",
    ]
    # At iodepth=1 the engines differ and nothing else, which the report compares across on purpose
    # (`ignore: [ioengine]`): the Windows guest's value is shown, and says so.
    windows = row_cells(page, "fio read, 1 MiB, queue depth 1, jobs 1, direct, posixaio")[3]
    assert windows.startswith("not a speed result: served from the host's cache, not the disk", windows.index(" ") + 1)
    assert windows.endswith("report vm-vs-bare-metal compares these on purpose: engine windowsaio, not posixaio")
    summary = [" ".join(t.split()) for t in page.locator("#compare-result tr.compare-summary td").all_inner_texts()]
    assert summary == [
        "baseline",
        expected_mean("centos-vm-cache-none", "r730-host"),
        expected_mean("centos-vm-writeback", "r730-host"),
        f"no like-for-like result: {decided_artefacts('win2008-vm-writeback', 'r730-host')} scenarios left out, "
        "not speed results",
    ]
    page.locator("#compare-chart svg.main-svg").first.wait_for(state="visible")
    page.screenshot(path=str(artifacts / "compare-1440.png"), full_page=True)
    assert errors == []


def test_a_report_s_decision_to_compare_across_a_parameter_is_honoured(page, base_url_local):
    """The NVMe report compares its raw device with ext4 across targets on purpose (`ignore: [target]`):
    so does this page, saying so in each cell."""
    page.goto(f"{base_url_local}compare/?env=nvme-raw,nvme-ext4")
    page.locator("#compare-result table").wait_for()
    cells = row_cells(page, "fio randread, 4 KiB, queue depth 4096, jobs 1, direct, libaio, raw device")
    assert cells == [
        "188,000",
        "188,000 manual 1.00× report nvme-raw-vs-ext4 compares these on purpose: target file, not raw device",
    ]
    # ext4's 1 MiB write printed bandwidth alone: no IOPS, said, not "not run".
    cells = row_cells(page, "fio write, 1 MiB, queue depth 4096, jobs 1, direct, libaio, raw device")
    assert cells[0] == "872" and cells[1].startswith("no IOPS report nvme-raw-vs-ext4 compares these on purpose")
    assert page.locator("#compare-chart").count() == 1


def test_a_near_match_is_named_and_asked_for_never_assumed(page, base_url_local):
    """No report compares these two across queue depths: the page says what the other ran, and pairs
    it only when the reader asks for near matches in that one parameter, labelled as such."""
    scenario = "fio-write-randwrite-4096-16-1-direct-libaio-file"
    page.goto(f"{base_url_local}compare/?env=build-vm-vda,md6-raid6-4nvme&scenario={scenario}")
    page.locator("#compare-result table").wait_for()
    title = "fio randwrite, 4 KiB, queue depth 16, jobs 1, direct, libaio, file"
    assert row_cells(page, title)[1] == "not run ran queue depth 64, not 16"
    refused = page.locator("#compare-refused")
    refused.locator("summary").click()
    assert "ask for near matches in queue depth" in refused.inner_text()
    page.locator("#compare-near").select_option("queue depth")
    assert "near=queue+depth" in page.url or "near=queue%20depth" in page.url
    data = compare_data()["scenarios_by_key"]
    theirs = data["fio-write-randwrite-4096-64-1-direct-libaio-file"]["cells"]["md6-raid6-4nvme"]["values"][0]
    ours = data[scenario]["cells"]["build-vm-vda"]["values"][0]
    value = row_cells(page, title)[1]
    assert value.endswith(f"{three_digits(theirs / ours)} near match, not counted: queue depth 64, not 16"), value
    assert page.locator("#compare-refused").count() == 0
    # Another scenario is no speed difference: neither coloured nor in the summary and its chart.
    cell = page.locator("#compare-result tbody tr", has=page.locator(f'th a:text-is("{title}")')).locator("td").nth(1)
    assert cell.get_attribute("class") is None
    summary = page.locator("#compare-result tr.compare-summary td").nth(1).inner_text()
    assert summary == "only 1 near match, not counted: no like-for-like result"
    page.goto(page.url)  # the near match is in the address
    assert row_cells(page, title)[1] == value


def test_against_the_best_of_each_scenario(page, base_url_local):
    page.goto(f"{base_url_local}compare/?env={','.join(PICKED[:3])}&ref=best")
    page.locator("#compare-result table").wait_for()
    # 13,000 IOPS is the host's page cache, not a best: 245 is, and the host is 1.26 times slower.
    assert row_cells(page, RANDREAD) == [
        "195 1.26×",
        "245 1.00×",
        "13,000 not a speed result: served from the host's cache, not the disk",
    ]
    assert page.locator("#compare-ref").input_value() == "best"


def test_the_address_keeps_the_selection(page, base_url_local):
    page.set_viewport_size({"width": 390, "height": 900})
    page.goto(f"{base_url_local}compare/?env=r730-host,centos-vm-cache-none")
    page.locator("#compare-result table").wait_for()
    page.locator("#compare-env-filter").fill("writeback q4")
    visible = [label for label in page.locator("#compare-envs label:visible").all_inner_texts()]
    assert [label.split()[0] for label in visible] == ["centos-vm-writeback-q4", "win2008-vm-writeback-q4"]
    page.locator('#compare-envs input[value="centos-vm-writeback-q4"]').check()
    page.locator('#compare-scenarios input[value="fio-read-randread-4096-1-1-direct-posixaio"]').check()
    page.locator("#compare-metric").select_option("Mean completion latency")
    url = page.url
    assert "env=r730-host,centos-vm-cache-none,centos-vm-writeback-q4" in url
    assert "scenario=fio-read-randread-4096-1-1-direct-posixaio" in url and "metric=Mean+completion+latency" in url
    assert page.locator("#compare-url").inner_text() == url
    page.goto(url)
    page.locator("#compare-result table").wait_for()
    assert page.locator('#compare-envs input[value="centos-vm-writeback-q4"]').is_checked()
    assert page.locator("#compare-result tbody tr").count() == 2  # the summary, and the one scenario picked
    # Mean completion latency, lower is better: the ratio is how many times faster than the baseline.
    latency = {
        env: cell["values"][2] for env, cell in compare_data()["scenarios_by_key"][RANDREAD_KEY]["cells"].items()
    }
    shown = ["r730-host", "centos-vm-cache-none", "centos-vm-writeback-q4"]
    scale = units.scale_for([latency[env] for env in shown], "ns")
    shown_cells = [scale.text(latency["r730-host"])]
    cells = compare_data()["scenarios_by_key"][RANDREAD_KEY]["cells"]
    for env in shown[1:]:
        if cells[env].get("artefact"):
            shown_cells.append(f"{scale.text(latency[env])} not a speed result: {cells[env]['artefact']}")
            continue
        speedup = latency["r730-host"] / latency[env]
        shown_cells.append(f"{scale.text(latency[env])} {three_digits(speedup)}")
    assert row_cells(page, RANDREAD) == shown_cells
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    # Wider than a phone, the table scrolls in its frame, and says so (tables.js).
    wrap = page.locator("#compare-result .table-wrap")
    assert wrap.get_attribute("class") == "table-wrap table-wrap--scrolls"


def test_an_environment_page_compares_it_with_a_related_one_in_one_click(page, base_url_local):
    page.goto(f"{base_url_local}environments/r730-host/")
    related = page.locator("#related-heading").locator("xpath=..")
    related.locator('a.related__compare[href$="env=r730-host,centos-vm-cache-none&ref=r730-host"]').click()
    page.locator("#compare-result table").wait_for()
    assert "env=r730-host,centos-vm-cache-none" in page.url and "ref=r730-host" in page.url
    assert page.locator("#compare-ref").input_value() == "r730-host"
    # The host's 4 KiB random read against its guest's, as the report has them.
    assert row_cells(page, RANDREAD) == ["195", "245 1.26×"]


def test_without_a_reference_the_baseline_is_the_one_sharing_most_and_the_picker_says_so(page, base_url_local):
    """nvme-raw ran what neither cloud host did; hygon8 and x86 share their sync 4 KiB random writes.
    The baseline is one of those two, and the picker names the one the table uses."""
    page.goto(f"{base_url_local}compare/?env=nvme-raw,hygon8-lvm-2nvme,x86-lvm-3nvme")
    page.locator("#compare-result table").wait_for()
    head = page.locator("#compare-result thead th").all_inner_texts()
    assert head[1:] == ["nvme-raw", "hygon8-lvm-2nvme (baseline)", "x86-lvm-3nvme"]
    assert page.locator("#compare-ref").input_value() == "hygon8-lvm-2nvme"
    summary = page.locator("#compare-result tr.compare-summary td").all_inner_texts()
    cells = compare_data()["scenarios_by_key"]["fio-write-randwrite-4096-1-1-direct-sync-file"]["cells"]
    ratio = three_digits(cells["x86-lvm-3nvme"]["values"][0] / cells["hygon8-lvm-2nvme"]["values"][0])
    assert summary[2].startswith(f"{ratio} over 1 scenario")  # a ratio, not "no scenario in common"


def test_a_randrw_pair_keeps_each_direction_and_every_check_beside_its_value(page, base_url_local):
    """The NAS seed's randrw runs: a read row and a write row, each value with the report's ⚠ check."""
    page.goto(f"{base_url_local}compare/?env=nas-default,nas-write-back")
    page.locator("#compare-result table").wait_for()
    data = compare_data()["scenarios_by_key"]
    for side in ("read", "write"):
        # Files: the job file's \\.\PhysicalDrive names, which fio on Linux creates as files.
        cells = data[f"fio-{side}-randrw-1-1-direct-psync-file-50"]["cells"]
        title = f"fio randrw ({side} side), queue depth 1, jobs 1, direct, psync, file, read % 50"
        base, other = cells["nas-default"]["values"][0], cells["nas-write-back"]["values"][0]
        shown = row_cells(page, title, flags=True)
        assert shown[0].startswith(f"{base:,}") and shown[1].startswith(f"{other:,} {three_digits(other / base)}")
        assert all(re.search(r"⚠\d+$", cell) for cell in shown)  # each run was flagged by a check
    # Each run's check once, in full, under the table: psync ran the job file's iodepth=64 at QD1.
    checks = page.locator("#compare-result ol.compare-checks li").all_inner_texts()
    assert len(checks) == 2
    for env, check in zip(("nas-default", "nas-write-back"), checks, strict=True):
        assert check.startswith(f"{env}: {env}-iometer — ioengine=psync is synchronous: iodepth=64")
    page.locator("#compare-result a.flag").first.click()
    assert page.url.endswith("#compare-check-1")


def test_an_environment_measured_in_two_reports_shows_its_newest(page, base_url_local):
    """build-vm-vda ran the same fio jobs quiet and then busy (two reports): its value is the busy
    report's, said, never the median of both, a number no run measured."""
    key = "fio-read-randread-4096-16-1-direct-libaio-file"
    cell = compare_data()["scenarios_by_key"][key]["cells"]["build-vm-vda"]
    assert cell["reports"] == 2 and {report for report, _ in cell["runs"]} == {"build-vm-disk-busy"}
    page.goto(f"{base_url_local}compare/?env=build-vm-vda,nvme-ext4&ref=build-vm-vda&scenario={key}")
    page.locator("#compare-result table").wait_for()
    shown = row_cells(page, "fio randread, 4 KiB, queue depth 16, jobs 1, direct, libaio, file")[0]
    assert shown == f"{round(cell['values'][0]):,} (build-vm-disk-busy, the newest of 2 reports that ran it here)"

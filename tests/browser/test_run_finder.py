"""The run finder (/runs/, and on tool and environment pages): runs found by what was measured.

Every expected count comes from the run documents ingest wrote (runstore.run_pages):
each run's scenario keys spell its fingerprint (tool, direction, rw, block size in bytes, effective
queue depth, jobs, I/O mode, engine, target, read %), and its parameters table the depth configured.
The finder reads other files (runs/_find/), made from the same runs by pages/finder.py.
"""

from __future__ import annotations

import re

import pytest
import yaml
from playwright.sync_api import expect

from perfwiki import perf_finder, runstore
from perfwiki.pages import finder
from support import ROOT

pytestmark = pytest.mark.browser

DESKTOP = {"width": 1440, "height": 900}
PHONE = {"width": 390, "height": 844}
TOTAL = 219  # the example wiki's runs
FIND = ROOT / "site" / "static" / "runs" / finder.FOLDER


def documents() -> list[dict]:
    found = []
    for report in runstore.reports(ROOT):
        for _, document in runstore.run_pages(ROOT, report):
            found.append({**document, "report": report})
    return found


def counted(pattern: str, **where) -> int:
    """Runs with a scenario key matching `pattern` (and `where`'s fields), from data/runs."""
    return sum(
        1
        for run in documents()
        if any(re.match(pattern, key) for key in run.get("scenarios", []))
        and all(run.get(field) == value for field, value in where.items())
    )


def count_text(page):
    return page.locator("#run-count")


def test_filters_by_tool_and_report_sort_by_key_result_and_keep_it_all_in_the_address(page, base_url_local):
    page.set_viewport_size(DESKTOP)
    page.goto(f"{base_url_local}runs/")
    rows = page.locator("#run-index tbody tr")
    expect(count_text(page)).to_have_text(f"{TOTAL} of {TOTAL} runs (first 200 listed)")
    expect(rows).to_have_count(200)  # the first 40 in the first frame, the rest in the next
    page.select_option("select[name=tool]", "iperf3")
    page.select_option("select[name=report]", "vm-vs-bare-metal")
    expect(count_text(page)).to_have_text(f"7 of {TOTAL} runs")
    expect(rows).to_have_count(7)
    assert "tool=iperf3" in page.url and "report=vm-vs-bare-metal" in page.url  # the filter can be linked
    page.locator("button[data-sort='number']").click()  # key results, ascending
    page.locator("button[data-sort='number']").click()  # descending: the fastest path first
    expect(page).to_have_url(re.compile(r"sort=-number"))
    first = rows.first
    expect(first.locator("td.key-results")).to_have_text(re.compile(r"^Throughput 9\."))
    assert "Gbits/sec" in first.inner_text()  # as iperf3 printed it
    shown = first.inner_text()
    page.goto(page.url)  # filters and sort restored from the address
    expect(count_text(page)).to_have_text(f"7 of {TOTAL} runs")
    assert rows.first.inner_text() == shown
    assert page.locator("select[name=tool]").input_value() == "iperf3"
    assert page.locator("#run-more").is_hidden()  # the 7 runs fit in one screenful of rows
    # The text box matches what a row shows and the label, not only the command (manual runs have none).
    page.goto(f"{base_url_local}runs/?q=nvme-ext4")
    expect(count_text(page)).to_have_text(f"12 of {TOTAL} runs")  # every run on nvme-ext4
    page.goto(f"{base_url_local}runs/?q=no-such-run")
    expect(page.locator("#run-index tbody")).to_have_text("No run matches these filters.")


def test_the_issue_s_address_lists_the_4k_random_writes_at_qd1(page, base_url_local):
    """/runs/?tool=fio&rw=randwrite&bs=4KiB&qd=1: every fio run that did 4 KiB random writes with one I/O in flight."""
    expected = counted(r"fio-write-randwrite-4096-1-")
    assert expected == 16  # the VM report's posixaio iodepth=16 jobs among them: QD1 on Linux
    page.set_viewport_size(DESKTOP)
    page.goto(f"{base_url_local}runs/?tool=fio&rw=randwrite&bs=4KiB&qd=1")
    expect(count_text(page)).to_have_text(f"{expected} of {TOTAL} runs")
    # The form shows the choice the address made, in the tool's own values.
    assert page.locator("select[name=rw]").input_value() == "randwrite"
    assert page.locator("select[name=bs]").input_value() == "4KiB"
    # Each choice counts the runs it leaves given the other filters: 4 KiB random writes at QD1.
    expect(page.locator("select[name=qd] option:checked")).to_have_text(f"1 ({expected})")
    expect(page.locator("select[name=rw] option[value=randwrite]")).to_have_text(f"randwrite ({expected})")
    # Changing one filter changes the address and the list: the same at QD16 instead.
    page.select_option("select[name=qd]", "16")
    expect(page).to_have_url(re.compile(r"qd=16"))
    expect(count_text(page)).to_have_text(f"{counted(r'fio-write-randwrite-4096-16-')} of {TOTAL} runs")
    # A tool's parameters only: iperf3's streams are not offered beside fio's rw.
    assert page.locator("select[name=streams]").is_hidden()


def test_queue_depth_from_a_job_file_effective_and_configured(page, base_url_local):
    """The NAS runs: iodepth=64 in a job file with ioengine=psync, which runs at QD1."""
    page.set_viewport_size(DESKTOP)
    nas = sum(1 for run in documents() if run["report"] == "nas-cache-modes")
    assert nas == 4
    for query, expected in (("iodepth=64", 4), ("qd=1", 4), ("qd=64", 0)):
        page.goto(f"{base_url_local}runs/?tool=fio&report=nas-cache-modes&{query}")
        expect(count_text(page)).to_have_text(f"{expected} of {TOTAL} runs")
    # Configured iodepth=64 across the wiki: the NAS runs and every other run that asked for 64.
    configured = [
        run
        for run in documents()
        if run["tool"] == "fio" and any(row[0] == "iodepth" and row[1] == "64" for row in run["tables"][0]["rows"])
    ]
    page.goto(f"{base_url_local}runs/?tool=fio&iodepth=64")
    expect(count_text(page)).to_have_text(f"{len(configured)} of {TOTAL} runs")


@pytest.mark.parametrize(
    ("query", "pattern"),
    [
        ("tool=fio&engine=windowsaio", r"fio-.*-windowsaio(-|$)"),
        ("tool=fio&io=buffered", r"fio-.*-buffered-"),
        ("tool=fio&target=raw+device", r"fio-.*-rawdevice"),
        ("tool=fio&rw=randrw&read_pct=70", r"fio-\w+-randrw-.*-70$"),
        ("tool=fio&direction=read&rw=randrw", r"fio-read-randrw-"),
        ("tool=fio&jobs=1&bs=1MiB", r"fio-\w+-\w+-1048576-\d+-1-"),
        ("tool=iperf3&protocol=udp", r"iperf3-udp-"),
        ("tool=iperf3&streams=4", r"iperf3-\w+-4-"),
        ("tool=iperf3&direction=forward&protocol=tcp", r"iperf3-tcp-\d+-forward"),
    ],
)
def test_each_parameter_filter_on_real_runs(page, base_url_local, query, pattern):
    page.goto(f"{base_url_local}runs/?{query}")
    expected = counted(pattern)
    assert expected > 0
    expect(count_text(page)).to_have_text(f"{expected} of {TOTAL} runs")


def test_environment_and_date_range(page, base_url_local):
    dated = {}
    for index in sorted((ROOT / "content" / "reports").glob("*/index.md")):
        front = yaml.safe_load(index.read_text(encoding="utf-8").split("---")[1])
        dated[index.parent.name] = str(front.get("date") or "")[:10]
    in_2021 = sum(1 for run in documents() if dated[run["report"]].startswith("2021"))
    assert in_2021 > 0
    page.goto(f"{base_url_local}runs/?from=2021-01-01&to=2021-12-31&sort=-date")
    expect(count_text(page)).to_have_text(f"{in_2021} of {TOTAL} runs")
    assert all(date.startswith("2021") for date in page.locator("#run-index td.date").all_inner_texts())
    on_host = sum(1 for run in documents() if run["environment"] == "r730-host")
    page.goto(f"{base_url_local}runs/?environment=r730-host")
    expect(count_text(page)).to_have_text(f"{on_host} of {TOTAL} runs")


def test_a_value_no_run_has_matches_nothing_and_stays_in_the_address(page, base_url_local):
    page.goto(f"{base_url_local}runs/?tool=fio&bs=3KiB")
    expect(page.locator("#run-index tbody")).to_have_text("No run matches these filters.")
    page.select_option("select[name=rw]", "randread")
    expect(page).to_have_url(re.compile(r"bs=3KiB"))


def test_choices_count_what_they_would_leave_and_no_run_greys_out(page, base_url_local):
    """On an environment page, its runs are counted: r730-host ran fio at QD16 only."""
    on_host = [run for run in documents() if run["environment"] == "r730-host"]
    fio = [run for run in on_host if run["tool"] == "fio"]
    page.goto(f"{base_url_local}environments/r730-host/?tool=fio")
    expect(page.locator("select[name=tool] option[value=fio]")).to_have_text(f"fio ({len(fio)})")
    expect(page.locator("select[name=qd] option[value='16']")).to_have_text(re.compile(r"\(\d+\)$"))
    for option in page.locator("select[name=qd] option:not([value=''])").all():
        depth = option.get_attribute("value")
        here = sum(1 for run in fio if any(re.match(rf"fio-\w+-\w+-\d+-{depth}-", key) for key in run["scenarios"]))
        expect(option).to_have_text(f"{depth} ({here})")
        assert option.is_disabled() == (here == 0)  # a depth r730-host never ran greys out
    assert page.locator("select[name=qd] option:disabled").count() > 0


def test_each_run_says_how_it_ran_and_whether_a_check_flags_it(page, base_url_local):
    """A buffered libaio run at iodepth=1 lists as such; the NAS job file's psync run says QD1 (iodepth=64)."""
    page.goto(f"{base_url_local}runs/?tool=fio&report=nas-cache-modes")
    expect(count_text(page)).to_have_text(f"4 of {TOTAL} runs")
    first = page.locator("#run-index tbody th").first
    assert "QD1 (iodepth=64, psync)" in first.locator(".run-index__how").inner_text()
    flag = first.locator("a.flag")
    assert flag.inner_text() == "⚠1" and flag.get_attribute("href").endswith("/#checks-heading")


def test_the_tool_page_finds_its_own_runs(page, base_url_local):
    fio = sum(1 for run in documents() if run["tool"] == "fio")
    randrw = counted(r"fio-\w+-randrw-")
    page.goto(f"{base_url_local}tools/fio/?rw=randrw")
    expect(count_text(page)).to_have_text(f"{randrw} of {fio} runs")
    assert page.locator("select[name=tool]").count() == 0  # the page's own tool, not a choice
    assert "tool=" not in page.url


def test_the_environment_page_finder_opens_on_demand(page, base_url_local):
    requests = []
    page.on("request", lambda request: requests.append(request.url))
    page.goto(f"{base_url_local}environments/r730-host/", wait_until="networkidle")
    assert not [url for url in requests if f"/{finder.FOLDER}/" in url]  # folded: nothing fetched
    page.locator("#run-finder > summary").click()
    on_host = sum(1 for run in documents() if run["environment"] == "r730-host")
    expect(count_text(page)).to_have_text(f"{on_host} of {on_host} runs")
    page.goto(f"{base_url_local}environments/r730-host/?tool=fio")  # an address with filters opens it
    fio_on_host = sum(1 for run in documents() if run["environment"] == "r730-host" and run["tool"] == "fio")
    expect(count_text(page)).to_have_text(f"{fio_on_host} of {on_host} runs")


def test_compare_the_runs_listed(page, base_url_local):
    page.goto(f"{base_url_local}runs/?tool=fio&rw=randwrite&bs=4KiB&qd=1")
    link = page.locator("#run-compare")
    expect(link).to_be_visible()
    href = link.get_attribute("href")
    assert href.startswith("/bench/compare/?env=") and "nvme-raw" in href
    scenarios = href.split("scenario=")[1].split(",")
    assert "fio-write-randwrite-4096-1-1-direct-libaio-file" in scenarios
    assert all(re.match(r"fio-write-randwrite-4096-1-", key) for key in scenarios)


def test_runs_without_key_results_sort_last_and_the_table_says_it_scrolls_on_a_phone(page, base_url_local):
    page.set_viewport_size(PHONE)
    page.goto(f"{base_url_local}runs/?tool=fio&sort=-number")
    results = page.locator("#run-index tbody td.key-results")
    expect(results.first).to_have_text(re.compile(r"^Bandwidth 2,614 MiB/s"))  # fastest first
    fio = sum(1 for run in documents() if run["tool"] == "fio")
    expect(results).to_have_count(fio)  # the first 40 rows in the first frame, the rest in the next
    assert results.last.inner_text() == "none: see the run"
    # The rows arrive after the page loaded; the "scroll sideways" hint still appears.
    wrap = page.locator("#run-index").locator("xpath=..")
    expect(wrap).to_have_class("table-wrap table-wrap--scrolls")


def test_without_javascript_the_page_says_where_the_runs_are(browser, base_url_local):
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    page.goto(f"{base_url_local}runs/")
    assert page.locator("#run-filters").is_hidden() and page.locator("#run-index").is_hidden()
    note = page.locator("noscript p").inner_text()
    assert "every report page lists its runs" in note
    assert page.locator("noscript a[href$='#runs-heading']").count() == 8
    context.close()


def test_a_large_wiki_is_read_a_file_at_a_time(page, base_url_local, tmp_path):
    """Four copies of the example's runs, each its own reports and environments (perf_finder, as make perf
    builds 100,000 runs): 200 rows a file, each filter's file, and no more."""
    files = finder.files(perf_finder.copied(perf_finder.published_shares(FIND), 4 * TOTAL))
    served = {name.split("/", 1)[1]: text for name, text in files.items()}
    fetched = []

    def answer(route):
        name = route.request.url.rsplit("/", 1)[1]
        fetched.append(name)
        route.fulfill(body=served[name], content_type="application/json")

    page.route(f"**/{finder.FOLDER}/*.json", answer)
    page.set_viewport_size(DESKTOP)
    page.goto(f"{base_url_local}runs/")
    total = 4 * TOTAL
    expect(count_text(page)).to_have_text(f"{total} of {total} runs (first 200 listed)")
    # The first screen: two files; then each report's title for its links, and each choice's count.
    expect(page.locator("#run-index a[data-report][title]").first).to_be_attached()
    assert {"facets.json", "rows-0.json"} <= set(fetched)
    assert not [name for name in fetched if name.startswith("rows-") and name != "rows-0.json"]
    rows = page.locator("#run-index tbody tr")
    more = page.locator("#run-more")
    assert more.inner_text() == f"Show 200 more of {total - 200}"
    for shown in (400, 600, 800, total):  # 200 more a click, then the last 76
        more.click()
        expect(rows).to_have_count(shown)
    assert more.is_hidden()
    fetched.clear()
    page.goto(f"{base_url_local}runs/?tool=iperf3&report=vm-vs-bare-metal-c2")  # the third copy's report
    expect(count_text(page)).to_have_text(f"7 of {total} runs")
    assert {"by-tool.json", "by-report.json"} <= set(fetched)
    page.locator("button[data-sort='number']").click()
    page.locator("button[data-sort='number']").click()  # every matching run sorted, not only those listed
    expect(rows.first.locator("td.key-results")).to_have_text(re.compile(r"^Throughput 9\."))

"""Pages a reader understands at a glance, checked in Debian's Chromium at 1440 and 390 px.

Each test is one promise of the report pages: every chart compares at least two
environments (or shows one environment's scenarios), every bar prints its value, titles
sit above charts, ticks read plainly, nothing is wider than a phone, raw links land on
their lines, and the run index filters and sorts. Screenshots of every report at both
widths are kept in tests/artifacts/.
"""

from __future__ import annotations

import re

import pytest

from support import ROOT, interactive

pytestmark = pytest.mark.browser

DESKTOP = {"width": 1440, "height": 900}
PHONE = {"width": 390, "height": 844}


def shipped_reports() -> list[str]:
    return sorted(path.stem for path in (ROOT / "data" / "reports").glob("*.json"))


def drawn(page) -> None:
    """Wait until every chart on the page is drawn by plotly."""
    interactive(page)
    plots = page.locator(".panel__plot, .chart__plot")
    for index in range(plots.count()):
        plots.nth(index).locator("svg.main-svg").first.wait_for(state="visible")


def panels(page) -> list[dict]:
    """What Plotly drew in each panel: its block's kind, bars, printed values, ticks, and title position."""
    return page.evaluate(
        """() => [...document.querySelectorAll('figure.panel')].map(figure => {
            const plot = figure.querySelector('.panel__plot');
            const title = figure.querySelector('figcaption');
            return {
                id: plot.id,
                kind: figure.closest('section.block').dataset.kind,
                bars: plot.querySelectorAll('g.trace.bars g.point').length,
                texts: [...plot.querySelectorAll('text.bartext')].map(t => t.textContent),
                ticks: [...plot.querySelectorAll('g.xtick text, g.ytick text')].map(t => t.textContent),
                titleBottom: title.getBoundingClientRect().bottom,
                plotTop: plot.getBoundingClientRect().top,
            };
        })"""
    )


@pytest.mark.parametrize("report", shipped_reports())
def test_every_chart_compares_two_environments_and_prints_its_values(page, base_url_local, artifacts, report):
    page.set_viewport_size(DESKTOP)
    page.goto(f"{base_url_local}reports/{report}/", wait_until="networkidle")
    drawn(page)
    page.screenshot(path=str(artifacts / f"report-{report}-1440.png"), full_page=True)
    found = panels(page)
    assert found, "every shipped report has a chart"
    for panel in found:
        if panel["kind"] == "comparison":
            assert panel["bars"] >= 2, panel  # a comparison chart never shows one environment alone
        assert len(panel["texts"]) == panel["bars"] and all(panel["texts"]), panel  # each bar prints its value
        assert panel["titleBottom"] <= panel["plotTop"], panel  # the title is above its chart
        for tick in panel["ticks"]:
            assert not re.search(r"\d[kMG]%", tick), (panel["id"], tick)  # no "10k%"
    # The answer comes first: each comparison block opens with its computed verdict.
    for block in page.locator("section.block[data-kind=comparison]").all():
        assert block.locator("h3 + p.verdict").count() == 1


def test_a_one_environment_report_shows_its_scenarios_not_a_comparison(page, base_url_local):
    page.set_viewport_size(DESKTOP)
    page.goto(f"{base_url_local}reports/fio-iops-basics/", wait_until="networkidle")
    drawn(page)
    assert page.locator("section.block[data-kind=comparison]").count() == 0
    fio = page.locator("#cmp-profile-fio-lab-vm-dm0")
    said = fio.locator("p.verdict").inner_text()
    assert said.startswith("Highest IOPS: 29,283 IOPS (Random read, 4 KiB QD128, lasting 8.95 s)")
    iops = fio.locator("figure.panel").first
    assert iops.locator("text.bartext").all_text_contents() == ["12,068", "29,283", "234", "944"]


@pytest.mark.parametrize("report", shipped_reports())
def test_report_pages_fit_a_phone_and_are_screenshotted(page, base_url_local, artifacts, report):
    page.set_viewport_size(PHONE)
    page.goto(f"{base_url_local}reports/{report}/", wait_until="networkidle")
    drawn(page)
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    page.screenshot(path=str(artifacts / f"report-{report}-390.png"), full_page=True)


def test_every_kind_of_page_fits_a_phone(page, base_url_local):
    page.set_viewport_size(PHONE)
    for path in (
        "",
        "runs/",
        "runs/nvme-raw-vs-ext4/nvme-raw-fio-bandwidth-iops-latency-sequential-write-bandwidth-test/",
        "runs/ssd-cloud-disks-lvm-raid/essd-vda-runs-4k-random-read-write/",
        "environments/r730-host/",
        "tools/fio/",
        "raw/nvme-raw-vs-ext4/nvme-raw/fio-bandwidth-iops-latency-md/",
        "search/",
    ):
        response = page.goto(f"{base_url_local}{path}", wait_until="networkidle")
        assert response.ok, path
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"], path


def test_wide_tables_scroll_inside_themselves_keeping_their_first_column(page, base_url_local):
    page.set_viewport_size(PHONE)
    page.goto(f"{base_url_local}reports/vm-vs-bare-metal/", wait_until="networkidle")
    table = page.locator("#cmp-unixbench-value .table-wrap").first
    first_cell = table.locator("tbody th").first
    before = first_cell.bounding_box()["x"]
    table.evaluate("wrap => wrap.scrollBy(400, 0)")
    assert table.evaluate("wrap => wrap.scrollLeft") > 0  # it scrolled: the table is wider than the phone
    assert abs(first_cell.bounding_box()["x"] - before) < 1  # and the environment names stayed in view


def test_commands_wrap_only_at_spaces_on_a_phone(page, base_url_local):
    page.set_viewport_size(PHONE)
    page.goto(
        f"{base_url_local}runs/nvme-raw-vs-ext4/nvme-raw-fio-bandwidth-iops-latency-sequential-write-bandwidth-test/"
    )
    # Where each rendered line of the command starts: the character before it must be a space.
    breaks = page.evaluate(
        """() => {
            const code = document.getElementById('command');
            const walker = document.createTreeWalker(code, NodeFilter.SHOW_TEXT);
            const chars = [];
            while (walker.nextNode()) {
                const node = walker.currentNode;
                for (let i = 0; i < node.length; i++) chars.push([node, i]);
            }
            const range = document.createRange();
            const found = [];
            let lastTop = null, text = '';
            chars.forEach(([node, i]) => {
                range.setStart(node, i); range.setEnd(node, i + 1);
                const rect = range.getClientRects()[0];
                const char = node.data[i];
                if (rect && lastTop !== null && rect.top > lastTop + 2 && char !== ' ') found.push(text.slice(-1));
                if (rect && char !== ' ') lastTop = rect.top;
                text += char;
            });
            return found;
        }"""
    )
    assert breaks, "the command is longer than a phone is wide, so it wraps"
    assert set(breaks) == {" "}, breaks


def test_the_raw_link_opens_the_file_at_the_runs_lines_highlighted(page, base_url_local):
    page.set_viewport_size(DESKTOP)
    page.goto(f"{base_url_local}runs/nvme-raw-vs-ext4/nvme-raw-fio-bandwidth-iops-latency-random-read-iops-test/")
    link = page.locator("a.raw-link")
    assert link.inner_text() == "fio-bandwidth-iops-latency.md, lines 272–304"
    link.click()
    page.wait_for_load_state("networkidle")
    assert page.url.endswith("/raw/nvme-raw-vs-ext4/nvme-raw/fio-bandwidth-iops-latency-md/?lines=272-304#L272")
    highlighted = page.locator(".raw__line--run")
    assert highlighted.count() == 304 - 272 + 1
    assert "random_read_iops_test" in page.locator("#L272").inner_text() + page.locator("#L274").inner_text()
    top = page.locator("#L272").bounding_box()["y"]
    assert 0 <= top < DESKTOP["height"]  # scrolled to it, not the top of a 26 KB file


def test_a_manual_run_shows_what_it_has_and_no_empty_sections(page, base_url_local):
    page.goto(f"{base_url_local}runs/nvme-raw-vs-ext4/nvme-ext4-sequential-write-bandwidth-test/")
    text = page.locator("main").inner_text()
    assert page.locator("#command-heading").count() == 0 and page.locator("#reproduce-heading").count() == 0
    assert "typed by hand" in text
    assert page.locator(".headline-numbers dd").first.inner_text() == "1,853 MiB/s"  # typed: no printed token
    for table in page.locator("main table").all():  # no table of nothing but n/a
        cells = table.locator("tbody td").all_inner_texts()
        assert any(cell.strip() not in ("", "n/a") for cell in cells)


def test_flags_are_explained_on_the_page_and_work_by_touch(page, base_url_local):
    page.goto(f"{base_url_local}reports/nvme-raw-vs-ext4/")
    # textContent: a section below the screen is not laid out yet (content-visibility), and innerText is
    # the laid-out text.
    assert "⚠ marks a run a methodology check flagged" in page.locator(".legend").first.text_content()
    flag = page.locator("table.comparison a.flag").first
    href = flag.get_attribute("href")
    assert href.endswith("#checks-heading")  # a tap opens the run's checks; no hover needed
    left_out = page.locator("details#left-out")
    assert left_out.count() == 1 and left_out.get_attribute("open") is None  # listed once, folded


def test_the_unit_switch_redraws_charts_and_verdicts_too(page, base_url_local):
    page.set_viewport_size(DESKTOP)
    page.goto(f"{base_url_local}reports/nvme-raw-vs-ext4/", wait_until="networkidle")
    page.evaluate("localStorage.clear()")
    page.reload(wait_until="networkidle")
    plot = page.locator("#chart-raw-device-summary-1")
    interactive(page)
    plot.locator("svg.main-svg").first.wait_for(state="visible")
    assert plot.locator("text.bartext").all_text_contents() == ["927 MiB/s", "1,853 MiB/s"]
    page.locator("#unit-toggle").click()  # as printed -> SI
    page.wait_for_function(
        "document.querySelector('#chart-raw-device-summary-1 text.bartext').textContent === '972 MB/s'"
    )
    assert plot.locator("text.bartext").all_text_contents() == ["972 MB/s", "1,943 MB/s"]
    assert page.locator("#chart-raw-device-summary-1-figure .panel__unit").inner_text().startswith("MB/s")
    ssd = page.context.new_page()
    ssd.goto(f"{base_url_local}reports/ssd-cloud-disks-lvm-raid/", wait_until="networkidle")  # remembered: SI
    verdict = ssd.locator("#cmp-hygon33-dd p.verdict").text_content()  # not laid out until near the screen
    assert "979 MB/s" in verdict  # dd prints SI; the chart and the table say the same
    ssd.locator("#unit-toggle").click()  # SI -> IEC
    assert "934 MiB/s" in ssd.locator("#cmp-hygon33-dd p.verdict").text_content()
    ssd.evaluate("localStorage.clear()")


def test_the_unit_switch_redraws_a_run_pages_byte_chart(page, base_url_local):
    page.goto(f"{base_url_local}runs/vm-vs-bare-metal/r730-host-mbw/", wait_until="networkidle")
    page.evaluate("localStorage.clear()")
    page.reload(wait_until="networkidle")
    plot = page.locator("#chart-iterations")
    interactive(page)
    plot.locator("svg.main-svg").first.wait_for(state="visible")
    assert plot.locator("text.ytitle").text_content() == "MiB/s"  # as mbw printed it
    first = plot.evaluate("node => node.data[0].y[0]")
    page.locator("#unit-toggle").click()  # as printed -> SI
    page.wait_for_function("document.querySelector('#chart-iterations text.ytitle').textContent === 'MB/s'")
    assert plot.evaluate("node => node.data[0].y[0]") == pytest.approx(first * 2**20 / 1e6)
    page.evaluate("localStorage.clear()")

"""The answer before any JavaScript (issue 32): every chart's static rendering is on the page, fits a
phone and a desktop with every label inside its box, and says what plotly says once the reader
reaches for the chart; plotly.js is fetched only then."""

from __future__ import annotations

import pytest
from test_drawn_charts import COMPARE_PAGE, chart_pages

from support import interactive

pytestmark = pytest.mark.browser

WIDTHS = (390, 1440)
REPORT = "reports/vm-vs-bare-metal/"  # the largest report: 29 charts of bars
LOGGED_RUN = "runs/build-vm-disk-busy/build-vm-vda-fio-logs-20261124-234359-randwrite-logged/"

# Every chart's static rendering as laid out: its box, its shown layers' boxes, each label's box.
LAID_OUT = """() => [...document.querySelectorAll('[data-chart]')].map((plot) => {
  const box = plot.getBoundingClientRect();
  const shown = [...plot.querySelectorAll('.chart__static')].filter((s) => getComputedStyle(s).display !== 'none');
  const labels = shown.flatMap((s) => [...s.querySelectorAll('text')]).map((t) => {
    const r = t.getBoundingClientRect();
    return { text: t.textContent, left: r.left, right: r.right, top: r.top, bottom: r.bottom };
  });
  const marks = shown.map((s) => s.querySelector('.chart__marks').getBoundingClientRect().width);
  return { id: plot.id, box: { left: box.left, right: box.right, top: box.top, bottom: box.bottom, height: box.height },
           shown: shown.length, labels, marks };
})"""


@pytest.fixture(scope="module")
def static_pages(built_site) -> list[str]:
    return [path for path in chart_pages(built_site) if path != COMPARE_PAGE]


def test_every_chart_is_readable_with_scripts_off_at_a_phones_width_and_a_desktops(
    browser, base_url_local, static_pages
):
    off = []
    for width in WIDTHS:
        context = browser.new_context(viewport={"width": width, "height": 900}, java_script_enabled=False)
        page = context.new_page()
        for path in static_pages:
            page.goto(base_url_local + path)
            charts = page.evaluate(LAID_OUT)
            assert charts, path
            for chart in charts:
                where = f"{path}#{chart['id']} at {width} px"
                assert chart["shown"] == 1, where  # one rendering: the printed convention's
                assert chart["box"]["height"] >= 60 and chart["marks"][0] > 50, where
                assert len(chart["labels"]) >= 2, where  # values, ticks, titles
                box = chart["box"]
                for label in chart["labels"]:
                    # Inside the chart's box, or within a few px of it (a tick label centred on the axis's end).
                    if label["left"] < box["left"] - 4 or label["right"] > box["right"] + 4:
                        off.append(f"{where}: {label['text']!r} runs out sideways")
                    if label["top"] < box["top"] - 4 or label["bottom"] > box["bottom"] + 4:
                        off.append(f"{where}: {label['text']!r} runs out vertically")
        context.close()
    assert off == []


def test_plotly_is_fetched_only_when_the_reader_reaches_for_a_chart(browser, base_url_local):
    context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True)
    page = context.new_page()
    fetched = []
    page.on("request", lambda request: fetched.append(request.url))
    page.goto(base_url_local + REPORT, wait_until="networkidle")
    page.mouse.move(-1, -1)
    for _ in range(12):  # read to the end without touching a chart
        page.evaluate("window.scrollBy(0, window.innerHeight)")
        page.wait_for_timeout(100)
    page.wait_for_timeout(500)
    assert [url for url in fetched if "plotly" in url or url.endswith("/charts.json")] == []
    assert page.locator("svg.main-svg").count() == 0
    page.evaluate("window.scrollTo(0, 0)")
    plot = page.locator("[data-chart]").first
    plot.scroll_into_view_if_needed()
    before = plot.bounding_box()
    printed = plot.evaluate(
        "el => [...el.querySelectorAll('.chart__static text.v')].filter(t => t.getBBox().width).map(t => t.textContent)"
    )
    plot.tap()
    plot.locator("svg.main-svg").first.wait_for(state="visible")
    assert len([url for url in fetched if "plotly" in url]) == 1
    # The report's chart specs, fetched with plotly, once for all its charts.
    assert [url for url in fetched if url.endswith("/charts.json")] == [f"{base_url_local}{REPORT}charts.json"]
    assert plot.get_attribute("data-interactive") == "true"
    assert plot.locator(".chart__static").count() == 0
    after = plot.bounding_box()
    assert (after["y"], after["height"]) == (before["y"], before["height"])  # nothing moved
    # The tap was for a value: the one under it shows without a second tap.
    plot.locator(".hoverlayer text").first.wait_for()
    hover = " ".join(plot.locator(".hoverlayer text").all_text_contents())
    assert printed and any(value in hover for value in printed), (printed, hover)
    context.close()


def test_a_keyboard_reaches_a_chart_and_makes_it_interactive(page, base_url_local):
    page.goto(base_url_local + REPORT, wait_until="networkidle")
    page.locator("[data-chart]").first.focus()
    page.locator("[data-chart]").first.locator("svg.main-svg").first.wait_for(state="visible")


# The static rendering and plotly's, of the same series: what each prints.
PRINTED = """() => [...document.querySelectorAll('[data-chart]')].map((plot) => {
  const shown = [...plot.querySelectorAll('.chart__static')].find((s) => getComputedStyle(s).display !== 'none');
  const read = (css) => [...shown.querySelectorAll(css)].map((t) => t.textContent);
  return { id: plot.id, values: read('text.v'), ytitle: read('text.ty'), xtitle: read('text.tx'),
           yticks: read('text.y'), xticks: read('text.x'), log: read('text.ty').some((t) => t.endsWith(', log)')) };
})"""
DRAWN = """() => [...document.querySelectorAll('[data-chart]')].map((plot) => {
  const read = (css) => [...plot.querySelectorAll(css)].map((t) => t.textContent.trim());
  return { id: plot.id, values: read('text.bartext'), ytitle: read('text.ytitle'), xtitle: read('text.xtitle'),
           yticks: read('.yaxislayer-above .ytick text, .yaxislayer-above text.ytick'),
           xticks: read('.xaxislayer-above .xtick text, .xaxislayer-above text.xtick') };
})"""


@pytest.mark.parametrize(
    "path",
    [
        REPORT,
        "reports/nvme-raw-vs-ext4/",
        "runs/build-vm-disk-busy/build-vm-vda-fio-logs-20261124-234359-randwrite-logged/",
    ],
)
def test_the_static_rendering_says_what_plotly_draws(page, base_url_local, path):
    """Bar values and their axis's ticks, axis titles, a log axis's ticks: from one spec in both renderings,
    so nothing changes when a chart turns interactive."""
    page.set_viewport_size({"width": 1440, "height": 900})
    page.goto(base_url_local + path, wait_until="networkidle")
    still = {chart["id"]: chart for chart in page.evaluate(PRINTED)}
    interactive(page)
    drawn = {chart["id"]: chart for chart in page.evaluate(DRAWN)}
    assert set(still) == set(drawn)
    compared = 0
    for chart_id, static in still.items():
        plotly = drawn[chart_id]
        if static["values"]:  # a bar chart: its values, and the axis they are read against
            assert static["values"] == plotly["values"], chart_id
            assert static["xticks"] == plotly["xticks"], chart_id
            compared += 1
        assert static["ytitle"] == plotly["ytitle"] and static["xtitle"] == plotly["xtitle"], chart_id
        if static["log"]:
            assert static["yticks"] == plotly["yticks"], chart_id
            compared += 1
    assert compared >= 1

"""What only a browser shows: the chart drawn from the vendored bundle, offline; copy buttons."""

from __future__ import annotations

import socket
import subprocess
from urllib.parse import urlparse

import pytest

from perfwiki.ingest import load_report
from support import ROOT, copy_site_sources, hugo_binary, interactive, perfwiki_command

pytestmark = pytest.mark.browser
REPORT = "nvme-raw-vs-ext4"
RUN = "nvme-raw-fio-bandwidth-iops-latency-sequential-write-bandwidth-test"
LOCAL_HOSTS = {"127.0.0.1", "wiki.test"}


def exact_command() -> str:
    document = load_report(ROOT, REPORT)
    return next(run["command"] for run in document["runs"] if run["id"] == RUN)


def watch(page):
    """Lists that fill with console errors and with requests to anything but this machine."""
    errors, remote = [], []
    page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    page.on("pageerror", lambda error: errors.append(str(error)))

    def record(request):
        parsed = urlparse(request.url)
        if parsed.scheme in ("http", "https", "ws", "wss") and parsed.hostname not in LOCAL_HOSTS:
            remote.append(request.url)

    page.on("request", record)
    return errors, remote


def test_report_chart_is_drawn_offline_without_console_errors(page, base_url_local, artifacts):
    errors, remote = watch(page)
    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto(f"{base_url_local}reports/{REPORT}/", wait_until="networkidle")
    plot = page.locator("#chart-raw-device-summary-1")
    interactive(page)
    plot.locator("svg.main-svg").first.wait_for(state="visible")
    assert plot.locator("g.trace.bars g.point").count() == 2
    ticks = {text.strip() for text in plot.locator("g.ytick text").all_text_contents()}
    # typed by hand: said, and hatched; "faster" than its own raw device: left out of the verdict, said too
    assert ticks == {"nvme-raw (baseline)", "nvme-ext4 (typed) (left out)"}
    assert plot.locator("text.bartext").all_text_contents() == ["927 MiB/s", "1,853 MiB/s"]
    page.screenshot(path=str(artifacts / "report-nvme-raw-vs-ext4.png"), full_page=True)
    assert errors == []
    assert remote == []


def test_run_page_has_no_console_errors_and_stays_local(page, base_url_local):
    errors, remote = watch(page)
    page.goto(f"{base_url_local}runs/{REPORT}/{RUN}/", wait_until="networkidle")
    assert page.locator("#command").text_content() == exact_command()
    assert errors == [] and remote == []


def test_copy_button_puts_the_exact_command_on_the_clipboard(page, context, base_url_local):
    context.grant_permissions(
        ["clipboard-read", "clipboard-write"], origin=base_url_local.rstrip("/").rsplit("/", 1)[0]
    )
    page.goto(f"{base_url_local}runs/{REPORT}/{RUN}/")
    button = page.locator('button[data-copy="command"]')
    button.click()
    page.wait_for_function("document.querySelector('button[data-copy=command]').textContent === 'Copied'")
    assert page.evaluate("navigator.clipboard.readText()") == exact_command()


def test_a_command_cited_in_a_narrative_copies_exactly_and_reads_well_on_a_phone(
    page, context, base_url_local, artifacts
):
    context.grant_permissions(
        ["clipboard-read", "clipboard-write"], origin=base_url_local.rstrip("/").rsplit("/", 1)[0]
    )
    for width in (1440, 390):
        page.set_viewport_size({"width": width, "height": 900})
        page.goto(f"{base_url_local}reports/{REPORT}/", wait_until="networkidle")
        figure = page.locator("figure.cite-command")
        figure.scroll_into_view_if_needed()
        figure.screenshot(path=str(artifacts / f"cited-command-{width}.png"))
        # The block fits the page's width: a phone scrolls the page, never sideways.
        box = figure.bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= width
    button = page.locator("figure.cite-command button.copy")
    button.click()
    page.wait_for_function("document.querySelector('figure.cite-command button.copy').textContent === 'Copied'")
    assert page.evaluate("navigator.clipboard.readText()") == exact_command()


def test_copy_button_falls_back_on_a_plain_http_origin(page, context, base_url_insecure, base_url_local):
    # A secure page of the same browser reads the clipboard; start it with a sentinel so
    # that a command left there by another test cannot make this one pass.
    origin = base_url_local.rstrip("/").rsplit("/", 1)[0]
    context.grant_permissions(["clipboard-read", "clipboard-write"], origin=origin)
    reader = context.new_page()
    reader.goto(base_url_local)
    reader.evaluate("navigator.clipboard.writeText('sentinel')")
    assert reader.evaluate("navigator.clipboard.readText()") == "sentinel"

    page.goto(f"{base_url_insecure}runs/{REPORT}/{RUN}/")
    assert page.evaluate("window.isSecureContext") is False
    assert page.evaluate("typeof navigator.clipboard") == "undefined"
    page.locator('button[data-copy="command"]').click()
    page.wait_for_function("document.querySelector('button[data-copy=command]').textContent === 'Copied'")
    assert reader.evaluate("navigator.clipboard.readText()") == exact_command()


def chart_colours(page) -> dict:
    """The text colour and first trace colour Plotly actually drew."""
    return page.evaluate(
        """() => {
            const plot = document.querySelector('.chart__plot, .panel__plot');
            return {font: plot._fullLayout.font.color, trace: plot._fullData[0].marker.color,
                    background: getComputedStyle(document.body).backgroundColor};
        }"""
    )


def test_dark_mode_recolours_the_charts_and_screenshots(browser, base_url_local, artifacts):
    colours = {}
    for scheme in ("light", "dark"):
        context = browser.new_context(color_scheme=scheme, viewport={"width": 1280, "height": 900})
        page = context.new_page()
        errors, remote = watch(page)
        page.goto(f"{base_url_local}reports/vm-vs-bare-metal/", wait_until="networkidle")
        interactive(page)
        page.locator(".panel__plot svg.main-svg").first.wait_for(state="visible")
        colours[scheme] = chart_colours(page)
        page.screenshot(path=str(artifacts / f"report-vm-vs-bare-metal-{scheme}.png"), full_page=True)
        assert errors == [] and remote == []
        context.close()
    assert colours["light"]["font"] != colours["dark"]["font"]
    assert colours["light"]["background"] != colours["dark"]["background"]


def test_search_finds_a_command_fragment(page, base_url_local):
    errors, remote = watch(page)
    page.goto(f"{base_url_local}search/", wait_until="networkidle")
    # A fragment of the Windows guests' fio command: only their runs used this engine.
    page.locator(".pagefind-ui__search-input").fill("windowsaio")
    results = page.locator(".pagefind-ui__result-link")
    results.first.wait_for(state="visible", timeout=10_000)
    more = page.locator(".pagefind-ui__button")
    for _ in range(10):  # "Load more results", as a reader would
        if not more.count():
            break
        shown = results.count()
        more.first.click()
        page.wait_for_function(f"document.querySelectorAll('.pagefind-ui__result-link').length > {shown}")
    hrefs = [results.nth(i).get_attribute("href") for i in range(results.count())]
    runs = {href.split("#")[0] for href in hrefs if "/runs/" in href}
    # The Windows guests' runs are found by their command; no Linux run used that engine.
    assert len(runs) >= 10 and all("/runs/vm-vs-bare-metal/win2008-vm-" in href for href in runs), runs
    assert errors == [] and remote == []


def test_unit_toggle_switches_every_byte_quantity_and_remembers(page, base_url_local):
    errors, _ = watch(page)
    page.goto(f"{base_url_local}reports/vm-vs-bare-metal/")
    first = page.locator(".quantity[data-iec$='B/s']").first
    printed = first.text_content()
    assert printed.endswith("iB/s")  # fio prints IEC units, so the page starts with them
    # A count fio printed as "IOPS=28.7k" reads so under "as printed", and in full under SI or IEC.
    count = page.locator("#cmp-local-storage-iops-of-the-physical-host-centos-vm-writeback-q4 .quantity").first
    assert (count.text_content(), count.get_attribute("data-si")) == ("28.7k", "28,700")
    page.locator("#unit-toggle").click()  # as printed -> SI
    assert page.locator("#unit-toggle").text_content() == "Units: SI (MB)"
    assert first.text_content() == first.get_attribute("data-si") and "iB" not in first.text_content()
    assert count.text_content() == "28,700"
    page.goto(f"{base_url_local}runs/vm-vs-bare-metal/r730-host-random-read/")
    byte = page.locator(".quantity[data-iec$='B/s']").first
    assert byte.text_content().endswith(" kB/s")  # the choice holds site-wide
    page.locator("#unit-toggle").click()  # SI -> IEC
    page.locator("#unit-toggle").click()  # IEC -> as printed
    assert page.locator("#unit-toggle").text_content() == "Units: as printed"
    assert errors == []


def shipped_reports() -> list[str]:
    return sorted(path.stem for path in (ROOT / "data" / "reports").glob("*.json"))


def test_every_report_page_draws_offline(page, base_url_local):
    reports = shipped_reports()
    assert len(reports) >= 4
    errors, remote = watch(page)
    page.set_viewport_size({"width": 1280, "height": 900})
    for report in reports:
        page.goto(f"{base_url_local}reports/{report}/", wait_until="networkidle")
        interactive(page)
        charts = page.locator(".chart__plot, .panel__plot")
        for index in range(charts.count()):
            charts.nth(index).locator("svg.main-svg").first.wait_for(state="visible")
    assert errors == [] and remote == []


def test_run_page_leads_with_its_results_above_the_first_chart(page, base_url_local):
    page.set_viewport_size({"width": 1440, "height": 900})
    page.goto(f"{base_url_local}runs/{REPORT}/{RUN}/")
    numbers = page.locator(".headline-numbers")
    assert numbers.locator("dt").all_inner_texts()[:2] == ["IOPS", "Bandwidth"]
    assert numbers.locator("dd").all_inner_texts()[:2] == ["872", "927MiB/s"]  # as fio printed them, to the character
    assert numbers.locator("div").first.get_attribute("title") == "higher is better"
    results_top = numbers.bounding_box()["y"]
    first_chart = page.locator("figure.chart").first
    assert results_top < first_chart.bounding_box()["y"]
    assert results_top < 900  # in the first screen, not after the parameter table


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.fixture(scope="module")
def plain_hugo_serve(tmp_path_factory):
    """The mission's own commands on a copy of the site: `perfwiki ingest`, then `hugo server`, nothing else."""
    site = copy_site_sources(tmp_path_factory.mktemp("plain"))
    subprocess.run(perfwiki_command() + ["ingest", "--root", str(site)], check=True, capture_output=True)
    port = free_port()
    server = subprocess.Popen(
        [str(hugo_binary()), "server", "--port", str(port), "--bind", "127.0.0.1", "--renderToMemory"],
        cwd=site,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        for line in server.stdout:
            if "Web Server is available" in line:
                break
        yield f"http://127.0.0.1:{port}/"
    finally:
        server.terminate()
        server.wait(timeout=30)


def test_search_works_under_plain_hugo_serve_without_a_pagefind_index(page, plain_hugo_serve):
    page.goto(f"{plain_hugo_serve}search/", wait_until="networkidle")
    field = page.get_by_role("searchbox", name="Search reports, environments, runs and commands", exact=True)
    assert field.get_attribute("class") == "search__input"  # named by its <label for>, not a placeholder
    field.fill("windowsaio")
    results = page.locator(".search__result")
    results.first.wait_for(state="visible", timeout=10_000)
    hrefs = [results.nth(index).get_attribute("href") for index in range(results.count())]
    # Only the Windows guests' fio runs used that engine: found by their command, and nothing else.
    assert len(hrefs) >= 10 and all("/runs/vm-vs-bare-metal/win2008-vm-" in href for href in hrefs), hrefs
    assert "index has not been built" not in page.locator("main").inner_text()


def test_a_search_can_be_linked(page, base_url_local):
    page.goto(f"{base_url_local}search/?q=windowsaio", wait_until="networkidle")
    results = page.locator(".pagefind-ui__result-link")
    results.first.wait_for(state="visible", timeout=10_000)
    assert page.locator(".pagefind-ui__search-input").input_value() == "windowsaio"

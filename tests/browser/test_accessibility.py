"""Accessibility in Chromium: axe-core over one page of every kind, in light and dark colours; the
search field's label; the 404 page as a web server serves it at a missing address."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from support import ROOT, interactive, perfwiki_command

pytestmark = pytest.mark.browser
AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"
SEARCH_LABEL = "Search reports, environments, runs and commands"
EXPORTED = "nvme-raw-vs-ext4"
# Every chart drawn, and every stylesheet applied (search.js adds Pagefind's once its index loads).
DRAWN = """() => [...document.querySelectorAll('[data-chart]')].every(plot => plot.querySelector('svg.main-svg'))
    && [...document.querySelectorAll('link[rel=stylesheet]')].every(link => link.sheet)"""

# One page of every kind the wiki has, and what shows it is drawn: axe checks what a reader sees,
# so charts, the runs list, the comparison and search results must be there first. Where the kind
# allows, a small one: axe's time grows with the elements of a page (the fio tool page lists every fio run).
PAGES = {
    "home": ("", None),
    "reports list": ("reports/", None),
    "report, many environments": ("reports/vm-vs-bare-metal/", None),
    "report, one environment": ("reports/build-vm-disk-quiet/", None),
    "report, raw device vs file system": ("reports/nvme-raw-vs-ext4/", None),
    "run, fio": ("runs/nvme-raw-vs-ext4/nvme-raw-fio-bandwidth-iops-latency-sequential-write-bandwidth-test/", None),
    "run, iperf3": ("runs/vm-vs-bare-metal/classic-vm-to-vm-iperf3/", None),
    "run, fio with its logs": ("runs/build-vm-disk-quiet/build-vm-vda-fio-logs-20261124-234311-randread-logged/", None),
    "environment": ("environments/build-vm-vda/", None),
    "scenario": ("scenarios/fio-read-randread-4096-16-1-direct-libaio-file/", None),
    "tool": ("tools/iperf3/", None),
    "raw file": ("raw/vm-vs-bare-metal/classic-vm-to-vm/iperf3-md/", None),
    "runs list": ("runs/?tool=iperf3", "#run-index tbody tr"),
    "compare": ("compare/?env=r730-host,centos-vm-writeback,win2008-vm-writeback", "#compare-result table"),
    "search": ("search/?q=windowsaio", ".pagefind-ui__result-link"),
    "404": ("reports/no-such-report/", None),
}


def serious_violations(page, where: str) -> list[str]:
    """axe-core's violations of impact serious or critical on the page as it is now, one line each."""
    page.add_script_tag(path=str(AXE))
    results = page.evaluate("axe.run(document, {resultTypes: ['violations']})")
    # The contrast rule found text to measure and measured it: an axe that checked nothing passes too.
    assert "color-contrast" in {rule["id"] for rule in results["passes"] + results["violations"]}, where
    return [
        f"{violation['id']} ({violation['impact']}) at {', '.join(map(str, node['target']))} on {where}: "
        f"{violation['help']}"
        for violation in results["violations"]
        if violation["impact"] in ("serious", "critical")
        for node in violation["nodes"]
    ]


@pytest.fixture(scope="module")
def exported(built_site, base_url_local, tmp_path_factory) -> Path:
    """A portable report, as `perfwiki export` writes it, to open from disk (built_site ingested data/)."""
    path = tmp_path_factory.mktemp("export") / f"{EXPORTED}.html"
    command = ["export", EXPORTED, "--root", str(ROOT), "--wiki", base_url_local, "-o", str(path)]
    subprocess.run(perfwiki_command() + command, check=True, capture_output=True)
    return path


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_no_page_kind_has_a_serious_accessibility_violation(browser, base_url_local, exported, scheme):
    assert AXE.is_file(), f"{AXE} is missing: run `make setup` (npm ci installs axe-core)"
    context = browser.new_context(color_scheme=scheme, viewport={"width": 1280, "height": 900})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    found: list[str] = []
    addresses = {name: (f"{base_url_local}{path}", ready) for name, (path, ready) in PAGES.items()}
    addresses["portable export"] = (exported.as_uri(), None)
    try:
        for name, (address, ready) in addresses.items():
            page.goto(address)
            assert page.evaluate("matchMedia('(prefers-color-scheme: dark)').matches") == (scheme == "dark")
            interactive(page)
            page.wait_for_function(DRAWN)
            if ready:
                page.locator(ready).first.wait_for()
            found += serious_violations(page, f"{name} ({address})")
    finally:
        context.close()
    assert found == [], f"{len(found)} serious or critical axe violations in {scheme} colours:\n" + "\n".join(found)
    assert errors == []


def test_the_search_field_is_named_by_its_label(page, base_url_local):
    page.goto(f"{base_url_local}search/", wait_until="networkidle")
    label = page.locator("label[for='search-input']")
    assert label.inner_text() == SEARCH_LABEL and label.is_visible()  # on screen, not only a placeholder
    # The label names Pagefind's own field: typing into what the label names searches.
    field = page.get_by_role("textbox", name=SEARCH_LABEL, exact=True)
    assert field.evaluate("input => input.classList.contains('pagefind-ui__search-input')")
    field.fill("windowsaio")
    page.locator(".pagefind-ui__result-link").first.wait_for(state="visible", timeout=10_000)
    assert page.get_by_label(SEARCH_LABEL, exact=True).input_value() == "windowsaio"


def test_a_missing_address_is_answered_with_the_404_page(page, base_url_local):
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    failed: list[str] = []
    page.on("requestfailed", lambda request: failed.append(request.url))
    page.on("response", lambda response: failed.append(response.url) if response.status >= 400 else None)
    missing = f"{base_url_local}reports/no-such-report/deeper/"
    response = page.goto(missing, wait_until="networkidle")
    assert response.status == 404
    assert page.locator("h1").inner_text() == "Page not found"
    # Styled from however deep it is served: the stylesheet's root-relative address loaded.
    assert page.evaluate("getComputedStyle(document.querySelector('main')).maxWidth") == "1152px"
    assert failed == [missing]  # the page's own 404; every stylesheet and script it asks for is there
    # Chromium reports the document's own 404 status on the console; nothing else may be there.
    assert [error for error in errors if "status of 404" not in error] == []
    page.get_by_label("Search the wiki for what this page showed").fill("windowsaio")
    page.get_by_role("button", name="Search").click()
    page.wait_for_url(f"{base_url_local}search/?q=windowsaio")
    page.locator(".pagefind-ui__result-link").first.wait_for(state="visible", timeout=10_000)
    page.go_back()
    page.get_by_role("main").get_by_role("link", name="Runs", exact=True).click()
    page.wait_for_url(f"{base_url_local}runs/")

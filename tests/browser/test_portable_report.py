"""A portable report (`perfwiki export REPORT --format html`) opened from disk in Chromium: it draws
every chart with no network and no wiki, and its copy buttons work."""

from __future__ import annotations

import subprocess
from urllib.parse import urlparse

import pytest

from support import ROOT, perfwiki_command

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("report", ["vm-vs-bare-metal", "nvme-raw-vs-ext4"])
def test_the_exported_file_draws_every_chart_offline(page, tmp_path, artifacts, report):
    ingest = subprocess.run(perfwiki_command() + ["ingest", "--root", str(ROOT)], capture_output=True, text=True)
    assert ingest.returncode == 0, ingest.stderr
    exported = tmp_path / f"{report}.html"
    subprocess.run(
        perfwiki_command() + ["export", report, "--root", str(ROOT), "-o", str(exported)],
        check=True,
        capture_output=True,
    )
    errors, requests = [], []
    page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("request", lambda request: requests.append(request.url))
    for width in (1440, 390):
        page.set_viewport_size({"width": width, "height": 900})
        page.goto(exported.as_uri())
        panels = page.locator(".panel__plot")
        assert panels.count() > 0
        for index in range(panels.count()):
            panels.nth(index).locator("svg.main-svg").first.wait_for(state="visible")
        page.screenshot(path=str(artifacts / f"export-{report}-{width}.png"), full_page=True)
        # Wide tables scroll inside their frame; the page itself never scrolls sideways.
        assert page.evaluate("document.documentElement.scrollWidth") <= width
    assert errors == []
    assert {urlparse(url).scheme for url in requests} == {"file"}  # the file itself, nothing else
    button = page.locator(".code button.copy").first
    button.click()
    page.wait_for_function("document.querySelector('.code button.copy').textContent === 'Copied'")

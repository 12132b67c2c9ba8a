"""Hostile raw output renders as text: a command with <script> and a label with an <img onerror>."""

from __future__ import annotations

import subprocess

import pytest

from perfwiki import runstore
from perfwiki.ingest import load_report
from perfwiki.perf import serve
from support import ROOT, copy_site_sources, hugo_binary, interactive, perfwiki_command

pytestmark = pytest.mark.browser

REPORT = "nvme-raw-vs-ext4"
LABEL = '<img src=x onerror="window.__pwned=1">'
COMMAND = "fio --name='<script>window.__pwned=2</script>' --rw=randrw --bs=4k --numjobs=2 --size=8M --filename=/tmp/x"


@pytest.fixture(scope="module")
def hostile_site(tmp_path_factory):
    """The example wiki plus one transcript whose label and command are HTML; built and served."""
    site = copy_site_sources(tmp_path_factory.mktemp("hostile"))
    output = (ROOT / "tests" / "fixtures" / "fio" / "fio-3.33-randrw-numjobs2.txt").read_text(encoding="utf-8")
    raw = site / "content" / "reports" / REPORT / "raw" / "nvme-raw" / "hostile.txt"
    raw.write_text(f"# {LABEL}\n$ {COMMAND}\n{output}", encoding="utf-8")
    ingest = subprocess.run(perfwiki_command() + ["ingest", "--root", str(site)], capture_output=True, text=True)
    assert ingest.returncode == 0, ingest.stderr
    public = site / "public"
    build = subprocess.run(
        [str(hugo_binary()), "--panicOnWarning", "-d", str(public)], cwd=site, capture_output=True, text=True
    )
    assert build.returncode == 0, build.stdout + build.stderr
    run = next(run for run in load_report(site, REPORT)["runs"] if run["command"] == COMMAND)
    page = runstore.run_page(site, REPORT, run["id"])
    run["scenario"] = page["scenarios"][0]
    with serve(public) as port:
        yield f"http://127.0.0.1:{port}/", run


def visit(page, url):
    dialogs, errors = [], []
    page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(url, wait_until="networkidle")
    page.wait_for_timeout(300)  # an onerror handler would have fired by now
    assert page.evaluate("window.__pwned") is None, url
    assert dialogs == [] and errors == [], url
    assert page.locator("img[src=x]").count() == 0, url


def test_run_page_shows_the_command_and_label_as_text(page, hostile_site):
    base, run = hostile_site
    assert run["label"] == LABEL
    visit(page, f"{base}runs/{REPORT}/{run['id']}/")
    assert page.locator("#command").text_content() == COMMAND
    assert LABEL in page.locator("h1").text_content()
    assert page.locator("script", has_text="__pwned").count() == 0


def test_report_environment_and_scenario_pages_stay_inert(page, hostile_site):
    base, run = hostile_site
    visit(page, f"{base}reports/{REPORT}/")
    assert LABEL in page.locator("body").text_content()  # in the runs table, as text
    interactive(page)
    page.locator(".panel__plot svg.main-svg").first.wait_for(state="visible")
    visit(page, f"{base}environments/nvme-raw/")
    visit(page, f"{base}scenarios/{run['scenario']}/")
    assert LABEL in page.locator("body").text_content()  # the run's title in the scenario table

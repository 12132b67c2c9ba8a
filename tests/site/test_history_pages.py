"""History on the built pages: the busy pass's report says what changed since the quiet one, and
the scenario page tells the two passes apart."""

from __future__ import annotations

import re

import pytest

pytestmark = pytest.mark.site
RANDREAD = "fio-read-randread-4096-16-1-direct-libaio-file"


def page(site, path: str) -> str:
    return (site / "bench" / path / "index.html").read_text(encoding="utf-8")


def test_a_report_lists_what_changed_since_an_earlier_report(built_site):
    html = page(built_site, "reports/build-vm-disk-busy")
    since = html[html.index('id="since-heading"') : html.index("</section>", html.index('id="since-heading"'))]
    assert since.count('class="badge badge--regression">regression</span>') == 2
    assert (
        'href="/bench/runs/build-vm-disk-quiet/build-vm-vda-fio-logs-20261124-234311-randread-logged/">its run</a>'
        in since
    )
    assert (
        'href="/bench/runs/build-vm-disk-busy/build-vm-vda-fio-logs-20261124-234359-randread-logged/">its run</a>'
        in since
    )
    assert re.search(r"IOPS 92,251 → 19,808 \(−78\.5 %\)", since)
    # The earlier report has nothing before it.
    assert 'id="since-heading"' not in page(built_site, "reports/build-vm-disk-quiet")


def test_the_scenario_page_names_each_pass_by_its_report(built_site):
    html = page(built_site, f"scenarios/{RANDREAD}")
    assert 'id="history-heading"' in html and 'id="chart-history"' in html
    assert (
        '"name":"build-vm-vda (build-vm-disk-quiet)"' in html and '"name":"build-vm-vda (build-vm-disk-busy)"' in html
    )

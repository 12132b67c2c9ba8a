"""No page a reader can open freezes a browser: every built HTML page of the example wiki under 2 MB
(issue 32; `make perf` counts them at scale in every site it builds, pages_over_2mb)."""

from __future__ import annotations

MAX_PAGE_BYTES = 2 * 2**20


def test_no_built_page_is_over_2_mb(built_site):
    pages = sorted(built_site.rglob("*.html"), key=lambda page: page.stat().st_size, reverse=True)
    assert len(pages) > 300  # the whole site: reports, runs, raw outputs, scenarios, tools
    largest = pages[0]
    assert largest.stat().st_size < MAX_PAGE_BYTES, (largest.relative_to(built_site), largest.stat().st_size)

"""One answer per environment, as a reader sees it: the summary table that opens a report of three
or more environments, in Debian's Chromium on a phone and a desktop."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.browser

REPORT = "reports/vm-vs-bare-metal/"


@pytest.mark.parametrize("width", [390, 1440])
def test_the_summary_answers_first_and_fits(page, base_url_local, artifacts, width):
    page.set_viewport_size({"width": width, "height": 844 if width == 390 else 900})
    page.goto(f"{base_url_local}{REPORT}", wait_until="networkidle")
    table = page.locator("table.summary-table")
    table.scroll_into_view_if_needed()
    page.screenshot(path=str(artifacts / f"summary-table-{width}.png"))
    found = page.evaluate(
        """() => {
            const table = document.querySelector('table.summary-table');
            const rows = [...table.querySelectorAll('tbody tr:not(.summary-table__group)')];
            const bar = (row) => {
                const cell = row.querySelector('.summary-table__bar').getBoundingClientRect();
                const drawn = row.querySelector('.summary-bar');
                if (!drawn) return null;
                const box = drawn.getBoundingClientRect();
                return {left: box.left - cell.left, right: box.right - cell.left, middle: cell.width / 2};
            };
            return {
                // Above the comparisons and the author's text: the answer comes first.
                before: table.compareDocumentPosition(document.querySelector('#comparisons-heading'))
                    & Node.DOCUMENT_POSITION_FOLLOWING,
                groups: [...table.querySelectorAll('.summary-table__group th')].map(th => th.textContent.trim()),
                rows: rows.map(row => ({
                    env: row.querySelector('th').textContent.trim(),
                    mean: row.querySelector('td strong') ? row.querySelector('td strong').textContent : null,
                    left: row.querySelectorAll('td')[2].textContent.trim(),
                    bar: bar(row),
                })),
                pageWidth: document.scrollingElement.scrollWidth,
                viewport: window.innerWidth,
            };
        }"""
    )
    assert found["before"]
    assert found["groups"][0].startswith("Local storage, IOPS and bandwidth (% of the physical host) against r730-host")
    assert len(found["rows"]) == 15  # eight guests, five network paths, the CPU and memory guest twice
    first = found["rows"][0]
    assert (first["env"], first["mean"], first["left"]) == ("win2008-vm-cache-none-q4", "1.50×", "none")
    # Faster: a bar from the 1× line to the right; slower: to the left of it.
    assert first["bar"]["left"] >= first["bar"]["middle"] - 1 and first["bar"]["right"] > first["bar"]["middle"] + 5
    slowest = found["rows"][7]
    assert slowest["env"] == "centos-vm-writeback-q4" and slowest["left"].startswith("5 served from the host")
    assert (
        slowest["bar"]["right"] <= slowest["bar"]["middle"] + 1
        and slowest["bar"]["left"] < slowest["bar"]["middle"] - 5
    )
    # The page never scrolls sideways: a wide table scrolls inside its own box.
    assert found["pageWidth"] <= found["viewport"]

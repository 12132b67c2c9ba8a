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
    table = page.locator("table.summary-table").first
    table.scroll_into_view_if_needed()
    page.screenshot(path=str(artifacts / f"summary-table-{width}.png"))
    found = page.evaluate(
        """() => {
            const table = document.querySelector('table.summary-table');
            const rows = [...document.querySelectorAll('table.summary-table tbody tr')];
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
                groups: [...document.querySelectorAll('h3.summary-table__group')].map(h => h.textContent.trim()),
                // Each heading is on screen whole: not clipped inside a table that scrolls.
                clipped: [...document.querySelectorAll('h3.summary-table__group')]
                    .filter(h => h.scrollWidth > h.clientWidth + 1).length,
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
    assert found["clipped"] == 0
    assert found["groups"][0].startswith("Local storage, IOPS and bandwidth (% of the physical host) against r730-host")
    assert len(found["rows"]) == 15  # eight guests, five network paths, the CPU and memory guest twice
    # Over its 1 MiB jobs alone: its 4 KiB ones queued 16 (windowsaio), the host's one (posixaio on Linux).
    first = found["rows"][0]
    assert (first["env"], first["mean"], first["left"]) == ("win2008-vm-cache-none-q4", "0.894×", "4 another scenario")
    # Why, once under the group's table: in every row it made a phone's rows four lines tall.
    assert page.locator("p.summary-table__unlike").first.inner_text() == (
        "Another scenario: a run with other settings than the baseline's (queue depth 16, not 1; engine windowsaio,"
        " not posixaio), counted but not compared."
    )
    # Slower: a bar from the 1× line to the left of it.
    slower = found["rows"][3]
    assert (slower["env"], slower["mean"]) == ("centos-vm-cache-none", "0.682×")
    assert slower["bar"]["right"] <= slower["bar"]["middle"] + 1 and slower["bar"]["left"] < slower["bar"]["middle"] - 5
    # A writeback guest: every result the host's cache, no mean, no bar.
    cached = found["rows"][7]
    assert (cached["env"], cached["mean"], cached["bar"]) == ("win2008-vm-writeback-q4", None, None)
    assert cached["left"].startswith("2 served from the host")
    # Faster: to the right of the line (the CPU test of the 8-core guest).
    faster = next(row for row in found["rows"] if row["mean"] == "1.30×")
    assert faster["bar"]["left"] >= faster["bar"]["middle"] - 1 and faster["bar"]["right"] > faster["bar"]["middle"] + 5
    # The page never scrolls sideways: a wide table scrolls inside its own box.
    assert found["pageWidth"] <= found["viewport"]

"""make perf's page instrument (perf_pageload) against a page whose timings are known: what it measures
is what the page did. The one browser load of make perf in make test; the real pages are make perf's."""

from __future__ import annotations

import pytest

from perfwiki import perf_pageload
from perfwiki.perf import serve

pytestmark = pytest.mark.browser

SHIFT_PX = 200
# A block that grows above the chart at 1 s (everything below, grey, moves down SHIFT_PX: after the first
# paint, before the scroll, which starts at the first chart), the chart's static SVG at 1.4 s and a request
# 1 s after it, a 300 ms task, and a plot drawn 400 ms after a press on the chart. The icon is the page's
# own, as the site's is: no request for /favicon.ico.
PAGE = f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">
<title>instrument</title><link rel="icon" href="data:,">
<style>body {{ margin: 0 }} figure {{ margin: 0; height: 200px }} .chart__plot {{ height: 150px }}
.rest {{ height: 3000px; background: #ccc }}</style></head>
<body><div id="above"></div>
<figure class="chart"><div class="chart__static"></div><div class="chart__plot"></div></figure>
<div class="rest"></div>
<script>
setTimeout(() => {{ document.getElementById("above").style.height = "{SHIFT_PX}px"; }}, 1000);
setTimeout(() => {{
  document.querySelector(".chart__static").innerHTML =
    '<svg width="300" height="150"><rect width="300" height="150"/></svg>';
  setTimeout(() => fetch("late.txt"), 1000);
}}, 1400);
setTimeout(() => {{ const start = performance.now(); while (performance.now() - start < 300); }}, 1600);
document.querySelector("figure").addEventListener("pointerdown", () => setTimeout(() => {{
  document.querySelector(".chart__plot").innerHTML = '<svg class="main-svg" width="300" height="150"></svg>';
}}, 400));
</script></body></html>
"""


def test_the_instrument_measures_what_the_page_did(browser, tmp_path):
    (tmp_path / "index.html").write_text(PAGE, encoding="utf-8")
    (tmp_path / "late.txt").write_text("after the chart\n", encoding="utf-8")
    with serve(tmp_path) as port:
        url = f"http://127.0.0.1:{port}/"
        load = perf_pageload.scroll_load(browser, url)
        tap = perf_pageload.tap_load(browser, url)
    assert 1.4 <= load.first_chart_s < 4
    assert 300 <= load.long_task_ms < 1000
    # Only the page had arrived by the first chart; late.txt came after it.
    assert load.kib_before_first_chart == len(PAGE.encode()) / 1024
    assert any(url.endswith("/late.txt") for url, *_ in load.requests)
    # Everything below the block moved SHIFT_PX down in a 844 px high viewport it filled.
    assert load.cls == pytest.approx(SHIFT_PX / 844, abs=0.01)
    assert load.touched == []  # scrolled by script: no pointer, touch or focus on the chart
    assert 0.4 <= tap < 1.2

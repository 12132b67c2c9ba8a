"""Static chart renderings (perfwiki.chartsvg): every chart of the example wiki has one, and it says
what the interactive chart says: the same values, bars as long as their values, the same log ticks."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from perfwiki import charts, chartsvg, runstore
from perfwiki.chartsvg import kinds
from perfwiki.pages import layouts
from support import ROOT

CHARTS_JS = ROOT / "site" / "assets" / "js" / "charts.js"
LOGGED_RUN = "build-vm-disk-busy/build-vm-vda-fio-logs-20261124-234359-randwrite-logged"


def charts_in(node):
    """Every {id, plot} of a page's document, wherever it sits."""
    if isinstance(node, dict):
        if isinstance(node.get("plot"), dict) and "id" in node:
            yield node
        for value in node.values():
            yield from charts_in(value)
    elif isinstance(node, list):
        for value in node:
            yield from charts_in(value)


def shown(renderings: list[list[str]], convention: str | None = None) -> str:
    """The rendering a reader sees by default: the printed convention's, for a chart of bytes; its markup
    as the page writes it (chartsvg.markup, layouts/_partials/chart-static.html)."""
    markup = chartsvg.markup(renderings)
    parts = re.findall(
        r"<div class='chart__static'(?: data-units='([^']*)')?(?: style='[^']*')?>(.*?</svg></div>)", markup
    )
    for units, body in parts:
        if convention is None and (not units or "printed" in units.split()):
            return body
        if convention and convention in units.split():
            return body
    raise AssertionError(f"no {convention or 'printed'} rendering in {markup[:200]}")


def words(markup: str, css: str) -> list[str]:
    """The labels of class `css` (ticks x, y, y2; titles tx, ty, ty2; values v), in order."""
    return re.findall(rf"<text [^>]*class='(?:[^']* )?{css}(?: [^']*)?'[^>]*>([^<]*)</text>", markup)


def report_views(root, slug):
    """A report page's views with its charts' specs, which ingest publishes apart (charts.json), in place."""
    views = json.loads((root / "data" / "views" / f"{slug}.json").read_text())
    specs = json.loads((root / "site" / "static" / "reports" / slug / "charts.json").read_text())
    return chartsvg.specs_back(views, specs)


def find_chart(document, chart_id):
    return next(chart for chart in charts_in(document) if chart["id"] == chart_id)


def test_every_chart_of_the_example_wiki_has_a_static_rendering(ingested):
    data = ingested / "data"
    documents = [*data.glob("scenarios/*.json"), *data.glob("environments/*.json")]
    charts = [chart for path in documents for chart in charts_in(json.loads(path.read_text()))]
    charts += [chart for path in data.glob("views/*.json") for chart in charts_in(report_views(ingested, path.stem))]
    assert len(charts) > 100
    missing = [chart["id"] for chart in charts if "<svg" not in chartsvg.markup(chart.get("static") or [])]
    assert missing == []
    run_charts = 0
    for run_id, page in (run for report in runstore.reports(ingested) for run in runstore.run_pages(ingested, report)):
        for chart in page.get("charts", []):
            chart_id = chart["id"] if isinstance(chart, dict) else layouts.CHARTS[chart]["id"]
            assert "<svg" in chartsvg.markup(page["static"][chart_id]), (run_id, chart_id)
            run_charts += 1
    assert run_charts > 150


def test_bars_are_as_long_as_their_values_and_print_them_as_the_tool_did(ingested):
    """mbw's DUMB copy rate on the bare-metal host and its VM (the vm-vs-bare-metal seed): as printed
    (MiB/s) by default and in SI under the switch, each bar's length in proportion to its value."""
    views = report_views(ingested, "vm-vs-bare-metal")
    panel = find_chart(views, "chart-mbw-bandwidth-1")
    printed = shown(panel["static"])
    assert words(printed, "v") == ["2,992 MiB/s", "2,826 MiB/s"]
    assert words(printed, "y") == ["r730-host (baseline)", "centos-vm-8c"]
    assert words(shown(panel["static"], "si"), "v") == ["3,138 MB/s", "2,963 MB/s"]
    lengths = [float(width) for width in re.findall(r"<rect class='bar[^']*' x='0' y='[^']*' width='([^']*)'", printed)]
    values = panel["plot"]["series"][0]["values"]
    assert lengths[1] / lengths[0] == pytest.approx(values[1] / values[0], rel=0.002)
    # The baseline's dotted line stands where its bar ends.
    assert re.search(r"class='baseline' d='M([\d.]+) ", printed).group(1) == f"{lengths[0]:g}"


def test_a_latency_ladder_is_drawn_on_a_log_axis_with_three_labelled_ticks(ingested):
    """fio's percentiles of a logged randwrite (p1 at 0.15 ms to p99.99 at 131 ms): a log axis in ms,
    ticks at each decade, as js/charts.js logAxis puts them."""
    page = runstore.run_page(ingested, *LOGGED_RUN.split("/"))
    ladder = shown(page["static"]["chart-percentiles"])
    assert words(ladder, "y") == ["1", "10", "100"]
    assert words(ladder, "ty") == ["completion latency (ms, log)"]
    assert words(ladder, "x")[:3] == ["p1.00", "p5.00", "p10.00"]


def test_a_long_log_keeps_its_outline_in_a_few_hundred_points(ingested):
    """A fio log charted at every sample would put thousands of points in a page; the static
    rendering keeps, per slice of the x axis, the first, lowest and highest point (600 at most), so a
    stall still shows. Here on the 454 latency bins of a real run, kept to 150."""
    run = runstore.run_json(ingested, *LOGGED_RUN.split("/"))
    bins = chartsvg.run_series({"kind": "bins"}, run["metrics"])["series"][0]["bins"]
    xs, ys = [ns for ns, _ in bins], [count for _, count in bins]
    assert len(xs) == 454  # fio's json+ bins of the run's writes
    kept_x, kept_y = kinds._thinned(xs, ys, most=150)
    assert len(kept_x) <= 150
    assert max(kept_y) == max(ys) and min(kept_y) == min(ys)
    assert kept_x == sorted(kept_x) and kept_x[0] == xs[0]


def test_every_kind_js_charts_draws_has_a_static_rendering():
    drawn = re.search(r"const KINDS = \{([^}]*)\}", CHARTS_JS.read_text()).group(1)
    names = {part.split(":")[0].strip() for part in drawn.split(",") if part.strip()}
    assert names == set(kinds.KINDS)


def test_a_chart_of_bytes_has_one_rendering_per_convention_the_printed_one_marked():
    plot = {"kind": "bars", "unit": "B/s", "printed": "si", "labels": ["dd"], "series": [{"values": [979_000_000]}]}
    renderings = chartsvg.static(plot)
    assert re.findall(r"data-units='([^']*)'", chartsvg.markup(renderings)) == ["si printed", "iec"]
    assert words(shown(renderings), "v") == ["979 MB/s"]
    assert words(shown(renderings, "iec"), "v") == ["934 MiB/s"]
    iops = {"kind": "bars", "unit": "IOPS", "labels": ["a"], "series": [{"values": [1300]}]}
    assert "data-units" not in chartsvg.markup(chartsvg.static(iops))


def test_the_run_page_template_and_the_shared_charts_agree_on_ids():
    """A run page finds a shared chart's static rendering by the shared chart's id (runs/page.html)."""
    assert {chart["id"] for chart in layouts.CHARTS.values()} == {"chart-percentiles", "chart-buckets"}
    assert "index ($run.static | default dict) .id" in Path(ROOT / "layouts" / "runs" / "page.html").read_text()


def test_a_sweep_prints_each_point_and_leaves_a_missing_one_out():
    """The sweep tests/browser/test_drawn_charts.py draws with plotly: 980 KiB/s to 1,800 MiB/s, more
    than three decades, so each value in its own prefix; the queue depth of 16 has no value."""
    points = [("1", 1003520.0), ("4", 250e6), ("16", None), ("32", 1887436800.0)]
    plot = charts.line_panel("chart-x", points, "B/s", "iec", "queue depth")["plot"]
    markup = shown(chartsvg.static(plot))
    assert words(markup, "v") == ["980 KiB/s", "238 MiB/s", "1,800 MiB/s"]
    assert words(markup, "x") == ["1", "4", "32"]
    assert words(markup, "tx") == ["queue depth"]
    assert words(shown(chartsvg.static(plot), "si"), "v")[0] == "1,004 kB/s"

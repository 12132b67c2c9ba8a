"""Charts drawn in the browser from compact series (js/charts.js, js/format.js).

data/ holds a chart's numbers in canonical units; the browser picks the display unit
and builds the plotly figure. These tests hold that figure to plotly's schema, and the
browser's number formatting to units.py, character for character.
"""

from __future__ import annotations

import re

import plotly.graph_objects as go
import pytest

from perfwiki import charts, units

pytestmark = pytest.mark.browser


def chart_pages(built_site) -> list[str]:
    """Every report page, and one page of each other section for each mix of chart kinds it shows,
    as paths under the site root: every kind of chart, drawn in every context, in a minute."""
    root = built_site / "bench"
    chosen: dict[tuple[str, ...], str] = {}
    for path in sorted(root.rglob("index.html")):
        html = path.read_text(encoding="utf-8")
        kinds = tuple(sorted(set(re.findall(r'"kind":"(\w+)"', html)))) if 'data-chart="' in html else ()
        where = str(path.parent.relative_to(root)) + "/"
        if kinds:
            chosen.setdefault((where.split("/")[0], *kinds) if not where.startswith("reports/") else (where,), where)
    return sorted(chosen.values())


def figures(page, url: str) -> dict[str, dict]:
    """{element id: plotly figure} of every chart js/charts.js drew on the page at `url`."""
    page.goto(url)
    expected = page.locator("[data-chart]").count()
    page.wait_for_function(f"Object.keys(window.perfwikiFigures || {{}}).length === {expected}")
    return page.evaluate("window.perfwikiFigures")


def test_every_chart_the_site_draws_is_a_valid_plotly_figure(page, base_url_local, built_site):
    """What plotly.graph_objects (pinned to the vendored plotly.js) accepts: a misspelt or ill-typed
    property in js/charts.js fails here, where plotly.js itself would silently ignore it."""
    kinds: dict[str, int] = {}
    paths = chart_pages(built_site)
    # The seven reports, scenarios, environments with a history, and the runs of fio, iperf3 and mbw.
    assert sum(p.startswith("reports/") for p in paths) == 7 and any(p.startswith("scenarios/") for p in paths)
    for path in paths:
        for element, spec in figures(page, base_url_local + path).items():
            figure = go.Figure(spec)  # raises ValueError on any unknown or ill-typed property
            assert len(figure.data) >= 1, (path, element)
            kind = page.evaluate(f"JSON.parse(document.getElementById('{element}-series').textContent).kind")
            kinds[kind] = kinds.get(kind, 0) + 1
    assert set(kinds) == {"bars", "ladder", "histogram", "iterations", "intervals", "timeline", "bins", "trend"}, kinds


def test_a_sweep_draws_its_metric_against_the_parameter_in_the_chosen_units(page, base_url_local):
    """No example report sweeps one parameter yet; this draws one the way a report would."""
    points = [("1", 1003520.0), ("4", 250e6), ("16", None), ("32", 1887436800.0)]
    plot = charts.line_panel("chart-x", points, "B/s", "iec", "queue depth")["plot"]
    page.goto(base_url_local + "reports/nvme-raw-vs-ext4/")
    page.wait_for_function("window.perfwikiCharts !== undefined")
    drawn = [value for _, value in points]  # 980 KiB/s to 1,800 MiB/s: more than three decades, each its own prefix
    for mode, scale in (
        ("printed", units.scale_for(drawn, "B/s", "iec")),
        ("si", units.scale_for(drawn, "B/s", "si")),
    ):
        spec = page.evaluate("([plot, mode]) => window.perfwikiCharts.figure(plot, mode)", [plot, mode])
        go.Figure(spec)
        (line,) = spec["data"]
        assert line["x"] == ["1", "4", "32"]  # a missing point is left out, never drawn as 0
        assert line["text"] == [scale.text(v) for _, v in points if v is not None]
        assert line["text"][0] == ("980 KiB/s" if mode == "printed" else "1,004 kB/s")  # not 0.957 MiB/s
        assert line["y"] == pytest.approx([scale.number(v) for _, v in points if v is not None])
        assert spec["layout"]["xaxis"]["title"]["text"] == "queue depth"


def test_the_validation_catches_a_misspelt_property():
    spec = {"data": [{"type": "scatter", "y": [1, 2]}], "layout": {"yaxis": {"rangemod": "tozero"}}}
    with pytest.raises(ValueError, match="rangemod"):
        go.Figure(spec)


# (unit, convention, values): each one scaled together, as the values of one axis.
AXES = [
    ("B/s", "iec", [972029952, 1943000000]),
    ("B/s", "si", [972029952, 1943000000]),
    ("B/s", "iec", [1003520, 1887436.8, 0]),
    ("B/s", "iec", [1294467072]),  # exactly 1234.5 MiB/s: a tie, which Python rounds to even
    ("B", "si", [58.5e9, 1e3, 999]),  # 58.5 million times apart: each value its own prefix
    ("bit/s", "si", [9.41e9, 941e6, 12345]),
    ("ns", "si", [120000, 2540000, 93, 131649000]),  # 93 ns beside 132 ms: per cell
    ("ns", "si", [13049.72, 4476220000, 21725850]),  # seed 000's mean clat column: 13.0 µs … 4,476 ms
    ("ns", "si", [502000, 2540000, 47973000]),  # r730-host's percentiles, 96× apart: one unit, ms
    ("ns", "si", [0.5, 7]),
    ("IOPS", "si", [29283, 872, 188000, 193000]),
    ("IOPS", "si", [12.5, 99.99]),
    ("IOPS", "si", [1.2e7, 3e5]),  # counts in full, no M
    ("IOPS", "si", [8361.463854, 92250.737463]),  # fio JSON's IOPS: shown whole
    ("events/s", "si", [1234.5678]),
    ("lps", "si", [4521.3, 12.25]),
]


def test_the_browser_prints_numbers_as_units_py_does(page, base_url_local):
    page.goto(base_url_local + "reports/nvme-raw-vs-ext4/")
    page.wait_for_function("window.perfwikiFormat !== undefined")
    for unit, convention, values in AXES:
        scale = units.scale_for(values, unit, convention)
        shown = page.evaluate(
            """([values, unit, convention]) => {
                const f = window.perfwikiFormat, scale = f.scaleFor(values, unit, convention);
                return {title: f.axisTitle(scale), texts: values.map(v => f.text(scale, v))};
            }""",
            [values, unit, convention],
        )
        assert shown == {"title": scale.axis_title, "texts": [scale.text(v) for v in values]}, (unit, values)
    # One value on its own: bucket edges and percentiles; an exact whole of a larger prefix in it (2 ms).
    latencies = [93, 772, 1000, 948000, 2000000, 2540000, 4351590, 131649000, 2.5e9, 0.5]
    assert page.evaluate("ns => ns.map(window.perfwikiFormat.nanoseconds)", latencies) == [
        units.format_ns(ns) for ns in latencies
    ]
    rates = [9.41e9, 941e6, 1e3, 999.5, 0]
    assert page.evaluate("rates => rates.map(window.perfwikiFormat.bitsPerSecond)", rates) == [
        units.format_bits_per_s(r) for r in rates
    ]
    # Three significant digits, zeros kept, whole from 1,000: ratios and means as the compare page prints
    # them. 13.05 is 13.0500000000000007 as a double (13.1); 1.125 and 1234.5 are exact ties (to even).
    computed = [1.5, 0.8253, 147.18, 14.42, 999.7, 0.0000123, 13.05, 1.125, 1234.5, 1.0004329, 0.14440]
    assert page.evaluate("xs => xs.map(x => window.perfwikiFormat.significant(x))", computed) == [
        units.significant(x) for x in computed
    ]


def test_a_comparison_panel_prints_its_bars_in_one_unit_and_hatches_the_typed_one(page, base_url_local):
    drawn = figures(page, base_url_local + "reports/nvme-raw-vs-ext4/")
    (bars,) = drawn["chart-raw-device-summary-1"]["data"]
    assert bars["y"] == ["nvme-raw (baseline)", "nvme-ext4 (typed)"]
    # fio printed 927MiB/s; the typed 1943 MB/s is shown in the same unit as its neighbour.
    assert bars["text"] == ["927 MiB/s", "1,853 MiB/s"]
    assert bars["marker"]["pattern"]["shape"] == ["", "/"]
    (baseline,) = drawn["chart-raw-device-summary-1"]["layout"]["shapes"]
    assert baseline["x0"] == pytest.approx(927)


def test_a_latency_ladder_picks_the_unit_of_its_largest_percentile(page, base_url_local):
    drawn = figures(page, base_url_local + "runs/nvme-raw-vs-ext4/nvme-raw-random-read-latency-test/")
    ladder = drawn["chart-percentiles"]
    # p99 of the 4k QD1 random read is 120 µs; its p99.99 (2.5 ms) puts the axis in ms.
    assert ladder["data"][0]["x"][12] == "p99.00" and ladder["data"][0]["y"][12] == pytest.approx(0.12)
    assert ladder["layout"]["yaxis"]["title"]["text"] == "completion latency (ms)"

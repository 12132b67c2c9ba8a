"""Charts drawn in the browser from compact series (js/charts.js, js/format.js).

data/ holds a chart's numbers in canonical units; the browser picks the display unit
and builds the plotly figure. These tests hold that figure to plotly's schema, the
browser's number formatting to units.py, character for character, and what plotly drew
(the SVG) to what a reader needs: labelled log axes, bar values that stand out from what
is behind them, whole numbers on axes of counts, axis titles clear of their tick labels.
"""

from __future__ import annotations

import re
import time

import plotly.graph_objects as go
import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from perfwiki import charts, units
from support import interactive

pytestmark = pytest.mark.browser

# ---- The pages, and what was drawn on them -------------------------------------------------------

# The compare page draws its one chart from the environments the address picks.
COMPARE_PAGE = "compare/?env=r730-host,centos-vm-cache-none,centos-vm-writeback,win2008-vm-writeback"
# Each page is loaded once per view: a phone's width in the light scheme, a desktop's in the dark.
VIEWS = ((390, "light"), (1440, "dark"))
# iperf3's run with the fewest retransmits (205 at most): plotly put its retransmit ticks at 34.1, 68.3.
EXTRA_PAGES = ("runs/vm-vs-bare-metal/vpc-eip-to-eip-vpc/",)
# Pages whose charts are also re-themed in place, as when the reader's system switches scheme:
# a report with a hatched bar, and the compare page, whose chart compare.js draws.
SWITCHED = ("reports/nvme-raw-vs-ext4/", COMPARE_PAGE)
# Axes whose numbers count whole things: half a retransmit or iteration is not a reading.
COUNT_AXIS = re.compile(r"retransmits|iteration")
WCAG_AA = 4.5


def chart_pages(built_site) -> list[str]:
    """Paths under the site root of every kind of chart, in every context: every report page; for each
    other section a page of each mix of chart kinds it shows that no other mix there holds (run pages:
    per report, whose numbers differ); the run of EXTRA_PAGES; and the compare page."""
    root = built_site / "bench"
    chosen: dict[tuple[str, str], dict[tuple[str, ...], str]] = {}
    for path in sorted(root.rglob("index.html")):
        html = path.read_text(encoding="utf-8")
        if 'data-chart="' not in html:
            continue
        kinds = tuple(sorted(set(re.findall(r'"kind":"(\w+)"', html))))
        where = str(path.parent.relative_to(root)) + "/"
        section, below = where.split("/")[:2]
        group = (where, "") if section == "reports" else (section, below if section == "runs" else "")
        chosen.setdefault(group, {}).setdefault(kinds, where)
    pages = [
        where
        for mixes in chosen.values()
        for kinds, where in mixes.items()
        if not any(set(kinds) < set(other) for other in mixes)
    ]
    return [*sorted(pages), *EXTRA_PAGES, COMPARE_PAGE]


def figures(page, url: str) -> dict[str, dict]:
    """{element id: plotly figure} of every chart js/charts.js drew on the page at `url`."""
    page.goto(url)
    interactive(page)
    expected = page.locator("[data-chart]").count()
    page.wait_for_function(f"Object.keys(window.perfwikiFigures || {{}}).length === {expected}")
    return page.evaluate("window.perfwikiFigures")


def test_a_sweep_draws_its_metric_against_the_parameter_in_the_chosen_units(page, base_url_local):
    """No example report sweeps one parameter yet; this draws one the way a report would."""
    points = [("1", 1003520.0), ("4", 250e6), ("16", None), ("32", 1887436800.0)]
    plot = charts.line_panel("chart-x", points, "B/s", "iec", "queue depth")["plot"]
    page.goto(base_url_local + "reports/nvme-raw-vs-ext4/")
    interactive(page)  # plotly.js loaded, as a reader's first touch of a chart loads it
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
    # Drawn as a page draws it, at a phone's width and a desktop's: its title clear of its tick labels.
    for width, _ in VIEWS:
        page.set_viewport_size({"width": width, "height": 900})
        page.evaluate(
            """([plot, id]) => { const div = Object.assign(document.createElement("div"), { id });
                document.querySelector("main").prepend(div);
                const spec = window.perfwikiCharts.figure(plot);
                return Plotly.newPlot(div, spec.data, spec.layout); }""",
            [plot, f"sweep-{width}"],
        )
        (drawn,) = [chart for chart in page.evaluate(DRAWN) if chart["id"] == f"sweep-{width}"]
        ticks, title = drawn["axes"][0]["ticks"], drawn["axes"][0]["title_box"]
        assert [t["text"] for t in ticks] == ["1", "4", "32"] and drawn["axes"][0]["title"] == "queue depth"
        assert not any(overlap(title, tick["box"]) for tick in ticks), width


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
    # typed by hand, and "faster" than the raw device under it: labelled as left out of the verdict
    assert bars["y"] == ["nvme-raw (baseline)", "nvme-ext4 (typed) (left out)"]
    # fio printed 927MiB/s; the typed 1943 MB/s is shown in the same unit as its neighbour.
    assert bars["text"] == ["927 MiB/s", "1,853 MiB/s"]
    assert bars["marker"]["pattern"]["shape"] == ["", "/"]
    (baseline,) = drawn["chart-raw-device-summary-1"]["layout"]["shapes"]
    assert baseline["x0"] == pytest.approx(927)


def test_a_latency_ladder_picks_the_unit_of_its_largest_percentile(page, base_url_local):
    drawn = figures(
        page, base_url_local + "runs/nvme-raw-vs-ext4/nvme-raw-fio-bandwidth-iops-latency-random-read-latency-test/"
    )
    ladder = drawn["chart-percentiles"]
    # p99 of the 4k QD1 random read is 120 µs; its p99.99 (2.5 ms) puts the axis in ms.
    assert ladder["data"][0]["x"][12] == "p99.00" and ladder["data"][0]["y"][12] == pytest.approx(0.12)
    # From 74 µs at p1 to 2.5 ms: a log axis, which says so; only 0.1 and 1 would be decades, so
    # it is labelled at 1, 2 and 5 of each.
    yaxis = ladder["layout"]["yaxis"]
    assert yaxis["title"]["text"] == "completion latency (ms, log)" and yaxis["type"] == "log"
    assert yaxis["ticktext"] == ["0.1", "0.2", "0.5", "1", "2"]


# ---- What a reader sees: the SVG plotly drew --------------------------------------------------

# Everything the checks need from one page, read from the drawn SVG (screen boxes and computed
# colours), not from the figure charts.js asked for: what plotly made of it is what is read.
DRAWN = """() => {
  const box = (node) => { const r = node.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; };
  const shown = (node) => {
    const r = node.getBoundingClientRect(), style = getComputedStyle(node);
    return r.width > 0 && r.height > 0 && style.display !== "none" && style.visibility !== "hidden"
      && Number(style.opacity) > 0 && node.textContent.trim() !== "";
  };
  // What is behind a transparent chart: the first ancestor with a background of its own.
  const pageBackground = (node) => {
    for (let at = node; at && at.nodeType === 1; at = at.parentElement) {
      const colour = getComputedStyle(at).backgroundColor;
      if (!/^rgba\\(.*,\\s*0\\)$/.test(colour) && colour !== "transparent") return colour;
    }
    return "rgb(255, 255, 255)";
  };
  return [...document.querySelectorAll(".js-plotly-plot")].map((plot) => {
    const full = plot._fullLayout, svg = plot.querySelector("svg.main-svg");
    const axes = Object.keys(full).filter((key) => /^[xy]axis\\d*$/.test(key)).map((key) => {
      const axis = full[key], title = plot.querySelector(`text.${axis._id}title`);
      return {
        name: axis._id,
        type: axis.type,
        title: title && shown(title) ? title.textContent : "",
        title_box: title && shown(title) ? box(title) : null,
        ticks: [...plot.querySelectorAll(`g.${axis._id}tick text`)].filter(shown)
          .map((tick) => ({ text: tick.textContent, box: box(tick) })),
      };
    });
    const labels = [];
    plot.querySelectorAll("g.trace.bars g.point").forEach((point) => {
      const text = point.querySelector("text.bartext"), bar = point.querySelector("path");
      if (!text || !shown(text)) return;
      const fill = bar.style.fill, style = getComputedStyle(text);
      // A hatched bar is filled with a pattern: its stripes, and its background or none.
      const hatch = fill.startsWith("url(") && fill.match(/#([^"')]+)/)[1];
      const pattern = hatch ? plot.querySelector(`pattern[id="${hatch}"]`) : null;
      const fills = pattern
        ? [...pattern.querySelectorAll("path")].map((p) => p.getAttribute("stroke"))
            .concat([...pattern.querySelectorAll("rect")].map((r) => r.getAttribute("fill")))
        : [fill];
      labels.push({
        text: text.textContent,
        colour: style.fill,
        opacity: Number(style.fillOpacity),
        box: box(text),
        bar_box: box(bar),
        bar_fills: fills,
        bar_opacity: Number(bar.style.fillOpacity || 1) * Number(bar.style.opacity || 1),
        // Stripes leave the page showing between them.
        bar_gaps: Boolean(pattern) && !pattern.querySelector("rect"),
      });
    });
    // The spec the chart was drawn from (in the page, or a report's charts.json); the compare page has none.
    const spec = ((window.perfwikiCharts || {}).specs || {})[plot.id];
    return {
      id: plot.id,
      kind: spec ? spec.kind : "compare",
      figure: window.perfwikiFigures[plot.id],
      // Each trace as plotly took it: a type the bundle lacks comes out as a hidden scatter.
      traces: plot._fullData.map((trace) => trace.type),
      svg_box: box(svg),
      axes,
      labels,
      backdrop: [pageBackground(plot), full.paper_bgcolor, full.plot_bgcolor],
    };
  });
}"""


def wait_until_drawn(page) -> None:
    """Until every chart of the page is drawn (the compare page draws one, with no data-chart)."""
    expected = page.locator("[data-chart]").count() or 1
    page.wait_for_function(
        """expected => Object.keys(window.perfwikiFigures || {}).length === expected
            && Object.keys(window.perfwikiFigures).every(k => document.getElementById(k).querySelector('.main-svg'))""",
        arg=expected,
    )


def switch_scheme(page, scheme: str) -> None:
    """The reader's colour scheme changes to `scheme`; until charts.js has re-themed every chart, or for
    3 s: a chart left in the old scheme's colours is then read as it is, and its labels tell."""
    page.emulate_media(color_scheme=scheme)
    try:
        page.wait_for_function(
            """() => { const text = getComputedStyle(document.documentElement).getPropertyValue('--chart-text').trim();
                const plots = [...document.querySelectorAll('.js-plotly-plot')];
                return plots.every(p => p._fullLayout.font.color === text); }""",
            timeout=3000,
        )
    except PlaywrightTimeoutError:
        pass


@pytest.fixture(scope="module")
def drawn(browser, base_url_local, built_site) -> list[dict]:
    """Every chart of chart_pages() as drawn in each of VIEWS (and re-themed on the SWITCHED pages):
    one page load per page and view, each chart as DRAWN reads it, with its page, width and scheme."""
    started = time.perf_counter()
    shown: list[dict] = []
    errors: list[str] = []
    pages = chart_pages(built_site)
    for width, scheme in VIEWS:
        context = browser.new_context(viewport={"width": width, "height": 900}, color_scheme=scheme)
        page = context.new_page()
        page.on("pageerror", lambda error: errors.append(str(error)))
        for path in pages:
            page.goto(base_url_local + path)
            if path != COMPARE_PAGE:
                interactive(page)
            wait_until_drawn(page)
            shown += [{**chart, "page": path, "width": width, "scheme": scheme} for chart in page.evaluate(DRAWN)]
            if path in SWITCHED:
                other = "dark" if scheme == "light" else "light"
                switch_scheme(page, other)
                shown += [
                    {**chart, "page": path, "width": width, "scheme": f"{other} (switched)"}
                    for chart in page.evaluate(DRAWN)
                ]
                page.emulate_media(color_scheme=scheme)  # the next pages load in the view's scheme
        context.close()
    assert errors == [], errors
    print(f"\n{len(pages)} pages, {len(shown)} charts drawn in {time.perf_counter() - started:.1f} s")
    return shown


def where(chart: dict) -> str:
    return f"{chart['page']}#{chart['id']} at {chart['width']} px, {chart['scheme']}"


def rgba(colour: str) -> tuple[float, float, float, float]:
    """'rgb(1, 2, 3)', 'rgba(1, 2, 3, 0.5)' or '#0a0b0c' as (r, g, b, alpha), 0-255 and 0-1."""
    if colour.startswith("#"):
        hexa = colour[1:]
        if len(hexa) == 3:
            hexa = "".join(c * 2 for c in hexa)
        return (int(hexa[0:2], 16), int(hexa[2:4], 16), int(hexa[4:6], 16), 1.0)
    parts = [float(p) for p in re.findall(r"[\d.]+", colour)]
    return (parts[0], parts[1], parts[2], parts[3] if len(parts) > 3 else 1.0)


def over(colour: str, behind: tuple[float, float, float], opacity: float = 1.0) -> tuple[float, float, float]:
    """`colour` painted with its alpha (and `opacity`) over the opaque `behind`."""
    r, g, b, alpha = rgba(colour)
    alpha *= opacity
    return tuple(alpha * c + (1 - alpha) * under for c, under in zip((r, g, b), behind, strict=True))


def luminance(rgb: tuple[float, float, float]) -> float:
    """WCAG 2 relative luminance."""

    def linear(channel: float) -> float:
        c = channel / 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = map(linear, rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(one: tuple[float, float, float], other: tuple[float, float, float]) -> float:
    light, dark = sorted((luminance(one), luminance(other)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def overlap(a: list[float], b: list[float], slack: float = 1.0) -> bool:
    """Two screen boxes share more than `slack` px each way (glyph boxes touching is not overlapping)."""
    return min(a[2], b[2]) - max(a[0], b[0]) > slack and min(a[3], b[3]) - max(a[1], b[1]) > slack


def label_contrast(label: dict, backdrop: tuple[float, float, float]) -> float:
    """A bar label's contrast with the worst of what is behind it: the page (or plot) where it stands
    outside its bar, the bar's fill where it is inside, each stripe and each gap of a hatched bar."""
    behind = []
    inside = overlap(label["box"], label["bar_box"], slack=0)
    outside = not (
        label["bar_box"][0] <= label["box"][0]
        and label["box"][2] <= label["bar_box"][2]
        and label["bar_box"][1] <= label["box"][1]
        and label["box"][3] <= label["bar_box"][3]
    )
    if inside:
        behind += [over(fill, backdrop, label["bar_opacity"]) for fill in label["bar_fills"]]
        if label["bar_gaps"]:
            behind.append(backdrop)
    if outside:
        behind.append(backdrop)
    drawn = {colour: over(label["colour"], colour, label["opacity"]) for colour in behind}
    return min(contrast(drawn[colour], colour) for colour in behind)


def test_every_chart_the_site_draws_is_a_valid_plotly_figure(drawn):
    """What plotly.graph_objects (pinned to the vendored plotly.js) accepts: a misspelt or ill-typed
    property in js/charts.js fails here, where plotly.js itself would silently ignore it."""
    kinds: dict[str, int] = {}
    paths = {chart["page"] for chart in drawn}
    # The eight reports, scenarios, environments with a history, and the runs of fio, iperf3 and mbw.
    assert sum(p.startswith("reports/") for p in paths) == 8 and any(p.startswith("scenarios/") for p in paths)
    for chart in drawn:
        if chart["width"] == VIEWS[-1][0] and "switched" not in chart["scheme"]:
            figure = go.Figure(chart["figure"])  # raises ValueError on any unknown or ill-typed property
            assert len(figure.data) >= 1, where(chart)
            kinds[chart["kind"]] = kinds.get(chart["kind"], 0) + 1
    assert set(kinds) == {
        "bars",
        "ladder",
        "histogram",
        "iterations",
        "intervals",
        "timeline",
        "bins",
        "trend",
        "compare",
        "under_load",
    }


def test_the_vendored_plotly_draws_every_trace_type_the_site_asks_for(drawn):
    """site/assets/vendor/plotly.min.js holds only plotly's core (scatter) and the bar trace
    (scripts/plotly-bundle.mjs). plotly draws a trace of a type it lacks as nothing, with no error: a
    chart that starts using another type fails here until the bundle registers it."""
    asked_for, missing = set(), []
    for chart in drawn:
        asked = [trace.get("type", "scatter") for trace in chart["figure"]["data"]]
        asked_for.update(asked)
        if chart["traces"] != asked:
            missing.append(f"{where(chart)}: asked for {asked}, plotly drew {chart['traces']}")
    assert missing == [], "\n".join(missing)
    # Both registered types are used: one no chart asks for any more could leave the bundle.
    assert asked_for == {"scatter", "bar"}


def test_every_log_axis_shows_three_labelled_ticks_and_says_it_is_log(drawn):
    """A log axis whose range sits inside one decade printed one tick label or none: a reader could not
    tell 20 µs from 200 µs. Each has three or more, and its title says the scale is log."""
    problems, counts, kinds = [], [], set()
    for chart in drawn:
        for axis in chart["axes"]:
            if axis["type"] == "log":
                ticks = [tick["text"] for tick in axis["ticks"]]
                counts.append(len(ticks))
                kinds.add(chart["kind"])
                if len(ticks) < 3 or "log" not in axis["title"]:
                    problems.append(f"{where(chart)}: {axis['title']!r} labelled {ticks}")
    print(f"\n{len(counts)} log axes, {min(counts)} to {max(counts)} tick labels; {len(problems)} problems")
    assert len(counts) >= 16 and kinds == {"ladder", "bins", "under_load"}, (len(counts), kinds)
    assert problems == [], "\n".join(problems)


def test_every_bar_value_stands_out_from_what_is_behind_it_light_and_dark(drawn):
    """WCAG AA (4.5:1) for each bar's printed value against what is behind it: the bar's colour inside
    it, the page outside it, the stripes and the gaps of a hatched bar; and no value cut off at the
    chart's edge. In the light and the dark scheme, loaded so and switched to."""
    problems, ratios, schemes = [], [], set()
    for chart in drawn:
        backdrop = (255.0, 255.0, 255.0)
        for layer in chart["backdrop"]:
            backdrop = over(layer, backdrop)
        for label in chart["labels"]:
            ratio = label_contrast(label, backdrop)
            ratios.append(ratio)
            schemes.add(chart["scheme"])
            if ratio < WCAG_AA:
                problems.append(f"{where(chart)}: {label['text']!r} at {ratio:.2f}:1")
            if label["box"][0] < chart["svg_box"][0] - 1 or label["box"][2] > chart["svg_box"][2] + 1:
                problems.append(f"{where(chart)}: {label['text']!r} cut off at the chart's edge")
    print(f"\n{len(ratios)} bar labels, contrast {min(ratios):.2f} to {max(ratios):.2f}:1; {len(problems)} problems")
    assert len(ratios) >= 200 and schemes == {"light", "dark", "light (switched)", "dark (switched)"}, schemes
    assert problems == [], "\n".join(problems)


def test_axes_of_counts_print_whole_numbers(drawn):
    """Retransmits and iterations: a tick at 0.5 of a retransmit reads as a measurement."""
    problems, axes = [], 0
    for chart in drawn:
        for axis in chart["axes"]:
            if COUNT_AXIS.search(axis["title"]):
                axes += 1
                ticks = [tick["text"] for tick in axis["ticks"]]
                if not ticks or not all(re.fullmatch(r"[−-]?(\d+|\d{1,3}(,\d{3})+)", tick) for tick in ticks):
                    problems.append(f"{where(chart)}: {axis['title']!r} labelled {ticks}")
    print(f"\n{axes} axes of counts; {len(problems)} problems")
    assert axes >= 4
    assert problems == [], "\n".join(problems)


def test_no_axis_title_runs_into_its_tick_labels(drawn):
    """At a phone's width and a desktop's: the title's box and each of its tick labels' boxes are apart."""
    problems, titled = [], 0
    for chart in drawn:
        for axis in chart["axes"]:
            if axis["title_box"]:
                titled += 1
                hit = [tick["text"] for tick in axis["ticks"] if overlap(axis["title_box"], tick["box"])]
                if hit:
                    problems.append(f"{where(chart)}: {axis['title']!r} runs into {hit}")
    print(f"\n{titled} axis titles; {len(problems)} problems")
    assert titled >= 50 and {chart["width"] for chart in drawn} == {width for width, _ in VIEWS}
    assert problems == [], "\n".join(problems)

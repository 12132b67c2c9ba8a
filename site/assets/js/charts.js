// Every chart on the site, drawn from the compact series perfwiki wrote (canonical
// numbers, never display strings or plotly layouts): this file decides what each
// kind of chart looks like, in one place. perfwiki.charts describes the series.
// Plotly does not read CSS, so colours come from CSS custom properties and are
// re-applied when the colour scheme changes.
/* global Plotly */

import {
  axisTitle,
  bitsPerSecond,
  isByteUnit,
  nanoseconds,
  number,
  scaleFor,
  scaleOf,
  significant,
  text,
  tickText,
} from "./format.js";

// The look every chart shares; each kind below adds only what is its own.
const MARGIN = { t: 16, r: 16, b: 16, l: 72 };
const FIXED = { automargin: true, fixedrange: true };
const BAR_HEIGHT_PX = 26;
const BASELINE_COLOUR = "#8c8c8c";
const FIRST_COLOUR = "#4e79a7";

const COUNT_UNITS = new Set(["IOPS", "events/s", "trans/s"]);
const present = (value) => value !== null && value !== undefined;
const top = (values) => Math.max(0, ...values.filter(present));
const countTicks = (scale, largest) => (COUNT_UNITS.has(scale.unit) && largest >= 10000 ? { tickformat: "~s" } : {});

// WCAG 2 relative luminance of a "#rgb" or "#rrggbb" colour.
function luminance(colour) {
  const hex = colour.length === 4 ? colour.replace(/[0-9a-f]/gi, (d) => d + d) : colour;
  const [r, g, b] = [1, 3, 5].map((at) => {
    const c = parseInt(hex.slice(at, at + 2), 16) / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

// The text colour for a value printed on a bar of `colour`: black or white, whichever stands out
// more. One of the two always reaches 4.58:1 (WCAG AA asks 4.5), whatever the bar and the scheme;
// plotly's own choice put white on the report palette's mid tones, at 3.2 to 4.3:1.
function onColour(colour) {
  if (!/^#([0-9a-f]{3}){1,2}$/i.test(colour || "")) return undefined; // plotly's own choice
  const l = luminance(colour);
  return (l + 0.05) / 0.05 >= 1.05 / (l + 0.05) ? "#000000" : "#ffffff";
}

// A log axis over `values` (display units, in a title's words `what (label)`): ticks at the fewest
// marks per decade (1; 1, 2, 5; 1, 2, 3, 5; every digit) that put three labels or more on the data,
// so a range inside one decade is read too, printed as numbers ("50", never plotly's bare "5" of a
// decade's minor tick). Under a 4x range a log axis shows nothing a linear one does not: linear then.
const MANTISSAS = [[1], [1, 2, 5], [1, 2, 3, 5], [1, 2, 3, 4, 5, 6, 7, 8, 9]];
function logAxis(values, what, label) {
  const shown = values.filter((v) => present(v) && v > 0);
  const lo = Math.min(...shown);
  const hi = Math.max(...shown);
  if (!shown.length || hi / lo < 4) return { type: "linear", title: { text: `${what} (${label})` } };
  const pad = 0.04 * Math.log10(hi / lo);
  const range = [Math.log10(lo) - pad, Math.log10(hi) + pad];
  const marks = (mantissas) => {
    const ticks = [];
    for (let decade = Math.floor(range[0]); decade <= Math.ceil(range[1]); decade += 1) {
      mantissas.forEach((m) => ticks.push(m * 10 ** decade));
    }
    return ticks.filter((v) => Math.log10(v) >= range[0] && Math.log10(v) <= range[1]);
  };
  // Every digit of a decade always puts three on a 4x range: the last choice is never short.
  const enough = (ticks) => ticks.filter((v) => v >= lo && v <= hi).length >= 3;
  const tickvals = MANTISSAS.map(marks).find(enough) || marks(MANTISSAS[MANTISSAS.length - 1]);
  return {
    type: "log",
    range,
    tickmode: "array",
    tickvals,
    ticktext: tickvals.map(tickText),
    title: { text: `${what} (${label}, log)` },
  };
}

// An axis of counts (retransmits): whole-number ticks, a 1-2-5 step of about a fifth of the largest.
function countAxis(values) {
  const largest = top(values);
  const rough = Math.max(1, largest / 5);
  const power = 10 ** Math.floor(Math.log10(rough));
  const dtick = [1, 2, 5, 10].map((m) => m * power).find((step) => step >= rough);
  return { tickmode: "linear", tick0: 0, dtick, range: [0, Math.max(largest, 1) * 1.05], separatethousands: true };
}

// The scale of a chart's numbers under the unit switch: as printed, SI or IEC (a unit
// with one convention, such as ns or IOPS, keeps it whatever the switch says).
function chartScale(chart, mode, values) {
  return scaleFor(values, chart.unit, mode === "si" || mode === "iec" ? mode : chart.printed || "iec");
}

// The end of a bar chart's value axis: 30% past the longest bar, and further where a value printed
// beside its bar (one that does not fit inside it, or a hatched one) would run past the chart's
// right edge, which plotly does not prevent: on a phone, beside environment names nearly as wide as
// the chart, "0.682 ×" was cut off. The plot's width is the chart's less its margins and the widest
// name, taken a little narrower than plotly will make it: too narrow only shortens the bars.
const BAR_MARGIN = { t: 4, r: 16, b: 24, l: 8 };
function valueRoom(numbers, texts, chart, view) {
  let end = top(numbers) * 1.3 || 1;
  if (!view.width || !view.measure) return end;
  const manual = new Set(chart.manual || []);
  const names = Math.max(0, ...chart.labels.map((label) => view.measure(`${label} `)));
  const plot = view.width - BAR_MARGIN.l - BAR_MARGIN.r - names - 12;
  // Lengthening the axis shortens every bar, which can put another value outside: a few rounds.
  for (let round = 0; round < 4; round += 1) {
    let needed = end;
    numbers.forEach((v, i) => {
      if (!present(v) || !texts[i]) return;
      const width = view.measure(texts[i]);
      const bar = (v / end) * plot;
      const inside = !manual.has(i) && bar >= width + 6; // plotly pads a value 3 px each side
      const room = plot + BAR_MARGIN.r - 4 - width; // beside it: 3 px of padding, 1 to spare
      if (!inside && bar > room && room > 0) needed = Math.max(needed, (v * plot) / room);
    });
    if (needed === end) break;
    end = needed;
  }
  return end;
}

// Horizontal bars, one per environment or scenario, each printing its value; a bar's
// length is its value on a linear axis from zero; a dotted line marks the baseline.
// `view` is where it is drawn: {width in px, measure(text) in px}.
function bars(chart, mode, view) {
  const values = chart.series[0].values;
  const scale = chartScale(chart, mode, values);
  const numbers = values.map((v) => number(scale, v));
  const texts = values.map((v) => text(scale, v));
  const largest = top(numbers);
  const layout = {
    height: 40 + BAR_HEIGHT_PX * Math.max(values.length, 1),
    margin: { ...BAR_MARGIN },
    showlegend: false,
    bargap: 0.3,
    xaxis: {
      // The axis the static rendering drew (perfwiki.chartsvg bar_room), so nothing moves when the chart
      // turns interactive; a chart made in the page (the compare page's) fits its own width.
      range: [0, present(chart.end) ? number(scale, chart.end) : valueRoom(numbers, texts, chart, view)],
      exponentformat: "none",
      separatethousands: true,
      ...countTicks(scale, largest), // 10k, 20k: five-digit ticks run together on a phone
      nticks: chart.nticks || 4,
      tickangle: 0,
      ...FIXED,
    },
    yaxis: { autorange: "reversed", ticksuffix: " ", ...FIXED },
  };
  if (present(chart.baseline)) {
    const at = number(scale, chart.baseline);
    layout.shapes = [
      {
        type: "line",
        xref: "x",
        x0: at,
        x1: at,
        yref: "y domain",
        y0: 0,
        y1: 1,
        line: { dash: "dot", width: 1.5, color: BASELINE_COLOUR },
      },
    ];
  }
  const manual = new Set(chart.manual || []);
  const trace = {
    type: "bar",
    orientation: "h",
    y: chart.labels,
    x: numbers,
    text: texts,
    // Beside the bar, always, as the static rendering prints it (it cannot know whether a value fits
    // inside): nothing moves when the chart turns interactive. A zero prints too, beside no bar.
    textposition: "outside",
    // Inside, black or white for the bar's colour; outside, the theme's text on the page.
    insidetextfont: { color: chart.colours.map(onColour) },
    cliponaxis: false,
    // A value typed by hand, with no raw output behind it, is hatched.
    marker: { color: chart.colours, pattern: { shape: values.map((_, i) => (manual.has(i) ? "/" : "")), solidity: 0.5 } },
    customdata: chart.hover || values.map(() => ""),
    hovertemplate: "%{y}: %{text}%{customdata}<extra></extra>",
  };
  return { data: [trace], layout };
}

// A sweep: one metric against the one parameter that changes (queue depth, block size).
function sweep(chart, mode) {
  const values = chart.series[0].values;
  const scale = chartScale(chart, mode, values);
  const shown = values.map((v, i) => [chart.labels[i], v]).filter(([, v]) => present(v));
  const largest = top(shown.map(([, v]) => number(scale, v)));
  const trace = {
    type: "scatter",
    mode: "lines+markers+text",
    x: shown.map(([label]) => label),
    y: shown.map(([, v]) => number(scale, v)),
    text: shown.map(([, v]) => text(scale, v)),
    textposition: "top center",
    cliponaxis: false,
    marker: { color: FIRST_COLOUR, size: 8 },
    line: { color: FIRST_COLOUR },
    hovertemplate: `${chart.axis} %{x}: %{text}<extra></extra>`,
  };
  const layout = {
    height: 260,
    margin: { t: 24, r: 24, b: 40, l: 8 },
    showlegend: false,
    xaxis: { type: "category", title: { text: chart.axis, standoff: 4 }, ...FIXED },
    yaxis: {
      range: [0, largest * 1.25 || 1],
      ...FIXED,
      exponentformat: "none",
      separatethousands: true,
      nticks: 5,
      ...countTicks(scale, largest),
    },
  };
  return { data: [trace], layout };
}

// Several series with a legend above the plot: percentile ladders, buckets, iterations, intervals.
// Above, not under: on a phone the x axis's rotated category labels ran into a legend below it.
const LEGEND = { orientation: "h", x: 0, xanchor: "left", y: 1, yanchor: "bottom" };
// Every axis makes room for its tick labels and puts its title beyond them: with a fixed margin,
// a title was drawn across the tick labels (iperf3's "seconds", mbw's "iteration" on a phone).
function lines(traces, layout) {
  const spaced = { margin: MARGIN, legend: LEGEND, ...layout };
  Object.keys(spaced)
    .filter((key) => /^[xy]axis\d*$/.test(key))
    .forEach((key) => {
      const axis = spaced[key];
      spaced[key] = { automargin: true, ...axis, ...(axis.title ? { title: { standoff: 6, ...axis.title } } : {}) };
    });
  return { data: traces, layout: spaced };
}

// fio completion-latency percentiles (p1 ... p99.99) on a log axis, one line per series
// ({name, percentiles: {"99.00": ns}} as fio's metrics hold them), in the largest unit
// that keeps the biggest value >= 1.
function ladder(chart) {
  const keys = [...new Set(chart.series.flatMap((s) => Object.keys(s.percentiles)))];
  keys.sort((a, b) => parseFloat(a) - parseFloat(b));
  const largest = top(chart.series.flatMap((s) => Object.values(s.percentiles)));
  const [unit, factor] = [["s", 1e9], ["ms", 1e6], ["µs", 1e3]].find(([, f]) => largest >= f) || ["ns", 1];
  const traces = chart.series.map((s) => ({
    type: "scatter",
    name: s.name,
    x: keys.map((key) => `p${key}`),
    y: keys.map((key) => (present(s.percentiles[key]) ? s.percentiles[key] / factor : null)),
    mode: "lines+markers",
    hovertemplate: `%{x}: %{y:.4g} ${unit}<extra>${s.name}</extra>`,
  }));
  return lines(traces, {
    showlegend: chart.series.length > 1,
    yaxis: logAxis(traces.flatMap((t) => t.y), "completion latency", unit),
    xaxis: { type: "category" },
  });
}

// fio's latency distribution: the share of I/Os per bucket ({le_ns | ge_ns, pct}, as fio's
// metrics hold them), grouped across series, buckets in order of their edge.
function histogram(chart) {
  const edges = new Map();
  const label = (bucket) => ("ge_ns" in bucket ? `≥ ${nanoseconds(bucket.ge_ns)}` : `≤ ${nanoseconds(bucket.le_ns)}`);
  chart.series.forEach((s) =>
    s.buckets.forEach((bucket) => edges.set(label(bucket), "ge_ns" in bucket ? bucket.ge_ns + 0.5 : bucket.le_ns)),
  );
  const labels = [...edges.keys()].sort((a, b) => edges.get(a) - edges.get(b));
  const traces = chart.series.map((s) => {
    const share = new Map(s.buckets.map((bucket) => [label(bucket), bucket.pct]));
    return { type: "bar", name: s.name, x: labels, y: labels.map((l) => (share.has(l) ? share.get(l) : null)) };
  });
  return lines(traces, {
    showlegend: chart.series.length > 1,
    barmode: "group",
    yaxis: { title: { text: "% of I/Os" }, ticksuffix: "%" },
    xaxis: { type: "category", automargin: true },
  });
}

// A series as a line in the chart's display unit: its points scaled, each one's text as printed.
function scaledLine(s, x, scale) {
  return {
    type: "scatter",
    name: s.name,
    x,
    y: s.values.map((v) => (present(v) ? number(scale, v) : null)),
    text: s.values.map((v) => text(scale, v)),
  };
}

// fio's own log over time ({name, t_s, values} per job and direction, canonical units): one line
// each, in one display unit for the chart (B/s follows the unit switch), from zero.
function timeline(chart, mode) {
  const scale = chartScale(chart, mode, chart.series.flatMap((s) => s.values));
  const traces = chart.series.map((s) => ({
    ...scaledLine(s, s.t_s, scale),
    mode: s.values.length > 120 ? "lines" : "lines+markers",
    hovertemplate: `%{x} s: %{text}<extra>${s.name}</extra>`,
  }));
  return lines(traces, {
    showlegend: chart.series.length > 1,
    xaxis: { title: { text: "seconds", standoff: 6 }, rangemode: "tozero", automargin: true },
    yaxis: { title: { text: axisTitle(scale) }, rangemode: "tozero", exponentformat: "none", separatethousands: true },
  });
}

// fio's json+ latency bins ({name, bins: [[ns, I/Os], ...]}): the share of I/Os at each latency,
// on a log axis in one unit, so a second mode or a long tail shows.
function bins(chart) {
  const all = chart.series.flatMap((s) => s.bins.map(([ns]) => ns));
  const scale = scaleFor(all, "ns");
  const traces = chart.series.map((s) => {
    const total = s.bins.reduce((sum, [, count]) => sum + count, 0) || 1;
    return {
      type: "scatter",
      name: s.name,
      x: s.bins.map(([ns]) => number(scale, ns)),
      y: s.bins.map(([, count]) => (100 * count) / total),
      text: s.bins.map(([ns]) => text(scale, ns)),
      mode: "lines",
      line: { shape: "hv" },
      fill: "tozeroy",
      hovertemplate: `%{text}: %{y:.3g}% of I/Os<extra>${s.name}</extra>`,
    };
  });
  return lines(traces, {
    showlegend: chart.series.length > 1,
    xaxis: logAxis(traces.flatMap((t) => t.x), "completion latency", scale.label),
    yaxis: { title: { text: "% of I/Os" }, ticksuffix: "%", rangemode: "tozero" },
  });
}

// A scenario's history: one metric by report date, one line per environment; a point whose change
// from the one before was flagged (pages/history.py) is drawn red (regression) or green (improvement).
const FLAG_COLOURS = { regression: "#d62728", improvement: "#2ca02c" };
function trend(chart, mode) {
  const scale = chartScale(chart, mode, chart.series.flatMap((s) => s.values));
  const traces = chart.series.map((s) => ({
    ...scaledLine(s, s.x, scale),
    customdata: s.reports.map((report, i) => (s.flags[i] ? `${report}: ${s.flags[i]}` : report)),
    mode: "lines+markers",
    marker: { size: 11, line: { width: 3, color: s.flags.map((f) => FLAG_COLOURS[f] || "rgba(0,0,0,0)") } },
    hovertemplate: `%{x}: %{text}<br>%{customdata}<extra>${s.name}</extra>`,
  }));
  return lines(traces, {
    showlegend: chart.series.length > 1,
    xaxis: { type: "date", title: { text: "report date", standoff: 6 }, automargin: true, tickangle: 0, ...reportTicks(chart) },
    yaxis: {
      title: { text: axisTitle(scale) === chart.metric ? chart.metric : `${chart.metric} (${axisTitle(scale)})` },
      rangemode: "tozero",
      exponentformat: "none",
      separatethousands: true,
    },
  });
}

// A tick per report day, at most four, labelled by its date; by its time of day when every report is of
// one day, to the minute or, when a minute holds two, the second (perfwiki.chartsvg _date_ticks).
function reportTicks(chart) {
  const moments = [...new Set(chart.series.flatMap((s) => s.x))].sort();
  const oneDay = new Set(moments.map((m) => m.slice(0, 10))).size === 1;
  const clock = new Set(moments.map((m) => m.slice(11, 16))).size === moments.length ? [11, 16] : [11, 19];
  const days = new Map();
  moments.forEach((m) => {
    const key = oneDay && m.length >= 16 ? m.slice(...clock) : m.slice(0, 10);
    if (!days.has(key)) days.set(key, m);
  });
  let picked = [...days.entries()];
  if (picked.length > 4) {
    const step = Math.ceil(picked.length / 4);
    picked = picked.filter((_, i) => i % step === 0);
  }
  return { tickmode: "array", tickvals: picked.map(([, m]) => m), ticktext: picked.map(([key]) => key) };
}

// mbw's copy rate per iteration and method, in the unit mbw prints (MiB/s) or SI.
function iterations(chart, mode) {
  const scale = scaleOf("B/s", mode === "si" ? "MB/s" : "MiB/s");
  const traces = chart.series.map((s) => ({
    type: "scatter",
    name: s.name,
    x: s.values.map((_, i) => i),
    y: s.values.map((v) => (present(v) ? number(scale, v) : null)),
    mode: "lines+markers",
  }));
  // No showlegend: plotly's default, a legend as soon as there are two methods.
  return lines(traces, {
    xaxis: { title: { text: "iteration" }, tick0: 0, dtick: 1 }, // whole iterations
    yaxis: { title: { text: scale.label }, rangemode: "tozero", exponentformat: "none", separatethousands: true },
  });
}

// iperf3's throughput per interval (lines), and retransmits per interval (bars, right axis).
function intervals(chart) {
  const traces = [];
  chart.series.forEach((s) => {
    traces.push({
      type: "scatter",
      name: s.name,
      x: s.x,
      y: s.values,
      mode: "lines+markers",
      hovertemplate: `%{x} s: %{y:.3s}bit/s<extra>${s.name}</extra>`,
    });
    if (s.retransmits) {
      traces.push({ type: "bar", name: `${s.name} retransmits`, x: s.x, y: s.retransmits, yaxis: "y2", opacity: 0.4 });
    }
  });
  const layout = {
    xaxis: { title: { text: "seconds" } },
    yaxis: { title: { text: "bit/s" }, tickformat: "~s", rangemode: "tozero" },
    margin: { t: 16, r: 56, b: 16, l: 72 },
  };
  if (chart.series.some((s) => s.retransmits)) {
    // Whole retransmits on ticks of their own: plotly's default for an overlaid axis puts them where
    // the throughput's gridlines fall (540, 1090, 1630), fractions on a small count. No second grid.
    const counts = chart.series.flatMap((s) => s.retransmits || []);
    layout.yaxis2 = { title: { text: "retransmits" }, overlaying: "y", side: "right", showgrid: false, ...countAxis(counts) };
  }
  return lines(traces, layout);
}

// Latency under load (perfwiki.underload): every ping reply's RTT (left axis, ms, log when the load
// spreads it over decades) and the throughput test's rate per interval (right axis), on the ping's
// own time axis, the test's window shaded: the delay the load adds shows where the shading starts.
function underLoad(chart, mode) {
  const rtt = chart.rtt;
  const load = chart.load;
  // The throughput in one display unit (Gbit/s, Mbit/s), as every other chart shows bit/s.
  const scale = scaleFor(load.values, "bit/s", mode === "si" || mode === "iec" ? mode : "si");
  const traces = [
    {
      type: "scatter",
      name: rtt.name,
      x: rtt.t_s,
      y: rtt.values,
      mode: "lines+markers",
      marker: { size: 4 },
      hovertemplate: `%{x:.1f} s: %{y:.3g} ms<extra>${rtt.name}</extra>`,
    },
    {
      ...scaledLine({ name: load.name, values: load.values }, load.t_s, scale),
      yaxis: "y2",
      mode: "lines+markers",
      line: { dash: "dot" },
      hovertemplate: `%{x:.1f} s: %{text}<extra>${load.name}</extra>`,
    },
  ];
  const [start, end] = chart.window;
  return lines(traces, {
    showlegend: true,
    xaxis: { title: { text: "seconds from the first reply" }, rangemode: "tozero" },
    yaxis: logAxis(rtt.values, "RTT", "ms"),
    // Ticks of its own (plotly would otherwise put them where the RTT's gridlines fall: 8.85733G).
    yaxis2: {
      title: { text: `throughput (${axisTitle(scale)})` },
      overlaying: "y",
      side: "right",
      showgrid: false,
      tickmode: "auto",
      nticks: 5,
      rangemode: "tozero",
      exponentformat: "none",
      separatethousands: true,
    },
    margin: { t: 16, r: 64, b: 16, l: 72 },
    shapes: [
      {
        type: "rect",
        xref: "x",
        yref: "paper",
        x0: start,
        x1: end,
        y0: 0,
        y1: 1,
        line: { width: 0 },
        fillcolor: "rgba(128,128,128,0.15)",
        layer: "below",
      },
    ],
  });
}

const KINDS = { bars, sweep, ladder, histogram, iterations, intervals, timeline, bins, trend, under_load: underLoad };

// The plotly figure of one chart under the unit switch's `mode` (printed, si, iec), for the
// `view` it is drawn in ({width, measure}; without one, as if wide enough for every value).
export function figure(chart, mode = "printed", view = {}) {
  return KINDS[chart.kind](chart, mode, view);
}

// Only charts of byte quantities change with the unit switch.
const switches = (chart) => chart.kind === "iterations" || isByteUnit(chart.unit);

function themeLayout() {
  const style = getComputedStyle(document.documentElement);
  const value = (name) => style.getPropertyValue(name).trim();
  const grid = value("--chart-grid");
  return {
    paper_bgcolor: "rgba(0,0,0,0)",
    plot_bgcolor: "rgba(0,0,0,0)",
    font: { color: value("--chart-text"), family: value("--font-sans") },
    colorway: value("--chart-colorway").split(/\s*,\s*/),
    grid,
  };
}

// On a touch screen a swipe over a chart scrolls the page: no drag-zoom there (a tap still shows values).
const touch = window.matchMedia("(pointer: coarse)");
function fixedForTouch(layout) {
  if (!touch.matches) return layout;
  const fixed = { ...layout, dragmode: false };
  Object.keys(layout)
    .filter((key) => /^[xy]axis\d*$/.test(key))
    .forEach((key) => {
      fixed[key] = { ...layout[key], fixedrange: true };
    });
  return fixed;
}

function themed(layout) {
  const theme = themeLayout();
  const axes = Object.keys(layout).filter((key) => /^[xy]axis\d*$/.test(key));
  const merged = { ...layout, paper_bgcolor: theme.paper_bgcolor, plot_bgcolor: theme.plot_bgcolor };
  merged.font = { ...(layout.font || {}), ...theme.font };
  merged.colorway = theme.colorway;
  ["xaxis", "yaxis", ...axes].forEach((key) => {
    merged[key] = { ...(layout[key] || {}), gridcolor: theme.grid, linecolor: theme.grid };
  });
  return merged;
}

const CONFIG = { responsive: true, displaylogo: false, displayModeBar: false };

// Every figure drawn, by element id, as built: tests/browser checks them against plotly's schema.
window.perfwikiFigures = {};
// Every element drawn into, the compare page's too, with its chart and width: all are re-themed when
// the colour scheme changes, and bar charts drawn again when their width does (valueRoom).
const drawn = new Map();

// The width of a text in the font and size plotly prints it with (the theme's, its default 12 px).
const canvas = document.createElement("canvas").getContext("2d");
function measurer() {
  canvas.font = `12px ${themeLayout().font.family}`;
  return (shown) => canvas.measureText(shown).width;
}

function draw(element, chart) {
  const view = { width: element.clientWidth, measure: measurer() };
  const spec = figure(chart, document.documentElement.dataset.units || "printed", view);
  window.perfwikiFigures[element.id] = JSON.parse(JSON.stringify(spec));
  drawn.set(element, { chart, width: view.width });
  return Plotly.react(element, spec.data, themed(fixedForTouch(spec.layout)), CONFIG);
}

// What was drawn and is still on the page (compare.js replaces its chart when the selection changes).
function stillShown() {
  [...drawn.keys()].filter((element) => !element.isConnected).forEach((element) => drawn.delete(element));
  return drawn;
}

window.matchMedia("(prefers-color-scheme: dark)").addEventListener("change", () => {
  stillShown().forEach((_, element) => element.layout && Plotly.relayout(element, themed(element.layout)));
});

let resized;
window.addEventListener("resize", () => {
  clearTimeout(resized);
  resized = setTimeout(() => {
    stillShown().forEach(({ chart, width }, element) => {
      if (chart.kind === "bars" && element.clientWidth !== width) draw(element, chart);
    });
  }, 150);
});

// One chart drawn from a spec made in the page (the compare page's), as the others are drawn.
export function drawChart(element, chart) {
  return draw(element, chart);
}

// A run's published index.json, fetched once for every chart of its page that reads it.
const runs = new Map();
function publishedRun(url) {
  if (!runs.has(url)) runs.set(url, fetch(url).then((response) => response.json()));
  return runs.get(url);
}

// fio's directions a latency ladder draws, in fio's order (perfwiki.tools.fio.pages).
const DIRECTIONS = ["read", "write", "trim"];

// A run page's chart carries only its kind: its series are in the run's published index.json
// (the element's data-run), where fio's metrics hold them. Other charts carry their own.
const runSeries = {
  ladder: (jobs) =>
    jobs.flatMap((job) =>
      DIRECTIONS.filter((d) => job[d] && job[d].percentiles_ns && Object.keys(job[d].percentiles_ns).length).map(
        (d) => ({ name: `${d} (${job.name})`, percentiles: job[d].percentiles_ns }),
      ),
    ),
  histogram: (jobs) => (jobs.length && jobs[0].lat_buckets ? [{ name: String(jobs[0].name), buckets: jobs[0].lat_buckets }] : []),
  bins: (jobs) =>
    jobs.flatMap((job) =>
      DIRECTIONS.filter((d) => job[d] && job[d].bins_ns && job[d].bins_ns.length).map((d) => ({
        name: `${d} (${job.name})`,
        bins: job[d].bins_ns,
      })),
    ),
  // fio's logs (perfwiki.tools.fio.logs): the chart names its kind; a job number only when there are several.
  timeline: (jobs, chart, metrics) => {
    const logs = (metrics.logs || []).filter((log) => log.kind === chart.log);
    const several = new Set(logs.map((log) => log.job)).size > 1;
    return logs.map((log) => ({ name: several ? `${log.direction} (job ${log.job})` : log.direction, t_s: log.t_s, values: log.values }));
  },
};

// The unit a run chart's series are in, when the chart carries only its kind.
const runUnit = { timeline: (chart) => ({ bw: "B/s", iops: "IOPS" })[chart.log] || "ns" };

async function withNumbers(element, chart) {
  if (chart.series || !element.dataset.run || !runSeries[chart.kind]) return chart;
  const run = await publishedRun(element.dataset.run);
  const metrics = run.metrics || {};
  const series = runSeries[chart.kind](metrics.jobs || [], chart, metrics);
  return { ...chart, series, ...(runUnit[chart.kind] ? { unit: runUnit[chart.kind](chart) } : {}) };
}

// ---- Interactive on demand ---------------------------------------------------------------------
// Every chart arrives drawn as a static SVG (perfwiki.chartsvg). plotly.js costs a long main-thread
// task to load and another per chart to draw, so it is loaded only when the reader first reaches for a
// chart (pointer over or down on it, a tap, keyboard focus): that chart turns interactive first, then
// each other one as it comes into view, one per task, so scrolling stays smooth. A run chart's series
// (fio's percentiles and logs, in the run's index.json) are fetched then too.
const PLOTLY = (document.currentScript && document.currentScript.dataset) || {};
let plotlyLoaded;
function loadPlotly() {
  if (window.Plotly) return Promise.resolve();
  if (!plotlyLoaded) {
    plotlyLoaded = new Promise((resolve, reject) => {
      const tag = document.createElement("script");
      tag.src = PLOTLY.plotly;
      if (PLOTLY.plotlyIntegrity) tag.integrity = PLOTLY.plotlyIntegrity;
      tag.onload = resolve;
      tag.onerror = () => reject(new Error(`plotly.js did not load from ${PLOTLY.plotly}`));
      document.head.append(tag);
    });
  }
  return plotlyLoaded;
}

const plots = () => [...document.querySelectorAll("[data-chart]")];
const started = new WeakMap(); // element -> the promise of its interactive drawing

// A chart's spec: in the page beside it, or, on a report page, in the report's charts.json
// (perfwiki.chartsvg.specs_apart), fetched once for all its charts.
const specFiles = new Map(); // url -> the promise of {chart id: spec}
const specs = {}; // chart id -> the spec it was drawn from (the browser tests read it)
async function specOf(element) {
  const node = document.getElementById(element.dataset.chart);
  if (node) return JSON.parse(node.textContent);
  const url = element.dataset.specs;
  if (!url) return null;
  if (!specFiles.has(url)) {
    specFiles.set(
      url,
      fetch(url).then((response) => {
        if (!response.ok) throw new Error(`${url}: ${response.status} ${response.statusText}`);
        return response.json();
      }),
    );
  }
  return (await specFiles.get(url))[element.id] || null;
}

// The static rendering stays in place, over the chart, until plotly has drawn it at the same height:
// nothing moves and nothing goes blank.
async function interactive(element) {
  if (!element.dataset.specs && !document.getElementById(element.dataset.chart)) return;
  element.dataset.loading = "true"; // main.css says so over the chart until plotly has drawn it
  const [spec] = await Promise.all([specOf(element), loadPlotly()]);
  if (!spec) {
    delete element.dataset.loading;
    return;
  }
  specs[element.id] = spec;
  const chart = await withNumbers(element, spec);
  const stills = [...element.querySelectorAll(":scope > .chart__static")];
  if (stills.length) {
    element.style.height = `${element.offsetHeight}px`;
    stills.forEach((still) => Object.assign(still.style, { position: "absolute", top: "0", left: "0", width: "100%" }));
  }
  await draw(element, chart);
  stills.forEach((still) => still.remove());
  delete element.dataset.loading;
  element.dataset.interactive = "true";
  if (switches(chart)) document.addEventListener("perfwiki:units", () => draw(element, chart));
}

function hydrate(element) {
  if (!started.has(element)) started.set(element, interactive(element));
  return started.get(element);
}

// After the first interaction, the rest as they come into view, one at a time with a task between.
const waiting = [];
let working = false;
async function drainQueue() {
  if (working) return;
  working = true;
  while (waiting.length) {
    await hydrate(waiting.shift());
    await new Promise((resolve) => setTimeout(resolve, 0));
  }
  working = false;
}
let watching = false;
function watchTheRest() {
  if (watching || !("IntersectionObserver" in window)) return;
  watching = true;
  const seen = new IntersectionObserver(
    (entries) => {
      entries
        .filter((entry) => entry.isIntersecting)
        .forEach((entry) => {
          seen.unobserve(entry.target);
          if (!started.has(entry.target)) waiting.push(entry.target);
        });
      drainQueue();
    },
    { rootMargin: "200px 0px" },
  );
  plots().forEach((element) => seen.observe(element));
}

// A tap that turned a chart interactive was meant for a value: once drawn, plotly shows the one under
// it, as a second tap would have (a phone has no hover to show it before).
function showTapped(element, point) {
  const size = element._fullLayout && element._fullLayout._size;
  if (!point || !size || !window.Plotly.Fx) return;
  const box = element.getBoundingClientRect();
  window.Plotly.Fx.hover(element, { xpx: point.x - box.left - size.l, ypx: point.y - box.top - size.t });
}

const tappedAt = new WeakMap(); // element -> where the reader tapped it before it was interactive

function reachedFor(event) {
  const element = event.target instanceof Element ? event.target.closest("[data-chart]") : null;
  if (!element) return;
  if ((event.type === "pointerdown" || event.type === "touchstart") && element.dataset.interactive !== "true") {
    const at = (event.touches && event.touches[0]) || event;
    tappedAt.set(element, { x: at.clientX, y: at.clientY });
  }
  hydrate(element).then(
    () => {
      const point = tappedAt.get(element);
      tappedAt.delete(element);
      showTapped(element, point);
      watchTheRest();
    },
    (error) => console.error(error),
  );
}
["pointerover", "pointerdown", "touchstart", "focusin"].forEach((type) =>
  document.addEventListener(type, reachedFor, { passive: true, capture: true }),
);

// A chart with no static rendering (none could be made of it) is drawn at once, as before.
function drawBare() {
  plots()
    .filter((element) => !element.querySelector(":scope > .chart__static"))
    .forEach((element) => hydrate(element));
}

// Every chart of the page interactive, in order (for the browser tests, and a reader's script).
async function everyChart() {
  for (const element of plots()) await hydrate(element);
}

// For the browser tests: the same formatting the charts print, to compare with units.py.
window.perfwikiFormat = { scaleFor, scaleOf, text, axisTitle, significant, bitsPerSecond, nanoseconds };
window.perfwikiCharts = { figure, interactive: everyChart, hydrate, specs };

if (document.readyState === "loading") {
  document.addEventListener("DOMContentLoaded", drawBare);
} else {
  drawBare();
}

// The compare page: any environments side by side on the scenarios they ran, as ratios to a
// baseline the reader picks, or to the best of each scenario (×N, as ClickBench shows it).
// Everything comes from runs/compare.json, written by perfwiki ingest (pages/index.py
// compare_index): per scenario (one fingerprint) and environment, the median of each metric.
// Runs of different fingerprints are never put in one row: a scenario is one fingerprint, and an
// environment that ran a near one instead is named with what differs.

import { drawChart } from "./charts.js";
import { numberText, scaleFor, significant, text as formatted } from "./format.js";

// A metric's value as the wiki prints it (units.format_value); UnixBench's numbers have a unit of their own per test.
const text = (scale, value) => (scale.unit === "per test" ? numberText(value) : formatted(scale, value));

const root = document.getElementById("compare");
const base = root.dataset.base;
const state = { envs: [], scenarios: [], ref: "", metric: "" };
let data = null;
let titles = {};

const $ = (id) => document.getElementById(id);
const el = (tag, attributes = {}, ...children) => {
  const node = document.createElement(tag);
  Object.entries(attributes).forEach(([key, value]) => {
    if (key === "class") node.className = value;
    else if (key in node && typeof value !== "string") node[key] = value;
    else node.setAttribute(key, value);
  });
  children.flat().forEach((child) => node.append(child instanceof Node ? child : document.createTextNode(child)));
  return node;
};

// ---- the selection, in the address -------------------------------------------------------

function readAddress() {
  const params = new URLSearchParams(window.location.search);
  const list = (name) => (params.get(name) || "").split(",").filter(Boolean);
  state.envs = list("env").filter((env) => env in data.environments);
  state.scenarios = list("scenario").filter((key) => data.byKey.has(key));
  state.ref = params.get("ref") || "";
  state.metric = params.get("metric") || "";
}

function address() {
  const params = new URLSearchParams();
  if (state.envs.length) params.set("env", state.envs.join(","));
  if (state.scenarios.length) params.set("scenario", state.scenarios.join(","));
  if (state.ref) params.set("ref", state.ref);
  if (state.metric) params.set("metric", state.metric);
  const query = params.toString().replaceAll("%2C", ",");
  return `${window.location.origin}${window.location.pathname}${query ? `?${query}` : ""}`;
}

// ---- what is compared ----------------------------------------------------------------------

// The scenarios at least two picked environments ran: the only ones where a ratio says anything.
function sharedScenarios() {
  return data.scenarios.filter((s) => state.envs.filter((env) => s.cells[env]).length >= 2);
}

// The rows: the scenarios picked, else those two or more picked environments ran. When they share
// none, the reference's own, so each other environment's cell says what it ran instead.
function shownScenarios() {
  if (state.scenarios.length) return state.scenarios.map((key) => data.byKey.get(key)).filter(Boolean);
  const shared = sharedScenarios();
  if (shared.length) return shared;
  const first = against().reference || state.envs[0];
  return data.scenarios.filter((s) => s.cells[first]);
}

// The metric a row compares: the chosen one when its tool measures it, else the tool's first.
function metricOf(scenario) {
  const metrics = data.tools[scenario.tool].metrics;
  if (!metrics.length) return null;
  const index = state.metric ? metrics.findIndex((m) => m.title === state.metric) : 0;
  return index < 0 ? null : { index, ...metrics[index] };
}

// A ratio where more is better, whatever the metric's direction: 2× is twice as good.
function speedup(value, reference, higher) {
  if (!value || !reference) return null;
  return higher ? value / reference : reference / value;
}

function geometricMean(values) {
  const kept = values.filter((v) => v && v > 0);
  if (!kept.length) return null;
  return Math.exp(kept.reduce((sum, v) => sum + Math.log(v), 0) / kept.length);
}

// What differs between two fingerprints, as compare.differences says it in Python:
// "block size 8 KiB, not 4 KiB".
function differences(reference, other) {
  const theirs = new Map(other.params);
  const found = [];
  reference.params.forEach(([name, value]) => {
    const their = theirs.has(name) ? theirs.get(name) : "unknown";
    if (their !== value) found.push(`${name} ${their}, not ${value}`);
  });
  other.params.forEach(([name, value]) => {
    if (!reference.params.some(([n]) => n === name)) found.push(`${name} ${value}, not unknown`);
  });
  return found;
}

// The scenario of the same tool an environment ran that is nearest to one it did not run.
function nearest(scenario, env) {
  let best = null;
  data.scenarios.forEach((other) => {
    if (other.tool !== scenario.tool || !other.cells[env] || other === scenario) return;
    const differ = differences(scenario, other);
    if (!best || differ.length < best.differ.length) best = { other, differ };
  });
  return best;
}

// ---- drawing ------------------------------------------------------------------------------

// A scenario in a few words: "fio randread, 4 KiB, queue depth 16, jobs 1, direct, posixaio". A
// number or a yes/no keeps its parameter's name; the direction is implied by the rw mode.
function short(scenario) {
  const words = scenario.params
    .filter(([name]) => name !== "direction")
    .map(([name, value]) => (/^(\d+|True|False)$/.test(value) ? `${name} ${value}` : value));
  return `${scenario.tool} ${words.join(", ")}`;
}

function runLink(cell, label) {
  const [report, run] = cell.runs[0];
  return el("a", { href: `${base}runs/${report}/${run}/` }, label);
}

// A ratio as every page writes one (units.ratio_text): three significant digits, zeros kept, 1.50×.
function ratioText(ratio) {
  return ratio === null ? "" : `${significant(ratio)}×`;
}

const plural = (count, word) => `${count} ${word}${count === 1 ? "" : "s"}`;
const missing = (value) => value === null || value === undefined;

// What the picked environments are measured against: one of them (the baseline), or the best of
// each scenario ("best"), whose ratios read as ×N of the best (1× is the best, more is worse).
function against() {
  const best = state.ref === "best";
  const reference = best ? null : state.envs.includes(state.ref) ? state.ref : state.envs[0];
  return { best, reference };
}

function headRow(envs, reference) {
  const row = el("tr", {}, el("th", { scope: "col" }, "Scenario"));
  envs.forEach((env) => {
    const link = el("a", { href: `${base}environments/${env}/` }, env);
    row.append(el("th", { scope: "col" }, link, env === reference ? el("span", { class: "muted" }, " (baseline)") : ""));
  });
  return el("thead", {}, row);
}

// Within ±data.even of 1 a ratio is even: the rule of ingest's noise.py, which every page uses.
function even(up) {
  return up >= 1 - data.even - 1e-9 && up <= 1 + data.even + 1e-9;
}

// One scenario's row: each environment's value and its ratio; an environment that did not run
// this scenario is "not run", with the near scenario it ran instead (kept in `refused`).
function scenarioRow(scenario, metric, how, ratios, refused) {
  const { best, reference } = how;
  const envs = state.envs;
  const values = envs.map((env) => (scenario.cells[env] ? scenario.cells[env].values[metric.index] : null));
  const present = values.filter((v) => !missing(v));
  const scale = scaleFor(present, metric.unit);
  // A cell a check explained as a cache (ingest's artefacts.py) is shown, never set against another.
  const measured = envs
    .map((env, i) => (scenario.cells[env] && !scenario.cells[env].artefact ? values[i] : null))
    .filter((v) => !missing(v));
  const referenceCell = scenario.cells[reference];
  let target = referenceCell && !referenceCell.artefact ? referenceCell.values[metric.index] : null;
  if (best) target = measured.length ? (metric.higher ? Math.max(...measured) : Math.min(...measured)) : null;
  const name = el("a", { href: `${base}scenarios/${scenario.key}/`, title: scenario.title }, short(scenario));
  const direction = `${metric.title}, ${metric.higher ? "higher" : "lower"} is better`;
  const row = el("tr", {}, el("th", { scope: "row" }, name, el("br"), el("span", { class: "muted" }, direction)));
  envs.forEach((env, i) => {
    const cell = scenario.cells[env];
    if (!cell || missing(values[i])) {
      const near = nearest(scenario, env);
      if (near) refused.push({ env, scenario, near });
      const why = near
        ? `not run: ${env} ran ${short(near.other)} instead (${near.differ.join("; ")}): another scenario`
        : `not run: ${env} has no ${scenario.tool} run of this scenario`;
      // What it ran instead, in the cell itself: "ran engine windowsaio, not posixaio".
      const instead = near ? el("span", { class: "compare-instead" }, `ran ${near.differ.join("; ")}`) : "";
      row.append(el("td", { class: "missing", title: why }, "not run", near ? el("br") : "", instead));
      return;
    }
    const repeats = cell.runs.length > 1 ? ` (median of ${cell.runs.length})` : "";
    if (cell.artefact) {
      ratios.leftOut.set(env, (ratios.leftOut.get(env) || 0) + 1);
      const note = el("span", { class: "artefact-note" }, `not a speed result: ${cell.artefact}`);
      row.append(el("td", { class: "artefact" }, runLink(cell, text(scale, values[i])), repeats, el("br"), note));
      return;
    }
    const up = target ? speedup(values[i], target, metric.higher) : null;
    if (up !== null) ratios.get(env).push(up);
    const ratio = up === null ? null : best ? 1 / up : up;
    let verdict = "";
    if (!best && env !== reference && up !== null && !even(up)) verdict = up > 1 ? "better" : "worse";
    const shown = ratio === null || env === reference ? "" : el("span", { class: "rel" }, ` ${ratioText(ratio)}`);
    const typed = cell.manual ? el("span", { class: "badge", title: "typed by hand, no raw output" }, "manual") : "";
    row.append(el("td", verdict ? { class: verdict } : {}, runLink(cell, text(scale, values[i])), repeats, " ", typed, shown));
  });
  return row;
}

// The summary: the geometric mean of each environment's ratios over the scenarios it ran.
function summaryRow(summary, ratios, how) {
  const said = how.best
    ? "How many times the best (geometric mean; 1× is the best, more is slower)"
    : `Speed against ${how.reference} (geometric mean; above 1× is better)`;
  const row = el("tr", { class: "compare-summary" }, el("th", { scope: "row" }, said));
  state.envs.forEach((env, i) => {
    // The mean alone hides a 66.7× page-cache hit among losses: say how many each way, and the range.
    const ups = ratios.get(env);
    const shown = how.best ? ups.map((up) => 1 / up) : ups;
    const range = shown.length > 1 ? ` (${ratioText(Math.min(...shown))} to ${ratioText(Math.max(...shown))})` : "";
    const better = ups.filter((up) => up > 1 && !even(up)).length;
    const worse = ups.filter((up) => up < 1 && !even(up)).length;
    // The median beside the mean: one page-cache hit of 66.7× moves the mean, not the median.
    const sorted = [...shown].sort((a, b) => a - b);
    const half = Math.floor(sorted.length / 2);
    const median = sorted.length % 2 ? sorted[half] : (sorted[half - 1] + sorted[half]) / 2;
    const middle = shown.length > 2 ? `, median ${ratioText(median)}` : "";
    const tally = how.best
      ? `: the best in ${shown.filter((r) => r <= 1.0000001).length}`
      : `: better in ${better}, worse in ${worse}`;
    const mean = how.best ? `${ratioText(summary[i])} the best` : ratioText(summary[i]);
    let cell = `${mean} over ${plural(ups.length, "scenario")}${tally}${range}${middle}`;
    if (env === how.reference) cell = "baseline";
    else if (summary[i] === null && ratios.leftOut.get(env)) {
      // Every scenario it shares was explained by a check (a cache): there is nothing to average.
      const left = plural(ratios.leftOut.get(env), "scenario");
      cell = el("span", { class: "missing" }, `no like-for-like result: ${left} left out, not speed results`);
    } else if (summary[i] === null) {
      const why = "no scenario in common: see “Not side by side” below";
      cell = el("span", { class: "missing", title: why }, "no scenario in common");
    }
    row.append(el("td", {}, cell));
  });
  return row;
}

function refusedList(refused) {
  const list = el("ul");
  refused.forEach(({ env, scenario, near }) => {
    const said = `${env} did not run ${short(scenario)}; its nearest run, ${short(near.other)}, differs: `;
    list.append(el("li", {}, `${said}${near.differ.join("; ")}. Not put side by side.`));
  });
  const title = `Not side by side: ${plural(refused.length, "run")} of another scenario`;
  return el("details", { class: "left-out", id: "compare-refused" }, el("summary", {}, title), list);
}

function render() {
  const envs = state.envs;
  const result = $("compare-result");
  result.replaceChildren();
  $("compare-url").textContent = address();
  window.history.replaceState(null, "", address());
  if (envs.length < 2) {
    result.append(el("p", { class: "muted" }, "Pick two or more environments to compare them."));
    return;
  }
  const how = against();
  const rows = shownScenarios();
  const ratios = new Map(envs.map((env) => [env, []]));
  ratios.leftOut = new Map(); // per environment, how many of its cells were artefacts
  const refused = [];
  const body = el("tbody");
  rows.forEach((scenario) => {
    const metric = metricOf(scenario);
    if (metric) body.append(scenarioRow(scenario, metric, how, ratios, refused));
  });
  const summary = envs.map((env) => {
    const mean = geometricMean(ratios.get(env));
    return mean && how.best ? 1 / mean : mean;
  });
  body.prepend(summaryRow(summary, ratios, how));
  const caption = how.best
    ? "How many times the best each environment is, over the scenarios below (1× is the best; lower is better)"
    : `Each environment against ${how.reference}, over the scenarios below (above 1× is better)`;
  const chart = el("div", { class: "chart__plot compare-chart", id: "compare-chart", role: "img", "aria-label": caption });
  result.append(el("figure", { class: "chart" }, el("figcaption", {}, caption), chart));
  result.append(el("div", { class: "table-wrap" }, el("table", { class: "comparison compare-table" }, headRow(envs, how.reference), body)));
  if (!rows.length) {
    const said = "The picked environments have no scenario in common: no two of them ran one test with the same parameters.";
    result.append(el("p", { class: "missing" }, said));
  }
  if (refused.length) result.append(refusedList(refused));
  document.dispatchEvent(new CustomEvent("perfwiki:rows")); // tables.js: "scroll sideways" when it does
  if (summary.every((value, i) => value === null || state.envs[i] === how.reference)) {
    chart.closest("figure").remove(); // nothing compared: no empty axes
    return;
  }
  drawChart(chart, {
    kind: "bars",
    unit: "×",
    labels: envs.map((env, i) => {
      if (env === how.reference) return `${env} (baseline)`;
      return summary[i] === null ? `${env} (none in common)` : env;
    }),
    series: [{ values: summary.map((v) => (v === null ? null : Number(v.toPrecision(3)))) }],
    baseline: how.best ? null : 1,
    colours: envs.map((env) => (env === how.reference ? "#8c8c8c" : "#4e79a7")),
  });
}

// ---- the controls -------------------------------------------------------------------------

function checklist(container, items, checked, onChange) {
  const item = ({ value, label, detail }) => {
    const box = el("input", { type: "checkbox", value, checked: checked.includes(value), onchange: onChange });
    const filter = `${value} ${label} ${detail}`.toLowerCase();
    return el("label", { class: "checklist__item", "data-filter": filter }, box, " ", label, el("span", { class: "muted" }, ` ${detail}`));
  };
  container.replaceChildren(...items.map(item));
}

function filtering(input, container) {
  input.addEventListener("input", () => {
    const words = input.value.toLowerCase().split(/\s+/).filter(Boolean);
    container.querySelectorAll(".checklist__item").forEach((item) => {
      item.hidden = !words.every((word) => item.dataset.filter.includes(word));
    });
  });
}

// Toggling a value keeps the others in the order they were picked in.
const toggled = (list, value, on) => [...list.filter((item) => item !== value), ...(on ? [value] : [])];

function environmentPicker(onChange) {
  // The picked ones first, in the order they were picked: in sight above a long list.
  const rest = Object.keys(data.environments)
    .sort()
    .filter((env) => !state.envs.includes(env));
  const items = [...state.envs, ...rest].map((env) => ({ value: env, label: env, detail: titles[env] || "" }));
  checklist($("compare-envs"), items, state.envs, onChange);
  filtering($("compare-env-filter"), $("compare-envs"));
}

// The scenarios offered: those two or more picked environments ran, and any picked before.
function scenarioPicker() {
  const offered = data.scenarios.filter(
    (s) => state.envs.filter((env) => s.cells[env]).length >= 2 || state.scenarios.includes(s.key),
  );
  const items = offered.map((s) => ({ value: s.key, label: short(s), detail: "" }));
  checklist($("compare-scenarios"), items, state.scenarios, (event) => {
    state.scenarios = toggled(state.scenarios, event.target.value, event.target.checked);
    render();
  });
  let note = "Pick environments first: the scenarios two of them ran appear here.";
  if (offered.length) note = `${plural(offered.length, "scenario")} that two or more picked environments ran; none picked shows them all.`;
  else if (state.envs.length > 1) note = "The picked environments share no scenario: the table shows the baseline's, and what the others ran instead.";
  $("compare-scenarios-note").textContent = note;
  $("compare-env-count").textContent = state.envs.length ? ` (${state.envs.length} picked)` : "";
}

function referencePicker() {
  // Each option names what it would be: an environment as the baseline, or the best of each scenario.
  const options = state.envs.map((env) => el("option", { value: env, selected: env === state.ref }, `${env} as the baseline`));
  const best = el("option", { value: "best", selected: state.ref === "best" }, "the best of each scenario (×N)");
  $("compare-ref").replaceChildren(...options, best);
}

function controls() {
  environmentPicker((event) => {
    state.envs = toggled(state.envs, event.target.value, event.target.checked);
    scenarioPicker();
    referencePicker();
    render();
  });
  scenarioPicker();
  filtering($("compare-scenario-filter"), $("compare-scenarios"));
  referencePicker();
  $("compare-ref").addEventListener("change", (event) => {
    state.ref = event.target.value;
    render();
  });
  const metrics = [...new Set(Object.values(data.tools).flatMap((tool) => tool.metrics.map((m) => m.title)))];
  const options = metrics.map((title) => el("option", { value: title, selected: title === state.metric }, title));
  $("compare-metric").replaceChildren(el("option", { value: "" }, "each tool's main metric"), ...options);
  $("compare-metric").addEventListener("change", (event) => {
    state.metric = event.target.value;
    render();
  });
}

async function start() {
  titles = JSON.parse($("compare-titles").textContent);
  data = await (await fetch(root.dataset.source)).json();
  data.byKey = new Map(data.scenarios.map((s) => [s.key, s]));
  readAddress();
  controls();
  $("compare-form").hidden = false;
  document.querySelectorAll(".compare-link").forEach((node) => {
    node.hidden = false;
  });
  render();
}

start();

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
const state = { envs: [], scenarios: [], ref: "", metric: "", near: "" };
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
  state.near = params.get("near") || "";
}

function address() {
  const params = new URLSearchParams();
  if (state.envs.length) params.set("env", state.envs.join(","));
  if (state.scenarios.length) params.set("scenario", state.scenarios.join(","));
  if (state.ref) params.set("ref", state.ref);
  if (state.metric) params.set("metric", state.metric);
  if (state.near) params.set("near", state.near);
  const query = params.toString().replaceAll("%2C", ",");
  return `${window.location.origin}${window.location.pathname}${query ? `?${query}` : ""}`;
}

// ---- what is compared ----------------------------------------------------------------------

// Which scenarios a row may take an environment's value from besides its own, as ingest decided
// (pages/index.py compare_index; this page decides nothing): those a report compared it with on
// purpose ("decided"), and, when the reader asks for near matches in one parameter (?near=engine),
// those that differ from it in that parameter only.
function partners(scenario) {
  const found = (scenario.decided || []).map(([key, said, report]) => ({ key, said, report, kind: "decided" }));
  if (state.near) {
    (scenario.near || [])
      .filter(([, name]) => name === state.near)
      .forEach(([key, , said]) => found.push({ key, said, kind: "near" }));
  }
  return found.filter((partner) => data.byKey.has(partner.key));
}

// A row: a scenario and the partners it takes values from. A scenario taken into a row is not a
// row of its own as well, so no pair of runs counts twice in the means.
function rowsOf(scenarios) {
  const reference = against().reference || state.envs[0];
  const taken = new Set();
  const rows = [];
  scenarios.forEach((scenario) => {
    if (taken.has(scenario.key)) return;
    const links = partners(scenario).filter((partner) => !taken.has(partner.key));
    // The baseline's own scenario leads the row when a partner is the one it ran.
    const own = links.find((partner) => !scenario.cells[reference] && data.byKey.get(partner.key).cells[reference]);
    const lead = own ? data.byKey.get(own.key) : scenario;
    // What differs, said from the lead's side: "target file, not raw device" in the raw device's row.
    const group = new Set([scenario.key, ...links.map((partner) => partner.key)]);
    const others = own ? partners(lead).filter((partner) => group.has(partner.key)) : links;
    [scenario, lead, ...others].forEach((member) => taken.add(member.key)); // each in one row only
    rows.push({ scenario: lead, partners: others });
  });
  return rows;
}

// An environment's cell in a row: its own run of the row's scenario, else a partner's, said as such.
function cellIn(row, env) {
  if (row.scenario.cells[env]) return { cell: row.scenario.cells[env], via: null };
  const partner = row.partners.find((candidate) => data.byKey.get(candidate.key).cells[env]);
  return partner ? { cell: data.byKey.get(partner.key).cells[env], via: partner } : { cell: null, via: null };
}

// The rows at least two picked environments have a value in: the only ones where a ratio says anything.
function sharedRows() {
  return rowsOf(data.scenarios).filter((row) => state.envs.filter((env) => cellIn(row, env).cell).length >= 2);
}

// The rows: the scenarios picked, else those two or more picked environments ran. When they share
// none, the reference's own, so each other environment's cell says what it ran instead.
function shownRows() {
  if (state.scenarios.length) return rowsOf(state.scenarios.map((key) => data.byKey.get(key)).filter(Boolean));
  const shared = sharedRows();
  if (shared.length) return shared;
  const first = against().reference || state.envs[0];
  return rowsOf(data.scenarios.filter((s) => s.cells[first]));
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

// A scenario an environment ran that differs from one it did not run in one parameter only, with
// what differs as ingest said it ("engine windowsaio, not posixaio"): compare_index's `near`.
function nearest(scenario, env) {
  const found = (scenario.near || []).find(([key]) => data.byKey.get(key) && data.byKey.get(key).cells[env]);
  return found ? { other: data.byKey.get(found[0]), differ: found[2], name: found[1] } : null;
}

// ---- drawing ------------------------------------------------------------------------------

// A scenario in a few words: "fio randread, 4 KiB, queue depth 16, jobs 1, direct, posixaio". A
// number or a yes/no keeps its parameter's name. The direction is implied by a pure read or write,
// not by a mixed workload: "fio randrw (write side), 4 KiB, ..." is the write half of a randrw run.
const MIXED = new Set(["randrw", "rw", "readwrite", "trimwrite", "randtrimwrite"]);
function short(scenario) {
  const params = new Map(scenario.params);
  const mixed = MIXED.has(params.get("rw"));
  const words = scenario.params
    .filter(([name]) => name !== "direction")
    .map(([name, value]) => {
      if (name === "rw" && mixed && params.has("direction")) return `${value} (${params.get("direction")} side)`;
      return /^(\d+|True|False)$/.test(value) ? `${name} ${value}` : value;
    });
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

// The baseline when none is picked: the picked environment that shares the most measured scenarios
// with the others (an environment that printed no IOPS, or ran what no other did, is no baseline),
// the first picked among equals.
function fullest() {
  const measured = (cell) => cell && cell.values.some((v) => !missing(v));
  const shared = (env) =>
    data.scenarios.filter((s) => measured(s.cells[env]) && state.envs.some((other) => other !== env && measured(s.cells[other])))
      .length;
  return state.envs.reduce((best, env) => (shared(env) > shared(best) ? env : best), state.envs[0]);
}

// What the picked environments are measured against: one of them (the baseline), or the best of
// each scenario ("best"), whose ratios read as ×N of the best (1× is the best, more is worse).
function against() {
  const best = state.ref === "best";
  const reference = best ? null : state.envs.includes(state.ref) ? state.ref : fullest();
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
function scenarioRow(shownRow, metric, how, ratios, refused, notes) {
  const { scenario } = shownRow;
  const { best, reference } = how;
  const envs = state.envs;
  const found = envs.map((env) => cellIn(shownRow, env));
  const cells = Object.fromEntries(envs.map((env, i) => [env, found[i].cell]));
  const values = envs.map((env) => (cells[env] ? cells[env].values[metric.index] : null));
  const present = values.filter((v) => !missing(v));
  const scale = scaleFor(present, metric.unit);
  // A cell a check explained as a cache (ingest's artefacts.py) is shown, never set against another.
  const measured = envs
    .map((env, i) => (cells[env] && !cells[env].artefact ? values[i] : null))
    .filter((v) => !missing(v));
  const referenceCell = cells[reference];
  let target = referenceCell && !referenceCell.artefact ? referenceCell.values[metric.index] : null;
  if (best) target = measured.length ? (metric.higher ? Math.max(...measured) : Math.min(...measured)) : null;
  const name = el("a", { href: `${base}scenarios/${scenario.key}/`, title: scenario.title }, short(scenario));
  const direction = `${metric.title}, ${metric.higher ? "higher" : "lower"} is better`;
  const row = el("tr", {}, el("th", { scope: "row" }, name, el("br"), el("span", { class: "muted" }, direction)));
  envs.forEach((env, i) => {
    const cell = cells[env];
    if (cell && missing(values[i])) {
      // It ran the scenario; the tool printed no such number (a bandwidth test's IOPS).
      row.append(el("td", { class: "missing" }, runLink(cell, `no ${metric.title}`), viaNote(found[i].via)));
      return;
    }
    if (!cell) {
      const near = nearest(scenario, env);
      if (near) refused.push({ env, scenario, near });
      const why = near
        ? `not run: ${env} ran ${short(near.other)} instead (${near.differ}): another scenario`
        : `not run: ${env} has no ${scenario.tool} run of this scenario`;
      // What it ran instead, in the cell itself: "ran engine windowsaio, not posixaio".
      const instead = near ? el("span", { class: "compare-instead" }, `ran ${near.differ}`) : "";
      row.append(el("td", { class: "missing", title: why }, "not run", near ? el("br") : "", instead));
      return;
    }
    // How many runs the value is the median of, and when other reports ran it here too, that it is
    // the newest report's: a quiet week and a busy week pooled make a number no run measured.
    const newest = cell.reports ? `${cell.runs[0][0]}, the newest of ${cell.reports} reports that ran it here` : "";
    const said = [cell.runs.length > 1 ? `median of ${cell.runs.length}` : "", newest];
    const repeats = said.some(Boolean) ? ` (${said.filter(Boolean).join(", ")})` : "";
    const near = found[i].via && found[i].via.kind === "near";
    const flags = flagged(cell, env, notes);
    const via = viaNote(found[i].via);
    if (cell.artefact) {
      ratios.leftOut.set(env, (ratios.leftOut.get(env) || 0) + 1);
      const note = el("span", { class: "artefact-note" }, `not a speed result: ${cell.artefact}`);
      row.append(el("td", { class: "artefact" }, runLink(cell, text(scale, values[i])), repeats, flags, el("br"), note, via));
      return;
    }
    const up = target ? speedup(values[i], target, metric.higher) : null;
    // A near match is another scenario: its ratio is shown in its cell, never counted as a speed difference.
    if (up !== null && near) ratios.near.set(env, (ratios.near.get(env) || 0) + 1);
    else if (up !== null) ratios.get(env).push(up);
    const ratio = up === null ? null : best ? 1 / up : up;
    let verdict = "";
    if (!best && !near && env !== reference && up !== null && !even(up)) verdict = up > 1 ? "better" : "worse";
    const shown = ratio === null || env === reference ? "" : el("span", { class: "rel" }, ` ${ratioText(ratio)}`);
    const typed = cell.manual ? el("span", { class: "badge", title: "typed by hand, no raw output" }, "manual") : "";
    row.append(el("td", verdict ? { class: verdict } : {}, runLink(cell, text(scale, values[i])), repeats, " ", typed, shown, flags, via));
  });
  return row;
}

// The checks a report flags a cell's runs with (⚠ on its page), numbered here and listed under the
// table in full: a tooltip alone is nothing on a phone.
function flagged(cell, env, notes) {
  if (!cell.checks || !cell.checks.length) return "";
  const marks = cell.checks.map(([at, message]) => {
    const [report, run] = cell.runs[at];
    // A randrw run is in two rows (its read and its write side): its check is listed once.
    let number = notes.findIndex((note) => note.run === run && note.report === report && note.message === message) + 1;
    if (!number) number = notes.push({ env, report, run, message });
    return el("a", { class: "flag", href: `#compare-check-${number}`, title: message }, `⚠${number}`);
  });
  return el("span", { class: "compare-flags" }, ...marks.flatMap((mark) => [" ", mark]));
}

// A value taken from another scenario than the row's, and why: the report's decision, or the near
// match the reader asked for.
function viaNote(via) {
  if (!via) return "";
  const said =
    via.kind === "decided"
      ? `report ${via.report} compares these on purpose: ${via.said}`
      : `near match, not counted: ${via.said}`;
  return el("span", { class: `compare-via compare-via--${via.kind}` }, said);
}

function checksList(notes) {
  const list = el("ol", { class: "compare-checks" });
  notes.forEach(({ env, report, run, message }, i) => {
    const link = el("a", { href: `${base}runs/${report}/${run}/#checks-heading` }, `${env}: ${run}`);
    list.append(el("li", { id: `compare-check-${i + 1}`, value: i + 1 }, link, ` — ${message}`));
  });
  return el("section", { class: "compare-checks-section" }, el("h2", {}, "Checks on these runs"), list);
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
    const near = ratios.near.get(env) ? `; ${plural(ratios.near.get(env), "near match")} not counted` : "";
    let cell = `${mean} over ${plural(ups.length, "scenario")}${tally}${range}${middle}${near}`;
    if (env === how.reference) cell = "baseline";
    else if (summary[i] === null && ratios.near.get(env)) {
      const only = `only ${plural(ratios.near.get(env), "near match")}, not counted: no like-for-like result`;
      cell = el("span", { class: "missing" }, only);
    } else if (summary[i] === null && ratios.leftOut.get(env)) {
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
    const ask = state.near ? "" : ` (ask for near matches in ${near.name} to put it side by side, labelled)`;
    list.append(el("li", {}, `${said}${near.differ}. Not put side by side${ask}.`));
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
  const rows = shownRows();
  const ratios = new Map(envs.map((env) => [env, []]));
  ratios.leftOut = new Map(); // per environment, how many of its cells were artefacts
  ratios.near = new Map(); // per environment, how many of its values were near matches
  const refused = [];
  const notes = [];
  const body = el("tbody");
  rows.forEach((shownRow) => {
    const metric = metricOf(shownRow.scenario);
    if (metric) body.append(scenarioRow(shownRow, metric, how, ratios, refused, notes));
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
  if (notes.length) result.append(checksList(notes));
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
      if (summary[i] !== null) return env;
      // As its summary cell says: nothing shared, or only cache hits and near matches, none counted.
      return ratios.leftOut.get(env) || ratios.near.get(env) ? `${env} (none counted)` : `${env} (none in common)`;
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
  // A row's lead scenario, where another environment's value may come from a partner (a report's
  // decision, a near match asked for).
  const shared = new Set(sharedRows().map((row) => row.scenario.key));
  const offered = data.scenarios.filter((s) => shared.has(s.key) || state.scenarios.includes(s.key));
  const items = offered.map((s) => ({ value: s.key, label: short(s), detail: "" }));
  checklist($("compare-scenarios"), items, state.scenarios, (event) => {
    state.scenarios = toggled(state.scenarios, event.target.value, event.target.checked);
    render();
  });
  let note = "Pick environments first: the scenarios two of them ran appear here.";
  const lone = offered.length - shared.size;
  if (shared.size) {
    const near = state.near ? `, or ran a near match of (${state.near})` : "";
    note = `${plural(shared.size, "scenario")} that two or more picked environments ran${near}`;
    note += lone ? `; ${lone} more picked that fewer ran.` : "; none picked shows them all.";
  } else if (offered.length) note = `${plural(offered.length, "scenario")} picked; no two picked environments ran any of them.`;
  else if (state.envs.length > 1) note = "The picked environments share no scenario: the table shows the baseline's, and what the others ran instead.";
  $("compare-scenarios-note").textContent = note;
  $("compare-env-count").textContent = state.envs.length ? ` (${state.envs.length} picked)` : "";
}

function referencePicker() {
  // Each option names what it would be: an environment as the baseline, or the best of each scenario.
  // The one the table is measured against is the one shown selected, picked or not (fullest).
  const { reference } = against();
  const options = state.envs.map((env) => el("option", { value: env, selected: env === reference }, `${env} as the baseline`));
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
  // Near matches are asked for, one parameter at a time, never assumed.
  const names = [...new Set(data.scenarios.flatMap((s) => (s.near || []).map(([, name]) => name)))].sort();
  const near = names.map((name) => el("option", { value: name, selected: name === state.near }, `allowed to differ in ${name}`));
  $("compare-near").replaceChildren(el("option", { value: "" }, "off: the same scenario only"), ...near);
  $("compare-near").addEventListener("change", (event) => {
    state.near = event.target.value;
    scenarioPicker();
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

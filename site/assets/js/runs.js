// The /runs/ page: every run of the wiki, read from runs/index.json (ingest writes it beside the
// run pages), filtered by tool, environment, report and text, sorted by any column and shown
// PAGE rows at a time, so a wiki of 100,000 runs stays one quick page. The choice lives in the
// address (?tool=fio&environment=...), so a filtered list can be shared.

const PAGE = 200;

const state = { runs: [], reports: {}, matching: [], limit: PAGE, sort: null, base: null };

// A byte quantity {text, si, iec} as the unit toggle (units.js) expects it, in the chosen spelling.
function quantity(value) {
  if (value === null || value === undefined) return document.createTextNode("n/a");
  if (typeof value !== "object") return document.createTextNode(String(value));
  const span = document.createElement("span");
  span.className = "quantity";
  span.dataset.si = value.si;
  span.dataset.iec = value.iec;
  span.dataset.printed = value.text;
  const mode = document.documentElement.dataset.units || "printed";
  span.textContent = mode === "printed" ? value.text : value[mode];
  return span;
}

function link(href, text, title) {
  const a = document.createElement("a");
  a.href = href;
  a.textContent = text;
  if (title) a.title = title;
  return a;
}

function row(run) {
  const tr = document.createElement("tr");
  const head = document.createElement("th");
  head.scope = "row";
  head.appendChild(link(new URL(`${run.report}/${run.id}/`, state.base).pathname, run.title));
  tr.appendChild(head);
  for (const text of [run.tool, run.environment]) {
    const td = document.createElement("td");
    td.textContent = text;
    tr.appendChild(td);
  }
  const report = document.createElement("td");
  report.appendChild(link(new URL(`../reports/${run.report}/`, state.base).pathname, run.report, state.reports[run.report]));
  tr.appendChild(report);
  const results = document.createElement("td");
  results.className = "key-results";
  run.key_results.forEach((entry, i) => {
    if (i) results.appendChild(document.createTextNode(" · "));
    const label = document.createElement("span");
    label.className = "muted";
    label.textContent = entry.label;
    results.append(label, " ", quantity(entry.value));
  });
  tr.appendChild(results);
  return tr;
}

function sortKey(run, key) {
  if (key === "number") {
    const first = run.key_results[0];
    return first && typeof first.number === "number" ? first.number : -Infinity;
  }
  return String(run[key] || "").toLowerCase();
}

function draw() {
  const body = document.querySelector("#run-index tbody");
  const fragment = document.createDocumentFragment();
  state.matching.slice(0, state.limit).forEach((run) => fragment.appendChild(row(run)));
  body.replaceChildren(fragment);
  const count = state.matching.length;
  const listed = Math.min(count, state.limit);
  document.getElementById("run-count").textContent =
    `${count} of ${state.runs.length} runs` + (listed < count ? ` (first ${listed} listed)` : "");
  const more = document.getElementById("run-more");
  more.hidden = listed >= count;
  more.textContent = `Show ${Math.min(PAGE, count - listed)} more of ${count - listed}`;
}

function applyFilters(form) {
  const data = new FormData(form);
  const wanted = { tool: data.get("tool"), environment: data.get("environment"), report: data.get("report") };
  const text = (data.get("q") || "").trim().toLowerCase();
  state.matching = state.runs.filter(
    (run) =>
      Object.entries(wanted).every(([key, value]) => !value || run[key] === value) &&
      (!text || run.text.includes(text)),
  );
  if (state.sort) sortMatching();
  state.limit = PAGE;
  draw();
  const params = new URLSearchParams();
  for (const [key, value] of data.entries()) if (value) params.set(key, value);
  const query = params.toString();
  history.replaceState(null, "", query ? `?${query}` : location.pathname);
}

function sortMatching() {
  const { key, ascending } = state.sort;
  state.matching.sort((a, b) => {
    const [x, y] = [sortKey(a, key), sortKey(b, key)];
    const order = x < y ? -1 : x > y ? 1 : 0;
    return ascending ? order : -order;
  });
}

function sortBy(button) {
  const key = button.dataset.sort;
  const ascending = button.getAttribute("aria-sort") !== "ascending";
  document.querySelectorAll("#run-index th, #run-index th button").forEach((node) => node.removeAttribute("aria-sort"));
  button.closest("th").setAttribute("aria-sort", ascending ? "ascending" : "descending");
  button.setAttribute("aria-sort", ascending ? "ascending" : "descending");
  state.sort = { key, ascending };
  sortMatching();
  draw();
}

document.addEventListener("DOMContentLoaded", async () => {
  const form = document.getElementById("run-filters");
  const table = document.getElementById("run-index");
  if (!form || !table) return;
  state.base = new URL(table.dataset.src, location.href);
  const params = new URLSearchParams(location.search);
  for (const [key, value] of params.entries()) if (form.elements[key]) form.elements[key].value = value;
  form.addEventListener("input", () => applyFilters(form));
  form.addEventListener("submit", (event) => event.preventDefault());
  table.querySelectorAll("thead button").forEach((button) => button.addEventListener("click", () => sortBy(button)));
  document.getElementById("run-more").addEventListener("click", () => {
    state.limit += PAGE;
    draw();
  });
  try {
    const response = await fetch(state.base);
    if (!response.ok) throw new Error(`${response.status} ${response.statusText}`);
    const list = await response.json();
    state.reports = list.reports;
    state.runs = list.runs.map((run) => ({ ...run, text: `${run.title} ${run.command || ""}`.toLowerCase() }));
  } catch (err) {
    document.getElementById("run-count").textContent = `The list of runs could not be read (${err.message}): run make ingest.`;
    return;
  }
  applyFilters(form);
});

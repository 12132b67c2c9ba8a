// The /runs/ page: every run of the wiki, read from runs/index.json (ingest writes it beside the
// run pages), filtered by tool, environment, report and text, sorted by any column and shown
// PAGE rows at a time, so a wiki of 100,000 runs stays one quick page. The choice lives in the
// address (?tool=fio&environment=...), so a filtered list can be shared.

const PAGE = 200;

const state = { runs: [], reports: {}, matching: [], limit: PAGE, sort: null, base: null };

// A byte quantity {si, iec} (and its text when the tool printed SI prefixes: units.quantity) as the
// unit toggle (units.js) expects it, in the chosen spelling.
function quantity(value) {
  if (value === null || value === undefined) return document.createTextNode("n/a");
  if (typeof value !== "object") return document.createTextNode(String(value));
  const span = document.createElement("span");
  span.className = "quantity";
  span.dataset.si = value.si;
  span.dataset.iec = value.iec;
  span.dataset.printed = value.text ?? value.iec;
  const mode = document.documentElement.dataset.units || "printed";
  span.textContent = span.dataset[mode];
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
  if (!run.key_results.length) {
    results.classList.add("muted");
    results.textContent = "none: see the run";
  }
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
  if (!state.matching.length) {
    const empty = document.createElement("tr");
    const cell = document.createElement("td");
    cell.colSpan = 5;
    cell.className = "missing";
    cell.textContent = "No run matches these filters.";
    empty.appendChild(cell);
    fragment.appendChild(empty);
  }
  body.replaceChildren(fragment);
  const count = state.matching.length;
  const listed = Math.min(count, state.limit);
  document.getElementById("run-count").textContent =
    `${count} of ${state.runs.length} runs` + (listed < count ? ` (first ${listed} listed)` : "");
  const more = document.getElementById("run-more");
  more.hidden = listed >= count;
  more.textContent = `Show ${Math.min(PAGE, count - listed)} more of ${count - listed}`;
  document.dispatchEvent(new CustomEvent("perfwiki:rows")); // tables.js: does the table scroll sideways now?
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
  remember(form);
}

// The filters and the sort in the address, so the list as shown can be linked.
function remember(form) {
  const params = new URLSearchParams();
  for (const [key, value] of new FormData(form).entries()) if (value) params.set(key, value);
  if (state.sort) params.set("sort", `${state.sort.ascending ? "" : "-"}${state.sort.key}`);
  const query = params.toString();
  history.replaceState(null, "", query ? `?${query}` : location.pathname);
}

function compare(x, y) {
  return x < y ? -1 : x > y ? 1 : 0;
}

// Key results sort by their first number within what it measures: IOPS beside IOPS, bandwidth
// beside bandwidth (grouped by label, in label order), never 188k IOPS against 2.5 GiB/s; runs
// without key results come last either way.
function sortMatching() {
  const { key, ascending } = state.sort;
  const group = (run) => {
    if (key !== "number") return "";
    return run.key_results[0] ? run.key_results[0].label.toLowerCase() : "\uffff";
  };
  state.matching.sort((a, b) => {
    const order = compare(sortKey(a, key), sortKey(b, key));
    return compare(group(a), group(b)) || (ascending ? order : -order);
  });
}

function sortBy(button, ascending = button.getAttribute("aria-sort") !== "ascending") {
  const key = button.dataset.sort;
  document.querySelectorAll("#run-index th, #run-index th button").forEach((node) => node.removeAttribute("aria-sort"));
  button.closest("th").setAttribute("aria-sort", ascending ? "ascending" : "descending");
  button.setAttribute("aria-sort", ascending ? "ascending" : "descending");
  state.sort = { key, ascending };
  sortMatching();
  draw();
  remember(document.getElementById("run-filters"));
}

document.addEventListener("DOMContentLoaded", async () => {
  const form = document.getElementById("run-filters");
  const table = document.getElementById("run-index");
  if (!form || !table) return;
  form.hidden = false; // without JavaScript the page says where the runs are listed instead
  table.closest(".table-wrap").hidden = false;
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
    state.runs = list.runs.map((run) => ({
      ...run,
      text: [run.title, run.tool, run.environment, run.report, run.label || "", run.command || ""].join(" ").toLowerCase(),
    }));
  } catch (err) {
    document.getElementById("run-count").textContent = `The list of runs could not be read (${err.message}): run make ingest.`;
    return;
  }
  applyFilters(form);
  const sorted = /^(-?)(\w+)$/.exec(params.get("sort") || "");
  const button = sorted && table.querySelector(`thead button[data-sort="${sorted[2]}"]`);
  if (button) sortBy(button, sorted[1] !== "-");
});

// The run finder: every run of the wiki, filtered by what was measured (tool, environment, report,
// date, and each tool's own parameters: rw, block size, queue depth, protocol, streams, ...), sorted
// by any column and shown PAGE rows at a time. On /runs/, and on each tool and environment page with
// that tool or environment fixed. The choice lives in the address (?tool=fio&rw=randwrite&bs=4KiB&qd=1),
// so a filtered list can be linked.
//
// It reads ingest's files under runs/_find/ (pages/finder.py), never the whole wiki at once: a
// filter fetches the one file of its values (each value's runs as row numbers), and the page fetches
// only the files of rows it shows. At 100,000 runs a filtered list is a few small fetches.

const PAGE = 200;
const FIRST = 40; // rows drawn in the first frame (draw)
const COMPARED = 12; // environments "compare these" sends: a table of more is read by nobody

const state = {
  base: null, // URL of runs/_find/
  runs: null, // URL of runs/, where each run's page is
  meta: null, // facets.json
  fixed: {}, // filters the page sets (a tool page's tool), neither shown nor written to the address
  unknown: {}, // values the address asked for that no run has: they match nothing, and stay in the address
  files: new Map(), // name -> promise of its JSON
  ordered: null, // the matching row numbers, in the order shown
  limit: PAGE,
  sort: null, // {key, ascending}
  generation: 0, // a newer filtering makes an older one's answer stale
  drawing: 0, // likewise a newer drawing of the rows
};

const $ = (selector, root = document) => root.querySelector(selector);

function fetchJSON(name) {
  if (!state.files.has(name)) {
    const promise = fetch(new URL(name, state.base)).then((response) => {
      if (!response.ok) throw new Error(`${name}: ${response.status} ${response.statusText}`);
      return response.json();
    });
    promise.catch(() => state.files.delete(name)); // a failed fetch is tried again next time
    state.files.set(name, promise);
  }
  return state.files.get(name);
}

// A value as the address may write it: ?bs=4KiB for "4 KiB", in any case.
const normal = (value) => String(value).toLowerCase().replace(/\s+/g, "");

// Row numbers stored as the gap from each to the one before (finder._gaps), back to numbers.
function rowsOf(gaps) {
  const rows = new Int32Array(gaps.length);
  let at = 0;
  gaps.forEach((gap, i) => {
    at += gap;
    rows[i] = at;
  });
  return rows;
}

function intersect(a, b) {
  const out = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      out.push(a[i]);
      i += 1;
      j += 1;
    } else if (a[i] < b[j]) i += 1;
    else j += 1;
  }
  return Int32Array.from(out);
}

// The runs with `value` of `facet` (none when no run has it).
async function matching(facet, value) {
  const lists = await fetchJSON(`by-${facet}.json`);
  const wanted = normal(value);
  const key = Object.keys(lists).find((candidate) => normal(candidate) === wanted);
  return key === undefined ? new Int32Array(0) : rowsOf(lists[key]);
}

// Every row of a facet, its values in the order `values` gives (a sort by tool, environment, report).
async function concatenated(facet, values) {
  const lists = await fetchJSON(`by-${facet}.json`);
  const parts = values.filter((value) => value in lists).map((value) => rowsOf(lists[value]));
  const out = new Int32Array(parts.reduce((sum, part) => sum + part.length, 0));
  let at = 0;
  parts.forEach((part) => {
    out.set(part, at);
    at += part.length;
  });
  return out;
}

// The filters chosen: {facet: value}, the page's fixed ones included.
function chosen(form) {
  const wanted = { ...state.unknown, ...state.fixed };
  form.querySelectorAll("[data-facet-field]").forEach((field) => {
    const value = field.value.trim();
    if (value && !field.closest("[hidden]")) wanted[field.name] = value;
  });
  return wanted;
}

// The runs of the reports dated within the form's range (their front matter's date), or null
// when it sets none.
async function dated(form) {
  const from = form.elements.from.value;
  const to = form.elements.to.value;
  if (!from && !to) return null;
  const slugs = Object.entries(await fetchJSON("reports.json"))
    .filter(([, [, date]]) => {
      const day = (date || "").slice(0, 10);
      return day && (!from || day >= from) && (!to || day <= to);
    })
    .map(([slug]) => slug);
  const reports = await Promise.all(slugs.map((slug) => matching("report", slug)));
  return Int32Array.from(reports.flatMap((list) => Array.from(list)).sort((x, y) => x - y));
}

// The matching row numbers in title order (the files' order), or null for every run.
async function filtered(form) {
  const wanted = chosen(form);
  // ?tool=fio&rw=randwrite: only fio has rw, so rw's runs are fio's already, and the tool's list
  // (half of a wiki's runs) need not be fetched.
  const implied = Object.keys(wanted).some((facet) => {
    const tools = (state.meta.facets[facet] || {}).per_tool;
    return tools && Object.keys(tools).length === 1 && tools[wanted.tool] !== undefined;
  });
  if (implied) delete wanted.tool;
  const lists = await Promise.all(Object.entries(wanted).map(([facet, value]) => matching(facet, value)));
  const inRange = await dated(form);
  if (inRange) lists.push(inRange);
  if (!lists.length) return null;
  lists.sort((x, y) => x.length - y.length); // the rarest first: each intersection is no longer than it
  return lists.reduce((found, list) => intersect(found, list));
}

// The rows themselves, fetched file by file as far as they are shown.
async function rowsAt(numbers) {
  const per = state.meta.rows_per_file;
  const files = [...new Set(Array.from(numbers, (n) => Math.floor(n / per)))];
  const loaded = await Promise.all(files.map((file) => fetchJSON(`rows-${file}.json`)));
  const byFile = new Map(files.map((file, i) => [file, loaded[i]]));
  return Array.from(numbers, (n) => byFile.get(Math.floor(n / per))[n % per]);
}

function haystack(run) {
  return [run.title, run.tool, run.environment, run.report, run.label || "", run.command || ""].join(" ").toLowerCase();
}

// Row numbers in the order a column sorts them: every run, so the order is the wiki's, not a page's.
async function sortOrder(key, ascending) {
  if (key === "title") return null; // the files' own order
  if (key === "number") {
    // Grouped by what the first number measures (IOPS beside IOPS); the other way round within a
    // group, runs without a number last either way.
    const { groups, rows } = await fetchJSON("by-result.json");
    if (ascending) return Int32Array.from(rows);
    return Int32Array.from(groups.flatMap(([label, start, end]) => (label === null ? rows.slice(start, end) : rows.slice(start, end).reverse())));
  }
  if (key === "date") {
    const reports = Object.entries(await fetchJSON("reports.json"))
      .sort(([a, [, x]], [b, [, y]]) => String(x || "").localeCompare(String(y || "")) || a.localeCompare(b))
      .map(([slug]) => slug);
    return concatenated("report", ascending ? reports : reports.reverse());
  }
  const values = state.meta.facets[key].values.map(([value]) => value);
  return concatenated(key, ascending ? values : values.reverse());
}

async function refresh(form) {
  const generation = ++state.generation;
  const count = $("#run-count");
  let matches;
  try {
    matches = await filtered(form);
    const text = (form.elements.q.value || "").trim().toLowerCase();
    if (text) {
      // Words are in the rows only: every row that matches the other filters is read.
      const numbers = matches || Int32Array.from({ length: state.meta.total }, (_, i) => i);
      if (numbers.length > 5 * PAGE) count.textContent = `Searching ${numbers.length} runs for "${text}"…`;
      const rows = await rowsAt(numbers);
      matches = Int32Array.from(numbers.filter((_, i) => haystack(rows[i]).includes(text)));
    }
    let ordered = matches;
    if (state.sort && state.sort.key !== "title") {
      const order = await sortOrder(state.sort.key, state.sort.ascending);
      if (matches) {
        const member = new Uint8Array(state.meta.total);
        matches.forEach((n) => {
          member[n] = 1;
        });
        ordered = order.filter((n) => member[n]);
      } else ordered = order;
    } else if (state.sort && !state.sort.ascending) {
      ordered = Int32Array.from(matches || Array.from({ length: state.meta.total }, (_, i) => i)).reverse();
    }
    if (generation !== state.generation) return;
    state.ordered = ordered;
    state.limit = PAGE;
    await draw(generation);
    recount(form, generation); // after the rows: the counts are for choosing the next filter
  } catch (err) {
    if (generation === state.generation) count.textContent = `The runs could not be read (${err.message}): run make ingest.`;
  }
}

// Each choice's count given the other filters (not the text): "16 (3)" on an environment page
// whose runs are 3 at QD16, not the wiki's 40; a choice no run matches is greyed out.
async function recount(form, generation) {
  const wanted = chosen(form);
  const inRange = await dated(form);
  const fields = [...form.querySelectorAll("select[data-facet-field]")].filter((field) => !field.closest("[hidden]"));
  for (const field of fields) {
    const lists = await Promise.all(
      Object.entries(wanted)
        .filter(([facet]) => facet !== field.name)
        .map(([facet, value]) => matching(facet, value)),
    );
    if (inRange) lists.push(inRange);
    let member = null;
    let left = state.meta.total; // runs the other filters leave
    if (lists.length) {
      member = new Uint8Array(state.meta.total);
      const others = lists.reduce((found, list) => intersect(found, list));
      others.forEach((n) => {
        member[n] = 1;
      });
      left = others.length;
    }
    const values = await fetchJSON(`by-${field.name}.json`);
    if (generation !== state.generation) return;
    for (const option of field.options) {
      if (!option.value) continue;
      const rows = rowsOf(values[option.value] || []);
      const count = member ? rows.reduce((sum, n) => sum + member[n], 0) : rows.length;
      option.textContent = `${option.dataset.shown} (${count})`;
      // Greyed when it would empty a list the other filters leave runs in; when they leave none
      // (a value no run has), every choice stays open, the way out.
      option.disabled = count === 0 && !option.selected && left > 0;
    }
  }
}

// ---- drawing -------------------------------------------------------------------------------

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

function cell(content, className) {
  const td = document.createElement("td");
  if (className) td.className = className;
  td.append(content);
  return td;
}

function row(run) {
  const tr = document.createElement("tr");
  const head = document.createElement("th");
  head.scope = "row";
  const page = new URL(`${run.report}/${run.id}/`, state.runs).pathname;
  head.appendChild(link(page, run.title));
  if (run.flags) {
    const said = `${run.flags} ${run.flags === 1 ? "check flags" : "checks flag"} this run: see its page`;
    const flag = link(`${page}#checks-heading`, `⚠${run.flags}`, said);
    flag.className = "flag";
    flag.setAttribute("aria-label", said);
    head.append(" ", flag);
  }
  if (run.badges) {
    // How it ran (direct or buffered, engine, the I/Os served at once): a buffered "QD1"
    // of 77,000 IOPS is the page cache, and says so here before anyone sorts by it.
    const how = document.createElement("span");
    how.className = "run-index__how muted";
    how.textContent = run.badges.join(" · ");
    head.append(document.createElement("br"), how);
  }
  tr.appendChild(head);
  tr.append(cell(run.tool), cell(run.environment));
  const report = link(new URL(`../reports/${run.report}/`, state.runs).pathname, run.report);
  report.dataset.report = run.report;
  tr.append(cell(report));
  tr.append(cell(run.date || "", "date"));
  const results = cell("", "key-results");
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

// "Compare these": the environments and scenarios of the runs listed, on the compare page.
function compareLink(runs) {
  const anchor = $("#run-compare");
  if (!anchor) return;
  const form = anchor.closest("form");
  // Offered once the list is narrowed to something (tool, parameters, dates, words): twelve of the
  // wiki's environments taken at random compare nothing in particular.
  const narrowed =
    Object.keys(chosen(form)).some((facet) => !(facet in state.fixed)) ||
    ["from", "to", "q"].some((name) => form.elements[name].value.trim());
  const envs = [...new Set(runs.map((run) => run.environment))];
  const scenarios = [...new Set(runs.flatMap((run) => run.scenarios || []))];
  anchor.hidden = !narrowed || envs.length < 2 || !scenarios.length;
  if (anchor.hidden) return;
  const params = new URLSearchParams({ env: envs.slice(0, COMPARED).join(",") });
  if (scenarios.length <= 40) params.set("scenario", scenarios.join(","));
  anchor.href = `${anchor.dataset.page}?${params.toString().replaceAll("%2C", ",")}`;
  anchor.textContent =
    envs.length > COMPARED
      ? `Compare the first ${COMPARED} of the ${envs.length} environments of the runs listed`
      : `Compare the ${envs.length} environments of the runs listed`;
}

async function draw(generation) {
  const total = state.scope;
  const count = state.ordered ? state.ordered.length : total;
  const listed = Math.min(count, state.limit);
  const numbers = state.ordered ? state.ordered.slice(0, listed) : Int32Array.from({ length: listed }, (_, i) => i);
  const runs = await rowsAt(numbers);
  if (generation !== undefined && generation !== state.generation) return;
  const drawing = ++state.drawing; // a newer draw (a click on "Show more") makes this one's rest stale
  const body = $("#run-index tbody");
  const fragment = document.createDocumentFragment();
  // The first rows in the first frame, the rest once it is on screen: 200 rows are some 2,800
  // elements, a tenth of a second of layout on a phone before anything shows.
  runs.slice(0, FIRST).forEach((run) => fragment.appendChild(row(run)));
  // When the first row was painted, for make perf (the Element Timing API): perf_finder.ROWS_SEEN.
  // (On the cell: Chromium times text by the block that lays it out, not the link inside it.)
  if (fragment.firstChild) fragment.firstChild.querySelector("th").setAttribute("elementtiming", "first-run-row");
  if (!count) {
    const empty = document.createElement("tr");
    const td = document.createElement("td");
    td.colSpan = 6;
    td.className = "missing";
    td.textContent = "No run matches these filters.";
    empty.appendChild(td);
    fragment.appendChild(empty);
  }
  body.replaceChildren(fragment);
  $("#run-count").textContent = `${count} of ${total} runs` + (listed < count ? ` (first ${listed} listed)` : "");
  const more = $("#run-more");
  more.hidden = listed >= count;
  more.textContent = `Show ${Math.min(PAGE, count - listed)} more of ${count - listed}`;
  if (runs.length > FIRST) {
    await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
    if (drawing !== state.drawing || (generation !== undefined && generation !== state.generation)) return;
    const rest = document.createDocumentFragment();
    runs.slice(FIRST).forEach((run) => rest.appendChild(row(run)));
    body.appendChild(rest);
  }
  compareLink(runs);
  titleReports();
  document.dispatchEvent(new CustomEvent("perfwiki:rows")); // tables.js: does the table scroll sideways now?
}

// ---- the form -------------------------------------------------------------------------------

// Each report link's title is its report's, once reports.json is read (after the first rows).
function titleReports() {
  fetchJSON("reports.json")
    .then((reports) => {
      document.querySelectorAll("#run-index a[data-report]:not([title])").forEach((anchor) => {
        const found = reports[anchor.dataset.report];
        if (found) anchor.title = found[0];
      });
    })
    .catch(() => {}); // a title is a nicety: the link works without it
}

function select(facet, info) {
  const label = document.createElement("label");
  label.dataset.facet = facet;
  if (info.per_tool) label.dataset.tools = Object.keys(info.per_tool).join(" ");
  if (info.many) return typed(label, facet, info);
  const field = document.createElement("select");
  field.name = facet;
  field.dataset.facetField = "";
  label.append(info.title, " ", field);
  if (info.hint) {
    const hint = document.createElement("small");
    hint.className = "run-filters__hint";
    hint.textContent = info.hint;
    label.append(hint);
  }
  options(field, info, null);
  return label;
}

// A filter of thousands of values (a large wiki's environments): typed, its values suggested once
// the field is used (values-<facet>.json).
function typed(label, facet, info) {
  const field = document.createElement("input");
  field.type = "search";
  field.name = facet;
  field.dataset.facetField = "";
  field.placeholder = `any of ${info.many}`;
  const list = document.createElement("datalist");
  list.id = `run-values-${facet}`;
  field.setAttribute("list", list.id);
  field.addEventListener(
    "focus",
    () =>
      fetchJSON(`values-${facet}.json`).then((values) => {
        list.replaceChildren(
          ...values.map(([value, shown, count]) => {
            const option = document.createElement("option");
            option.value = value;
            option.label = `${shown} (${count})`;
            return option;
          }),
        );
      }),
    { once: true },
  );
  label.append(info.title, " ", field, list);
  return label;
}

// A select's values with how many runs have each: a parameter's of the tool chosen only (fio's
// direction is read or write, iperf3's forward or reverse), else every tool's.
function options(field, info, tool) {
  const kept = field.value;
  const any = document.createElement("option");
  any.value = "";
  any.textContent = "any";
  const shown = [any];
  const counts = tool && info.per_tool ? info.per_tool[tool] || {} : null;
  info.values.forEach(([value, text, count]) => {
    if (counts && !(value in counts)) return;
    const option = document.createElement("option");
    option.value = value;
    option.dataset.shown = text;
    option.textContent = `${text} (${counts ? counts[value] : count})`;
    shown.push(option);
  });
  field.replaceChildren(...shown);
  field.value = shown.some((option) => option.value === kept) ? kept : "";
}

// A tool's parameters show once it is chosen (or when the address set one): fio's rw and block
// size would mean nothing beside iperf3's streams.
function showParameters(form) {
  const tool = state.fixed.tool || (form.elements.tool && form.elements.tool.value);
  form.querySelectorAll("label[data-tools]").forEach((label) => {
    const field = label.querySelector("[data-facet-field]");
    const belongs = tool ? label.dataset.tools.split(" ").includes(tool) : Boolean(field.value);
    if (belongs && field.tagName === "SELECT") options(field, state.meta.facets[field.name], tool || null);
    else field.value = "";
    label.hidden = !belongs;
  });
  const hint = $("#run-parameters-hint", form);
  if (hint) hint.hidden = Boolean(tool);
  // On a phone the parameters fold until asked for, or until one is chosen: the rows come first.
  const fold = $(".run-filters__parameters", form);
  if (fold && fold.tagName === "DETAILS") {
    const chosenHere = [...fold.querySelectorAll("[data-facet-field]")].some((field) => field.value);
    fold.open = chosenHere || !window.matchMedia("(max-width: 40rem)").matches;
  }
}

function build(form) {
  const slots = $(".run-filters__facets", form);
  const parameters = $(".run-filters__fields", form);
  state.meta.order.forEach((facet) => {
    if (facet in state.fixed) return;
    const info = state.meta.facets[facet];
    (info.per_tool ? parameters : slots).appendChild(select(facet, info));
  });
}

// The address's choice into the form: a value matched as typed, "4KiB" or "4 KiB".
function restore(form, params) {
  for (const [key, value] of params.entries()) {
    const field = form.elements[key];
    if (!field) continue;
    if (field.tagName === "SELECT") {
      const option = Array.from(field.options).find((candidate) => candidate.value && normal(candidate.value) === normal(value));
      field.value = option ? option.value : "";
      if (!option) field.dataset.unknown = value; // a value no run has: no run matches
    } else field.value = value;
  }
}

// The filters and the sort in the address, so the list as shown can be linked.
function remember(form) {
  const params = new URLSearchParams();
  for (const [key, value] of new FormData(form).entries()) {
    const field = form.elements[key];
    if (value && !(field.closest && field.closest("[hidden]"))) params.set(key, value);
  }
  for (const [key, value] of Object.entries(state.unknown)) params.set(key, value);
  if (state.sort) params.set("sort", `${state.sort.ascending ? "" : "-"}${state.sort.key}`);
  const query = params.toString();
  history.replaceState(null, "", query ? `?${query}` : location.pathname);
}

function sortBy(button, ascending = button.getAttribute("aria-sort") !== "ascending") {
  const table = button.closest("table");
  table.querySelectorAll("th, th button").forEach((node) => node.removeAttribute("aria-sort"));
  button.closest("th").setAttribute("aria-sort", ascending ? "ascending" : "descending");
  button.setAttribute("aria-sort", ascending ? "ascending" : "descending");
  state.sort = { key: button.dataset.sort, ascending };
}

document.addEventListener("DOMContentLoaded", async () => {
  const form = document.getElementById("run-filters");
  const table = document.getElementById("run-index");
  if (!form || !table) return;
  state.base = new URL(table.dataset.src, location.href);
  state.runs = new URL("../", state.base);
  state.fixed = JSON.parse(form.dataset.fixed || "{}");
  // Folded on an environment page: nothing is fetched until it is opened, or the address filters.
  const folded = form.closest("details");
  if (folded && !folded.open) {
    if (location.search) folded.open = true;
    else await new Promise((resolve) => folded.addEventListener("toggle", resolve, { once: true }));
  }
  try {
    state.meta = await fetchJSON("facets.json");
  } catch (err) {
    form.hidden = false;
    $("#run-count").textContent = `The list of runs could not be read (${err.message}): run make ingest.`;
    return;
  }
  build(form);
  // How many runs the page is about: all of them, or a tool page's tool's.
  const fixed = await Promise.all(Object.entries(state.fixed).map(([facet, value]) => matching(facet, value)));
  state.scope = fixed.length ? fixed.reduce((found, list) => intersect(found, list)).length : state.meta.total;
  const params = new URLSearchParams(location.search);
  restore(form, params);
  // A value in the address that no run has matches nothing, rather than being dropped in silence.
  form.querySelectorAll("select[data-unknown]").forEach((field) => {
    state.unknown[field.name] = field.dataset.unknown;
  });
  showParameters(form);
  form.hidden = false; // without JavaScript the page says where the runs are listed instead
  table.closest(".table-wrap").hidden = false;
  const sorted = /^(-?)(\w+)$/.exec(params.get("sort") || "");
  const button = sorted && table.querySelector(`thead button[data-sort="${sorted[2]}"]`);
  if (button) sortBy(button, sorted[1] !== "-");
  form.addEventListener("input", (event) => {
    if (event.target.name === "tool") showParameters(form);
    delete state.unknown[event.target.name];
    remember(form);
    refresh(form);
  });
  form.addEventListener("submit", (event) => event.preventDefault());
  table.querySelectorAll("thead button").forEach((node) =>
    node.addEventListener("click", () => {
      sortBy(node);
      remember(form);
      refresh(form);
    }),
  );
  $("#run-more").addEventListener("click", () => {
    state.limit += PAGE;
    draw();
  });
  await refresh(form);
});


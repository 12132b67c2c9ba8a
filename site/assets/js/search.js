// Search: Pagefind's full-text UI when its index was built next to the site (make serve,
// build, check); otherwise Hugo's own index of reports and environments (index.json) and the
// runs ingest lists for the run finder (runs/_find/), so search also works under a plain `hugo serve`.
// All of them live on this site.
/* global PagefindUI */

function loadPagefind(base) {
  return new Promise((resolve, reject) => {
    const script = document.createElement("script");
    script.src = `${base}pagefind-ui.js`;
    script.onload = () => (typeof PagefindUI === "undefined" ? reject(new Error("no PagefindUI")) : resolve());
    script.onerror = () => reject(new Error("no Pagefind index"));
    document.head.appendChild(script);
  });
}

// The search field's name, on screen and for screen readers: a <label for>, because a placeholder
// is gone once one types and is no label to many screen readers. Added here, beside the #search
// element the field is drawn in, since the field exists only once this script has drawn it.
const LABEL = "Search reports, environments, runs and commands";

function labelled(element, input) {
  input.id = "search-input";
  const label = document.createElement("label");
  label.htmlFor = input.id;
  label.className = "search__label";
  label.textContent = LABEL;
  element.before(label);
}

function words(text) {
  return text.toLowerCase().split(/\s+/).filter(Boolean);
}

function fallback(element, entries) {
  const input = document.createElement("input");
  input.type = "search";
  input.className = "search__input";
  input.placeholder = "label, environment, tool or a command fragment";
  const status = document.createElement("p");
  status.className = "muted search__status";
  const list = document.createElement("ol");
  list.className = "search__results";
  element.replaceChildren(input, status, list);
  labelled(element, input);
  const haystacks = entries.map((entry) => entry.text.toLowerCase());
  const show = () => {
    const wanted = words(input.value);
    list.replaceChildren();
    if (!wanted.length) {
      status.textContent = `${entries.length} pages indexed.`;
      return;
    }
    const found = entries.filter((_, index) => wanted.every((word) => haystacks[index].includes(word)));
    status.textContent = `${found.length} result${found.length === 1 ? "" : "s"}`;
    found.slice(0, 200).forEach((entry) => {
      const item = document.createElement("li");
      const link = document.createElement("a");
      link.className = "search__result";
      link.href = entry.url;
      link.textContent = entry.title;
      const kind = document.createElement("span");
      kind.className = "muted";
      kind.textContent = ` ${entry.kind}`;
      item.append(link, kind);
      if (entry.command) {
        const code = document.createElement("code");
        code.textContent = entry.command;
        item.append(document.createElement("br"), code);
      }
      list.appendChild(item);
    });
  };
  input.addEventListener("input", show);
  const query = new URLSearchParams(location.search).get("q");
  if (query) input.value = query;
  show();
}

function json(url) {
  return fetch(url).then((response) => {
    if (!response.ok) throw new Error(`${url}: ${response.status}`);
    return response.json();
  });
}

// Every run, from the run finder's files (runs/_find/, pages/finder.py): its rows, a file at a time.
async function runs(folder) {
  const meta = await json(`${folder}facets.json`);
  const files = Array.from({ length: Math.ceil(meta.total / meta.rows_per_file) }, (_, n) => json(`${folder}rows-${n}.json`));
  return (await Promise.all(files)).flat();
}

// A run of the finder's rows as a search entry.
function runEntry(run, element) {
  return {
    kind: "run",
    title: run.title,
    url: new URL(`../${run.report}/${run.id}/`, new URL(element.dataset.runs, location.href)).pathname,
    text: [run.title, run.tool, run.environment, run.report, run.label || "", run.command || ""].join(" "),
    command: run.command || "",
  };
}

window.addEventListener("DOMContentLoaded", () => {
  const element = document.getElementById("search");
  if (!element) return;
  const base = element.dataset.pagefind;
  loadPagefind(base)
    .then(() => {
      const style = document.createElement("link");
      style.rel = "stylesheet";
      style.href = `${base}pagefind-ui.css`;
      document.head.appendChild(style);
      // Each result says what kind of page it is (report, environment, scenario, run, raw output).
      const processResult = (result) => {
        if (result.meta && result.meta.kind) result.meta.title = `${result.meta.title} · ${result.meta.kind}`;
        return result;
      };
      // Reports, then environments, scenarios and tools, runs, and raw output last: the rank each page
      // carries (baseof.html), relevance kept within a rank, so a raw output never comes above the
      // report or run that explains it.
      const sort = { rank: "asc" };
      const ui = new PagefindUI({ element: "#search", showSubResults: true, showImages: false, processResult, sort });
      const input = element.querySelector(".pagefind-ui__search-input"); // drawn by the constructor
      if (input) labelled(element, input);
      const query = new URLSearchParams(location.search).get("q");
      if (query) ui.triggerSearch(query); // a search can be linked: /search/?q=windowsaio
    })
    .catch(() =>
      Promise.all([json(element.dataset.index), runs(element.dataset.runs)])
        .then(([pages, list]) => fallback(element, pages.concat(list.map((run) => runEntry(run, element)))))
        .catch(() => {
          element.textContent = "The search index could not be read: run `make ingest` and rebuild.";
        }),
    );
});

// The /runs/ index: filter by tool, environment, report and text; sort by any column.
// The choice lives in the address (?tool=fio&environment=...), so a filtered list can be shared.

function rows() {
  return Array.from(document.querySelectorAll("#run-index tbody tr"));
}

function applyFilters(form) {
  const data = new FormData(form);
  const wanted = { tool: data.get("tool"), environment: data.get("environment"), report: data.get("report") };
  const text = (data.get("q") || "").trim().toLowerCase();
  let shown = 0;
  rows().forEach((row) => {
    const match =
      Object.entries(wanted).every(([key, value]) => !value || row.dataset[key] === value) &&
      (!text || row.dataset.text.includes(text));
    row.hidden = !match;
    if (match) shown += 1;
  });
  document.getElementById("run-count").textContent = `${shown} of ${rows().length} runs`;
  const params = new URLSearchParams();
  for (const [key, value] of data.entries()) if (value) params.set(key, value);
  const query = params.toString();
  history.replaceState(null, "", query ? `?${query}` : location.pathname);
}

function sortBy(button) {
  const column = Number(button.dataset.sort);
  const numeric = button.dataset.numeric === "true";
  const ascending = button.getAttribute("aria-sort") !== "ascending";
  document.querySelectorAll("#run-index th").forEach((th) => th.removeAttribute("aria-sort"));
  button.closest("th").setAttribute("aria-sort", ascending ? "ascending" : "descending");
  button.setAttribute("aria-sort", ascending ? "ascending" : "descending");
  const key = (row) => {
    const cell = row.children[column];
    if (numeric) return cell.dataset.value === undefined ? -Infinity : Number(cell.dataset.value);
    return cell.textContent.trim().toLowerCase();
  };
  const sorted = rows().sort((a, b) => {
    const [x, y] = [key(a), key(b)];
    const order = x < y ? -1 : x > y ? 1 : 0;
    return ascending ? order : -order;
  });
  const body = document.querySelector("#run-index tbody");
  sorted.forEach((row) => body.appendChild(row));
}

document.addEventListener("DOMContentLoaded", () => {
  const form = document.getElementById("run-filters");
  if (!form) return;
  const params = new URLSearchParams(location.search);
  for (const [key, value] of params.entries()) if (form.elements[key]) form.elements[key].value = value;
  form.addEventListener("input", () => applyFilters(form));
  form.addEventListener("submit", (event) => event.preventDefault());
  document.querySelectorAll("#run-index thead button").forEach((button) => {
    button.addEventListener("click", () => sortBy(button));
  });
  applyFilters(form);
});

// A table wider than its box scrolls inside it; say so above it, since a phone shows no scrollbar.
// Each table is measured as it nears the screen, every width read before any class is set: measuring
// them all at load laid out the whole page at once, and again after each class set (a third of a
// second of one task on a phone, for a report's thirty tables).
function mark(wraps) {
  const scrolls = wraps.map((wrap) => wrap.scrollWidth > wrap.clientWidth + 1);
  wraps.forEach((wrap, index) => wrap.classList.toggle("table-wrap--scrolls", scrolls[index]));
}

const near = new IntersectionObserver(
  (entries) => mark(entries.filter((entry) => entry.isIntersecting).map((entry) => entry.target)),
  { rootMargin: "100% 0px" },
);
function watch() {
  document.querySelectorAll(".table-wrap").forEach((wrap) => near.observe(wrap));
}

document.addEventListener("DOMContentLoaded", watch);
document.addEventListener("perfwiki:rows", () => {
  watch(); // rows drawn later, by runs.js and compare.js: new tables, or wider ones
  mark([...document.querySelectorAll(".table-wrap")]);
});
let resized;
window.addEventListener("resize", () => {
  clearTimeout(resized);
  resized = setTimeout(() => mark([...document.querySelectorAll(".table-wrap")]), 150);
});

// A table wider than its box scrolls inside it; say so above it, since a phone shows no scrollbar.
function markScrollable() {
  document.querySelectorAll(".table-wrap").forEach((wrap) => {
    wrap.classList.toggle("table-wrap--scrolls", wrap.scrollWidth > wrap.clientWidth + 1);
  });
}

document.addEventListener("DOMContentLoaded", markScrollable);
document.addEventListener("perfwiki:rows", markScrollable); // rows drawn later, by runs.js and compare.js
window.addEventListener("resize", markScrollable);

// Mount Pagefind's search UI; the index lives in /pagefind/ on this same site.
/* global PagefindUI */
window.addEventListener("DOMContentLoaded", () => {
  if (typeof PagefindUI === "undefined") {
    document.getElementById("search").textContent =
      "The search index has not been built: run `make serve` or `make check`.";
    return;
  }
  new PagefindUI({ element: "#search", showSubResults: true, showImages: false });
});

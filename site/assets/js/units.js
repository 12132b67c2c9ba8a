// Site-wide unit toggle for byte quantities: as each tool printed them (the default),
// all SI (MB/s, 1000-based) or all IEC (MiB/s, 1024-based). Both spellings were
// computed at ingest; this only chooses which one to show, and remembers the choice.

const MODES = ["printed", "si", "iec"];
const LABELS = { printed: "Units: as printed", si: "Units: SI (MB)", iec: "Units: IEC (MiB)" };
const KEY = "perfwiki-units";

function stored() {
  try {
    return localStorage.getItem(KEY) || "printed";
  } catch (err) {
    return "printed"; // storage can be off (file://, privacy settings)
  }
}

function apply(mode) {
  document.querySelectorAll(".quantity").forEach((node) => {
    if (!node.dataset.printed) node.dataset.printed = node.textContent;
    node.textContent = mode === "printed" ? node.dataset.printed : node.dataset[mode];
  });
  const button = document.getElementById("unit-toggle");
  if (button) button.textContent = LABELS[mode];
  document.documentElement.dataset.units = mode;
  document.dispatchEvent(new CustomEvent("perfwiki:units", { detail: mode })); // charts redraw their bars
}

document.addEventListener("DOMContentLoaded", () => {
  apply(stored());
  const button = document.getElementById("unit-toggle");
  if (!button) return;
  button.addEventListener("click", () => {
    const next = MODES[(MODES.indexOf(document.documentElement.dataset.units || "printed") + 1) % MODES.length];
    try {
      localStorage.setItem(KEY, next);
    } catch (err) {
      // the choice then lasts for this page only
    }
    apply(next);
  });
});

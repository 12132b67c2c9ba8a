// Draw every chart on the page from the spec perfwiki computed at ingest.
// Plotly does not read CSS, so colours come from CSS custom properties and are
// re-applied when the colour scheme changes.
/* global Plotly */

function themeLayout() {
  const style = getComputedStyle(document.documentElement);
  const value = (name) => style.getPropertyValue(name).trim();
  const grid = value("--chart-grid");
  return {
    paper_bgcolor: "rgba(0,0,0,0)",
    plot_bgcolor: "rgba(0,0,0,0)",
    font: { color: value("--chart-text"), family: value("--font-sans") },
    colorway: value("--chart-colorway").split(/\s*,\s*/),
    "xaxis.gridcolor": grid,
    "yaxis.gridcolor": grid,
    "xaxis.linecolor": grid,
    "yaxis.linecolor": grid,
  };
}

function applyTheme(layout) {
  const theme = themeLayout();
  const merged = { ...layout, paper_bgcolor: theme.paper_bgcolor, plot_bgcolor: theme.plot_bgcolor };
  merged.font = { ...(layout.font || {}), ...theme.font };
  merged.colorway = theme.colorway;
  merged.xaxis = { ...(layout.xaxis || {}), gridcolor: theme["xaxis.gridcolor"], linecolor: theme["xaxis.linecolor"] };
  merged.yaxis = { ...(layout.yaxis || {}), gridcolor: theme["yaxis.gridcolor"], linecolor: theme["yaxis.linecolor"] };
  return merged;
}

// The unit switch: a chart of byte quantities carries what it becomes as printed, in SI
// and in IEC units (computed at ingest): per-trace properties and layout properties.
function switchUnits(element, mode) {
  const node = element.dataset.unitsSwitch && document.getElementById(element.dataset.unitsSwitch);
  if (!node || !element.data) return;
  const shown = JSON.parse(node.textContent)[mode];
  if (!shown) return;
  shown.data.forEach((trace, index) => {
    const update = {};
    Object.entries(trace).forEach(([key, values]) => {
      update[key] = [values];
    });
    Plotly.restyle(element, update, [index]);
  });
  Plotly.relayout(element, shown.layout);
}

function drawAll() {
  const plots = document.querySelectorAll("[data-plotly-spec]");
  plots.forEach((element) => {
    const specNode = document.getElementById(element.dataset.plotlySpec);
    if (!specNode) return;
    const spec = JSON.parse(specNode.textContent);
    Plotly.newPlot(element, spec.data, applyTheme(spec.layout || {}), {
      responsive: true,
      displaylogo: false,
      displayModeBar: false,
    }).then(() => {
      const mode = document.documentElement.dataset.units;
      if (mode && mode !== "printed") switchUnits(element, mode);
    });
    document.addEventListener("perfwiki:units", (event) => switchUnits(element, event.detail));
  });
  const scheme = window.matchMedia("(prefers-color-scheme: dark)");
  scheme.addEventListener("change", () => {
    plots.forEach((element) => Plotly.relayout(element, themeLayout()));
  });
}

if (document.readyState === "loading") {
  document.addEventListener("DOMContentLoaded", drawAll);
} else {
  drawAll();
}

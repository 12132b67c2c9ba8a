// The plotly.js the site loads: plotly's core (which holds the scatter trace) and the bar trace,
// nothing else, minified. `make setup` runs it: node scripts/plotly-bundle.mjs OUTFILE.
//
// The site draws only scatter and bar traces (site/assets/js/charts.js), and every byte of plotly
// is parsed on the reader's first tap on a chart. Measured on plotly.js 4.1.1, Chromium at 4x CPU
// throttle, the script alone in a blank page, median of 5 (issue 32):
//
//   bundle                          raw B      gzip -9  brotli 11  parse+evaluate
//   plotly.js-cartesian-dist-min    1,500,041  496,154  410,135    1,366 ms
//   plotly.js-basic-dist-min        1,191,749  395,403  328,677      573 ms
//   this one (core + bar)           1,001,184  351,489  293,179      382 ms
//
// The price is at setup: npm ci fetches plotly.js with its dependencies (231 packages, 178 MB,
// 6.5 s from the registry with an empty cache, against 0.6 s for a dist bundle), and this runs in
// 0.4 s. plotly's own dist bundles are built from the same sources with esbuild; this follows
// their settings (plotly.js's esbuild-config.js): the npm package lacks the tasks/ folder its
// custom-bundle script needs. plotly's core imports the `events` module without declaring it,
// so package.json pins it.

import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const outfile = process.argv[2];
if (!outfile) {
  console.error("usage: node scripts/plotly-bundle.mjs OUTFILE");
  process.exit(2);
}

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const { version } = createRequire(import.meta.url)("plotly.js/package.json");

// Each attribute's documentation (description, role, hrName and the like) is in the sources for
// plotly's schema and editors, never read when drawing: plotly's dist bundles drop it the same way
// (its tasks/compress_attributes.js), and so does this: 139 KB, an eighth of the bundle.
const META = [
  /\s*description: '.*',?/g,
  /\s*description: \[[\s\S]*?\]\.join\([\s\S]*?\),?/g,
  /\s*requiredOpts: \[[\s\S]*?\],?/g,
  /\s*otherOpts: \[[\s\S]*?\],?/g,
  /\s*role: '.*',?/g,
  /\s*hrName: '.*',?/g,
];
const withoutDocs = {
  name: "plotly-attribute-docs",
  setup(bundler) {
    bundler.onLoad({ filter: /[\\/]plotly\.js[\\/]src[\\/].*\.js$/ }, async (file) => {
      let code = await readFile(file.path, "utf8");
      for (const pattern of META) code = code.replace(pattern, "");
      return { contents: code, loader: "js" };
    });
  },
};

await build({
  stdin: {
    contents: [
      "var Plotly = require('plotly.js/lib/core');",
      "Plotly.register([require('plotly.js/lib/bar')]);",
      "module.exports = Plotly;",
    ].join("\n"),
    resolveDir: root,
    sourcefile: "plotly-core-bar.js",
  },
  bundle: true,
  minify: true,
  // A classic script that sets window.Plotly, as plotly's dist bundles do (charts.js and the
  // portable report use that global).
  format: "iife",
  globalName: "Plotly",
  // The site's own scripts need ES2020 already (runs.js uses ??); an older target only adds
  // helpers for culori's object spreads.
  target: "es2020",
  define: { global: "window", "define.amd": "false" },
  // Only map traces load maplibre's stylesheet; this bundle has none.
  loader: { ".css": "empty" },
  // The version first, where tests/site/test_site.py reads it; dependencies' licences at the end.
  banner: { js: `/*! plotly.js v${version} (core + bar, for perfwiki) | MIT License, Plotly, Inc. */` },
  legalComments: "eof",
  plugins: [withoutDocs],
  outfile,
  logLevel: "warning",
});

// Display units, the way perfwiki.units prints them in Python (its "one number formatter"): counts
// whole with thousands separators, any other number to three significant digits (whole from
// 1,000 on), one prefix per axis (scaleFor) unless its values span more than three decades, then
// each value its own; SI or IEC spelled out. Charts are drawn here from canonical numbers (bytes,
// ns, bit/s), so this must agree with units.py to the character; tests/browser/test_drawn_charts.py
// compares the two.

const STEPS = {
  "B/s": {
    iec: [["B/s", 1], ["KiB/s", 2 ** 10], ["MiB/s", 2 ** 20], ["GiB/s", 2 ** 30], ["TiB/s", 2 ** 40]],
    si: [["B/s", 1], ["kB/s", 1e3], ["MB/s", 1e6], ["GB/s", 1e9], ["TB/s", 1e12]],
  },
  B: {
    iec: [["B", 1], ["KiB", 2 ** 10], ["MiB", 2 ** 20], ["GiB", 2 ** 30], ["TiB", 2 ** 40]],
    si: [["B", 1], ["kB", 1e3], ["MB", 1e6], ["GB", 1e9], ["TB", 1e12]],
  },
  "bit/s": { si: [["bit/s", 1], ["kbit/s", 1e3], ["Mbit/s", 1e6], ["Gbit/s", 1e9], ["Tbit/s", 1e12]] },
  ns: { si: [["ns", 1], ["µs", 1e3], ["ms", 1e6], ["s", 1e9]] },
  IOPS: { si: [["", 1]] },
  "events/s": { si: [["", 1]] },
  "trans/s": { si: [["", 1]] },
  count: { si: [["", 1]] },
};
const LIMIT = { "bit/s": 1000 };
const COUNTS = new Set(["IOPS", "events/s", "trans/s", "count"]);
// Past this ratio of largest to smallest value, each value takes its own prefix (units.PER_CELL_SPAN).
const PER_CELL_SPAN = 1000;

export const isByteUnit = (unit) => unit === "B/s" || unit === "B";

// Python rounds a tie (an exact binary half, such as 1234.5) to even; toFixed rounds it away from
// zero. toFixed is otherwise exact, so a tie is told by the exact digits past the kept ones: a 5,
// then zeros (13.05 is not one: as a double it is 13.0500000000000007105...).
function fixed(value, decimals) {
  const extra = Math.min(100, decimals + 30);
  const exact = value.toFixed(extra);
  const cut = exact.length - (extra - decimals);
  if (!/^50*$/.test(exact.slice(cut))) return value.toFixed(decimals);
  const kept = exact.slice(0, cut).replace(/\.$/, "");
  return Number(kept[kept.length - 1]) % 2 === 0 ? kept : value.toFixed(decimals);
}

// A count, or any number from 1,000 on: whole, with thousands separators (units.whole).
export function whole(value) {
  const digits = fixed(value, 0);
  return digits.replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}

// Three significant digits, trailing zeros kept; whole from 1,000 on; never an exponent
// (units.significant): 1.50, 0.825, 147, 1,056, 0.0000123.
export function significant(value) {
  if (Math.abs(value) >= 1000) return whole(value);
  if (value === 0) return "0.00";
  const exponent = Number(value.toExponential(2).split("e")[1]);
  if (exponent >= 3) return whole(value);
  return fixed(value, 2 - exponent);
}

// A round value an axis labels (a log axis's 1-2-5 ticks: 0.1, 0.5, 20, 1,000): its own digits and no
// more. Not a measurement, so not three significant digits: "0.500" would claim a precision.
export function tickText(value) {
  return Math.abs(value) >= 1000 ? whole(value) : String(Number(value.toPrecision(3)));
}

// A measured number in its display unit: whole when it is exactly whole, else three digits (units._number).
export const numberText = (value) => (Number.isInteger(value) ? whole(value) : significant(value));

function stepsOf(unit, convention) {
  const conventions = STEPS[unit];
  if (!conventions) return null;
  const chosen = conventions[convention] ? convention : Object.keys(conventions)[0];
  return [chosen, conventions[chosen]];
}

// The prefix that shows the largest of `values` in at most four digits (units.scale_for); perCell
// when they span more than three decades, for text() to give each value its own.
export function scaleFor(values, unit, convention = "iec") {
  const found = stepsOf(unit, convention);
  if (!found) return { unit, label: unit, factor: 1, convention: "iec", perCell: false };
  const [chosen, steps] = found;
  const sizes = values.filter((v) => v !== null && v !== undefined && v !== 0).map(Math.abs);
  const largest = Math.max(0, ...sizes);
  const smallest = sizes.length ? Math.min(...sizes) : 0;
  const limit = LIMIT[unit] || 10000;
  const [label, factor] = steps.find(([, f]) => largest / f < limit) || steps[steps.length - 1];
  const perCell = steps.length > 1 && smallest > 0 && largest / smallest > PER_CELL_SPAN;
  return { unit, label, factor, convention: chosen, perCell };
}

// A fixed display unit, whatever the values: mbw prints MiB/s, so its chart stays in MiB/s or MB/s.
export function scaleOf(unit, label) {
  for (const [convention, steps] of Object.entries(STEPS[unit] || {})) {
    const step = steps.find(([name]) => name === label);
    if (step) return { unit, label, factor: step[1], convention, perCell: false };
  }
  return { unit, label: unit, factor: 1, convention: "iec", perCell: false };
}

export const number = (scale, value) => value / scale.factor;

export function axisTitle(scale) {
  return COUNTS.has(scale.unit) ? scale.unit : scale.label;
}

// One value on its own (units.value_text): the prefix that gives it one to four digits, or the
// largest it is an exact whole number of (4 KiB, 2 ms).
export function valueText(value, unit, convention = "iec") {
  if (value === null || value === undefined) return null;
  const scale = scaleFor([value], unit, convention);
  if (scale.label && value && !COUNTS.has(unit)) {
    const size = Math.abs(value);
    const steps = STEPS[unit][scale.convention];
    for (let i = steps.length - 1; i >= 0 && steps[i][1] > scale.factor; i -= 1) {
      const [label, factor] = steps[i];
      if (size >= factor && size % factor === 0) return `${whole(value / factor)} ${label}`;
    }
  }
  return text(scale, value);
}

// '1,854 MiB/s', '0.958 MiB/s', '188,000', '13.1 µs' (units.Scale.text); null stays null.
export function text(scale, value) {
  if (value === null || value === undefined) return null;
  if (COUNTS.has(scale.unit)) return whole(value);
  if (scale.perCell) return valueText(value, scale.unit, scale.convention);
  const shown = numberText(number(scale, value));
  return scale.label ? `${shown} ${scale.label}` : shown;
}

// Network rates as iperf3 prints them (units.format_bits_per_s): 9.41 Gbit/s.
export const bitsPerSecond = (value) => valueText(value, "bit/s");

// A latency on its own (units.format_ns): 772 ns, 948 µs, 2,540 µs, 2 ms.
export const nanoseconds = (value) => valueText(value, "ns");

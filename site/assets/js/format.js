// Display units, the way perfwiki.units prints them in Python: one prefix per axis
// (scaleFor), at most four significant digits, SI or IEC spelled out. Charts are
// drawn here from canonical numbers (bytes, ns, bit/s), so this must agree with
// units.py to the character; tests/browser/test_drawn_charts.py compares the two.

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
  IOPS: { si: [["", 1], ["M", 1e6]] },
  "events/s": { si: [["", 1], ["M", 1e6]] },
};
const LIMIT = { "bit/s": 1000, IOPS: 1e7, "events/s": 1e7 };
const COUNTS = new Set(["IOPS", "events/s"]);

export const isByteUnit = (unit) => unit === "B/s" || unit === "B";

// Python rounds a tie (an exact binary half, such as 1234.5) to even; toFixed rounds it up.
function fixed(value, decimals) {
  const power = 10 ** decimals;
  const scaled = value * power;
  if (Number.isInteger(scaled * 2) && !Number.isInteger(scaled) && scaled / power === value) {
    const down = Math.floor(scaled);
    return ((down % 2 === 0 ? down : down + 1) / power).toFixed(decimals);
  }
  return value.toFixed(decimals);
}

// Python's f"{value:.{digits}g}", with an exponent replaced by the whole number (units._significant).
export function significant(value, digits = 4) {
  if (value === 0) return "0";
  const exponent = Number(value.toExponential(digits - 1).split("e")[1]);
  if (exponent < -4 || exponent >= digits) return fixed(value, 0);
  const text = fixed(value, digits - 1 - exponent);
  return text.includes(".") ? text.replace(/0+$/, "").replace(/\.$/, "") : text;
}

function thousands(value) {
  const whole = fixed(value, 0);
  return whole.replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}

// The prefix that shows the largest of `values` in at most four digits (units.scale_for).
export function scaleFor(values, unit, convention = "iec") {
  const conventions = STEPS[unit];
  if (!conventions) return { unit, label: unit, factor: 1 };
  const steps = conventions[convention] || Object.values(conventions)[0];
  const largest = Math.max(0, ...values.filter((v) => v !== null && v !== undefined).map(Math.abs));
  const limit = LIMIT[unit] || 10000;
  const [label, factor] = steps.find(([, f]) => largest / f < limit) || steps[steps.length - 1];
  return { unit, label, factor };
}

// A fixed display unit, whatever the values: mbw prints MiB/s, so its chart stays in MiB/s or MB/s.
export function scaleOf(unit, label) {
  for (const steps of Object.values(STEPS[unit] || {})) {
    const step = steps.find(([name]) => name === label);
    if (step) return { unit, label, factor: step[1] };
  }
  return { unit, label: unit, factor: 1 };
}

export const number = (scale, value) => value / scale.factor;

export function axisTitle(scale) {
  if (COUNTS.has(scale.unit)) return scale.label ? `${scale.unit} (${scale.label})` : scale.unit;
  return scale.label;
}

// '1854 MiB/s', '0.958 MiB/s', '188,000', '13.05 µs' (units.Scale.text); null stays null.
export function text(scale, value) {
  if (value === null || value === undefined) return null;
  const shown = number(scale, value);
  if (COUNTS.has(scale.unit)) {
    return scale.label === "" && Math.abs(shown) >= 100 ? thousands(shown) : `${significant(shown)}${scale.label}`;
  }
  return scale.label ? `${significant(shown)} ${scale.label}` : significant(shown);
}

// Network rates as iperf3 prints them (units.format_bits_per_s): 8.33 Gbit/s.
export function bitsPerSecond(value) {
  if (value === null || value === undefined) return null;
  for (const [unit, factor] of [["Tbit/s", 1e12], ["Gbit/s", 1e9], ["Mbit/s", 1e6], ["kbit/s", 1e3]]) {
    if (Math.abs(value) >= factor) return `${significant(value / factor, 3)} ${unit}`;
  }
  return `${significant(value, 3)} bit/s`;
}

// A latency in the largest unit that keeps it >= 1 (units.format_ns): 4.352 ms, 948 µs.
export function nanoseconds(value) {
  if (value === null || value === undefined) return null;
  for (const [unit, factor] of [["s", 1e9], ["ms", 1e6], ["µs", 1e3]]) {
    if (Math.abs(value) >= factor) return `${significant(value / factor)} ${unit}`;
  }
  return `${significant(value)} ns`;
}

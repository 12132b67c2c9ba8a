"""Column headings, first-column labels and charts that many run pages share, named once.

A run page's document names a shared set (`"columns": "metric-value"`, `"labels":
"fio-percentiles"`, the table's rows then without their first cell; a chart `"fio-buckets"`;
the headline's labels `{"set": "fio", "values": [...]}`) instead of repeating it
in every run's document: data/layouts.json holds the sets, and _partials/data-table.html reads
them back, so the page is the same. On a fio-heavy wiki that is about a tenth of data/. A table
whose headings or labels are not listed here keeps them as they are; tests/test_layouts.py
checks that every set is one the tools print and that the pages read them back unchanged.
"""

from __future__ import annotations

from typing import Any

COLUMNS: dict[str, tuple[str, ...]] = {
    "metric-value": ("Metric", "Value"),
    "parameter-value": ("Parameter", "Value"),
    "fio-latency": ("Latency", "min", "mean", "max", "stdev"),
    "fio-percentiles": ("Percentile", "Latency"),
    "fio-buckets": ("Latency", "Share of I/Os"),
    "fio-cpu": ("usr", "sys", "ctx", "majf", "minf"),
    "fio-disks": ("Device", "read ios", "write ios", "read ticks", "write ticks", "util"),
    "iostat-devices": ("Device", "Samples", "r/s", "w/s", "read", "write", "util"),
}

# fio's default completion-latency percentiles (its --percentile_list when none is given).
_FIO_PERCENTILES = (
    "1.00 5.00 10.00 20.00 30.00 40.00 50.00 60.00 70.00 80.00 90.00 95.00 99.00 99.50 99.90 99.95 99.99"
).split()

LABELS: dict[str, tuple[str, ...]] = {
    "fio-results": ("IOPS", "Bandwidth", "I/O", "Runtime"),
    "fio-latency": ("slat", "clat", "lat"),
    "fio-percentiles": tuple(f"p{key}" for key in _FIO_PERCENTILES),
}

# Run charts whose series are all in the run's published index.json: the same on every run page
# that has them (tools/fio/pages.py run_charts).
CHARTS: dict[str, dict[str, Any]] = {
    "fio-percentiles": {
        "id": "chart-percentiles",
        "title": "Completion latency percentiles",
        "plot": {"kind": "ladder"},
    },
    "fio-buckets": {"id": "chart-buckets", "title": "Latency distribution", "plot": {"kind": "histogram"}},
}

# A run page's headline numbers: (label, higher is better, or None when neither) in the order
# the tools give them. The common sets; any other headline is kept whole.
_FIO = (("IOPS", True), ("Bandwidth", True), ("Mean completion latency", False), ("p99 completion latency", False))
HEADLINES: dict[str, tuple[tuple[str, bool | None], ...]] = {
    "fio": _FIO,
    "fio-read-write": tuple((f"{d} {label}", better) for d in ("read", "write") for label, better in _FIO),
    "iperf3": (("Throughput", True), ("Retransmits", False)),
    "ping": (("Average round-trip time", False), ("Maximum round-trip time", False), ("Packet loss (%)", False)),
    "iostat": (("Devices", None), ("Samples", None), ("Peak util", False)),
    "dd": (("dd throughput", True),),
    "ioping": (("Average latency", False), ("IOPS", True)),
    "mbw": (("DUMB", True), ("MCBLOCK", True), ("MEMCPY", True)),
}

_COLUMN_KEYS = {columns: key for key, columns in COLUMNS.items()}
_LABEL_KEYS = {labels: key for key, labels in LABELS.items()}
_HEADLINE_KEYS = {entries: key for key, entries in HEADLINES.items()}


def document() -> dict[str, Any]:
    """data/layouts.json: every shared set by its name."""
    headlines = {
        key: [{"label": label, **({} if better is None else {"higher_is_better": better})} for label, better in entries]
        for key, entries in HEADLINES.items()
    }
    return {"columns": COLUMNS, "labels": LABELS, "charts": CHARTS, "headlines": headlines}


def compact_headline(entries: list[dict[str, Any]]) -> list[dict[str, Any]] | dict[str, Any]:
    """A run's headline as its page's document holds it: a common set of labels by its name, with the values."""
    key = _HEADLINE_KEYS.get(tuple((entry["label"], entry.get("higher_is_better")) for entry in entries))
    return {"set": key, "values": [entry["value"] for entry in entries]} if key else entries


# The common set whose labels a run's key results start with, by those labels: asked once per labels (a
# few dozen on any wiki) rather than of every set for each of 100,000 runs (0.3 s of the site index).
_KEY_RESULT_SETS: dict[tuple[str, ...], str | None] = {}


def compact_key_results(entries: list[dict[str, Any]]) -> list[dict[str, Any]] | dict[str, Any]:
    """An environment page's key results of a run (its first headline numbers, {label, value}; what else
    an entry holds is left out): a common set's labels by its name, with the values."""
    labels = tuple(entry["label"] for entry in entries)
    try:
        key = _KEY_RESULT_SETS[labels]
    except KeyError:
        key = _KEY_RESULT_SETS[labels] = next(
            (key for key, shared in HEADLINES.items() if labels == tuple(label for label, _ in shared[: len(labels)])),
            None,
        )
    if key and labels:
        return {"set": key, "values": [entry["value"] for entry in entries]}
    return [{"label": entry["label"], "value": entry["value"]} for entry in entries]


def expand_key_results(results: list[dict[str, Any]] | dict[str, Any]) -> list[dict[str, Any]]:
    """The key results from their compacted form (what _partials/headline.html does)."""
    if isinstance(results, list):
        return results
    shared = HEADLINES[results["set"]]
    return [{"label": label, "value": value} for (label, _), value in zip(shared, results["values"], strict=False)]


def expand_headline(headline: list[dict[str, Any]] | dict[str, Any]) -> list[dict[str, Any]]:
    """The headline entries from their compacted form (what _partials/headline.html does)."""
    if isinstance(headline, list):
        return headline
    labels = document()["headlines"][headline["set"]]
    return [{**entry, "value": value} for entry, value in zip(labels, headline["values"], strict=True)]


def compact_chart(chart: dict[str, Any]) -> dict[str, Any] | str:
    """A run chart as its page's document holds it: a shared one by its name."""
    return next((key for key, shared in CHARTS.items() if shared == chart), chart)


def compact(table: dict[str, Any]) -> dict[str, Any]:
    """The table as a run page's document holds it: shared headings and labels by name."""
    compacted = dict(table)
    columns = _COLUMN_KEYS.get(tuple(table["columns"]))
    if columns:
        compacted["columns"] = columns
    labels = _LABEL_KEYS.get(tuple(row[0] for row in table["rows"]))
    if labels:
        compacted["labels"] = labels
        compacted["rows"] = [row[1:] for row in table["rows"]]
    return compacted


def expand(table: dict[str, Any]) -> dict[str, Any]:
    """The table as the tool made it, from its compacted form (what data-table.html does)."""
    expanded = dict(table)
    if isinstance(table["columns"], str):
        expanded["columns"] = list(COLUMNS[table["columns"]])
    if "labels" in table:
        del expanded["labels"]
        expanded["rows"] = [[label, *row] for label, row in zip(LABELS[table["labels"]], table["rows"], strict=True)]
    return expanded

"""Shared table headings and labels (pages/layouts.py): named in run documents, read back unchanged."""

from __future__ import annotations

import json

from perfwiki import tools
from perfwiki.pages import layouts
from perfwiki.pages.index import index_files
from perfwiki.pages.run import _has_values, _headline_entry, _params_table, run_page
from support import ROOT
from test_tools import ALL, runs_of


def test_every_table_chart_and_headline_of_every_fixture_reads_back_as_the_tool_made_it():
    used_columns, used_labels, used_charts, used_headlines, tables = set(), set(), set(), set(), 0
    for _, path in ALL:
        for run in runs_of(path).runs:
            made = [
                table for table in (_params_table(run), *tools.get(run.tool).result_tables(run)) if _has_values(table)
            ]
            document = run_page(run, 0)
            compacted_tables = document.get("tables", [])
            assert [layouts.expand(table) for table in compacted_tables] == made
            charts = document.get("charts", [])
            assert [layouts.CHARTS[c] if isinstance(c, str) else c for c in charts] == tools.get(run.tool).run_charts(
                run
            )
            used_charts.update(chart for chart in charts if isinstance(chart, str))
            headline = document.get("headline", [])
            made_headline = [_headline_entry(entry) for entry in tools.get(run.tool).headline(run)]
            assert layouts.expand_headline(headline) == made_headline
            if isinstance(headline, dict):
                used_headlines.add(headline["set"])
            # An environment page's key results: the first three headline numbers.
            key_results = [{"label": entry["label"], "value": entry["value"]} for entry in made_headline[:3]]
            assert layouts.expand_key_results(layouts.compact_key_results(key_results)) == key_results
            for compacted in compacted_tables:
                tables += 1
                if isinstance(compacted["columns"], str):
                    used_columns.add(compacted["columns"])
                if "labels" in compacted:
                    used_labels.add(compacted["labels"])
    # Every shared set is one a tool prints: none is left behind when a tool's tables change.
    assert used_columns == set(layouts.COLUMNS)
    assert used_labels == set(layouts.LABELS)
    assert used_charts == set(layouts.CHARTS)
    assert used_headlines == set(layouts.HEADLINES)
    assert tables > 100


def test_a_fio_run_names_its_shared_sets_and_keeps_its_own_values():
    (run,) = runs_of(ROOT / "tests" / "fixtures" / "fio" / "fio-3.33-randrw-numjobs2.txt").runs
    tables = {table["id"]: table for table in run_page(run, 0)["tables"]}
    percentiles = next(table for key, table in tables.items() if key.startswith("percentiles-"))
    assert (percentiles["columns"], percentiles["labels"]) == ("fio-percentiles", "fio-percentiles")
    assert len(percentiles["rows"]) == 17 and all(len(row) == 1 for row in percentiles["rows"])
    expanded = layouts.expand(percentiles)
    assert expanded["columns"] == ["Percentile", "Latency"] and expanded["rows"][12][0] == "p99.00"
    # Parameters are the command's own: their names stay in the rows.
    assert tables["parameters"]["columns"] == "parameter-value" and "labels" not in tables["parameters"]


def test_the_shared_sets_are_what_ingest_writes_for_hugo():
    written = json.loads(index_files([])["layouts.json"])
    assert written["columns"]["fio-latency"] == ["Latency", "min", "mean", "max", "stdev"]
    assert written == json.loads(json.dumps(layouts.document()))

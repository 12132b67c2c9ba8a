"""`make perf` itself, at a small scale: the synthetic wiki is what it says, and every figure is printed."""

from __future__ import annotations

import subprocess
import sys

from perfwiki.ingest import load_report
from perfwiki.perf import build_site, live_heap_mib
from support import ROOT, hugo_binary

FIGURES = [
    "ingest_cold_s",
    "ingest_cold_ms_per_run",
    "ingest_cold_cpu_ms_per_run",
    "ingest_warm_s",
    "ingest_one_change_s",
    "hugo_build_s",
    "hugo_pages",
    "hugo_ms_per_page",
    "hugo_peak_rss_mib",
    "hugo_peak_rss_kib_per_run",
    "hugo_live_heap_mib",
    "hugo_segments_parallel_s",
    "hugo_segment_peak_rss_mib",
    "data_kib_per_run",
    "public_kib_per_run",
    "search_index_s",
    "largest_report_html_kib",
    "largest_page_html_kib",
    "first_chart_s",
    "ingest_mb_per_s",
    "parse_vs_json_load",
    "parse_start_up_s",
    "one_file_ingest_s",
    "one_file_peak_rss_mib",
    "one_file_peak_rss_kib_per_run",
    "one_file_report_html_kib",
    "one_file_largest_page_html_kib",
]


def test_the_synthetic_wiki_has_exactly_the_runs_asked_for(tmp_path):
    runs, raw_bytes = build_site(ROOT, tmp_path, runs=300, environments=6, reports=3)
    assert runs == 300 and raw_bytes > 100_000
    ingest = subprocess.run(
        [sys.executable, "-m", "perfwiki.cli", "ingest", "--root", str(tmp_path)], capture_output=True, text=True
    )
    assert ingest.returncode == 0, ingest.stderr
    assert "ingested 300 runs in 3 reports" in ingest.stderr
    reports = [load_report(tmp_path, f"perf-report-{number:03d}") for number in range(3)]
    tools = {run["tool"] for report in reports for run in report["runs"]}
    # Replicated from every kind of shipped output, not from one file.
    assert {"fio", "iperf3", "unixbench", "dd", "iostat", "ioping"} <= tools


def test_perf_prints_every_figure_once_as_a_number():
    result = subprocess.run(
        [sys.executable, "-m", "perfwiki.perf", "--root", str(ROOT), "--hugo", str(hugo_binary())]
        + ["--runs", "120", "--environments", "4", "--reports", "2", "--one-file-runs", "200"],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert result.returncode == 0, result.stderr
    lines = [line.split() for line in result.stdout.splitlines()]
    assert [name for name, _ in lines] == FIGURES
    values = {name: float(value) for name, value in lines}  # n/a would fail here
    assert values["hugo_peak_rss_mib"] > 10 and values["largest_report_html_kib"] > 10
    assert values["largest_page_html_kib"] >= values["largest_report_html_kib"]
    assert 1 < values["hugo_live_heap_mib"] < values["hugo_peak_rss_mib"]  # read from the collector's own trace
    # Pages of 120 runs: every run, report, environment, scenario and raw file has one.
    assert values["hugo_pages"] > 120 and values["data_kib_per_run"] > 0.1 and values["public_kib_per_run"] > 1
    assert values["parse_vs_json_load"] > 1 and 0 < values["parse_start_up_s"] < 5
    assert 0 < values["first_chart_s"] < 60
    # A Python process that imported the tools is some tens of MiB; 200 runs add a little.
    assert 20 < values["one_file_peak_rss_mib"] < 1024 and values["one_file_ingest_s"] > 0
    # Its one report built: a report page of 200 runs, and no page over 2 MB (issue 32).
    assert 10 < values["one_file_report_html_kib"] <= values["one_file_largest_page_html_kib"] < 2048


def test_the_live_heap_is_read_from_the_collectors_trace_in_mib():
    # Two lines Hugo printed under GODEBUG=gctrace=1 in a 100,000-run build (the runtime's MB are bytes >> 20).
    trace = (
        "gc 20 @10.640s 10%: 0.097+1736+0.004 ms clock, 0.19+16/872/71+0.009 ms cpu, "
        "2457->2904->2213 MB, 2849 MB goal, 0 MB stacks, 2 MB globals, 2 P\n"
        "gc 21 @16.596s 10%: 0.13+2901+0.007 ms clock, 0.26+97/1463/127+0.014 ms cpu, "
        "3915->4584->3180 MB, 4428 MB goal, 0 MB stacks, 2 MB globals, 2 P\n"
    )
    assert live_heap_mib(trace) == 3180.0
    assert live_heap_mib("no trace") is None

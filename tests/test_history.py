"""History across reports: the same environment and scenario measured again, in date order, and the
changes larger than the runs' noise flagged as regressions or improvements."""

from __future__ import annotations

import datetime
import json
import subprocess

import pytest

from perfwiki import runstore
from perfwiki.pages import history
from perfwiki.pages.index import report_date
from support import ROOT, perfwiki_command

RANDREAD = "fio-read-randread-4096-16-1-direct-libaio-file"


def run(report: str, iops: float, env: str = "e", name: str = "r") -> dict:
    # fio's metrics in its order: IOPS, bandwidth, mean and p99 completion latency.
    return {"report": report, "run": name, "environment": env, "numbers": [iops, iops * 4096, 1e9 / iops, 2e9 / iops]}


def changes(runs: list[dict], dates: dict[str, str]) -> list[dict]:
    found = history.histories({"k": {"tool": "fio", "runs": runs}}, dates)
    return found["k"][0]["changes"] if found else []


def test_single_runs_are_flagged_beyond_the_threshold_by_the_metrics_direction():
    dates = {"a": "2026-01-01", "b": "2026-02-01", "c": "2026-03-01"}
    found = changes([run("c", 1000), run("a", 1000), run("b", 850)], dates)
    assert [(c["from"], c["to"], c["kind"]) for c in found] == [("a", "b", "regression"), ("b", "c", "improvement")]
    assert found[0]["text"].startswith("IOPS 1,000 → 850 (−15.0 %)")
    assert "Mean completion latency 1,000 µs → 1,176 µs (+17.6 %)" in found[0]["text"]
    assert found[0]["noise"] == "beyond ±5 % (a single run shows no noise of its own)"
    assert changes([run("a", 1000), run("b", 950)], dates)[0]["kind"] == "noise"  # 5 %: one run's noise


def test_repeats_are_judged_by_their_ranges():
    dates = {"a": "2026-01-01", "b": "2026-02-01"}
    overlapping = [
        run("a", 1000, name="1"),
        run("a", 1200, name="2"),
        run("b", 1050, name="3"),
        run("b", 1300, name="4"),
    ]
    assert changes(overlapping, dates)[0]["kind"] == "noise"  # +7.5 % of the median, but the ranges overlap
    apart = [run("a", 1000, name="1"), run("a", 1020, name="2"), run("b", 1030, name="3"), run("b", 1040, name="4")]
    found = changes(apart, dates)[0]
    assert found["kind"] == "improvement" and found["noise"] == "the min–max ranges of the repeats do not overlap"
    assert found["from_runs"] == ["1", "2"] and found["to_runs"] == ["3", "4"]


def test_one_report_alone_is_no_history():
    assert history.histories({"k": {"tool": "fio", "runs": [run("a", 1), run("a", 2, name="s")]}}, {}) == {}


def test_report_dates_order_with_their_time_in_utc():
    moment = datetime.datetime(2026, 11, 25, 0, 43, 11, tzinfo=datetime.timezone(datetime.timedelta(hours=1)))
    assert report_date(moment) == "2026-11-24 23:43:11"
    assert report_date(datetime.date(2018, 7, 12)) == "2018-07-12" and report_date(None) is None


@pytest.fixture(scope="module")
def ingested() -> None:
    done = subprocess.run(perfwiki_command() + ["ingest", "--root", str(ROOT)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


def test_the_two_passes_captured_here_form_a_series_with_a_regression(ingested):
    """build-vm-disk-busy ran the quiet pass's suite again while another process wrote to the disk."""
    document = json.loads((ROOT / "data" / "environments" / "build-vm-vda.json").read_text())
    entry = next(h for h in document["history"] if h["scenario"] == RANDREAD)
    (change,) = entry["changes"]
    assert (change["from"], change["to"], change["kind"]) == ("build-vm-disk-quiet", "build-vm-disk-busy", "regression")
    assert (change["from_date"], change["to_date"]) == ("2026-11-24 23:43:11", "2026-11-24 23:43:59")
    iops = []
    for report, runs in ((change["from"], change["from_runs"]), (change["to"], change["to_runs"])):
        iops.append(runstore.run_json(ROOT, report, runs[0])["metrics"]["jobs"][0]["read"]["iops"])
    assert change["text"].startswith(f"IOPS {round(iops[0]):,} → {round(iops[1]):,} ")
    chart = entry["chart"]["plot"]
    assert (
        chart["kind"] == "trend"
        and chart["series"][0]["values"] == iops
        and chart["series"][0]["flags"] == ["", "regression"]
    )
    scenario = json.loads((ROOT / "data" / "scenarios" / f"{RANDREAD}.json").read_text())
    assert scenario["history"][0]["changes"][0]["kind"] == "regression"

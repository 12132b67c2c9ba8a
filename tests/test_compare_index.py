"""runs/compare.json, what the compare page picks from: per scenario (one fingerprint) and
environment, the median of each metric, from the shipped example reports."""

from __future__ import annotations

import json
import statistics
import subprocess

import pytest

from perfwiki.ingest import load_report
from support import ROOT, perfwiki_command

RANDREAD = "fio-read-randread-4096-16-1-direct-posixaio"


@pytest.fixture(scope="module")
def compared() -> dict:
    done = subprocess.run(perfwiki_command() + ["ingest", "--root", str(ROOT)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    document = json.loads((ROOT / "site" / "static" / "runs" / "compare.json").read_text(encoding="utf-8"))
    document["by_key"] = {scenario["key"]: scenario for scenario in document["scenarios"]}
    return document


def test_a_scenario_holds_the_numbers_its_report_compares(compared):
    scenario = compared["by_key"][RANDREAD]
    assert scenario["tool"] == "fio" and ["block size", "4 KiB"] in scenario["params"]
    assert ["engine", "posixaio"] in scenario["params"] and ["queue depth", "16"] in scenario["params"]
    iops = {env: cell["values"][0] for env, cell in scenario["cells"].items()}
    # The same numbers as the report's own IOPS comparison (its first column, 4 KiB random read).
    block = next(
        b for b in load_report(ROOT, "vm-vs-bare-metal")["views"]["blocks"] if b["id"].startswith("local-storage-iops")
    )
    column = [c["scenario"] for c in block["table"]["columns"]].index(RANDREAD)
    # The formatted count (its `iec`, as the unit switch shows it), not fio's own "13.0k" the cell reads as.
    shown = {
        row["environment"]: row["cells"][column].get("iec", row["cells"][column]["text"])
        for row in block["table"]["rows"]
    }
    assert iops == {env: int(shown[env].replace(",", "")) for env in iops}
    assert iops == {
        "centos-vm-cache-none": 245,
        "centos-vm-cache-none-mq2": 243,
        "centos-vm-writeback": 13000,
        "centos-vm-writeback-q4": 28700,
        "r730-host": 195,
    }
    assert scenario["cells"]["r730-host"]["runs"] == [["vm-vs-bare-metal", "r730-host-random-read"]]


def test_repeats_of_a_scenario_are_their_median(compared):
    """essd-vda ran the same buffered randrw twice (-direct=1 -buffered=1 is buffered, as -direct=0 is);
    buffered libaio runs at QD1 whatever its iodepth=64, so the scenario is QD1."""
    cell = compared["by_key"]["fio-read-randrw-4096-1-1-buffered-libaio-file-50"]["cells"]["essd-vda"]
    runs = {run["id"]: run for run in load_report(ROOT, "ssd-cloud-disks-lvm-raid")["runs"]}
    reads = [sum(job["read"]["iops"] for job in runs[run_id]["metrics"]["jobs"]) for _, run_id in cell["runs"]]
    assert len(reads) == 2 and cell["values"][0] == statistics.median(reads)


def test_metrics_carry_their_unit_and_direction_and_tools_without_results_are_left_out(compared):
    assert compared["tools"]["fio"]["metrics"][0] == {"title": "IOPS", "unit": "IOPS", "higher": True}
    assert {"title": "Mean completion latency", "unit": "ns", "higher": False} in compared["tools"]["fio"]["metrics"]
    assert "iostat" not in compared["tools"] and all(s["tool"] != "iostat" for s in compared["scenarios"])
    assert compared["environments"]["r730-host"] == sum(
        1 for s in compared["scenarios"] for env, cell in s["cells"].items() if env == "r730-host" for _ in cell["runs"]
    )

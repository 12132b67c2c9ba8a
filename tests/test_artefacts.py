"""Artefacts: results that measured a cache or a failed job are named, and never stated as speed.

Real output throughout: fio and iperf3 run on the build VM (tests/fixtures, the machine the
`build-vm-vda` environment describes), and the example reports' seed slices.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from perfwiki import artefacts, claims, noise, tools, verdict
from perfwiki.extract import assign_ids, extract
from perfwiki.ingest import load_report
from support import FIXTURES, ROOT, extract_slice, perfwiki_command

PAGE_CACHE = FIXTURES / "fio" / "fio-3.33-randread-direct-then-buffered.txt"
ENOSPC = FIXTURES / "fio" / "fio-3.33-enospc-psync-iodepth16.txt"
LOOPBACK = FIXTURES / "iperf3" / "debian12-iperf3-loopback.txt"


def runs_of(path: Path, environment: str = "build-vm-vda"):
    found = extract(f"fixtures/{path.parent.name}/{path.name}", path.read_bytes())
    for run in found.runs:
        run.environment = environment
    assign_ids(found.runs)
    return found.runs


def build_vm(**facts) -> dict[str, artefacts.Environment]:
    """The build VM's environment page as committed, with any facts changed."""
    page = {"id": "build-vm-vda", "kind": "vm", "facts": {"memory": "23Gi", "disk": "vda 256G", **facts}}
    return artefacts.environments([page])


def checks(run) -> dict[str, dict]:
    return {check["id"]: check for check in run.checks}


def test_buffered_reads_of_a_warm_small_file_are_the_page_cache():
    direct, buffered = runs_of(PAGE_CACHE)
    assert (direct.params["direct"], buffered.params["direct"], buffered.params["invalidate"]) == (True, False, False)
    artefacts.check_runs([direct, buffered], build_vm())
    found = checks(buffered)
    # 409k IOPS buffered against 23.0k direct: 17.8× is RAM, not the virtio disk.
    assert found["buffered-over-direct"]["message"].startswith(
        "buffered reads ran 17.8× the same workload with direct I/O on this environment (409,000 against 23,000 IOPS)"
    )
    # 64 MiB file, 23Gi of RAM, invalidate=0: every read after the first pass is a hit.
    assert found["page-cache-read"]["message"].startswith("buffered reads of a 64 MiB file with 23Gi of RAM")
    assert artefacts.artefact(buffered) == artefacts.PAGE_CACHE
    assert [c["id"] for c in direct.checks if c.get("artefact")] == []


def test_a_file_larger_than_ram_is_not_called_cached():
    _, buffered = runs_of(PAGE_CACHE)
    artefacts.check_fits_in_ram(buffered, build_vm(memory="32 MiB")["build-vm-vda"])
    assert "page-cache-read" not in checks(buffered)


def test_a_result_above_the_link_is_a_cache():
    _, buffered = runs_of(PAGE_CACHE)
    # The same output, said to come from a SATA SSD: 1673 MB/s is more than SATA's 600 MB/s can carry.
    artefacts.check_over_link(buffered, build_vm(disk="sda, SATA SSD")["build-vm-vda"])
    assert checks(buffered)["over-link"]["message"].startswith("1,674 MB/s is more than the 600 MB/s its link carries")
    (loopback,) = runs_of(LOOPBACK, "host")
    # iperf3 over loopback moved 19.6 Gbit/s: no 10 Gbit/s NIC carried that.
    host = artefacts.environments([{"id": "host", "kind": "baremetal", "facts": {"nic": "10000Mb/s"}}])["host"]
    artefacts.check_over_link(loopback, host)
    said = checks(loopback)["over-link"]["message"]
    assert said.startswith("2,450 MB/s is more than the 1,250 MB/s its link carries")
    # A memory benchmark is bounded by no NIC: the host's mbw copies at 3 GB/s and that is fine.
    (mbw,) = [run for run in extract_slice("vm-vs-bare-metal/raw/r730-host/mbw.md").runs]
    mbw.environment = "host"
    artefacts.check_over_link(mbw, host)
    assert "over-link" not in checks(mbw)


def test_a_failed_job_is_left_out_and_reported_with_its_line():
    (run,) = runs_of(ENOSPC)
    failure = checks(run)["fio-error"]
    assert failure["line"] == 9 and failure["message"].startswith(
        "job fill ended with err=28 (No space left on device)"
    )
    # psync ignores iodepth=16: the scenario, the badge and the runs table say QD1.
    assert run.fingerprints["write"]["iodepth"] == 1
    assert "QD1 (iodepth=16, psync) x 1" in tools.get("fio").badges(run)


@pytest.fixture
def wiki(tmp_path: Path) -> Path:
    """A wiki of one report on the build VM: the page-cache pair and the failed job, as captured."""
    shutil.copy2(ROOT / "hugo.toml", tmp_path / "hugo.toml")
    (tmp_path / "content" / "environments").mkdir(parents=True)
    shutil.copy2(ROOT / "content/environments/build-vm-vda.md", tmp_path / "content/environments/build-vm-vda.md")
    raw = tmp_path / "content/reports/cache-check/raw/build-vm-vda"
    raw.mkdir(parents=True)
    (raw.parent.parent / "index.md").write_text(
        "---\ntitle: Page cache check\ndate: 2026-11-25\nsummary: >-\n  4 KiB random reads at QD16,\n"
        "  direct and buffered.\nbaseline: build-vm-vda\n---\nText.\n",
        encoding="utf-8",
    )
    shutil.copy2(PAGE_CACHE, raw / "randread.txt")
    shutil.copy2(ENOSPC, raw / "fill.txt")
    return tmp_path


def test_ingest_warns_names_the_line_and_keeps_going(wiki):
    result = subprocess.run(perfwiki_command() + ["ingest", "--root", str(wiki)], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr  # warnings: the files were good, the runs say what they are
    lines = result.stderr.splitlines()
    raw = "content/reports/cache-check/raw/build-vm-vda"
    assert (
        f"{raw}/fill.txt:9: warning: run build-vm-vda-fill-fill: job fill ended with err=28 (No space left on device)"
        in (" ".join(lines))
    )
    # The summary claims QD16; every run ran at QD1 (psync).
    assert any(
        line.startswith("content/reports/cache-check/index.md:5: warning: the front matter says “QD16”")
        for line in lines
    )
    assert lines[-1].endswith("; 2 warnings")
    views = load_report(wiki, "cache-check")["views"]
    (block,) = views["blocks"]
    # One environment, buffered against direct of the same reads: the ratio is said as what it is.
    assert verdict.comparable_scenarios(*block_columns(wiki))
    said = block["verdict"]["iec"]  # it names a bandwidth: in both conventions, for the unit switch
    # Five-second runs, under fio-short-run's 10 s: the peak is said with its length.
    assert said.startswith(
        "Highest IOPS: 409,000 IOPS (4 KiB random read, buffered, page cache kept warm, lasting 5 s), 17.8× 4 KiB"
        " random read, direct I/O — served from the page cache, not the disk;"
    )
    assert "faster" not in said
    (left_out,) = views["left_out"]
    assert left_out["reason"].startswith("failed: job fill ended with err=28")


def block_columns(wiki: Path) -> list[dict]:
    document = json.loads((wiki / "site/static/reports/cache-check/index.json").read_text())
    columns = next(c for c in document["comparisons"] if c["metric"] == "iops")["columns"]
    return [column for column in columns if column["parameters"]["direction"] == "read"]


def test_a_stated_queue_depth_no_run_ran_is_flagged():
    runs = extract_slice("nas-cache-modes/raw/nas-default/fio.txt").runs
    text = "---\ntitle: NAS\nsummary: >-\n  fio at queue\n  depth 64 on psync.\n---\n"
    (problem,) = claims.contradicted("index.md", text, runs)
    assert (problem.line, problem.severity) == (4, "warning")
    assert problem.message.startswith("the front matter says “queue depth 64”, but no run of this report ran")
    assert claims.contradicted("index.md", "---\nsummary: QD1 in effect\n---\n", runs) == []


def test_even_is_one_rule_for_every_metric():
    assert noise.is_even(0.95) and noise.is_even(1.05) and not noise.is_even(1.051) and not noise.is_even(1.25)
    # With repeats, the runs' own spread decides: overlapping ranges are noise even at +7.5 %.
    assert noise.is_even(1.075, noise.Spread(2, 1050, 1300), noise.Spread(2, 1000, 1200))
    assert not noise.is_even(1.02, noise.Spread(2, 1030, 1040), noise.Spread(2, 1000, 1020))

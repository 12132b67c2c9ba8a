"""Run ids that tell the truth: ids made from the example reports' own job names and labels
(extract.assign_ids), except where a job name contradicts what fio ran: then the id says what it ran."""

from __future__ import annotations

import re

import pytest

from perfwiki.tools import get as tool
from support import REPORTS, example_runs, slice_runs

REPORT_NAMES = sorted(path.parent.name for path in REPORTS.glob("*/index.md"))


# -- run ids say what the run did ---------------------------------------------------------------

# What words of an id claim, and what fio's rw= modes do; kept apart from perfwiki's own tables
# (tools/fio/names.py) so that this test does not agree with the code by construction.
RANDOM_MODES = {"randread", "randwrite", "randrw", "randtrim"}
READS = {"read", "randread", "rw", "readwrite", "randrw"}
WRITES = {"write", "randwrite", "rw", "readwrite", "randrw", "trimwrite"}


def id_claims(run_id: str, environment: str) -> list[str]:
    return run_id.removeprefix(f"{environment}-").split("-")


@pytest.mark.parametrize("report", REPORT_NAMES)
def test_no_example_fio_run_id_contradicts_what_fio_ran(ingested, report):
    runs = [run for run in example_runs(report).values() if run["tool"] == "fio"]
    for run in runs:
        rw, words = run["params"]["rw"], id_claims(run["id"], run["environment"])
        said = f"{run['id']} (rw={rw}, bs={run['params'].get('bs_bytes')})"
        if {"random", "rand", "randread", "randwrite"} & set(words):
            assert rw in RANDOM_MODES, said
        if {"seq", "sequential"} & set(words):
            assert rw not in RANDOM_MODES, said
        if "randwrite" in words or ("write" in words and "read" not in words):
            assert rw in WRITES and rw not in READS, said
        if "read" in words and "write" not in words:
            assert rw in READS and rw not in WRITES, said
        for word in words:
            if sizes := re.fullmatch(r"(\d+)([km])b?", word):
                assert int(sizes[1]) * {"k": 1024, "m": 1 << 20}[sizes[2]] == run["params"]["bs_bytes"], said


def test_a_job_named_for_another_workload_is_named_for_what_it_ran(ingested):
    """vm-vs-bare-metal ran `--name=random-read --rw=read` (the page's 4KB顺序读, a sequential read)."""
    runs = example_runs("vm-vs-bare-metal")
    sequential = runs["r730-host-4k-seq-read"]
    assert sequential["params"]["name"] == "random-read" and sequential["params"]["rw"] == "read"
    assert sequential["label"] == "4KB顺序读" and sequential["params"]["bs_bytes"] == 4096
    assert runs["r730-host-4k-seq-write"]["params"]["rw"] == "write"
    # The job name kept where it is true, and the 1 MiB sequential jobs' own names too.
    assert runs["r730-host-random-read"]["params"]["rw"] == "randread"
    assert runs["r730-host-seq-read"]["params"]["bs_bytes"] == 1 << 20
    assert not any(run_id.endswith(("-random-read-2", "-random-write-2")) for run_id in runs)


def test_twins_keep_their_number_when_one_of_them_is_renamed(ingested):
    """essd-pl3-vdb ran four jobs named "EBS 4K randwrite test": randwrite, randread, randrw, randwrite.
    The fourth stays '-4' (the narrative of essd-pl3-vdb's page cites it) while the middle two say what they ran."""
    runs = [run for run in example_runs("ssd-cloud-disks-lvm-raid").values() if run["environment"] == "essd-pl3-vdb"]
    assert [(run["id"], run["params"]["rw"]) for run in runs] == [
        ("essd-pl3-vdb-runs-ebs-4k-randwrite-test", "randwrite"),
        ("essd-pl3-vdb-runs-4k-random-read", "randread"),
        ("essd-pl3-vdb-runs-4k-random-read-write", "randrw"),
        ("essd-pl3-vdb-runs-ebs-4k-randwrite-test-4", "randwrite"),
    ]


def test_a_run_whose_label_has_no_letters_is_named_for_its_tool(ingested):
    """The labels 物理机: and 虚拟机: slug to nothing: the ids were the environment alone (r730-host, r730-host-2)."""
    runs = example_runs("vm-vs-bare-metal")
    assert runs["r730-host-mbw"]["tool"] == "mbw" and runs["r730-host-unixbench"]["tool"] == "unixbench"
    assert runs["classic-host-to-host-iperf3"]["label"] == "物理机到物理机"
    assert example_runs("fio-iops-basics")["lab-vm-dm0-ioping"]["tool"] == "ioping"
    assert "r730-host" not in runs and "r730-host-2" not in runs


def test_what_a_fio_job_name_says_is_held_to_its_parameters():
    sequential = slice_runs("vm-vs-bare-metal/raw/r730-host/fio.md")[2]  # --name=random-read --rw=read --bs=4k
    fio = tool("fio")
    assert fio.name_contradictions(sequential, "random-read") == ["says random, ran rw=read"]
    assert fio.name_contradictions(sequential, "4k-seq-read") == []
    assert fio.name_contradictions(sequential, "4KB sequential read, QD16, direct") == []
    assert fio.name_contradictions(sequential, "seq-write-1m-qd32-buffered") == [
        "says write, ran rw=read",
        "says 1m, ran bs=4096",
        "says qd32, ran iodepth=16",
        "says buffered, ran direct",
    ]
    assert fio.name_contradictions(sequential, "thread-readiness") == []  # words, not letters inside them
    assert fio.id_name(sequential) == "4k-seq-read"
    mixed = slice_runs("ssd-cloud-disks-lvm-raid/raw/essd-pl3-vdb/runs.md")[2]  # -rw=randrw, named ...randwrite
    assert fio.name_contradictions(mixed, "EBS 4K randwrite test") == ["says write, ran rw=randrw"]
    assert fio.id_name(mixed) == "4k-random-read-write"


@pytest.mark.parametrize(
    ("rw", "bs", "name"),
    [
        ("read", 4096, "4k-seq-read"),
        ("randwrite:8", 1 << 20, "1m-random-write"),
        ("readwrite", 512, "512b-seq-read-write"),
        ("randtrim", 3 << 10, "3k-random-trim"),
        ("trimwrite", 4096, "4k-seq-trim-write"),
    ],
)
def test_a_name_made_from_parameters_agrees_with_them(rw, bs, name):
    run = slice_runs("vm-vs-bare-metal/raw/r730-host/fio.md")[0]
    run.params = {**run.params, "rw": rw, "bs_bytes": bs}
    assert tool("fio").name_from_params(run) == name
    assert tool("fio").name_contradictions(run, name) == []

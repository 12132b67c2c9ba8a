"""Several job sections in one fio run, and numjobs (issue 31): each section's rw, engine, depth and
numjobs come from its own option lines, and the run says "mixed" where its sections differ.

Inputs: fio 3.33 outputs captured here (tests/fixtures/fio/README.md names each command).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from perfwiki import tools
from perfwiki.extract import extract
from perfwiki.tools.fio import parser as fio
from perfwiki.tools.fio.options import command_jobs

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "fio"


def run_of(name: str):
    (run,) = extract("x", (FIXTURES / name).read_bytes()).runs
    return run


def jobs_of(run) -> list[tuple]:
    return [(job["name"], job["rw"], job["ioengine"], job["iodepth"], job["numjobs"]) for job in run.params["jobs"]]


def test_two_sections_in_one_group_report_are_one_process_each():
    # "reader: (groupid=0, jobs=2)": group_reporting adds reader's process and writer's, numjobs 1 each.
    run = run_of("fio-3.33-two-jobs-group-reporting.txt")
    assert [(job["name"], job["jobs"]) for job in run.metrics["jobs"]] == [("reader", 2)]
    assert run.params["numjobs"] == 1
    assert run.params["rw"] == "mixed"
    assert (run.params["ioengine"], run.params["iodepth"], run.params["bs_bytes"]) == ("psync", 1, 4096)
    assert jobs_of(run) == [("reader", "randread", "psync", 1, 1), ("writer", "randwrite", "psync", 1, 1)]
    # Each --name's options are its own: no "command says rw=randwrite" from reading the command as one job.
    assert run.warnings == []
    assert "name" not in run.params and tools.get("fio").run_name(run) == "reader"  # the block's name
    # "  read: IOPS=185k, ..." and "  write: IOPS=540k, ..." of the one block.
    assert (run.metrics["jobs"][0]["read"]["iops"], run.metrics["jobs"][0]["write"]["iops"]) == (185_000, 540_000)
    assert {part: prints["rw"] for part, prints in run.fingerprints.items()} == {"read": "mixed", "write": "mixed"}


def test_mixed_engines_depths_and_numjobs_are_mixed_with_each_kept():
    run = run_of("fio-3.33-mixed-engines-group-reporting.txt")
    # "aio: (groupid=0, jobs=3)": aio's one process and sync's two ("..." after sync's header).
    assert [job["jobs"] for job in run.metrics["jobs"]] == [3]
    assert [
        header.get("clones", False)
        for header in fio.parse((FIXTURES / "fio-3.33-mixed-engines-group-reporting.txt").read_text(encoding="utf-8"))[
            0
        ].headers
    ] == [False, True]
    params = run.params
    assert (params["rw"], params["ioengine"], params["iodepth"], params["numjobs"]) == ("mixed",) * 4
    assert jobs_of(run) == [("aio", "randread", "libaio", 8, 1), ("sync", "read", "psync", 1, 2)]
    assert run.warnings == []


def test_numjobs_with_group_reporting_is_the_blocks_jobs():
    run = run_of("fio-3.33-numjobs2-group-reporting.txt")
    assert [job["jobs"] for job in run.metrics["jobs"]] == [2]
    assert (run.params["numjobs"], run.params["rw"], run.params["name"]) == (2, "randread", "randread")
    assert "jobs" not in run.params and run.warnings == []


def test_numjobs_without_group_reporting_counts_the_blocks():
    run = run_of("fio-3.33-numjobs2-cmdline.txt")
    assert [job["jobs"] for job in run.metrics["jobs"]] == [1, 1]
    assert run.params["numjobs"] == 2 and "jobs" not in run.params
    # "  read: IOPS=18.6k" and "  read: IOPS=18.7k": one block per process.
    assert [job["read"]["iops"] for job in run.metrics["jobs"]] == [18_600, 18_700]


def test_numjobs_the_output_cannot_count_comes_from_each_jobs_options():
    # group_reporting given to job b only: a's blocks "jobs=1", "jobs=1", then "a: (groupid=0, jobs=3)"
    # (a's third process with b's two). The blocks cannot say; --numjobs=3 (for all) and b's --numjobs=2 do.
    run = run_of("fio-3.33-numjobs-per-job.txt")
    assert [job["jobs"] for job in run.metrics["jobs"]] == [1, 1, 3]
    assert jobs_of(run) == [("a", "randread", "psync", 1, 3), ("b", "read", "psync", 1, 2)]
    assert run.params["numjobs"] == "mixed" and run.params["jobs"][1]["group_reporting"] is True
    assert "group_reporting" not in run.params  # a's options do not have it


def test_numjobs_printed_wins_over_a_command_that_disagrees():
    text = (FIXTURES / "fio-3.33-numjobs2-cmdline.txt").read_text(encoding="utf-8")
    command, output = text.split("\n", 1)
    (report,) = fio.parse(output)
    params, warnings = fio.params(report, command.removeprefix("$ ").replace("--numjobs=2", "--numjobs=4"))
    assert params["numjobs"] == 2
    assert warnings == ["the options say numjobs=4 but fio ran 2 processes of job 'randread'"]


def test_two_groups_of_one_job_each():
    run = run_of("fio-3.33-two-groups.txt")
    assert run.params["numjobs"] == 1 and run.params["rw"] == "mixed"
    assert [(job["name"], job["rw"]) for job in run.params["jobs"]] == [("reader", "read"), ("writer", "write")]


def test_one_section_run_keeps_its_values():
    run = run_of("fio-3.33-randrw-numjobs2.txt")  # "mixed: (g=0): rw=randrw, ..." then "..."
    assert (run.params["rw"], run.params["numjobs"]) == ("randrw", 2) and "jobs" not in run.params


def test_a_command_line_is_read_job_by_job():
    command = (FIXTURES / "fio-3.33-two-jobs-group-reporting.txt").read_text(encoding="utf-8").split("\n")[0]
    shared, jobs = command_jobs(command)
    assert ("group_reporting", None) in shared and ("bs", "4k") in shared
    assert jobs == [
        ("reader", [("name", "reader"), ("rw", "randread")]),
        ("writer", [("name", "writer"), ("rw", "randwrite")]),
    ]


@pytest.mark.parametrize(
    ("change", "fits"),
    [
        (lambda command: command, True),
        (lambda command: command.replace("--rw=randwrite", "--rw=write"), False),  # writer's header says randwrite
        (lambda command: command.replace("--name=writer", "--name=other"), False),
    ],
)
def test_a_command_apart_from_its_output_fits_job_by_job(change, fits):
    text = (FIXTURES / "fio-3.33-two-jobs-group-reporting.txt").read_text(encoding="utf-8")
    command, output = text.split("\n", 1)
    (report,) = fio.parse(output)
    assert fio.command_fits(report, change(command.removeprefix("$ "))) is fits

"""UnixBench: seed 001's two single-copy runs, and a full two-section report with its index."""

from __future__ import annotations

from perfwiki.extract import extract
from perfwiki.tools.unixbench import parser as unixbench
from support import FIXTURES, ROOT, seed_slices


def test_seed_001_single_copy_runs_with_the_command_listed_apart():
    physical, virtual = seed_slices("001", "unixbench").runs
    assert physical.source.path.endswith("/r730-host/unixbench.md")
    assert virtual.source.path.endswith("/centos-vm-8c/unixbench.md")
    dhrystone = [test for test in physical.metrics["tests"] if test["name"].startswith("Dhrystone")]
    assert dhrystone == [
        {
            "name": "Dhrystone 2 using register variables",
            "value": 34839728.4,
            "unit": "lps",
            "seconds": 10.0,
            "samples": 7,
        }
    ]
    assert virtual.metrics["tests"][0]["value"] == 33964545.0
    assert (physical.metrics["cpus"], virtual.metrics["cpus"], physical.metrics["copies"]) == (48, 8, 1)
    assert physical.metrics["score"] is None  # a subset of tests prints no index
    assert physical.command == "./Run -c 1 whetstone-double dhry2reg fsdisk"
    assert physical.params["selected"] == ["whetstone-double", "dhry2reg", "fsdisk"]
    names = [test["name"] for test in physical.metrics["tests"]]
    assert "Shell Scripts (8 concurrent)" in names and "File Copy 1024 bufsize 2000 maxblocks" in names
    assert [test["unit"] for test in physical.metrics["tests"]][:4] == ["lps", "MWIPS", "lps", "KBps"]


FULL = """   BYTE UNIX Benchmarks (Version 5.1.3)

   System: armsom: GNU/Linux
   OS: GNU/Linux -- 6.1.43 -- #1 SMP
   Machine: aarch64 (unknown)
   CPU 0: ARMv8 Processor rev 0 (0.0 bogomips)
------------------------------------------------------------------------
Benchmark Run: Sun Apr 21 2024 17:18:53 - 17:25:36
8 CPUs in system; running 1 parallel copy of tests

Dhrystone 2 using register variables       35279778.3 lps   (10.0 s, 1 samples)
Double-Precision Whetstone                     5318.1 MWIPS (9.9 s, 1 samples)

System Benchmarks Partial Index              BASELINE       RESULT    INDEX
Dhrystone 2 using register variables         116700.0   35279778.3   3023.1
Double-Precision Whetstone                       55.0       5318.1    966.9
Grep a large file (system's grep)                 ---        100.0      ---
                                                                   ========
System Benchmarks Index Score (Partial Only)                         1709.8

------------------------------------------------------------------------
Benchmark Run: Sun Apr 21 2024 17:25:36 - 17:32:18
8 CPUs in system; running 8 parallel copies of tests

Dhrystone 2 using register variables      183884600.5 lps   (10.0 s, 1 samples)

System Benchmarks Index Values               BASELINE       RESULT    INDEX
Dhrystone 2 using register variables         116700.0  183884600.5  15757.0
                                                                   ========
System Benchmarks Index Score                                       15757.0
"""


def test_synthetic_full_report_two_sections_index_and_partial():
    # Synthetic: assembled from the real lines the reference quotes (bretmlw/sbc-benchmarks, Run source).
    single, parallel = unixbench.parse(FULL)
    assert (single.tool_version, single.metrics["copies"], parallel.metrics["copies"]) == ("5.1.3", 1, 8)
    assert single.metrics["score"] == 1709.8 and single.metrics["partial"] is True
    assert single.metrics["index"][0] == {
        "name": "Dhrystone 2 using register variables",
        "baseline": 116700.0,
        "result": 35279778.3,
        "index": 3023.1,
    }
    assert single.metrics["index"][2] == {
        "name": "Grep a large file (system's grep)",
        "baseline": None,
        "result": 100.0,
        "index": None,
    }
    assert parallel.metrics["tests"][0]["value"] == 183884600.5
    assert parallel.metrics["score"] == 15757.0 and "partial" not in parallel.metrics
    assert single.metrics["system"]["cpu"] == "ARMv8 Processor rev 0 (0.0 bogomips)"
    assert unixbench.command_fits(parallel, "./Run -c 1 -c 8") and not unixbench.command_fits(parallel, "./Run -c 1")


def test_a_test_printed_twice_in_one_run_is_a_problem_not_a_twin():
    # The seed's r730 run, with its last test line pasted a second time with another value.
    slice_ = seed_slices("001", "unixbench")
    physical = slice_.runs[0]
    text = (ROOT / physical.source.path).read_text(encoding="utf-8")
    line = "System Call Overhead                         476273.4 lps   (10.0 s, 7 samples)"
    twice = text.replace(
        line, line + "\nSystem Call Overhead                              1.0 lps   (10.0 s, 7 samples)"
    )
    (report,) = [r for r in unixbench.parse(twice) if r.metrics["tests"]]
    overhead = [test for test in report.metrics["tests"] if test["name"] == "System Call Overhead"]
    assert [test["value"] for test in overhead] == [476273.4]
    assert report.problems and "'System Call Overhead' twice in one run" in report.problems[0][1]


def test_a_command_that_did_not_ask_for_the_tests_its_output_shows():
    """Seed 001 shows `./Run -c 1 whetstone-double dhry2reg fsdisk` above twelve results: three asked
    for, nine not (Execl, pipes, shells...). Whoever reruns that command gets three numbers."""
    physical, virtual = seed_slices("001", "unixbench").runs
    for run in (physical, virtual):
        (finding,) = [check for check in run.checks if check["id"] == "unixbench-command-other-tests"]
        assert finding["severity"] == "warning"
        assert finding["message"].startswith(
            "the command shown (./Run -c 1 whetstone-double dhry2reg fsdisk) asks for 3 tests, but the output"
            " holds 12: Execl Throughput, File Copy 1024 bufsize 2000 maxblocks, File Copy 256 bufsize 500"
            " maxblocks and 6 more were not asked for."
        )
        assert finding["evidence"].startswith("Execl Throughput") and " 9 " not in finding["message"]


def test_commands_that_ask_for_what_the_output_shows_are_not_flagged():
    output = (FIXTURES / "unixbench" / "r730-host-1-copy.txt").read_text(encoding="utf-8").split("\n", 1)[1]
    # `./Run -c 1` runs the index's twelve tests, which the same output shows; so does naming them by group.
    for command in ("./Run -c 1", "./Run -c 1 dhry whets system", "./Run -c 1 index"):
        (run,) = extract("unixbench.txt", f"$ {command}\n{output}".encode()).runs
        assert run.command == command and run.checks == [], command
    # A test this table does not know (graphics): not judged, rather than flagged on a guess.
    (run,) = extract("unixbench.txt", f"$ ./Run -c 1 2d-rects dhry2reg\n{output}".encode()).runs
    assert run.checks == []

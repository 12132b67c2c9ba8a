"""sysbench: live Debian 1.0.20 cpu, memory and fileio, and the 0.4 family."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from perfwiki import tools
from perfwiki.extract import extract
from perfwiki.tools.sysbench import parser as sysbench

MiB = 2**20


def run_sysbench(*arguments: str, cwd=None) -> str:
    binary = shutil.which("sysbench")
    if binary is None:
        pytest.fail("Debian's sysbench is not installed: run `make setup-system`")
    result = subprocess.run([binary, *arguments], capture_output=True, text=True, cwd=cwd, check=True)
    return result.stdout


def test_live_cpu_from_a_transcript_with_its_command():
    output = run_sysbench("cpu", "--threads=2", "--time=1", "run")
    found = extract("cpu.txt", f"$ sysbench cpu --threads=2 --time=1 run\n{output}".encode())
    (run,) = found.runs
    metrics = run.metrics
    assert run.tool == "sysbench" and run.tool_version == "1.0.20"
    assert (metrics["test"], metrics["threads"], metrics["prime_limit"]) == ("cpu", 2, 10000)
    assert metrics["events_per_s"] > 0 and "events_per_s_computed" not in metrics
    assert metrics["total_events"] == pytest.approx(metrics["events_per_s"] * metrics["total_time_s"], rel=0.05)
    latency = metrics["latency_ms"]
    assert latency["min"] <= latency["avg"] <= latency["max"] and "p95" in latency
    assert run.params == {"test": "cpu", "threads": 2, "time_s": 1}


def test_live_memory_reports_mib_per_second():
    (report,) = sysbench.parse(run_sysbench("memory", "--time=1", "--memory-total-size=64M", "run"))
    metrics = report.metrics
    assert metrics["test"] == "memory" and metrics["bytes"] == 64 * MiB
    assert metrics["bytes_per_s"] > 100 * MiB


def test_live_fileio_prepare_is_not_a_run(tmp_path):
    options = ("--file-total-size=8M", "--file-num=2")
    transcript = (
        run_sysbench("fileio", *options, "prepare", cwd=tmp_path)
        + run_sysbench("fileio", *options, "--file-test-mode=rndrw", "--time=1", "run", cwd=tmp_path)
        + run_sysbench("fileio", *options, "cleanup", cwd=tmp_path)
    )
    (report,) = sysbench.parse(transcript)
    metrics = report.metrics
    assert metrics["test"] == "fileio"
    assert metrics["reads_per_s"] > 0 and metrics["writes_per_s"] > 0
    assert metrics["bytes_per_s"] == pytest.approx(metrics["read_bytes_per_s"] + metrics["write_bytes_per_s"])


def test_synthetic_0_4_cpu_has_its_rate_computed_and_flagged():
    # Synthetic, from the 0.4.12 lines the reference quotes (inkrement/server_benchmark).
    (report,) = sysbench.parse(
        "sysbench 0.4.12:  multi-threaded system evaluation benchmark\n\n"
        "Number of threads: 1\n"
        "Maximum prime number checked in CPU test: 20000\n\n"
        "Test execution summary:\n"
        "    total time:                          46.1131s\n"
        "    total number of events:              10000\n"
        "    total time taken by event execution: 46.1087\n"
        "    per-request statistics:\n"
        "         min:                                  4.59ms\n"
        "         avg:                                  4.61ms\n"
        "         max:                                  5.12ms\n"
        "         approx.  95 percentile:               4.65ms\n"
    )
    metrics = report.metrics
    assert (report.tool_version, metrics["test"], metrics["prime_limit"]) == ("0.4.12", "cpu", 20000)
    assert metrics["events_per_s"] == pytest.approx(10000 / 46.1131, abs=0.01)
    assert metrics["events_per_s_computed"] is True
    assert metrics["latency_ms"] == {"min": 4.59, "avg": 4.61, "max": 5.12, "p95": 4.65}


def test_a_log_that_prefixes_each_banner_keeps_every_run():
    # Real sysbench memory output, four times, with "CPU n " before each banner, the way
    # PerfKitBenchmarker's per-CPU logs print it.
    outputs = [run_sysbench("memory", "--time=1", f"--memory-total-size={n * 16}M", "run") for n in range(1, 5)]
    text = "\n".join(f"CPU {n} {output}" for n, output in enumerate(outputs))
    reports = sysbench.parse(text)
    assert [report.metrics["bytes"] for report in reports] == [n * 16 * MiB for n in range(1, 5)]
    assert all(report.problems == [] for report in reports)


def test_a_second_result_without_a_banner_is_a_problem_not_an_overwrite():
    # Two real runs pasted with the second banner lost: the second result must not replace the first.
    first = run_sysbench("memory", "--time=1", "--memory-total-size=16M", "run")
    second = run_sysbench("memory", "--time=1", "--memory-total-size=32M", "run")
    lines = second.split("\n")
    without_banner = "\n".join(line for line in lines if not line.startswith("sysbench "))
    (report,) = sysbench.parse(first + "\n" + without_banner)
    assert report.metrics["bytes"] == 16 * MiB  # the first result, kept
    assert report.problems and "a second sysbench result" in report.problems[0][1]


FIXTURES = Path(__file__).resolve().parent / "fixtures" / "sysbench"


def run_of(name: str):
    found = extract(name, (FIXTURES / name).read_bytes())
    assert found.problems == []
    (run,) = found.runs
    return run


def test_memory_events_per_second_is_the_printed_operations_rate():
    # "Total operations: 4679460 (4673687.11 per second)"; 4679460 events / 1.0001 s would be 4678992.1.
    metrics = run_of("debian12-sysbench-memory.txt").metrics
    assert metrics["total_events"] == metrics["ops"] == 4_679_460
    assert metrics["events_per_s"] == 4673687.11 and "events_per_s_computed" not in metrics
    assert metrics["printed"] == {
        "events_per_s": "4673687.11",
        "ops_per_s": "4673687.11",
        "bytes_per_s": "4564.15 MiB/sec",  # "4569.79 MiB transferred (4564.15 MiB/sec)"
    }


def test_cpu_events_per_second_keeps_its_printed_token():
    run = run_of("debian12-sysbench.txt")  # "    events per second:  4486.20"
    assert run.metrics["events_per_s"] == 4486.2 and run.metrics["printed"] == {"events_per_s": "4486.20"}
    (headline,) = tools.get("sysbench").headline(run)
    assert headline["value"]["text"] == "4486.20"  # "Units: as printed"; the formatter's own is "4,486"


def test_sysbench_1_1_cpu_prints_two_rates_and_the_throughput_one_is_read():
    # "events per second:   114.02" (CPU speed), then "events/s (eps):  114.0161" (Throughput): one run.
    metrics = run_of("sysbench-1.1-cpu-written.txt").metrics
    assert metrics["events_per_s"] == 114.0161 and metrics["printed"]["events_per_s"] == "114.0161"
    assert (metrics["total_events"], metrics["total_time_s"]) == (10000, 87.7069)


def test_oltp_events_per_second_is_the_printed_transactions_rate():
    # "transactions: 29611  (986.49 per sec.)"; 29611 / 30.0145 s would be 986.56.
    metrics = run_of("sysbench-1.0.12-oltp-written.txt").metrics
    assert (metrics["transactions"], metrics["transactions_per_s"]) == (29611, 986.49)
    assert metrics["events_per_s"] == 986.49 and metrics["printed"]["events_per_s"] == "986.49"


def test_fileio_prints_no_events_rate_so_it_is_computed_and_flagged():
    metrics = run_of("sysbench-1.0.20-fileio-rndrw.txt").metrics
    # 19947 events in 1.0113 s; "reads/s: 5215.09", "read, MiB/s: 81.49".
    assert metrics["events_per_s"] == round(19947 / 1.0113, 2) and metrics["events_per_s_computed"] is True
    assert "events_per_s" not in metrics.get("printed", {})
    assert metrics["reads_per_s"] == 5215.09 and metrics["read_bytes_per_s"] == round(81.49 * MiB, 3)

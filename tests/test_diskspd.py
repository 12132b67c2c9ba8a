"""DiskSpd: its text report in the 2.0 and 2.2 wordings, from public outputs
(tests/fixtures/diskspd/README.md says where each comes from)."""

from __future__ import annotations

import pytest

from perfwiki import tools
from perfwiki.extract import extract
from perfwiki.segments import invoked_tool
from perfwiki.tools.diskspd import options
from perfwiki.tools.diskspd import parser as diskspd
from support import FIXTURES

DISKSPD = FIXTURES / "diskspd"
MIB = 2**20


def runs(name: str, text: str | None = None):
    data = (DISKSPD / name).read_bytes() if text is None else text.encode()
    found = extract(f"fixtures/diskspd/{name}", data)
    assert found.problems == []
    return found.runs


def test_mixed_run_sections_percentiles_and_cpu():
    (run,) = runs("vc-2.0.21a-random-70-30-latency.txt")
    total, read, write = (run.metrics[name] for name in ("total", "read", "write"))
    # "total:         146169856 |        35686 |       4.64 |    1189.03 |    0.840 |     129.18 |     1.051"
    assert (total["bytes"], total["ios"], total["iops"]) == (146169856, 35686, 1189.03)
    assert total["bw_bytes_per_s"] == pytest.approx(4.64 * MIB)
    assert (total["lat_mean_ms"], total["iops_stddev"], total["lat_stddev_ms"]) == (0.84, 129.18, 1.051)
    assert (read["iops"], read["lat_mean_ms"]) == (834.98, 0.272)
    assert (write["iops"], write["lat_mean_ms"], write["bw_bytes_per_s"]) == (354.05, 2.179, pytest.approx(1.38 * MIB))
    assert total["threads"] == [
        {
            "thread": 0,
            "bytes": 146169856,
            "ios": 35686,
            "bw_bytes_per_s": pytest.approx(4.64 * MIB),
            "iops": 1189.03,
            "lat_mean_ms": 0.84,
            "iops_stddev": 129.18,
            "lat_stddev_ms": 1.051,
            "file": "diskspd.dat",
            "file_bytes": 1024 * MIB,
        }
    ]
    percentiles = run.metrics["percentiles"]
    assert (percentiles["read"]["min"], percentiles["read"]["50"], percentiles["read"]["99"]) == (0.036, 0.232, 0.877)
    assert (percentiles["write"]["99.9"], percentiles["total"]["99.9999999"]) == (8.378, 35.257)
    assert percentiles["total"]["max"] == 35.257
    assert run.metrics["cpu"] == {"usage_pct": 0.82, "user_pct": 0.1, "kernel_pct": 0.72, "idle_pct": 99.18, "cpus": 4}
    assert (run.metrics["test_time_s"], run.metrics["thread_count"]) == (30.01, 1)
    # No command line: every parameter from "Input parameters:".
    assert run.command is None
    assert {
        key: run.params[key] for key in ("block_bytes", "access", "write_pct", "queue_depth", "threads", "caching")
    } == {
        "block_bytes": 4096,
        "access": "random",
        "write_pct": 30,
        "queue_depth": 1,
        "threads": 1,
        "caching": "-Sh",
    }
    assert (run.params["duration_s"], run.params["warmup_s"], run.params["latency"]) == (30, 15, True)
    assert run.checks == []  # -Sh: the file cache was off


def test_mixed_run_is_a_read_part_and_a_write_part():
    (run,) = runs("vc-2.0.21a-random-70-30-latency.txt")
    tool = tools.get("diskspd")
    assert list(run.fingerprints) == ["read", "write"]
    assert run.fingerprints["write"] == {
        "tool": "diskspd",
        "direction": "write",
        "access": "random",
        "write_pct": 30,
        "bs_bytes": 4096,
        "queue_depth": 1,
        "threads": 1,
        "caching": "-Sh",
    }
    read = {metric.key: metric.read(run, "read") for metric in tool.metrics}
    assert read == {"iops": 834.98, "bw": pytest.approx(3.26 * MIB), "lat_mean": 272_000, "lat_p99": 877_000}
    tables = {table["id"]: table for table in tool.result_tables(run)}
    assert tables["percentiles"]["columns"] == ["Percentile", "Read", "Write", "Total"]
    assert tables["percentiles"]["rows"][0] == ["min", "0.0360 ms", "1.21 ms", "0.0360 ms"]
    assert [row[0] for row in tool.runs_rows(run)] == ["read", "write"]


def test_2_2_report_with_its_command_line_and_a_direction_without_io():
    (run,) = runs("vc-2.2.0-random-write-latency.txt")
    # The program by its full Windows path in "Command Line:".
    assert run.params["caching"] == "-Sh" and run.params["block_bytes"] == 4096  # "block size: 4KiB"
    assert (run.params["queue_depth"], run.params["threads_per_file"], run.params["threads"]) == (3, 160, 800)
    assert run.params["target"] == "D:\\diskspd-test.dat" and run.params["duration_s"] == 900
    assert run.metrics["total"]["iops"] == 2242082.85 and run.metrics["total"]["bw_bytes_per_s"] == pytest.approx(
        8758.14 * MIB
    )
    # Read IO: no I/O, so no latency ("0.000 | ... | N/A"), never a 0.
    assert run.metrics["read"]["ios"] == 0 and "lat_mean_ms" not in run.metrics["read"]
    assert "lat_stddev_ms" not in run.metrics["read"]
    assert list(run.fingerprints) == ["write"]
    assert "read" not in run.metrics["percentiles"] and run.metrics["percentiles"]["write"]["99"] == 12.018
    # Socket | Node | Group | Core | CPU: the average is still the "avg." row.
    assert run.metrics["cpu"]["usage_pct"] == 98.59 and run.metrics["cpu"]["cpus"] == 4
    assert run.source.line_start == 2  # from "Command Line:"


def test_a_pasted_total_table_with_its_typed_command():
    (run,) = runs("issue56-write-total-only.txt")
    assert run.command.startswith("diskspd.exe -b256K")  # after the cmd.exe prompt
    # "MB/s" in DiskSpd before 2.0.18 was MiB/s.
    assert run.metrics["total"]["bw_bytes_per_s"] == pytest.approx(193.35 * MIB)
    assert run.metrics["total"]["threads"][0]["file"] == "#2"
    # -Swu: no software cache, write-through: -Sh.
    assert {
        key: run.params[key] for key in ("block_bytes", "queue_depth", "threads", "write_pct", "access", "caching")
    } == {
        "block_bytes": 262144,
        "queue_depth": 64,
        "threads": 1,
        "write_pct": 100,
        "access": "random",
        "caching": "-Sh",
    }
    assert list(run.fingerprints) == ["total"]  # no Read IO or Write IO table pasted
    assert tools.get("diskspd").id_name(run) == "256k-random-write-qd64"  # what its id is made of


def test_the_file_cache_left_on_is_a_warning():
    # The same run as DiskSpd words a buffered one (-Sb, its default): "using software cache".
    text = (DISKSPD / "vc-2.0.21a-random-70-30-latency.txt").read_text(encoding="utf-8")
    cached = text.replace("software cache disabled", "using software cache").replace(
        "hardware write cache disabled, writethrough on", "using hardware write cache, writethrough off"
    )
    (run,) = runs("cached.txt", cached)
    assert run.params["caching"] == "-Sb"
    assert [(check["id"], check["evidence"], check["line"]) for check in run.checks] == [
        ("diskspd-software-cache", "using software cache", 14)
    ]
    # A command with no -S runs buffered too.
    assert options.command_params(["-b4K", "-r", "file.dat"])["caching"] == "-Sb"
    assert options.command_params(["-b4K", "-Su", "file.dat"])["caching"] == "-Su"
    assert options.command_params(["-b4K", "-h", "file.dat"])["caching"] == "-Sh"


def test_windows_program_names():
    for command in (
        ".\\diskspd.exe -b4K x",
        "C:\\Tools\\diskspd.exe -Sh x",
        '"C:\\Program Files\\DiskSpd\\diskspd.exe" -b8K x',
    ):
        assert invoked_tool(command) == "diskspd"
    # DiskSpd's own "Command Line:" line is output, not a command typed.
    assert invoked_tool("Command Line: diskspd -b4K x") is None


def test_xml_and_unknown_tables_are_problems_at_their_line():
    xml = (
        "C:\\>diskspd.exe -b4K -Rxml x\n<Results>\n   <System>\n"
        "      <ComputerName>pkb</ComputerName>\n   </System>\n</Results>\n"
    )
    found = extract("diskspd.txt", xml.encode())
    assert found.runs == []
    assert [(problem.line, problem.message) for problem in found.problems] == [
        (2, "DiskSpd XML output (-Rxml) is not read: run it with -Rtext (its default) and paste that")
    ]
    odd = "Total IO\nthread |       bytes     |     I/Os     |    GiB/h   |  file\n"
    (report,) = diskspd.parse(odd)
    assert report.problems == [(1, "DiskSpd table column 'GiB/h' not understood: table not read")]
    interrupted = (
        "Results for timespan 1:\nThe test was interrupted before the measurements began. No results are displayed.\n"
    )
    (report,) = diskspd.parse(interrupted)
    assert report.problems[0][0] == 1 and "interrupted" in report.problems[0][1]

"""mbw and ioping: the seed pages' numbers as printed, and live output of Debian's mbw and ioping 1.3."""

from __future__ import annotations

import shutil
import subprocess

import pytest

from perfwiki.extract import extract
from perfwiki.tools.ioping import parser as ioping
from perfwiki.tools.mbw import parser as mbw
from support import FIXTURES, seed_slices

MiB = 2**20


def test_seed_001_mbw_memcpy_averages():
    physical, virtual = seed_slices("001", "mbw").runs
    assert physical.source.path.endswith("/r730-host/mbw.md") and virtual.source.path.endswith("/centos-vm-8c/mbw.md")
    assert physical.command == "./mbw 512" and physical.label == "物理机："
    assert physical.metrics["methods"]["MEMCPY"]["avg_bytes_per_s"] == pytest.approx(7578.348 * MiB, abs=1e-3)
    assert virtual.metrics["methods"]["MEMCPY"]["avg_bytes_per_s"] == pytest.approx(6254.520 * MiB, abs=1e-3)
    memcpy = physical.metrics["methods"]["MEMCPY"]
    assert len(memcpy["runs_bytes_per_s"]) == 10
    assert memcpy["runs_bytes_per_s"][0] == pytest.approx(6429.172 * MiB, abs=1e-3)
    # AVG is mbw's own figure (array size / mean elapsed), not the mean of the ten rates.
    mean_of_rates = sum(memcpy["runs_bytes_per_s"]) / 10
    assert abs(mean_of_rates - memcpy["avg_bytes_per_s"]) > 1 * MiB
    assert physical.metrics["block_bytes"] == 262144 and physical.params["array_mib"] == 512.0


def test_seed_003_ioping_summary_with_a_unit_on_each_field():
    (run,) = seed_slices("003", "ioping").runs
    assert run.command == "ioping /dev/dm-0 -c 10"
    assert run.metrics["lat_ns"] == {"min": 285_000, "avg": 764_000, "max": 1_900_000, "mdev": 554_000}
    assert (run.metrics["requests"], run.metrics["iops"]) == (10, 1300)
    assert run.metrics["bytes_per_s"] == pytest.approx(5.1 * MiB)
    assert len(run.metrics["series"]) == 10 and run.metrics["series"][1]["time_ns"] == 1_300_000
    assert run.params == {"count": 10, "request_bytes": 4096, "target": "/dev/dm-0 (device 62.8 GiB)"}


def test_ioping_0_6_summary_with_one_unit(tmp_path):
    # Synthetic, from the 0.6 format string quoted in the upstream README.
    (report,) = ioping.parse(
        "--- . (ext4 /dev/sda3) ioping statistics ---\n"
        "5 requests completed in 4794.0 ms, 364 iops, 1.4 mb/s\n"
        "min/avg/max/mdev = 0.2/2.8/12.7/5.0 ms\n"
    )
    assert report.metrics["lat_ns"] == {"min": 200_000, "avg": 2_800_000, "max": 12_700_000, "mdev": 5_000_000}
    assert report.metrics["bytes_per_s"] == pytest.approx(1.4 * MiB)


def tool(name: str) -> str:
    path = shutil.which(name)
    if path is None:
        pytest.fail(f"Debian's {name} is not installed: run `make setup-system`")
    return path


def test_live_mbw(tmp_path):
    out = subprocess.run([tool("mbw"), "-n", "3", "16"], capture_output=True, text=True, check=True).stdout
    (report,) = mbw.parse(out)
    assert set(report.metrics["methods"]) == {"MEMCPY", "DUMB", "MCBLOCK"}
    for method in report.metrics["methods"].values():
        assert len(method["runs_bytes_per_s"]) == 3
        assert method["avg_bytes_per_s"] > 100 * MiB  # any machine copies 16 MiB faster than this
    assert report.metrics["array_mib"] == 16.0 and report.metrics["runs"] == 3


def test_live_ioping_text_and_json_agree(tmp_path):
    text = subprocess.run(
        [tool("ioping"), "-c", "5", "-i", "0.05", str(tmp_path)], capture_output=True, text=True, check=True
    ).stdout
    (report,) = ioping.parse(text)
    metrics = report.metrics
    assert metrics["requests"] == 4  # the first of 5 requests is a warm-up, not counted
    assert metrics["generated"]["requests"] == 5
    assert metrics["lat_ns"]["min"] <= metrics["lat_ns"]["avg"] <= metrics["lat_ns"]["max"]
    assert metrics["request_bytes"] == 4096 and len(metrics["series"]) == 5
    assert metrics["series"][0]["notice"] == "warmup"  # printed, but left out of the statistics
    assert "notice" not in metrics["series"][1]
    as_json = subprocess.run(
        [tool("ioping"), "-J", "-c", "5", "-i", "0.05", str(tmp_path)], capture_output=True, text=True, check=True
    ).stdout
    (json_report,) = ioping.parse(as_json)
    assert json_report.format == "json"
    assert json_report.metrics["requests"] == 4
    assert json_report.metrics["lat_ns"]["min"] <= json_report.metrics["lat_ns"]["max"]


def test_a_second_avg_line_for_a_method_is_a_problem_not_an_overwrite():
    # Debian's mbw output (captured), with one more DUMB AVG line pasted after its own.
    text = (FIXTURES / "mbw" / "debian12-mbw.txt").read_text(encoding="utf-8")
    extra = "AVG\tMethod: DUMB\tElapsed: 0.00100\tMiB: 8.00000\tCopy: 8000.000 MiB/s"
    at = text.index("0\tMethod: MCBLOCK")
    (report,) = mbw.parse(text[:at] + extra + "\n" + text[at:])
    assert report.metrics["methods"]["DUMB"]["avg_bytes_per_s"] == pytest.approx(29038.113 * MiB, abs=1e-3)
    (problem,) = report.problems
    assert problem[1] == "a second AVG line for DUMB in one mbw run: the first is kept"
    assert text[:at].count("\n") == problem[0]  # on the pasted line


def test_a_repeated_ioping_summary_line_is_a_problem_not_an_overwrite():
    # Debian's ioping output (captured), with its min/avg/max line pasted twice, the copy altered.
    text = (FIXTURES / "ioping" / "debian12-ioping.txt").read_text(encoding="utf-8")
    line = "min/avg/max/mdev = 178.0 us / 182.9 us / 187.8 us / 4.89 us"
    lines = text.split("\n")
    at = lines.index(line)
    lines.insert(at + 1, line.replace("182.9", "999.9"))
    (report,) = ioping.parse("\n".join(lines))
    assert report.metrics["lat_ns"]["avg"] == 182_900
    assert report.problems == [(at + 1, "a second ioping min/avg/max line in one run: the first is kept")]


def test_mbw_runs_of_one_loop_are_runs_of_their_own():
    # Two `mbw -n 2 -b B 16` runs, each after the loop's "With bandwidth B:" line.
    found = extract("x", (FIXTURES / "mbw" / "mbw-1.2.2-block-sizes.txt").read_bytes())
    assert found.problems == []
    first, second = found.runs
    assert (first.label, second.label) == ("With bandwidth 4096:", "With bandwidth 65536:")
    # "AVG	Method: MCBLOCK	Elapsed: 0.00079	MiB: 16.00000	Copy: 20356.234 MiB/s", then 27397.260.
    assert first.metrics["methods"]["MCBLOCK"]["avg_bytes_per_s"] == pytest.approx(20356.234 * MiB, abs=1e-3)
    assert second.metrics["methods"]["MCBLOCK"]["avg_bytes_per_s"] == pytest.approx(27397.260 * MiB, abs=1e-3)
    assert (first.metrics["block_bytes"], second.metrics["block_bytes"]) == (4096, 65536)
    assert [len(run.metrics["methods"]["MEMCPY"]["runs_bytes_per_s"]) for run in found.runs] == [2, 2]
    # The second run's header is not the first run's last line.
    assert (first.source.line_end, second.source.line_start) == (14, 16)


def test_mbw_avg_lines_alone_split_at_the_loops_headers():
    # `mbw -q ... | grep AVG` per block size: no preamble, so only the header line parts the runs.
    found = extract("x", (FIXTURES / "mbw" / "mbw-1.2.2-block-sizes-avg-only.txt").read_bytes())
    assert found.problems == []  # not "a second AVG line for MEMCPY in one mbw run"
    assert [run.label for run in found.runs] == ["With bandwidth 4096:", "With bandwidth 65536:"]
    assert [run.metrics["methods"]["MEMCPY"]["avg_bytes_per_s"] for run in found.runs] == [
        pytest.approx(5525.816 * MiB, abs=1e-3),
        pytest.approx(5704.100 * MiB, abs=1e-3),
    ]


def test_an_mbw_line_cut_short_is_a_problem_at_its_line():
    # `mbw -n 2 -b 4096 16`, its MEMCPY AVG line cut after "Elapsed: 0.00" as a truncated paste leaves it.
    text = (FIXTURES / "mbw" / "mbw-1.2.2-n2-b4096.txt").read_text(encoding="utf-8")
    whole = "AVG\tMethod: MEMCPY\tElapsed: 0.00294\tMiB: 16.00000\tCopy: 5450.520 MiB/s"
    cut = text.replace(whole, "AVG\tMethod: MEMCPY\tElapsed: 0.00")
    assert cut != text
    found = extract("raw/mbw.txt", cut.encode())
    (problem,) = found.problems
    assert (problem.path, problem.line) == ("raw/mbw.txt", 7)
    assert problem.message == "an mbw line cut short, left out: AVG\tMethod: MEMCPY\tElapsed: 0.00"
    (run,) = found.runs
    memcpy = run.metrics["methods"]["MEMCPY"]
    # What is whole stays: MEMCPY's two iterations, DUMB's and MCBLOCK's averages.
    assert "avg_bytes_per_s" not in memcpy
    assert memcpy["runs_bytes_per_s"] == [
        pytest.approx(5021.971 * MiB, abs=1e-3),
        pytest.approx(5959.032 * MiB, abs=1e-3),
    ]
    assert run.metrics["methods"]["DUMB"]["avg_bytes_per_s"] == pytest.approx(12997.563 * MiB, abs=1e-3)


def test_old_ioping_request_lines_in_bytes_give_the_series():
    # ioping 0.6: "4096 bytes from . (ext4 /dev/sda3): request=4 time=12.7 ms".
    found = extract("x", (FIXTURES / "ioping" / "ioping-0.6-readme-written.txt").read_bytes())
    assert found.problems == []
    (run,) = found.runs
    metrics = run.metrics
    assert [(point["request"], point["time_ns"]) for point in metrics["series"]] == [
        (1, 200_000),
        (2, 200_000),
        (3, 300_000),
        (4, 12_700_000),
        (5, 300_000),
    ]
    assert metrics["request_bytes"] == 4096 and run.params["request_bytes"] == 4096
    # "5 requests completed in 4794.0 ms, 364 iops, 1.4 mb/s"; "min/avg/max/mdev = 0.2/2.8/12.7/5.0 ms"
    assert (metrics["requests"], metrics["iops"], metrics["bytes_per_s"]) == (5, 364, 1.4 * MiB)
    assert metrics["lat_ns"] == {"min": 200_000, "avg": 2_800_000, "max": 12_700_000, "mdev": 5_000_000}

"""Debian's fio 3.33, run here: the same job in text, JSON and terse parses to the same numbers.

Outputs are captured live; tests/fixtures/fio/ keeps captures whose reviewed goldens test_tools.py checks.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from perfwiki.extract import extract
from perfwiki.tools.fio import parser as fio

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "fio"
JOB = """[global]
ioengine=psync
filename={folder}/data
size=16M
runtime=1
time_based
[mixed]
rw=randrw
bs=4k
numjobs=2
"""
TWO_GROUPS = """[global]
ioengine=psync
filename={folder}/data
size=8M
bs=64k
[reader]
rw=read
[writer]
stonewall
rw=write
"""


@pytest.fixture(scope="module")
def run_fio(tmp_path_factory):
    binary = shutil.which("fio")
    if binary is None:
        pytest.fail("Debian's fio is not installed: run `make setup-system` (apt-get install fio)")
    folder = tmp_path_factory.mktemp("fio")

    def run(job: str, *options: str) -> str:
        job_file = folder / "job.fio"
        job_file.write_text(job.format(folder=folder), encoding="utf-8")
        result = subprocess.run([binary, *options, str(job_file)], capture_output=True, text=True, cwd=folder)
        assert result.returncode == 0, result.stderr
        return result.stdout

    return run


def split_formats(combined: str) -> tuple[str, str, str]:
    """(text, json, terse) of one `--output-format=terse,json,normal` stream."""
    lines = combined.split("\n")
    start, end = lines.index("{"), lines.index("}")
    terse = [line for line in lines if re.match(r"^[345];fio-", line)]
    text = [line for i, line in enumerate(lines) if not (start <= i <= end) and line not in terse]
    return "\n".join(text), "\n".join(lines[start : end + 1]), "\n".join(terse)


def only(text: str):
    (report,) = fio.parse(text)
    assert report.problems == [] and report.warnings == []
    return report


@pytest.fixture(scope="module")
def three_formats(run_fio):
    combined = run_fio(JOB, "--output-format=terse,json,normal")
    text, document, terse = split_formats(combined)
    return combined, only(text), only(document), only(terse)


def test_fio_is_the_debian_3_33_build(three_formats):
    _, text, document, terse = three_formats
    assert text.tool_version == document.tool_version == terse.tool_version == "3.33"
    assert (text.format, document.format, terse.format) == ("text", "json", "terse")


def test_randrw_with_two_jobs_and_no_group_reporting(three_formats):
    _, text, document, terse = three_formats
    for report in (text, document, terse):
        assert [job["name"] for job in report.jobs] == ["mixed", "mixed"]
        assert all({"read", "write"} <= set(job) for job in report.jobs)
    assert [job["jobs"] for job in text.jobs] == [1, 1]
    assert len(text.groups) == 1 and {"read", "write"} <= set(text.groups[0])


@pytest.mark.parametrize("job_index", [0, 1])
@pytest.mark.parametrize("direction", ["read", "write"])
def test_text_json_and_terse_agree_within_the_rounding_of_text(three_formats, job_index, direction):
    _, text, document, terse = three_formats
    t, j, s = (report.jobs[job_index][direction] for report in (text, document, terse))
    # Text prints IOPS and bandwidth with 3-4 significant digits ("20.0k", "78.1MiB/s").
    assert t["iops"] == pytest.approx(j["iops"], rel=0.005)
    assert s["iops"] == pytest.approx(j["iops"], abs=1)  # terse truncates to an integer
    assert t["bw_bytes_per_s"] == pytest.approx(j["bw_bytes_per_s"], rel=0.005)
    assert s["bw_bytes_per_s"] == pytest.approx(j["bw_bytes_per_s"], abs=1024)  # terse is in KiB/s
    # Mean clat: text has two decimals in its line's unit, terse six decimals of usec.
    assert t["clat_ns"]["mean"] == pytest.approx(j["clat_ns"]["mean"], abs=10)
    assert s["clat_ns"]["mean"] == pytest.approx(j["clat_ns"]["mean"], abs=1)
    # p99: text rounds up to its header's unit, terse to usec.
    assert 0 <= t["percentiles_ns"]["99.00"] - j["percentiles_ns"]["99.00"] < 1000
    assert abs(s["percentiles_ns"]["99.00"] - j["percentiles_ns"]["99.00"]) < 1000
    assert t["runtime_ms"] == j["runtime_ms"] == s["runtime_ms"]


def test_combined_output_is_one_run_from_the_json(three_formats):
    combined, *_ = three_formats
    found = extract("combined.out", combined.encode())
    assert found.problems == []
    (run,) = found.runs
    assert run.format == "json" and len(run.metrics["jobs"]) == 2


def test_json_plus_is_recognised(run_fio):
    report = only(run_fio(JOB, "--output-format=json+"))
    assert report.format == "json+"
    assert report.jobs[0]["read"]["percentiles_ns"]["99.00"] > 0


def test_terse_version_5_adds_iops_statistics(run_fio):
    report = only(run_fio(JOB, "--output-format=terse", "--terse-version=5"))
    read = report.jobs[0]["read"]
    assert read["iops_samples"]["samples"] >= 1
    assert read["bw_samples"]["samples"] >= 1
    assert "trim" not in report.jobs[0]  # v4+ carry a trim block; no trim was done


def test_two_groups_from_a_job_file(run_fio):
    report = only(run_fio(TWO_GROUPS))
    assert [job["groupid"] for job in report.jobs] == [0, 1]
    assert [group["id"] for group in report.groups] == [0, 1]
    assert "read" in report.groups[0] and "write" in report.groups[1]
    assert report.jobs[0]["read"]["io_bytes"] == 8 * 2**20
    assert [header["name"] for header in report.headers] == ["reader", "writer"]


def test_captured_fixture_values_as_fio_printed_them():
    (run,) = extract("x", (FIXTURES / "fio-3.33-randrw-numjobs2.txt").read_bytes()).runs
    read = run.metrics["jobs"][0]["read"]
    # "  read: IOPS=20.0k, BW=78.1MiB/s (81.9MB/s)(78.2MiB/1001msec)"
    assert (read["iops"], read["bw_bytes_per_s"], read["runtime_ms"]) == (20_000, 78.1 * 2**20, 1001)
    (json_run,) = extract("x", (FIXTURES / "fio-3.33-randrw-numjobs2.json").read_bytes()).runs
    assert json_run.metrics["jobs"][0]["read"]["iops"] == 20005.994006
    assert json_run.params["numjobs"] == 2 and json_run.params["bs_bytes"] == 4096

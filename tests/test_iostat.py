"""iostat: seed 002's samples, the layouts and locales jc gets wrong, and live sysstat 12.6 output."""

from __future__ import annotations

import json
import shutil
import subprocess

import pytest

from perfwiki.tools.iostat import parser as iostat
from support import FIXTURES, seed_slices


def test_seed_002_extended_samples_before_11_5_7():
    found = seed_slices("002")
    runs = [run for run in found.runs if run.tool == "iostat"]
    assert len(runs) == 8 and [p for p in found.problems if "iostat" in p.message] == []
    first = runs[0]
    assert first.source.path.endswith("/nu4-nvme-sfdv0n1/runs.md") and first.source.line_start == 5
    assert (first.label, first.command) == ("测试前的iostat状态", "iostat -d sfdv0n1 sda3 1 -x")
    assert first.metrics["host"] == "nu4d01142.sqa.nu8" and first.metrics["cpus"] == 104
    samples = first.metrics["samples"]
    assert len(samples) == 5 and samples[0]["since_boot"] is True and "since_boot" not in samples[1]
    sda3, nvme = samples[0]["devices"]
    assert sda3 == {
        "name": "sda3",
        "rrqm_per_s": 0.0,
        "wrqm_per_s": 10.67,
        "r_per_s": 1.24,
        "w_per_s": 18.78,
        "read_bytes_per_s": pytest.approx(7.82 * 1024),
        "write_bytes_per_s": pytest.approx(220.69 * 1024),
        "avg_request_bytes": pytest.approx(22.83 * 512),  # avgrq-sz is in sectors
        "queue_size": 0.03,
        "await_ms": 1.64,
        "r_await_ms": 1.39,
        "w_await_ms": 1.66,
        "svctm_ms": 0.08,
        "util_pct": 0.17,
    }
    assert nvme["util_pct"] == 89.52  # already busy before the test: issue 8 flags this
    basic = next(run for run in runs if run.command == "iostat 1")
    assert basic.source.path.endswith("/k28-mysql-nvme/runs.md")
    sda = basic.metrics["samples"][0]["devices"][0]
    assert (sda["tps"], sda["read_bytes_per_s"], sda["write_bytes"]) == (
        49.21,
        pytest.approx(554.51 * 1024),
        5917488 * 1024,
    )
    assert basic.metrics["samples"][0]["cpu"] == {
        "user_pct": 0.14,
        "nice_pct": 0.0,
        "system_pct": 0.13,
        "iowait_pct": 0.05,
        "steal_pct": 0.0,
        "idle_pct": 99.67,
    }


def test_timestamps_and_decimal_commas_that_jc_misreads():
    # Synthetic, in the de_DE format the reference documents (sysstat -t, decimal comma).
    (report,) = iostat.parse(
        "Linux 6.1.0 (vm) \t21.11.2026 \t_x86_64_\t(2 CPU)\n\n"
        "21.11.2026 06:56:40\n"
        "avg-cpu:  %user   %nice %system %iowait  %steal   %idle\n"
        "           1,20    0,00    0,50    9,90    0,00   88,40\n\n"
        "Device            r/s     w/s     rkB/s     wkB/s   %util\n"
        "vda             1,20   10,50      4,80     42,00    9,90\n\n"
        "21.11.2026 06:56:41\n"
        "avg-cpu:  %user   %nice %system %iowait  %steal   %idle\n"
        "           2,00    0,00    1,00    0,00    0,00   97,00\n\n"
        "Device            r/s     w/s     rkB/s     wkB/s   %util\n"
        "vda             0,00    3,00      0,00     12,00    1,10\n"
    )
    first, second = report.metrics["samples"]
    assert first["timestamp"] == "21.11.2026 06:56:40" and second["timestamp"] == "21.11.2026 06:56:41"
    assert [d["name"] for d in first["devices"]] == ["vda"]  # the timestamp is not a device
    assert first["devices"][0]["util_pct"] == 9.9 and first["cpu"]["iowait_pct"] == 9.9
    assert first["devices"][0]["read_bytes_per_s"] == pytest.approx(4.8 * 1024)


def sysstat(*options: str) -> str:
    binary = shutil.which("iostat")
    if binary is None:
        pytest.fail("Debian's sysstat is not installed: run `make setup-system`")
    return subprocess.run([binary, *options], capture_output=True, text=True, check=True, env={"LC_ALL": "C"}).stdout


def test_live_extended_with_timestamps():
    (report,) = iostat.parse(sysstat("-t", "-x", "1", "2"))
    first, second = report.metrics["samples"]
    assert first["since_boot"] is True and "timestamp" in first and "timestamp" in second
    device = first["devices"][0]
    # sysstat 12.6: discard and flush columns, no svctm, request sizes in kB.
    assert {"r_per_s", "w_per_s", "read_bytes_per_s", "f_per_s", "f_await_ms", "queue_size", "util_pct"} <= set(device)
    assert "svctm_ms" not in device
    assert set(first["cpu"]) == {"user_pct", "nice_pct", "system_pct", "iowait_pct", "steal_pct", "idle_pct"}


def test_live_json_matches_text_shape():
    text = sysstat("-x", "1", "1")
    as_json = sysstat("-o", "JSON", "-x", "1", "1")
    json.loads(as_json)
    (from_text,) = iostat.parse(text)
    (from_json,) = iostat.parse(as_json)
    assert from_json.format == "json"
    text_device = from_text.metrics["samples"][0]["devices"][0]
    json_device = from_json.metrics["samples"][0]["devices"][0]
    assert json_device["name"] == text_device["name"]
    assert set(text_device) == set(json_device)
    # The first (since-boot) report is the same in both: values agree to the printed precision.
    for key in ("r_per_s", "w_per_s", "util_pct"):
        assert json_device[key] == pytest.approx(text_device[key], abs=0.02)


def test_a_device_twice_in_one_sample_is_a_problem_not_an_overwrite():
    # sysstat's iostat -x output (captured), with the vda row of its first sample pasted twice.
    text = (FIXTURES / "iostat" / "debian12-iostat.txt").read_text(encoding="utf-8")
    lines = text.split("\n")
    at = next(index for index, line in enumerate(lines) if line.startswith("vda "))
    lines.insert(at + 1, lines[at].replace("565.57", "999.99"))
    (report,) = iostat.parse("\n".join(lines))
    first = report.metrics["samples"][0]["devices"]
    assert [device["name"] for device in first] == ["vda"] and first[0]["r_per_s"] == 565.57
    assert report.problems == [(at + 1, "device vda twice in one iostat sample: the first is kept")]

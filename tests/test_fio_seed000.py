"""Seed 000 (fio-3.1, 12 runs in a markdown page, all in one slice): every run's numbers equal what fio printed."""

from __future__ import annotations

import pytest
import yaml

from perfwiki.extract import assign_ids
from support import SEED_SLICES, extract_slice, golden, read_slice, slice_golden

MiB = 2**20
MS, US, NS = 10**6, 10**3, 1

(SLICE,) = SEED_SLICES["000"]

# Transcribed from the seed: (job name on the command, label, section, rw, bs, iodepth,
# direction, IOPS as printed, BW in MiB/s as printed, clat mean and p99 in the clat/percentile units).
EXPECTED = [
    (
        "sequential_write_bandwidth_test",
        "【1. Sequential Write】",
        "3.1 BandWidth",
        "write",
        MiB,
        4096,
        "write",
        872,
        927,
        4476.22 * MS,
        6946 * MS,
    ),
    (
        "random_write_bandwidth_test",
        "【2. Random Write】",
        "3.1 BandWidth",
        "randwrite",
        MiB,
        4096,
        "write",
        540,
        594,
        6973.32 * MS,
        9194 * MS,
    ),
    (
        "sequential_read_bandwidth_test",
        "【3. Sequential Read】",
        "3.1 BandWidth",
        "read",
        MiB,
        4096,
        "read",
        2309,
        2378,
        1747.75 * MS,
        1821 * MS,
    ),
    (
        "random_read_bandwidth_test",
        "【4. Random Read】",
        "3.1 BandWidth",
        "randread",
        MiB,
        4096,
        "read",
        2310,
        2378,
        1747.02 * MS,
        1804 * MS,
    ),
    (
        "sequential_write_iops_test",
        "【1. Sequential Write】",
        "3.2 IOPS",
        "write",
        4096,
        4096,
        "write",
        188_000,
        736,
        21725.85 * US,
        22938 * US,
    ),
    (
        "random_write_iops_test",
        "【2. Random Write】",
        "3.2 IOPS",
        "randwrite",
        4096,
        4096,
        "write",
        184_000,
        720,
        22219.22 * US,
        23462 * US,
    ),
    (
        "sequential_read_iops_test",
        "【3. Sequential Read】",
        "3.2 IOPS",
        "read",
        4096,
        4096,
        "read",
        196_000,
        767,
        20857.54 * US,
        21103 * US,
    ),
    (
        "random_read_iops_test",
        "【4. Random Read】",
        "3.2 IOPS",
        "randread",
        4096,
        4096,
        "read",
        188_000,
        733,
        21826.15 * US,
        26870 * US,
    ),
    (
        "sequential_write_latency_test",
        "【1. Sequential Write】",
        "3.3 Latency",
        "write",
        4096,
        1,
        "write",
        58_600,
        229,
        13049.72 * NS,
        27520 * NS,
    ),
    (
        "random_write_latency_test",
        "【2. Random Write】",
        "3.3 Latency",
        "randwrite",
        4096,
        1,
        "write",
        53_200,
        208,
        14212.36 * NS,
        42240 * NS,
    ),
    (
        "sequential_read_latency_test",
        "【3. Sequential Read】",
        "3.3 Latency",
        "read",
        4096,
        1,
        "read",
        64_200,
        251,
        11716.87 * NS,
        13888 * NS,
    ),
    (
        "random_read_latency_test",
        "【4. Random Read】",
        "3.3 Latency",
        "randread",
        4096,
        1,
        "read",
        10_000,
        39.2,
        95.15 * US,
        120 * US,
    ),
]


@pytest.fixture(scope="module")
def runs():
    found = extract_slice(SLICE)
    assert found.problems == []
    assign_ids(found.runs)
    return found.runs


def test_finds_exactly_twelve_fio_runs(runs):
    assert len(runs) == 12
    assert {run.tool for run in runs} == {"fio"}
    assert {run.tool_version for run in runs} == {"3.1"}
    assert {run.format for run in runs} == {"text"}


@pytest.mark.parametrize("index", range(12), ids=[row[0] for row in EXPECTED])
def test_run_values_equal_what_fio_printed(runs, index):
    name, label, section, rw, bs, iodepth, direction, iops, bw_mib, clat_mean, p99 = EXPECTED[index]
    run = runs[index]
    assert run.params["name"] == name
    assert run.label == label
    assert run.section == section
    assert run.command.startswith(f"sudo fio --name={name} --filename=/dev/nvme10n1")
    assert (run.params["rw"], run.params["bs_bytes"], run.params["iodepth"]) == (rw, bs, iodepth)
    assert run.params["ioengine"] == "libaio" and run.params["direct"] is True
    assert run.params["runtime_s"] == 60 and run.params["ramp_time_s"] == 2
    job = run.metrics["jobs"][0]
    assert list(k for k in ("read", "write", "trim") if k in job) == [direction]
    metrics = job[direction]
    assert metrics["iops"] == iops
    assert metrics["bw_bytes_per_s"] == pytest.approx(bw_mib * MiB, abs=0.5)
    assert metrics["clat_ns"]["mean"] == pytest.approx(clat_mean, abs=1e-6)
    assert metrics["percentiles_ns"]["99.00"] == p99
    assert metrics["runtime_ms"] > 60_000


def test_acceptance_example_sequential_write_bandwidth(runs):
    write = runs[0].metrics["jobs"][0]["write"]
    assert write["iops"] == 872
    assert write["bw_bytes_per_s"] == 972_029_952
    assert write["clat_ns"]["mean"] == 4_476_220_000
    assert write["io_bytes"] == int(54.5 * 2**30)
    assert write["runtime_ms"] == 60249
    assert write["slat_ns"] == {"min": 124_000, "max": 11_720_000, "mean": 1_139_540, "stdev": 1_007_790}
    assert write["lat_ns"]["max"] == 7_028_000_000
    assert write["bw_samples"]["samples"] == 119 and write["bw_samples"]["per_pct"] == 94.23
    assert write["iops_samples"]["mean"] == 872.80


def test_nanosecond_lines_with_k_suffix(runs):
    # "clat (nsec): min=718, max=6736.0k, avg=13049.72" and "lat (usec): min=11, max=6740"
    write = runs[8].metrics["jobs"][0]["write"]
    assert write["clat_ns"]["max"] == 6_736_000
    assert write["slat_ns"]["min"] == 2580
    assert write["lat_ns"] == {"min": 11_000, "max": 6_740_000, "mean": 16_570, "stdev": 11_880}


def test_latency_buckets_keep_each_lines_unit_and_the_over_100_percent_total(runs):
    buckets = runs[0].metrics["jobs"][0]["lat_buckets"]
    assert buckets[0] == {"le_ns": 250_000_000, "pct": 0.01}
    assert buckets[-1] == {"ge_ns": 2_000_000_000, "pct": 104.16}
    latency = runs[8].metrics["jobs"][0]["lat_buckets"]
    assert latency[:3] == [{"le_ns": 750, "pct": 0.01}, {"le_ns": 1000, "pct": 0.01}, {"le_ns": 2000, "pct": 0.01}]
    assert {"le_ns": 20_000, "pct": 97.41} in latency


def test_cpu_depths_issued_group_and_disk(runs):
    job = runs[0].metrics["jobs"][0]
    assert job["cpu"] == {"usr_pct": 5.27, "sys_pct": 11.27, "ctx": 39050, "majf": 0, "minf": 20}
    assert job["io_depths_pct"][">=64"] == 106.1
    assert job["issued"] == {"total": [0, 52572, 0], "short": [0, 0, 0], "dropped": [0, 0, 0]}
    group = runs[0].metrics["groups"][0]
    assert group["write"]["io_bytes"] == int(54.5 * 2**30)
    assert group["write"]["run_min_ms"] == 60249
    assert runs[0].metrics["disks"] == [
        {
            "name": "nvme10n1",
            "read_ios": 60,
            "write_ios": 446640,
            "read_merge": 0,
            "write_merge": 0,
            "read_ticks": 3,
            "write_ticks": 64519554,
            "in_queue": 64532536,
            "util_pct": 96.82,
        }
    ]
    # The two latency reads at the end of the page have no Disk stats section.
    assert runs[10].metrics["disks"] == [] and runs[11].metrics["disks"] == []


def test_run_without_job_header_line_still_parses(runs):
    # In the seed the random-write IOPS run lost its "(g=0): rw=..." line; params come from the command.
    run = runs[5]
    assert run.params["rw"] == "randwrite" and run.params["bs_bytes"] == 4096
    assert run.metrics["jobs"][0]["write"]["iops"] == 184_000


def test_mismatched_job_name_is_a_warning_not_an_error(runs):
    # The seed pasted outputs whose job name is not the command's --name.
    assert runs[2].warnings[0] == (
        "command names job 'sequential_read_bandwidth_test' but fio printed results for 'write_bandwidth_test'"
    )
    assert not any(w.startswith("command names job") for w in runs[0].warnings)


def test_source_lines_point_at_command_and_last_output_line(runs):
    lines = read_slice(SLICE).decode("utf-8").split("\n")
    first = runs[0].source
    assert lines[first.line_start - 1].startswith("sudo fio --name=sequential_write_bandwidth_test")
    assert lines[first.line_end - 1].strip().startswith("nvme10n1: ios=60/446640")
    assert len(first.sha256) == 64


def test_ids_are_unique_slugs(runs):
    ids = [run.id for run in runs]
    assert len(set(ids)) == 12
    assert ids[0] == "fio-bandwidth-iops-latency-sequential-write-bandwidth-test"  # named for its file


def test_golden(runs, update_goldens):
    document = yaml.safe_dump([run.to_dict() for run in runs], sort_keys=True, allow_unicode=True, width=4096)
    golden(slice_golden(SLICE, "fio"), document, update_goldens)

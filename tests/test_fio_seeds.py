"""Every fio run in the five seed pages (their slices): exact counts, spot values as fio printed them, goldens."""

from __future__ import annotations

import pytest
import yaml

from perfwiki.extract import assign_ids
from support import (
    ALL_SLICES,
    REPORTS,
    captured_here,
    example_raw_files,
    extract_slice,
    golden,
    seed_slices,
    slice_golden,
    slice_tools,
)

KiB, MiB = 2**10, 2**20
WINDOWS_CACHE_NONE = "vm-vs-bare-metal/raw/win2008-vm-cache-none/fio.md"
FIO_RUNS = {"000": 12, "001": 54, "002": 22, "003": 4, "004": 4}


def fio_runs(key):
    found = seed_slices(key)
    runs = [run for run in found.runs if run.tool == "fio"]
    assign_ids(runs)
    return runs, found.problems


def in_slice(run, name: str) -> bool:
    return run.source.path == f"content/reports/{name}"


def test_the_seed_slices_are_every_raw_file_of_the_example_reports():
    # Besides the seed slices, the examples hold only runs captured on the build machine by perfwiki bench.
    raw = sorted(
        str(path.relative_to(REPORTS))
        for path in example_raw_files()
        if path.name != "manual.yaml" and not captured_here(path)
    )
    assert sorted(ALL_SLICES) == raw
    assert len(ALL_SLICES) == len(set(ALL_SLICES))


@pytest.mark.parametrize("key", sorted(FIO_RUNS))
def test_exact_number_of_fio_runs_each_with_version_and_label(key):
    runs, problems = fio_runs(key)
    assert len(runs) == FIO_RUNS[key]
    assert all(run.tool_version for run in runs)
    assert all(run.label for run in runs)
    assert [p for p in problems if "fio" in p.message] == []
    # Nothing inside a fio block is silently dropped.
    assert [w for run in runs for w in run.warnings if w.startswith("line not understood")] == []


def direction(run, name):
    return run.metrics["jobs"][0][name]


def test_seed_001_outputs_pasted_apart_from_their_commands_and_windows_prompts():
    runs, _ = fio_runs("001")
    first = runs[0]
    assert in_slice(first, "vm-vs-bare-metal/raw/r730-host/fio.md")
    assert (first.label, first.tool_version) == ("4KB随机读", "3.7")
    # The page lists its commands once (slice line 10..., page line 205...) and pastes the outputs without them.
    assert first.command == (
        "fio --name=random-read --ioengine=posixaio --rw=randread --bs=4k --size=4g --numjobs=1 "
        "--iodepth=16 --runtime=60 --time_based --direct=1"
    )
    assert first.warnings[0] == "command shown apart from its output, at line 10"
    # posixaio on Linux (the run has fio's disk stats, printed on Linux alone): QD1 whatever iodepth says.
    assert [warning[:40] for warning in first.warnings[1:]] == ["warning: ioengine=posixaio on Linux is g"]
    assert first.source.line_start == 51
    assert runs[4].command.startswith("fio --name=seq-read") and runs[4].params["bs_bytes"] == 2**20
    assert direction(first, "read")["iops"] == 195
    assert direction(first, "read")["bw_bytes_per_s"] == 782 * KiB
    # Its Disk stats were pasted after the next run's comment; they still belong to it.
    assert first.metrics["disks"][0]["read_ios"] == 11821
    assert runs[1].label == "4KB随机写" and runs[1].metrics["disks"][0]["write_ios"] == 454672
    windows = next(run for run in runs if in_slice(run, WINDOWS_CACHE_NONE) and run.source.line_start == 51)
    assert windows.command.startswith("c:\\fio\\fio\\fio --name=random-read --ioengine=windowsaio")
    assert (windows.tool_version, windows.label) == ("3.27", "4KB随机读")
    assert direction(windows, "read")["iops"] == 2811
    assert direction(windows, "read")["bw_bytes_per_s"] == pytest.approx(11.0 * MiB)
    assert windows.metrics["disks"] == []
    assert windows.params["ioengine"] == "windowsaio"
    assert in_slice(runs[31], WINDOWS_CACHE_NONE) and runs[31].label == "4KB随机写"
    assert direction(runs[31], "write")["zone_resets"] == 0


def test_seed_002_fio_2_2_8_and_3_x_with_every_prompt_form():
    runs, _ = fio_runs("002")
    assert all(run.command for run in runs)
    first = runs[0]
    assert in_slice(first, "ssd-cloud-disks-lvm-raid/raw/nu4-nvme-sfdv0n1/runs.md")
    assert direction(first, "write")["iops"] == 18_900
    assert direction(first, "write")["bw_bytes_per_s"] == pytest.approx(74.0 * MiB)
    hygon8 = "ssd-cloud-disks-lvm-raid/raw/hygon8-lvm-2nvme/runs.md"
    old = next(run for run in runs if in_slice(run, hygon8) and run.source.line_end >= 11 >= run.source.line_start)
    assert old.tool_version == "2.2.8"
    assert old.command.startswith("fio  -bs=4k -direct=1 -buffered=0 -thread -rw=randwrite")
    write = direction(old, "write")
    assert (write["iops"], write["bw_bytes_per_s"], write["runtime_ms"]) == (40193, 160775 * KiB, 30001)
    assert write["io_bytes"] == pytest.approx(4710.4 * MiB)
    assert old.params["direct"] is True and old.params["buffered"] is False
    assert {run.tool_version for run in runs} == {"2.2.8", "3.1", "3.7"}


def test_seed_003_fio_2_1_3_with_single_dash_options():
    runs, _ = fio_runs("003")
    assert [run.label for run in runs] == ["测试随机写 IOPS", "测试随机读 IOPS", "测试顺序写 IOPS", "测试顺序读 IOPS"]
    first = runs[0]
    assert first.command.startswith("fio -direct=1 -iodepth=128 -rw=randwrite")
    assert (first.params["iodepth"], first.params["bs_bytes"], first.params["size_bytes"]) == (128, 4096, 2**30)
    write = direction(first, "write")
    assert (write["iops"], write["bw_bytes_per_s"], write["io_bytes"]) == (12068, 48273 * KiB, 2**30)
    assert write["clat_ns"]["mean"] == 10_580_110
    assert write["bw_samples"]["mean"] == pytest.approx(49291.00 * KiB)
    assert first.metrics["jobs"][0]["issued"] == {"total": [0, 262144, 0], "short": [0, 0, 0]}
    assert first.metrics["groups"][0]["write"]["bw_bytes_per_s"] == 48272 * KiB
    assert first.metrics["disks"][0]["name"] == "dm-0"
    assert first.metrics["disks"][0]["aggr"]["write_ios"] == 257024


def test_seed_004_job_file_and_labels_from_the_page():
    runs, _ = fio_runs("004")
    assert [run.label for run in runs] == ["default no cache", "direct sync", "write through", "write back"]
    first = runs[0]
    assert first.command is None
    assert first.params["rwmixread"] == 50 and first.params["runtime_s"] == 60 and first.params["direct"] is True
    assert first.params["bssplit"] == "512/10:1k/5:2k/5:4k/60:8k/2:16k/4:32k/4:64k/10"
    assert direction(first, "read")["iops"] == 2643
    assert direction(first, "write")["iops"] == 2632
    assert direction(first, "read")["bw_bytes_per_s"] == pytest.approx(15.0 * MiB)


@pytest.mark.parametrize("name", [name for name in ALL_SLICES if "fio" in slice_tools(name)])
def test_golden(name, update_goldens):
    runs = [run for run in extract_slice(name).runs if run.tool == "fio"]
    assign_ids(runs)
    document = yaml.safe_dump([run.to_dict() for run in runs], sort_keys=True, allow_unicode=True, width=4096)
    golden(slice_golden(name, "fio"), document, update_goldens)

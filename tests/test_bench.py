"""perfwiki bench: suites render to the seeds' commands, run for real, publish, and refuse what is unsafe."""

from __future__ import annotations

import io
import re
import subprocess
from pathlib import Path

import pytest

from perfwiki.bench import runner
from perfwiki.ingest import load_report
from perfwiki.tools.fio.options import params_from_command
from support import copy_site_sources, hugo_binary, perfwiki_command, seed_slices


def test_nvme_matrix_dry_run_prints_the_twelve_commands_of_seed_000(tmp_path):
    result = subprocess.run(
        perfwiki_command()
        + [
            "bench",
            "nvme-matrix",
            "--dry-run",
            "--env",
            "e",
            "--report",
            "r",
            "--target",
            str(tmp_path),
            "--runtime",
            "30",
        ],
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stderr
    printed = result.stdout.strip().split("\n")
    assert len(printed) == 12
    seed = [run.command for run in seed_slices("000").runs]
    for ours, theirs in zip(printed, seed, strict=True):
        mine, _ = params_from_command(ours)
        original, _ = params_from_command(theirs)
        assert mine["filename"] == str(tmp_path / runner.TARGET_FILE) and mine["runtime_s"] == 30
        for key in (
            "name",
            "rw",
            "bs_bytes",
            "iodepth",
            "ioengine",
            "direct",
            "ramp_time_s",
            "filesize_bytes",
            "time_based",
        ):
            assert mine[key] == original[key], (key, ours)


@pytest.fixture(scope="module")
def smoke_site(tmp_path_factory):
    """The smoke suite run for real, twice, into a copy of the site, then built with Hugo."""
    site = copy_site_sources(tmp_path_factory.mktemp("site"))
    target = tmp_path_factory.mktemp("target")
    result = subprocess.run(
        perfwiki_command()
        + [
            "bench",
            "smoke",
            "--env",
            "bench-box",
            "--report",
            "bench-smoke",
            "--target",
            str(target),
            "--repeat",
            "2",
            "--root",
            str(site),
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr
    out = site / "public-test"
    build = subprocess.run(
        [str(hugo_binary()), "--panicOnWarning", "-d", str(out)], cwd=site, capture_output=True, text=True
    )
    assert build.returncode == 0, build.stdout + build.stderr
    return site, out, result.stderr


def bench_document(site: Path) -> dict:
    return load_report(site, "bench-smoke")


def test_smoke_suite_runs_every_tool_with_plausible_results(smoke_site):
    site, _, log = smoke_site
    runs = bench_document(site)["runs"]
    assert [run["tool"] for run in runs] == ["fio", "ioping", "mbw", "sysbench", "iperf3", "dd"] * 2
    first = {run["tool"]: run for run in runs[:6]}
    assert first["fio"]["format"] == "json" and first["fio"]["metrics"]["jobs"][0]["read"]["iops"] > 100
    assert 0 < first["ioping"]["metrics"]["lat_ns"]["avg"] < 1e9
    assert first["mbw"]["metrics"]["methods"]["MEMCPY"]["avg_bytes_per_s"] > 100 * 2**20
    assert first["sysbench"]["metrics"]["events_per_s"] > 10
    assert first["iperf3"]["metrics"]["sender"]["bits_per_s"] > 1e8  # loopback
    assert first["dd"]["metrics"]["bytes"] == 16 * 2**20 and set(first["dd"]["metrics"]["time"]) == {
        "real_s",
        "user_s",
        "sys_s",
    }
    assert all(run["reproduce"].startswith("perfwiki bench smoke --env bench-box --report bench-smoke") for run in runs)
    assert "ingested" in log and "facts added to content/environments/bench-box.md" in log


def test_repeats_are_medians_with_ranges(smoke_site):
    site, _, _ = smoke_site
    files = sorted((site / "content" / "reports" / "bench-smoke" / "raw" / "bench-box").glob("smoke-*.txt"))
    assert len(files) == 2
    comparison = next(c for c in bench_document(site)["comparisons"] if c["id"] == "sysbench-events")
    cell = comparison["rows"][0]["cells"][0]
    assert cell["n"] == 2 and cell["min"] <= cell["value"] <= cell["max"]


def test_facts_captured_here_are_on_the_environment_page(smoke_site):
    site, out, _ = smoke_site
    uname = subprocess.run(["uname", "-r"], capture_output=True, text=True).stdout.strip()
    page = (out / "environments" / "bench-box" / "index.html").read_text(encoding="utf-8")
    assert uname in page and "mount_options" in page
    run_page = next((out / "runs" / "bench-smoke").glob("*-sysbench-cpu/index.html")).read_text(encoding="utf-8")
    shown = re.sub(r"<[^>]+>", "", run_page)  # the text a reader sees (each word of a command is a span)
    assert "perfwiki bench smoke --env bench-box --report bench-smoke" in shown
    assert 'id="reproduce"' in run_page


def smoke_plan(tmp_path: Path, **overrides) -> runner.Plan:
    return runner.plan("smoke", str(tmp_path), overrides, tmp_path)


def test_a_block_device_target_needs_allow_destructive_and_a_typed_yes(tmp_path, monkeypatch):
    monkeypatch.setattr(runner.stat, "S_ISBLK", lambda mode: True)  # pretend the target is a disk
    the_plan = smoke_plan(tmp_path)
    Path(the_plan.target).write_bytes(b"")
    with pytest.raises(runner.BenchError, match="block device: writing to it destroys its data"):
        runner.check_target(the_plan, allow_destructive=False, confirm=lambda prompt: "", out=io.StringIO())
    with pytest.raises(runner.BenchError, match="not confirmed"):
        runner.check_target(the_plan, allow_destructive=True, confirm=lambda prompt: "yes", out=io.StringIO())
    runner.check_target(the_plan, allow_destructive=True, confirm=lambda prompt: the_plan.target, out=io.StringIO())


def test_too_little_free_space_is_refused(tmp_path):
    huge = smoke_plan(tmp_path, size="900T")
    with pytest.raises(runner.BenchError, match="free, the suite needs about"):
        runner.check_target(huge, allow_destructive=False, confirm=None, out=io.StringIO())


def test_an_interrupted_suite_leaves_no_partial_raw_file(tmp_path, monkeypatch):
    calls = []

    def interrupt(step, cwd):
        calls.append(step.label)
        if len(calls) == 2:
            raise KeyboardInterrupt
        return "output\n"

    monkeypatch.setattr(runner, "_run_step", interrupt)
    raw = tmp_path / "raw"
    with pytest.raises(KeyboardInterrupt):
        runner.run(smoke_plan(tmp_path), raw, "perfwiki bench smoke", 1, io.StringIO())
    assert list(raw.iterdir()) == []


def test_a_queue_depth_sweep_on_one_environment_is_drawn_as_a_sweep(tmp_path):
    """fio for real at queue depths 1, 4, 16 and 64: the report shows IOPS and latency against queue depth."""
    (tmp_path / "site").mkdir()
    site = copy_site_sources(tmp_path / "site")
    target = tmp_path / "target"
    target.mkdir()
    command = ["bench", "qd-sweep", "--env", "sweep-box", "--report", "sweep", "--target", str(target)]
    command += ["--runtime", "1", "--size", "32M", "--root", str(site)]
    result = subprocess.run(perfwiki_command() + command, capture_output=True, text=True, timeout=300)
    if result.returncode != 0 and "direct" in result.stderr.lower() and "invalid argument" in result.stderr.lower():
        pytest.skip(f"this file system refuses O_DIRECT, which the sweep uses: {result.stderr.strip()[-200:]}")
    assert result.returncode == 0, result.stderr
    (block,) = load_report(site, "sweep")["views"]["blocks"]
    assert block["kind"] == "profile"
    by_title = {panel["title"]: panel["plot"] for panel in block["panels"]}
    assert set(by_title) == {"fio IOPS", "fio Bandwidth", "fio Mean completion latency", "fio p99 completion latency"}
    for line in by_title.values():
        assert line["kind"] == "sweep" and line["labels"] == ["1", "4", "16", "64"]  # in queue-depth order
        assert all(value > 0 for value in line["series"][0]["values"]) and len(line["series"][0]["values"]) == 4

"""perfwiki bench: suites render to the seeds' commands, run for real, publish, and refuse what is unsafe."""

from __future__ import annotations

import io
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from perfwiki.bench import frontmatter, runner
from perfwiki.content import read_front_matter
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


def test_the_hypervisor_fact_is_the_vm_s_and_a_container_is_a_fact_of_its_own():
    """Plain systemd-detect-virt names the innermost layer: in a Docker container on a KVM guest (this
    machine) it says "docker", once published as the hypervisor. Asked apart, each is itself."""
    if shutil.which("systemd-detect-virt") is None:
        pytest.skip("no systemd-detect-virt here: bench records no hypervisor")
    asked = {
        flag: subprocess.run(["systemd-detect-virt", flag], capture_output=True, text=True).stdout.strip()
        for flag in ("--vm", "--container")
    }
    found = runner._virtualisation()
    assert found["hypervisor"] == ("none (bare metal)" if asked["--vm"] == "none" else asked["--vm"])
    assert found.get("container") == (None if asked["--container"] == "none" else asked["--container"])
    assert found["hypervisor"] not in ("docker", "podman", "lxc", "lxc-libvirt", "systemd-nspawn", "rkt", "wsl")


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


# -- the author's files: a suite of one's own, the report and the environment page kept ----------

CUSTOM_SUITE = """\
# A suite of one's own, in the format of bench/suites/*.yaml.
description: "memory and cpu, a second each"
defaults: {runtime: 1}
steps:
  - {label: "mbw small", tool: mbw, seconds: "1", command: "mbw -n 2 8"}
  - {label: "sysbench cpu", tool: sysbench, seconds: "{{ runtime }}", command: "sysbench cpu --time={{ runtime }} run"}
"""
HAND_WRITTEN_ENV = """\
---
title: The lab box
kind: baremetal
# Written by hand: bench must not lose this comment, the title or the rack.
facts:
  cpu: "typed by hand, wrong"  # to be corrected only when asked
  rack: "B7"
---
Notes on the lab box.
"""
HAND_WRITTEN_REPORT = """\
---
title: Memory, by hand
date: 2026-11-20
summary: >-
  Memory bandwidth of the lab box.
# the order pages show
environments: []
tags: [mbw]
---
Text the author wrote.
"""


def bench(site: Path, *words: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        perfwiki_command() + ["bench", *words, "--root", str(site)],
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,  # not a terminal: bench may not ask
        timeout=300,
    )


@pytest.fixture
def authored_site(tmp_path):
    from test_scaffold import small_site

    site = small_site(tmp_path / "site")
    (site / "content" / "environments" / "lab-box.md").write_text(HAND_WRITTEN_ENV, encoding="utf-8")
    report = site / "content" / "reports" / "mem"
    report.mkdir()
    (report / "index.md").write_text(HAND_WRITTEN_REPORT, encoding="utf-8")
    suite = tmp_path / "my-suite.yaml"
    suite.write_text(CUSTOM_SUITE, encoding="utf-8")
    return site, suite


def test_a_suite_file_runs_and_the_authors_files_are_added_to_never_rewritten(authored_site):
    site, suite = authored_site
    env_page = site / "content" / "environments" / "lab-box.md"
    index = site / "content" / "reports" / "mem" / "index.md"
    done = bench(site, "--suite-file", str(suite), "--env", "lab-box", "--report", "mem")
    assert done.returncode == 0, done.stderr
    runs = load_report(site, "mem")["runs"]
    assert [run["tool"] for run in runs] == ["mbw", "sysbench"]
    assert all(run["reproduce"] == f"perfwiki bench --suite-file {suite} --env lab-box --report mem" for run in runs)
    assert [path.name[: len("my-suite-")] for path in (index.parent / "raw" / "lab-box").iterdir()] == ["my-suite-"]
    # The report: the environment added to its list, every other line as the author wrote it.
    assert index.read_text(encoding="utf-8") == HAND_WRITTEN_REPORT.replace(
        "environments: []", "environments: [lab-box]"
    )
    assert "added lab-box to the environments: of content/reports/mem/index.md" in done.stderr
    # The environment page: not a byte changed, the differences shown, and why it was left.
    assert env_page.read_text(encoding="utf-8") == HAND_WRITTEN_ENV
    kernel = subprocess.run(["uname", "-r"], capture_output=True, text=True).stdout.strip()
    assert "content/environments/lab-box.md: the facts gathered here differ from the page's:" in done.stderr
    assert "  cpu: 'typed by hand, wrong' -> '" in done.stderr
    assert f"  kernel: (not on the page) -> '{kernel}'" in done.stderr
    assert "left content/environments/lab-box.md as it is; `--update-facts` writes" in done.stderr

    again = bench(site, "--suite-file", str(suite), "--env", "lab-box", "--report", "mem", "--update-facts")
    assert again.returncode == 0, again.stderr
    assert index.read_text(encoding="utf-8").count("lab-box") == 1  # listed once
    text = env_page.read_text(encoding="utf-8")
    front = read_front_matter(env_page)
    assert front["facts"]["kernel"] == kernel and front["facts"]["rack"] == "B7" and front["title"] == "The lab box"
    assert front["facts"]["cpu"] != "typed by hand, wrong"
    assert text.startswith(HAND_WRITTEN_ENV.split("  cpu:")[0])  # title, kind, the comment: as written
    assert text.endswith(
        '  rack: "B7"\n'
        + "\n".join(f"  {k}: {json_string(v)}" for k, v in added(front))
        + "\n---\nNotes on the lab box.\n"
    )
    assert "facts updated in content/environments/lab-box.md: " in again.stderr


def json_string(value: str) -> str:
    import json

    return json.dumps(value, ensure_ascii=False)


def added(front: dict) -> list[tuple[str, str]]:
    """The facts bench appended below the hand-written ones, in the order it wrote them (sorted)."""
    return sorted((key, value) for key, value in front["facts"].items() if key not in ("cpu", "rack"))


def test_on_a_terminal_bench_asks_before_writing_facts(tmp_path):
    page = tmp_path / "box.md"
    page.write_text(HAND_WRITTEN_ENV, encoding="utf-8")
    asked, log = [], io.StringIO()
    said = runner.record_facts(page, "box", {"cpu": "Xeon"}, False, lambda q: asked.append(q) or False, log)
    assert asked == ["Write these facts into content/environments/box.md? [y/N] "]
    assert page.read_text(encoding="utf-8") == HAND_WRITTEN_ENV and said.startswith("left content/environments/box.md")
    assert "  cpu: 'typed by hand, wrong' -> 'Xeon'" in log.getvalue()
    said = runner.record_facts(page, "box", {"cpu": "Xeon"}, False, lambda q: True, io.StringIO())
    assert said == "facts updated in content/environments/box.md: cpu"
    assert page.read_text(encoding="utf-8") == HAND_WRITTEN_ENV.replace(
        '"typed by hand, wrong"  # to be corrected only when asked', '"Xeon"'
    )
    # The same facts again: nothing differs, nothing is shown or asked.
    assert runner.record_facts(page, "box", {"cpu": "Xeon"}, False, lambda q: pytest.fail(q), io.StringIO()) == ""


def test_an_environment_page_that_cannot_be_read_is_left_as_it_is_and_said_at_its_line(tmp_path):
    page = tmp_path / "box.md"
    broken = "---\ntitle: box\nfacts: [cpu: Xeon\n---\n"
    page.write_text(broken, encoding="utf-8")
    said = runner.record_facts(page, "box", {"cpu": "Xeon"}, True, None, io.StringIO())
    assert said.startswith("content/environments/box.md:4: its front matter cannot be read (")
    assert said.endswith("); the facts gathered here were not written")
    assert page.read_text(encoding="utf-8") == broken


def test_a_missing_report_is_made_from_the_scaffold_listing_the_environment(tmp_path):
    index = tmp_path / "new-one" / "index.md"
    assert (
        runner.ensure_report(index, "box") == "created content/reports/new-one/index.md (fill in its title and summary)"
    )
    front = read_front_matter(index)
    assert front["environments"] == ["box"] and front["title"] == "new-one"
    assert "# baseline:" in index.read_text(encoding="utf-8")
    assert runner.ensure_report(index, "box") == ""


@pytest.mark.parametrize(
    ("before", "after"),
    [
        ("environments: [a, b]  # order\n", "environments: [a, b, box]  # order\n"),
        ("environments:\n  - a\n  - b\ntags: [x]\n", "environments:\n  - a\n  - b\n  - box\ntags: [x]\n"),
        ("environments:\n- a\n", "environments:\n- a\n- box\n"),
        ("environments: a\n", "environments: [a, box]\n"),
        ("tags: [x]\n", "tags: [x]\nenvironments: [box]\n"),
    ],
)
def test_the_environment_is_added_to_any_form_of_the_list(before, after):
    text = f"---\ntitle: t\n{before}---\nbody\n"
    assert frontmatter.add_environment(text, "box") == f"---\ntitle: t\n{after}---\nbody\n"


def test_front_matter_bench_cannot_edit_is_left_alone_with_a_reason(tmp_path):
    with pytest.raises(frontmatter.FrontMatterError, match="not a list"):
        frontmatter.add_environment("---\nenvironments: {a: 1}\n---\n", "box")
    with pytest.raises(frontmatter.FrontMatterError, match="line 3: its front matter is not valid YAML"):
        frontmatter.add_environment("---\ntitle: t\nenvironments: [a\n---\n", "box")
    index = tmp_path / "r" / "index.md"
    index.parent.mkdir()
    index.write_text("no front matter\n", encoding="utf-8")
    assert runner.ensure_report(index, "box") == (
        "content/reports/r/index.md: no front matter (a first line ---); add box to its environments: by hand"
    )
    assert index.read_text(encoding="utf-8") == "no front matter\n"


def test_a_broken_suite_file_is_refused_with_its_line(authored_site, tmp_path):
    site, _ = authored_site
    broken = tmp_path / "broken.yaml"
    broken.write_text("steps:\n  - {label: x, tool: mbw, command: 'mbw 8'\n", encoding="utf-8")
    done = bench(site, "--suite-file", str(broken), "--env", "lab-box", "--report", "mem")
    assert done.returncode == 2 and f"perfwiki bench: {broken}:3: not valid YAML" in done.stderr
    empty = tmp_path / "empty.yaml"
    empty.write_text("description: nothing\n", encoding="utf-8")
    done = bench(site, "--suite-file", str(empty), "--env", "lab-box", "--report", "mem")
    assert done.returncode == 2 and f"{empty}:1: a suite is a mapping with `steps:`" in done.stderr
    both = bench(site, "smoke", "--suite-file", str(empty), "--env", "lab-box", "--report", "mem")
    assert both.returncode == 2 and "give a suite name or --suite-file FILE (one of them)" in both.stderr
    assert not (site / "content" / "reports" / "mem" / "raw").exists()  # nothing ran, nothing written


def test_at_a_terminal_a_yes_writes_the_facts(authored_site):
    """stdin a real terminal (a pty): bench shows the differences, asks, and a typed "y" writes them."""
    site, suite = authored_site
    controller, terminal = os.openpty()
    try:
        process = subprocess.Popen(
            perfwiki_command()
            + ["bench", "--suite-file", str(suite), "--env", "lab-box", "--report", "mem"]
            + ["--root", str(site)],
            stdin=terminal,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        os.write(controller, b"y\n")  # waits in the terminal until bench reads its answer
        out, err = process.communicate(timeout=300)
    finally:
        os.close(terminal)
        os.close(controller)
    assert process.returncode == 0, err
    assert "Write these facts into content/environments/lab-box.md? [y/N] " in out
    assert "facts updated in content/environments/lab-box.md: " in err
    front = read_front_matter(site / "content" / "environments" / "lab-box.md")
    assert front["facts"]["cpu"] != "typed by hand, wrong" and front["facts"]["rack"] == "B7"


def test_the_network_suite_pairs_a_ping_with_the_load_it_ran_beside(tmp_path):
    # Real iperf3, iperf2 and ping on loopback, servers started by bench; ping -D runs during iperf3 -J.
    from test_scaffold import small_site

    site = small_site(tmp_path / "site")
    done = bench(site, "network", "--env", "lo-box", "--report", "net", "--runtime", "3")
    assert done.returncode == 0, done.stderr
    (transcript,) = (site / "content" / "reports" / "net" / "raw" / "lo-box").glob("network-*.txt")
    text = transcript.read_text(encoding="utf-8")
    # The ping that ran alongside comes first, each output after its own command line.
    ping_at, load_at = text.index("$ ping -D -i 0.2 -w 7 127.0.0.1"), text.index(" -t 3 -J\n")
    assert ping_at < load_at and "# iperf3 UDP, 500Mbit/s offered" in text
    runs = load_report(site, "net")["runs"]
    assert [run["tool"] for run in runs] == ["iperf3", "iperf3", "iperf3", "iperf2", "ping", "ping", "iperf3"]
    idle, loaded, load = runs[4], runs[5], runs[6]
    assert idle["params"].get("load") is None and "under_load" not in idle["metrics"]
    assert loaded["params"]["load"] == "iperf3 TCP, 1 stream"
    under = loaded["metrics"]["under_load"]
    # 7 s of replies every 0.2 s: about 2 s of them surely during the 3 s load, about 2 s surely idle.
    assert under["replies_loaded"] >= 5 and under["replies_idle"] >= 5
    assert under["replies_loaded"] + under["replies_idle"] <= loaded["metrics"]["packets_received"]
    assert 2.0 <= under["start_s"] < under["end_s"] <= 6.0
    assert [row["bits_per_s"] for row in under["intervals"]] == [
        row["bits_per_s"] for row in load["metrics"]["intervals"]
    ]
    assert load["metrics"]["start_epoch_s"] <= loaded["metrics"]["replies"][0]["epoch_s"] + 3
    assert runs[3]["metrics"]["sender"]["bits_per_s"] > 1e8  # iperf2 against its own loopback server
    assert runs[2]["metrics"]["mode"] == "udp" and runs[2]["metrics"]["packets"] > 0
    # The facts of the interface the path leaves by: loopback here.
    facts = read_front_matter(site / "content" / "environments" / "lo-box.md")["facts"]
    assert facts["nic"] == "lo (loopback)" and facts["mtu"] == "65536"
    sysctl = subprocess.run(["sysctl", "-n", "net.ipv4.tcp_congestion_control"], capture_output=True, text=True)
    assert facts["tcp_congestion"] == sysctl.stdout.strip()

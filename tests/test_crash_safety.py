"""Ingest killed at any moment, or out of disk space: the site is the one before or the one after,
whole, and the next ingest publishes exactly what a clean ingest does.

Every kill is a SIGKILL of `perfwiki ingest` itself (no handler, no finally runs): at named steps
(`PERFWIKI_CRASH_AT=<step>:<n>`, publish.crash_point) in one process, and at random times in a
process with its workers. Between the kill and the next ingest, the published trees must be
exactly those of one of the two states (what a reader, Hugo, sees); after it, those of a clean
ingest of the new state, with nothing left over.
"""

from __future__ import annotations

import hashlib
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from support import copy_site_sources, perfwiki_command

REPORT = "nvme-raw-vs-ext4"  # 24 runs, two raw files: small enough to ingest forty times in a test
PLACES = ("data", "site/static/runs", "site/static/reports")
# The exports tree has no link of its own: Hugo's templates read it in the current generation.
EXPORTS = ".perfwiki-publish/current/exports"
RAW = Path("content/reports") / REPORT / "raw"
FIO, MANUAL = "nvme-raw/fio-bandwidth-iops-latency.md", "nvme-ext4/manual.yaml"


def small_site(folder: Path) -> Path:
    """The example site with one report (and the environment pages it names)."""
    site = copy_site_sources(folder)
    for report in (site / "content" / "reports").iterdir():
        if report.is_dir() and report.name != REPORT:
            shutil.rmtree(report)
    return site


STATES = ("A", "B", "C")


def to_state(site: Path, state: str, originals: dict[str, bytes]) -> None:
    """State "A" is the report as written; "B" has its fio transcript edited and a raw file added, which
    "C" has not (so it is removed going there), and its manual numbers' file edited."""
    fio, manual, added = site / RAW / FIO, site / RAW / MANUAL, site / RAW / "nvme-raw" / "fio-repeat.md"
    fio.write_bytes(originals[FIO] + (b"\n<!-- edited: state B -->\n" if state == "B" else b""))
    manual.write_bytes(originals[MANUAL] + (b"\n# edited: state C\n" if state == "C" else b""))
    if state == "B":
        added.write_bytes(originals[FIO])  # the same runs again, as a second transcript of them
    else:
        added.unlink(missing_ok=True)


def following(state: str) -> str:
    """The states in turn, so that each publication changes the site and replaces a generation."""
    return STATES[(STATES.index(state) + 1) % len(STATES)]


def published(site: Path) -> dict[str, str]:
    """path -> sha256 of every file of the published trees, as a reader sees them."""
    found = {}
    for place in (*PLACES, EXPORTS):
        root = site / place
        for path in sorted(root.rglob("*")) if root.exists() else []:
            if path.is_file():
                found[f"{place}/{path.relative_to(root).as_posix()}"] = hashlib.sha256(path.read_bytes()).hexdigest()
    return found


def ingest(site: Path, crash_at: str | None = None, jobs: str = "1") -> subprocess.CompletedProcess[str]:
    env = {key: value for key, value in os.environ.items() if key != "PERFWIKI_CRASH_AT"}
    if crash_at:
        env["PERFWIKI_CRASH_AT"] = crash_at
    return subprocess.run(
        perfwiki_command() + ["ingest", "--root", str(site), "--jobs", jobs], capture_output=True, text=True, env=env
    )


def leftovers(site: Path) -> list[str]:
    """Anything of a publication that is neither the current generation, the one it replaced, nor a link to it."""
    found = [path.name for path in site.iterdir() if path.name.endswith((".new", ".old", ".link"))]
    found += [path.name for path in (site / "site" / "static").iterdir() if path.name.endswith(".link")]
    publishing = site / ".perfwiki-publish"
    current = (publishing / "current").readlink().name
    replaced = json.loads((publishing / current / "manifest.json").read_text())["replaces"]
    found += [path.name for path in publishing.iterdir() if path.name not in {"current", current, replaced}]
    if not all((site / place).is_symlink() for place in PLACES):
        found.append("a published tree that is not a link into the current generation")
    return found


@pytest.fixture(scope="module")
def states(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict[str, str]]:
    """The published trees of a clean ingest of each state, each in a site of its own."""
    expected = {}
    for state in STATES:
        site = small_site(tmp_path_factory.mktemp(f"clean-{state}"))
        originals = {name: (site / RAW / name).read_bytes() for name in (FIO, MANUAL)}
        to_state(site, state, originals)
        done = ingest(site)
        assert done.returncode == 0, done.stderr
        expected[state] = published(site)
    assert len({tuple(sorted(files.items())) for files in expected.values()}) == 3 and len(expected["B"]) > 10
    return expected


# Every step of a publication, in order (publish.crash_point): n is the how-many-th time it is reached.
# `recycling` is the generation before the current one taken over (its manifest gone, not yet renamed),
# `recycled` the same with what differs taken out; `staged` is each file put into the new generation;
# `published` each of the three links. Each publication here takes the generation before over, so
# none removes an older one (`pruned`: test_a_generation_that_cannot_be_taken_over_is_made_anew).
KILL_POINTS = [
    "started:1",
    "recycling:1",
    "recycled:1",
    "staged:1",
    "staged:7",
    "staged:40",
    "staged:55",
    "manifest:1",
    "linked:1",
    "committed:1",
    "published:1",
    "published:3",
    "done:1",
]


def test_ingest_killed_at_every_step_is_recovered_by_the_next(tmp_path, states):
    site = small_site(tmp_path)
    originals = {name: (site / RAW / name).read_bytes() for name in (FIO, MANUAL)}
    assert ingest(site).returncode == 0
    assert published(site) == states["A"]
    state = "A"
    reached = []
    for point in KILL_POINTS:
        # From state to state: each kill interrupts a publication that changes the site.
        before, state = state, following(state)
        to_state(site, state, originals)
        killed = ingest(site, crash_at=point)
        assert killed.returncode == -signal.SIGKILL, (point, killed.returncode, killed.stderr)
        # What a reader sees now: one whole site, the one before or the one after, never a mix.
        seen = published(site)
        assert seen in (states[before], states[state]), point
        reached.append((point, "after" if seen == states[state] else "before"))
        done = ingest(site)
        assert done.returncode == 0, (point, done.stderr)
        assert published(site) == states[state], point
        assert leftovers(site) == [], point
    # The kill points are on both sides of the commit: the site was the old one up to the rename, the new one after.
    assert [side for point, side in reached] == ["before"] * 9 + ["after"] * 4


def test_a_second_kill_during_recovery_is_recovered_too(tmp_path, states):
    site = small_site(tmp_path)
    originals = {name: (site / RAW / name).read_bytes() for name in (FIO, MANUAL)}
    assert ingest(site).returncode == 0
    to_state(site, "B", originals)
    assert ingest(site, crash_at="staged:20").returncode == -signal.SIGKILL
    assert len(list((site / ".perfwiki-publish").iterdir())) == 3  # current, its generation, the half one
    # Killed again while removing what the first kill left.
    assert ingest(site, crash_at="recovered:1").returncode == -signal.SIGKILL
    assert published(site) == states["A"]
    assert ingest(site).returncode == 0
    assert published(site) == states["B"] and leftovers(site) == []


def test_ingest_killed_at_random_times_with_its_workers(tmp_path, states):
    site = small_site(tmp_path)
    originals = {name: (site / RAW / name).read_bytes() for name in (FIO, MANUAL)}
    assert ingest(site, jobs="2").returncode == 0
    chance = random.Random(30)  # the same times on every run of the test
    state = "A"
    for _ in range(4):
        before, state = state, following(state)
        to_state(site, state, originals)
        # Its own process group, so the kill takes the workers too, as a kill of `make serve` would.
        process = subprocess.Popen(
            perfwiki_command() + ["ingest", "--root", str(site), "--jobs", "2"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
        time.sleep(chance.uniform(0.05, 1.0))
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()
        assert published(site) in (states[before], states[state])
        done = ingest(site, jobs="2")
        assert done.returncode == 0, done.stderr
        assert published(site) == states[state] and leftovers(site) == []


# A full disk at the n-th file written: `perfwiki ingest` with write(2) failing as it does then.
FULL_DISK = """
import errno, sys
import perfwiki.files as files
from perfwiki.cli import main

written = 0
real = files._write_file

def full(path, data, flags=files._REPLACED):
    global written
    written += 1
    if written >= {n}:
        raise OSError(errno.ENOSPC, "No space left on device")  # as write(2) says it: no file named
    return real(path, data, flags)

files._write_file = full
sys.exit(main(["ingest", "--root", sys.argv[1], "--jobs", "1"]))
"""


@pytest.mark.parametrize("n", [1, 30])
def test_a_full_disk_says_so_and_leaves_the_site_as_it_was(tmp_path, states, n):
    site = small_site(tmp_path)
    originals = {name: (site / RAW / name).read_bytes() for name in (FIO, MANUAL)}
    assert ingest(site).returncode == 0
    to_state(site, "B", originals)
    full = subprocess.run(
        [sys.executable, "-c", FULL_DISK.format(n=n), str(site)], capture_output=True, text=True, cwd=tmp_path
    )
    assert full.returncode == 2
    assert "Traceback" not in full.stderr
    (line,) = full.stderr.strip().split("\n")
    assert line.startswith(f"perfwiki ingest: no space left on device while writing {site}/")
    assert line.endswith("; the site published before is unchanged")
    assert published(site) == states["A"] and leftovers(site) == []
    assert ingest(site).returncode == 0  # space again: the change is published
    assert published(site) == states["B"] and leftovers(site) == []


def test_a_real_full_disk(tmp_path, states):
    """The same on a file system that is really full: a 6 MiB tmpfs (root only; skipped elsewhere)."""
    disk = tmp_path / "disk"
    disk.mkdir()
    if os.geteuid() != 0 or subprocess.run(["mount", "-t", "tmpfs", "-o", "size=6m", "tmpfs", str(disk)]).returncode:
        pytest.skip("mounting a tmpfs needs root")
    try:
        (disk / "site").mkdir()
        site = small_site(disk / "site")
        originals = {name: (site / RAW / name).read_bytes() for name in (FIO, MANUAL)}
        assert ingest(site).returncode == 0
        to_state(site, "B", originals)
        free = os.statvfs(disk)
        (disk / "filler").write_bytes(bytes(free.f_bavail * free.f_frsize - 150 * 1024))  # 150 KiB left
        full = ingest(site)
        assert full.returncode == 2 and "Traceback" not in full.stderr
        assert full.stderr.startswith(f"perfwiki ingest: no space left on device while writing {site}/")
        assert full.stderr.rstrip().endswith("; the site published before is unchanged")
        assert published(site) == states["A"] and leftovers(site) == []
        (disk / "filler").unlink()
        assert ingest(site).returncode == 0
        assert published(site) == states["B"] and leftovers(site) == []
    finally:
        subprocess.run(["umount", "-l", str(disk)], check=True)


def test_what_a_kill_left_is_removed_even_when_nothing_is_published(tmp_path, states):
    """Killed half-way to B, then the change undone: the next ingest publishes nothing, and cleans up all the same."""
    site = small_site(tmp_path)
    originals = {name: (site / RAW / name).read_bytes() for name in (FIO, MANUAL)}
    assert ingest(site).returncode == 0
    to_state(site, "B", originals)
    assert ingest(site, crash_at="linked:1").returncode == -signal.SIGKILL  # a whole generation, and current.new
    assert len(list((site / ".perfwiki-publish").iterdir())) == 4
    to_state(site, "A", originals)
    done = ingest(site)
    assert done.returncode == 0, done.stderr
    assert published(site) == states["A"] and leftovers(site) == []
    assert len(list((site / ".perfwiki-publish").iterdir())) == 2  # current and its generation


# An ingest whose workers are busy (one in a process of its own, as a large raw file is, and two in
# the pool), each printing its pid and then sleeping.
_BUSY_WORKERS = """
import os, sys, time
from pathlib import Path
from perfwiki import ingest

def report(root, item):
    # One write of a whole line: three processes share the pipe, and print() may write the number and
    # its newline apart, which interleaved them: "12341235", then two empty lines.
    os.write(1, f"{os.getpid()}\\n".encode())
    time.sleep(60)

with ingest._pool(2, busy=True) as pool:
    pool.submit(report, Path("."), 1)
    pool.submit(report, Path("."), 2)
    ingest._in_own_process(report, Path("."), 3)
"""


def test_workers_die_with_a_killed_ingest():
    """SIGKILL of ingest takes its workers with it: one left running would go on writing into a
    generation the next ingest has already removed."""
    ingest = subprocess.Popen([sys.executable, "-c", _BUSY_WORKERS], stdout=subprocess.PIPE, text=True)
    workers = [int(ingest.stdout.readline()) for _ in range(3)]
    ingest.kill()
    ingest.wait()
    deadline = time.monotonic() + 10
    while any(_alive(pid) for pid in workers) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not any(_alive(pid) for pid in workers)


def _alive(pid: int) -> bool:
    """Running, not a zombie waiting for a parent that is gone (init reaps those)."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False

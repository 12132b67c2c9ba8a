"""planned.py: a report folder unchanged since the last plan is taken from it, and the plan is the same
as one made from nothing, edit after edit (the examples' reports, environments and hugo.toml)."""

from __future__ import annotations

import hashlib
import os
import pickle
import time
import zlib
from pathlib import Path

import pytest

from perfwiki import cache, content, planned
from perfwiki import ingest as ingest_module
from support import copy_site_sources

REPORT = "nvme-raw-vs-ext4"
BUSY = "build-vm-disk-busy"  # before REPORT in name order
# A moment well before the settling time of cache.FileDigests: files "saved" then are settled.
AN_HOUR_AGO = time.time_ns() - 3600 * 10**9


def settle(root: Path) -> None:
    """Every file as if saved an hour ago, each a nanosecond apart (distinct stats, as edits have)."""
    for number, path in enumerate(sorted(root.rglob("*"))):
        if path.is_file() and not path.is_symlink():
            os.utime(path, ns=(AN_HOUR_AGO + number, AN_HOUR_AGO + number))


def edit(path: Path, text: str, when: int) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    os.utime(path, ns=(AN_HOUR_AGO + when, AN_HOUR_AGO + when))


def the_plan(root: Path) -> tuple[list, list]:
    jobs, problems = ingest_module.plan(root)
    return [
        (
            job.slug,
            job.key,
            job.index_path,
            job.front_matter,
            job.comparisons_line,
            [(raw.environment, raw.path, raw.sha256, raw.key) for raw in job.raw_files],
            job.environment_pages,
            job.aliases_path,
            job.aliases_text,
            job.former_slugs,
        )
        for job in jobs
    ], problems


def from_nothing(root: Path) -> tuple[list, list]:
    (root / cache.DIR / planned.FILE).unlink(missing_ok=True)
    return the_plan(root)


@pytest.fixture
def site(tmp_path: Path) -> Path:
    root = copy_site_sources(tmp_path)
    settle(root)
    return root


@pytest.fixture
def planned_folders(monkeypatch) -> list[str]:
    """The report folders planned anew (not taken from the last plan), by name."""
    names: list[str] = []
    original = ingest_module._plan_folder

    def spy(root, folder, *rest):
        names.append(folder.name)
        return original(root, folder, *rest)

    monkeypatch.setattr(ingest_module, "_plan_folder", spy)
    return names


def test_an_unchanged_site_is_planned_from_the_last_plan_alone(site, planned_folders):
    first = the_plan(site)
    assert len(planned_folders) == len(first[0]) == 8
    planned_folders.clear()
    assert the_plan(site) == first
    assert planned_folders == []


def test_each_edit_plans_again_what_it_touched_and_the_plan_is_the_one_made_from_nothing(site, planned_folders):
    reports = site / "content" / "reports"
    raw = reports / REPORT / "raw" / "nvme-raw" / "fio-bandwidth-iops-latency.md"
    index = reports / REPORT / "index.md"
    text = index.read_text(encoding="utf-8")
    busy = reports / BUSY / "index.md"
    busy_text = busy.read_text(encoding="utf-8")

    def claim(page: Path, as_written: str, when: int) -> None:
        edit(page, as_written.replace("title:", "aliases: [/reports/old-name/]\ntitle:", 1), when)

    the_plan(site)
    edits = [
        # (what, the edit, the folders it must plan again: None for every folder)
        (
            "a raw file's bytes, its size the same",
            lambda: edit(raw, raw.read_text().replace("872", "873"), 1),
            [REPORT],
        ),
        ("a raw file added", lambda: edit(raw.with_name("more.txt"), raw.read_text(), 2), [REPORT]),
        ("an unknown environment", lambda: edit(raw.parent.parent / "nowhere" / "x.txt", "fio-3.1\n", 3), [REPORT]),
        ("a binary raw file", lambda: edit(raw.with_name("core.bin"), "\0\1" * 600, 4), [REPORT]),
        ("an error in the front matter", lambda: edit(index, text.replace("title:", "title: [", 1), 5), [REPORT]),
        ("the text again", lambda: edit(index, text, 6), [REPORT]),
        ("a secret in a report's text", lambda: edit(index, text + "\npassword=hunter22\n", 7), [REPORT]),
        (
            "an alias that another report has as its slug",
            lambda: edit(index, text.replace("title:", "aliases: [/reports/networks/]\ntitle:", 1), 8),
            [REPORT],
        ),
        (
            "two reports claim one old address",
            lambda: (claim(busy, busy_text, 9), claim(index, text, 10)),
            [BUSY, REPORT],
        ),
        # Now the other report's former slugs, and so its key, change with its folder as it was.
        ("the first gives it up", lambda: edit(busy, busy_text, 11), [BUSY]),
        ("an environment page", lambda: edit(site / "content/environments/nvme-raw.md", "---\n---\n", 12), None),
        ("hugo.toml", lambda: edit(site / "hugo.toml", (site / "hugo.toml").read_text() + "\n", 13), None),
        ("a report removed", lambda: __import__("shutil").rmtree(reports / "networks"), []),
    ]
    for what, change, again in edits:
        change()
        planned_folders.clear()
        kept = the_plan(site)
        if what == "the first gives it up":  # what the edit is for
            assert next(job for job in kept[0] if job[0] == REPORT)[-1] == ["old-name"]
        if again is not None:
            assert planned_folders == again, what
        else:
            assert len(planned_folders) == len(list(reports.glob("*/index.md"))), what
        assert kept == from_nothing(site), what


def test_a_folder_saved_in_the_last_seconds_is_planned_again_until_it_settles(site, planned_folders):
    the_plan(site)
    raw = site / "content" / "reports" / REPORT / "raw" / "nvme-raw" / "fio-bandwidth-iops-latency.md"
    raw.write_text(raw.read_text() + "\n", encoding="utf-8")  # saved now
    for _ in range(2):
        planned_folders.clear()
        the_plan(site)
        assert planned_folders == [REPORT]
    os.utime(raw, ns=(AN_HOUR_AGO, AN_HOUR_AGO))
    the_plan(site)
    planned_folders.clear()
    the_plan(site)
    assert planned_folders == []


def test_a_link_in_content_plans_every_folder(site, planned_folders):
    raw = site / "content" / "reports" / REPORT / "raw" / "nvme-raw"
    (raw / "linked.md").symlink_to(raw / "fio-bandwidth-iops-latency.md")
    the_plan(site)
    planned_folders.clear()
    kept = the_plan(site)
    assert len(planned_folders) == 8
    assert kept == from_nothing(site)


def test_upgraded_from_a_perfwiki_that_kept_the_digests_alone_no_raw_file_is_hashed_again(site, monkeypatch):
    """Before plans were kept, .perfwiki-cache/digests.pickle held every raw file's sha256 with its stats:
    the first plan after the upgrade takes them rather than reading every raw file again."""
    known = {}
    for path in content.raw_files(site):
        stat = path.stat()
        known[str(path)] = (stat.st_size, stat.st_mtime_ns, stat.st_ino, hashlib.sha256(path.read_bytes()).hexdigest())
    before = site / cache.DIR / "digests.pickle"
    before.parent.mkdir(parents=True, exist_ok=True)
    before.write_bytes(zlib.compress(pickle.dumps((cache.CODE_VERSION, known))))
    hashed: list[str] = []
    real = hashlib.file_digest

    def counted(file, digest):
        hashed.append(file.name)
        return real(file, digest)

    monkeypatch.setattr(hashlib, "file_digest", counted)
    kept = the_plan(site)
    assert hashed == [] and len(known) > 70
    assert not before.exists()
    monkeypatch.setattr(hashlib, "file_digest", real)
    assert kept == from_nothing(site)

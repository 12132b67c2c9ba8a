"""A report's files depend on that report alone: ingesting the reports apart, each in a site of its own,
gives every file that belongs to a report byte for byte as one ingest of them all does (issue 34).

That is what lets ingest split by report: across worker processes (`-j N`), and across machines
(`ingest --part K/N` on each, then `ingest --parts SITE...` to join them, parts.py), whose union is
the whole generation one ingest publishes, site index included, and the same cache.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from perfwiki import publish
from support import ROOT, copy_site_sources, perfwiki_command

REPORTS = sorted(path.name for path in (ROOT / "content" / "reports").iterdir() if (path / "index.md").is_file())


def ingest(site: Path, *options: str) -> str:
    """The last line ingest printed: how many runs and reports, from where."""
    done = subprocess.run(
        perfwiki_command() + ["ingest", "--root", str(site), *options], capture_output=True, text=True
    )
    assert done.returncode in (0, 1), done.stderr  # 1: a report's own warnings and problems, as in the whole site
    assert "ingested" in done.stderr, done.stderr
    return done.stderr.strip().splitlines()[-1]


@pytest.fixture(scope="module")
def whole(tmp_path_factory) -> Path:
    """The example site, ingested once."""
    site = copy_site_sources(tmp_path_factory.mktemp("whole"))
    ingest(site)
    return site


def tree(folder: Path) -> dict[str, str]:
    """sha256 of every file under `folder`, by its path there."""
    return {
        path.relative_to(folder).as_posix(): hashlib.sha256(path.read_bytes()).hexdigest()
        for path in sorted(folder.rglob("*"))
        if path.is_file()
    }


def owned(site: Path, slug: str) -> dict[str, str]:
    """sha256 of every file of the current generation that belongs to report `slug`."""
    generation = site / publish.DIR / publish.CURRENT
    mine = (
        f"data/reports/{slug}.json",
        f"data/views/{slug}.json",
        f"data/ids/{slug}.json",
        f"data/runs/{slug}/",
        f"data/raw-views/{slug}/",
        f"reports/{slug}/",
        f"exports/{slug}/",
    )
    found = {}
    for folder, _, names in os.walk(generation, followlinks=True):
        for name in names:
            path = Path(folder) / name
            relative = path.relative_to(generation).as_posix()
            if relative.startswith(mine):
                found[relative] = hashlib.sha256(path.read_bytes()).hexdigest()
    return found


def test_the_union_of_per_report_ingests_is_one_ingest(tmp_path, whole):
    for slug in REPORTS:
        (tmp_path / slug).mkdir()
        alone = copy_site_sources(tmp_path / slug)
        for other in REPORTS:
            if other != slug:
                shutil.rmtree(alone / "content" / "reports" / other)
        ingest(alone)
        files = owned(alone, slug)
        # Its page documents, its runs' exports and its raw files at least.
        assert any(name.startswith(f"data/runs/{slug}/") for name in files), slug
        assert any(name.startswith(f"exports/{slug}/") for name in files), slug
        assert files == owned(whole, slug), slug
        shutil.rmtree(alone)


def test_parts_ingested_apart_join_into_the_whole_site(tmp_path, whole):
    sites = []
    for number in (1, 2, 3):
        (tmp_path / f"part{number}").mkdir()
        site = copy_site_sources(tmp_path / f"part{number}")
        assert f"(part {number}/3)" in ingest(site, "--part", f"{number}/3")
        sites.append(site)
    published = [set(publish.manifest(site, publish.current(site))["reports"]) for site in sites]
    everything = set(publish.manifest(whole, publish.current(whole))["reports"])
    # Each report in one part, none twice; the largest report alone in the first (greedy by raw bytes).
    assert sorted(len(part) for part in published) == [1, 3, 4]
    assert set.union(*published) == everything and sum(map(len, published)) == len(everything)

    (tmp_path / "joined").mkdir()
    joined = copy_site_sources(tmp_path / "joined")
    line = ingest(joined, "--parts", *map(str, sites))
    assert line.endswith(f"; {len(REPORTS)} reports taken from the parts, 0 built here"), line
    generation = publish.DIR + "/" + publish.CURRENT
    assert tree(joined / generation) == tree(whole / generation)  # site index, manifest and name included
    assert tree(joined / ".perfwiki-cache").keys() - {".perfwiki-cache/lock"} == (
        tree(whole / ".perfwiki-cache").keys() - {".perfwiki-cache/lock"}
    )

    # A report changed since the parts ran is built here; the rest still come from the parts.
    (tmp_path / "changed").mkdir()
    changed = copy_site_sources(tmp_path / "changed")
    index = changed / "content" / "reports" / REPORTS[0] / "index.md"
    index.write_text(index.read_text(encoding="utf-8") + "\nOne more sentence.\n", encoding="utf-8")
    line = ingest(changed, "--parts", *map(str, sites))
    assert line.endswith(f"; {len(REPORTS) - 1} reports taken from the parts, 1 built here"), line
    assert owned(changed, REPORTS[1]) == owned(whole, REPORTS[1])


def test_parts_that_are_not_ingested_sites_are_refused(tmp_path):
    site = copy_site_sources(tmp_path)
    for options, said in (
        (["--parts", str(tmp_path / "nowhere")], "no ingest published there"),
        (["--part", "4/3"], "K must be from 1 to N"),
        (["--part", "half"], "expected K/N"),
    ):
        done = subprocess.run(
            perfwiki_command() + ["ingest", "--root", str(site), *options], capture_output=True, text=True
        )
        assert done.returncode == 2 and said in done.stderr, done.stderr
    assert not (site / publish.DIR).exists()

"""A report's files depend on that report alone: ingesting the reports apart, each in a site of its own,
gives every file that belongs to a report byte for byte as one ingest of them all does (issue 34).

That is what lets ingest split by report: across worker processes (`-j N`), and across machines.
What no report owns (the site index: environments, scenarios, tools, the run finder, compare.json)
is made from every report's share and is not compared here.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
from pathlib import Path

from perfwiki import publish
from support import ROOT, copy_site_sources, perfwiki_command

REPORTS = sorted(path.name for path in (ROOT / "content" / "reports").iterdir() if (path / "index.md").is_file())


def ingest(site: Path) -> None:
    done = subprocess.run(perfwiki_command() + ["ingest", "--root", str(site)], capture_output=True, text=True)
    assert done.returncode in (0, 1), done.stderr  # 1: a report's own warnings and problems, as in the whole site
    assert "ingested" in done.stderr, done.stderr


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


def test_the_union_of_per_report_ingests_is_one_ingest(tmp_path):
    (tmp_path / "whole").mkdir()
    whole = copy_site_sources(tmp_path / "whole")
    ingest(whole)
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

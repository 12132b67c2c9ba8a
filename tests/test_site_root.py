"""`perfwiki ingest` writes only into the site it was pointed at, from whatever folder it runs in."""

from __future__ import annotations

import subprocess

from support import ROOT, copy_site_sources, perfwiki_command


def ingest(cwd, *args):
    return subprocess.run(perfwiki_command() + ["ingest", *args], cwd=cwd, capture_output=True, text=True)


def test_outside_any_site_ingest_refuses_and_writes_nothing(tmp_path):
    result = ingest(tmp_path)
    assert result.returncode == 2
    assert "is not inside a perfwiki site" in result.stderr and "--root" in result.stderr
    assert list(tmp_path.iterdir()) == []


def test_root_without_content_is_refused(tmp_path):
    result = ingest(ROOT, "--root", str(tmp_path))
    assert result.returncode == 2 and "no content/ folder" in result.stderr
    assert list(tmp_path.iterdir()) == []


def test_from_a_sub_folder_the_site_above_is_ingested(tmp_path):
    (tmp_path / "site").mkdir()
    site = copy_site_sources(tmp_path / "site")
    (site / "scripts").mkdir()
    result = ingest(site / "scripts")
    assert result.returncode == 0, result.stderr
    assert (site / "data" / "reports" / "nas-cache-modes.json").is_file()
    assert list((site / "scripts").iterdir()) == []  # nothing written where it ran

"""`perfwiki new report|environment`: commented files that ingest and build cleanly once real output is
dropped in, never written over an existing file, and only under a slug."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from perfwiki import content
from perfwiki.content import read_front_matter
from perfwiki.ingest import load_report
from perfwiki.pages.report import FACT_ORDER
from support import FIXTURES, copy_site_sources, hugo_binary, perfwiki_command

FIO = FIXTURES / "fio" / "fio-3.33-randrw-numjobs2.txt"
# The job of fio-3.33-randrw-numjobs2.fio, on the command line: what its output says it ran.
FIO_COMMAND = (
    "fio --name=mixed --ioengine=psync --filename=/tmp/fiot/data --size=16M --runtime=1 --time_based"
    " --rw=randrw --bs=4k --numjobs=2"
)


def small_site(target: Path) -> Path:
    """A copy of the site with no report and no environment: what a new wiki starts from."""
    target.mkdir(parents=True, exist_ok=True)
    site = copy_site_sources(target)
    for folder in ("reports", "environments"):
        for path in (site / "content" / folder).iterdir():
            if not path.name.startswith("_"):  # the section's own files (_index.md, a content adapter) stay
                shutil.rmtree(path) if path.is_dir() else path.unlink()
    for generated in ("reports", "runs"):
        shutil.rmtree(site / "site" / "static" / generated, ignore_errors=True)
    # The example reports' old scenario addresses go with them.
    (site / "content" / "scenarios" / "aliases.yaml").unlink()
    return site


def perfwiki(site: Path, *words: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        perfwiki_command() + [*words, "--root", str(site)],
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
        timeout=300,
    )


def test_a_new_report_has_every_documented_key_commented_and_an_empty_raw_folder(tmp_path):
    site = small_site(tmp_path / "site")
    done = perfwiki(site, "new", "report", "disk-2026")
    assert done.returncode == 0, done.stderr
    assert "created content/reports/disk-2026/index.md" in done.stderr
    index = site / "content" / "reports" / "disk-2026" / "index.md"
    text = index.read_text(encoding="utf-8")
    front = read_front_matter(index)
    assert front["title"] == "disk-2026" and front["environments"] == [] and front["summary"]
    assert re.fullmatch(r"\d{4}-\d{2}-\d{2}", str(front["date"]))
    for key in ("baseline", "labels", "comparisons", "automatic", "aliases", "tags"):
        assert re.search(rf"^# {key}:", text, re.M), key  # there, commented, to uncomment
    assert "{{" not in text.split("\n---\n", 1)[1]  # the body cites nothing before ingest names runs
    raw = index.parent / "raw"
    assert [path.name for path in raw.iterdir()] == ["README.txt"]
    assert content.raw_files(site) == []  # the hint is not a raw file


def test_a_new_environment_names_kind_and_the_fact_vocabulary(tmp_path):
    site = small_site(tmp_path / "site")
    done = perfwiki(site, "new", "environment", "my-nvme")
    assert done.returncode == 0, done.stderr
    page = site / "content" / "environments" / "my-nvme.md"
    text = page.read_text(encoding="utf-8")
    assert read_front_matter(page) == {"title": "my-nvme", "kind": "baremetal"}
    for key in (*FACT_ORDER, "host_environment", "interface", "link", "device"):
        assert re.search(rf"^#   {key}: ", text, re.M), key
    assert "# facts:" in text


def test_nothing_is_overwritten_and_names_must_be_slugs(tmp_path):
    site = small_site(tmp_path / "site")
    assert perfwiki(site, "new", "environment", "box").returncode == 0
    page = site / "content" / "environments" / "box.md"
    page.write_text("---\ntitle: mine\n---\n", encoding="utf-8")
    again = perfwiki(site, "new", "environment", "box")
    assert (
        again.returncode == 2
        and "new: content/environments/box.md: already exists; nothing was written" in again.stderr
    )
    assert page.read_text(encoding="utf-8") == "---\ntitle: mine\n---\n"
    (site / "content" / "environments" / "Other.md").write_text("---\ntitle: x\n---\n", encoding="utf-8")
    clash = perfwiki(site, "new", "environment", "other")
    assert clash.returncode == 2 and "new: content/environments/Other.md: already exists" in clash.stderr
    assert not (site / "content" / "environments" / "other.md").exists()
    assert perfwiki(site, "new", "report", "r").returncode == 0
    report = perfwiki(site, "new", "report", "r")
    assert report.returncode == 2 and "new: content/reports/r: already exists; nothing was written" in report.stderr
    bad = perfwiki(site, "new", "report", "My Report")
    assert bad.returncode == 2
    assert "report 'My Report' must be a slug: lower-case letters, digits and '-' (perhaps 'my-report')" in bad.stderr
    assert not (site / "content" / "reports" / "My Report").exists()
    assert perfwiki(site, "new", "environment", "../x").returncode == 2


def built(site: Path, public: Path) -> None:
    """The site built by the pinned Hugo as `make build` does (a warning fails it)."""
    build = subprocess.run(
        [str(hugo_binary()), "--panicOnWarning", "-d", str(public)], cwd=site, capture_output=True, text=True
    )
    assert build.returncode == 0, build.stdout + build.stderr


def test_a_scaffolded_report_ingests_and_builds_cleanly_with_real_output(tmp_path):
    site = small_site(tmp_path / "site")
    assert perfwiki(site, "new", "report", "first").returncode == 0
    assert perfwiki(site, "new", "environment", "lab-box").returncode == 0
    raw = site / "content" / "reports" / "first" / "raw" / "lab-box"
    raw.mkdir()
    (raw / "fio.txt").write_text(
        f"# 4k random read/write, 2 jobs\n$ {FIO_COMMAND}\n" + FIO.read_text(encoding="utf-8"), encoding="utf-8"
    )
    done = perfwiki(site, "ingest")
    assert done.returncode == 0, done.stderr
    assert done.stderr.strip().splitlines()[-1].startswith("ingested 1 runs in 1 reports"), done.stderr
    assert "warning" not in done.stderr and "problem" not in done.stderr, done.stderr
    (run,) = load_report(site, "first")["runs"]
    assert run["environment"] == "lab-box" and run["command"] == FIO_COMMAND and run["params"]["numjobs"] == 2
    built(site, tmp_path / "public")
    page = (tmp_path / "public" / "reports" / "first" / "index.html").read_text(encoding="utf-8")
    assert "What was measured and why" in page
    assert not (tmp_path / "public" / "reports" / "first" / "raw" / "README.txt").exists()


def test_a_report_just_scaffolded_with_no_output_yet_ingests_and_builds(tmp_path):
    # `make serve` ingests the moment the scaffold is saved: before any raw file or environment.
    site = small_site(tmp_path / "site")
    assert perfwiki(site, "new", "report", "first").returncode == 0
    done = perfwiki(site, "ingest")
    assert done.returncode == 0, done.stderr
    assert load_report(site, "first")["runs"] == []
    built(site, tmp_path / "public")
    assert "What was measured and why" in (tmp_path / "public" / "reports" / "first" / "index.html").read_text()


@pytest.mark.parametrize("name", ["report", "environment"])
def test_new_outside_a_site_says_so(tmp_path, name):
    done = subprocess.run(perfwiki_command() + ["new", name, "x"], capture_output=True, text=True, cwd=tmp_path)
    assert done.returncode == 2 and "is not inside a perfwiki site" in done.stderr

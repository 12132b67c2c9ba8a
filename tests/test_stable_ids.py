"""Stable run ids (issue 30): a run's id comes from its own raw file, so adding, removing or renaming
another file moves no id; an id that must move (its file renamed, a run inserted above it) keeps its
old address, because ingest writes the old id into the report's aliases.yaml (renames.py)."""

from __future__ import annotations

import dataclasses
import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest
import yaml

from perfwiki import aliases
from perfwiki.extract import assign_ids
from perfwiki.ingest import load_report
from perfwiki.portable.citations import citations
from perfwiki.portable.source import Source as ExportSource
from support import FIXTURES, copy_site_sources, hugo_binary, perfwiki_command, slice_runs

VM = "vm-vs-bare-metal"
SSD = "ssd-cloud-disks-lvm-raid"


def ingest(site: Path) -> subprocess.CompletedProcess:
    done = subprocess.run(perfwiki_command() + ["ingest", "--root", str(site)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return done


def ids_by_place(site: Path, report: str) -> dict[tuple[str, int], str]:
    """{(raw file, first line): id} of a report's runs as ingest published them."""
    return {
        (run["source"]["path"], run["source"]["line_start"]): run["id"] for run in load_report(site, report)["runs"]
    }


@pytest.fixture
def site(tmp_path: Path) -> Path:
    site = copy_site_sources(tmp_path)
    ingest(site)
    return site


def test_adding_removing_or_renaming_another_file_changes_no_id(site):
    raw = site / "content" / "reports" / VM / "raw"
    before = ids_by_place(site, VM)
    # Real fio output beside another file of the same environment, and in a new environment.
    capture = (FIXTURES / "fio" / "fio-3.33-randread-4k-normal.txt").read_bytes()
    (raw / "r730-host" / "fio-extra.txt").write_bytes(capture)
    (raw / "new-host").mkdir()
    (raw / "new-host" / "fio.txt").write_bytes(capture)
    page = "---\ntitle: A new host\nkind: bare-metal\n---\n"
    (site / "content" / "environments" / "new-host.md").write_text(page, encoding="utf-8")
    ingest(site)
    added = ids_by_place(site, VM)
    assert {place: added[place] for place in before} == before
    base = f"content/reports/{VM}/raw"
    assert added[(f"{base}/r730-host/fio-extra.txt", 1)] == "r730-host-fio-extra-randread"
    assert added[(f"{base}/new-host/fio.txt", 1)] == "new-host-randread"
    # Removing one again, and renaming another environment's file, leave every other id as it was.
    (raw / "r730-host" / "fio-extra.txt").unlink()
    (raw / "win2008-vm-writeback" / "fio.md").rename(raw / "win2008-vm-writeback" / "fio-2019.md")
    ingest(site)
    after = ids_by_place(site, VM)
    unmoved = {place: run_id for place, run_id in added.items() if "/r730-host/fio-extra.txt" not in place[0]}
    unmoved = {place: run_id for place, run_id in unmoved.items() if "/win2008-vm-writeback/" not in place[0]}
    assert {place: after[place] for place in unmoved} == unmoved
    assert after[(f"{base}/win2008-vm-writeback/fio-2019.md", 51)] == "win2008-vm-writeback-fio-2019-random-read"
    assert "r730-host-fio-extra-randread" not in after.values() and len(after) == len(added) - 1


def test_a_renamed_file_keeps_its_runs_old_addresses_and_the_citations_resolve(site):
    """vm-vs-bare-metal's text cites {{< run centos-vm-8c-mbw >}}; its file mbw.md becomes mbw-2024.md."""
    folder = site / "content" / "reports" / VM / "raw" / "centos-vm-8c"
    (folder / "mbw.md").rename(folder / "mbw-2024.md")
    done = ingest(site)
    table = site / "content" / "reports" / VM / "aliases.yaml"
    text = table.read_text(encoding="utf-8")
    lines = text.split("\n")
    new = "centos-vm-8c-mbw-2024-mbw"
    where = f"content/reports/{VM}/aliases.yaml"
    # The new old id at the end, and the entry that named the run's id before pointed at its id now.
    assert f"{where}:{lines.index(f'centos-vm-8c-mbw: {new}') + 1}: warning: kept old id 'centos-vm-8c-mbw' -> " in (
        done.stderr
    )
    assert yaml.safe_load(text)["centos-vm-8c"] == new
    document = load_report(site, VM)
    assert aliases.resolve_run(document, "centos-vm-8c-mbw") == new
    assert aliases.resolve_run(document, "centos-vm-8c") == new
    entry = next(entry for entry in document["run_index"] if entry["id"] == new)
    assert f"/runs/{VM}/centos-vm-8c-mbw/" in entry["aliases"]
    # The report's own citation resolves as the shortcodes resolve it (portable/citations.py).
    source = ExportSource.load(site, VM, "https://wiki.example/")
    source = dataclasses.replace(source, narrative="{{< run centos-vm-8c-mbw >}}")
    assert [(cited.report.slug, cited.id) for cited in citations(source)] == [(VM, new)]
    # Nothing more moves: the next ingest writes nothing and warns of nothing.
    again = ingest(site)
    assert "kept old id" not in again.stderr and table.read_text(encoding="utf-8") == text
    # Hugo publishes the old address as a redirect to the run's page.
    out = site / "public"
    build = subprocess.run([str(hugo_binary()), "-d", str(out), "--quiet"], cwd=site, capture_output=True, text=True)
    assert build.returncode == 0, build.stderr
    page = (out / "runs" / VM / "centos-vm-8c-mbw" / "index.html").read_text(encoding="utf-8")
    assert re.search(rf'<meta http-equiv="refresh" content="0; url=[^"]*/runs/{VM}/{new}/">', page)


def content(run: dict) -> str:
    return json.dumps([run["command"], run["metrics"]], sort_keys=True)


def test_a_run_inserted_above_its_twins_takes_none_of_their_old_ids(site):
    """essd-pl3-vdb/runs.md holds four jobs named "EBS 4K randwrite test"; a fifth, real (the randwrite
    of hygon33-nvme/runs.md, fio 2.2.8), is pasted above them. The first and fourth move; each keeps
    its old id, and the page's old id from before ids named their file (…-test-4) follows it."""
    raw = site / "content" / "reports" / SSD / "raw"
    donor = (raw / "hygon33-nvme" / "runs.md").read_text(encoding="utf-8")
    target = raw / "essd-pl3-vdb" / "runs.md"
    inserted = donor[donor.index("### 随机读写") :].rstrip("\n") + "\n\n"
    before = {content(run): run["id"] for run in load_report(site, SSD)["runs"] if run["environment"] == "essd-pl3-vdb"}
    target.write_text(inserted + target.read_text(encoding="utf-8"), encoding="utf-8")
    done = ingest(site)
    document = load_report(site, SSD)
    runs = [run for run in document["runs"] if run["environment"] == "essd-pl3-vdb"]
    assert [run["id"] for run in runs] == [
        "essd-pl3-vdb-runs-ebs-4k-randwrite-test-2",  # the inserted run: neither of the old ids it would take
        "essd-pl3-vdb-runs-ebs-4k-randwrite-test-3",  # was ...-test
        "essd-pl3-vdb-runs-4k-random-read",
        "essd-pl3-vdb-runs-4k-random-read-write",
        "essd-pl3-vdb-runs-ebs-4k-randwrite-test-5",  # was ...-test-4
    ]
    after = {content(run): run["id"] for run in runs[1:]}
    assert set(after) == set(before)
    table = document["aliases"]["runs"]
    for key, old in before.items():  # every old id reaches the same run as before
        assert old == after[key] or table[old] == after[key]
    assert table["essd-pl3-vdb-ebs-4k-randwrite-test-4"] == "essd-pl3-vdb-runs-ebs-4k-randwrite-test-5"
    assert done.stderr.count("warning: kept old id") == 4  # two lines written, two pointed anew
    # The other file's copy of that run is not followed into this one: its id stays.
    assert "hygon33-nvme-runs-ebs-4k-randwrite-test" in {run["id"] for run in document["runs"]}
    assert "kept old id" not in ingest(site).stderr


def test_without_the_last_ingest_nothing_is_detected_or_written(site):
    """A fresh clone has no data/: ids are what the files make, and aliases.yaml is left as committed."""
    folder = site / "content" / "reports" / VM / "raw" / "centos-vm-8c"
    table = site / "content" / "reports" / VM / "aliases.yaml"
    committed = table.read_text(encoding="utf-8")
    shutil.rmtree(site / ".perfwiki-publish")  # every published generation (data/ is a link into one)
    (folder / "mbw.md").rename(folder / "mbw-2024.md")
    done = subprocess.run(perfwiki_command() + ["ingest", "--root", str(site)], capture_output=True, text=True)
    # The committed entry 'centos-vm-8c: centos-vm-8c-mbw' now names no run: reported, as any wrong entry.
    assert done.returncode == 1 and "the report has no run 'centos-vm-8c-mbw'" in done.stderr
    assert table.read_text(encoding="utf-8") == committed


def run_at(path: str, template) -> object:
    return dataclasses.replace(template, source=dataclasses.replace(template.source, path=path), id="")


def test_three_files_each_holding_randread_jobs_name_their_runs_apart():
    template = slice_runs("vm-vs-bare-metal/raw/r730-host/fio.md")[0]  # --name=random-read, rw=randread
    base = "content/reports/r/raw/nvme"
    runs = [run_at(f"{base}/{name}", template) for name in ("fio.txt", "day-2.txt", "day-3.txt", "day-3.txt")]
    for run in runs:
        run.environment = "nvme"
    assert assign_ids(runs) == []
    assert [run.id for run in runs] == [
        "nvme-random-read",  # a file named for its tool adds nothing
        "nvme-day-2-random-read",
        "nvme-day-3-random-read",
        "nvme-day-3-random-read-2",  # the second of that name in its own file
    ]


def test_two_files_that_spell_one_id_are_a_warning_at_the_later_run():
    template = slice_runs("vm-vs-bare-metal/raw/r730-host/fio.md")[0]
    base = "content/reports/r/raw/nvme"
    runs = [run_at(f"{base}/fio.md", template), run_at(f"{base}/fio.txt", template)]
    for run in runs:
        run.environment = "nvme"
        run.source = dataclasses.replace(run.source, line_start=51)
    problems = assign_ids(runs)
    assert [run.id for run in runs] == ["nvme-random-read", "nvme-random-read-2"]
    assert [str(problem) for problem in problems] == [
        f"{base}/fio.txt:51: warning: run id 'nvme-random-read' is also made from {base}/fio.md: this run is "
        "'nvme-random-read-2' while that file is there; rename one of the files (or the job) so their ids differ"
    ]


def test_a_file_outside_a_report_is_named_as_before():
    """`perfwiki parse FILE`: no report, no environment, no address to keep apart."""
    run = run_at("captures/day-2.txt", slice_runs("vm-vs-bare-metal/raw/r730-host/fio.md")[0])
    run.environment = None
    assert assign_ids([run]) == []
    assert run.id == "random-read"


def test_a_renamed_report_whose_file_is_renamed_too_keeps_its_runs_old_addresses(site):
    """vm-vs-bare-metal becomes vm-vs-bare-metal-2021 (its old slug in front matter `aliases`) and, in
    the same change, centos-vm-8c/mbw.md becomes mbw-2024.md: the last ingest's ledger is under the
    old slug, and the run's old address, old slug and old id together, still reaches it."""
    renamed = "vm-vs-bare-metal-2021"
    reports = site / "content" / "reports"
    (reports / VM).rename(reports / renamed)
    index = reports / renamed / "index.md"
    index.write_text(
        index.read_text(encoding="utf-8").replace("\ntitle:", f"\naliases: [/reports/{VM}/]\ntitle:", 1),
        encoding="utf-8",
    )
    folder = reports / renamed / "raw" / "centos-vm-8c"
    (folder / "mbw.md").rename(folder / "mbw-2024.md")
    done = ingest(site)
    new = "centos-vm-8c-mbw-2024-mbw"
    assert f"warning: kept old id 'centos-vm-8c-mbw' -> '{new}'" in done.stderr
    table = yaml.safe_load((reports / renamed / "aliases.yaml").read_text(encoding="utf-8"))
    assert table["centos-vm-8c-mbw"] == new and table["centos-vm-8c"] == new
    document = load_report(site, renamed)
    assert document["aliases"]["slugs"] == [VM]
    assert aliases.current_slug(site, VM) == renamed
    assert aliases.resolve_run(document, "centos-vm-8c-mbw") == new
    entry = next(entry for entry in document["run_index"] if entry["id"] == new)
    assert f"/runs/{VM}/centos-vm-8c-mbw/" in entry["aliases"]
    # A citation by the old slug and old id resolves as the shortcodes resolve it (portable/citations.py).
    source = ExportSource.load(site, renamed, "https://wiki.example/")
    source = dataclasses.replace(source, narrative=f"{{{{< run {VM} centos-vm-8c-mbw >}}}}")
    assert [(cited.report.slug, cited.id) for cited in citations(source)] == [(renamed, new)]
    # Nothing more moves. (The content adapters give the run page these aliases as Hugo redirects:
    # test_a_renamed_file_keeps_its_runs_old_addresses_and_the_citations_resolve builds one.)
    assert "kept old id" not in ingest(site).stderr


def test_many_files_outside_a_report_take_the_next_free_numbers_past_retired_ids():
    """`perfwiki parse` of 300 files of one job: each file's run takes the next number, past a
    retired id, and names the first file whose id it would have had (the probe skips the ids the
    files before it took once it has found that clash, rather than trying each again)."""
    template = slice_runs("vm-vs-bare-metal/raw/r730-host/fio.md")[0]
    runs = [run_at(f"captures/day-{number}.txt", template) for number in range(300)]
    for run in runs:
        run.environment = None
    problems = assign_ids(runs, retired={"random-read-3"})
    ids = [run.id for run in runs]
    assert ids[:4] == ["random-read", "random-read-2", "random-read-4", "random-read-5"]
    assert ids[-1] == "random-read-301" and len(set(ids)) == 300
    assert len(problems) == 299
    assert "this run is 'random-read-4' while that file is there" in str(problems[1])
    assert all("is also made from captures/day-0.txt" in str(problem) for problem in problems)

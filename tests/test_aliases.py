"""Old names that keep working: each report's aliases.yaml (its retired run ids) and the former
slugs of its front matter, checked by ingest and resolved by every citation and export."""

from __future__ import annotations

import dataclasses
import subprocess
from pathlib import Path

import pytest
import yaml

from perfwiki import aliases
from perfwiki.extract import assign_ids
from perfwiki.ingest import load_report
from perfwiki.portable import export
from perfwiki.portable.citations import citations
from perfwiki.portable.source import Source
from support import REPORTS, ROOT, copy_site_sources, example_runs, perfwiki_command, slice_runs

WIKI = "https://wiki.example/perf/"


def test_no_run_is_given_a_retired_id():
    runs = slice_runs("ssd-cloud-disks-lvm-raid/raw/essd-pl3-vdb/runs.md")
    retired = {"essd-pl3-vdb-runs-ebs-4k-randwrite-test", "essd-pl3-vdb-runs-ebs-4k-randwrite-test-2"}
    assert assign_ids(runs, retired) == []
    assert [run.id for run in runs] == [
        "essd-pl3-vdb-runs-ebs-4k-randwrite-test-3",  # its own name, the next number not retired
        "essd-pl3-vdb-runs-4k-random-read",
        "essd-pl3-vdb-runs-4k-random-read-write",
        "essd-pl3-vdb-runs-ebs-4k-randwrite-test-4",
    ]


@pytest.mark.parametrize("report", sorted(path.parent.name for path in REPORTS.glob("*/aliases.yaml")))
def test_every_retired_id_of_the_examples_names_a_run_and_is_no_run(ingested, report):
    table = yaml.safe_load((REPORTS / report / "aliases.yaml").read_text(encoding="utf-8"))
    runs = example_runs(report)
    document = load_report(ROOT, report)
    assert document["aliases"]["runs"] == table
    for old, new in table.items():
        assert old not in runs and new in runs
        assert aliases.resolve_run(document, old) == new
        assert f"/runs/{report}/{old}/" in next(e for e in document["run_index"] if e["id"] == new)["aliases"]


def test_a_renamed_report_keeps_its_old_slug_for_its_runs_raw_files_and_exports(ingested):
    document = load_report(ROOT, "ssd-cloud-disks-lvm-raid")
    assert document["aliases"]["slugs"] == ["ssd-san-hdd-cloud-disks"]
    index = {entry["id"]: entry for entry in document["run_index"]}
    assert index["essd-pl3-vdb-runs-ebs-4k-randwrite-test-4"]["aliases"] == [
        "/runs/ssd-cloud-disks-lvm-raid/essd-pl3-vdb-ebs-4k-randwrite-test-4/",  # before ids named their file
        "/runs/ssd-san-hdd-cloud-disks/essd-pl3-vdb-runs-ebs-4k-randwrite-test-4/",
        "/runs/ssd-san-hdd-cloud-disks/essd-pl3-vdb-ebs-4k-randwrite-test-4/",
    ]
    assert index["essd-vda-runs-4k-random-read-write"]["aliases"] == [
        "/runs/ssd-cloud-disks-lvm-raid/essd-vda-ebs-4k-randwrite-test/",
        "/runs/ssd-cloud-disks-lvm-raid/essd-vda-4k-random-read-write/",
        "/runs/ssd-san-hdd-cloud-disks/essd-vda-runs-4k-random-read-write/",
        "/runs/ssd-san-hdd-cloud-disks/essd-vda-ebs-4k-randwrite-test/",
        "/runs/ssd-san-hdd-cloud-disks/essd-vda-4k-random-read-write/",
    ]
    raw = next(entry for entry in document["raw_files"] if entry["environment"] == "essd-vda")
    assert raw["page"] == "raw/ssd-cloud-disks-lvm-raid/essd-vda/runs-md"
    assert raw["aliases"] == ["/raw/ssd-san-hdd-cloud-disks/essd-vda/runs-md/"]
    published = ROOT / "site" / "static" / "reports"
    for name in ("index.json", "index.csv"):
        old = (published / "ssd-san-hdd-cloud-disks" / name).read_bytes()
        assert old == (published / "ssd-cloud-disks-lvm-raid" / name).read_bytes()
        # Its run addresses are relative to the file: from the old folder they still reach the runs.
        assert b"../../runs/ssd-cloud-disks-lvm-raid/essd-pl3-vdb-runs-ebs-4k-randwrite-test-4/" in old
    assert aliases.current_slug(ROOT, "ssd-san-hdd-cloud-disks") == "ssd-cloud-disks-lvm-raid"
    assert aliases.current_slug(ROOT, "vm-vs-bare-metal") == "vm-vs-bare-metal"
    assert aliases.current_slug(ROOT, "../data") is None and aliases.current_slug(ROOT, "nope") is None


OLD_CITATIONS = (
    "Old ids: {{< run lab-vm-dm0 >}}, {{< run vm-vs-bare-metal r730-host-random-read-2 >}},\n"
    "{{< run ssd-san-hdd-cloud-disks essd-vda-ebs-4k-randwrite-test >}}.\n\n"
    '{{< command "vm-vs-bare-metal/r730-host" >}}\n\n'
    "{{< comparison ssd-san-hdd-cloud-disks pl3-vs-local >}}\n"
)
RESOLVED = [
    ("run", "fio-iops-basics", "lab-vm-dm0-ioping"),
    ("run", "vm-vs-bare-metal", "r730-host-4k-seq-read"),
    ("run", "ssd-cloud-disks-lvm-raid", "essd-vda-runs-4k-random-read-write"),
    ("command", "vm-vs-bare-metal", "r730-host-mbw"),
    ("comparison", "ssd-cloud-disks-lvm-raid", "pl3-vs-local"),
]


def test_the_export_resolves_old_ids_and_slugs_as_the_wiki_does(ingested):
    source = dataclasses.replace(Source.load(ROOT, "fio-iops-basics", WIKI), narrative=OLD_CITATIONS)
    assert [(cited.name, cited.report.slug, cited.id) for cited in citations(source)] == RESOLVED
    # The report itself by its old slug: `perfwiki export ssd-san-hdd-cloud-disks` exports it.
    summary = export(ROOT, "ssd-san-hdd-cloud-disks", "md", WIKI)
    assert summary == export(ROOT, "ssd-cloud-disks-lvm-raid", "md", WIKI)
    assert f"{WIKI}runs/ssd-cloud-disks-lvm-raid/essd-vda-runs-4k-random-read-write/" in summary


def test_an_alias_naming_a_run_as_old_is_a_problem():
    """Ingest never gives a run a retired id; an id given by hand (manual.yaml's `id:`) can be one."""
    runs = slice_runs("vm-vs-bare-metal/raw/r730-host/fio.md")
    assign_ids(runs)
    entries, problems = aliases.read("aliases.yaml", "r730-host-seq-read: r730-host-random-read\n")
    assert problems == []
    table, problems = aliases.check("aliases.yaml", entries, runs)
    assert table == {}
    assert [str(problem) for problem in problems] == [
        "aliases.yaml:1: 'r730-host-seq-read' is the id of a run "
        "(content/reports/vm-vs-bare-metal/raw/r730-host/fio.md:183): an old id cannot be a run's"
    ]


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("[a, b]\n", "aliases.yaml:1: must map each old run id to the run's id now, one a line: 'old-id: new-id'"),
        ("a: b\nc: [d]\n", "aliases.yaml:2: must map each old run id to the run's id now"),
        ("a: b\n  c: d\n", "aliases.yaml:2: not YAML: mapping values are not allowed here"),
    ],
)
def test_an_alias_file_that_is_no_table_is_a_problem_at_its_line(text, says):
    _, problems = aliases.read("aliases.yaml", text)
    assert len(problems) == 1 and str(problems[0]).startswith(says)


def line_of(path: Path, text: str) -> int:
    return path.read_text(encoding="utf-8").split("\n").index(text) + 1


def test_wrong_aliases_are_ingest_problems_at_their_file_and_line(tmp_path):
    site = copy_site_sources(tmp_path)
    reports = site / "content" / "reports"
    table = reports / "vm-vs-bare-metal" / "aliases.yaml"
    text = table.read_text(encoding="utf-8")
    first = text.count("\n") + 1
    table.write_text(
        text
        + "gone-run: no-such-run\n"  # first
        + "r730-host-random-read-2: r730-host-seq-write\n"  # first + 1: given twice
        + "old-chain: r730-host\n",  # first + 2: an old id, not a run
        encoding="utf-8",
    )
    for report, alias in (("fio-iops-basics", "vm-vs-bare-metal"), ("nas-cache-modes", "ssd-san-hdd-cloud-disks")):
        index = reports / report / "index.md"
        index.write_text(
            index.read_text(encoding="utf-8").replace("\ndate:", f"\naliases: [/reports/{alias}/]\ndate:", 1),
            encoding="utf-8",
        )
    done = subprocess.run(perfwiki_command() + ["ingest", "--root", str(site)], capture_output=True, text=True)
    assert done.returncode == 1
    where = "content/reports/vm-vs-bare-metal/aliases.yaml"
    twice = line_of(table, "r730-host-random-read-2: r730-host-4k-seq-read")
    renamed = reports / "ssd-cloud-disks-lvm-raid" / "index.md"
    claimed = line_of(renamed, "aliases: [/reports/ssd-san-hdd-cloud-disks/]")
    problems = [line for line in done.stderr.splitlines() if line.startswith("content/")]
    assert sorted(problems) == sorted(
        [
            f"{where}:{first}: 'gone-run' -> 'no-such-run': the report has no run 'no-such-run'",
            f"{where}:{first + 1}: 'r730-host-random-read-2' is given twice (first at line {twice})",
            f"{where}:{first + 2}: 'old-chain' -> 'r730-host': 'r730-host' is an old id too (-> 'r730-host-mbw'); "
            "name the run itself",
            "content/reports/fio-iops-basics/index.md:3: alias /reports/vm-vs-bare-metal/ is the address of report "
            "'vm-vs-bare-metal'",
            f"content/reports/ssd-cloud-disks-lvm-raid/index.md:{claimed}: alias /reports/ssd-san-hdd-cloud-disks/ "
            "is also an alias of report 'nas-cache-modes'",
        ]
    ), done.stderr
    # What holds is kept; what does not is left out, so no page redirects to nowhere.
    document = load_report(site, "vm-vs-bare-metal")
    assert document["aliases"]["runs"]["r730-host-random-read-2"] == "r730-host-4k-seq-read"
    assert not {"gone-run", "old-chain"} & set(document["aliases"]["runs"])
    assert "slugs" not in load_report(site, "fio-iops-basics")["aliases"]
    # A former slug claimed twice goes to the first report that claims it (in slug order), and only there.
    assert "slugs" not in load_report(site, "ssd-cloud-disks-lvm-raid")["aliases"]
    assert load_report(site, "nas-cache-modes")["aliases"] == {"slugs": ["ssd-san-hdd-cloud-disks"]}

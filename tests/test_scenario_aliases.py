"""Old scenario addresses (scenario_aliases.py): a scenario whose key changed while its runs stayed
the same runs keeps its old address, through content/scenarios/aliases.yaml, which ingest writes.

The change reproduced is the real one: before commit 45c5f8b fio fingerprints did not fill in
fio's defaults, and the build-vm reports' randread and randwrite scenarios were keyed without
numjobs ('fio-read-randread-4096-16-direct-libaio-file'); filling numjobs 1 in moved them."""

from __future__ import annotations

import io
import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest
import yaml

import perfwiki.tools.fio as fio_tool
from perfwiki import scenario_aliases
from perfwiki.ingest import ingest
from support import copy_site_sources, hugo_binary

OLD_READ = "fio-read-randread-4096-16-direct-libaio-file"
OLD_WRITE = "fio-write-randwrite-4096-16-direct-libaio-file"
NEW_READ = "fio-read-randread-4096-16-1-direct-libaio-file"
NEW_WRITE = "fio-write-randwrite-4096-16-1-direct-libaio-file"


def index(site: Path) -> dict:
    return json.loads((site / "data" / "scenario_index.json").read_text(encoding="utf-8"))


def problems(site: Path) -> list[str]:
    return [str(problem) for problem in ingest(site, workers=1, out=io.StringIO()).problems]


@pytest.fixture
def site(tmp_path: Path, monkeypatch) -> Path:
    """The build-vm reports, ingested as perfwiki did before fio's defaults were filled into fingerprints."""
    site = copy_site_sources(tmp_path)
    for report in (site / "content" / "reports").iterdir():
        if report.is_dir() and not report.name.startswith("build-vm-"):
            shutil.rmtree(report)
    # The table as it was before the change (the repository's holds the two lines this ingest writes).
    (site / scenario_aliases.TABLE).unlink()
    # Their text cites runs of reports left out here.
    for page in ("centos-vm-writeback", "essd-pl3-vdb"):
        (site / "content" / "environments" / f"{page}.md").unlink()
    with monkeypatch.context() as patched:
        patched.setattr(fio_tool, "in_effect", lambda params, **_: params)  # fingerprint() as before 45c5f8b
        assert problems(site) == []
    assert {OLD_READ, OLD_WRITE} <= set(index(site)) and NEW_READ not in index(site)
    shutil.rmtree(site / ".perfwiki-cache")  # new code, new cache: as a perfwiki upgrade is
    return site


def test_a_scenario_whose_key_a_filled_in_default_changed_keeps_its_old_address(site):
    found = problems(site)
    table = site / scenario_aliases.TABLE
    text = table.read_text(encoding="utf-8")
    lines = text.split("\n")
    assert [line for line in lines if line and not line.startswith("#")] == [
        f"{OLD_READ}: {NEW_READ}",
        f"{OLD_WRITE}: {NEW_WRITE}",
    ]
    assert found == [
        f"{scenario_aliases.TABLE}:{lines.index(f'{OLD_READ}: {NEW_READ}') + 1}: warning: "
        f"kept old scenario key {OLD_READ!r} -> {NEW_READ!r}",
        f"{scenario_aliases.TABLE}:{lines.index(f'{OLD_WRITE}: {NEW_WRITE}') + 1}: warning: "
        f"kept old scenario key {OLD_WRITE!r} -> {NEW_WRITE!r}",
    ]
    scenarios = index(site)
    assert OLD_READ not in scenarios
    assert scenarios[NEW_READ]["aliases"] == [f"/scenarios/{OLD_READ}/"]
    assert scenarios[NEW_WRITE]["aliases"] == [f"/scenarios/{OLD_WRITE}/"]
    # Nothing more moves; the table is what a clone builds from, so a fresh one (no data/) keeps them.
    assert problems(site) == [] and table.read_text(encoding="utf-8") == text
    shutil.rmtree(site / ".perfwiki-publish")
    assert problems(site) == []
    assert index(site)[NEW_READ]["aliases"] == [f"/scenarios/{OLD_READ}/"]
    # Hugo publishes the old address as a redirect to the scenario's page.
    out = site / "public"
    build = subprocess.run([str(hugo_binary()), "-d", str(out), "--quiet"], cwd=site, capture_output=True, text=True)
    assert build.returncode == 0, build.stderr
    page = (out / "scenarios" / OLD_READ / "index.html").read_text(encoding="utf-8")
    assert re.search(rf'<meta http-equiv="refresh" content="0; url=[^"]*/scenarios/{NEW_READ}/">', page)
    assert not (out / "scenarios" / "aliases.yaml").exists() and not (out / "scenarios" / "aliases").exists()


def documents(site: Path) -> dict[str, scenario_aliases.Scenario]:
    folder = site / "data" / "scenarios"
    return {
        path.stem: scenario_aliases.Scenario.of(json.loads(path.read_text(encoding="utf-8")))
        for path in folder.glob("*.json")
    }


def test_only_a_scenario_named_more_precisely_is_followed(site):
    before = documents(site)
    problems(site)
    now = documents(site)
    assert scenario_aliases.moved(before, now) == {OLD_READ: NEW_READ, OLD_WRITE: NEW_WRITE}
    # Had the old page said queue depth 32 (a command corrected since), the runs it listed are the
    # same runs, but the page now would not say what it said: no redirect.
    said_otherwise = scenario_aliases.Scenario({**before[OLD_READ].fingerprint, "iodepth": 32}, before[OLD_READ].runs)
    assert scenario_aliases.moved({OLD_READ: said_otherwise}, now) == {}
    # Nor when its runs are gone (a report removed), or only some of them are on the page now.
    gone = scenario_aliases.Scenario(before[OLD_READ].fingerprint, frozenset({("elsewhere", "x")}))
    assert scenario_aliases.moved({OLD_READ: gone}, now) == {}
    write_runs = now[NEW_WRITE].runs
    split = scenario_aliases.Scenario(before[OLD_READ].fingerprint, before[OLD_READ].runs | write_runs)
    assert scenario_aliases.moved({OLD_READ: split}, now) == {}


def test_a_line_that_no_longer_holds_is_a_warning_and_left_out(site):
    table = site / scenario_aliases.TABLE
    table.write_text(
        f"{NEW_READ}: {NEW_WRITE}\nfio-read-read-1048576-1-direct-libaio-file: fio-gone\n", encoding="utf-8"
    )
    found = problems(site)
    assert (
        f"{scenario_aliases.TABLE}:1: warning: {NEW_READ!r} is a scenario's key now: its own page, the line is left out"
        in found
    )
    assert (
        f"{scenario_aliases.TABLE}:2: warning: 'fio-read-read-1048576-1-direct-libaio-file' -> 'fio-gone': "
        "there is no scenario 'fio-gone', the line is left out"
    ) in found
    scenarios = index(site)
    # The lines ingest added below them hold.
    assert scenarios[NEW_READ]["aliases"] == [f"/scenarios/{OLD_READ}/"]
    assert scenarios[NEW_WRITE]["aliases"] == [f"/scenarios/{OLD_WRITE}/"]


def test_the_examples_old_scenario_keys_lead_to_their_scenarios(ingested):
    """content/scenarios/aliases.yaml: the two keys commit 45c5f8b moved, each now an alias of its scenario."""
    table = yaml.safe_load((ingested / scenario_aliases.TABLE).read_text(encoding="utf-8"))
    assert table == {OLD_READ: NEW_READ, OLD_WRITE: NEW_WRITE}
    scenarios = index(ingested)
    for old, new in table.items():
        assert old not in scenarios and scenarios[new]["aliases"] == [f"/scenarios/{old}/"]


def test_an_index_taken_from_the_generation_in_use_still_says_what_is_wrong_with_the_table(site):
    table = site / scenario_aliases.TABLE
    table.write_text("fio-read-read-1048576-1-direct-libaio-file: fio-gone\n", encoding="utf-8")
    gone = (
        f"{scenario_aliases.TABLE}:1: warning: 'fio-read-read-1048576-1-direct-libaio-file' -> 'fio-gone': "
        "there is no scenario 'fio-gone', the line is left out"
    )
    assert gone in problems(site)
    # That ingest wrote the keys that moved into the table (the fixture's): the next makes the index anew.
    assert gone in problems(site)
    published = (site / "data" / "scenario_index.json").stat()
    published_bytes = (site / "data" / "scenario_index.json").read_bytes()
    # A comment in a raw file: every report's share as it was, so the index is the one published.
    raw = next(path for path in (site / "content" / "reports").glob("build-vm-*/raw/*/*") if path.is_file())
    raw.write_bytes(raw.read_bytes() + b"\n<!-- edited -->\n")
    again = problems(site)
    assert gone in again and len(again) == len(set(again))
    # Not made again: linked from the generation in use, or the same bytes kept in the generation taken
    # over (publish.recycle), written before that one's.
    taken = (site / "data" / "scenario_index.json").stat()
    assert (site / "data" / "scenario_index.json").read_bytes() == published_bytes
    assert taken.st_mtime_ns <= published.st_mtime_ns
    assert index(site)[NEW_READ]["aliases"] == [f"/scenarios/{OLD_READ}/"]

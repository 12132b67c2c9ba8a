"""Citing runs in prose: {{< run >}}, {{< command >}} and {{< comparison >}} in the example narratives,
and a build that fails, naming the page, the line and the id, when a citation points nowhere."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from perfwiki import runstore
from perfwiki.ingest import load_report
from support import ROOT, copy_published, copy_site_sources, hugo_binary

pytestmark = pytest.mark.site
REPORT = "nvme-raw-vs-ext4"
RUN = "nvme-raw-fio-bandwidth-iops-latency-sequential-write-bandwidth-test"


def page_html(site: Path, path: str) -> str:
    return (site / "bench" / path / "index.html").read_text(encoding="utf-8")


def run_document(report: str, run: str) -> dict:
    return runstore.run_page(ROOT, report, run)


def text(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", html)).strip()


def test_run_citation_links_the_run_with_its_headline_numbers(built_site):
    html = page_html(built_site, f"reports/{REPORT}")
    cited = re.search(r'<span class="cite-run">(.*?)</span>\.', html, re.S)
    assert cited, "the report's narrative cites a run"
    assert f'href="/bench/runs/{REPORT}/{RUN}/"' in cited.group(1)
    # The numbers are the run's own headline (as its run page shows them), not retyped prose.
    values = run_document(REPORT, RUN)["headline"]["values"]
    assert values[0] == "872" and values[1] == {"text": "927MiB/s", "si": "972 MB/s", "iec": "927 MiB/s"}
    # Shown as fio printed them ("Units: as printed", the default), the latencies in the one format.
    assert text(cited.group(1)).endswith(
        "(IOPS 872 · Bandwidth 927MiB/s · Mean completion latency 4,476 ms · p99 completion latency 6,946 ms)"
    )
    run_page = page_html(built_site, f"runs/{REPORT}/{RUN}")
    for value in ("872", "927MiB/s", "4,476 ms", "6,946 ms"):
        assert value in run_page


def test_run_citation_outside_a_report_names_the_report(built_site):
    html = page_html(built_site, "environments/essd-pl3-vdb")
    link = "/bench/runs/ssd-cloud-disks-lvm-raid/essd-pl3-vdb-runs-ebs-4k-randwrite-test-4/"
    assert f'<span class="cite-run"><a href="{link}">' in html


def test_command_citation_is_the_exact_command_with_copy_button_and_raw_lines(built_site):
    html = page_html(built_site, f"reports/{REPORT}")
    figure = html[html.index('<figure class="cite-command">') :]
    figure = figure[: figure.index("</figure>")]
    code = re.search(r'<code id="(cited-command-\d+)" class="language-sh">(.*?)</code>', figure, re.S)
    run = next(run for run in load_report(ROOT, REPORT)["runs"] if run["id"] == RUN)
    assert text(code.group(2)) == run["command"]
    assert f'<button type="button" class="copy" data-copy="{code.group(1)}">Copy</button>' in figure
    start, end = run["source"]["line_start"], run["source"]["line_end"]
    assert f'?lines={start}-{end}#L{start}">fio-bandwidth-iops-latency.md, lines {start}–{end}</a>' in figure


def test_a_cited_comparison_is_shown_once_where_the_text_cites_it(built_site):
    html = page_html(built_site, f"reports/{REPORT}")
    assert html.count('id="cmp-raw-device-summary"') == 1
    narrative_end = html.index('id="comparisons-heading"')
    assert html.index('id="cmp-raw-device-summary"') < narrative_end  # in the text, with its table
    assert '<p class="cite-again"><a href="#cmp-raw-device-summary">' in html[narrative_end:]
    # The "At a glance" list still leads to it.
    assert html.count('href="#cmp-raw-device-summary"') >= 2


def test_a_comparison_cited_on_an_environment_page_draws_there_and_links_back(built_site):
    html = page_html(built_site, "environments/centos-vm-writeback")
    block = html[html.index('<div class="cite-comparison">') :]
    assert 'id="cmp-local-storage-iops-of-the-physical-host"' in block
    # Its charts, drawn as they are on the report (static first), and the bundle to make them interactive.
    assert 'class="panel__plot chart__plot--static"' in block and "class='chart__static'" in block
    assert "data-plotly=" in html
    assert 'href="/bench/reports/vm-vs-bare-metal/#cmp-local-storage-iops-of-the-physical-host"' in block


@pytest.fixture(scope="module")
def citing_site(tmp_path_factory, built_site) -> Path:
    """A copy of the example wiki with the data/ built_site ingested, to build with one more citation."""
    site = copy_site_sources(tmp_path_factory.mktemp("citing"))
    copy_published(ROOT, site)
    return site


OLD_CITATIONS = (
    "Cited by old names: {{< run lab-vm-dm0 >}}, {{< run vm-vs-bare-metal r730-host-random-read-2 >}} and\n"
    "{{< run ssd-san-hdd-cloud-disks essd-vda-ebs-4k-randwrite-test >}}.\n\n"
    '{{< command "vm-vs-bare-metal/r730-host" >}}\n\n'
    "{{< comparison ssd-san-hdd-cloud-disks pl3-vs-local >}}\n"
)


def build_with_text(site: Path, tmp_path: Path, added: str) -> subprocess.CompletedProcess[str]:
    """Build the site with `added` at the end of fio-iops-basics' narrative, which is put back after."""
    page = site / "content" / "reports" / "fio-iops-basics" / "index.md"
    original = page.read_text(encoding="utf-8")
    try:
        page.write_text(original + added, encoding="utf-8")
        return subprocess.run(
            [str(hugo_binary()), "--panicOnWarning", "-d", str(tmp_path / "out")],
            cwd=site,
            capture_output=True,
            text=True,
        )
    finally:
        page.write_text(original, encoding="utf-8")


def test_a_narrative_citing_old_ids_and_slugs_shows_the_runs_they_named(citing_site, tmp_path):
    """Ids and slugs retired in aliases.yaml and front matter keep working in text written before."""
    build = build_with_text(citing_site, tmp_path, f"\n{OLD_CITATIONS}")
    assert build.returncode == 0, build.stdout + build.stderr
    html = (tmp_path / "out" / "reports" / "fio-iops-basics" / "index.html").read_text(encoding="utf-8")
    cited = re.findall(r'<span class="cite-run"><a href="([^"]+)">([^<]+)</a>', html)
    assert cited[-3:] == [
        ("/runs/fio-iops-basics/lab-vm-dm0-ioping/", "Latency (ioping) — lab-vm-dm0"),
        ("/runs/vm-vs-bare-metal/r730-host-4k-seq-read/", "4 KiB sequential read — r730-host"),
        (
            "/runs/ssd-cloud-disks-lvm-raid/essd-vda-runs-4k-random-read-write/",
            "ESSD cloud disk (-direct=1 -buffered=1) — essd-vda",
        ),
    ]
    figure = html[html.rindex('<figure class="cite-command">') :]
    assert '<a href="/runs/vm-vs-bare-metal/r730-host-mbw/">' in figure
    assert text(figure[: figure.index("</code>")]) == "./mbw 512"  # the mbw run's exact command
    assert 'id="cmp-pl3-vs-local"' in html
    assert '<p class="meta">From <a href="/reports/ssd-cloud-disks-lvm-raid/#cmp-pl3-vs-local">' in html


BAD_CITATIONS = [
    ("{{< run nope >}}", 'unknown run "nope" in report "fio-iops-basics"'),
    ("{{< run vm-vs-bare-metal nope >}}", 'unknown run "nope" in report "vm-vs-bare-metal"'),
    ("{{< run no-such-report lab-vm-dm0 >}}", 'there is no report "no-such-report"'),
    ("{{< command nope >}}", 'unknown run "nope"'),
    ("{{< command nvme-raw-vs-ext4 nvme-ext4-sequential-write-bandwidth-test >}}", "typed by hand"),
    ("{{< comparison nope >}}", 'unknown comparison "nope" in report "fio-iops-basics"'),
    ("{{< comparison vm-vs-bare-metal nope >}}", "its comparisons: local-storage-iops-of-the-physical-host"),
    ("{{< run >}}", "the run to cite is missing"),
]


@pytest.mark.parametrize(("citation", "says"), BAD_CITATIONS)
def test_a_citation_that_points_nowhere_fails_the_build_with_page_line_and_id(citing_site, tmp_path, citation, says):
    page = citing_site / "content" / "reports" / "fio-iops-basics" / "index.md"
    line = page.read_text(encoding="utf-8").count("\n") + 2  # the blank line, then the citation
    build = build_with_text(citing_site, tmp_path, f"\nAs {citation} shows.\n")
    assert build.returncode != 0
    errors = [row for row in (build.stdout + build.stderr).splitlines() if row.startswith("ERROR ")]
    assert f"content/reports/fio-iops-basics/index.md:{line}:" in errors[0], errors
    assert says in errors[0], errors


def test_the_example_narratives_cite(built_site):
    """Every kind of citation is used by a shipped page, so the example wiki shows how."""
    sources = [path.read_text(encoding="utf-8") for path in (ROOT / "content").rglob("*.md")]
    for name in ("run", "command", "comparison"):
        assert any(f"{{{{< {name} " in source for source in sources), name

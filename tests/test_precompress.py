"""make build's precompressed scripts and styles (perfwiki.precompress), on the site's own files."""

from __future__ import annotations

import gzip
import shutil

import brotli

from perfwiki import runstore
from perfwiki.precompress import MIN_BYTES, precompress
from support import ROOT


def test_scripts_and_styles_get_gzip_and_brotli_copies_that_unpack_to_them(tmp_path):
    site = tmp_path / "public"
    shutil.copytree(ROOT / "site" / "assets" / "js", site / "js")
    shutil.copytree(ROOT / "site" / "assets" / "css", site / "css")
    (site / "index.html").write_text("<!doctype html>" + "<p>page</p>" * 500, encoding="utf-8")
    files, total, gz_total, br_total = precompress(site)
    sources = [path for path in sorted(site.rglob("*")) if path.suffix in (".js", ".css")]
    large = [path for path in sources if path.stat().st_size >= MIN_BYTES]
    assert files == len(large) > 5 and total == sum(path.stat().st_size for path in large)
    for path in large:
        original = path.read_bytes()
        assert gzip.decompress(path.with_name(path.name + ".gz").read_bytes()) == original
        assert brotli.decompress(path.with_name(path.name + ".br").read_bytes()) == original
    # Small files and pages are left alone: a page is compressed by the server as it is sent.
    assert not any(path.with_name(path.name + ".gz").exists() for path in sources if path not in large)
    assert not (site / "index.html.gz").exists()
    assert br_total < gz_total < total


def test_an_unchanged_file_gives_the_same_bytes_again(tmp_path):
    site = tmp_path / "public"
    shutil.copytree(ROOT / "site" / "assets" / "js", site)
    precompress(site)
    first = {path.name: path.read_bytes() for path in site.glob("*.gz")}
    precompress(site)
    assert first and {path.name: path.read_bytes() for path in site.glob("*.gz")} == first


def test_a_reports_chart_specs_get_copies_and_run_documents_do_not(tmp_path, ingested):
    """charts.json is fetched with plotly when a reader reaches for a chart; a run's index.json is a
    download, one of up to 100,000, which the server compresses as it sends it if at all."""
    published = ingested / "site" / "static"
    site = tmp_path / "public"
    (site / "reports" / "vm-vs-bare-metal").mkdir(parents=True)
    shutil.copy2(published / "reports" / "vm-vs-bare-metal" / "charts.json", site / "reports" / "vm-vs-bare-metal")
    run = runstore.run_exports(ingested, "vm-vs-bare-metal", "r730-host-seq-read")[0]
    (site / "index.json").write_text(run, encoding="utf-8")
    assert len(run.encode()) >= MIN_BYTES
    files, *_ = precompress(site)
    charts = site / "reports" / "vm-vs-bare-metal" / "charts.json"
    assert files == 1 and gzip.decompress((site / "reports" / "vm-vs-bare-metal" / "charts.json.gz").read_bytes()) == (
        charts.read_bytes()
    )
    assert brotli.decompress(charts.with_name("charts.json.br").read_bytes()) == charts.read_bytes()
    assert not (site / "index.json.gz").exists()

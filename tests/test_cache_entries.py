"""The ingest cache's entries on disk: runs compressed against a dictionary made of the parsers'
documented examples, read back whole or not at all."""

from __future__ import annotations

import importlib

import pytest

from perfwiki import cache, cachedict, tools
from perfwiki.cache import Cache
from perfwiki.extract import extract, extract_text
from perfwiki.ingest import ingest
from perfwiki.model import Source
from support import FIXTURES, copy_site_sources, example_raw_files


@pytest.mark.parametrize("name", tools.NAMES)
def test_every_tools_documented_example_is_real_input_it_parses(name):
    # The dictionary is made of these runs: a docstring whose example stopped parsing would drop its
    # tool's words from it, and its entries would grow without any test saying why.
    doc = importlib.import_module(f"perfwiki.tools.{name}.parser").__doc__
    runs = [
        run
        for number, text in enumerate(cachedict.examples(doc))
        for run in extract_text(text, Source(f"{name}-{number}.txt", 1, 1, "0" * 64)).runs
    ]
    assert runs and {run.tool for run in runs} == {name}


def test_the_dictionary_is_the_same_bytes_in_every_process_and_fits_deflates_window():
    made = cachedict.runs()
    assert 0 < len(made) <= cachedict.WINDOW == 32 * 1024
    # Made again from nothing, as a worker makes it.
    cachedict.runs.cache_clear()
    assert cachedict.runs() == made


def _runs_of(path):
    return extract(path.name, path.read_bytes()).runs


def test_runs_are_a_third_smaller_against_the_dictionary_and_read_back_the_same(tmp_path):
    store = Cache(tmp_path)
    runs = [run for path in example_raw_files() for run in _runs_of(path)]
    assert len(runs) > 100
    against, alone = 0, 0
    for number, run in enumerate(runs):
        store.save("extract", str(number), [run])
        store.save("alone", str(number), [run])
        against += store.path("extract", str(number), ".pickle").stat().st_size
        alone += store.path("alone", str(number), ".pickle").stat().st_size
        assert [read.to_dict() for read in store.load("extract", str(number))] == [run.to_dict()]
    assert against < 0.8 * alone, (against, alone)


def test_an_entry_cut_short_is_missing_not_fewer_pieces(tmp_path):
    store = Cache(tmp_path)
    runs = _runs_of(FIXTURES / "fio" / "fio-3.33-randread-4k-json.txt")
    with store.pieces("extract", "cut") as put:
        for _ in range(50):  # the first piece refers back within itself, as every later one does
            put("runs", runs)
    whole = store.load("extract", "cut")
    assert len(whole["runs"]) == 50 * len(runs)
    path = store.path("extract", "cut", ".pickle")
    path.write_bytes(path.read_bytes()[: path.stat().st_size // 2])
    assert store.load("extract", "cut") is None


def test_the_dictionary_is_kept_in_the_cache_and_an_entry_read_against_another_is_missing(tmp_path, monkeypatch):
    store = Cache(tmp_path)
    store.save("extract", "runs", _runs_of(FIXTURES / "iperf3" / "iperf3-3.12-loopback-t1-json.txt"))
    kept = list((tmp_path / ".perfwiki-cache" / "dictionaries").iterdir())
    assert [path.read_bytes() for path in kept] == [cachedict.runs()]
    monkeypatch.setattr(cache, "_DICTIONARIES", {})  # another process: it reads the one kept
    monkeypatch.setattr(cachedict, "runs", lambda: pytest.fail("made again"))
    assert store.load("extract", "runs")[0].tool == "iperf3"
    monkeypatch.setattr(cache, "_DICTIONARIES", {})
    kept[0].write_bytes(b"another dictionary " * 100)
    assert store.load("extract", "runs") is None


def test_an_ingest_keeps_the_dictionary_its_workers_made(tmp_path):
    site = copy_site_sources(tmp_path)
    ingest(site, workers=2, out=None)
    kept = list((site / ".perfwiki-cache" / "dictionaries").iterdir())
    assert [path.read_bytes() for path in kept] == [cachedict.runs()]

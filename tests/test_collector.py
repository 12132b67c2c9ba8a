"""The cyclic garbage collector is paused where ingest builds large trees of plain objects (its own
process: the plan, the reports it builds itself, the site index) and on in its worker processes
(collector.py)."""

from __future__ import annotations

import gc
import os
from pathlib import Path

from perfwiki import collector, ingest
from support import copy_site_sources


def test_paused_turns_the_collector_off_inside_and_back_as_it_was():
    assert gc.isenabled()
    with collector.paused():
        assert not gc.isenabled()
        with collector.paused():
            assert not gc.isenabled()
        assert not gc.isenabled()  # an inner pause ends into the outer one
    assert gc.isenabled()
    gc.disable()
    try:
        with collector.paused():
            pass
        assert not gc.isenabled()  # off before: off after
    finally:
        gc.enable()


_BUILD = ingest.build_report
_SEEN: list[Path] = []  # where noting() writes; forked workers inherit it


def noting(root, job):
    """build_report, after noting its process and whether the collector is on (a module-level function:
    the pool sends it to its workers by name)."""
    with _SEEN[0].open("a") as file:
        file.write(f"{os.getpid()} {gc.isenabled()}\n")
    return _BUILD(root, job)


def test_ingest_builds_with_the_collector_off_in_its_process_and_on_in_its_workers(tmp_path, monkeypatch):
    seen = tmp_path / "seen"
    _SEEN[:] = [seen]
    monkeypatch.setattr(ingest, "build_report", noting)
    for workers in (1, 2):
        (tmp_path / str(workers)).mkdir()
        site = copy_site_sources(tmp_path / str(workers))
        seen.write_text("")
        assert ingest.ingest(site, workers=workers, out=None).run_count > 100
        states = {line.split()[1] for line in seen.read_text().split("\n") if line}
        pids = {line.split()[0] for line in seen.read_text().split("\n") if line}
        if workers == 1:
            assert states == {"False"} and pids == {str(os.getpid())}
        else:
            assert states == {"True"} and str(os.getpid()) not in pids
        assert gc.isenabled()  # back on once the ingest is done

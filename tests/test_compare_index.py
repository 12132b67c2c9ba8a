"""What ingest decides for the compare page (pages/index.py): which scenarios are a near match of
another, in one named parameter, from real runs' fingerprints."""

from __future__ import annotations

from pathlib import Path

from perfwiki.compare import fingerprint_key
from perfwiki.extract import extract
from perfwiki.pages.index import near_scenarios

FIXTURE = Path(__file__).parent / "fixtures" / "fio" / "fio-3.33-enospc-psync-iodepth16.txt"


def test_near_scenarios_differ_in_one_parameter_only():
    (run,) = extract("tests/fixtures/fio/fio-3.33-enospc-psync-iodepth16.txt", FIXTURE.read_bytes()).runs
    (real,) = run.fingerprints.values()  # fio write, 64 KiB, QD1 (psync), buffered, file
    engine = {**real, "ioengine": "libaio"}
    two = {**real, "ioengine": "libaio", "bs_bytes": 4096}
    prints = {fingerprint_key(print_): print_ for print_ in (real, engine, two)}
    near = near_scenarios(prints)
    ours, theirs, far = (fingerprint_key(print_) for print_ in (real, engine, two))
    assert near[ours] == [[theirs, "engine", "engine libaio, not psync"]]
    assert sorted(near[theirs]) == sorted(
        [[ours, "engine", "engine psync, not libaio"], [far, "block size", "block size 4 KiB, not 64 KiB"]]
    )
    # Two parameters apart from the real one: near the libaio one only.
    assert near[far] == [[theirs, "block size", "block size 64 KiB, not 4 KiB"]]

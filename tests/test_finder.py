"""The run finder's files (pages/finder.py): each run's parameters as filters, and the files a page
fetches a filter at a time, from real runs (the seeds' NAS job files, fio and iperf3 captured here)."""

from __future__ import annotations

import json

from perfwiki.pages import finder
from perfwiki.pages.index import index_share
from support import fixture_runs, slice_runs


def values(facets: dict, facet: str) -> list[str]:
    return [value for value, _, _ in facets.get(facet, [])]


def test_a_job_file_s_psync_at_iodepth_64_is_qd1_and_iodepth_64():
    """The NAS seed: iodepth=64 and ioengine=psync in the job file, nothing on a command line."""
    (run,) = slice_runs("nas-cache-modes/raw/nas-default/fio.txt")
    facets = finder.run_facets(run)
    assert values(facets, "qd") == ["1"] and values(facets, "iodepth") == ["64"]
    assert values(facets, "rw") == ["randrw"] and values(facets, "direction") == ["read", "write"]
    assert values(facets, "engine") == ["psync"] and values(facets, "io") == ["direct"]
    # filename=\\.\PhysicalDrive1:... is Windows' name for a disk; fio on Linux (its disk stats say so)
    # made three files of those names.
    assert values(facets, "target") == ["file"] and values(facets, "read_pct") == ["50"]
    assert "bs" not in facets  # bssplit=512/10:1k/5:...: no one block size


def test_command_line_and_json_parameters_with_fio_s_defaults():
    (fill,) = fixture_runs("fio/fio-3.33-enospc-psync-iodepth16.txt", "here")
    facets = finder.run_facets(fill)
    assert values(facets, "bs") == ["64KiB"] and facets["bs"][0][1] == "64 KiB"  # ?bs=64KiB, shown "64 KiB"
    assert values(facets, "qd") == ["1"] and values(facets, "iodepth") == ["16"]  # --ioengine=psync --iodepth=16
    assert values(facets, "io") == ["buffered"]  # fio's default, its options all on the command line
    (mixed,) = fixture_runs("fio/fio-3.33-randrw-numjobs2.json", "here")  # JSON without a command
    facets = finder.run_facets(mixed)
    assert values(facets, "jobs") == ["2"] and values(facets, "read_pct") == ["50"] and values(facets, "bs") == ["4KiB"]


def test_iperf3_protocol_streams_and_direction():
    (run,) = fixture_runs("iperf3/iperf3-3.12-loopback-P4-t1.txt", "loopback")
    assert finder.run_facets(run) == {
        "protocol": [["tcp", "tcp", None]],
        "streams": [["4", "4", 4]],
        "direction": [["forward", "forward", None]],
    }


def rows_of(gaps: list[int]) -> list[int]:
    rows, at = [], 0
    for gap in gaps:
        at += gap
        rows.append(at)
    return rows


def test_the_files_hold_every_run_once_and_each_value_s_runs():
    nas = slice_runs("nas-cache-modes/raw/nas-default/fio.txt")
    fio = fixture_runs("fio/fio-3.33-enospc-psync-iodepth16.txt", "here") + fixture_runs(
        "fio/fio-3.33-randread-4k-json.txt", "here"
    )
    iperf = fixture_runs("iperf3/iperf3-3.12-loopback-P4-t1.txt", "loopback")
    shares = [
        index_share("nas", nas, "NAS", "2021-10-24"),
        index_share("captured", fio + iperf, "Captured here", "2026-11-20"),
    ]
    files = {name: json.loads(text) for name, text in finder.files(shares).items()}
    meta = files["_find/facets.json"]
    assert meta["total"] == 4 and meta["order"][:3] == ["tool", "environment", "report"]
    rows = files["_find/rows-0.json"]
    assert len(rows) == 4 and [row["title"].lower() for row in rows] == sorted(row["title"].lower() for row in rows)
    # Each value's rows are the rows that have it; the counts are theirs.
    qd1 = rows_of(files["_find/by-qd.json"]["1"])
    assert sorted(rows[n]["tool"] for n in qd1) == ["fio", "fio", "fio"]
    assert [rows[n]["report"] for n in rows_of(files["_find/by-iodepth.json"]["64"])] == ["nas"]
    assert dict((value, count) for value, _, count in meta["facets"]["qd"]["values"]) == {"1": 3}
    # A parameter's values per tool: fio's direction is read or write, iperf3's forward.
    assert meta["facets"]["direction"]["per_tool"] == {
        "fio": {"read": 2, "write": 2},
        "iperf3": {"forward": 1},
    }
    assert files["_find/reports.json"] == {"nas": ["NAS", "2021-10-24"], "captured": ["Captured here", "2026-11-20"]}
    # Key-result order: grouped by what the first number measures, smallest first.
    order = files["_find/by-result.json"]
    assert sorted(order["rows"]) == [0, 1, 2, 3]
    for label, start, end in order["groups"]:
        numbers = [rows[n]["key_results"][0]["number"] for n in order["rows"][start:end]]
        assert label and numbers == sorted(numbers)


def test_rows_come_200_to_a_file():
    runs = fixture_runs("fio/fio-3.33-randread-4k-json.txt", "here")
    shares = [index_share(f"report-{n:03}", runs, None, None) for n in range(finder.ROWS_PER_FILE + 1)]
    files = finder.files(shares)
    assert len(json.loads(files["_find/rows-0.json"])) == finder.ROWS_PER_FILE
    assert len(json.loads(files["_find/rows-1.json"])) == 1 and "_find/rows-2.json" not in files
    # 201 reports: more than a list to pick from, the values apart, fetched when the field is used.
    report = json.loads(files["_find/facets.json"])["facets"]["report"]
    assert report["many"] == finder.ROWS_PER_FILE + 1 > finder.LISTED_VALUES and "values" not in report
    assert json.loads(files["_find/values-report.json"])[0] == ["report-000", "report-000", 1]


def test_each_value_s_rows_are_the_runs_that_have_it_when_runs_share_their_values():
    """Runs of one scenario share one mapping of their values (index_share), walked once for all of
    them (finder._postings): each value's rows must still be exactly, and in order, the rows whose run
    has it, across reports whose runs interleave in the list."""
    names = [
        "fio/fio-3.33-mixed-engines-group-reporting.txt",
        "fio/fio-3.33-randread-direct-then-buffered.txt",
        "fio/fio-3.33-two-groups.txt",
        "fio/fio-3.33-randrw-numjobs2.json",
        "iperf3/iperf3-3.12-loopback-P4-t1.txt",
    ]
    # Each file on two environments: the same values twice in a report.
    runs = [run for name in names for env in ("env-a", "env-b") for run in fixture_runs(name, env)]
    for number, run in enumerate(runs):
        run.id = f"run-{number}"  # as ingest names them (ids.py), each its own
        run.unique_title = f"title {number % 5}"  # the list (by title) takes runs of each set in turn
    # Three reports of the same runs, so each set of values is in each of them too.
    shares = [index_share(f"report-{n}", runs, None, None) for n in range(3)]
    reused = [entry["facets"] for entries in shares[0]["environments"].values() for entry in entries]
    assert len({id(facets) for facets in reused}) < len(reused)  # some runs share one mapping
    files = {name: json.loads(text) for name, text in finder.files(shares).items()}
    rows = files["_find/rows-0.json"]
    by_run = {run.id: run for run in runs}
    expected: dict[str, dict[str, list[int]]] = {}
    for number, row in enumerate(rows):
        run = by_run[row["id"]]
        facets = {name: [[row[name]]] for name in finder.COMMON} | finder.run_facets(run)
        for facet, entries in facets.items():
            for entry in entries:
                expected.setdefault(facet, {}).setdefault(entry[0], []).append(number)
    meta = files["_find/facets.json"]
    assert set(meta["order"]) == set(expected)
    for facet, lists in expected.items():
        assert {value: rows_of(gaps) for value, gaps in files[f"_find/by-{facet}.json"].items()} == lists
        counts = {value: count for value, _, count in meta["facets"][facet]["values"]}
        assert counts == {value: len(found) for value, found in lists.items()}
    # Per tool, as many runs of that tool as have the value.
    for facet, info in meta["facets"].items():
        for tool, counts in (info.get("per_tool") or {}).items():
            for value, count in counts.items():
                assert count == sum(rows[n]["tool"] == tool for n in expected[facet][value])

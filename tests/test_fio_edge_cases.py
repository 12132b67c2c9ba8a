"""fio edge cases on synthetic inputs assembled from real example lines (see reference/fio-output.md)."""

from __future__ import annotations

import json
import re

import pytest

from perfwiki.extract import extract
from perfwiki.tools.fio import parser as fio
from support import ROOT

FIXTURES = ROOT / "tests" / "fixtures" / "fio"

KiB, MiB = 2**10, 2**20


def only(text: str):
    (report,) = fio.parse(text)
    return report


def test_synthetic_fio_2_0_13_padding_and_uppercase_suffixes():
    report = only(
        "\n".join(
            [
                "fio-2.0.13",
                "iometer: (groupid=0, jobs=1): err= 0: pid=2619: Mon Jul  3 22:30:33 2023",
                "  read : io=150928KB, bw=514874 B/s, iops=31 , runt=300171msec",
                "    clat (usec): min=22 , max=1805.8K, avg=806.62, stdev=13.29",
                "    bw (KB/s)  : min=    0, max=   93, per=4.60%, avg=23.10, stdev=13.29",
                "     issued    : total=r=9433/w=5950/d=0, short=r=0/w=0/d=0",
                "",
                "Run status group 0 (all jobs):",
                "   READ: io=150928KB, aggrb=502KB/s, minb=502KB/s, maxb=502KB/s, mint=300171msec, maxt=300171msec",
            ]
        )
    )
    read = report.jobs[0]["read"]
    assert (read["io_bytes"], read["bw_bytes_per_s"], read["iops"], read["runtime_ms"]) == (
        150928 * KiB,
        514874,
        31,
        300171,
    )
    assert read["clat_ns"]["max"] == 1_805_800_000  # 1805.8K usec
    assert read["bw_samples"]["mean"] == pytest.approx(23.10 * KiB)
    assert report.jobs[0]["issued"]["total"] == [9433, 5950, 0]
    assert report.groups[0]["read"]["bw_bytes_per_s"] == 502 * KiB
    assert report.warnings == []


def test_synthetic_error_job_without_results_is_still_a_run():
    report = only(
        "\n".join(
            [
                "fio: io_u error on file /dev/sdb: Input/output error: read offset=0, buflen=4096",
                "fio-3.28",
                "zns-fio-seq: (groupid=0, jobs=1): err= 5 (file:io_u.c:1787, func=io_u error, "
                "error=Input/output error): pid=14693: Mon Nov 15 10:00:00 2021",
                "  cpu          : usr=0.00%, sys=0.00%, ctx=1, majf=0, minf=9",
            ]
        )
    )
    job = report.jobs[0]
    assert (job["error"], job["error_text"]) == (5, "file:io_u.c:1787, func=io_u error, error=Input/output error")
    assert report.has_results() and report.problems == []
    assert report.warnings == ["fio: io_u error on file /dev/sdb: Input/output error: read offset=0, buflen=4096"]


def test_synthetic_sync_block_zone_resets_and_steadystate():
    report = only(
        "\n".join(
            [
                "fio-3.25",
                "etcd: (groupid=0, jobs=1): err= 0: pid=1: Thu Jan  1 00:00:00 2021",
                "  write: IOPS=4801, BW=18.8MiB/s (19.7MB/s)(22.0MiB/1173msec); 0 zone resets",
                "  fsync/fdatasync/sync_file_range:",
                "    sync (usec): min=161, max=345, avg=192.48, stdev=20.09",
                "    sync percentiles (usec):",
                "     |  1.00th=[  167], 99.00th=[  262]",
                "  steadystate  : attained=yes, bw=24.3GiB/s (25.5GB/s), iops=398k, iops mean dev=1.215%",
                "     issued rwts: total=0,5632,0,0 short=5631,0,0,0 dropped=0,0,0,0",
            ]
        )
    )
    job = report.jobs[0]
    assert job["write"]["zone_resets"] == 0
    assert job["sync"]["lat_ns"]["mean"] == 192_480
    assert job["sync"]["percentiles_ns"] == {"1.00": 167_000, "99.00": 262_000}
    assert job["steadystate_attained"] is True
    assert job["issued"] == {"total": [0, 5632, 0, 0], "short": [5631, 0, 0, 0], "dropped": [0, 0, 0, 0]}
    assert report.warnings == []


def test_synthetic_percentile_unit_differs_from_clat_line_and_wide_values():
    report = only(
        "\n".join(
            [
                "fio-3.1",
                "x: (groupid=0, jobs=1): err= 0: pid=1: Thu Jan  1 00:00:00 2021",
                "   read: IOPS=8522, BW=33.3MiB/s (34.9MB/s)(4096MiB/123042msec)",
                "    clat (nsec): min=1836, max=22866k, avg=116245.10, stdev=2000.00",
                "    clat percentiles (usec):",
                "     |  1.00th=[     2], 99.95th=[ 2473984], 99.99th=[16711680]",
            ]
        )
    )
    read = report.jobs[0]["read"]
    assert read["clat_ns"]["max"] == 22_866_000
    assert read["percentiles_ns"] == {"1.00": 2000, "99.95": 2_473_984_000, "99.99": 16_711_680_000}


def test_synthetic_percentiles_spelled_otherwise_are_keyed_with_two_decimals():
    report = only(
        "\n".join(
            [
                "fio-3.1",
                "x: (groupid=0, jobs=1): err= 0: pid=1: Thu Jan  1 00:00:00 2021",
                "   read: IOPS=8522, BW=33.3MiB/s (34.9MB/s)(4096MiB/123042msec)",
                "    clat percentiles (usec):",
                "     |  5.0th=[ 1], 05.00th=[ 2], 99.990th=[ 3], 0.50th=[ 4], 100.00th=[ 5]",
            ]
        )
    )
    assert report.jobs[0]["read"]["percentiles_ns"] == {"5.00": 2000, "99.99": 3000, "0.50": 4000, "100.00": 5000}


def test_synthetic_json_padding_preamble_and_old_usec_keys():
    # fio before 3.4 padded percentile maps with duplicate "0.00" keys; before 2.99 latencies were usec.
    text = (
        "fio: this platform does not support process shared mutexes, forcing use of threads.\n"
        "note: both iodepth >= 1 and synchronous I/O engine are selected, queue depth will be capped at 1\n"
        '{"fio version": "fio-2.1.4", "jobs": [{"jobname": "w", "groupid": 0, "error": 0,\n'
        ' "write": {"io_bytes": 361984, "bw": 6033, "iops": 11, "runtime": 60000, "total_ios": 707,\n'
        '  "clat": {"min": 10, "max": 900, "mean": 87.5, "stddev": 2.0,\n'
        '   "percentile": {"99.000000": 120, "0.00": 0, "0.00": 0}}}}]}\n'
    )
    report = only(text)
    write = report.jobs[0]["write"]
    assert write["io_bytes"] == 361984 * KiB  # KiB before fio 2.21
    assert write["bw_bytes_per_s"] == 6033 * KiB
    assert write["clat_ns"]["mean"] == 87_500
    assert write["percentiles_ns"] == {"99.00": 120_000}
    assert len(report.warnings) == 1 and report.warnings[0].startswith("note: both iodepth")


def json_document(timestamp: int, elapsed: int, iops: float) -> str:
    job = {
        "jobname": "r",
        "groupid": 0,
        "error": 0,
        "elapsed": elapsed,
        "read": {"io_bytes": 4096, "bw_bytes": 1, "iops": iops, "runtime": 1000, "total_ios": 1},
    }
    return json.dumps({"fio version": "fio-3.33", "timestamp": timestamp, "jobs": [job]}, indent=1)


def test_synthetic_several_json_documents_status_interval_versus_repeats():
    snapshots = json_document(1000, 10, 5.0) + "\n" + json_document(1010, 20, 7.0) + "\n"
    (final,) = fio.parse(snapshots)  # the same run reported twice: keep the last snapshot
    assert final.jobs[0]["read"]["iops"] == 7.0
    repeats = json_document(1000, 20, 5.0) + "\n" + json_document(1030, 20, 7.0) + "\n"
    assert [r.jobs[0]["read"]["iops"] for r in fio.parse(repeats)] == [5.0, 7.0]


def test_synthetic_terse_line_cut_short_is_a_problem_with_its_line():
    found = extract("cut.terse", b"3;fio-3.33;mixed;0;0;80104;80023;20005\n")
    assert found.runs == []
    assert [str(p) for p in found.problems] == [
        "cut.terse:1: fio terse line not understood: terse line ends after 8 fields"
    ]


def test_a_garbled_disk_stats_value_is_left_out_not_a_crash():
    # Found by tests/test_fuzz.py: a NUL glued to "util=38.91%" by a paste.
    output = (FIXTURES / "fio-3.33-randrw-numjobs2.txt").read_text(encoding="utf-8")
    assert "util=" in output
    garbled = re.sub(r"util=([\d.]+%)", lambda match: f"util={match[1]}\x00", output, count=1)
    found = extract("garbled.txt", garbled.encode("utf-8"))
    clean = extract("clean.txt", output.encode("utf-8"))
    assert found.problems == [] and len(found.runs) == 1
    (disk,) = found.runs[0].metrics["disks"]
    (clean_disk,) = clean.runs[0].metrics["disks"]
    assert "util_pct" not in disk and clean_disk["util_pct"] > 0
    assert {k: v for k, v in clean_disk.items() if k != "util_pct"} == disk


def test_a_bandwidth_that_does_not_add_up_is_kept_and_flagged():
    # Made for this test from the fio 2.2.8 lines the issue quotes: bw=1092.1MB/s, where the same
    # job's io=2185.9MB in runt=2000msec is 1092.95 MB/s. The print is kept; the run says it is off.
    lines = [
        "fio-2.2.8",
        "seqwrite: (groupid=0, jobs=1): err= 0: pid=4242: Tue Jun  2 10:00:00 2015",
        "  write: io=2185.9MB, bw=1092.1MB/s, iops=279575, runt=  2000msec",
        "",
        "Run status group 0 (all jobs):",
        "  WRITE: io=2185.9MB, aggrb=1092.1MB/s, minb=1092.1MB/s, maxb=1092.1MB/s, mint=2000msec, maxt=2000msec",
    ]
    report = only("\n".join(lines))
    write = report.jobs[0]["write"]
    assert write["bw_bytes_per_s"] == pytest.approx(1092.1 * MiB)  # as printed
    (warning,) = report.warnings
    assert warning.startswith("write bandwidth printed as 1092.1MB/s, but 2185.9MB in 2000 ms is 1092.95MB/s")
    # One digit less of disagreement is rounding, and says nothing.
    lines[2] = "  write: io=2185.9MB, bw=1092.9MB/s, iops=279575, runt=  2000msec"
    assert only("\n".join(lines)).warnings == []


def test_a_second_direction_line_in_one_job_is_a_problem_not_an_overwrite():
    # fio 3.33's own output (captured), with its first read line pasted twice, the copy altered.
    text = (FIXTURES / "fio-3.33-two-groups.txt").read_text(encoding="utf-8")
    lines = text.split("\n")
    at = next(index for index, line in enumerate(lines) if line.strip().startswith("read: IOPS="))
    (first, *_) = fio.parse(text)
    iops = first.jobs[0]["read"]["iops"]
    lines.insert(at + 1, lines[at].replace("IOPS=", "IOPS=9"))
    (report, *_) = fio.parse("\n".join(lines))
    assert report.jobs[0]["read"]["iops"] == iops  # the first is kept
    assert report.problems == [(at + 1, f"a second read result in job {report.jobs[0]['name']!r}: the first is kept")]


def test_a_json_number_read_without_its_decimal_text_is_the_number_units_scaled_gives():
    """fio JSON's numbers at factor 1 skip the decimal round trip (json_output._number): every number of
    every fio JSON capture here, and the edges of floats, come out as units.scaled makes them, type too."""
    from perfwiki import units
    from perfwiki.tools.fio.json_output import _number

    numbers: list = []

    def walk(node):
        if isinstance(node, dict):
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)
        elif isinstance(node, (int, float)) and not isinstance(node, bool):
            numbers.append(node)

    for path in sorted(FIXTURES.glob("*.json")):
        walk(json.loads(path.read_text(encoding="utf-8")))
    edges = [0.0, -0.0, 1e-05, -2.5e-7, 0.1, 2.0**53 - 1, 2.0**53, 2.0**60, 1e16, 1e30, 10**30, -7]
    # Fractions of every length fio prints (a mean of 38596.129 ns, a cpu share of 31.4 %, a 99.99th percentile key).
    edges += [numerator / 7 * 10.0**shift for numerator in range(1, 300) for shift in range(-9, 17)]
    assert len(numbers) > 500
    for value in numbers + edges:
        text = repr(float(value)) if isinstance(value, float) else str(value)
        expected = units.scaled(text, 1)
        found = _number(value, 1)
        assert (found, type(found)) == (expected, type(expected)), value

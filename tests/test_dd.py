"""dd: seed 002's three runs, every locale wording the reference quotes, and live GNU dd with bash `time`."""

from __future__ import annotations

import subprocess

import pytest

from perfwiki.extract import extract
from perfwiki.tools.dd import parser as dd
from support import FIXTURES, seed_slices


def test_seed_002_three_runs_with_time():
    runs = seed_slices("002", "dd").runs
    assert [run.source.path.split("/")[-2] for run in runs] == [
        "hygon33-nvme",
        "hygon33-raid0-2nvme",
        "hygon33-lvm-2nvme",
    ]
    assert [run.metrics["bytes_per_s"] for run in runs] == [466e6, 979e6, 436e6]
    assert [run.metrics["seconds"] for run in runs] == [23.0399, 10.9632, 24.6481]
    assert [run.metrics["time"] for run in runs] == [
        {"real_s": 23.046, "user_s": 0.004, "sys_s": 8.033},
        {"real_s": 10.967, "user_s": 0.004, "sys_s": 10.899},
        {"real_s": 24.653, "user_s": 0.008, "sys_s": 24.557},
    ]
    first = runs[0]
    assert first.metrics["bytes"] == 10737418240
    assert first.metrics["records_in"] == {"full": 10240, "partial": 0}
    assert first.params == {
        "if": "/dev/zero",
        "of": "./tempfile2",
        "bs_bytes": 2**20,
        "count": 10240,
        "conv": "fsync",
        "direction": "write",
    }
    assert first.command.endswith("time taskset -c 16 dd if=/dev/zero of=./tempfile2 bs=1M count=10240 conv=fsync")


@pytest.mark.parametrize(
    "line, seconds, rate",
    [
        ("67108864 bytes (67 MB, 64 MiB) copied, 0.15067 s, 445 MB/s", 0.15067, 445e6),
        ("67108864 字节 (67 MB, 64 MiB) 已复制，0.0351201 s，1.9 GB/s", 0.0351201, 1.9e9),
        ("67108864 Bytes (67 MB, 64 MiB) kopiert, 0,0326306 s, 2,1 GB/s", 0.0326306, 2.1e9),
        ("67108864\u00a0octets (67 MB, 64 MiB) copiés, 0,0326061 s, 2,1 GB/s", 0.0326061, 2.1e9),
        ("скопійовано 67108864 байтів (67 MB, 64 MiB), 0,00257802 s, 26,0 GB/s", 0.00257802, 26.0e9),
        ("67108864 바이트 (67 MB, 64 MiB) 복사함, 0.00244063 s, 27.5 GB/s", 0.00244063, 27.5e9),
        ("67108864 bytes (67 MB) copied, 0.15067 s, 445 MB/s", 0.15067, 445e6),
        ("67108864 bytes (67 MB) copied, 0.15067 seconds, 445 MB/s", 0.15067, 445e6),
    ],
    ids=["C", "zh_CN", "de_DE", "fr_FR", "uk_UA", "ko_KR", "coreutils-8.24", "coreutils-6.0"],
)
def test_every_locale_reads_the_same(line, seconds, rate):
    (report,) = dd.parse(f"64+0 records in\n64+0 records out\n{line}\n")
    assert report.metrics["bytes"] == 67108864
    assert report.metrics["seconds"] == seconds
    assert report.metrics["bytes_per_s"] == pytest.approx(rate)


def test_exponent_seconds_and_infinity():
    (tiny,) = dd.parse("0 bytes copied, 2.2653e-05 s, 0.0 kB/s\n")
    assert (tiny.metrics["bytes"], tiny.metrics["seconds"], tiny.metrics["bytes_per_s"]) == (0, 2.2653e-05, 0)
    (instant,) = dd.parse("512 bytes copied, 0 s, Infinity B/s\n")
    assert instant.metrics["bytes_per_s"] is None  # shown as missing, never as 0


def test_time_formats():
    posix, gnu, verbose = (
        dd.parse("1 bytes copied, 1.0 s, 1 B/s\n" + tail)[0].metrics["time"]
        for tail in (
            "real 0.10\nuser 0.00\nsys 0.05\n",
            "0.00user 0.73system 0:00.74elapsed 99%CPU (0avgtext+0avgdata 2064maxresident)k\n",
            "\tUser time (seconds): 0.01\n\tSystem time (seconds): 0.72\n"
            "\tElapsed (wall clock) time (h:mm:ss or m:ss): 1:02.50\n",
        )
    )
    assert posix == {"real_s": 0.10, "user_s": 0.0, "sys_s": 0.05}
    assert gnu == {"real_s": 0.74, "user_s": 0.0, "sys_s": 0.73}
    assert verbose == {"user_s": 0.01, "sys_s": 0.72, "real_s": 62.5}


def test_live_gnu_dd_under_bash_time(tmp_path):
    target = tmp_path / "zero"
    result = subprocess.run(
        ["bash", "-c", f"time dd if=/dev/zero of={target} bs=1M count=8 conv=fsync"],
        capture_output=True,
        text=True,
        env={"LC_ALL": "C", "PATH": "/usr/bin:/bin"},
        check=True,
    )
    (report,) = dd.parse(result.stderr)
    metrics = report.metrics
    assert metrics["bytes"] == 8 * 2**20 == target.stat().st_size
    assert metrics["records_out"] == {"full": 8, "partial": 0}
    assert metrics["bytes_per_s_exact"] == pytest.approx(metrics["bytes"] / metrics["seconds"], rel=1e-6)
    assert set(metrics["time"]) == {"real_s", "user_s", "sys_s"}
    assert metrics["time"]["real_s"] >= metrics["seconds"] * 0.5


def test_status_progress_lines_fold_into_the_copy_they_report_on():
    # GNU dd 9.1 with status=progress, captured: five progress updates (carriage returns), then the summary.
    path = FIXTURES / "dd" / "status-progress-urandom.txt"
    result = extract("tests/fixtures/dd/status-progress-urandom.txt", path.read_bytes())
    (run,) = result.runs  # one copy, not a run per progress line
    assert run.command == "dd if=/dev/urandom of=/dev/null bs=1M count=1500 status=progress"
    assert (run.metrics["bytes"], run.metrics["seconds"]) == (1572864000, 5.63584)  # the final summary's
    assert run.metrics["records_out"] == {"full": 1500, "partial": 0}
    assert run.metrics["progress_lines"] == 1


def test_a_rate_that_does_not_match_bytes_over_seconds_is_kept_and_flagged():
    # GNU dd's own output (captured): 8388608 bytes in 0.00551659 s is 1.52 GB/s, printed "1.5 GB/s".
    text = (FIXTURES / "dd" / "debian12-dd.txt").read_text(encoding="utf-8")
    (report,) = dd.parse(text)
    assert report.warnings == []  # 1.5 is 1.52 to the digit dd printed
    (edited,) = dd.parse(text.replace(", 1.5 GB/s", ", 2.5 GB/s"))
    assert edited.metrics["bytes_per_s"] == 2.5e9  # as printed
    assert edited.warnings == [
        "the rate 2.5 GB/s does not match 8388608 bytes in 0.00551659 s (1.521 GB/s); the printed rate is kept"
    ]


def test_a_copy_onto_a_device_is_named_as_one_a_rerun_overwrites(tmp_path):
    """GNU dd's own summary, under the commands that wrote it: to a file, to /dev/null, and as the page
    would show it written to a disk. Only the last wipes what it names."""
    from perfwiki import tools

    output = subprocess.run(
        ["dd", "if=/dev/zero", f"of={tmp_path / 'zero'}", "bs=1M", "count=4"],
        capture_output=True,
        text=True,
        env={"LC_ALL": "C", "PATH": "/usr/bin:/bin"},
        check=True,
    ).stderr
    said = {}
    for target in (tmp_path / "zero", "/dev/null", "/dev/sdb"):
        (run,) = extract("dd.txt", f"$ dd if=/dev/zero of={target} bs=1M count=4\n{output}".encode()).runs
        said[str(target)] = tools.get("dd").destroys(run)
    assert said == {str(tmp_path / "zero"): None, "/dev/null": None, "/dev/sdb": "/dev/sdb"}

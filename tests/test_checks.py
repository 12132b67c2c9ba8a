"""Every methodology check, with a real input that triggers it and one that does not.

Real inputs are the seed pages' slices under content/reports/, outputs captured from Debian's
fio 3.33 (committed fixtures), and fio run here with options that really produce the condition.
"""

from __future__ import annotations

import shutil
import signal
import subprocess
import time
from pathlib import Path

import pytest

from perfwiki.extract import extract
from support import seed_slices

FIXTURES = Path(__file__).resolve().parent / "fixtures"


def runs_of(path: Path, name: str | None = None):
    return extract(name or path.name, path.read_bytes()).runs


def ids(run) -> set[str]:
    return {finding["id"] for finding in run.checks}


@pytest.fixture(scope="module")
def seed():
    cache = {}

    def runs(number: str):
        """Every run of a seed page, read from its slices in page order."""
        if number not in cache:
            cache[number] = seed_slices(number).runs
        return cache[number]

    return runs


# Seed 002's slices that the line numbers below are in.
NU4_NVME = "ssd-cloud-disks-lvm-raid/raw/nu4-nvme-sfdv0n1/runs.md"
NU4_SATA = "ssd-cloud-disks-lvm-raid/raw/nu4-sata-ssd/runs.md"
K28 = "ssd-cloud-disks-lvm-raid/raw/k28-mysql-nvme/runs.md"


def run_at(runs, name: str, line: int):
    """The run whose source starts at `line` of the slice `name`."""
    return next(run for run in runs if run.source.path == f"content/reports/{name}" and run.source.line_start == line)


@pytest.fixture(scope="module")
def live_fio(tmp_path_factory):
    binary = shutil.which("fio")
    if binary is None:
        pytest.fail("Debian's fio is not installed: run `make setup-system`")
    folder = tmp_path_factory.mktemp("checks")

    def run(*options: str, interrupt_after: float | None = None):
        command = [binary, "--name=check", f"--filename={folder}/data", "--size=8M", "--ioengine=psync", *options]
        process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        if interrupt_after:
            time.sleep(interrupt_after)
            process.send_signal(signal.SIGINT)
        output, _ = process.communicate(timeout=60)
        (run,) = extract("live.txt", f"$ {' '.join(command)}\n{output}".encode()).runs
        return run

    return run


def test_sync_engine_with_queue_depth(seed):
    psync = seed("004")[0]  # ioengine=psync, iodepth=64
    finding = next(f for f in psync.checks if f["id"] == "fio-sync-engine-iodepth")
    assert finding["severity"] == "warning" and "capped at 1" in finding["message"]
    assert "ioengine=psync, iodepth=64" in finding["evidence"]
    assert "fio-sync-engine-iodepth" not in ids(seed("000")[0])  # libaio at QD4096 really queues


R730 = "vm-vs-bare-metal/raw/r730-host/fio.md"
WIN2008 = "vm-vs-bare-metal/raw/win2008-vm-cache-none/fio.md"


def test_posixaio_on_linux_is_queue_depth_one(seed):
    """glibc runs a file's POSIX AIO requests one after another: the host's iodepth=16 was QD1 at
    its disk (fio's disk stats say Linux), while the Windows guest's windowsaio really queued 16."""
    from perfwiki import tools

    fio = tools.get("fio")
    host = run_at(seed("001"), R730, 51)  # 4 KiB random reads: 195 IOPS, clat 41 to 184 ms
    finding = next(f for f in host.checks if f["id"] == "fio-posixaio-linux-iodepth")
    assert finding["severity"] == "warning" and finding["line"] == 51
    # in_queue=62206 ms over 60039 ms: the disk held one request at a time, not sixteen.
    # 60458 ms of reads over 11821 of them, in_queue=62206 ms over 60039: one request at a time, 5.11 ms
    # each, where fio's completion latency (81.8 ms) holds the wait behind the other fifteen.
    assert "The disk's own statistics: 5.11 ms a request, 1.04 requests in its queue on average" in finding["message"]
    assert fio.fingerprint(host, "read")["iodepth"] == 1
    assert "QD1 (iodepth=16, posixaio on Linux) x 1" in fio.badges(host)
    guest = next(run for run in seed("001") if run.source.path == f"content/reports/{WIN2008}")
    assert guest.params["ioengine"] == "windowsaio" and fio.fingerprint(guest, "read")["iodepth"] == 16
    assert "fio-posixaio-linux-iodepth" not in ids(guest)


def test_posixaio_here_queues_one_request_where_libaio_queues_sixteen(live_fio):
    """This machine's glibc and disk: the same 16-deep direct random reads through each engine."""
    posix = live_fio(
        "--ioengine=posixaio", "--iodepth=16", "--rw=randread", "--direct=1", "--runtime=2", "--time_based"
    )
    libaio = live_fio("--ioengine=libaio", "--iodepth=16", "--rw=randread", "--direct=1", "--runtime=2", "--time_based")
    if not posix.metrics.get("disks") or not libaio.metrics.get("disks"):
        pytest.skip("fio printed no disk statistics for this folder's device (tmpfs, overlay): nothing to compare")
    assert "fio-posixaio-linux-iodepth" in ids(posix) and "fio-posixaio-linux-iodepth" not in ids(libaio)

    def queued(run) -> float:  # requests in the disk's queue on average: in_queue ms over the run's ms
        return run.metrics["disks"][0]["in_queue"] / run.metrics["jobs"][0]["read"]["runtime_ms"]

    assert queued(posix) < 2 < 4 < queued(libaio), (queued(posix), queued(libaio))


def test_buffered_libaio_latencies_hold_fio_s_own_batches(live_fio, seed):
    """Seed 002's buffered libaio at iodepth=64: 77,388 IOPS at 815 µs is 63 requests in fio's view,
    none of them queued at a device. The same engine with direct=1, here, really queues."""
    nvme = next(run for run in seed("002") if run.source.path.endswith("hygon33-nvme/runs.md") and run.tool == "fio")
    finding = next(f for f in nvme.checks if f["id"] == "fio-buffered-libaio-iodepth")
    assert "iodepth=64 never queues at the device" in finding["message"]
    assert "(IOPS x mean completion latency: 63 in flight)" in finding["message"]
    buffered = live_fio(
        "--ioengine=libaio", "--iodepth=16", "--rw=randwrite", "--direct=0", "--runtime=1", "--time_based"
    )
    direct = live_fio(
        "--ioengine=libaio", "--iodepth=16", "--rw=randwrite", "--direct=1", "--runtime=1", "--time_based"
    )
    assert "fio-buffered-libaio-iodepth" in ids(buffered) and "fio-buffered-libaio-iodepth" not in ids(direct)


def test_contradicting_direct_and_buffered(seed):
    both = run_at(seed("002"), NU4_SATA, 105)  # -direct=1 -buffered=1: buffered
    finding = next(f for f in both.checks if f["id"] == "fio-direct-buffered-conflict")
    assert "-direct=1 -buffered=1" in finding["evidence"] and "buffered I/O" in finding["message"]
    assert "fio-direct-buffered-conflict" not in ids(run_at(seed("002"), NU4_SATA, 55))  # -direct=1 -buffered=0


def test_latency_distribution_over_100_percent(seed):
    deep = seed("000")[0]  # QD4096: lat (msec) ... >=2000=104.16%
    finding = next(f for f in deep.checks if f["id"] == "fio-latency-over-100")
    assert finding["evidence"] == "lat (msec)   : >=2000=104.16%" and finding["line"] == 26
    assert "fio-latency-over-100" not in ids(seed("000")[8])  # QD1: adds up to 100%


def test_run_stopped_before_its_runtime(live_fio, seed):
    cut = live_fio("--rw=read", "--bs=4k", "--runtime=10", "--time_based", interrupt_after=1.5)
    assert "fio-short-runtime" in ids(cut)
    assert "fio-short-runtime" not in ids(seed("000")[0])  # 60249 ms of 60 s


def test_bandwidth_that_counts_the_ramp_bytes(seed):
    """Seed 000's fio 3.1 with ramp_time=2s: io=54.5GiB in its minute, 52,572 I/Os of 1 MiB issued."""
    sequential = seed("000")[0]
    finding = next(f for f in sequential.checks if f["id"] == "fio-bw-counts-ramp")
    assert finding["message"].startswith("write bandwidth 927 MiB/s is 6% more than IOPS x block size (872 MiB/s)")
    assert finding["line"] == 13 and "fio-bw-iops-mismatch" not in ids(sequential)
    # 4 KiB random reads at QD4096 with the same ramp: bytes and I/Os agree, nothing to say.
    assert not any("fio-bw" in check for run in seed("000")[8:] for check in ids(run))


def test_bandwidth_that_is_not_iops_times_block_size(live_fio):
    ranged = live_fio("--rw=randread", "--bs=4k", "--bsrange=4k-64k", "--runtime=1", "--time_based")
    assert "fio-bw-iops-mismatch" in ids(ranged)
    (clean,) = runs_of(FIXTURES / "fio" / "fio-3.33-randrw-numjobs2.txt")
    assert "fio-bw-iops-mismatch" not in ids(clean)


def test_read_write_split_unlike_rwmixread(live_fio, seed):
    capped = live_fio("--rw=randrw", "--rwmixread=50", "--rate_iops=,50", "--bs=4k", "--runtime=2", "--time_based")
    assert "fio-rwmix-split" in ids(capped)
    assert "fio-rwmix-split" not in ids(seed("004")[0])  # 2643 reads, 2632 writes for rwmixread=50


def test_errors(live_fio, seed):
    full = live_fio("--rw=write", "--bs=4k", "--filename=/dev/full")
    assert {"fio-error", "fio-io-error"} <= ids(full)
    assert full.checks[0]["severity"] == "error"
    assert not ids(seed("000")[0]) & {"fio-error", "fio-io-error"}


def test_no_ramp_and_buffered_io_are_noted(seed):
    first_fio = next(run for run in seed("001") if run.tool == "fio")  # time_based, no ramp_time
    assert "fio-no-ramp" in ids(first_fio) and "fio-no-ramp" not in ids(seed("000")[0])  # --ramp_time=2s
    assert "fio-buffered-io" in ids(run_at(seed("002"), NU4_SATA, 105)) and "fio-buffered-io" not in ids(seed("000")[0])


def test_short_run_and_long_tail(seed):
    (one_second,) = runs_of(FIXTURES / "fio" / "fio-3.33-randrw-numjobs2.txt")
    assert "fio-short-run" in ids(one_second) and "fio-short-run" not in ids(seed("000")[0])
    tail = run_at(seed("002"), NU4_SATA, 105)  # p99.99 far above the median
    assert "fio-tail-latency" in ids(tail) and "fio-tail-latency" not in ids(seed("000")[0])


def test_a_short_runs_evidence_is_its_iops_line_in_text_and_none_in_json():
    """The evidence pattern '(?:IOPS=|iops=)' is a choice of words: looked for as substrings
    (findings._words_of), it finds the same line as the pattern, and in JSON, which has none, nothing."""
    from perfwiki.findings import _words_of

    assert _words_of("(?:IOPS=|iops=)") == ("IOPS=", "iops=") and _words_of("sender") == ("sender",)
    assert _words_of(r"99\.99th=") is None and _words_of("(?:a)|(?:b)") is None and _words_of("io_u error") is None
    (text,) = runs_of(FIXTURES / "fio" / "fio-3.33-randrw-numjobs2.txt")
    (document,) = runs_of(FIXTURES / "fio" / "fio-3.33-randrw-numjobs2.json")
    short = [next(f for f in run.checks if f["id"] == "fio-short-run") for run in (text, document)]
    assert short[0]["evidence"].startswith("read: IOPS=") and short[0]["line"] > 1
    assert (short[1]["evidence"], short[1]["line"]) == (None, None)


def test_device_already_busy_while_sampled(seed):
    before = run_at(seed("002"), NU4_NVME, 5)  # "测试前的iostat状态": sfdv0n1 at 100% util before the test
    finding = next(f for f in before.checks if f["id"] == "iostat-device-busy")
    assert "sfdv0n1" in finding["message"] and finding["evidence"].startswith("sfdv0n1")
    assert "iostat-device-busy" not in ids(run_at(seed("002"), K28, 4))  # nvme1n1 at 2.85% and 17%


def test_retransmits_on_a_lossy_path(seed):
    vm_to_vm = next(run for run in seed("001") if run.tool == "iperf3")  # 13596 retransmits in 30 s
    assert "iperf3-retransmits" in ids(vm_to_vm)
    loopback = next(run for run in runs_of(FIXTURES / "mixed" / "debian12-all-tools.txt") if run.tool == "iperf3")
    assert "iperf3-retransmits" not in ids(loopback)


def test_clean_captured_runs_get_no_warning():
    for run in runs_of(FIXTURES / "mixed" / "debian12-all-tools.txt"):
        assert [f for f in run.checks if f["severity"] != "info"] == [], (run.tool, run.checks)


def test_a_direction_s_long_tail_cites_that_direction_s_percentiles():
    """The NAS seed's randrw run: its write p99.99 (77,071 µs) is on the write section's line, not the read's."""
    (run,) = extract(
        "content/reports/nas-cache-modes/raw/nas-default/fio.txt",
        (Path(__file__).parents[1] / "content/reports/nas-cache-modes/raw/nas-default/fio.txt").read_bytes(),
    ).runs
    (tail,) = [check for check in run.checks if check["id"] == "fio-tail-latency"]
    assert tail["message"].startswith("write p99.99 is 510x the median")
    assert tail["evidence"] == "| 99.99th=[77071]" and tail["line"] == 50
    lines = (
        (Path(__file__).parents[1] / "content/reports/nas-cache-modes/raw/nas-default/fio.txt").read_text().splitlines()
    )
    assert "write:" in "\n".join(lines[: tail["line"]]).rsplit("read:", 1)[-1]  # past the write section's head

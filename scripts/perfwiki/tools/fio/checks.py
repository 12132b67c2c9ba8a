"""fio's methodology checks: settings that make a result mean something else than it appears to."""

from __future__ import annotations

import os

from ... import units
from ...findings import Check, Evidence, Finding
from ...model import Run
from .options import SYNC_ENGINES, per_job, ran_on, serialised_by
from .report import DIRECTIONS


def _directions(run: Run) -> list[tuple[str, dict]]:
    return [(name, job[name]) for job in run.metrics.get("jobs", []) for name in DIRECTIONS if name in job]


def fio_sync_engine_depth(run: Run, ev: Evidence) -> list[Finding]:
    for job in per_job(run.params):  # each job section of a run whose sections differ
        engine, depth = job.get("ioengine"), job.get("iodepth") or 1
        if not isinstance(depth, int) or depth <= 1:
            continue
        if engine in SYNC_ENGINES:
            return [
                ev.finding(
                    "fio-sync-engine-iodepth",
                    "warning",
                    f"ioengine={engine} is synchronous: iodepth={depth} is silently capped at 1, "
                    "so this is a QD1 result",
                    r"ioengine=\w*sync.*iodepth=|iodepth.*ioengine=\w*sync",
                )
            ]
        if engine == "posixaio" and ran_on(run.params, run.metrics) == "linux":
            return [
                ev.finding(
                    "fio-posixaio-linux-iodepth",
                    "warning",
                    f"ioengine=posixaio on Linux is glibc's POSIX AIO, which runs one file's requests one after "
                    f"another: this job had one request at the disk at a time while the rest of iodepth={depth} "
                    "waited in glibc's queue, so this is a QD1 result and its completion latencies include that "
                    f"wait{_disk_said(run)}. libaio or io_uring with direct=1 queue for real",
                    r"ioengine=posixaio.*iodepth=|iodepth.*ioengine=posixaio",
                )
            ]
    return []


def fio_buffered_libaio_depth(run: Run, ev: Evidence) -> list[Finding]:
    """libaio with buffered I/O: each request completes inside io_submit (fio's HOWTO: Linux queues only
    with direct=1), so iodepth never reaches the device; fio still submits iodepth requests at once and
    times each from its submission, so its completion latencies hold the wait behind the rest of the
    batch. Little's law on fio's own numbers says how many it counted in flight."""
    depth = run.params.get("iodepth")
    if serialised_by(run.params) != "buffered libaio" or not isinstance(depth, int) or depth <= 1:
        return []
    in_flight = sum(
        (data.get("iops") or 0) * ((data.get("clat_ns") or {}).get("mean") or 0) / 1e9 for _, data in _directions(run)
    )
    counted = f" (IOPS x mean completion latency: {in_flight:.0f} in flight)" if in_flight >= 2 else ""
    return [
        ev.finding(
            "fio-buffered-libaio-iodepth",
            "warning",
            f"libaio with buffered I/O completes each request inside its submission, through the page cache: "
            f"iodepth={depth} never queues at the device (what reaches it is the kernel's writeback and "
            f"read-ahead, at depths of their own), and fio's completion latencies hold the wait behind the rest "
            f"of each batch{counted}, not a device's latency",
            r"ioengine=libaio",
        )
    ]


def _disk_said(run: Run) -> str:
    """'. The disk's own statistics: 5.11 ms a request, 1.04 requests in its queue on average (other I/O
    on it included)', from the one disk fio reported: its ticks over its I/Os in the job's directions,
    and in_queue (ms of I/O time summed over requests) over the run's ms."""
    disks = run.metrics.get("disks") or []
    runtimes = [direction.get("runtime_ms") for _, direction in _directions(run) if direction.get("runtime_ms")]
    if len(disks) != 1 or not runtimes:
        return ""
    disk = disks[0]
    # The directions the job did: a read job's disk also served some writes (a file system's, another process's).
    did = {name for name, _ in _directions(run)} & {"read", "write"}
    ios = sum(disk.get(f"{name}_ios") or 0 for name in did)
    ticks = sum(disk.get(f"{name}_ticks") or 0 for name in did)
    said = [f"{ticks / ios:.3g} ms a request"] if ios and ticks else []
    if disk.get("in_queue"):
        said.append(f"{disk['in_queue'] / max(runtimes):.2f} requests in its queue on average")
    return f". The disk's own statistics: {', '.join(said)} (other I/O on it included)" if said else ""


def fio_direct_buffered_conflict(run: Run, ev: Evidence) -> list[Finding]:
    """direct and buffered are one setting in fio (buffered=1 is direct=0): both on, or both off, contradict."""
    direct, buffered = run.params.get("direct"), run.params.get("buffered")
    if direct is None or buffered is None or direct != buffered:
        return []
    return [
        ev.finding(
            "fio-direct-buffered-conflict",
            "warning",
            f"direct={int(direct)} and buffered={int(buffered)} contradict each other; fio applies the last one, "
            f"so this run is {run.params.get('io_mode')} I/O",
            r"-direct=\d.*-buffered=\d|-buffered=\d.*-direct=\d",
        )
    ]


def fio_latency_distribution_over_100(run: Run, ev: Evidence) -> list[Finding]:
    found = []
    for job in run.metrics.get("jobs", []):
        total = sum(bucket["pct"] for bucket in job.get("lat_buckets") or [])
        if total > 100.5:
            found.append(
                ev.finding(
                    "fio-latency-over-100",
                    "warning",
                    f"the latency distribution adds up to {total:.2f}%: fio's buckets over-count at this queue depth, "
                    "so read the percentages as relative, not exact",
                    r"lat \((?:n|u|m)sec\)\s*:.*(?:\d{3,}\.\d+%|>=\d+=\d{3}\.)",
                )
            )
    return found


def fio_short_runtime(run: Run, ev: Evidence) -> list[Finding]:
    asked = run.params.get("runtime_s")
    if not asked or not run.params.get("time_based"):
        return []
    found = []
    for name, data in _directions(run):
        ran = (data.get("runtime_ms") or 0) / 1000
        if ran and ran < asked * 0.9:
            found.append(
                ev.finding(
                    "fio-short-runtime",
                    "warning",
                    f"{name} ran {ran:g} s of the {asked:g} s asked: the job stopped early",
                    rf"\b{name}\s*:",
                )
            )
    return found


def runtime_s(run: Run) -> float | None:
    """How long the run's longest direction ran, in seconds, when fio said."""
    runtimes = [(data.get("runtime_ms") or 0) / 1000 for _, data in _directions(run)]
    return max(runtimes) if runtimes else None


def fio_too_short(run: Run, ev: Evidence) -> list[Finding]:
    lasted = runtime_s(run)
    if lasted is not None and lasted < 10:
        return [
            ev.finding(
                "fio-short-run",
                "info",
                f"the run lasted {lasted:g} s: under 10 s, caches and warm-up dominate",
                r"(?:IOPS=|iops=)",
            )
        ]
    return []


def fio_bandwidth_vs_iops(run: Run, ev: Evidence) -> list[Finding]:
    bs = run.params.get("bs_bytes")
    if not bs or not isinstance(bs, int):  # none, or job sections with different ones ("mixed")
        return []
    found = []
    for name, data in _directions(run):
        bw, iops = data.get("bw_bytes_per_s"), data.get("iops")
        if not bw or not iops:
            continue
        ramp = run.params.get("ramp_time_s")
        # Bytes beyond the I/Os counted, with a ramp: the one nvme-raw shows (fio 3.1, ramp_time=2s):
        # io=54.5GiB against 52,572 I/Os of 1 MiB issued in the measured minute, 3.2 GiB more,
        # about two seconds of its writes. fio's own IOPS rounding stays far below 5 %.
        if ramp and iops * bs * 1.05 < bw < iops * bs * 1.5:
            found.append(
                ev.finding(
                    "fio-bw-counts-ramp",
                    "warning",
                    f"{name} bandwidth {units.format_bytes_per_s(bw)} is {bw / (iops * bs) - 1:.0%} more than IOPS x "
                    f"block size ({units.format_bytes_per_s(iops * bs)}): with ramp_time={ramp:g}s, the bytes "
                    "likely include the ramp's I/O; IOPS x block size is the measured window's bandwidth",
                    rf"\b{name}\s*:",
                )
            )
            continue
        # fio rounds IOPS to 3 significant digits in text ("188k"), and fio 3.7 printed 13,964 as "13.0k":
        # allow that, flag real mismatches.
        if abs(bw - iops * bs) / bw > 0.1:
            found.append(
                ev.finding(
                    "fio-bw-iops-mismatch",
                    "warning",
                    f"{name} bandwidth {units.format_bytes_per_s(bw)} is not IOPS x block size "
                    f"({units.format_bytes_per_s(iops * bs)}): the block size is not what the parameters say",
                    rf"\b{name}\s*:",
                )
            )
    return found


def fio_rwmix_split(run: Run, ev: Evidence) -> list[Finding]:
    mix = run.params.get("rwmixread")
    if mix is None or str(run.params.get("rw", "")) not in ("randrw", "rw", "readwrite"):
        return []
    totals = {name: sum(d.get("iops") or 0 for n, d in _directions(run) if n == name) for name in ("read", "write")}
    both = totals["read"] + totals["write"]
    if both and abs(100 * totals["read"] / both - mix) > 10:
        return [
            ev.finding(
                "fio-rwmix-split",
                "warning",
                f"reads are {100 * totals['read'] / both:.0f}% of I/Os, not the {mix}% asked (rwmixread)",
                r"rwmixread|\bread\s*:",
            )
        ]
    return []


def fio_errors(run: Run, ev: Evidence) -> list[Finding]:
    found = []
    for job in run.metrics.get("jobs", []):
        if job.get("error"):
            found.append(
                ev.finding(
                    "fio-error",
                    "error",
                    f"job {job.get('name')} ended with err={job['error']} ({os.strerror(job['error'])}): "
                    "what it measured before it stopped is not a result, and comparisons leave it out",
                    r"err=\s*[1-9]",
                )
            )
    if ev.mentions("io_u error"):  # then find() gives the line, which it always finds
        found.append(ev.finding("fio-io-error", "error", "fio reported I/O errors during the run", r"io_u error"))
    return found


def fio_no_ramp(run: Run, ev: Evidence) -> list[Finding]:
    if run.params.get("time_based") and not run.params.get("ramp_time_s") and run.format != "manual":
        return [ev.finding("fio-no-ramp", "info", "no ramp_time: the first seconds (warm-up) are averaged in", None)]
    return []


def fio_buffered(run: Run, ev: Evidence) -> list[Finding]:
    if run.params.get("io_mode") == "buffered" or (
        run.params.get("direct") is False and run.params.get("io_mode") is None
    ):
        return [
            ev.finding(
                "fio-buffered-io",
                "info",
                "buffered I/O goes through the page cache: with a file smaller than RAM this measures memory, not disk",
                None,
            )
        ]
    return []


def fio_tail_latency(run: Run, ev: Evidence) -> list[Finding]:
    found = []
    for name, data in _directions(run):
        table = data.get("percentiles_ns") or {}
        median, tail = table.get("50.00"), table.get("99.99")
        if median and tail and tail > 100 * median:
            found.append(
                ev.finding(
                    "fio-tail-latency",
                    "info",
                    f"{name} p99.99 is {tail / median:.0f}x the median: a long tail worth investigating",
                    r"99\.99th=",
                    # fio's text prints each direction's section, "  write: IOPS=...", then its percentiles.
                    after=rf"^\s*{name}\s*:",
                )
            )
    return found


CHECKS: tuple[Check, ...] = (
    fio_errors,
    fio_sync_engine_depth,
    fio_buffered_libaio_depth,
    fio_direct_buffered_conflict,
    fio_latency_distribution_over_100,
    fio_short_runtime,
    fio_bandwidth_vs_iops,
    fio_rwmix_split,
    fio_too_short,
    fio_no_ramp,
    fio_buffered,
    fio_tail_latency,
)

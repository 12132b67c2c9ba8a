"""Methodology checks: what a reviewer should catch before a number goes into a capacity plan.

Each check looks at one run (and its raw lines, for evidence) and returns findings
with a stable id, a severity (error | warning | info), a one-line explanation and the
raw line that shows it. Findings are stored on the run (`checks`, and as text in
`warnings`), shown on its page and summarised on the report page.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from . import units
from .model import Run

# fio engines that submit one I/O at a time: iodepth above 1 changes nothing.
SYNC_ENGINES = {"sync", "psync", "vsync", "pvsync", "pvsync2", "mmap"}


@dataclass(frozen=True)
class Finding:
    id: str
    severity: str
    message: str
    evidence: str | None = None
    line: int | None = None

    def to_dict(self) -> dict[str, object]:
        return {
            "id": self.id,
            "severity": self.severity,
            "message": self.message,
            "evidence": self.evidence,
            "line": self.line,
        }


class Evidence:
    """The raw lines of a run, searched for the line that shows a finding."""

    def __init__(self, run: Run, lines: list[str] | None):
        self.run = run
        self.lines = lines or []

    def find(self, pattern: str) -> tuple[str | None, int | None]:
        first, last = self.run.source.line_start, self.run.source.line_end
        for number in range(max(first, 1), min(last, len(self.lines)) + 1):
            text = self.lines[number - 1]
            if re.search(pattern, text):
                return text.strip(), number
        return None, None

    def finding(self, check_id: str, severity: str, message: str, pattern: str | None = None) -> Finding:
        evidence, line = self.find(pattern) if pattern else (None, None)
        if evidence is None and self.run.command and pattern is None:
            evidence, line = self.run.command, self.run.source.line_start
        return Finding(check_id, severity, message, evidence, line)


def _directions(run: Run) -> list[tuple[str, dict]]:
    return [
        (name, job[name]) for job in run.metrics.get("jobs", []) for name in ("read", "write", "trim") if name in job
    ]


def fio_sync_engine_depth(run: Run, ev: Evidence) -> list[Finding]:
    engine, depth = run.params.get("ioengine"), run.params.get("iodepth") or 1
    if engine in SYNC_ENGINES and depth > 1:
        return [
            ev.finding(
                "fio-sync-engine-iodepth",
                "warning",
                f"ioengine={engine} is synchronous: iodepth={depth} is silently capped at 1, so this is a QD1 result",
                r"ioengine=\w*sync.*iodepth=|iodepth.*ioengine=\w*sync",
            )
        ]
    return []


def fio_direct_buffered_conflict(run: Run, ev: Evidence) -> list[Finding]:
    if any("contradict each other" in warning for warning in run.warnings):
        mode = run.params.get("io_mode")
        return [
            ev.finding(
                "fio-direct-buffered-conflict",
                "warning",
                f"direct and buffered contradict each other; fio applies the last one, so this run is {mode} I/O",
                r"-direct=\d.*-buffered=\d|-buffered=\d.*-direct=\d",
            )
        ]
    return []


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


def fio_too_short(run: Run, ev: Evidence) -> list[Finding]:
    runtimes = [(data.get("runtime_ms") or 0) / 1000 for _, data in _directions(run)]
    if runtimes and max(runtimes) < 10:
        return [
            ev.finding(
                "fio-short-run",
                "info",
                f"the run lasted {max(runtimes):g} s: under 10 s, caches and warm-up dominate",
                r"(?:IOPS=|iops=)",
            )
        ]
    return []


def fio_bandwidth_vs_iops(run: Run, ev: Evidence) -> list[Finding]:
    bs = run.params.get("bs_bytes")
    if not bs:
        return []
    found = []
    for name, data in _directions(run):
        bw, iops = data.get("bw_bytes_per_s"), data.get("iops")
        # fio rounds IOPS to 3 significant digits in text ("188k"): allow that, flag real mismatches.
        if bw and iops and abs(bw - iops * bs) / bw > 0.1:
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
                    "fio-error", "error", f"job {job.get('name')} ended with err={job['error']}", r"err=\s*[1-9]"
                )
            )
    if any("io_u error" in warning for warning in run.warnings):
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
                )
            )
    return found


def iostat_busy_device(run: Run, ev: Evidence) -> list[Finding]:
    found = []
    samples = [s for s in run.metrics.get("samples", []) if not s.get("since_boot")]
    busy = sorted({d["name"] for s in samples for d in s["devices"] if (d.get("util_pct") or 0) >= 95})
    for name in busy:
        found.append(
            ev.finding(
                "iostat-device-busy",
                "warning",
                f"{name} is at 95% util or more while sampled: anything measured on it now competes with that load",
                rf"^\s*{re.escape(name)}\s.*(?:9[5-9]|100)\.\d+\s*$",
            )
        )
    return found


def iperf3_retransmits(run: Run, ev: Evidence) -> list[Finding]:
    sender = run.metrics.get("sender") or {}
    retransmits, sent = sender.get("retransmits"), sender.get("bytes")
    share = retransmits / (sent / 1448) if retransmits and sent else 0  # of ~1448-byte TCP segments
    if share > 0.0005:  # 0.05%: on a LAN, more than one segment in 2000 resent is a lossy path
        return [
            ev.finding(
                "iperf3-retransmits",
                "warning",
                f"{retransmits} retransmits, {100 * share:.2f}% of segments: the path loses packets",
                r"sender",
            )
        ]
    return []


CHECKS: dict[str, list[Callable[[Run, Evidence], list[Finding]]]] = {
    "fio": [
        fio_errors,
        fio_sync_engine_depth,
        fio_direct_buffered_conflict,
        fio_latency_distribution_over_100,
        fio_short_runtime,
        fio_bandwidth_vs_iops,
        fio_rwmix_split,
        fio_too_short,
        fio_no_ramp,
        fio_buffered,
        fio_tail_latency,
    ],
    "iostat": [iostat_busy_device],
    "iperf3": [iperf3_retransmits],
}


def check(run: Run, lines: list[str] | None) -> list[Finding]:
    """Every finding for one run, most severe first."""
    evidence = Evidence(run, lines)
    findings = [finding for rule in CHECKS.get(run.tool, []) for finding in rule(run, evidence)]
    order = {"error": 0, "warning": 1, "info": 2}
    return sorted(findings, key=lambda finding: order[finding.severity])

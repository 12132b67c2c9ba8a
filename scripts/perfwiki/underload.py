"""Latency under load: a ping that ran while a throughput test loaded the same path.

Network engineers run ping beside iperf to see the queueing delay a busy path adds: an idle
link answers in microseconds, a link whose queue fills behind a shaper or a slow hop answers
in milliseconds (bufferbloat). The ping alone cannot say which of its replies waited behind
the load, so a transcript that holds both is read together: the ping's replies against the
throughput test's window, on one clock.

One clock needs timestamps from both: `ping -D` prints each reply's time since the epoch,
`iperf3 -J` its start (`start.timestamp.timesecs`, whole seconds, rounded down). The test began
somewhere in that second, so a reply counts as "under load" only when it surely came during the
test (from a second after the printed start to the last interval's end) and as "idle" only when it
surely did not (before the printed second, or a second past the end); the replies near either
edge count as neither. The figures then describe the load and the idle path, not a blend of the
two (a window as wide as the second allowed put idle replies among the loaded ones and pulled the
loaded median 10 to 20 % down). The chart shows every reply. Without timestamps on both sides
nothing is paired, and the ping stays an ordinary ping.

A paired ping gets `params.load` (what loaded the path: "iperf3 TCP, 1 stream"), which keeps it
out of comparisons with idle pings, and `metrics.under_load`: the window on the ping's own time
axis, the load's throughput per interval on that axis, and the RTTs split by phase.
"""

from __future__ import annotations

from typing import Any

from . import units
from .model import Run

_ms = units.format_ms  # RTTs in ms, as ping prints them

# Tools whose runs can load a path, each with a start time (start_epoch_s) and intervals.
LOAD_TOOLS = ("iperf3", "iperf2")
# A loaded median RTT this many times the idle one is a queue the load built; below it, the few
# microseconds either way are the host's scheduling, not the path (loopback under load answers
# faster than idle: busy cores wake sooner).
QUEUEING_FACTOR = 1.5
# iperf3 -J prints its start rounded down to the second.
START_RESOLUTION_S = 1.0


def _window(run: Run) -> tuple[float, float] | None:
    """(start, end) of a throughput run in seconds since the epoch, as early and late as it may be."""
    metrics = run.metrics
    start = metrics.get("start_epoch_s")
    intervals = metrics.get("intervals") or []
    if start is None or not intervals:
        return None
    return float(start), float(start) + START_RESOLUTION_S + max(row["end_s"] for row in intervals)


def _describe(run: Run) -> str:
    metrics = run.metrics
    streams = metrics.get("streams") or 1
    direction = " reverse" if metrics.get("reverse") else (" bidirectional" if metrics.get("bidir") else "")
    mode = str(metrics.get("mode") or "tcp").upper()
    return f"{run.tool} {mode}{direction}, {streams} stream{'s' if streams != 1 else ''}"


def _timed_replies(run: Run) -> list[dict[str, Any]]:
    return [
        reply
        for reply in run.metrics.get("replies") or []
        if reply.get("epoch_s") is not None and reply.get("time_ms") is not None
    ]


def pair(runs: list[Run]) -> None:
    """Mark each ping of `runs` (one raw file's) that ran during a throughput test of the same file."""
    loads = [(run, window) for run in runs if run.tool in LOAD_TOOLS and (window := _window(run))]
    if not loads:
        return
    for ping in runs:
        if ping.tool != "ping":
            continue
        replies = _timed_replies(ping)
        if not replies:
            continue
        first, last = replies[0]["epoch_s"], replies[-1]["epoch_s"]
        overlapping = [(run, window) for run, window in loads if window[0] < last and window[1] > first]
        if len(overlapping) != 1:
            continue  # none, or several tests at once: which one loaded the path is not ours to guess
        load, (start, end) = overlapping[0]
        ping.params = {**ping.params, "load": _describe(load)}
        ping.metrics = {**ping.metrics, "under_load": _split(replies, load, start, end)}


def _split(replies: list[dict[str, Any]], load: Run, start: float, end: float) -> dict[str, Any]:
    first = replies[0]["epoch_s"]
    # `end` is the latest the test can have ended (start + 1 s + its length): it surely ran from a
    # second after the printed start to a second before that.
    sure_start, sure_end = start + START_RESOLUTION_S, end - START_RESOLUTION_S
    loaded = [reply["time_ms"] for reply in replies if sure_start <= reply["epoch_s"] <= sure_end]
    idle = [reply["time_ms"] for reply in replies if reply["epoch_s"] < start or reply["epoch_s"] > end]
    found: dict[str, Any] = {
        "load": _describe(load),
        # On the ping's time axis (seconds from its first reply): the window in which the test surely ran.
        "start_s": round(sure_start - first, 3),
        "end_s": round(sure_end - first, 3),
        "intervals": [
            # each interval at its middle (a rate over a second, not at an instant), half a second in:
            # the middle of the second the test started in
            {
                "t_s": round(start + 0.5 + (row["start_s"] + row["end_s"]) / 2 - first, 3),
                "bits_per_s": row["bits_per_s"],
            }
            for row in load.metrics.get("intervals") or []
            if not row.get("omitted")
        ],
        "replies_idle": len(idle),
        "replies_loaded": len(loaded),
    }
    if idle:
        found["rtt_idle_median_ms"] = round(_median(idle), 6)
    if loaded:
        found["rtt_loaded_median_ms"] = round(_median(loaded), 6)
        found["rtt_loaded_max_ms"] = max(loaded)
    if idle and loaded:
        found["added_median_ms"] = round(found["rtt_loaded_median_ms"] - found["rtt_idle_median_ms"], 6)
    return found


def chart(run: Run, chart_id: str = "chart-under-load") -> dict[str, Any] | None:
    """RTT of every reply and the load's throughput on one time axis, the load's window shaded."""
    under = run.metrics.get("under_load")
    if not under:
        return None
    replies = run.metrics.get("replies") or []
    first = next((reply["epoch_s"] for reply in replies if reply.get("epoch_s") is not None), None)
    timed = [reply for reply in replies if reply.get("epoch_s") is not None]
    rows = [
        [f"{reply['epoch_s'] - first:.2f} s", reply.get("seq"), _ms(reply["time_ms"])]
        for reply in timed
        if reply.get("time_ms") is not None
    ]
    return {
        "id": chart_id,
        "title": f"Latency under load: ping during {under['load']}",
        "plot": {
            "kind": "under_load",
            "unit": "ms",
            "rtt": {
                "name": "ping RTT",
                "t_s": [round(reply["epoch_s"] - first, 3) for reply in timed],
                "values": [reply.get("time_ms") for reply in timed],
            },
            "load": {
                "name": f"{under['load']}, sent per interval",
                "t_s": [row["t_s"] for row in under["intervals"]],
                "values": [row["bits_per_s"] for row in under["intervals"]],
            },
            "window": [under["start_s"], under["end_s"]],
        },
        "table": {"columns": ["Time", "icmp_seq", "RTT"], "rows": rows},
    }


def report_section(runs: list[Run], environments: list[str] = ()) -> list[dict[str, Any]]:
    """A report's "Latency under load": per environment, what the load added, and one ping's timeline.

    Each environment's sentence gives the median RTT idle and under load over all its paired
    pings (each ping's own medians, then the median of those), the range across them when there
    are several, and the largest RTT seen under load.
    """
    by_environment: dict[str, list[Run]] = {}
    for run in runs:
        if run.tool == "ping" and run.metrics.get("under_load"):
            by_environment.setdefault(run.environment or "", []).append(run)
    section = []
    order = [env for env in environments if env in by_environment] + [
        env for env in by_environment if env not in environments
    ]
    for environment in order:  # the report's order of environments
        pings = by_environment[environment]
        unders = [ping.metrics["under_load"] for ping in pings]
        loaded = [u["rtt_loaded_median_ms"] for u in unders if "rtt_loaded_median_ms" in u]
        idle = [u["rtt_idle_median_ms"] for u in unders if "rtt_idle_median_ms" in u]
        if not loaded:
            continue
        load = ", ".join(sorted({u["load"] for u in unders}))
        loaded_median, worst = _median(loaded), max(u.get("rtt_loaded_max_ms", 0) for u in unders)
        spread = f" ({len(loaded)} runs: {_ms(min(loaded))} to {_ms(max(loaded))})" if len(loaded) > 1 else ""
        idle_median = _median(idle) if idle else None
        idle_said = f"{_ms(idle_median)} idle (the same ping, before and after the test)" if idle_median else ""
        if idle_median and loaded_median >= QUEUEING_FACTOR * idle_median:
            said = (
                f"Under {load}, the median RTT rose by {_ms(loaded_median - idle_median)}, from {idle_said} "
                f"to {_ms(loaded_median)} under load{spread}; the largest under load {_ms(worst)}."
            )
        elif idle_median:
            lower = (
                "; lower under load, which at tens of microseconds is the host's scheduling, not the path"
                if loaded_median < idle_median
                else ""
            )
            said = (
                f"No queueing delay measurable under {load}: median RTT {_ms(loaded_median)} under load{spread}, "
                f"{idle_said}{lower}. The largest under load {_ms(worst)}."
            )
        else:
            said = f"Median RTT under {load}: {_ms(loaded_median)}{spread}; the largest {_ms(worst)}."
        figure = chart(pings[0], f"under-load-{pings[0].id}")
        section.append({"environment": environment, "run": pings[0].id, "sentence": said, "chart": figure})
    return section


def _median(values: list[float]) -> float:
    """statistics.median, imported when a ping is paired: every `perfwiki parse` calls pair(), and
    importing statistics (fractions, decimal, random) was 5 ms of its start."""
    import statistics

    return statistics.median(values)

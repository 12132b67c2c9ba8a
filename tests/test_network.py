"""Networks as an environment: the example report's real captures (perfwiki bench network over
loopback, a veth pair between namespaces, and that pair shaped with tc tbf), latency under load
paired on one clock, and the report's throughput, latency and loss side by side."""

from __future__ import annotations

from pathlib import Path

import pytest

from perfwiki import compare, tools, underload, verdict
from perfwiki.extract import extract
from perfwiki.pages import network
from support import ROOT

RAW = ROOT / "content" / "reports" / "networks" / "raw"
ENVIRONMENTS = ["net-veth", "net-loopback", "net-veth-tbf-1g", "net-veth-tbf-100m"]


def runs_of(path: Path):
    found = extract(str(path.relative_to(ROOT)), path.read_bytes())
    assert found.problems == []
    for index, run in enumerate(found.runs):
        run.environment, run.id = path.parent.name, f"{path.stem}-{index}"
    return found.runs


@pytest.fixture(scope="module")
def report_runs():
    return [run for env in ENVIRONMENTS for path in sorted((RAW / env).glob("*.txt")) for run in runs_of(path)]


def test_a_ping_beside_iperf3_on_the_shaped_path_is_paired_and_split():
    # The first pass on the 100 Mbit/s path: ping -D every 0.2 s for 9 s, iperf3 -J for 5 s after 2 s.
    runs = runs_of(RAW / "net-veth-tbf-100m" / "network-20261127-084828.txt")
    assert [run.tool for run in runs] == ["iperf3", "iperf3", "iperf3", "iperf2", "ping", "ping", "iperf3"]
    idle, loaded, load = runs[4], runs[5], runs[6]
    assert "load" not in idle.params and "under_load" not in idle.metrics
    assert loaded.params["load"] == "iperf3 TCP, 1 stream"
    assert loaded.fingerprints[None]["load"] == "iperf3 TCP, 1 stream" != idle.fingerprints[None]["load"]
    under = loaded.metrics["under_load"]
    assert load.source.line_start == 185 and load.command.endswith("-t 5 -J")
    # iperf3 printed its start as 1795769334 (whole seconds); the ping's first reply came 1.426 s before it.
    # The test surely ran from a second after that to its 5 s: replies 2.426 s to 6.426 s into the ping.
    assert load.metrics["start_epoch_s"] == 1795769334
    assert (under["start_s"], under["end_s"]) == (2.426, 6.426)
    # Surely loaded, surely idle, and 9 within a second of an edge, counted as neither.
    assert (under["replies_idle"], under["replies_loaded"]) == (16, 20)
    assert loaded.metrics["packets_received"] == 45
    assert (under["rtt_idle_median_ms"], under["rtt_loaded_median_ms"], under["rtt_loaded_max_ms"]) == (
        0.0585,
        2.69,
        6.24,
    )
    # ping's own summary covers the whole run, idle replies with the loaded: no comparison takes it.
    assert loaded.metrics["rtt_avg_ms"] == 2.054
    assert tools.get("ping").metrics[0].read(loaded, None) is None
    # The load's rate per interval, on the ping's time axis, each at the middle of its second.
    assert [row["bits_per_s"] for row in under["intervals"]] == [row["bits_per_s"] for row in load.metrics["intervals"]]
    assert [row["t_s"] for row in under["intervals"]] == [2.426, 3.426, 4.426, 5.426, 6.426]


def test_pings_without_timestamps_or_load_are_never_paired(report_runs):
    idle = [run for run in report_runs if run.tool == "ping" and run.label == "ping, idle path"]
    assert len(idle) == 12 and not any(run.params.get("load") for run in idle)
    # The idle ping has no -D: nothing puts it on the load's clock, whatever ran before it.
    assert all(reply.get("epoch_s") is None for run in idle for reply in run.metrics["replies"])


def test_the_report_says_what_the_load_added_only_where_it_built_a_queue(report_runs):
    said = {entry["environment"]: entry["sentence"] for entry in underload.report_section(report_runs, ENVIRONMENTS)}
    assert list(said) == ENVIRONMENTS
    assert said["net-veth-tbf-100m"] == (
        "Under iperf3 TCP, 1 stream, the median RTT rose by 3.27 ms, from 0.0590 ms idle (the same ping, before "
        "and after the test) to 3.33 ms under load (3 runs: 2.69 ms to 3.65 ms); the largest under load 8.52 ms."
    )
    assert said["net-veth-tbf-1g"].startswith("Under iperf3 TCP, 1 stream, the median RTT rose by 0.934 ms")
    # Loopback under load answers faster than idle (busy cores): no delay claimed either way.
    assert said["net-loopback"].startswith("No queueing delay measurable under iperf3 TCP, 1 stream")
    assert "lower under load, which at tens of microseconds is the host's scheduling" in said["net-loopback"]
    assert said["net-veth"].startswith("No queueing delay measurable")


def test_throughput_latency_and_loss_side_by_side(report_runs):
    table = network.network_table(report_runs, ENVIRONMENTS)
    assert [column["title"] for column in table["columns"]] == [
        "TCP, iperf3",
        "TCP, iperf2",
        "UDP received, iperf3 (-b 500M)",
        "UDP lost, iperf3",
        "RTT idle",
        "Ping loss",
        "RTT under load",
    ]
    rows = {row["environment"]: [cell["text"] if cell else None for cell in row["cells"]] for row in table["rows"]}
    assert list(rows) == ENVIRONMENTS
    assert rows["net-veth-tbf-100m"] == [
        "96.0 Mbit/s",
        "95.6 Mbit/s",
        "97.3 Mbit/s",
        "0 %",
        "0.0550 ms",
        "0 %",
        "3.33 ms",
    ]
    # What arrived through the shapers, a little under the rate set once headers are counted.
    assert rows["net-veth-tbf-1g"][:2] == ["957 Mbit/s", "956 Mbit/s"]
    # The shaper on the sender's own interface holds UDP back: 500M offered, 97.3 Mbit/s sent, none lost.
    udp = [run for run in report_runs if run.environment == "net-veth-tbf-100m" and run.metrics.get("mode") == "udp"]
    assert all(run.metrics["sender"]["bits_per_s"] < 1e8 and run.metrics["lost"] == 0 for run in udp)
    # TCP's sender counted bytes still queued at the end: 4 streams "sent" more than the shaper lets through.
    four = [run for run in report_runs if run.environment == "net-veth-tbf-100m" and run.metrics.get("streams") == 4]
    assert all(run.metrics["sender"]["bits_per_s"] > 1e8 > run.metrics["receiver"]["bits_per_s"] for run in four)
    assert all("iperf3-sender-ahead" in {check["id"] for check in run.checks} for run in four)
    first = table["rows"][0]["cells"][0]
    assert first["n"] == 6 and first["range"] == ["19.4 Gbit/s", "20.8 Gbit/s"]


def test_verdicts_name_the_paths_with_nothing_to_count(report_runs):
    # Retransmits and loss are no speed: better or worse, and a path with none is said, not dropped.
    comparisons, errors = compare.for_report([], report_runs, ENVIRONMENTS, "net-veth")
    assert errors == []
    by_id = {comparison["id"]: comparison for comparison in comparisons}
    retransmits = verdict.comparison_verdict(by_id["iperf3-retransmits"])
    assert retransmits.startswith("net-loopback against net-veth: better in 3 of 3 scenarios; from 442× better")
    assert retransmits.endswith("None at all on net-veth-tbf-1g and net-veth-tbf-100m (0 in every scenario measured).")
    # One of the three UDP runs on the 1 Gbit/s path lost datagrams: only the 100 Mbit/s path lost none in every run.
    assert verdict.comparison_verdict(by_id["iperf3-loss"]).endswith(
        "None at all on net-veth-tbf-100m (0 in every scenario measured)."
    )
    assert verdict.comparison_verdict(by_id["ping-loss"]) == "0 on every environment (4): nothing to set apart."

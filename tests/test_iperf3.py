"""iperf3: seed 001's seven client runs, and live Debian iperf3 on loopback (127.0.0.1 only)."""

from __future__ import annotations

import re
import shutil
import socket
import subprocess
import time

import pytest

from perfwiki.extract import extract
from perfwiki.tools.iperf3 import parser as iperf3
from support import FIXTURES, seed_slices

GIB = 2**30


def test_seed_001_seven_client_runs():
    found = seed_slices("001")
    runs = [run for run in found.runs if run.tool == "iperf3"]
    # One slice per client run, in the page's order.
    assert [run.source.path.split("/")[-2] for run in runs] == [
        "classic-vm-to-vm",
        "classic-vm-to-host",
        "classic-host-to-vm",
        "classic-host-to-host",
        "vpc-host-to-host",
        "vpc-vm-to-vm",
        "vpc-eip-to-eip",
    ]
    assert [run.metrics["sender"]["bits_per_s"] for run in runs] == [
        8.33e9,
        8.41e9,
        8.40e9,
        8.35e9,
        9.19e9,
        8.96e9,
        5.83e9,
    ]
    assert [run.metrics["sender"]["retransmits"] for run in runs] == [13596, 14171, 818, 4925, 4060, 2052, 1645]
    first = runs[0]
    assert (first.label, first.command) == ("虚拟机到虚拟机", "iperf3 -c 10.127.100.234 -t 30")
    assert first.metrics["sender"]["bytes"] == pytest.approx(29.1 * GIB)
    assert (first.metrics["mode"], first.metrics["streams"], first.metrics["role"]) == ("tcp", 1, "client")
    assert len(first.metrics["intervals"]) == 30
    assert first.metrics["intervals"][0] == {
        "start_s": 0.0,
        "end_s": 1.0,
        "bytes": 818 * 2**20,
        "bits_per_s": 6.86e9,
        "retransmits": 32,
        "cwnd_bytes": pytest.approx(1.09 * 2**20),
    }
    assert first.params["duration_s"] == 30 and first.params["server"] == "10.127.100.234"
    assert [p for p in found.problems if "iperf3" in p.message] == []


def test_old_udp_single_summary_line():
    # Synthetic from the iperf3 <= 3.1 UDP format (PerfKitBenchmarker fixture lines).
    (report,) = iperf3.parse(
        "Connecting to host 10.0.0.2, port 5201\n"
        "[ ID] Interval           Transfer     Bandwidth       Jitter    Lost/Total Datagrams\n"
        "[  4]   0.00-3.00   sec   492 MBytes  1.38 Gbits/sec  0.072 ms  35148/62949 (56%)\n"
        "[  4] Sent 62949 datagrams\n"
    )
    metrics = report.metrics
    assert (metrics["mode"], metrics["lost"], metrics["packets"], metrics["jitter_ms"]) == ("udp", 35148, 62949, 0.072)
    assert metrics["lost_pct"] == pytest.approx(100 * 35148 / 62949), "recomputed from lost/total, not the %.2g print"
    assert metrics["receiver"]["bits_per_s"] == 1.38e9


def test_old_udp_client_with_interval_rows_keeps_its_summary_and_every_interval():
    # The iperf3 3.0/3.1 UDP client layout, made for this test: sender intervals with datagram
    # counts, a separator, the summary table with its own header, then "Sent N datagrams".
    # The summary row must stay the summary; the last interval must stay an interval.
    (report,) = iperf3.parse(
        "[  4] local 10.0.0.1 port 49526 connected to 10.0.0.2 port 5201\n"
        "[ ID] Interval           Transfer     Bandwidth       Total Datagrams\n"
        "[  4]   0.00-1.00   sec   159 MBytes  1.34 Gbits/sec  20398\n"
        "[  4]   1.00-2.00   sec   166 MBytes  1.40 Gbits/sec  21292\n"
        "[  4]   2.00-3.00   sec   167 MBytes  1.41 Gbits/sec  21323\n"
        "- - - - - - - - - - - - - - - - - - - - - - - - -\n"
        "[ ID] Interval           Transfer     Bandwidth       Jitter    Lost/Total Datagrams\n"
        "[  4]   0.00-3.00   sec   492 MBytes  1.38 Gbits/sec  0.072 ms  35148/62949 (56%)\n"
        "[  4] Sent 62949 datagrams\n"
    )
    metrics = report.metrics
    assert (metrics["jitter_ms"], metrics["lost"], metrics["packets"]) == (0.072, 35148, 62949)
    assert metrics["receiver"]["bits_per_s"] == 1.38e9  # the summary's, not the last interval's 1.41
    assert [interval["bits_per_s"] for interval in metrics["intervals"]] == [1.34e9, 1.40e9, 1.41e9]


def test_connection_refused_is_a_problem():
    found = extract(
        "x.txt", b"$ iperf3 -c 127.0.0.1\niperf3: error - unable to connect to server: Connection refused\n"
    )
    assert found.runs == []
    assert [str(p) for p in found.problems] == ["x.txt:2: iperf3 unable to connect to server: Connection refused"]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture(scope="module")
def iperf3_binary() -> str:
    binary = shutil.which("iperf3")
    if binary is None:
        pytest.fail("Debian's iperf3 is not installed: run `make setup-system`")
    return binary


def start_one_off_server(binary: str, port: str) -> tuple[subprocess.Popen, list[str]]:
    """`iperf3 -s -1` on loopback, returned with the lines it printed up to its banner.

    A probe connection would use up the one-off server's single test, so readiness
    is its "Server listening" line.
    """
    server = subprocess.Popen(
        [binary, "-s", "-1", "--forceflush", "-B", "127.0.0.1", "-p", port],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    printed = []
    for line in server.stdout:
        printed.append(line)
        if "Server listening" in line:
            break
    return server, printed


@pytest.fixture(scope="module")
def client(iperf3_binary):
    def run(*options: str) -> str:
        port = str(free_port())
        server, _ = start_one_off_server(iperf3_binary, port)
        try:
            result = subprocess.run(
                [iperf3_binary, "-c", "127.0.0.1", "-p", port, "-t", "1", *options],
                capture_output=True,
                text=True,
                timeout=30,
            )
        finally:
            server.stdout.close()
            server.wait(timeout=30)
        return result.stdout + result.stderr

    return run


def only(text: str):
    (report,) = iperf3.parse(text)
    assert report.problems == [], report.problems
    return report


def test_live_tcp_parallel_streams_use_the_sum_rows(client):
    report = only(client("-P", "2"))
    metrics = report.metrics
    assert (metrics["mode"], metrics["streams"], metrics["reverse"]) == ("tcp", 2, False)
    assert metrics["sender"]["bits_per_s"] > 0 and "retransmits" in metrics["sender"]
    assert metrics["intervals"][0]["start_s"] == 0.0


def test_live_reverse_and_json_agree_on_shape(client):
    reverse = only(client("-R"))
    assert reverse.metrics["reverse"] is True and reverse.metrics["receiver"]["bits_per_s"] > 0
    as_json = only(client("-J"))
    assert as_json.format == "json" and as_json.tool_version.startswith("3.")
    assert as_json.metrics["sender"]["bits_per_s"] > 0 and len(as_json.metrics["intervals"]) >= 1


def test_live_udp_loss_and_jitter_from_the_receiver_row(client):
    metrics = only(client("-u", "-b", "10M")).metrics
    assert metrics["mode"] == "udp"
    assert metrics["packets"] > 0 and metrics["lost"] is not None and metrics["jitter_ms"] >= 0
    assert metrics["receiver"]["bits_per_s"] == pytest.approx(10e6, rel=0.2)


def test_live_bidir_keeps_both_directions(client):
    metrics = only(client("--bidir")).metrics
    assert metrics["bidir"] is True
    assert metrics["sender"]["bits_per_s"] > 0
    assert metrics["reverse_direction"]["sender"]["bits_per_s"] > 0


def test_live_server_output_is_not_counted_twice(client):
    report = only(client("--get-server-output"))
    assert report.metrics["server_output_included"] is True
    assert len([row for row in report.metrics["intervals"] if row["start_s"] == 0.0]) == 1


def test_live_server_transcript_and_omitted_intervals(iperf3_binary):
    port = str(free_port())
    server, lines = start_one_off_server(iperf3_binary, port)
    client = subprocess.run(
        [iperf3_binary, "-c", "127.0.0.1", "-p", port, "-t", "1", "-O", "1"], capture_output=True, text=True, timeout=30
    )
    lines.extend(server.stdout.read().splitlines(keepends=True))
    server.wait(timeout=30)
    (server_report,) = iperf3.parse("".join(lines))
    assert server_report.metrics["role"] == "server"
    assert server_report.metrics["receiver"]["bits_per_s"] > 0
    client_report = only(client.stdout)
    omitted = [row for row in client_report.metrics["intervals"] if row.get("omitted")]
    assert len(omitted) >= 1 and omitted[0]["start_s"] == 0.0  # timing restarts at 0 after the omit period


def test_live_parallel_streams_keep_every_interval(client):
    # With -P N iperf3 prints "- - - -" after every interval block: only the [ ID] header after a
    # separator starts the summary, so the three seconds stay three intervals.
    report = only(client("-P", "2", "-t", "3"))
    intervals = report.metrics["intervals"]
    assert [(round(i["start_s"]), round(i["end_s"])) for i in intervals] == [(0, 1), (1, 2), (2, 3)]
    assert all(interval["bits_per_s"] > 0 for interval in intervals)
    assert report.metrics["sender"]["bits_per_s"] > 0 and report.metrics["streams"] == 2


@pytest.mark.parametrize("udp", [False, True], ids=["tcp", "udp"])
def test_live_iperf2_output_is_read_by_iperf2_never_as_iperf3(udp):
    binary = shutil.which("iperf")
    if binary is None:
        pytest.fail("Debian's iperf (iperf2) is not installed: run `make setup-system`")
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = str(probe.getsockname()[1])
    mode = ["-u"] if udp else []
    server = subprocess.Popen([binary, "-s", "-B", "127.0.0.1", "-p", port, *mode], stdout=subprocess.DEVNULL)
    try:
        time.sleep(0.5)
        client = subprocess.run(
            [binary, "-c", "127.0.0.1", "-p", port, "-t", "1", *mode], capture_output=True, text=True, timeout=30
        )
    finally:
        server.terminate()
        server.wait(timeout=10)
    output = client.stdout + client.stderr
    assert "connected with" in output  # iperf2's wording; iperf3 says "connected to"
    # Its rows are headed as iperf3's are ("[ ID] Interval  Transfer  Bandwidth"): iperf3 must not claim them.
    assert iperf3.detect(output) == 0
    found = extract("iperf2.txt", f"$ iperf -c 127.0.0.1 -p {port} -t 1 {' '.join(mode)}\n{output}".encode())
    assert found.problems == []
    assert [run.tool for run in found.runs] == ["iperf2"]
    # Under a command that says iperf3, the same output is still iperf2's, and that command not its own.
    wrong = extract("wrong.txt", f"$ iperf3 -c 127.0.0.1 -p {port} -t 1\n{output}".encode())
    assert [(run.tool, run.command) for run in wrong.runs] == [("iperf2", None)]
    assert "does not run iperf2" in wrong.runs[0].warnings[0]


def test_a_second_sender_row_is_a_problem_not_an_overwrite():
    # Debian's iperf3 output (captured), with its sender summary row pasted twice, the copy altered.
    text = (FIXTURES / "iperf3" / "debian12-iperf3.txt").read_text(encoding="utf-8")
    lines = text.split("\n")
    at = next(index for index, line in enumerate(lines) if line.rstrip().endswith("sender"))
    (before,) = iperf3.parse(text)
    lines.insert(at + 1, re.sub(r"\d+(\.\d+)? Gbits/sec", "1.00 Gbits/sec", lines[at]))
    (report,) = iperf3.parse("\n".join(lines))
    assert report.metrics["sender"] == before.metrics["sender"]
    assert report.problems == [(at + 1, "a second sender summary row for stream 5: the first is kept")]


def test_four_streams_are_four_not_five_with_their_sum():
    """`iperf3 -c 127.0.0.1 -P 4 -t 1`: streams 5, 7, 9 and 12, and [SUM] rows that total them."""
    text = (FIXTURES / "iperf3" / "iperf3-3.12-loopback-P4-t1.txt").read_text(encoding="utf-8")
    (run,) = extract("x", text.encode()).runs
    assert run.metrics["streams"] == 4 and run.params["streams"] == 4
    # "[SUM]   0.00-1.00   sec  2.86 GBytes  24.5 Gbits/sec    0             sender"
    assert run.metrics["sender"]["bits_per_s"] == 24.5e9
    assert run.metrics["sender"]["printed"] == {"bits_per_s": "24.5 Gbits/sec", "bytes": "2.86 GBytes"}
    # A paste of the summary table alone (from its "- - -" separator): the same four streams.
    lines = text.split("\n")
    summary = "\n".join(lines[lines.index("- - - - - - - - - - - - - - - - - - - - - - - - -") :])
    (report,) = iperf3.parse(summary)
    assert report.metrics["streams"] == 4 and report.metrics["intervals"] == []

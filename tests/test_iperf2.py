"""iperf2: Debian's iperf 2.1.8 captured on loopback, iperf 2.0.5 and 2.0.13 layouts written from their
sources, and live runs of the installed iperf (127.0.0.1 only) whose numbers must agree with each other."""

from __future__ import annotations

import re
import shutil
import subprocess
import time

import pytest

from perfwiki import tools
from perfwiki.extract import extract
from perfwiki.tools.iperf2 import parser as iperf2
from perfwiki.tools.iperf3 import parser as iperf3
from support import FIXTURES, free_port

MIB, GIB = 2**20, 2**30


def runs_of(name: str):
    found = extract(f"{name}", (FIXTURES / "iperf2" / name).read_bytes())
    assert found.problems == []
    return found.runs


def only(text: str):
    (report,) = iperf2.parse(text)
    assert report.problems == [], report.problems
    return report


# -- captured: iperf 2.1.8 --------------------------------------------------------------------------


def test_parallel_streams_read_the_sum_and_its_intervals():
    plain, parallel, enhanced, enhanced_parallel = runs_of("iperf-2.1.8-tcp.txt")
    assert plain.metrics["sender"]["printed"] == {"bits_per_s": "21.5 Gbits/sec", "bytes": "5.04 GBytes"}
    assert (parallel.metrics["streams"], parallel.params["streams"]) == (4, 4)
    # "[SUM] 0.0000-2.0006 sec  5.32 GBytes  22.8 Gbits/sec", not any one stream's row
    assert parallel.metrics["sender"]["bits_per_s"] == 22.8e9
    assert parallel.metrics["sender"]["bytes"] == pytest.approx(5.32 * GIB)
    assert [(i["start_s"], i["end_s"]) for i in parallel.metrics["intervals"]] == [(0.0, 1.0), (1.0, 2.0043)]
    assert "receiver" not in parallel.metrics  # a TCP client prints what it wrote, nothing of the server
    sender = enhanced.metrics["sender"]
    assert (sender["writes"], sender["errors"], sender["retransmits"]) == (40902, 0, 38)
    assert (sender["cwnd_bytes"], sender["rtt_us"]) == (767 * 1024, 421)
    assert [i["retransmits"] for i in enhanced.metrics["intervals"]] == [6, 32]
    # The [SUM] row of -e has Write/Err and Rtry but no window: none is made up from the streams'.
    assert (
        enhanced_parallel.metrics["sender"]["retransmits"] == 55
        and "cwnd_bytes" not in enhanced_parallel.metrics["sender"]
    )


def test_server_transcripts_are_the_receiving_end():
    plain, parallel, enhanced, _ = runs_of("iperf-2.1.8-tcp-server.txt")
    assert [run.metrics["role"] for run in (plain, parallel, enhanced)] == ["server"] * 3
    assert all("sender" not in run.metrics for run in (plain, parallel, enhanced))
    assert plain.metrics["receiver"]["bits_per_s"] == 21.6e9
    assert parallel.metrics["streams"] == 4
    assert enhanced.metrics["receiver"]["reads"] == 46822


def test_udp_client_takes_loss_and_jitter_from_the_server_report():
    plain, enhanced, parallel = runs_of("iperf-2.1.8-udp.txt")
    metrics = plain.metrics
    assert metrics["sender"]["packets"] == 17837  # "[  1] Sent 17837 datagrams"
    assert metrics["receiver"]["printed"] == {"bits_per_s": "105 Mbits/sec", "bytes": "25.0 MBytes"}
    assert (metrics["jitter_ms"], metrics["lost"], metrics["packets"], metrics["lost_pct"]) == (0.001, 0, 17836, 0.0)
    assert (enhanced.metrics["sender"]["writes"], enhanced.metrics["sender"]["pps"]) == (17835, 8918)
    # Two server reports and no [SUM] of them: their datagrams added, their jitter averaged.
    metrics = parallel.metrics
    assert (metrics["lost"], metrics["packets"], metrics["out_of_order"]) == (1, 1787 + 1787, 1)
    assert metrics["jitter_ms"] == pytest.approx((0.000 + 0.001) / 2)
    assert metrics["lost_pct"] == pytest.approx(100 / 3574, abs=1e-6)
    assert "printed" not in metrics["receiver"]  # a sum no row printed
    assert metrics["receiver"]["bytes"] == pytest.approx((2.50 + 2.51) * MIB)


def test_udp_server_reads_its_own_rows_and_sum():
    plain, enhanced, parallel = runs_of("iperf-2.1.8-udp-server.txt")
    assert (plain.metrics["role"], plain.metrics["packets"], plain.metrics["jitter_ms"]) == ("server", 17836, 0.001)
    assert [row["packets"] for row in enhanced.metrics["intervals"]] == [8917, 8917]
    # "[SUM] 0.0000-2.0009 sec  5.01 MBytes  21.0 Mbits/sec   0/3574 (0%)" has no jitter: the streams' mean
    assert (parallel.metrics["lost"], parallel.metrics["packets"], parallel.metrics["out_of_order"]) == (0, 3574, 1)


@pytest.mark.parametrize(
    ("index", "sends", "receives", "direction"),
    [
        (0, 19.3e9, 22.7e9, "tradeoff"),  # -r: the client's listener reads second
        (1, 17.7e9, 17.8e9, "bidir"),  # -d
        (2, None, 22.7e9, "reverse"),  # -R: the "[ *1]" row is what the client read
        (3, 12.9e9, 9.36e9, "bidir"),  # --full-duplex: "[  1]" written, "[ *1]" read
    ],
)
def test_each_direction_goes_to_its_end(index, sends, receives, direction):
    run = runs_of("iperf-2.1.8-directions.txt")[index]
    assert run.fingerprints[None]["direction"] == direction
    if sends is None:
        assert run.metrics["reverse"] is True and "sender" not in run.metrics
        assert run.metrics["receiver"]["bits_per_s"] == receives
        return
    assert run.metrics["sender"]["bits_per_s"] == sends
    assert run.metrics["reverse_direction"]["receiver"]["bits_per_s"] == receives


def test_the_server_of_each_direction_test_reads_the_forward_way():
    tradeoff, dual, reverse, duplex, duplex_parallel, dual_parallel = runs_of("iperf-2.1.8-directions-server.txt")
    assert tradeoff.metrics["tradeoff"] is True and tradeoff.fingerprints[None]["direction"] == "tradeoff"
    assert (dual.metrics["receiver"]["bits_per_s"], dual.metrics["reverse_direction"]["sender"]["bits_per_s"]) == (
        17.8e9,
        17.7e9,
    )
    assert reverse.metrics["sender"]["bits_per_s"] == 22.6e9 and reverse.metrics["reverse"] is True
    assert duplex.metrics["bidir"] is True
    # 2.1 sums both directions in one [SUM] (9.68 GBytes): each direction is summed from its own streams.
    for run in (duplex_parallel, dual_parallel):
        ways = run.metrics["receiver"]["bytes"] + run.metrics["reverse_direction"]["sender"]["bytes"]
        assert run.metrics["streams"] == 2 and "printed" not in run.metrics["receiver"]
        assert ways == pytest.approx({"57225": 9.68, "49317": 10.3}[str(run.params["port"])] * GIB, rel=0.01)


def test_csv_lines_are_exact_and_the_command_names_the_end():
    tcp, parallel, udp, udp_parallel, udp_server = runs_of("iperf-2.1.8-csv.txt")
    assert tcp.format == "csv" and tcp.metrics["sender"] == {"bytes": 6347161660, "bits_per_s": 25342750918}
    assert [row["bytes"] for row in tcp.metrics["intervals"]] == [3119513660, 3227516928]
    assert parallel.metrics["sender"]["bytes"] == 5113249852 + 5447352380
    # 2.1's UDP client prints -1 datagrams in its last line: what it sent, nothing received.
    assert udp.metrics["sender"]["bytes"] == 2626890 and "receiver" not in udp.metrics and "lost" not in udp.metrics
    assert "iperf2-no-server-report" in [check["id"] for check in udp.checks]
    assert udp_parallel.metrics["streams"] == 2
    assert udp_server.metrics["role"] == "server"
    assert (udp_server.metrics["lost"], udp_server.metrics["packets"], udp_server.metrics["out_of_order"]) == (
        1,
        3574,
        1,
    )


def test_tcp_csv_without_a_command_says_it_cannot_tell_the_end():
    lines = (FIXTURES / "iperf2" / "iperf-2.1.8-csv.txt").read_text(encoding="utf-8").split("\n")
    found = extract("bare.csv", "\n".join(lines[1:4]).encode())
    (run,) = found.runs
    assert "sender" not in run.metrics and "receiver" not in run.metrics
    assert run.metrics["transferred"]["bits_per_s"] == 25342750918
    assert any("does not say which end" in warning for warning in run.warnings)
    served = extract("served.txt", ("$ iperf -s -y C\n" + "\n".join(lines[1:4])).encode())
    assert served.runs[0].metrics["receiver"]["bytes"] == 6347161660 and served.runs[0].metrics["role"] == "server"


# -- written: iperf 2.0.5 and 2.0.13 layouts ------------------------------------------------------------


def test_iperf_2_0_5_layout():
    tcp, parallel, udp, dual, server_first, server_second, csv = runs_of("iperf-2.0.5-written.txt")
    assert tcp.tool_version == "2.0.5"  # "iperf version 2.0.5 (08 Jul 2010) pthreads"
    assert [(i["start_s"], i["end_s"]) for i in tcp.metrics["intervals"]] == [(0.0, 1.0), (1.0, 2.0), (2.0, 3.0)]
    assert tcp.metrics["sender"]["bits_per_s"] == 937e6
    assert parallel.metrics["sender"]["printed"]["bytes"] == "1.09 GBytes"
    assert (udp.metrics["lost"], udp.metrics["packets"], udp.metrics["out_of_order"]) == (77, 8504, 2)
    assert udp.metrics["lost_pct"] == pytest.approx(100 * 77 / 8504)  # printed as "(0.91%)"
    assert udp.metrics["receiver"]["bits_per_s"] == 9.91e6 and udp.metrics["sender"]["bits_per_s"] == 10e6
    assert dual.metrics["reverse_direction"]["receiver"]["bits_per_s"] == 934e6 and dual.metrics["bidir"] is True
    # A server that stays up: each client is a run of its own.
    assert [run.metrics["receiver"]["bits_per_s"] for run in (server_first, server_second)] == [935e6, 808e6]
    assert server_second.metrics["role"] == "server"
    # 2.0's UDP client CSV: its own 9 fields, then the server's 14 with the addresses swapped.
    assert csv.metrics["sender"] == {"bytes": 1252440, "bits_per_s": 999997}
    assert csv.metrics["receiver"] == {"bytes": 1249500, "bits_per_s": 999600}
    assert (csv.metrics["jitter_ms"], csv.metrics["lost"], csv.metrics["packets"]) == (0.031, 2, 852)


def test_iperf_2_0_13_enhanced_layout():
    tcp, parallel, udp, server = runs_of("iperf-2.0.13-enhanced-written.txt")
    assert tcp.metrics["sender"]["retransmits"] == 15 and tcp.metrics["sender"]["rtt_us"] == 2160
    assert "cwnd_bytes" not in tcp.metrics["sender"]  # "-1K": no window known
    assert [i["cwnd_bytes"] for i in tcp.metrics["intervals"]] == [312 * 1024, 418 * 1024, 402 * 1024]
    assert parallel.metrics["sender"] == {
        "bytes": 1117 * MIB,
        "bits_per_s": 936e6,
        "writes": 8936,
        "errors": 0,
        "retransmits": 78,
        "printed": {"bits_per_s": "936 Mbits/sec", "bytes": "1117 MBytes"},
    }
    assert (udp.metrics["sender"]["packets"], udp.metrics["sender"]["pps"]) == (1786, 178)  # the [SUM] rows
    assert (udp.metrics["lost"], udp.metrics["packets"], udp.metrics["out_of_order"]) == (3, 1786, 1)
    assert udp.metrics["jitter_ms"] == pytest.approx((0.051 + 0.063) / 2)
    assert server.metrics["receiver"]["reads"] == 54775 and len(server.metrics["intervals"]) == 2


# -- never iperf3, never a guess -----------------------------------------------------------------------


def every_fixture():
    return sorted(
        path
        for path in FIXTURES.rglob("*")
        if path.is_file() and path.suffix != ".fio" and path.name != "README.md" and "logs" not in path.parts
    )


@pytest.mark.parametrize("path", every_fixture(), ids=lambda path: f"{path.parent.name}/{path.name}")
def test_iperf2_and_iperf3_never_claim_each_other(path):
    text = "\n".join(
        line for line in path.read_text(encoding="utf-8", errors="replace").split("\n") if not line.startswith("$ ")
    )
    if path.parent.name == "iperf2":
        assert iperf3.detect(text) == 0 and iperf2.detect(text) >= 0.9
        assert tools.detect(text) is tools.get("iperf2")
    else:
        assert iperf2.detect(text) == 0, "iperf2 claims another tool's output"


def test_iperf3_rows_are_not_iperf2_rows():
    # iperf3 pads its intervals ("[  5]   0.00-1.00   sec"), iperf2 2.0.9+ does not ("[  3] 0.00-1.00 sec").
    iperf3_rows = (
        "[  5]   0.00-1.00   sec  1.09 GBytes  9.41 Gbits/sec    0   3.15 MBytes\n"
        "[  5] 100.00-101.00 sec  1.09 GBytes  9.41 Gbits/sec    0   3.15 MBytes\n"
    )
    assert iperf2.detect(iperf3_rows) == 0
    assert iperf2.detect("[  3] 0.00-1.00 sec   112 MBytes   940 Mbits/sec  898/0  0  359K/1021 us  1.0\n") == 0.9


def test_iperf2_output_under_an_iperf3_command_is_read_as_iperf2_without_that_command():
    output = (FIXTURES / "iperf2" / "iperf-2.1.8-tcp.txt").read_text(encoding="utf-8").split("\n")[1:9]
    found = extract("mislabelled.txt", ("$ iperf3 -c 127.0.0.1\n" + "\n".join(output)).encode())
    assert found.problems == []
    (run,) = found.runs
    # The output is iperf2's: read as such, and the iperf3 command is not taken as the one that ran it.
    assert run.tool == "iperf2" and run.command is None
    assert run.warnings == [
        "the command before this output (line 1) does not run iperf2: parameters come from the output only"
    ]


def test_a_cut_output_is_a_problem_at_the_stream():
    (report,) = iperf2.parse(
        "[  3] local 10.0.0.1 port 40418 connected with 10.0.0.2 port 5001\n"
        "[ ID] Interval       Transfer     Bandwidth\n"
        "[  3]  0.0- 1.0 sec   112 MBytes   940 Mbits/sec\n"
        "[  3]  1.0- 2.0 sec   112 MBytes   938 Mbits/sec\n"
    )
    assert not report.has_results()
    assert report.problems == [(2, "iperf2 output ends before the summary of stream 3 (its last row is an interval)")]


def test_connection_refused_is_a_problem_not_a_run():
    found = extract(
        "refused.txt",
        b"$ iperf -c 127.0.0.1 -p 5999\ntcp connect failed: Connection refused\n"
        b"------------------------------------------------------------\n"
        b"Client connecting to 127.0.0.1, TCP port 5999\nTCP window size: 16.0 KByte (default)\n"
        b"------------------------------------------------------------\n"
        b"[  1] local 0.0.0.0 port 0 connected with 127.0.0.1 port 5999\n",
    )
    assert found.runs == []
    assert [str(problem) for problem in found.problems] == [
        "refused.txt:2: iperf2 tcp connect failed: Connection refused"
    ]


def test_layouts_it_does_not_read_are_problems():
    # iperf 2.2's enhanced CSV (a header line, start and end apart) and a permit-key stream id.
    (csv,) = iperf2.parse(
        "time,srcaddress,srcport,dstaddr,dstport,transferid,istart,iend,bytes,speed,readcnt,bin0\n"
        "20240410120000.123,10.0.0.1,5001,10.0.0.2,40312,1,0.0,10.0,1250000000,1000000000,9000,1\n"
    )
    assert not csv.has_results() and [line for line, _ in csv.problems] == [0, 1]
    assert "perfwiki does not read" in csv.problems[0][1]
    reports = iperf2.parse("[abc(1)] 0.00-10.00 sec  1.09 GBytes   938 Mbits/sec\n")
    assert [problem for report in reports for problem in report.problems] == [
        (0, "an iperf2 row of stream '[abc(1)]', which perfwiki does not read")
    ]


def test_the_version_banner_is_not_a_command():
    # "iperf version ..." is what `iperf -v` prints, not iperf run with the argument "version".
    output = (FIXTURES / "iperf2" / "iperf-2.1.8-tcp.txt").read_text(encoding="utf-8").split("\n")[1:9]
    text = "$ iperf -v; iperf -c 127.0.0.1\niperf version 2.1.8 (12 August 2022) pthreads\n" + "\n".join(output)
    found = extract("v.txt", text.encode())
    assert found.problems == [] and [run.tool_version for run in found.runs] == ["2.1.8"]
    assert found.runs[0].params["server"] == "127.0.0.1"  # the part of the command that runs the client


# -- live: the installed iperf on loopback ---------------------------------------------------------------


@pytest.fixture(scope="module")
def iperf_binary() -> str:
    binary = shutil.which("iperf")
    if binary is None:
        pytest.fail("Debian's iperf (iperf2) is not installed: run `make setup-system`")
    return binary


@pytest.fixture(scope="module")
def live(iperf_binary):
    """Runs a client against a server of its own; returns (client output, server output, command)."""

    def run(*options: str, server: tuple[str, ...] = ()) -> tuple[str, str, str]:
        port = str(free_port())
        listening = subprocess.Popen(
            [iperf_binary, "-s", "-B", "127.0.0.1", "-p", port, *server],
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        try:
            time.sleep(0.5)  # iperf2's server prints its banner only once its output is flushed
            command = [iperf_binary, "-c", "127.0.0.1", "-p", port, *options]
            client = subprocess.run(command, capture_output=True, text=True, timeout=60)
            time.sleep(0.5)  # the server's last report follows the client's end
        finally:
            listening.terminate()
            served, _ = listening.communicate(timeout=10)
        return client.stdout + client.stderr, served, "iperf " + " ".join(command[1:])

    return run


def live_run(output: str, command: str):
    found = extract("live.txt", f"$ {command}\n{output}".encode())
    assert found.problems == [], found.problems
    (run,) = found.runs
    return run


_FINAL = re.compile(
    r"^\[\s*(\d+|SUM)\] 0\.0+-(\d+\.\d+) sec\s+(\d+(?:\.\d+)?) ([KMG]?)Bytes\s+(\d+(?:\.\d+)?) ([KMG]?)bits/sec"
)
_SCALE = {"": 1, "K": 1, "M": 2, "G": 3}


def stream_finals(output: str) -> dict[str, tuple[float, float, float]]:
    """Each stream's last row from 0 (its summary), and the [SUM] row's under "SUM", as (seconds, bytes,
    bit/s), read here apart from the parser."""
    finals = {}
    for line in output.split("\n"):
        if match := _FINAL.match(line):
            stream, end, amount, prefix, rate, rate_prefix = match.groups()
            finals[stream] = (
                float(end),
                float(amount) * 1024 ** _SCALE[prefix],
                float(rate) * 1000 ** _SCALE[rate_prefix],
            )
    return finals


def test_live_parallel_tcp_sum_agrees_with_its_streams(live):
    output, served, command = live("-t", "2", "-P", "3", "-i", "1")
    run = live_run(output, command)
    sender = run.metrics["sender"]
    finals = stream_finals(output)
    total = finals.pop("SUM")
    assert run.metrics["streams"] == len(finals) == 3
    # The [SUM] row is the sum of the streams' bytes, within iperf2's three printed digits.
    assert sender["bytes"] == pytest.approx(sum(bytes_ for _, bytes_, _ in finals.values()), rel=0.02)
    assert sender["bytes"] == pytest.approx(total[1], rel=0.01)
    # Its rate is those bytes over its own interval, not the sum of the streams' rates: a stream
    # that closes late (0.0-3.0 sec beside a [SUM] of 0.0-2.0 on a busy machine) has a lower rate
    # of its own, so the streams' rates can add up to less than the [SUM]'s.
    assert sender["bits_per_s"] == pytest.approx(total[2], rel=0.01)
    assert sender["bits_per_s"] == pytest.approx(sender["bytes"] * 8 / total[0], rel=0.03)
    assert len(run.metrics["intervals"]) >= 2
    assert sum(i["bytes"] for i in run.metrics["intervals"]) <= sender["bytes"] * 1.02
    # The server read what the client wrote.
    server = live_run(served, "iperf -s")
    assert server.metrics["role"] == "server" and server.metrics["streams"] == 3
    assert server.metrics["receiver"]["bytes"] == pytest.approx(sender["bytes"], rel=0.02)


def test_live_udp_client_and_server_count_the_same_datagrams(live):
    output, served, command = live("-u", "-b", "10M", "-t", "2", "-i", "1", server=("-u",))
    run = live_run(output, command)
    metrics = run.metrics
    assert metrics["mode"] == "udp" and metrics["role"] == "client"
    assert metrics["receiver"]["bits_per_s"] == pytest.approx(10e6, rel=0.1)
    assert metrics["packets"] + 1 >= metrics["sender"]["packets"] >= metrics["packets"]  # the last one is the FIN
    assert metrics["lost"] <= metrics["packets"] and 0 <= metrics["jitter_ms"] < 10
    # 1470-byte datagrams: bytes are datagrams x 1470, within the three printed digits.
    assert metrics["sender"]["bytes"] == pytest.approx(metrics["sender"]["packets"] * 1470, rel=0.01)
    server = live_run(served, "iperf -s -u")
    assert server.metrics["packets"] == metrics["packets"]


def test_live_enhanced_tcp_counts_writes(live):
    output, _, command = live("-e", "-t", "1")
    sender = live_run(output, command).metrics["sender"]
    assert sender["writes"] > 0 and sender["errors"] == 0 and sender["retransmits"] >= 0 and sender["rtt_us"] > 0
    # -e writes 128 KiB buffers: bytes are writes x 131072, within the three printed digits.
    assert sender["bytes"] == pytest.approx(sender["writes"] * 131072, rel=0.01)


def test_live_csv_is_exact(live):
    output, _, command = live("-y", "C", "-t", "2", "-P", "2")
    run = live_run(output, command)
    assert run.format == "csv" and run.metrics["role"] == "client"
    lines = [line.split(",") for line in output.split("\n") if line.count(",") == 8]
    assert run.metrics["sender"]["bytes"] == sum(int(fields[7]) for fields in lines)
    assert run.metrics["sender"]["bits_per_s"] == pytest.approx(run.metrics["sender"]["bytes"] * 8 / 2, rel=0.05)


@pytest.mark.parametrize("udp", [False, True], ids=["tcp", "udp"])
def test_live_iperf2_output_is_iperf2_without_its_command(live, udp):
    mode = ("-u",) if udp else ()
    output, _, _ = live("-t", "1", *mode, server=mode)
    assert "connected with" in output  # iperf2's wording; iperf3 says "connected to"
    found = extract("pasted.txt", output.encode())  # no command: the output alone says which tool
    assert found.problems == []
    (run,) = found.runs
    assert run.tool == "iperf2" and run.metrics["mode"] == ("udp" if udp else "tcp")

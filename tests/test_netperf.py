"""netperf: the classic tables and the omni -k/-o/-O output, from its manual and public samples
(tests/fixtures/netperf/README.md says where each comes from)."""

from __future__ import annotations

import pytest

from perfwiki import tools
from perfwiki.extract import extract
from perfwiki.tools.netperf import omni, options
from perfwiki.tools.netperf import parser as netperf
from support import FIXTURES

NETPERF = FIXTURES / "netperf"


def runs(name: str):
    found = extract(f"fixtures/netperf/{name}", (NETPERF / name).read_bytes())
    assert found.problems == []
    return found.runs


def test_classic_stream_tables_read_their_unit_from_the_header():
    stream, maerts, migrated, confidence = runs("manual-tcp-stream.txt")
    # "32768  16384  16384    10.00      80.42" under "10^6bits/sec".
    assert stream.params["test"] == "TCP_STREAM" and stream.params["target"] == "lag.hpl.hp.com"
    assert stream.metrics["bits_per_s"] == 80_420_000
    assert (stream.metrics["remote_recv_socket_bytes"], stream.metrics["local_send_socket_bytes"]) == (32768, 16384)
    assert stream.metrics["message_bytes"] == 16384 and stream.metrics["elapsed_s"] == 10.0
    # TCP_MAERTS: netperf's end receives, so the first column is its own receive socket.
    assert maerts.params["test"] == "TCP_MAERTS" and maerts.metrics["bits_per_s"] == 81_140_000
    assert maerts.metrics["local_recv_socket_bytes"] == 221184 and maerts.metrics["remote_send_socket_bytes"] == 131072
    assert migrated.metrics["migrated"] is True and migrated.metrics["bits_per_s"] == 27_175_270_000
    # "!!! Desired confidence was not achieved": the rate is there, with a warning at that line.
    assert confidence.metrics["bits_per_s"] == 40_230_000
    assert [(check["id"], check["line"]) for check in confidence.checks] == [("netperf-confidence", 28)]


def test_f_uppercase_is_1024_based_bytes_and_interim_results_are_a_series():
    mbytes, bits = runs("manual-demo.txt")
    # -f M: "17.81" under "MBytes/sec" is 17.81 x 2^20 bytes a second.
    assert mbytes.metrics["throughput_units"] == "MBytes/sec"
    assert mbytes.metrics["bits_per_s"] == pytest.approx(17.81 * 2**20 * 8)
    assert mbytes.params["format"] == "M"
    # "Interim result:    5.41 MBytes/s over 1.35 seconds ending at 1308789765.848", then six more.
    assert len(mbytes.metrics["intervals"]) == 7
    assert mbytes.metrics["intervals"][0] == {"start_s": 0.0, "end_s": 1.35, "bits_per_s": pytest.approx(5.41 * 2**23)}
    assert bits.metrics["bits_per_s"] == 68_870_000 and bits.metrics["elapsed_s"] == 20.34
    assert [point["bits_per_s"] for point in bits.metrics["intervals"]][:3] == [36_460_000, 59_190_000, 73_390_000]
    assert bits.metrics["intervals"][-1]["end_s"] == pytest.approx(1327963897.901 - 1327963878.555)
    chart = tools.get("netperf").run_charts(bits)[0]
    assert chart["plot"]["kind"] == "intervals" and chart["plot"]["series"][0]["values"][3] == 84_010_000


def test_udp_stream_keeps_both_sides_and_the_receiver_is_the_result():
    delivered, dropped = runs("manual-udp-stream.txt")
    assert delivered.params["test"] == "UDP_STREAM" and delivered.params["message_bytes"] == 32768
    assert delivered.metrics["udp"]["send"] == {
        "socket_bytes": 124928,
        "message_bytes": 32768,
        "elapsed_s": 10.0,
        "messages": 105672,
        "errors": 0,
        "bits_per_s": 2_770_200_000,
    }
    assert delivered.metrics["udp"]["receive"]["messages"] == 104844
    assert delivered.metrics["bits_per_s"] == 2_748_500_000  # what arrived
    assert delivered.checks == []  # 828 of 105,672 lost: under 1%
    # -m 65000 -S 32768: the receiver dropped every message.
    assert dropped.metrics["bits_per_s"] == 0 and dropped.metrics["udp"]["send"]["bits_per_s"] == 2_786_990_000
    assert [check["id"] for check in dropped.checks] == ["netperf-udp-loss"]
    assert "53,595 of 53,595 messages" in dropped.checks[0]["message"]


def test_request_response_tables():
    tcp_rr, udp_rr, migrated, histogram, burst = runs("manual-rr.txt")
    assert tcp_rr.params["test"] == "TCP_RR" and tcp_rr.metrics["transactions_per_s"] == 29150.15
    assert (tcp_rr.params["request_bytes"], tcp_rr.params["response_bytes"]) == (1, 1)
    assert (tcp_rr.metrics["remote_send_socket_bytes"], tcp_rr.metrics["remote_recv_socket_bytes"]) == (16384, 87380)
    # -c -C: CPU and service demand columns.
    assert udp_rr.params["test"] == "UDP_RR" and udp_rr.metrics["transactions_per_s"] == 15262.48
    assert (udp_rr.metrics["cpu_local_pct"], udp_rr.metrics["cpu_remote_pct"]) == (13.9, 16.11)
    assert (udp_rr.metrics["service_demand_local"], udp_rr.metrics["service_demand_unit"]) == (18.221, "us/Tr")
    assert migrated.metrics["transactions_per_s"] == 59421.52
    # -v 2: the histogram after the table is no second result.
    assert histogram.metrics["transactions_per_s"] == 3538.82 and histogram.source.line_end == 36
    # -f m on an RR test prints a rate, not transactions: bits, as the header says.
    assert "transactions_per_s" not in burst.metrics and burst.metrics["bits_per_s"] == 1_821_300_000
    assert (burst.params["request_bytes"], burst.params["burst"]) == (32768, "6")


def test_grpc_issue_migrated_tcp_rr():
    (run,) = runs("grpc-issue7988-tcp-rr.txt")
    assert run.metrics["transactions_per_s"] == 12507.44 and run.params["target"] == "10.126.81.104"


def test_omni_keyval_csv_and_human_output():
    keyval, csv, human, migrated = runs("manual-omni.txt")
    assert keyval.metrics["transactions_per_s"] == 59092.65 and keyval.metrics["omni"]["THROUGHPUT_UNITS"] == "Trans/s"
    assert csv.metrics["transactions_per_s"] == 60999.07
    assert human.metrics["transactions_per_s"] == 60492.57
    # `-t omni -- -d rr`: an omni request/response test over TCP, the test TCP_RR runs.
    assert [run.params["test"] for run in (keyval, csv, human)] == ["TCP_RR"] * 3
    assert keyval.params["omni"] is True and "omni" not in migrated.params
    assert migrated.metrics["transactions_per_s"] == 60074.74


def test_omni_latency_selectors():
    stream, rr = runs("omni-human.txt")
    assert stream.metrics["bits_per_s"] == 823_770_000 and stream.metrics["latency_mean_us"] == 9.49
    assert rr.metrics["transactions_per_s"] == 3545.77
    assert {key: rr.metrics[f"latency_{key}_us"] for key in ("min", "p50", "p90", "p99", "max", "stddev")} == {
        "min": 200,
        "p50": 274,
        "p90": 309,
        "p99": 371,
        "max": 400,
        "stddev": 189.82,
    }
    tool = tools.get("netperf")
    p99 = next(metric for metric in tool.metrics if metric.key == "latency_p99")
    assert p99.read(rr, None) == 371_000  # microseconds as printed, nanoseconds canonical
    csv_rr, crr, csv_stream, udp_rr = runs("pkb-omni-csv.txt")
    assert (csv_rr.metrics["transactions_per_s"], csv_rr.metrics["latency_p99_us"]) == (1405.5, 841)
    assert (csv_rr.metrics["mss_bytes"], csv_rr.metrics["confidence_width_pct"]) == (1408, 2.522)
    assert crr.params["test"] == "TCP_CRR" and crr.metrics["latency_p50_us"] == 871
    assert csv_stream.metrics["bits_per_s"] == 1_973_370_000 and csv_stream.metrics["throughput_units"] == "10^6bits/s"
    # -1 is netperf's "not measured" (no retransmission count over UDP, no confidence asked): left out.
    assert udp_rr.metrics["transactions_per_s"] == 2217.06 and "confidence_width_pct" not in udp_rr.metrics


def test_transaction_rate_counts_for_request_response_tests_only():
    _, _, crr, _ = runs("kep-4963-kube-proxy.txt")
    # -o min_latency,mean_latency,max_latency,stddev_latency,transaction_rate: no THROUGHPUT at all.
    assert crr.params["test"] == "TCP_CRR" and crr.metrics["transactions_per_s"] == 17730.719
    assert crr.metrics["latency_mean_us"] == 56.63
    # A stream test prints 1.000 under TRANSACTION_RATE: that is no rate of anything.
    text = (
        "MIGRATED TCP STREAM TEST from 0.0.0.0 (0.0.0.0) port 0 AF_INET to 10.244.0.10 (10.244.) port 0 AF_INET\n"
        "Mean Latency Microseconds,Transaction Rate Tran/s,Throughput,Throughput Units\n"
        "1.44,1.000,13046.26,10^6bits/s"
    )
    (report,) = netperf.parse(text)
    assert "transactions_per_s" not in report.metrics and report.metrics["bits_per_s"] == 13_046_260_000


def test_keyval_interim_results_have_an_index():
    # The manual's -k interim result (section 7.3), as it prints one: each key with its index.
    text = (
        "NETPERF_INTERIM_RESULT[2]=25.00\nNETPERF_UNITS[2]=10^9bits/s\n"
        "NETPERF_INTERVAL[2]=1.25\nNETPERF_ENDING[2]=1327962357.249"
    )
    (report,) = netperf.parse(text)
    assert report.metrics["intervals"] == [{"start_s": 0.0, "end_s": 1.25, "bits_per_s": 25_000_000_000}]
    # Interim results alone are no result of the test.
    assert report.problems == [(0, "netperf output without a throughput, rate or latency")]


def test_glued_options_and_the_two_halves_of_a_command():
    asked = options.command_params("netperf -H 10.96.142.98 -fm -tTCP_STREAM -l10 -- -P 10001,5202 -R 1 -m 64K")
    assert asked == {
        "test": "TCP_STREAM",
        "target": "10.96.142.98",
        "duration_s": 10,
        "format": "m",
        "message_bytes": 65536,
    }
    # A global -o is an alignment offset; the test's -o picks CSV output.
    globals_, test = options.split("netperf -o 8 -t omni -- -o THROUGHPUT,THROUGHPUT_UNITS -r 1,64k")
    assert globals_["o"] == "8" and test["o"] == "THROUGHPUT,THROUGHPUT_UNITS"
    assert options.pair(test["r"]) == (1, 64000)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("2997.84", ("bits_per_s", 2_997_840_000)),
        ("10^9bits/s", ("bits_per_s", 25_000_000_000)),
        ("KBytes/sec", ("bits_per_s", 25 * 1024 * 8)),
        ("Trans/s", ("transactions_per_s", 25)),
    ],
)
def test_throughput_units(text, expected):
    unit = "10^6bits/sec" if text == "2997.84" else text
    value = "2997.84" if text == "2997.84" else "25.00"
    assert omni.throughput(value, unit) == expected


def test_unknown_output_is_a_problem_at_its_line():
    text = (
        "$ netperf -t UDP_STREAM -H 192.168.2.125\n"
        "UDP UNIDIRECTIONAL SEND TEST from 0.0.0.0 (0.0.0.0) port 0 AF_INET"
        " to 192.168.2.125 (192.168.2.125) port 0 AF_INET\n"
        "udp_send: data send error: Message too long\n"
    )
    found = extract("netperf.txt", text.encode())
    assert found.runs == []
    assert [(problem.line, problem.message) for problem in found.problems] == [
        (2, "netperf printed no result after its banner: udp_send: data send error: Message too long")
    ]
    banner = "TCP STREAM TEST from 0.0.0.0 (0.0.0.0) port 0 AF_INET to x () port 0 AF_INET\n"
    mismatched = banner + "Throughput,Throughput Units\n1.0\n"
    (report,) = netperf.parse(mismatched)
    assert report.problems == [(2, "netperf CSV output with 2 titles and 1 values: not read")]
    usec = mismatched.replace("1.0", "1.0,Usec/s")
    assert netperf.parse(usec)[0].problems == [(1, "netperf throughput unit 'Usec/s' not understood")]


def test_a_short_test_is_warned_about():
    # The manual's first TCP_STREAM as a 3-second run would print it (-l 3).
    first = (NETPERF / "manual-tcp-stream.txt").read_text(encoding="utf-8").split("$ ")[1]
    output = first.split("\n", 1)[1].replace("10.00", " 3.00")
    (run,) = extract("netperf.txt", f"$ netperf -H lag -l 3\n{output}".encode()).runs
    assert run.metrics["elapsed_s"] == 3.0
    assert [check["id"] for check in run.checks] == ["netperf-short"]

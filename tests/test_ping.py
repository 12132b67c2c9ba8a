"""ping: the captured and written fixtures' numbers, every family's summary, what is refused and why,
and live Debian iputils ping on loopback (127.0.0.1 only)."""

from __future__ import annotations

import shutil
import statistics
import subprocess

import pytest

from perfwiki import tools
from perfwiki.extract import extract
from perfwiki.tools.ioping import parser as ioping
from perfwiki.tools.ping import parser as ping
from support import FIXTURES

PING = FIXTURES / "ping"


def run_of(name: str):
    path = PING / name
    found = extract(f"fixtures/ping/{name}", path.read_bytes())
    assert found.problems == []
    (run,) = found.runs
    return run


def only(text: str):
    (report,) = ping.parse(text)
    return report


def test_captured_loopback_summary_and_replies():
    run = run_of("debian12-ping-c5.txt")
    metrics = run.metrics
    assert (metrics["packets_sent"], metrics["packets_received"], metrics["loss_pct"]) == (5, 5, 0)
    assert [metrics[f"rtt_{key}_ms"] for key in ("min", "avg", "max", "mdev")] == [0.007, 0.032, 0.051, 0.017]
    assert metrics["rtt_spread"] == "mdev" and metrics["variant"] == "iputils" and metrics["elapsed_ms"] == 4056
    assert [reply["time_ms"] for reply in metrics["replies"]] == [0.015, 0.051, 0.046, 0.041, 0.007]
    # No -D: the time axis is the sequence number times the interval (ping's default second).
    assert [reply["t_s"] for reply in metrics["replies"]] == [0, 1, 2, 3, 4]
    assert metrics["time_axis"] == "interval"
    assert run.params == {
        "target": "127.0.0.1",
        "address": "127.0.0.1",
        "payload_bytes": 56,
        "family": "ipv4",
        "target_kind": "loopback",
        "count": 5,
        "interval_s": 1,
    }
    assert run.checks == []
    headline = {entry["label"]: entry["value"] for entry in tools.get("ping").headline(run)}
    assert headline == {"Average round-trip time": "32 µs", "Maximum round-trip time": "51 µs", "Packet loss (%)": "0"}


def test_timestamps_give_the_time_axis_and_keep_the_epoch():
    run = run_of("debian12-ping-D-i0.2.txt")
    replies = run.metrics["replies"]
    assert len(replies) == 20 and run.params["interval_s"] == 0.2 and run.params["timestamps"] is True
    assert replies[0] == {"seq": 1, "time_ms": 0.012, "ttl": 64, "t_s": 0, "epoch_s": 1795767729.100973}
    assert replies[1]["t_s"] == 0.201249 and replies[-1]["t_s"] == 3.885667  # 1795767732.986640 - ...729.100973
    assert run.metrics["time_axis"] == "timestamps"
    chart = tools.get("ping").run_charts(run)[0]
    assert chart["plot"]["kind"] == "timeline" and chart["plot"]["unit"] == "ns"
    (series,) = chart["plot"]["series"]
    assert series["t_s"][:2] == [0, 0.201249] and series["values"][:2] == [12000, 46000]
    assert chart["table"]["rows"][0] == ["0 s", "12 µs"]


def test_no_answer_lines_are_timeouts_and_loss_is_a_warning():
    run = run_of("debian12-ping-O-loss.txt")
    metrics = run.metrics
    assert [entry["seq"] for entry in metrics["timeouts"]] == [5, 6, 7, 8]
    assert [reply["seq"] for reply in metrics["replies"]] == [1, 2, 3, 4, 9, 10]
    assert (metrics["packets_received"], metrics["loss_pct"]) == (6, 40)
    (finding,) = run.checks
    assert finding["id"] == "ping-loss" and finding["severity"] == "warning"
    assert finding["message"].startswith("4 of 10 packets lost (40%)")
    assert finding["line"] == 15 and finding["evidence"].startswith("10 packets transmitted")
    # The chart leaves a gap where the requests had no answer.
    (series,) = tools.get("ping").run_charts(run)[0]["plot"]["series"]
    assert series["values"][4:8] == [None, None, None, None] and series["t_s"][4:8] == [0.8, 1, 1.2, 1.4]
    timed = run_of("debian12-ping-D-O-loss.txt").metrics["timeouts"]
    assert timed[0] == {"seq": 5, "t_s": 1.025162, "epoch_s": 1795767747.57439}


def test_icmp_errors_and_total_loss():
    run = run_of("debian12-ping-unreachable.txt")
    metrics = run.metrics
    counts = (metrics["packets_sent"], metrics["packets_received"], metrics["errors"], metrics["loss_pct"])
    assert counts == (3, 0, 3, 100)
    assert "rtt_avg_ms" not in metrics and metrics["replies"] == []
    assert metrics["icmp_errors"][0] == {
        "seq": 1,
        "from": "21.4.14.65",
        "message": "Destination Port Unreachable",
        "t_s": 0,
    }
    assert [finding["id"] for finding in run.checks] == ["ping-loss", "ping-errors"]
    assert run.checks[0]["message"] == "no reply to any of the 3 packets: no round-trip time was measured"
    assert run.checks[1]["message"] == "3 ICMP errors (Destination Port Unreachable) instead of replies"
    assert tools.get("ping").run_charts(run) == []  # nothing came back to draw
    both = run_of("debian12-ping-O-unreachable.txt").metrics
    assert (len(both["icmp_errors"]), len(both["timeouts"]), both["errors"]) == (4, 3, 4)


def test_broadcast_duplicates_are_kept_apart_and_noted():
    run = run_of("debian12-ping-broadcast-dup.txt")
    metrics = run.metrics
    assert (metrics["packets_received"], metrics["duplicates"]) == (4, 3)
    assert [reply.get("dup", False) for reply in metrics["replies"]] == [False, True, False, True, False, True, False]
    assert {reply["from"] for reply in metrics["replies"]} == {"10.99.0.1", "10.99.0.2"}
    assert run.params["target_kind"] == "broadcast"
    # iputils averages over every reply, duplicates too.
    assert metrics["rtt_avg_ms"] == pytest.approx(statistics.mean(r["time_ms"] for r in metrics["replies"]), abs=5e-4)
    assert [finding["id"] for finding in run.checks] == ["ping-duplicates"]


def test_old_iputils_truncated_loss_is_recomputed_with_pipe_and_dup():
    run = run_of("centos7-iputils-s20160308-dup-loss.txt")
    metrics = run.metrics
    assert metrics["loss_pct"] == pytest.approx(100 / 6, abs=1e-6)  # printed "16%"
    assert (metrics["duplicates"], metrics["pipe"], metrics["rtt_max_ms"]) == (1, 2, 153.027)
    assert [reply["time_ms"] for reply in metrics["replies"]] == [152, 153, 98.7, 12.4, 1.87, 0.954]
    assert [reply["t_s"] for reply in metrics["replies"]] == [0, 0, 0.1, 0.3, 0.4, 0.5]
    assert run.command == "sudo ping -c 6 -i 0.1 10.20.0.15" and run.params["interval_s"] == 0.1


def test_bsd_busybox_and_windows_summaries():
    macos = run_of("macos-ping-timeout.txt")
    spread = (macos.metrics["variant"], macos.metrics["rtt_spread"], macos.metrics["rtt_mdev_ms"])
    assert spread == ("bsd", "stddev", 0.413)
    assert (macos.metrics["loss_pct"], macos.metrics["timeouts"]) == (20, [{"seq": 2, "t_s": 2}])  # BSD counts from 0
    bsd6 = run_of("freebsd-ping6.txt")
    assert (bsd6.params["family"], bsd6.params["payload_bytes"], bsd6.metrics["rtt_spread"]) == ("ipv6", 8, "stddev")
    assert bsd6.metrics["replies"][0] == {"seq": 0, "time_ms": 0.044, "ttl": 64, "t_s": 0}  # hlim=64
    busybox = run_of("busybox-ping.txt").metrics
    assert busybox["variant"] == "busybox" and "rtt_mdev_ms" not in busybox and "rtt_spread" not in busybox
    assert (busybox["rtt_min_ms"], busybox["rtt_avg_ms"], busybox["rtt_max_ms"]) == (0.387, 0.413, 0.455)
    windows = run_of("windows10-ping-timeout.txt")
    assert windows.command == "ping -n 5 fileserver" and windows.params["count"] == 5
    assert (windows.metrics["target"], windows.metrics["address"]) == ("fileserver.corp.example", "10.1.2.3")
    assert [reply["time_ms"] for reply in windows.metrics["replies"]] == [2, 1, 3, 2]
    assert windows.metrics["timeouts"] == [{"seq": 3, "t_s": 2}]
    assert (windows.metrics["rtt_min_ms"], windows.metrics["rtt_avg_ms"], windows.metrics["loss_pct"]) == (1, 2, 20)
    loopback = run_of("windows10-ping-loopback.txt")
    assert loopback.metrics["replies"][0] == {"seq": 1, "time_below_ms": 1, "ttl": 128, "t_s": 0}
    assert [finding["id"] for finding in loopback.checks] == ["ping-resolution"]
    assert tools.get("ping").run_charts(loopback) == []  # no reply time to draw


def test_new_iputils_g_loss_and_old_integer_loss_agree():
    lines = [
        "PING 10.0.0.2 (10.0.0.2) 56(84) bytes of data.",
        "64 bytes from 10.0.0.2: icmp_seq=1 ttl=64 time=0.210 ms",
        "64 bytes from 10.0.0.2: icmp_seq=3 ttl=64 time=0.230 ms",
        "",
        "--- 10.0.0.2 ping statistics ---",
        "3 packets transmitted, 2 received, {loss} packet loss, time 2003ms",
        "rtt min/avg/max/mdev = 0.210/0.220/0.230/0.010 ms",
    ]
    # iputils since 2020 prints "%g" (ping_common.c finish), before it an integer.
    for printed in ("33.3333%", "33%"):
        report = only("\n".join(lines).replace("{loss}", printed))
        assert report.problems == [] and report.metrics["loss_pct"] == 33.333333


def test_windows_unreachable_replies_count_as_received():
    # Windows' own quirk (documented by Microsoft): an ICMP error from a router is a "Reply" it counts.
    text = (
        "Pinging 10.0.3.22 with 32 bytes of data:\n"
        "Reply from 10.0.0.1: Destination host unreachable.\n"
        "Reply from 10.0.0.1: Destination host unreachable.\n"
        "\n"
        "Ping statistics for 10.0.3.22:\n"
        "    Packets: Sent = 2, Received = 2, Lost = 0 (0% loss),\n"
    )
    found = extract("w.txt", ("C:\\>ping -n 2 10.0.3.22\n" + text).encode())
    (run,) = found.runs
    assert run.metrics["icmp_errors"] == [
        {"seq": 1, "from": "10.0.0.1", "message": "Destination host unreachable", "t_s": 0},
        {"seq": 2, "from": "10.0.0.1", "message": "Destination host unreachable", "t_s": 1},
    ]
    (finding,) = run.checks
    assert finding["id"] == "ping-errors" and "which Windows counts as received" in finding["message"]
    assert finding["line"] == 3


@pytest.mark.parametrize(
    ("name", "line", "message"),
    [
        ("debian12-ping-unknown-host.txt", 2, "ping did not run: ping: nonexistent.invalid: Name or service not known"),
        ("debian12-ping-network-unreachable.txt", 2, "ping did not run: ping: connect: Network is unreachable"),
    ],
)
def test_ping_that_did_not_run_is_a_problem_at_its_line(name, line, message):
    path = FIXTURES / "ping-errors" / name
    found = extract(name, path.read_bytes())
    assert found.runs == []
    assert [(problem.line, problem.message) for problem in found.problems] == [(line, message)]


def test_lines_that_look_like_ping_but_are_not_are_problems_and_the_run_stays():
    text = (PING / "debian12-ping-c5.txt").read_text(encoding="utf-8").split("\n")
    text.insert(4, "64 bytes from 127.0.0.1: icmp_seq=3 ttl=64 time=0.046 ms: some weird error")
    found = extract("x.txt", "\n".join(text).encode())
    (run,) = found.runs
    assert len(run.metrics["replies"]) == 5
    assert [(p.line, p.message) for p in found.problems] == [
        (5, "ping line not understood: '64 bytes from 127.0.0.1: icmp_seq=3 ttl=64 time=0.046 ms: some weird error'")
    ]


def test_output_in_another_language_is_refused_not_guessed():
    text = "$ ping -n 2 127.0.0.1\n正在 Ping 127.0.0.1 具有 32 字节的数据:\n来自 127.0.0.1 的回复\n"
    found = extract("zh.txt", text.encode())
    assert found.runs == []
    assert [(p.line, p.message) for p in found.problems] == [
        (2, "ping output not understood: no PING header, reply or statistics line (English output only)")
    ]


def test_replies_without_their_summary_are_not_a_run():
    text = "\n".join((PING / "debian12-ping-c5.txt").read_text(encoding="utf-8").split("\n")[:7])
    found = extract("cut.txt", text.encode())
    assert found.runs == []
    (problem,) = found.problems
    assert problem.line == 7 and problem.message.startswith("ping output without its statistics summary")


def test_a_second_loss_line_is_a_problem_not_an_overwrite():
    lines = (PING / "debian12-ping-c5.txt").read_text(encoding="utf-8").split("\n")
    at = next(index for index, line in enumerate(lines) if "packets transmitted" in line)
    lines.insert(at + 1, "5 packets transmitted, 1 received, 80% packet loss, time 4056ms")
    report = only("\n".join(lines[1:]))
    assert report.metrics["packets_received"] == 5
    assert report.problems == [(at, "a second ping packets transmitted line in one run: the first is kept")]


def test_a_damaged_loss_figure_is_a_problem():
    report = only("--- h ping statistics ---\n4 packets transmitted, 4 received, 50% packet loss, time 3004ms\n")
    assert report.problems == [(1, "ping prints 50% packet loss, but 0 of 4 packets were lost")]


def test_two_runs_without_their_commands_are_two_runs():
    one = (PING / "debian12-ping-c5.txt").read_text(encoding="utf-8").split("\n", 1)[1]
    two = (PING / "debian12-ping-ipv6.txt").read_text(encoding="utf-8").split("\n", 1)[1]
    reports = ping.parse(one + two)
    assert [report.metrics["target"] for report in reports] == ["127.0.0.1", "::1"]
    assert all(report.problems == [] for report in reports)
    # Without a command the interval is ping's default second, and the run says so.
    params, _ = ping.params(reports[0], None)
    assert params["interval_s"] is None and reports[0].metrics["time_axis"] == "default interval"


def test_iputils_pipe_line_without_rtt():
    # The format of a 100%-loss summary with requests in flight (jc's ubuntu-22.04 ping-dest-unreachable).
    report = only(
        "PING 10.0.3.22 (10.0.3.22) 56(84) bytes of data.\n"
        "From 10.0.0.1 icmp_seq=1 Destination Host Unreachable\n"
        "\n"
        "--- 10.0.3.22 ping statistics ---\n"
        "3 packets transmitted, 0 received, +3 errors, 100% packet loss, time 2049ms\n"
        "pipe 3\n"
    )
    assert report.problems == [] and (report.metrics["pipe"], report.metrics["errors"]) == (3, 3)


@pytest.mark.parametrize(
    ("command", "variant", "expected"),
    [
        ("sudo ping -qc5 -i0.5 -s 100 host", "iputils", {"count": 5, "interval_s": 0.5}),
        ("ping -n 4 -l 1400 -i 64 host", "windows", {"count": 4, "interval_s": 1}),  # Windows' -i is the TTL
        ("ping -f -c 1000 host", "iputils", {"count": 1000, "interval_s": 0, "flood": True}),
        ("ping -c 100 -w 10 host | tee ping.log", "iputils", {"count": 100, "interval_s": 1, "deadline_s": 10}),
    ],
)
def test_command_options(command, variant, expected):
    report = ping.PingReport(0, 0, metrics={"variant": variant, "packets_sent": expected["count"]})
    params, warnings = ping.params(report, command)
    assert {key: params.get(key) for key in expected} == expected and warnings == []


def test_a_run_stopped_before_its_count_says_so():
    report = ping.PingReport(0, 0, metrics={"variant": "iputils", "packets_sent": 6, "payload_bytes": 56})
    _, warnings = ping.params(report, "ping -c 10 -s 1400 host")
    assert warnings == [
        "the command asks for 1400-byte payloads, the output says 56",
        "6 of the 10 packets asked for (-c 10) were sent: ping was stopped early",
    ]


def test_ping_and_ioping_never_claim_each_others_output():
    for path in sorted((FIXTURES / "ioping").glob("*.txt")):
        assert ping.detect(path.read_text(encoding="utf-8")) == 0, path.name
        assert not any(report.has_results() for report in ping.parse(path.read_text(encoding="utf-8")))
    for path in sorted(PING.glob("*.txt")):
        assert ioping.detect(path.read_text(encoding="utf-8")) == 0, path.name
    # A target whose name ends in "io" is still ping's, and ioping's summary never is.
    assert ping.detect("--- radio ping statistics ---\n") == 1.0
    assert ping.detect("--- /tmp/x (ext4 /dev/vda 252.0 GiB) ioping statistics ---\n") == 0


# -- live: Debian's iputils ping on loopback ----------------------------------------------------------


@pytest.fixture(scope="module")
def ping_binary() -> str:
    binary = shutil.which("ping")
    if binary is None:
        pytest.fail("Debian's ping (iputils-ping) is not installed: run `make setup-system`")
    return binary


def test_live_summary_agrees_with_its_reply_lines(ping_binary):
    command = [ping_binary, "-c", "8", "-i", "0.2", "-D", "127.0.0.1"]
    done = subprocess.run(command, capture_output=True, text=True, timeout=30, check=True)
    found = extract("live.txt", f"$ ping {' '.join(command[1:])}\n{done.stdout}".encode())
    assert found.problems == []
    (run,) = found.runs
    metrics = run.metrics
    firsts = [reply for reply in metrics["replies"] if not reply.get("dup")]
    assert metrics["packets_sent"] == 8 == len(firsts) + len(metrics["timeouts"]) + len(metrics["icmp_errors"])
    assert metrics["packets_received"] == len(firsts)
    assert metrics.get("duplicates", 0) == len(metrics["replies"]) - len(firsts)
    assert metrics["rtt_min_ms"] <= metrics["rtt_avg_ms"] <= metrics["rtt_max_ms"]
    times = [reply["time_ms"] for reply in metrics["replies"]]
    assert metrics["rtt_min_ms"] == min(times) and metrics["rtt_max_ms"] == max(times)
    # ping's average is of the exact times; the lines print three decimals (a microsecond).
    assert metrics["rtt_avg_ms"] == pytest.approx(statistics.mean(times), abs=0.001)
    # -D: each reply's own unix time; t_s counts from the first, at about the interval.
    stamps = [reply["epoch_s"] for reply in metrics["replies"]]
    assert stamps == sorted(stamps) and metrics["replies"][0]["t_s"] == 0
    assert metrics["replies"][-1]["t_s"] == pytest.approx(stamps[-1] - stamps[0], abs=1e-6)
    assert 0.2 * 7 * 0.8 < metrics["replies"][-1]["t_s"] < 0.2 * 7 * 2
    assert run.params["interval_s"] == 0.2 and run.params["target_kind"] == "loopback"


def test_live_ping_version_is_read(ping_binary):
    version = subprocess.run([ping_binary, "-V"], capture_output=True, text=True, check=True).stdout
    out = subprocess.run([ping_binary, "-c", "1", "127.0.0.1"], capture_output=True, text=True, check=True).stdout
    (report,) = ping.parse(version + out)
    assert report.tool_version and report.tool_version in version and report.problems == []


def test_iputils_ipv6_header_with_a_name_and_a_source():
    # The layout of iputils' IPv6 header for a host name (jc's ubuntu-22.04 ping6-hostname-source-ip.out).
    report = only(
        "PING example.com(example.com (2001:db8::1)) from 2001:db8::2 : 56 data bytes\n"
        "64 bytes from example.com (2001:db8::1): icmp_seq=1 ttl=114 time=15.7 ms\n"
        "--- example.com ping statistics ---\n"
        "1 packets transmitted, 1 received, 0% packet loss, time 0ms\n"
        "rtt min/avg/max/mdev = 15.676/15.676/15.676/0.000 ms\n"
    )
    metrics = report.metrics
    assert report.problems == [] and (metrics["target"], metrics["address"]) == ("example.com", "2001:db8::1")
    assert metrics["variant"] == "iputils" and "from" not in metrics["replies"][0]


def test_windows_ipv6_replies_have_no_ttl():
    report = only(
        "Pinging host [::1] with 32 bytes of data:\n"
        "Reply from ::1: time<1ms\n"
        "Reply from ::1: time=2ms\n"
        "\n"
        "Ping statistics for ::1:\n"
        "    Packets: Sent = 2, Received = 2, Lost = 0 (0% loss),\n"
        "Approximate round trip times in milli-seconds:\n"
        "    Minimum = 0ms, Maximum = 2ms, Average = 1ms\n"
    )
    assert report.problems == [] and report.metrics["replies"] == [
        {"seq": 1, "time_below_ms": 1},
        {"seq": 2, "time_ms": 2},
    ]
    params, _ = ping.params(report, None)
    assert (params["family"], params["target_kind"]) == ("ipv6", "loopback")


def test_a_reply_line_pasted_twice_contradicts_the_summary():
    lines = (PING / "debian12-ping-c5.txt").read_text(encoding="utf-8").split("\n")
    lines.insert(3, lines[3])
    report = only("\n".join(lines[1:]))
    assert report.problems == [] and [reply.get("dup", False) for reply in report.metrics["replies"]].count(True) == 1
    assert report.warnings == [
        "1 reply line repeats a sequence number, but ping counts 0 duplicates: a line pasted twice, or lines left out"
    ]

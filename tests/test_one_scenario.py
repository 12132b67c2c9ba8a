"""One measurement, one scenario: the same command captured in each of a tool's output formats
gives one fingerprint (issue 30: a fio command saved as JSON and as text was two scenarios, numjobs
None against 1). The captures are real, made here (tests/fixtures/<tool>/README.md says how)."""

from __future__ import annotations

import pytest

from perfwiki import compare
from perfwiki.extract import extract
from support import FIXTURES, ROOT


def fingerprints(tool: str, names: list[str], *, command: bool = True) -> dict[str, dict]:
    """{format: the fingerprint of each part} of each capture; without its command line when not `command`."""
    found = {}
    for name in names:
        data = (FIXTURES / tool / name).read_bytes()
        if not command:
            data = data.split(b"\n", 1)[1]
        (run,) = extract(f"fixtures/{tool}/{name}", data).runs
        found[run.format] = run.fingerprints
    return found


FIO = [f"fio-3.33-randread-4k-{kind}.txt" for kind in ("normal", "json", "jsonplus", "terse")]


def test_one_fio_command_in_four_output_formats_is_one_scenario():
    found = fingerprints("fio", FIO)
    assert sorted(found) == ["json", "json+", "terse", "text"]
    # fio's defaults filled in where the command set nothing: numjobs, iodepth, direct, ioengine.
    expected = {
        "read": {
            "tool": "fio",
            "direction": "read",
            "rw": "randread",
            "bs_bytes": 4096,
            "iodepth": 1,
            "numjobs": 1,
            "io": "buffered",
            "ioengine": "psync",
            "target": "file",
            "rwmixread": None,
        }
    }
    assert found == dict.fromkeys(found, expected)
    assert {compare.fingerprint_key(prints["read"]) for prints in found.values()} == {
        "fio-read-randread-4096-1-1-buffered-psync-file"
    }


def test_without_its_command_fio_output_fills_no_default_it_cannot_know():
    """fio's JSON lists every option the job was given, so a missing one was fio's default; its text
    output never prints direct= and its terse output no option at all: there nothing is guessed."""
    found = fingerprints("fio", FIO, command=False)
    assert found["json"] == found["json+"] == fingerprints("fio", FIO)["json"]
    text = found["text"]["read"]
    assert (text["io"], text["iodepth"], text["ioengine"], text["numjobs"]) == (None, 1, "psync", 1)
    terse = found["terse"]["read"]
    assert (terse["rw"], terse["bs_bytes"], terse["io"], terse["numjobs"]) == (None, None, None, None)


def test_a_block_size_fio_printed_as_a_range_is_not_given_the_default():
    """nas-cache-modes runs fio's iometer job (bssplit=512/10:1k/5:...): bs= is not 4096 there."""
    path = "content/reports/nas-cache-modes/raw/nas-default/fio.txt"
    (run,) = extract(path, (ROOT / path).read_bytes()).runs
    assert run.params["bssplit"].startswith("512/10:1k/5:") and "bs_bytes" not in run.params
    assert run.fingerprints["read"]["bs_bytes"] is None
    assert run.fingerprints["read"]["io"] == "direct" and run.fingerprints["read"]["numjobs"] == 1


@pytest.mark.parametrize(
    ("tool", "names", "expected"),
    [
        (
            "iperf3",
            ["iperf3-3.12-loopback-t1-text.txt", "iperf3-3.12-loopback-t1-json.txt"],
            {"tool": "iperf3", "mode": "tcp", "streams": 1, "direction": "forward"},
        ),
        (
            "ioping",
            ["ioping-1.3-c3-text.txt", "ioping-1.3-c3-json.txt"],
            {"tool": "ioping", "request_bytes": 4096, "direct": False},
        ),
        (
            "iostat",
            ["sysstat-12.6.1-x-1-2-text.txt", "sysstat-12.6.1-x-1-2-json.txt"],
            {"tool": "iostat"},
        ),
    ],
)
@pytest.mark.parametrize("command", [True, False], ids=["with-command", "output-alone"])
def test_each_tool_with_two_formats_gives_one_scenario_for_one_command(tool, names, expected, command):
    found = fingerprints(tool, names, command=command)
    assert sorted(found) == ["json", "text"]
    assert found["text"] == found["json"] == {None: expected}

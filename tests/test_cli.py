"""The `perfwiki` console script, run as a user would."""

from __future__ import annotations

import json
import subprocess

import yaml

from support import FIXTURES, REPORTS, SEED_SLICES, perfwiki_command

SEED_000 = str(REPORTS / SEED_SLICES["000"][0])  # seed 000's twelve fio runs, in one slice


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(perfwiki_command() + [*args], capture_output=True, text=True)


def test_parse_seed_000_as_json():
    result = run("parse", SEED_000, "--format", "json")
    assert result.returncode == 0, result.stderr
    document = json.loads(result.stdout)
    assert document["problems"] == []
    assert len(document["runs"]) == 12
    first = document["runs"][0]
    assert first["tool"] == "fio" and first["tool_version"] == "3.1"
    write = first["metrics"]["jobs"][0]["write"]
    assert (write["iops"], write["bw_bytes_per_s"], write["clat_ns"]["mean"]) == (872, 972029952, 4476220000)
    assert first["source"]["line_start"] == 6 and first["source"]["line_end"] == 38
    assert set(first) >= {
        "id",
        "tool",
        "tool_version",
        "format",
        "label",
        "command",
        "source",
        "params",
        "metrics",
        "warnings",
    }


def test_parse_yaml_matches_json():
    as_yaml = yaml.safe_load(run("parse", SEED_000, "--format", "yaml").stdout)
    as_json = json.loads(run("parse", SEED_000).stdout)
    assert as_yaml == as_json


def test_parse_reports_problems_with_path_and_line(tmp_path):
    truncated = tmp_path / "truncated.txt"
    truncated.write_text(
        "fio --name=x --rw=read\n"
        "x: (g=0): rw=read, bs=(R) 4096B-4096B, (W) 4096B-4096B, (T) 4096B-4096B, ioengine=libaio, iodepth=1\n"
        "fio-3.33\n"
        "Starting 1 process\n",
        encoding="utf-8",
    )
    result = run("parse", str(truncated), str(tmp_path / "missing.txt"))
    assert result.returncode == 1  # a file could not be read at all
    document = json.loads(result.stdout)
    assert document["runs"] == []
    assert document["problems"][0] == {
        "path": str(truncated),
        "line": 2,
        "message": "fio output without any job result block",
    }
    assert f"{truncated}:2: fio output without any job result block" in result.stderr
    assert "missing.txt:0: cannot read" in result.stderr


def test_fio_results_the_parser_cannot_read_are_a_problem_not_an_empty_run(tmp_path):
    # A chat client cut the direction line in the middle: the job block has no line with
    # numbers the parser can trust, so it must not be published as a run without numbers.
    cut = tmp_path / "cut-by-chat.txt"
    cut.write_text(
        "fio --name=randread --rw=randread\n"
        "fio-3.33\n"
        "randread: (groupid=0, jobs=1): err= 0: pid=2297: Mon Feb  8 11:33:13 2016\n"
        "  read: IOPS=12.1k, BW=47.1Mi\n",
        encoding="utf-8",
    )
    result = run("parse", str(cut))
    assert result.returncode == 0  # the file was read; what it lacks is in the document's problems
    document = json.loads(result.stdout)
    assert document["runs"] == []
    assert document["problems"] == [
        {"path": str(cut), "line": 3, "message": "fio job result without read/write/trim lines this parser understands"}
    ]


def test_parse_summary_says_each_runs_command_and_lines_and_every_problem(tmp_path):
    """`--format summary`: per run its tool and id, output lines and first result, the command it was
    given and that command's line (or "no command"), and its warnings and the file's problems at path:line."""
    transcript = str(FIXTURES / "transcripts" / "output-without-command.txt")
    truncated = tmp_path / "truncated.txt"
    truncated.write_text("fio --name=x --rw=read\nfio-3.33\nx: (groupid=0, jobs=1): err= 0: pid=1\n", encoding="utf-8")
    result = run("parse", transcript, SEED_000, str(truncated), "--format", "summary")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[:13] == [
        f"{transcript}: 4 runs",
        "  fio (run randread-qd8), output lines 2-32: IOPS 71.4k",
        "    command at line 1: fio --name=randread-qd8 --filename=/tmp/perfwiki-data/f.dat --size=8M --rw=randread"
        " --bs=4k --ioengine=libaio --iodepth=8 --direct=1 --runtime=1 --time_based",
        "  iperf3 (run iperf3), output lines 33-40: Throughput 22.2 Gbits/sec",
        "    no command",
        f"    {transcript}:33: no command before this output: parameters come from the output only",
        "  fio (run seqread), output lines 45-74: IOPS 2072",
        "    command at line 43: fio --name=seqread --filename=/tmp/perfwiki-data/f.dat --size=8M --rw=read --bs=1M"
        " --runtime=1 --time_based --output=/tmp/perfwiki-data/seqread.log",
        f"    {transcript}:45: command shown apart from its output, at line 43",
        "  fio (run randwrite), output lines 76-106: IOPS 178k",
        "    no command",
        f"    {transcript}:76: the command before this output (line 75) does not run fio: parameters come from the"
        " output only",
        f"{SEED_000}: 12 runs",
    ]
    assert lines[13:16] == [
        "  fio (run fio-bandwidth-iops-latency-sequential-write-bandwidth-test), output lines 8-38: IOPS 872",
        "    label: 【1. Sequential Write】",
        "    command at line 6: sudo fio --name=sequential_write_bandwidth_test --filename=/dev/nvme10n1"
        " --filesize=100G --time_based --ramp_time=2s --runtime=1m --ioengine=libaio --direct=1 --verify=0"
        " --randrepeat=0 --bs=1M --iodepth=4096 --rw=write --group_reporting",
    ]
    assert lines[-2:] == [
        f"{truncated}: no runs",
        f"  {truncated}:3: fio job result without read/write/trim lines this parser understands",
    ]
    assert result.stderr == ""  # the problems are in the summary, not said twice


def test_a_command_parses_and_helps_as_in_the_whole_parser(monkeypatch, capsys):
    """main() builds only the command it was given: its help, defaults and errors are the whole parser's."""
    import pytest

    from perfwiki import cli

    monkeypatch.setenv("COLUMNS", "100")
    whole = cli.build_parser()
    for name in cli.COMMANDS:
        alone = cli.build_parser(name)
        helps = []
        for parser in (whole, alone):
            with pytest.raises(SystemExit):
                parser.parse_args([name, "--help"])
            helps.append(capsys.readouterr().out)
        assert helps[0] == helps[1] and f"usage: perfwiki {name}" in helps[0]
    args = cli.build_parser("parse").parse_args(["parse", "x.txt"])
    assert (args.paths, args.format, args.func) == (["x.txt"], "json", cli.cmd_parse)
    with pytest.raises(SystemExit):
        cli.main(["nosuch"])
    assert "invalid choice: 'nosuch' (choose from 'parse', 'facts'" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        cli.main(["--version"])
    assert capsys.readouterr().out.startswith("perfwiki ")

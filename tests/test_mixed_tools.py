"""One transcript mixing every tool is split at each prompt and each run goes to the right parser."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
import yaml

from perfwiki.extract import assign_ids, extract
from support import ALL_SLICES, extract_slice, golden, slice_golden, slice_tools

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "mixed" / "debian12-all-tools.txt"


def test_captured_transcript_of_seven_tools():
    found = extract("debian12-all-tools.txt", FIXTURE.read_bytes())
    assert found.problems == []
    assert [run.tool for run in found.runs] == ["fio", "ioping", "mbw", "dd", "sysbench", "iostat", "iperf3"]
    assert all(run.command for run in found.runs)
    dd_run = found.runs[3]
    assert dd_run.metrics["bytes"] == 8 * 2**20 and set(dd_run.metrics["time"]) == {"real_s", "user_s", "sys_s"}


def test_captured_transcript_golden(update_goldens):
    found = extract("fixtures/mixed/debian12-all-tools.txt", FIXTURE.read_bytes())
    assign_ids(found.runs)
    document = yaml.safe_dump([run.to_dict() for run in found.runs], sort_keys=True, allow_unicode=True, width=4096)
    golden("mixed/debian12-all-tools.yaml", document, update_goldens)


def test_live_transcript_mixing_tools(tmp_path):
    for tool in ("fio", "ioping", "mbw", "sysbench", "iostat"):
        if shutil.which(tool) is None:
            pytest.fail(f"Debian's {tool} is not installed: run `make setup-system`")
    commands = [
        f"fio --name=live --filename={tmp_path}/f --size=4M --rw=read --bs=64k --runtime=1 --time_based",
        f"ioping -c 3 -i 0.05 {tmp_path}",
        "mbw -n 2 8",
        f"time dd if=/dev/zero of={tmp_path}/dd bs=1M count=4",
        "sysbench cpu --time=1 run",
        "iostat -d 1 2",
    ]
    transcript = []
    for command in commands:
        result = subprocess.run(
            ["bash", "-c", command], capture_output=True, text=True, env={"LC_ALL": "C", "PATH": "/usr/bin:/bin"}
        )
        transcript.append(f"user@host:~$ {command}\n{result.stdout}{result.stderr}")
    found = extract("live.txt", "".join(transcript).encode())
    assert found.problems == []
    assert [run.tool for run in found.runs] == ["fio", "ioping", "mbw", "dd", "sysbench", "iostat"]
    assert [run.command for run in found.runs] == commands


@pytest.mark.parametrize("name", [name for name in ALL_SLICES if slice_tools(name) - {"fio"}])
def test_seed_runs_of_the_other_tools_golden(name, update_goldens):
    found = extract_slice(name)
    others = [run for run in found.runs if run.tool != "fio"]
    assign_ids(others)
    assert others and found.problems == []
    document = yaml.safe_dump([run.to_dict() for run in others], sort_keys=True, allow_unicode=True, width=4096)
    golden(slice_golden(name, "tools"), document, update_goldens)

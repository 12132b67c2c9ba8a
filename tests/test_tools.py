"""Every registered tool, through the interface (as pygments tests every lexer), and its goldens.

A tool is a package under scripts/perfwiki/tools/ listed in the registry, with real
outputs of its own under tests/fixtures/<tool>/ and one reviewed golden per fixture under
tests/goldens/<tool>/<fixture>.yaml. Rewrite the goldens with: .venv/bin/pytest --update-goldens
"""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from perfwiki import compare, tools, units
from perfwiki.extract import assign_ids, extract
from perfwiki.findings import SEVERITY_ORDER
from perfwiki.segments import invoked_tool
from support import golden

FIXTURES = Path(__file__).resolve().parent / "fixtures"
# Job files are inputs of fio commands, not output: they sit beside the captures they produced.
NOT_OUTPUT = {".fio"}


def fixtures_of(tool: str) -> list[Path]:
    folder = FIXTURES / tool
    if not folder.is_dir():
        return []
    # A folder's README.md says how its captures were made.
    return sorted(path for path in folder.iterdir() if path.suffix not in NOT_OUTPUT and path.name != "README.md")


ALL = [(tool.name, path) for tool in tools.REGISTRY for path in fixtures_of(tool.name)]


def runs_of(path: Path):
    found = extract(f"fixtures/{path.parent.name}/{path.name}", path.read_bytes())
    assign_ids(found.runs)
    return found


def test_the_registry_is_the_one_list_of_tools():
    assert tools.NAMES == (
        "fio",
        "iperf3",
        "iperf2",
        "netperf",
        "ping",
        "unixbench",
        "sysbench",
        "mbw",
        "dd",
        "ioping",
        "iostat",
        "diskspd",
    )
    assert len(set(tools.NAMES)) == len(tools.NAMES)
    commands = [command for tool in tools.REGISTRY for command in (*tool.commands, *tool.path_only_commands)]
    assert len(commands) == len(set(commands)), "two tools claim one program name"


@pytest.mark.parametrize("tool", tools.REGISTRY, ids=tools.NAMES)
def test_each_tool_is_recognised_by_the_programs_it_names(tool):
    for command in tool.commands:
        assert tools.run_by(command) is tool
        assert invoked_tool(f"sudo {command} --help") == tool.name
    for command in tool.path_only_commands:
        assert tools.run_by(command) is None and tools.run_by(command, by_path=True) is tool
        assert invoked_tool(f"./{command} -c 1") == tool.name


@pytest.mark.parametrize("tool", tools.REGISTRY, ids=tools.NAMES)
def test_each_tool_has_real_fixtures(tool):
    assert fixtures_of(tool.name), f"add real {tool.name} output under tests/fixtures/{tool.name}/"


@pytest.mark.parametrize("tool", tools.REGISTRY, ids=tools.NAMES)
def test_nothing_is_not_output(tool):
    assert tool.detect("") < tools.DETECT_THRESHOLD
    assert tool.parse("") == []


@pytest.mark.parametrize("tool", tools.REGISTRY, ids=tools.NAMES)
def test_no_tool_is_more_than_certain(tool):
    """tools.detect stops at the first tool that is certain: no other may outscore it."""
    for _, path in ALL:
        assert 0 <= tool.detect(path.read_text(encoding="utf-8")) <= tools.CERTAIN


@pytest.mark.parametrize(("name", "path"), ALL, ids=[f"{name}-{path.name}" for name, path in ALL])
def test_interface_on_every_fixture(name, path):
    tool = tools.get(name)
    found = runs_of(path)
    assert found.problems == []
    runs = [run for run in found.runs if run.tool == name]
    assert runs, f"no {name} run in {path.name}"
    for run in runs:
        assert run.format in tool.formats
        assert tools.validate(run) == []
        # Recognised and parsed from the output alone too, without the command line.
        output = "\n".join(line for line in path.read_text(encoding="utf-8").split("\n") if not line.startswith("$ "))
        assert tools.detect(output) is tool
        assert any(report.has_results() for report in tool.parse(output))
        # Comparable parts: each has a fingerprint naming the tool, computed once at extraction.
        assert list(run.fingerprints) == tool.parts(run)
        for part, print_ in run.fingerprints.items():
            assert print_ == tool.fingerprint(run, part) and print_["tool"] == name
            assert compare.describe(print_).startswith(f"{name}: ")
        assert set(tool.fingerprint_names) <= {key for print_ in run.fingerprints.values() for key in print_}
        assert set(tool.scenario_parts(run)) <= set(run.fingerprints)
        # Metrics read a number or nothing, in a unit the pages know how to show.
        for metric in tool.metrics:
            for part in run.fingerprints:
                value = metric.read(run, part)
                assert value is None or isinstance(value, (int, float))
                if value is not None and metric.unit != "per test":
                    assert units.format_value(value, metric.unit)
        for finding in tool.check(run, path.read_text(encoding="utf-8").split("\n")):
            assert finding.severity in SEVERITY_ORDER and finding.id.startswith(f"{name}-")
        # What the pages show: tables whose rows fit their columns, charts of numbers, each table's rows full.
        for table in tool.result_tables(run):
            assert table["title"] and table["id"] and table["rows"]
            assert all(len(row) == len(table["columns"]) for row in table["rows"])
        for chart in tool.run_charts(run):
            assert chart["id"].startswith("chart-") and chart["title"]
            jobs = run.metrics.get("jobs")
            if chart["plot"]["kind"] == "ladder":
                # fio's carry only their kind: js/charts.js finds the series in the run's index.json.
                assert any(job.get(d, {}).get("percentiles_ns") for job in jobs for d in ("read", "write", "trim"))
            elif chart["plot"]["kind"] == "histogram":
                assert jobs[0]["lat_buckets"]
            elif chart["plot"]["kind"] == "bins":
                assert any(job.get(d, {}).get("bins_ns") for job in jobs for d in ("read", "write", "trim"))
            elif chart["plot"]["kind"] == "timeline" and "series" not in chart["plot"]:
                assert any(log["kind"] == chart["plot"]["log"] for log in run.metrics["logs"])
            else:
                assert chart["plot"]["series"] and all(one["values"] for one in chart["plot"]["series"])
            table = chart.get("table") or {"columns": [], "rows": []}
            assert all(len(row) == len(table["columns"]) for row in table["rows"])
        rows = tool.runs_rows(run)
        assert rows and all(len(cells) == len(tool.runs_columns) for _, cells in rows)
        assert all(isinstance(badge, str) for badge in tool.badges(run))
        # The headline: what a run page shows first, never an empty value.
        headline = tool.headline(run)
        assert headline and all(entry["label"] and entry["value"] for entry in headline)


@pytest.mark.parametrize(("name", "path"), ALL, ids=[f"{name}-{path.name}" for name, path in ALL])
def test_golden(name, path, update_goldens):
    found = runs_of(path)
    document = yaml.safe_dump([run.to_dict() for run in found.runs], sort_keys=True, allow_unicode=True, width=4096)
    golden(f"{name}/{path.name}.yaml", document, update_goldens)


def test_headlines_say_what_the_tools_printed():
    nvme = extract_slice_first("content/reports/nvme-raw-vs-ext4/raw/nvme-raw/fio-bandwidth-iops-latency.md")
    assert [(entry["label"], entry["value"]) for entry in tools.get("fio").headline(nvme)] == [
        ("IOPS", "872"),  # IOPS=872, as the page shows it
        # BW=927MiB/s: the text is fio's token, the unit switch has both conventions.
        ("Bandwidth", {"text": "927MiB/s", "si": "972 MB/s", "iec": "927 MiB/s"}),
        ("Mean completion latency", "4,476 ms"),  # avg=4476.22 (msec)
        ("p99 completion latency", "6,946 ms"),
    ]
    memory = extract_slice_first("content/reports/vm-vs-bare-metal/raw/r730-host/mbw.md")
    assert [entry["label"] for entry in tools.get("mbw").headline(memory)] == ["DUMB", "MCBLOCK", "MEMCPY"]
    unixbench = extract_slice_first("content/reports/vm-vs-bare-metal/raw/r730-host/unixbench.md")
    assert tools.get("unixbench").headline(unixbench)[0] == {
        "label": "Dhrystone 2 using register variables",
        "value": "34839728.4 lps",  # as UnixBench printed it
        "number": 34839728.4,
        "higher_is_better": True,
    }


def extract_slice_first(relative: str):
    path = FIXTURES.parent.parent / relative
    return extract(relative, path.read_bytes()).runs[0]

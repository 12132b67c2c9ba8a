"""fio's own logs, from Debian's fio 3.33: a committed capture (log_avg_msec=500), and live captures
with and without averaging. Each series is checked against the numbers fio printed itself."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from perfwiki import runstore
from perfwiki.extract import extract
from perfwiki.model import Run, Source
from perfwiki.tools.fio import logs
from support import FIXTURES, copy_site_sources, perfwiki_command

CAPTURE = FIXTURES / "fio-logs"
TRANSCRIPT = "fio-3.33-randread-logged.txt"


def logged_site(tmp_path: Path, files: list[Path]) -> Path:
    """A copy of the example wiki with these files in one environment's raw folder, ingested."""
    (tmp_path / "site").mkdir()
    site = copy_site_sources(tmp_path / "site")
    folder = site / "content" / "reports" / "fio-iops-basics" / "raw" / "lab-vm-dm0"
    for path in files:
        shutil.copy(path, folder / path.name)
    done = subprocess.run(perfwiki_command() + ["ingest", "--root", str(site)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return site


def published(site: Path, run_id: str) -> dict:
    return runstore.run_json(site, "fio-iops-basics", run_id)


def test_averaged_logs_are_the_samples_fio_summarised(tmp_path):
    site = logged_site(tmp_path, sorted(CAPTURE.iterdir()))
    run = published(site, "lab-vm-dm0-fio-3-33-randread-logged-logtest")
    series = {entry["kind"]: entry for entry in run["metrics"]["logs"]}
    assert sorted(series) == ["bw", "clat", "iops", "lat"]  # psync has no submission latency: slat is empty
    transcript = (CAPTURE / TRANSCRIPT).read_text()
    bw = re.search(r"bw \(  KiB/s\): min=(\d+), max=(\d+).*samples=(\d+)", transcript)
    iops = re.search(r"iops        : min=(\d+), max=(\d+).*samples=(\d+)", transcript)
    # fio's own min and max of its bandwidth and IOPS samples are those of the logged windows.
    assert min(series["bw"]["values"]) == int(bw[1]) * 1024 and max(series["bw"]["values"]) == int(bw[2]) * 1024
    assert min(series["iops"]["values"]) == int(iops[1]) and max(series["iops"]["values"]) == int(iops[2])
    assert len(series["bw"]["values"]) == int(bw[3])
    assert series["bw"]["t_s"] == [0.5, 1.0, 1.5, 2.0, 2.5] and series["bw"]["window_ms"] == 500
    # fio wrote one more latency window at exit (3.0 s, the queue draining) than bandwidth windows:
    # every series stops where they all have a window.
    assert (CAPTURE / "avg_clat.1.log").read_text().splitlines()[-1].startswith("3000, ")
    assert series["clat"]["t_s"] == series["lat"]["t_s"] == series["bw"]["t_s"]
    assert series["bw"]["unit"] == "B/s" and series["clat"]["unit"] == "ns" and series["bw"]["direction"] == "read"
    assert series["bw"]["file"] == "content/reports/fio-iops-basics/raw/lab-vm-dm0/avg_bw.1.log"
    # The run page charts them over time, from the run's published JSON.
    page = runstore.run_page(site, "fio-iops-basics", "lab-vm-dm0-fio-3-33-randread-logged-logtest")
    kinds = [chart["plot"] for chart in page["charts"] if isinstance(chart, dict)]
    assert {"kind": "timeline", "log": "bw"} in kinds and {"kind": "timeline", "log": "clat"} in kinds
    assert {"kind": "timeline", "log": "lat"} not in kinds  # completion latency is charted when logged


@pytest.fixture(scope="module")
def per_io(tmp_path_factory) -> Path:
    """fio run here for two seconds, every I/O logged (no log_avg_msec), with JSON output too."""
    if shutil.which("fio") is None:
        pytest.fail("fio is not installed: run `make setup-system` (apt-get install fio)")
    folder = tmp_path_factory.mktemp("fio-per-io")
    command = (
        f"fio --name=mixed --filename={folder}/data --size=16M --rw=randrw --bs=4k --ioengine=psync"
        " --runtime=2 --time_based --write_bw_log=each --write_iops_log=each --write_lat_log=each"
        " --output-format=json"
    )
    done = subprocess.run(command.split(), capture_output=True, text=True, cwd=folder, check=True)
    (folder / "data").unlink()
    (folder / "fio.txt").write_text(f"$ {command}\n{done.stdout}")
    return folder


def test_per_io_logs_become_one_point_a_second_that_add_up_to_fios_totals(per_io):
    result = json.loads((per_io / "fio.txt").read_text().split("\n", 1)[1])["jobs"][0]
    run = extract("r/fio.txt", (per_io / "fio.txt").read_bytes()).runs[0]
    found = [extract(f"r/{path.name}", path.read_bytes()).log for path in sorted(per_io.glob("each_*.log"))]
    assert all(log is not None for log in found) and not logs.attach([run], found)
    by_kind = {(entry["kind"], entry["direction"]): entry for entry in run.metrics["logs"]}
    for direction in ("read", "write"):
        log = next(log for log in found if log.kind == "iops")
        samples = log.samples[direction]
        assert len(samples) == result[direction]["total_ios"]  # every I/O, once
        assert (
            sum(size for _, _, size in next(lg for lg in found if lg.kind == "bw").samples[direction])
            == (result[direction]["io_bytes"])
        )
        # One point a second: the I/Os of each whole second; the last, cut short when fio stopped,
        # as a rate over the part of it that ran (a last sliver under 100 ms is no rate: left out).
        iops = by_kind[("iops", direction)]
        seconds = [int(t) - 1 for t in iops["t_s"]]
        assert iops["window_ms"] == 1000 and seconds[:2] == [0, 1]
        counts = [sum(1 for ms, _, _ in samples if ms // 1000 == second) for second in seconds]
        assert iops["values"][:-1] == counts[:-1]
        last = [ms for ms, _, _ in samples if ms // 1000 == seconds[-1]]
        if max(ms for ms, _, _ in samples) // 1000 == seconds[-1]:  # fio stopped within it
            assert iops["values"][-1] * (max(last) - seconds[-1] * 1000) / 1000 == pytest.approx(counts[-1])
        # Each second's mean completion latency, weighted by its I/Os, is fio's own mean.
        clat = by_kind[("clat", direction)]
        counts = [sum(1 for ms, _, _ in samples if ms // 1000 == second - 1) for second in map(int, clat["t_s"])]
        weighted = sum(mean * count for mean, count in zip(clat["values"], counts, strict=True)) / sum(counts)
        assert weighted == pytest.approx(result[direction]["clat_ns"]["mean"], rel=0.01)


def test_a_log_line_that_is_not_a_sample_is_a_problem_naming_file_and_line():
    text = "500, 81696, 0, 0, 0\n1000, 84432, 0, 0, 0\nbw (KiB/s): 84432\n"
    log, problems = logs.parse("raw/env/avg_bw.1.log", text)
    assert log is None and [(p.path, p.line) for p in problems] == [("raw/env/avg_bw.1.log", 3)]
    assert "not a fio bw log sample" in problems[0].message


def test_fio_2_latency_logs_are_microseconds():
    log, _ = logs.parse("r/x_clat.1.log", "1000, 250, 0, 0, 0\n")
    assert logs.series(log, "2.2.10")[0]["values"] == [250_000] and logs.series(log, "3.33")[0]["values"] == [250]


def test_a_log_matches_the_run_whose_command_named_its_prefix():
    log, _ = logs.parse("r/env/steady_iops.1.log", "1000, 20000, 1, 0, 0\n")
    other, _ = logs.parse("r/env/other_iops.1.log", "1000, 10, 1, 0, 0\n")

    def run(params: dict) -> Run:
        source = Source("r/env/fio.txt", 1, 2, "")
        return Run("x", "fio", "3.33", "text", None, None, source, params=params)

    named, by_job, none = (
        run({"write_iops_log": "/tmp/x/steady"}),
        run({"write_iops_log": True, "name": "steady"}),
        run({}),
    )
    assert logs.attach([named], [log, other]) == [other] and named.metrics["logs"][0]["values"] == [20000]
    assert logs.attach([by_job], [log]) == [] and by_job.metrics["logs"][0]["direction"] == "write"
    assert logs.attach([none], [log]) == [log] and "logs" not in none.metrics


def test_json_plus_bins_are_kept_by_latency():
    data = (FIXTURES / "fio" / "fio-3.33-randread.json+.json").read_bytes()
    run = extract("r/x.json", data).runs[0]
    bins = run.metrics["jobs"][0]["read"]["bins_ns"]
    document = json.loads(data)["jobs"][0]["read"]["clat_ns"]["bins"]
    assert bins == sorted([int(ns), count] for ns, count in document.items())
    assert sum(count for _, count in bins) == json.loads(data)["jobs"][0]["read"]["total_ios"]


def test_the_example_captured_here_carries_logs_and_bins(ingested):
    run = runstore.run_json(ingested, "build-vm-disk-quiet", "build-vm-vda-fio-logs-20261124-234311-randwrite-logged")
    kinds = {entry["kind"] for entry in run["metrics"]["logs"]}
    assert kinds == {"bw", "iops", "lat", "clat", "slat"} and run["format"] == "json+"
    assert len(next(e for e in run["metrics"]["logs"] if e["kind"] == "bw")["values"]) >= 19  # 20 s, one a second
    assert run["metrics"]["jobs"][0]["write"]["bins_ns"]

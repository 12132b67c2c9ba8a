"""The shipped example reports: tables computed from raw output match the seeds where the seeds are right."""

from __future__ import annotations

import subprocess

import pytest
import yaml

from perfwiki import noise, runstore, units, verdict
from perfwiki.extract import extract
from perfwiki.ingest import load_report
from support import ROOT, SEED_SLICES, captured_here, copy_site_sources, perfwiki_command, seed_slices


@pytest.fixture(scope="module")
def reports(tmp_path_factory):
    site = copy_site_sources(tmp_path_factory.mktemp("site"))
    result = subprocess.run(perfwiki_command() + ["ingest", "--root", str(site)], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    folder = site / "data" / "reports"
    return {path.stem: {**load_report(site, path.stem), "_site": site} for path in folder.glob("*.json")}


def comparison(document, comparison_id):
    return next(c for c in document["comparisons"] if c["id"] == comparison_id)


def percent(document, comparison_id, environment, column_index=0):
    row = next(row for row in comparison(document, comparison_id)["rows"] if row["environment"] == environment)
    relative = row["cells"][column_index]["relative"]
    return None if relative is None else round(relative * 100, 1)


def test_vm_report_runs_per_environment(reports):
    runs = reports["vm-vs-bare-metal"]["runs"]
    assert len(runs) == 65
    by_env = {}
    for run in runs:
        by_env.setdefault(run["environment"], []).append(run["tool"])
    assert by_env["r730-host"] == ["fio"] * 6 + ["mbw", "unixbench"]
    assert by_env["win2008-vm-writeback-q4"] == ["fio"] * 6
    assert all(run["command"] for run in runs if run["tool"] == "fio")


def test_storage_tables_match_the_seed_table(reports):
    document = reports["vm-vs-bare-metal"]
    iops = "local-storage-iops-of-the-physical-host"
    # The seed's table: Linux writeback,queues=4 28.7k (14718%), 4KB randread.
    assert percent(document, iops, "centos-vm-writeback-q4") == 14717.9
    storage = comparison(document, iops)
    # Titled in English from the report's `labels:`; the seed's own words stay with each column.
    assert [(column["title"], column["original"]) for column in storage["columns"]] == [
        ("4 KiB random read", "4KB随机读"),
        ("4 KiB random write", "4KB随机写"),
        ("4 KiB sequential read", "4KB顺序读"),
        ("4 KiB sequential write", "4KB顺序写"),
        ("1 MiB sequential read", "1MB顺序读"),
        ("1 MiB sequential write", "1MB顺序写"),
    ]
    assert storage["columns"][0]["compared_across"] == ["engine"]
    # The seed also put Windows cache=none at 1441% (2811 IOPS). Its windowsaio queued 16 requests;
    # the host's posixaio, on Linux, one at a time: a depth apart, so the row is refused, saying why.
    assert percent(document, iops, "win2008-vm-cache-none") is None
    windows = {"win2008-vm-cache-none", "win2008-vm-cache-none-q4", "win2008-vm-writeback", "win2008-vm-writeback-q4"}
    for column in storage["columns"][:4]:  # 4 KiB at iodepth=16
        assert {refusal["environment"] for refusal in column["refused"]} == windows
        assert {refusal["reason"] for refusal in column["refused"]} == {
            "queue depth 16, not 1; engine windowsaio, not posixaio"
        }
    assert all(column["refused"] == [] for column in storage["columns"][4:])  # 1 MiB at iodepth=1: alike


def test_network_tables_use_their_own_baselines(reports):
    document = reports["vm-vs-bare-metal"]
    assert percent(document, "classic-network-tcp-throughput", "classic-vm-to-vm") == 99.8
    assert percent(document, "classic-network-tcp-throughput", "classic-host-to-vm") == 100.6
    assert percent(document, "vpc-network-tcp-throughput", "vpc-vm-to-vm") == 97.5
    assert percent(document, "vpc-network-tcp-throughput", "vpc-eip-to-eip") == 63.4


def test_cpu_and_memory_overheads_corrected(reports):
    document = reports["vm-vs-bare-metal"]
    mbw = comparison(document, "mbw-bandwidth")
    assert [row["environment"] for row in mbw["rows"]] == ["r730-host", "centos-vm-8c"]
    memcpy = [column["title"] for column in mbw["columns"]].index("MEMCPY")
    assert round(100 - percent(document, "mbw-bandwidth", "centos-vm-8c", memcpy), 1) == 17.5  # the seed says 1.7%
    assert round(100 - percent(document, "unixbench-value", "centos-vm-8c", 0), 1) == 2.5


def test_every_raw_run_of_seed_001_is_on_exactly_one_page(reports):
    seed = seed_slices("001")
    published = reports["vm-vs-bare-metal"]["runs"]
    key = lambda run_tool, metrics: (run_tool, yaml.safe_dump(metrics, sort_keys=True))  # noqa: E731
    assert sorted(key(run["tool"], run["metrics"]) for run in published) == sorted(
        key(run.tool, run.metrics) for run in seed.runs
    )


def test_nvme_summary_mixes_bandwidth_iops_and_latency_runs_in_one_row(reports):
    summary = comparison(reports["nvme-raw-vs-ext4"], "raw-device-summary")
    assert (summary["unit"], summary["metric"]) == ("mixed", "mixed")
    row = next(row for row in summary["rows"] if row["environment"] == "nvme-raw")
    values = {column["title"]: cell["value"] for column, cell in zip(summary["columns"], row["cells"], strict=True)}
    # The seed's summary: Sequential Write 972MB/s, 188K; Random Read 2494MB/s, 188K.
    assert values["Sequential write: bandwidth"] == 927 * 2**20
    assert values["Sequential write: IOPS"] == 188_000
    assert values["Random read: bandwidth"] == 2378 * 2**20
    assert values["Random read: latency (QD1)"] == 95_150
    assert [column["unit"] for column in summary["columns"][:3]] == ["B/s", "IOPS", "ns"]


def test_a_broken_comparison_spec_is_a_problem_at_its_line(tmp_path):
    site = copy_site_sources(tmp_path)
    index = site / "content" / "reports" / "nvme-raw-vs-ext4" / "index.md"
    text = index.read_text(encoding="utf-8").replace("metric: bw}", "metric: speed}", 1)
    index.write_text(text, encoding="utf-8")
    result = subprocess.run(perfwiki_command() + ["ingest", "--root", str(site)], capture_output=True, text=True)
    assert result.returncode == 1
    line = next(number for number, entry in enumerate(text.split("\n"), 1) if "metric: speed}" in entry)
    assert result.stderr.split("\n")[:2] == [
        f"content/reports/nvme-raw-vs-ext4/index.md:{line}: comparison 1: column 1 metric 'speed' is not a "
        "metric of fio: iops, bw, clat_mean, clat_p99",
        "content/reports/nvme-raw-vs-ext4/index.md:1: report not published until the errors above are fixed; "
        "the other reports are",
    ]
    # Held back whole (validate.py), never half-published; every other report is.
    assert not (site / "data" / "reports" / "nvme-raw-vs-ext4.json").exists()
    assert (site / "data" / "reports" / "vm-vs-bare-metal.json").is_file()


def test_nvme_ext4_half_is_manual_and_says_so(reports):
    document = reports["nvme-raw-vs-ext4"]
    manual = [run for run in document["runs"] if run["format"] == "manual"]
    assert len(manual) == 12 and {run["environment"] for run in manual} == {"nvme-ext4"}
    assert all(run["warnings"][0].startswith("manual: typed from the EXT4 summary table") for run in manual)
    summary = comparison(document, "raw-device-summary")
    ext4 = next(row for row in summary["rows"] if row["environment"] == "nvme-ext4")
    first = ext4["cells"][0]
    assert (first["value"], round(first["relative"] * 100, 1), first["manual"]) == (1943e6, 199.9, True)
    assert ext4["cells"][2]["value"] is None  # the page gives ext4 no mean latency: missing, not 0
    assert summary["columns"][0]["compared_across"] == ["target"]


def test_fio_basics_and_ioping(reports):
    document = reports["fio-iops-basics"]
    assert [run["tool"] for run in document["runs"]] == ["fio"] * 4 + ["ioping"]
    iops = comparison(document, "fio-iops")
    assert [cell["value"] for cell in iops["rows"][0]["cells"]] == [12068, 29283, 234, 944]
    ioping = comparison(document, "ioping-lat_avg")
    assert ioping["rows"][0]["cells"][0]["value"] == 764_000


def test_nas_cache_modes_write_back_is_one_and_a_half_times(reports):
    document = reports["nas-cache-modes"]
    iops = comparison(document, "fio-iops")
    assert [column["title"] for column in iops["columns"]] == ["read", "write"]
    write_back = next(row for row in iops["rows"] if row["environment"] == "nas-write-back")
    assert [round(cell["relative"] * 100, 1) for cell in write_back["cells"]] == [146.5, 146.5]
    run = next(run for run in document["runs"] if run["environment"] == "nas-write-back")
    assert run["label"] == "write back" and run["params"]["rwmixread"] == 50 and run["params"]["iodepth"] == 64


def test_a_broken_manual_yaml_is_a_problem_at_its_line(tmp_path):
    site = copy_site_sources(tmp_path)
    manual = site / "content" / "reports" / "nvme-raw-vs-ext4" / "raw" / "nvme-ext4" / "manual.yaml"
    text = manual.read_text(encoding="utf-8").replace("  - tool: fio", "  - tool: fiio", 1)
    manual.write_text(text, encoding="utf-8")
    result = subprocess.run(perfwiki_command() + ["ingest", "--root", str(site)], capture_output=True, text=True)
    assert result.returncode == 1
    line = text.split("\n").index("  - tool: fiio") + 1
    path = "content/reports/nvme-raw-vs-ext4/raw/nvme-ext4/manual.yaml"
    assert f"{path}:{line}: manual run 1: tool must be one of fio, iperf3" in result.stderr


def cells_of(document, comparison_id, environment):
    row = next(row for row in comparison(document, comparison_id)["rows"] if row["environment"] == environment)
    return [cell["value"] for cell in row["cells"]]


def test_seed_002_direct_buffered_matrix_where_raw_output_backs_it(reports):
    document = reports["ssd-cloud-disks-lvm-raid"]
    # The page's summary: NVMe R=99.8K W=42.8K | R=38.6k W=16.5k; SATA R=4312 W=1852 ... R=15.8k W=6803.
    assert cells_of(document, "direct-buffered-matrix", "nu4-nvme-sfdv0n1") == [None] * 4 + [99800, 42800, 38600, 16500]
    assert cells_of(document, "direct-buffered-matrix", "nu4-sata-ssd") == [
        4312,
        1852,
        None,
        None,
        16900,
        7254,
        15800,
        6803,
    ]
    # The ESSD runs set no -rwmixread: fio's default 50 % reads, not the SSDs' 70 %. They are left
    # out wherever a 70 % run sets the column, with the reason; the one column only they ran keeps them.
    assert cells_of(document, "direct-buffered-matrix", "essd-vda") == [None, None, 1987, 1984] + [None] * 4
    refused = [
        entry for column in comparison(document, "direct-buffered-matrix")["columns"] for entry in column["refused"]
    ]
    assert {(entry["environment"], entry["reason"]) for entry in refused} == {("essd-vda", "read % 50, not 70")}


def test_seed_002_lvm_raid0_and_pl3(reports):
    document = reports["ssd-cloud-disks-lvm-raid"]
    assert [row["cells"][0]["value"] for row in comparison(document, "hygon33-dd")["rows"]] == [466e6, 979e6, 436e6]
    fio = comparison(document, "hygon33-fio")
    assert fio["columns"][0]["refused"] == [
        {
            "run": "hygon33-raid0-4nvme-runs-ebs-4k-randwrite-test",
            "environment": "hygon33-raid0-4nvme",
            # sync, and buffered libaio, both run at QD1 whatever iodepth says: the depth in effect is the same.
            "reason": "I/O mode direct, not buffered; engine sync, not libaio",
        }
    ]
    assert percent(document, "pl3-vs-local", "x86-lvm-3nvme") == 844.0
    assert comparison(document, "pl3-vs-local")["columns"][0]["compared_across"] == ["engine", "queue depth"]
    # The "single NVMe SSD" baseline's fio disk stats list dm-0 on sda: its file was not on the NVMe
    # SSD, so no ratio to it is a speed result, and the verdict ranks nothing.
    runs = {run["id"]: run for run in document["runs"]}
    other = checks_of(runs["hygon33-nvme-runs-ebs-4k-randwrite-test"])["other-device"]
    assert other["message"] == (
        "fio's disk statistics list dm-0, sda, no NVMe device, where this environment's disk is NVMe SSD: "
        "the test file was on another disk"
    )
    # The only one in the examples: nvme-raw's runs list nvme10n1, the VM's list vda under no NVMe claim.
    flagged = [run["id"] for doc in reports.values() for run in doc["runs"] if "other-device" in checks_of(run)]
    assert flagged == ["hygon33-nvme-runs-ebs-4k-randwrite-test"]
    block = next(block for block in document["views"]["blocks"] if block["id"] == "hygon33-fio")
    assert block["verdict"] == (
        "No verdict: every ratio here is to hygon33-nvme, whose result is not a speed result "
        "(measured on another disk than the one named)."
    )


def test_every_raw_run_of_every_seed_is_on_exactly_one_page(reports):
    published = [
        run
        for document in reports.values()
        for run in document["runs"]
        if run["format"] != "manual" and not captured_here(ROOT / run["source"]["path"])
    ]
    seeded = [run for key in SEED_SLICES for run in seed_slices(key).runs]
    key = lambda tool, metrics: (tool, yaml.safe_dump(metrics, sort_keys=True))  # noqa: E731
    assert len(published) == len(seeded) == 119
    assert sorted(key(run["tool"], run["metrics"]) for run in published) == sorted(
        key(run.tool, run.metrics) for run in seeded
    )


def test_a_manual_run_whose_jobs_are_not_a_list_is_a_problem_not_a_crash():
    # Found by tests/test_fuzz.py: with the `- ` of a job deleted, `jobs:` became a mapping.
    path = ROOT / "content" / "reports" / "nvme-raw-vs-ext4" / "raw" / "nvme-ext4" / "manual.yaml"
    text = path.read_text(encoding="utf-8")
    broken = text.replace(
        "        - {name: sequential_write_bandwidth_test,", "          {name: sequential_write_bandwidth_test,"
    )
    found = extract("manual.yaml", broken.encode("utf-8"))
    line = broken.split("\n").index("  - tool: fio") + 1
    assert [(problem.line, problem.message) for problem in found.problems] == [
        (line, "manual run 1: metrics.jobs must be a list of mappings, one per fio job")
    ]
    assert len(found.runs) == 11  # the others are still published


def run_pages(document):
    """Each run page's data/ document of a report, as ingest wrote them, with the title its page gets."""
    titles = {entry["id"]: entry["title"] for entry in document["run_index"]}
    return [
        {**page, "title": titles[run_id]} for run_id, page in runstore.run_pages(document["_site"], document["report"])
    ]


def test_every_run_title_is_unique_in_its_report_and_free_of_markup(reports):
    for slug, document in reports.items():
        titles = [page["title"] for page in run_pages(document)]
        assert len(titles) == len(set(titles)), slug
        assert not [title for title in titles if "](" in title or "**" in title], slug
    ssd = run_pages(reports["ssd-cloud-disks-lvm-raid"])
    essd = sorted(page["title"] for page in ssd if page["environment"] == "essd-vda")
    # Four runs under one heading on one disk: the command words that differ tell them apart.
    assert essd == [
        "ESSD cloud disk (-direct=0 -buffered=0) — essd-vda",
        "ESSD cloud disk (-direct=0 -buffered=1) — essd-vda",
        "ESSD cloud disk (-direct=1 -buffered=0) — essd-vda",
        "ESSD cloud disk (-direct=1 -buffered=1) — essd-vda",
    ]
    iostat = next(page for page in ssd if page["environment"] == "lvm-nvme-iostat-example")
    assert iostat["title"] == "Reading iostat output — lvm-nvme-iostat-example"
    assert iostat["original_title"] == "iostat 结果解读"  # the heading's link text, not its markdown


def test_a_bad_labels_entry_is_a_located_problem_and_the_rest_still_ingests(tmp_path):
    site = copy_site_sources(tmp_path)
    index = site / "content" / "reports" / "fio-iops-basics" / "index.md"
    text = index.read_text(encoding="utf-8").replace('  "测试延迟": "Latency (ioping)"\n', "  7: [1]\n")
    index.write_text(text, encoding="utf-8")
    result = subprocess.run(perfwiki_command() + ["ingest", "--root", str(site)], capture_output=True, text=True)
    line = text.split("\n").index("  7: [1]") + 1
    assert result.returncode == 1
    assert (
        f"content/reports/fio-iops-basics/index.md:{line}: labels: '7' must map to text "
        '("" drops the heading), not a list' in result.stderr
    )
    assert load_report(site, "vm-vs-bare-metal")["runs"]  # the other reports are published


def test_each_comparison_leads_with_a_verdict_computed_from_its_cells(reports):
    blocks = {block["id"]: block for block in reports["vm-vs-bare-metal"]["views"]["blocks"]}
    # Four network paths within 1 % of each other: said as such, not as a winner.
    assert blocks["classic-network-tcp-throughput"]["verdict"] == (
        "All 4 within 1 % of classic-host-to-host (8.33 Gbit/s to 8.41 Gbit/s): no meaningful difference."
    )
    # Storage: the cache=writeback guests that beat their own host are the host's page cache, not a
    # faster disk: left out of the ranking and said so in the same line (artefacts.py), so the
    # fastest is a cache=none guest, ranked by its geometric mean with the range it hides named.
    storage = blocks["local-storage-iops-of-the-physical-host"]["verdict"]
    # The Windows guests' 4 KiB jobs queued 16 requests (windowsaio); the host's and the Linux guests'
    # posixaio ran one at a time (glibc): those cells are refused, so Windows is ranked on 1 MiB alone.
    assert storage.startswith(
        "Fastest: r730-host (the baseline); slowest: centos-vm-cache-none, 31.8 % slower than r730-host"
        " (from 3.90× slower to 25.6 % faster); nearest the baseline: win2008-vm-cache-none-q4, 10.6 % slower"
        " than r730-host. Geometric means over each environment's like-for-like scenarios: 6, but 2 for"
        " win2008-vm-cache-none-q4 and win2008-vm-cache-none, so those means cover less of the work than the"
        " others'."
    )
    # A writeback guest that beat its host anywhere is the host's cache everywhere in the comparison.
    assert (
        "Left out, not a speed difference: centos-vm-writeback: 66.7× r730-host (4 KiB random read) and 5 more,"
        " centos-vm-writeback-q4: 147× r730-host (4 KiB random read) and 5 more, win2008-vm-writeback: 1.89×"
        " r730-host (1 MiB sequential read) and 1 more, win2008-vm-writeback-q4: 2.49× r730-host (1 MiB"
        " sequential read) and 1 more — served from the host's cache, not the disk." in storage
    )
    # Once "14× their host's disk, another disk or a cache": QD16 against the host's QD1, never alike.
    assert "win2008-vm-cache-none: 14.4×" not in storage and "another disk" not in storage
    assert "win2008-vm-writeback-q4, 78" not in storage  # once "fastest" at 23× its host
    assert storage.endswith(" Compared on purpose, although the engine differs between environments.")
    nvme = reports["nvme-raw-vs-ext4"]["views"]["blocks"][0]["verdict"]
    assert "nvme-ext4's numbers were typed by hand, not parsed from raw output." in nvme
    dd = next(b for b in reports["ssd-cloud-disks-lvm-raid"]["views"]["blocks"] if b["id"] == "hygon33-dd")
    # dd prints SI units; the verdict says it that way and carries the IEC spelling for the unit switch.
    assert dd["verdict"]["text"].startswith("Fastest: hygon33-raid0-2nvme, 979 MB/s, 2.10× faster than hygon33-nvme")
    assert "934 MiB/s" in dd["verdict"]["iec"]


def test_guests_faster_than_their_host_with_a_caching_mode(reports):
    runs = {run["id"]: run for run in reports["vm-vs-bare-metal"]["runs"]}
    said = checks_of(runs["centos-vm-writeback-q4-random-read"])["guest-over-host"]["message"]
    assert said.startswith("147× its host r730-host in “4 KiB random read”, with cache=writeback")
    said = checks_of(runs["win2008-vm-writeback-q4-seq-read"])["guest-over-host"]["message"]
    assert said.startswith("2.49× its host r730-host in “1 MiB sequential read”, with cache=writeback")
    # Its 4 KiB random reads queued 16 (windowsaio) where the host's posixaio queued one: not compared.
    assert "guest-over-host" not in checks_of(runs["win2008-vm-writeback-q4-random-read"])
    # cache=none guests go past the host's page cache: never flagged, whatever they score.
    assert all("guest-over-host" not in checks_of(run) for key, run in runs.items() if "cache-none" in key)


def test_a_file_system_faster_than_its_raw_device(reports):
    runs = {run["id"]: run for run in reports["nvme-raw-vs-ext4"]["runs"]}
    flagged = sorted(key for key, run in runs.items() if "file-over-raw" in checks_of(run))
    assert flagged == [
        "nvme-ext4-random-read-bandwidth-test",
        "nvme-ext4-random-write-bandwidth-test",
        "nvme-ext4-sequential-read-bandwidth-test",
        "nvme-ext4-sequential-write-bandwidth-test",
    ]
    message = checks_of(runs["nvme-ext4-random-write-bandwidth-test"])["file-over-raw"]["message"]
    assert message.startswith("a file on ext4 ran 3.14× the raw device under it (nvme-raw)")


def checks_of(run: dict) -> dict[str, dict]:
    return {check["id"]: check for check in run["checks"]}


def test_no_verdict_states_an_artefact_as_a_speed_difference(reports):
    """Every "At a glance" line of every example report: a cell a check explains (a cache, a file system
    over its own device) is named only after "Left out", never in "faster", "fastest" or a range."""
    checked = 0
    for document in reports.values():
        verdicts = {block["id"]: block.get("verdict") for block in document["views"]["blocks"]}
        for comparison in document["comparisons"]:
            said = verdicts.get(comparison["id"])
            if not said:
                continue
            text = said if isinstance(said, str) else said.get("text") or said["iec"]
            head = text.split(" Left out, not a speed difference:")[0]
            for row in comparison["rows"]:
                for column, cell in zip(comparison["columns"], row["cells"], strict=True):
                    if not cell.get("artefact"):
                        continue
                    checked += 1
                    found = verdict.factor(cell, column["higher_is_better"])
                    # (an artefact within ±5 % of the baseline reads "even", a word the head may hold for others)
                    said = [units.ratio_text(found)] + ([] if noise.even_factor(found) else [verdict.speed(found)])
                    assert not any(words in head for words in said), (text, cell)
                    if text.startswith("No verdict: every ratio here is to "):  # the baseline is the artefact
                        assert row["environment"] == comparison["baseline"] and "not a speed result" in text
                        continue
                    assert row["environment"] in text.split(" Left out, not a speed difference:")[1]
    # The ext4 bandwidths; the writeback guests' IOPS cells (their bandwidth is the same block: one
    # verdict): all six of each Linux guest's, the two 1 MiB ones of each Windows guest (its 4 KiB jobs
    # queued 16 where the host's posixaio queued one, and are refused); the "single NVMe SSD" whose
    # file was on sda, the baseline of its table.
    assert checked == 4 + 2 * 6 + 2 * 2 + 1


def test_one_answer_per_environment_opens_a_report_of_three_or_more(reports):
    views = reports["vm-vs-bare-metal"]["views"]
    storage, classic, vpc, unixbench, mbw = views["summary"]["groups"]
    # IOPS and bandwidth of the same jobs are one block, so one group of rows, not the same answer twice.
    assert storage["title"] == "Local storage, IOPS and bandwidth (% of the physical host)"
    rows = {row["environment"]: row for row in storage["rows"]}
    # Nearest the host first, by geometric mean; the ratio says how much, the word which way.
    assert list(rows)[:4] == [
        "win2008-vm-cache-none-q4",
        "win2008-vm-cache-none",
        "centos-vm-cache-none-mq2",
        "centos-vm-cache-none",
    ]
    # Its 1 MiB jobs alone: the 4 KiB ones queued 16 (windowsaio) against the host's one (posixaio).
    nearest = rows["win2008-vm-cache-none-q4"]
    assert (nearest["mean"], nearest["said"], nearest["scenarios"]) == ("0.894×", "slower", 2)
    assert (nearest["better"], nearest["worse"], nearest["even"], nearest["left_out"]) == (0, 2, 0, 0)
    # Its other four, counted where the row says what it left out, with the reason.
    assert (nearest["unlike"], nearest["unlike_reason"]) == (
        4,
        "queue depth 16, not 1; engine windowsaio, not posixaio",
    )
    assert "unlike" not in rows["centos-vm-cache-none"]
    # A comparison whose baseline is no speed result has no row of ratios to it, as its verdict has none.
    ssd = [group["block"] for group in reports["ssd-cloud-disks-lvm-raid"]["views"]["summary"]["groups"]]
    assert ssd == ["direct-buffered-matrix", "hygon33-dd", "pl3-vs-local"]
    # The writeback guest "147× its host": every scenario left out as the host's cache.
    cached = rows["centos-vm-writeback-q4"]
    assert (cached["scenarios"], cached["left_out"], cached["artefact"], "mean" in cached) == (
        0,
        6,
        "served from the host's cache, not the disk",
        False,
    )
    assert [row["environment"] for row in classic["rows"]] == [
        "classic-vm-to-host",
        "classic-host-to-vm",
        "classic-vm-to-vm",
    ]
    assert all(row["said"] == "even" for row in classic["rows"])
    assert (vpc["rows"][-1]["environment"], vpc["rows"][-1]["said"]) == ("vpc-eip-to-eip", "slower")
    # An even mean over a win and a loss is said to be mixed: reads 30 % faster, writes 35 % slower.
    nas = {group["block"]: group for group in reports["nas-cache-modes"]["views"]["summary"]["groups"]}
    through = next(row for row in nas["fio-clat_mean"]["rows"] if row["environment"] == "nas-write-through")
    assert (through["mean"], through["said"], through["better"], through["worse"]) == ("1.03×", "mixed", 1, 1)
    assert unixbench["rows"][0]["mean"] == "1.30×" and mbw["rows"][0]["mean"] == "0.921×"
    # Two environments: no summary table, the verdict says it all.
    assert reports["nvme-raw-vs-ext4"]["views"]["summary"] is None
    # Seventeen environments side by side would be 17 columns: one table per group compared together.
    tables = views["environments"]
    assert [table["compared_in"] for table in tables] == [
        [
            "Local storage, IOPS and bandwidth (% of the physical host)",
            "UnixBench result",
            "mbw Memory copy bandwidth (AVG)",
        ],
        ["Classic network, TCP throughput"],
        ["VPC network, TCP throughput"],
    ]
    assert [env["id"] for env in tables[0]["environments"]][:2] == ["r730-host", "centos-vm-8c"]


def test_buffered_writes_six_times_the_direct_ones_are_the_page_cache(reports):
    """RAID6 over four NVMe SSDs: the same job buffered and direct. Buffered libaio runs at QD1 in effect,
    yet wrote 6.76× the direct job's IOPS: the page cache took the writes."""
    document = reports["ssd-cloud-disks-lvm-raid"]
    runs = {run["id"]: run for run in document["runs"] if run["environment"] == "md6-raid6-4nvme"}
    flagged = [run for run in runs.values() if "buffered-over-direct" in checks_of(run)]
    assert len(flagged) == 1 and flagged[0]["params"]["direct"] is True and flagged[0]["params"]["buffered"] is True
    assert checks_of(flagged[0])["buffered-over-direct"]["message"].startswith("buffered writes ran 6.76×")
    profile = next(block for block in document["views"]["blocks"] if block["id"].startswith("profile-fio-md6"))
    assert profile["verdict"] == (
        "Highest IOPS: 108,033 IOPS (-direct=1 -buffered=1 (buffered)) — served from the page cache, not the disk."
    )


def test_a_check_that_flags_runs_in_their_own_words_does_not_quote_one_run_for_all(reports):
    """fio-iops-basics: three short runs, each "the run lasted N s" with its own N. The report's line
    quotes the first and says so, rather than giving its 8.952 s to all three."""
    (short,) = [check for check in reports["fio-iops-basics"]["views"]["checks"] if check["id"] == "fio-short-run"]
    assert short["message"].startswith("the run lasted 8.952 s") and len(short["runs"]) == 3
    assert short["varies"] is True
    runs = {run["id"]: run for run in reports["fio-iops-basics"]["runs"]}
    said = {checks_of(runs[run_id])["fio-short-run"]["message"] for run_id in short["runs"]}
    assert len(said) == 3  # three durations
    # One run's check, or several saying the same: no such mark.
    nas = reports["nas-cache-modes"]["views"]["checks"]
    same = next(check for check in nas if check["id"] == "fio-sync-engine-iodepth")
    assert len(same["runs"]) == 4 and "varies" not in same


def test_a_peak_from_a_run_of_a_second_is_said_with_its_length(reports):
    """fio-iops-basics' highest bandwidth is a sequential read that lasted 1.084 s: warm-up and caches as
    much as the device, so the line that names it says how long it ran."""
    (fio,) = [block for block in reports["fio-iops-basics"]["views"]["blocks"] if block["id"].startswith("profile-fio")]
    said = fio["verdict"]["iec"]
    assert "highest bandwidth: 945 MiB/s (Sequential read, 1 MiB QD64, lasting 1.08 s)" in said
    assert "Highest IOPS: 29,283 IOPS (Random read, 4 KiB QD128, lasting 8.95 s)" in said
    # The lowest latency of runs at QD128 and QD64 is a deep queue's: 29,283 IOPS x 4.35 ms is 127 in flight.
    assert (
        "lowest mean completion latency: 4.35 ms (Random read, 4 KiB QD128, lasting 8.95 s) — at queue depth 128,"
        " most of it waiting in the queue;" in said
    )
    # The 21.7 s random write is long enough: nothing said of its length where it is named.
    cells = comparison(reports["fio-iops-basics"], "fio-iops")["rows"][0]["cells"]
    assert [cell.get("short_s") for cell in cells] == [None, 8.952, 4.365, 1.084]

"""A comparison of three or more environments ranks them by their geometric mean against the baseline;
when every one is even with it, a "fastest" and a "slowest" would rank noise, so the verdict says so."""

from __future__ import annotations

import copy

from perfwiki import verdict
from perfwiki.ingest import load_report


def test_environments_all_even_with_the_baseline_are_not_ranked(ingested):
    comparisons = {found["id"]: found for found in load_report(ingested, "vm-vs-bare-metal")["comparisons"]}
    # The physical host against eight VMs in 4 KiB random I/O: a ranking, as measured.
    measured = comparisons["local-storage-iops-of-the-physical-host"]
    said = verdict.comparison_verdict(measured)
    assert said.startswith("Fastest: r730-host (the baseline); slowest: centos-vm-cache-none, 31.8 % slower")
    # The same comparison with every VM within 2 % of the host in every scenario.
    even = copy.deepcopy(measured)
    for number, row in enumerate(even["rows"]):
        for cell in row["cells"]:
            if cell.get("relative"):
                cell["relative"] = 0.98 if number % 2 else 1.02
    said = verdict.comparison_verdict(even)
    assert said.startswith("Every environment even with r730-host (within ±5 %). Geometric means over each")
    assert "slowest" not in said and "Fastest" not in said


def test_environments_typed_by_hand_are_named_in_the_comparisons_order(ingested):
    comparisons = {found["id"]: found for found in load_report(ingested, "vm-vs-bare-metal")["comparisons"]}
    typed = copy.deepcopy(comparisons["local-storage-iops-of-the-physical-host"])
    for row in typed["rows"]:
        for cell in row["cells"]:
            cell["manual"] = True
    order = list(dict.fromkeys(row["environment"] for row in typed["rows"]))
    assert len(order) > 3
    said = verdict.comparison_verdict(typed)
    # One sentence, the environments as the comparison lists them: the same page from every ingest.
    named = f"{', '.join(order[:-1])} and {order[-1]}"
    assert f" The numbers of {named} were typed by hand, not parsed from raw output." in said


def test_a_ranking_of_buffered_results_says_the_page_cache_is_in_it(ingested):
    comparisons = {found["id"]: found for found in load_report(ingested, "ssd-cloud-disks-lvm-raid")["comparisons"]}
    buffered = comparisons["hygon33-fio"]  # 4 KiB random writes through the page cache (buffered libaio)
    # As ingested: its baseline's file was on sda, not the NVMe SSD it names, so no ratio is a speed result.
    assert verdict.comparison_verdict(buffered).startswith("No verdict: every ratio here is to hygon33-nvme")
    # Had the baseline run on its SSD, the ranking would stand, and say what a buffered write measures.
    on_its_disk = copy.deepcopy(buffered)
    for row in on_its_disk["rows"]:
        for cell in row["cells"]:
            cell.pop("artefact", None)
    said = verdict.comparison_verdict(on_its_disk)
    assert said.startswith("Fastest: hygon33-raid0-2nvme, 82,493 IOPS, 6.60 % faster than hygon33-nvme")
    assert said.endswith(" Buffered I/O: the page cache is part of every number here, not the disks alone.")
    # Direct I/O says nothing of the kind.
    direct = comparisons["pl3-vs-local"]
    assert "Buffered" not in verdict.comparison_verdict(direct)

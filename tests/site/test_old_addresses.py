"""Old addresses keep working in the built site: a renamed report's page, runs and raw files, the
runs whose ids were corrected, and scenarios whose keys changed redirect to the pages they named
(Hugo aliases, from the report's front matter, its aliases.yaml and content/scenarios/aliases.yaml
through data/), and its exports are still at the old address."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from support import CHECK_BASE_URL, ROOT

pytestmark = pytest.mark.site

REDIRECTS = [
    ("reports/ssd-san-hdd-cloud-disks/", "reports/ssd-cloud-disks-lvm-raid/"),
    # A corrected id, and the same id under the report's slug now and before.
    ("runs/vm-vs-bare-metal/r730-host-random-read-2/", "runs/vm-vs-bare-metal/r730-host-4k-seq-read/"),
    ("runs/vm-vs-bare-metal/r730-host-2/", "runs/vm-vs-bare-metal/r730-host-unixbench/"),
    ("runs/fio-iops-basics/lab-vm-dm0/", "runs/fio-iops-basics/lab-vm-dm0-ioping/"),
    (
        "runs/ssd-cloud-disks-lvm-raid/essd-vda-ebs-4k-randwrite-test/",
        "runs/ssd-cloud-disks-lvm-raid/essd-vda-runs-4k-random-read-write/",
    ),
    (
        "runs/ssd-san-hdd-cloud-disks/essd-vda-ebs-4k-randwrite-test/",
        "runs/ssd-cloud-disks-lvm-raid/essd-vda-runs-4k-random-read-write/",
    ),
    # The id now, under the report's former slug.
    (
        "runs/ssd-san-hdd-cloud-disks/essd-pl3-vdb-runs-ebs-4k-randwrite-test-4/",
        "runs/ssd-cloud-disks-lvm-raid/essd-pl3-vdb-runs-ebs-4k-randwrite-test-4/",
    ),
    # Ids from before they named their raw file (issue 30), under the report's slug now and before.
    (
        "runs/ssd-san-hdd-cloud-disks/essd-pl3-vdb-ebs-4k-randwrite-test-4/",
        "runs/ssd-cloud-disks-lvm-raid/essd-pl3-vdb-runs-ebs-4k-randwrite-test-4/",
    ),
    (
        "runs/nvme-raw-vs-ext4/nvme-raw-sequential-write-bandwidth-test/",
        "runs/nvme-raw-vs-ext4/nvme-raw-fio-bandwidth-iops-latency-sequential-write-bandwidth-test/",
    ),
    (
        "runs/build-vm-disk-quiet/build-vm-vda-randread-logged/",
        "runs/build-vm-disk-quiet/build-vm-vda-fio-logs-20261124-234311-randread-logged/",
    ),
    ("raw/ssd-san-hdd-cloud-disks/essd-vda/runs-md/", "raw/ssd-cloud-disks-lvm-raid/essd-vda/runs-md/"),
    # Scenario keys from before fio's defaults were filled in (content/scenarios/aliases.yaml).
    (
        "scenarios/fio-read-randread-4096-16-direct-libaio-file/",
        "scenarios/fio-read-randread-4096-16-1-direct-libaio-file/",
    ),
    (
        "scenarios/fio-write-randwrite-4096-16-direct-libaio-file/",
        "scenarios/fio-write-randwrite-4096-16-1-direct-libaio-file/",
    ),
]


def redirect_of(site: Path, address: str) -> str | None:
    """Where the page at `address` redirects to (its meta refresh), None for a page of its own."""
    html = (site / "bench" / address / "index.html").read_text(encoding="utf-8")
    found = re.search(r'<meta http-equiv="refresh" content="0; url=([^"]+)">', html)
    return found and found[1]


@pytest.mark.parametrize(("old", "new"), REDIRECTS)
def test_an_old_address_redirects_to_the_page_it_named(built_site, old, new):
    assert redirect_of(built_site, old) == f"{CHECK_BASE_URL}{new}"
    page = (built_site / "bench" / new / "index.html").read_text(encoding="utf-8")
    assert redirect_of(built_site, new) is None and "<main" in page


def test_every_old_address_ingest_lists_is_a_redirect_to_its_page(built_site):
    reports = sorted((ROOT / "data" / "reports").glob("*.json"))
    redirects = 0
    for path in reports:
        document = json.loads(path.read_text(encoding="utf-8"))
        pages = [(f"runs/{document['report']}/{entry['id']}/", entry) for entry in document["run_index"]]
        pages += [(f"{entry['page']}/", entry) for entry in document["raw_files"]]
        for address, entry in pages:
            for old in entry.get("aliases", []):
                assert redirect_of(built_site, old.lstrip("/")) == f"{CHECK_BASE_URL}{address}", old
                redirects += 1
    # 43 corrected ids and 49 from before ids named their raw file; under the renamed report's old
    # slug, its 33 runs' ids and its 47 old ids (14 corrected, 33 before naming the file); and its
    # 13 raw files' pages.
    assert redirects == 43 + 49 + 33 + 47 + 13


def test_a_renamed_reports_exports_are_also_at_its_old_address(built_site):
    bench = built_site / "bench" / "reports"
    for name in ("index.json", "index.csv"):
        assert (bench / "ssd-san-hdd-cloud-disks" / name).read_bytes() == (
            bench / "ssd-cloud-disks-lvm-raid" / name
        ).read_bytes()

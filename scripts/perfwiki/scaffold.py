"""`perfwiki new report SLUG` and `perfwiki new environment ID`: the files an author fills in, with
every key the README documents written out and commented, so nobody starts from a blank page.

Nothing is ever overwritten: an existing file is a ScaffoldError, and nothing is written then.
"""

from __future__ import annotations

import datetime as _dt
import os
from pathlib import Path

from .content import RAW_DIR, relative
from .files import write_atomically
from .model import CONTENT_DIR, slug

# Beside the report's raw folders, never in one: content.py reads only files under raw/<environment>/,
# so this hint is not a raw file; hugo.toml keeps raw/ out of the site.
RAW_HINT = "README.txt"


class ScaffoldError(Exception):
    """A file that cannot be made as asked; the message says which and why."""


def checked_name(kind: str, name: str) -> str:
    if not name or slug(name) != name:
        suggestion = slug(name)
        hint = f" (perhaps {suggestion!r})" if suggestion else ""
        raise ScaffoldError(f"{kind} {name!r} must be a slug: lower-case letters, digits and '-'{hint}")
    return name


def report_text(name: str, date: str) -> str:
    return f"""---
# A report: content/reports/{name}/index.md. Lines starting with # are comments; uncomment a key to
# use it. README.md, "Publishing a report", explains each one.
title: "{name}"
# The day the runs were made (YYYY-MM-DD, or with a time: 2026-11-24T14:30:00Z): histories order by it.
date: {date}
summary: >-
  One or two sentences: what was measured, on what, and what the answer is.
# The environments, in the order pages show them: each one is content/environments/<id>.md
# (`perfwiki new environment ID`) and its raw output goes under raw/<id>/. `perfwiki bench` adds its own.
environments: []
# The environment the others are compared with (one of environments:; default: the first).
# baseline: my-nvme
# What pages call the headings (`# label` lines) of the raw files; "" drops one. Run pages keep the raw label.
# labels:
#   "4k randread qd32": "Random read, 4 KiB QD32"
# Comparisons of your own, beside the automatic ones: columns pick runs by label, section, scenario or
# a command substring; `ignore` names a parameter that differs on purpose.
# comparisons:
#   - title: Random read IOPS
#     id: randread-iops
#     columns:
#       - {{title: "4 KiB random read", tool: fio, label: "4k randread qd32", metric: iops}}
#     ignore: [target]
# Keep only some automatic comparisons: false for none, or a list of tools.
# automatic: [fio]
# Former addresses of this page, after renaming its folder (old links redirect here).
# aliases: [/reports/old-slug/]
# tags: [fio, nvme]
---
What was measured and why, how, and what the numbers say. Cite runs with the run, command and
comparison shortcodes once ingest has named them (README.md, "Citing runs in the text").
"""


RAW_HINT_TEXT = """Raw output goes in a folder per environment: raw/<environment-id>/, one folder for each
content/environments/<environment-id>.md. Every file in those folders is read by `perfwiki ingest`
(this file, beside them, is not).

A transcript that ingests cleanly (README.md, "Capturing output that ingests cleanly"):

    # 4k randread qd32
    $ fio --name=randread --rw=randread --bs=4k --iodepth=32 --output-format=json ...
    <fio's output, as it printed it>

Record with `script` or `| tee`, keep the `$ ` prompt before each command, put a `# label` line
above it, and never edit a number by hand.
"""


def environment_text(name: str) -> str:
    return f"""---
# An environment: content/environments/{name}.md, one machine, disk or network path that reports
# measure (raw/{name}/ in a report). Lines starting with # are comments.
title: "{name}"
# One of: baremetal, vm, cloud-disk, nas, network-path, lab.
kind: baremetal
# Facts shown on its pages and read by the checks: uncomment `facts:` and the lines you know. They
# are text. `perfwiki facts FILE` reads them from pasted uname -a, lscpu, free, df -h, lsblk, nvme list.
# facts:
#   host: "r730-01"                       # the machine's name; a guest's hypervisor may name it
#   hypervisor: "none (bare metal)"       # or kvm, vmware, ...
#   container: "docker"                   # when the tests ran in one (systemd-detect-virt --container)
#   host_environment: "r730-host"         # a guest: its host's environment id (guest-over-host check)
#   cpu: "Intel(R) Xeon(R) CPU E5-2682 v4 @ 2.50GHz"
#   cpus: "64"
#   memory: "256 GiB"                      # page-cache checks: does the test file fit in RAM?
#   os: "Debian 12"
#   kernel: "6.1.0-18-amd64"
#   disk: "Intel P4510 2 TB NVMe"         # file-over-raw pairs a file system with its raw device by it
#   disk_model: "INTEL SSDPE2KX020T8"
#   device: "/dev/nvme0n1"
#   interface: "PCIe 3.0 x4, 32 Gbit/s"   # over-link check: SATA is 600 MB/s
#   filesystem: "ext4"                    # "none (raw block device)" for the raw device
#   mount_options: "rw,noatime"
#   scheduler: "none"
#   raid: "md RAID0, 2 disks"
#   lvm: "striped LV over 2 PVs"
#   vm_cache_mode: "none"                 # a guest: writeback, writethrough, unsafe cache in the host
#   vm_disk_bus: "virtio-blk"
#   vm_queues: "4"
#   nic: "Mellanox ConnectX-4 Lx, 25 Gbit/s"  # over-link check for iperf3, iperf2
#   driver: "mlx5_core"                   # ethtool -i
#   link_speed: "25 Gbit/s"               # ethtool; perfwiki facts reads these from pasted output
#   mtu: "9000"                           # ip -d link
#   offloads: "TSO on, GSO on, GRO on, LRO off, rx-checksum on, tx-checksum on"  # ethtool -k
#   qdisc: "fq"                           # tc qdisc show
#   tcp_congestion: "bbr"                 # sysctl net.ipv4.tcp_congestion_control
#   link: "25 Gbit/s"
#   network: "same rack, one switch"
---
What this environment is, and anything a reader comparing it should know.
"""


def _create(path: Path, text: str, root: Path) -> None:
    """Write a new file; refuse, writing nothing, when it exists."""
    if path.exists():
        raise ScaffoldError(
            f"{relative(path, root)}: already exists; nothing was written (edit it, or pick another name)"
        )
    path.parent.mkdir(parents=True, exist_ok=True)
    # O_EXCL: a file made between the check and the write is never overwritten either.
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
    with os.fdopen(descriptor, "w", encoding="utf-8") as file:
        file.write(text)


def new_report(root: Path, name: str, date: _dt.date | None = None) -> list[Path]:
    """content/reports/<name>/index.md and its empty raw/ with a hint file; the paths created."""
    checked_name("report", name)
    folder = root / CONTENT_DIR / "reports" / name
    index = folder / "index.md"
    if folder.exists():
        raise ScaffoldError(f"{relative(folder, root)}: already exists; nothing was written (pick another slug)")
    _create(index, report_text(name, (date or _dt.date.today()).isoformat()), root)
    hint = folder / RAW_DIR / RAW_HINT
    _create(hint, RAW_HINT_TEXT, root)
    return [index, hint]


def new_environment(root: Path, name: str) -> Path:
    """content/environments/<name>.md; its path."""
    checked_name("environment", name)
    folder = root / CONTENT_DIR / "environments"
    clash = [path for path in folder.glob("*.md") if path.stem.lower() == name.lower()] if folder.is_dir() else []
    path = folder / f"{name}.md"
    if clash:  # Other.md and other.md would be one page on a case-insensitive disk, and one address
        where = relative(clash[0], root)
        raise ScaffoldError(f"{where}: already exists; nothing was written (edit it, or pick another id)")
    _create(path, environment_text(name), root)
    return path


def report_scaffold(index: Path, environment: str) -> None:
    """A new report at `index` (for `perfwiki bench`), listing `environment`."""
    text = report_text(index.parent.name, _dt.date.today().isoformat())
    write_atomically(index, text.replace("environments: []", f"environments: [{environment}]", 1))

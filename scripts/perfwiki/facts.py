"""Environment facts from pasted system commands: uname -a, /etc/os-release, lscpu, free,
df -h, lsblk, nvme list and /sys/block/*/queue/rotational.

A real input (seed 002, abridged)::

    # cat /sys/block/sda/queue/rotational
    0
    Filesystem      Size  Used Avail Use% Mounted on
    /dev/sda3        49G   29G   18G  63% /
    #lsblk
    NAME         MAJ:MIN RM   SIZE RO TYPE MOUNTPOINT
    nvme0n1      259:4    0   2.7T  0 disk
    └─nvme0n1p1  259:5    0   2.7T  0 part
      └─vg1-drds 252:0    0   5.4T  0 lvm  /drds

Output: a flat mapping of strings in the environment-page vocabulary (ARCHITECTURE.md):
host, kernel, arch, os, cpu, cpus, sockets, threads_per_core, numa_nodes, memory,
disk, disk_model, rotational, lvm, raid, filesystem. Each recogniser reads the
output by its header or line shape, so prompts, fences and prose around it do
not matter, and commands can be pasted in any order.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from . import lazyre

Facts = dict[str, str]

_UNAME = lazyre.compile(
    r"^(?P<os>Linux|FreeBSD|Darwin) (?P<host>\S+) (?P<kernel>\S+) #.*? "
    r"(?P<arch>x86_64|aarch64|arm\w*|ppc64\w*|s390x|riscv64|i\d86)(?: GNU/Linux)?\s*$"
)
_OS_RELEASE = lazyre.compile(r'^\s*PRETTY_NAME="?(?P<v>[^"]+)"?\s*$')
_LSCPU = {
    "cpu": lazyre.compile(r"^\s*(?:Model name|型号名称)\s*[:：]\s*(?P<v>.+?)\s*$"),
    "cpus": lazyre.compile(r"^\s*(?:CPU\(s\)|CPU)\s*[:：]\s*(?P<v>\d+)\s*$"),
    "sockets": lazyre.compile(r"^\s*(?:Socket\(s\)|座)\s*[:：]\s*(?P<v>\d+)\s*$"),
    "threads_per_core": lazyre.compile(r"^\s*(?:Thread\(s\) per core|每个核的线程数)\s*[:：]\s*(?P<v>\d+)\s*$"),
    "numa_nodes": lazyre.compile(r"^\s*(?:NUMA node\(s\)|NUMA 节点)\s*[:：]\s*(?P<v>\d+)\s*$"),
    "arch": lazyre.compile(r"^\s*(?:Architecture|架构)\s*[:：]\s*(?P<v>\S+)\s*$"),
    # A guest's lscpu names its hypervisor: "Hypervisor vendor: KVM" ("超管理器厂商" in Chinese).
    "hypervisor": lazyre.compile(r"^\s*(?:Hypervisor vendor|超管理器厂商)\s*[:：]\s*(?P<v>.+?)\s*$"),
}
_FREE_HEADER = lazyre.compile(r"^\s*total\s+used\s+free\b")
_FREE_MEM = lazyre.compile(r"^\s*(?:Mem|内存)\s*[:：]\s*(?P<total>\S+)")
_DF_HEADER = lazyre.compile(r"^\s*(?:Filesystem|文件系统)\s+(?:Type\s+)?(?:Size|容量|1K-blocks)\s+")
_LSBLK_HEADER = lazyre.compile(r"^\s*NAME\s+MAJ:MIN\s+RM\s+SIZE\s+RO\s+TYPE")
_NVME_HEADER = lazyre.compile(r"^\s*Node\s+(?:Generic\s+)?SN\s+Model\s+Namespace")
_ROTATIONAL = lazyre.compile(r"cat\s+/sys/block/(?P<dev>[^/\s]+)/queue/rotational")
_TREE = lazyre.compile(r"^[\s│├└─|`\-]+")


def _free_total(text: str) -> str:
    """'23Gi' as printed by free -h; plain numbers are KiB (free's default)."""
    if text.isdigit():
        return f"{int(text) / 2**20:.1f} GiB"
    return text


def _table_rows(lines: list[str], start: int) -> list[list[str]]:
    rows = []
    for line in lines[start + 1 :]:
        if not line.strip() or line.lstrip().startswith(("#", "$", "[", "```")):
            break
        rows.append(line.split())
    return rows


def _df(lines: list[str], start: int, facts: Facts) -> None:
    entries = []
    for row in _table_rows(lines, start):
        if len(row) >= 6 and row[0].startswith("/dev/"):
            entries.append(f"{row[-1]}: {row[0]} {row[1]}")
    if entries:
        facts["filesystem"] = "; ".join(entries)


def _lsblk(lines: list[str], start: int, facts: Facts) -> None:
    disks, lvm, raid = [], [], []
    for line in lines[start + 1 :]:
        if not line.strip() or line.lstrip().startswith(("#", "$", "```")):
            break
        words = _TREE.sub("", line).split()
        if len(words) < 6:
            continue
        name, size, kind = words[0], words[3], words[5]
        mount = words[6] if len(words) > 6 else ""
        if kind == "disk" and not name.startswith(("zram", "loop", "ram")):
            disks.append(f"{name} {size}")
        elif kind == "lvm" and f"{name} {size} {mount}".strip() not in lvm:
            lvm.append(f"{name} {size} {mount}".strip())
        elif kind.startswith("raid"):
            entry = f"{name} {kind} {size} {mount}".strip()
            if entry not in raid:
                raid.append(entry)
    if disks:
        facts["disk"] = ", ".join(disks)
    if lvm:
        facts["lvm"] = ", ".join(lvm)
    if raid:
        facts["raid"] = ", ".join(raid)


def _nvme_list(lines: list[str], start: int, facts: Facts) -> None:
    header = lines[start]
    model_at = header.index("Model")
    namespace_at = header.index("Namespace")
    models: dict[str, int] = {}
    for line in lines[start + 1 :]:
        if set(line.strip()) <= {"-", " "}:
            continue
        if not line.strip().startswith("/dev/"):
            break
        model = line[model_at:namespace_at].strip()
        if model:
            models[model] = models.get(model, 0) + 1
    if models:
        facts["disk_model"] = ", ".join(
            f"{model} (x{count})" if count > 1 else model for model, count in models.items()
        )


def _rotational(lines: list[str], start: int, facts: Facts) -> None:
    device = _ROTATIONAL.search(lines[start])["dev"]
    for line in lines[start + 1 : start + 3]:
        value = line.strip()[:1]
        if value in ("0", "1"):
            known = (
                dict(entry.split(": ", 1) for entry in facts["rotational"].split("; ")) if "rotational" in facts else {}
            )
            known[device] = "SSD (non-rotational)" if value == "0" else "rotational (HDD)"
            facts["rotational"] = "; ".join(f"{name}: {kind}" for name, kind in known.items())
            return


_TABLES: list[tuple[re.Pattern[str], Callable[[list[str], int, Facts], None]]] = [
    (_DF_HEADER, _df),
    (_LSBLK_HEADER, _lsblk),
    (_NVME_HEADER, _nvme_list),
    (_ROTATIONAL, _rotational),
]


def facts_from_text(text: str) -> Facts:
    """Every fact the text shows; later pastes of the same command win."""
    lines = text.replace("\r\n", "\n").split("\n")
    facts: Facts = {}
    free_header = False
    for index, line in enumerate(lines):
        if match := _UNAME.match(line.strip()):
            facts.update({"host": match["host"], "kernel": match["kernel"], "arch": match["arch"]})
            continue
        if match := _OS_RELEASE.match(line):
            facts["os"] = match["v"]
            continue
        if _FREE_HEADER.match(line):
            free_header = True
            continue
        if free_header and (match := _FREE_MEM.match(line)):
            facts["memory"] = _free_total(match["total"])
            free_header = False
            continue
        for key, pattern in _LSCPU.items():
            if match := pattern.match(line):
                facts[key] = match["v"]
                break
        else:
            for pattern, read in _TABLES:
                if pattern.search(line) if pattern is _ROTATIONAL else pattern.match(line):
                    read(lines, index, facts)
                    break
    return facts

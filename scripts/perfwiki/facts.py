"""Environment facts from pasted system commands: uname -a, /etc/os-release, lscpu, free,
df -h, lsblk, nvme list and /sys/block/*/queue/rotational; for a network path, ip -d link,
ethtool (link speed), ethtool -i (driver), ethtool -k (offloads), tc qdisc show and
sysctl net.ipv4.tcp_congestion_control.

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
disk, disk_model, rotational, lvm, raid, filesystem, nic, driver, link_speed, mtu,
offloads, qdisc, tcp_congestion. Each recogniser reads the
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
# ip link: "2: vA@if2: <BROADCAST,MULTICAST,UP,LOWER_UP> mtu 1500 qdisc noqueue state UP ..."
_IP_LINK = lazyre.compile(r"^\d+: (?P<dev>[^:@\s]+)(?:@\S+)?: <(?P<flags>[^>]*)> mtu (?P<mtu>\d+)")
# ip -d link's third line starts with the link's kind ("veth addrgenmode ..."), a NIC's with none.
_LINK_KIND = lazyre.compile(r"^\s+(?P<kind>veth|bridge|bond|vlan|vxlan|macvlan|ipvlan|tun|tap|geneve|wireguard)\s")
_ETHTOOL_SETTINGS = lazyre.compile(r"^Settings for (?P<dev>\S+):\s*$")
_ETHTOOL_SPEED = lazyre.compile(r"^\s+Speed:\s+(?P<v>\d+)Mb/s\s*$")
# sysctl net.ipv4.tcp_congestion_control: how a TCP sender paces, which decides how full it keeps a queue.
_TCP_CONGESTION = lazyre.compile(r"^net\.ipv4\.tcp_congestion_control\s*=\s*(?P<v>\S+)\s*$")
_ETHTOOL_DRIVER = lazyre.compile(r"^driver:\s+(?P<v>\S+)\s*$")
_ETHTOOL_FEATURES = lazyre.compile(r"^Features for (?P<dev>\S+):\s*$")
_TC_QDISC = lazyre.compile(
    r"^qdisc (?P<kind>\S+) (?P<handle>\S+) (?P<where>root|parent \S+)(?: refcnt \d+)?\s*(?P<rest>.*?)\s*$"
)
# The offloads that change what a throughput test measures, in ethtool -k's words and the short names engineers use.
_OFFLOADS = {
    "tcp-segmentation-offload": "TSO",
    "generic-segmentation-offload": "GSO",
    "generic-receive-offload": "GRO",
    "large-receive-offload": "LRO",
    "rx-checksumming": "rx-checksum",
    "tx-checksumming": "tx-checksum",
}


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


# Guest block devices (virtio-blk, Xen) whose rotational flag is the hypervisor's default, not a medium.
_VIRTUAL_DISKS = ("vd", "xvd")


def _rotational(lines: list[str], start: int, facts: Facts) -> None:
    device = _ROTATIONAL.search(lines[start])["dev"]
    for line in lines[start + 1 : start + 3]:
        value = line.strip()[:1]
        if value in ("0", "1"):
            known = (
                dict(entry.split(": ", 1) for entry in facts["rotational"].split("; ")) if "rotational" in facts else {}
            )
            if value == "0":
                known[device] = "SSD (non-rotational)"
            elif device.startswith(_VIRTUAL_DISKS):
                # virtio-blk and Xen disks report rotational unless the host says otherwise: the flag
                # says nothing of the medium under them (a guest's 90k IOPS "HDD" is a host cache).
                known[device] = "rotational flag (a virtual disk's default: not the medium under it)"
            else:
                known[device] = "rotational (HDD)"
            facts["rotational"] = "; ".join(f"{name}: {kind}" for name, kind in known.items())
            return


def _ip_link(lines: list[str], start: int, facts: Facts) -> None:
    """`ip [-d] link [show dev X]`: each interface's name, kind (veth, bond...) and MTU.

    A listing of every interface is read once, from its first line; interfaces that are down are
    left out, and loopback counts only when it is all there is (a path measured over lo): beside
    a NIC it is not the path measured.
    """
    if start and lines[start - 1][:1].isspace() and _in_listing(lines, start - 1):
        return  # read with the listing's first interface
    found = []
    index = start
    while index < len(lines) and (match := _IP_LINK.match(lines[index])):
        kind = next((m["kind"] for line in lines[index + 1 : index + 3] if (m := _LINK_KIND.match(line))), None)
        flags = match["flags"].split(",")
        if "UP" in flags or index == start:  # an interface that is down carries nothing measured
            loopback = "LOOPBACK" in flags
            found.append((match["dev"], "loopback" if loopback else kind, match["mtu"], loopback))
        index += 1
        while index < len(lines) and lines[index][:1].isspace() and lines[index].strip():
            index += 1
    nics = [one for one in found if not one[3]] or found
    facts["nic"] = ", ".join(f"{dev} ({kind})" if kind else dev for dev, kind, _, _ in nics)
    mtus = {mtu for _, _, mtu, _ in nics}
    facts["mtu"] = mtus.pop() if len(mtus) == 1 else ", ".join(f"{dev} {mtu}" for dev, _, mtu, _ in nics)


def _in_listing(lines: list[str], index: int) -> bool:
    """Whether line `index` is an indented line under an interface of an `ip link` listing."""
    while index >= 0 and lines[index][:1].isspace() and lines[index].strip():
        index -= 1
    return index >= 0 and bool(_IP_LINK.match(lines[index]))


def _ethtool_settings(lines: list[str], start: int, facts: Facts) -> None:
    for line in lines[start + 1 : start + 40]:
        if match := _ETHTOOL_SPEED.match(line):
            megabits = int(match["v"])
            speed = f"{megabits // 1000} Gbit/s" if megabits % 1000 == 0 else f"{megabits} Mbit/s"
            facts["link_speed"] = speed
            return
        if line and not line[0].isspace():
            return  # ethtool printed no speed ("Speed: Unknown!", or a virtual NIC without one)


def _ethtool_features(lines: list[str], start: int, facts: Facts) -> None:
    found = {}
    for line in lines[start + 1 :]:
        name, _, value = line.partition(":")
        if not value or (line and line[0] in " \t$#"):
            if not line.strip() or line.lstrip().startswith(("$", "#")):
                break
            continue  # an indented sub-feature (tx-checksum-ipv4): its parent line says enough
        if name in _OFFLOADS:
            found[_OFFLOADS[name]] = value.strip().replace(" [fixed]", "")
    if found:
        facts["offloads"] = ", ".join(f"{short} {found[short]}" for short in _OFFLOADS.values() if short in found)


def _tc_qdisc(lines: list[str], start: int, facts: Facts) -> None:
    match = _TC_QDISC.match(lines[start])
    if match["where"] == "root":
        facts["qdisc"] = f"{match['kind']} {match['rest']}".strip()


_TABLES: list[tuple[re.Pattern[str], Callable[[list[str], int, Facts], None]]] = [
    (_DF_HEADER, _df),
    (_LSBLK_HEADER, _lsblk),
    (_NVME_HEADER, _nvme_list),
    (_ROTATIONAL, _rotational),
    (_IP_LINK, _ip_link),
    (_ETHTOOL_SETTINGS, _ethtool_settings),
    (_ETHTOOL_FEATURES, _ethtool_features),
    (_TC_QDISC, _tc_qdisc),
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
        if match := _TCP_CONGESTION.match(line):
            facts["tcp_congestion"] = match["v"]
            continue
        if match := _ETHTOOL_DRIVER.match(line):
            facts["driver"] = match["v"]
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

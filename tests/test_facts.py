"""perfwiki facts: environment key/values from pasted system commands, a seed page and this machine."""

from __future__ import annotations

import subprocess

import pytest
import yaml

from perfwiki.facts import facts_from_text
from support import FIXTURES, perfwiki_command


def test_seed_002_disks_lvm_models_and_rotational():
    # Seed 002's rotational, lsblk and nvme list outputs (tests/fixtures/seeds/README.md says which lines).
    pasted = [FIXTURES / "seeds" / "002-rotational-lsblk.txt", FIXTURES / "seeds" / "002-nvme-list.txt"]
    facts = facts_from_text("\n".join(path.read_text(encoding="utf-8") for path in pasted))
    assert facts["disk"] == "sda 223.6G, nvme0n1 2.7T, nvme1n1 2.7T, nvme2n1 2.7T"
    assert facts["lvm"] == "vg1-drds 5.4T /drds"
    assert facts["disk_model"] == "INTEL SSDPE2KX040T8 (x3)"
    assert facts["rotational"] == (
        "vda: rotational flag (a virtual disk's default: not the medium under it); sda: SSD (non-rotational); "
        "sfdv0n1: SSD (non-rotational)"
    )


def test_synthetic_uname_os_release_lscpu_free_df():
    text = "\n".join(
        [
            "[root@host ~]# uname -a",
            "Linux db01 3.10.0-957.el7.x86_64 #1 SMP Thu Nov 8 23:39:32 UTC 2018 x86_64 x86_64 x86_64 GNU/Linux",
            'PRETTY_NAME="CentOS Linux 7 (Core)"',
            "Architecture:          x86_64",
            "CPU(s):                104",
            "Thread(s) per core:    2",
            "Socket(s):             2",
            "Model name:            Intel(R) Xeon(R) Platinum 8269CY CPU @ 2.50GHz",
            "              total        used        free      shared  buff/cache   available",
            "Mem:           503G         12G        480G        4.0G         10G        489G",
            "Filesystem      Size  Used Avail Use% Mounted on",
            "/dev/sda3        49G   29G   18G  63% /",
            "/dev/sfdv0n1p1  2.0T  803G  1.3T  40% /data",
        ]
    )
    assert facts_from_text(text) == {
        "host": "db01",
        "kernel": "3.10.0-957.el7.x86_64",
        "arch": "x86_64",
        "os": "CentOS Linux 7 (Core)",
        "cpus": "104",
        "threads_per_core": "2",
        "sockets": "2",
        "cpu": "Intel(R) Xeon(R) Platinum 8269CY CPU @ 2.50GHz",
        "memory": "503G",
        "filesystem": "/: /dev/sda3 49G; /data: /dev/sfdv0n1p1 2.0T",
    }


def test_cli_on_this_machines_own_output(tmp_path):
    commands = "uname -a; cat /etc/os-release; lscpu; free -h; lsblk"
    pasted = tmp_path / "facts.txt"
    pasted.write_text(subprocess.run(["bash", "-c", commands], capture_output=True, text=True).stdout, encoding="utf-8")
    result = subprocess.run(perfwiki_command() + ["facts", str(pasted)], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    facts = yaml.safe_load(result.stdout)["facts"]
    uname = subprocess.run(["uname", "-r"], capture_output=True, text=True).stdout.strip()
    assert facts["kernel"] == uname
    assert int(facts["cpus"]) >= 1 and facts["memory"]
    assert facts["os"].startswith("Debian")


def test_a_guests_lscpu_names_its_hypervisor():
    # lscpu as Debian's util-linux printed it on a KVM guest (this project's build machine).
    text = (FIXTURES / "facts" / "lscpu-kvm-guest.txt").read_text(encoding="utf-8")
    assert "Hypervisor vendor:                       KVM" in text
    found = facts_from_text(text)
    assert found["hypervisor"] == "KVM"
    assert found["cpus"] == "2"


def test_a_network_paths_facts_from_ip_ethtool_and_tc():
    # A veth end in a namespace, shaped to 100 Mbit/s: the facts of the networks example report.
    text = (FIXTURES / "facts" / "veth-tbf-100m-netns.txt").read_text(encoding="utf-8")
    found = facts_from_text(text)
    assert found["nic"] == "vA (veth)" and found["driver"] == "veth"
    assert found["mtu"] == "1500" and found["link_speed"] == "10 Gbit/s"
    assert found["offloads"] == "TSO on, GSO on, GRO off, LRO off, rx-checksum on, tx-checksum on"
    assert found["qdisc"] == "tbf rate 100Mbit burst 256Kb lat 50ms"


def test_ip_link_of_this_machine_names_the_interfaces_that_are_up():
    listing = subprocess.run(["ip", "-d", "link"], capture_output=True, text=True)
    if listing.returncode != 0:
        pytest.fail("`ip` (Debian's iproute2) is missing: run `make setup-system`")
    up = [
        line.split(":")[1].strip().split("@")[0]
        for line in listing.stdout.splitlines()
        if line[:1].isdigit() and ",UP" in line and "LOOPBACK" not in line
    ]
    found = facts_from_text(listing.stdout)
    assert found["nic"].split(", ") == (up or ["lo (loopback)"])
    lo = facts_from_text(subprocess.run(["ip", "link", "show", "dev", "lo"], capture_output=True, text=True).stdout)
    assert lo == {"nic": "lo (loopback)", "mtu": "65536"}

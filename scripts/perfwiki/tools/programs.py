"""Every tool by name, and the program names that run it: what the registry knows without loading a tool.

The order is the order reports show their tools' comparisons in. A name in the second
tuple counts only when run by path (`./Run`): a bare "Run" is an ordinary word
("Run status group 0").
"""

from __future__ import annotations

PROGRAMS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "fio": (("fio", "fio.exe"), ()),
    "iperf3": (("iperf3", "iperf3.exe"), ()),
    "iperf2": (("iperf", "iperf.exe", "iperf2"), ()),
    "netperf": (("netperf",), ()),
    "ping": (("ping", "ping6", "ping.exe"), ()),
    "unixbench": ((), ("Run",)),
    "sysbench": (("sysbench",), ()),
    "mbw": (("mbw",), ()),
    "dd": (("dd",), ()),
    "ioping": (("ioping",), ()),
    "iostat": (("iostat",), ()),
    "diskspd": (("diskspd", "diskspd.exe", "DiskSpd.exe"), ()),
}

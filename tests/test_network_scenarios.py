"""The network table at a glance keeps to one scenario per column: a median over two (a ping every
0.2 s and one every second) is a number no run measured, and rows of different scenarios compare nothing."""

from __future__ import annotations

from perfwiki.extract import extract
from perfwiki.pages import network
from support import FIXTURES, ROOT

NETWORKS = ROOT / "content" / "reports" / "networks" / "raw"


def runs_of(path, environment):
    found = extract(path.name, path.read_bytes())
    assert found.problems == []
    for index, run in enumerate(found.runs):
        run.environment, run.id = environment, f"{environment}-{path.stem}-{index}"
    return found.runs


def test_a_column_keeps_the_scenario_most_environments_ran():
    # Idle pings every 0.2 s on the veth pair and on loopback (the networks report's captures) ...
    veth = runs_of(NETWORKS / "net-veth" / "network-20261127-084509.txt", "veth")
    loopback = runs_of(NETWORKS / "net-loopback" / "network-20261127-084330.txt", "loopback")
    # ... and on loopback a ping of another scenario too: Debian 12's ping -c 5, once a second.
    other = runs_of(FIXTURES / "ping" / "debian12-ping-c5.txt", "loopback")
    pings = [run for run in veth + loopback + other if run.tool == "ping"]
    table = network.network_table(pings, ["veth", "loopback"])
    column = [column["id"] for column in table["columns"]].index("rtt-idle")
    cells = {row["environment"]: row["cells"][column] for row in table["rows"]}
    alone = network.network_table([run for run in pings if run not in other], ["veth", "loopback"])
    # Loopback's cell is its 0.2 s pings' alone, as without the other ping, and says there is another.
    assert cells["loopback"]["text"] == alone["rows"][1]["cells"][column]["text"]
    assert cells["loopback"]["run"].startswith("loopback-network-")
    assert cells["loopback"]["scenarios"] == cells["veth"]["scenarios"] == 2
    assert cells["veth"]["text"] == alone["rows"][0]["cells"][column]["text"]

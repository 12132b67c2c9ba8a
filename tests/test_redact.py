"""Redaction: addresses, prompt hostnames and serial numbers never reach data/ or public/ when the site asks."""

from __future__ import annotations

import ast
import subprocess

import pytest

from perfwiki.extract import extract
from perfwiki.facts import facts_from_text
from perfwiki.ingest import load_report
from perfwiki.redact import ConfigError, Redactor, Rules, prompt_hosts, rules_from_config
from support import FIXTURES, copy_site_sources, hugo_binary, perfwiki_command, read_slice

EVERYTHING = Rules(ipv4=True, ipv6=True, hostnames=True, serials=True)


def between(text: str, start: str, end: str) -> str:
    begin = text.index(start)
    return text[begin : text.index(end, begin) + len(end)]


@pytest.fixture(scope="module")
def nvme_host() -> str:
    """Seed 002: a prompt naming the host, `nvme list` with three serials, then an fio run.

    The page shows them one after the other; the fio run is in its slice, the nvme list in a fixture.
    """
    nvme_list = (FIXTURES / "seeds" / "002-nvme-list.txt").read_text(encoding="utf-8")
    text = read_slice("ssd-cloud-disks-lvm-raid/raw/x86-lvm-3nvme/runs.md").decode("utf-8")
    return nvme_list + between(text, "[root@x86.170 /polarx/lvm]\n#fio", "  nvme2n1: ios=0/610060") + "\n"


@pytest.fixture(scope="module")
def iperf_client() -> str:
    """Seed 001: an iperf3 client behind a [cloudroot@testperf ~]$ prompt, on a 10.127/16 network."""
    text = read_slice("vm-vs-bare-metal/raw/classic-vm-to-vm/iperf3.md").decode("utf-8")
    return between(text, "[cloudroot@testperf ~]$ iperf3 -c 10.127.100.234 -t 30", "receiver") + "\n"


def redactor(rules: Rules, *texts: str) -> Redactor:
    return Redactor(rules, tuple(prompt_hosts(list(texts)).items()))


def test_serials_are_replaced_in_place_and_the_table_still_reads(nvme_host):
    redacted = redactor(Rules(serials=True, hostnames=True), nvme_host).text(nvme_host)
    assert redacted.count("\n") == nvme_host.count("\n")
    for serial in ("BTLJ932205P44P0DGN", "BTLJ932207H04P0DGN", "BTLJ932205AS4P0DGN"):
        assert serial not in redacted
    assert "/dev/nvme0n1     SN1XXXXXXXXXXXXXXX   INTEL SSDPE2KX040T8" in redacted
    assert "/dev/nvme2n1     SN3XXXXXXXXXXXXXXX   INTEL SSDPE2KX040T8" in redacted
    assert facts_from_text(redacted)["disk_model"] == facts_from_text(nvme_host)["disk_model"]
    assert "x86.170" not in redacted and "[root@host-1 /polarx/lvm]" in redacted


def test_the_run_parses_the_same_after_redaction(nvme_host, iperf_client):
    for text in (nvme_host, iperf_client):
        clean = extract("clean.txt", text.encode())
        hidden = extract("clean.txt", redactor(EVERYTHING, text).text(text).encode())
        assert len(clean.runs) == len(hidden.runs) == 1 and hidden.problems == []
        assert hidden.runs[0].metrics == clean.runs[0].metrics


def test_addresses_get_documentation_addresses_numbered_per_file(iperf_client):
    redacted = redactor(EVERYTHING, iperf_client).text(iperf_client)
    assert "10.127." not in redacted and "testperf" not in redacted
    assert redacted.startswith(
        "[cloudroot@host-1 ~]$ iperf3 -c 192.0.2.1 -t 30\nConnecting to host 192.0.2.1, port 5201"
    )
    assert "local 192.0.2.2 port 56856 connected to 192.0.2.1 port 5201" in redacted


def test_ipv6_addresses_but_not_times_macs_or_loopback():
    line = "inet6 fe80::1c2:3ff:fe4d:5e6f/64 at 10:00:00 via 52:54:00:12:34:56, also 2a01:4f8::7 and ::1 and 127.0.0.1"
    redacted = Redactor(EVERYTHING).text(line)
    assert redacted == "inet6 2001:db8::1/64 at 10:00:00 via 52:54:00:12:34:56, also 2001:db8::2 and ::1 and 127.0.0.1"


def test_a_host_seen_in_any_prompt_is_hidden_in_every_file(iperf_client):
    uname = "Linux testperf 3.10.0-957.el7.x86_64 #1 SMP x86_64 GNU/Linux\n"
    hidden = redactor(Rules(hostnames=True), iperf_client, uname)
    assert hidden.text(uname) == "Linux host-1 3.10.0-957.el7.x86_64 #1 SMP x86_64 GNU/Linux\n"
    assert hidden.facts({"host": "testperf", "kernel": "testperf 3.10"}) == {
        "host": "[redacted]",
        "kernel": "host-1 3.10",
    }


def test_a_machine_named_like_a_tool_does_not_break_parsing(nvme_host):
    renamed = nvme_host.replace("x86.170", "fio")
    hidden = redactor(Rules(hostnames=True), renamed)
    assert hidden.hosts == ()
    assert len(extract("x.txt", hidden.text(renamed).encode()).runs) == 1


def test_hosts_of_the_other_prompt_forms_are_hidden_and_the_runs_parse_the_same():
    """zsh's `db7% ` and `alice@db7 ~ % ` name the host as bash's `alice@db7:~$` does; busybox's
    `/tmp/perfwiki-data # `, oh-my-zsh's arrow and Windows prompts name none (tests/fixtures/transcripts)."""
    transcripts = FIXTURES / "transcripts"
    texts = {
        name: (transcripts / name).read_bytes().decode("utf-8") for name in ("zsh-prompts.txt", "bash-prompts.txt")
    }
    assert prompt_hosts([texts["zsh-prompts.txt"]]) == {"db7": "host-1"}
    for name in ("busybox-ash.txt", "windows-prompts.txt"):
        assert prompt_hosts([(transcripts / name).read_bytes().decode("utf-8")]) == {}, name
    assert prompt_hosts(["Filesystem      Size  Used Avail Use% Mounted on\nbash-5.2$ fio --name=x\n"]) == {}
    for name, text in texts.items():
        hidden = redactor(Rules(hostnames=True), text).text(text)
        assert "db7" not in hidden and ("host-1% sysbench" in hidden or "[root@host-1 perfwiki-data]#" in hidden)
        clean, redacted = extract(name, text.encode()), extract(name, hidden.encode())
        assert [(run.command, run.metrics) for run in redacted.runs] == [
            (run.command, run.metrics) for run in clean.runs
        ]
        assert len(clean.runs) == 4 and redacted.problems == clean.problems == []


def test_custom_patterns_stay_on_their_line():
    rules = Rules(patterns=(r"ACME-\d+", r"secret\s+word"))
    assert Redactor(rules).text("rack ACME-42\nsecret\nword\n") == "rack [redacted]\nsecret\nword\n"


def test_bad_configuration_is_refused_with_its_key(tmp_path):
    (tmp_path / "hugo.toml").write_text('[params.perfwiki.redact]\nipv4 = "yes"\n')
    with pytest.raises(ConfigError, match=r"params.perfwiki.redact.ipv4 must be true or false"):
        rules_from_config(tmp_path)
    (tmp_path / "hugo.toml").write_text("[params.perfwiki.redact]\npatterns = ['(unclosed']\n")
    with pytest.raises(ConfigError, match=r"patterns\[0\] '\(unclosed': missing \), unterminated subpattern"):
        rules_from_config(tmp_path)
    (tmp_path / "hugo.toml").write_text("[params.perfwiki.redact]\nipv_4 = true\n")
    with pytest.raises(ConfigError, match="unknown keys ipv_4"):
        rules_from_config(tmp_path)


@pytest.fixture(scope="module")
def redacted_site(tmp_path_factory, nvme_host):
    """The example wiki plus seed 002's nvme list, ingested and built with every rule on."""
    site = copy_site_sources(tmp_path_factory.mktemp("redacted"))
    with (site / "hugo.toml").open("a", encoding="utf-8") as config:
        config.write("\n[params.perfwiki.redact]\nipv4 = true\nipv6 = true\nhostnames = true\nserials = true\n")
    raw = site / "content" / "reports" / "ssd-cloud-disks-lvm-raid" / "raw" / "essd-vda" / "nvme-list.txt"
    raw.write_text(nvme_host, encoding="utf-8")
    ingest = subprocess.run(perfwiki_command() + ["ingest", "--root", str(site)], capture_output=True, text=True)
    # Authored pages are published as written: ingest names each line that shows a hidden host.
    flagged = [line for line in ingest.stderr.splitlines() if "shows what redaction hides" in line]
    assert ingest.returncode == 1 and len(flagged) == 18, ingest.stderr
    assert (
        "content/environments/nu4-sata-ssd.md:2: shows what redaction hides in raw output, and authored pages "
        """are published as written: write it as 'title: "SATA SSD sda, host host-7"'"""
    ) in flagged
    for line in flagged:  # the author follows the advice
        path, number, message = line.split(":", 2)
        lines = (site / path).read_text(encoding="utf-8").split("\n")
        lines[int(number) - 1] = ast.literal_eval(message.rsplit("write it as ", 1)[1])
        (site / path).write_text("\n".join(lines), encoding="utf-8")
    ingest = subprocess.run(perfwiki_command() + ["ingest", "--root", str(site)], capture_output=True, text=True)
    assert ingest.returncode == 0, ingest.stderr
    build = subprocess.run(
        [str(hugo_binary()), "--panicOnWarning", "-d", str(site / "public")], cwd=site, capture_output=True, text=True
    )
    assert build.returncode == 0, build.stdout + build.stderr
    return site


ORIGINALS = ["10.127.100.234", "10.127.90.238", "testperf", "x86.170", "nu4d01142", "BTLJ932205P44P0DGN"]


def test_originals_never_reach_data_or_public(redacted_site):
    content = "".join(
        path.read_text(encoding="utf-8", errors="replace")
        for path in (redacted_site / "content").rglob("*")
        if path.is_file()
    )
    assert all(original in content for original in ORIGINALS)  # the sources do hold them
    for folder in ("data", "public"):
        for path in (redacted_site / folder).rglob("*"):
            if path.is_file() and path.suffix in (".yaml", ".json", ".html", ".json", ".csv", ".txt", ".md"):
                text = path.read_text(encoding="utf-8", errors="replace")
                leaked = [original for original in ORIGINALS if original in text]
                assert not leaked, f"{path.relative_to(redacted_site)} shows {leaked}"


def test_redacted_runs_keep_the_original_sha256_and_say_so(redacted_site):
    document = load_report(redacted_site, "vm-vs-bare-metal")
    run = next(run for run in document["runs"] if run["tool"] == "iperf3" and "testperf" not in str(run))
    assert run["source"]["redacted"] is True
    assert run["command"].startswith("iperf3 -c 192.0.2.")
    status = subprocess.run(
        perfwiki_command() + ["status", "--root", str(redacted_site)], capture_output=True, text=True
    )
    assert status.returncode == 0, status.stdout + status.stderr  # nothing looks changed
    page = (redacted_site / "public" / "runs" / "vm-vs-bare-metal" / run["id"] / "index.html").read_text()
    assert "redaction applied (secrets, and addresses, host names, serial numbers when the wiki hides them)" in page
    published = redacted_site / "public" / run["source"]["path"].removeprefix("content/")
    assert "192.0.2." in published.read_text(encoding="utf-8")

"""A running `hugo server` while ingest adds and removes raw files: never a 5xx, and once it has
reloaded, every run a report links to is the run it says.

The server runs as `make serve` runs it (in memory, full renders, polling for changes: ingest
switches generations by renaming a symlink, publish.py), on a copy of the example site; a thread
asks for a few pages every 50 ms while ingest runs again and again.
"""

from __future__ import annotations

import html
import json
import re
import shutil
import subprocess
import threading
import time
from pathlib import Path

import pytest

from perfwiki import runstore
from support import copy_site_sources, free_port, http_get, hugo_server, perfwiki_command

REPORT = "nvme-raw-vs-ext4"
FIO = Path("content/reports") / REPORT / "raw" / "nvme-raw" / "fio-bandwidth-iops-latency.md"
# A second transcript of the same runs, first in the report: twelve more run pages, and the raw file
# numbers of the runs there before move (what made a stale hugo.Data index past the list, HTTP 500).
ADDED = FIO.with_name("00-repeat.md")
PAGES = [
    "/",
    f"/reports/{REPORT}/",
    f"/runs/{REPORT}/nvme-raw-sequential-write-bandwidth-test/",
    "/runs/",
    f"/raw/{REPORT}/nvme-raw/fio-bandwidth-iops-latency-md/",
]


def ingest(site: Path) -> None:
    done = subprocess.run(perfwiki_command() + ["ingest", "--root", str(site)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


@pytest.fixture
def served(tmp_path):
    site = copy_site_sources(tmp_path)
    ingest(site)
    port = free_port()
    server = subprocess.Popen(
        hugo_server(port),
        cwd=site,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    base = f"http://127.0.0.1:{port}"
    log = ServerLog(server)
    try:
        deadline = time.monotonic() + 60
        while True:
            if http_get(base + "/")[0] == 200:
                break
            assert server.poll() is None and time.monotonic() < deadline, "hugo server did not start"
            time.sleep(0.2)
        yield site, base, log
    finally:
        server.terminate()
        try:
            server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            server.kill()


class ServerLog:
    """hugo server's output, read as it comes (a full pipe would stop the server): when it last said anything."""

    def __init__(self, server: subprocess.Popen) -> None:
        self.lines: list[str] = []
        self.last = time.monotonic()
        threading.Thread(target=self._read, args=(server,), daemon=True).start()

    def _read(self, server: subprocess.Popen) -> None:
        for line in server.stdout:
            self.lines.append(line)
            self.last = time.monotonic()

    def quiet_for(self) -> float:
        return time.monotonic() - self.last


def run_links(page: str) -> list[str]:
    """The run pages a report page links to, in order, each once."""
    return list(dict.fromkeys(re.findall(rf'href="(/runs/{REPORT}/[^/"]+/)"', page)))


def settled(base: str, site: Path, log: ServerLog, timeout: float = 30) -> str:
    """The report page once Hugo shows what data/ now holds (a link to each of the report's runs), and
    has said nothing for two seconds: a change it polled (every 500 ms) would have started a rebuild."""
    document = json.loads((site / "data" / "reports" / f"{REPORT}.json").read_text())
    wanted = {f"/runs/{REPORT}/{entry['id']}/" for entry in document["run_index"]}
    deadline = time.monotonic() + timeout
    while True:
        status, page = http_get(f"{base}/reports/{REPORT}/")
        if status == 200 and set(run_links(page)) == wanted and log.quiet_for() > 2:
            return page
        assert time.monotonic() < deadline, f"hugo server still shows {sorted(set(run_links(page)) ^ wanted)}"
        time.sleep(0.2)


def test_pages_never_fail_while_ingest_adds_and_removes_raw_files(served):
    site, base, log = served
    answers: list[tuple[str, int]] = []
    stop = threading.Event()

    def poll() -> None:
        while not stop.is_set():
            for path in PAGES:
                answers.append((path, http_get(base + path)[0]))
            time.sleep(0.05)

    poller = threading.Thread(target=poll)
    poller.start()
    settle_times = []
    try:
        for _ in range(2):
            for change in ("add", "remove"):
                if change == "add":
                    shutil.copyfile(site / FIO, site / ADDED)
                else:
                    (site / ADDED).unlink()
                ingest(site)
                started = time.monotonic()
                settled(base, site, log)
                settle_times.append(time.monotonic() - started)
    finally:
        stop.set()
        poller.join()
    failed = [(path, status) for path, status in answers if status >= 500]
    assert failed == []
    assert len(answers) > 100 and {status for _, status in answers} == {200}
    print("settled after each ingest in", [round(seconds, 1) for seconds in settle_times], "s")
    assert max(settle_times) < 15, settle_times
    assert [line for line in log.lines if "ERROR" in line] == []


def test_after_ingest_the_report_links_each_run_to_its_own_page(served):
    site, base, log = served
    shutil.copyfile(site / FIO, site / ADDED)
    ingest(site)
    page = settled(base, site, log)
    links = run_links(page)
    assert len(links) == 36  # 24 runs, and the twelve of the second transcript
    titles = {
        entry["id"]: entry["title"]
        for entry in json.loads((site / "data" / "reports" / f"{REPORT}.json").read_text())["run_index"]
    }
    for link in links:
        run_id = link.rstrip("/").rpartition("/")[2]
        # The run as ingest published it, and the page Hugo serves for it: the same run, from the same lines.
        run = runstore.run_json(site, REPORT, run_id)
        status, page = http_get(base + link)
        assert status == 200, link
        assert html.unescape(re.search(r"<h1>(.*?)</h1>", page).group(1)) == titles[run_id], link
        source = run["source"]
        lines = f"{source['path'].rpartition('/')[2]}, lines {source['line_start']}–{source['line_end']}"
        assert lines in page, link

"""Search under `make serve`: the page finds the Pagefind index `perfwiki watch` serves from .serve/,
and what an edit adds is found once the watcher has rebuilt it."""

from __future__ import annotations

import shutil
import subprocess
import time
import urllib.request

import pytest

from support import ROOT, SERVE_CONFIG, copy_site_sources, free_port, hugo_binary, hugo_server, perfwiki_command

pytestmark = pytest.mark.browser


def served(url: str) -> bytes:
    try:
        with urllib.request.urlopen(url, timeout=5) as response:
            return response.read()
    except OSError:
        return b""


def test_search_under_make_serve_finds_a_word_added_since_it_started(page, tmp_path):
    site = tmp_path / "site"
    site.mkdir()
    copy_site_sources(site)
    shutil.copy2(ROOT / "serve.toml", site / "serve.toml")
    port = free_port()
    log = tmp_path / "watch.log"
    command = perfwiki_command() + ["watch", "--root", str(site), "--hugo", str(hugo_binary()), "--"]
    with log.open("w") as out:
        watcher = subprocess.Popen([*command, *hugo_server(port, SERVE_CONFIG)], stdout=out, stderr=out)
    try:

        def rebuilt(times: int, seconds: float = 90) -> None:
            deadline = time.monotonic() + seconds
            while log.read_text().count("search index rebuilt") < times:
                assert time.monotonic() < deadline, log.read_text()[-3000:]
                time.sleep(0.3)

        rebuilt(1)
        index = site / "content" / "reports" / "fio-iops-basics" / "index.md"
        index.write_text(index.read_text().replace("Random and sequential", "Platypodal random and sequential", 1))
        rebuilt(2)
        # Hugo serves it from memory: once it has synced the new one, it serves the same entry file.
        entry = site / ".serve" / "search" / "static" / "pagefind" / "pagefind-entry.json"
        deadline = time.monotonic() + 30
        while served(f"http://127.0.0.1:{port}/pagefind/pagefind-entry.json") != entry.read_bytes():
            assert time.monotonic() < deadline, "hugo server does not serve the rebuilt index"
            time.sleep(0.3)
        page.goto(f"http://127.0.0.1:{port}/search/?q=platypodal", wait_until="networkidle")
        result = page.locator(".pagefind-ui__result-link")  # Pagefind's UI, not the fall-back
        result.first.wait_for(state="visible", timeout=15_000)
        hrefs = [result.nth(i).get_attribute("href").split("#")[0] for i in range(result.count())]  # page, not heading
        # The report and the lists that show its summary (home, reports); not the near matches an
        # index without the word gives ("pl3": 28 of them).
        assert "/reports/fio-iops-basics/" in hrefs and set(hrefs) <= {"/", "/reports/", "/reports/fio-iops-basics/"}
    finally:
        watcher.terminate()
        watcher.wait(30)

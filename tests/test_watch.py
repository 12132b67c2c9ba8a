"""`perfwiki watch` and `make serve`: a save is ingested and served live, bad input never stops the
loop, nothing outlives it, and the Pagefind index served or built is the one of the site as it is."""

from __future__ import annotations

import contextlib
import fcntl
import gzip
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
import tomllib
from collections.abc import Callable, Iterator
from pathlib import Path

import brotli
import pytest

from perfwiki.ingest import plan
from perfwiki.preview import Preview
from perfwiki.watch import wanted
from support import (
    FIXTURES,
    ROOT,
    SERVE_CONFIG,
    copy_site_sources,
    free_port,
    http_get,
    hugo_binary,
    hugo_server,
    perfwiki_command,
)

REPORT = "fio-iops-basics"
NEW_RAW = FIXTURES / "fio" / "fio-3.33-randread.json+.json"


def site_copy(target: Path) -> Path:
    target.mkdir(parents=True, exist_ok=True)
    copy_site_sources(target)
    shutil.copy2(ROOT / "serve.toml", target / "serve.toml")
    return target


def get(url: str) -> tuple[int, str]:
    return http_get(url, timeout=5)


def wait_for(what: str, check: Callable[[], bool], seconds: float, log: Path | None = None) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if check():
            return
        time.sleep(0.2)
    said = log.read_text(errors="replace")[-4000:] if log else ""
    pytest.fail(f"not within {seconds} s: {what}\n{said}")


def descendants(pid: int) -> set[int]:
    """Every process started under `pid`, from /proc (children of each of its threads)."""
    found: set[int] = set()
    pending = [pid]
    while pending:
        parent = pending.pop()
        for task in Path(f"/proc/{parent}/task").glob("*"):
            try:
                children = (task / "children").read_text().split()
            except OSError:
                continue
            for child in map(int, children):
                if child not in found:
                    found.add(child)
                    pending.append(child)
    return found


def command_line(pid: int) -> list[str]:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().decode().split("\0")
    except OSError:
        return []


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"  # a zombie has exited; only its parent's wait is missing


def replace_in(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, f"{old!r} not in {path}"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def indexed_pages(folder: Path) -> dict[str, str]:
    """A Pagefind index's pages as it stores them (url: text), from its fragments."""
    pages = {}
    for fragment in (folder / "fragment").glob("*.pf_fragment"):
        data = gzip.decompress(fragment.read_bytes())
        assert data.startswith(b"pagefind_dcd"), fragment
        page = json.loads(data[len(b"pagefind_dcd") :])
        pages[page["url"]] = page["content"]
    return pages


def run_ids(site: Path) -> set[str]:
    document = json.loads((site / "data" / "reports" / f"{REPORT}.json").read_text())
    return {entry["id"] for entry in document["run_index"]}


# --- the loop's parts -------------------------------------------------------------------------


def test_saves_count_editor_scratch_files_do_not(tmp_path):
    content = str(tmp_path / "content")
    folder = tmp_path / "content" / "reports" / REPORT
    for counted in ("index.md", "aliases.yaml", "raw/lab-vm-dm0/fio.md", "raw/env/fio-logs/job_bw.1.log"):
        assert wanted(str(folder / counted), content), counted
    assert wanted(str(tmp_path / "content" / "environments" / "lab-vm-dm0.md"), content)
    for scratch in (".index.md.swp", "index.md~", "#index.md#", "4913", "index.md.swx", "raw/.hidden/fio.md"):
        assert not wanted(str(folder / scratch), content), scratch
    # A hidden folder above content/ (a checkout under ~/.sites/) hides nothing.
    hidden_home = tmp_path / ".sites" / "wiki" / "content"
    assert wanted(str(hidden_home / "reports" / REPORT / "index.md"), str(hidden_home))


def test_hugo_reads_content_as_validation_passed_it_and_what_is_deleted_404s(tmp_path):
    site = site_copy(tmp_path)
    preview = Preview(site)
    copy = site / ".serve" / "content"
    assert preview.update([]) == set()
    # Everything Hugo reads, nothing it does not: raw files and aliases.yaml stay in content/.
    assert (copy / "reports" / REPORT / "index.md").read_bytes() == (
        site / "content/reports" / REPORT / "index.md"
    ).read_bytes()
    assert (copy / "runs" / "_content.gotmpl").is_file() and (copy / "environments" / "lab-vm-dm0.md").is_file()
    assert not list(copy.glob("reports/*/raw")) and not list(copy.glob("reports/*/aliases.yaml"))
    config = tomllib.loads((site / ".serve" / "preview.toml").read_text())
    hugo_toml = tomllib.loads((site / "hugo.toml").read_text())
    mounts = config["module"]["mounts"]
    assert mounts[0] == {**hugo_toml["module"]["mounts"][0], "source": ".serve/content"}
    assert mounts[1:] == hugo_toml["module"]["mounts"][1:] and "server" not in config

    # A report held back and an environment page with an error: Hugo keeps the version it had, as it
    # was before the mistake, and its configuration does not change; a report broken from its first
    # save is not given to Hugo at all.
    index = site / "content" / "reports" / REPORT / "index.md"
    good = index.read_bytes()
    environment = (copy / "environments" / "nas-default.md").read_bytes()
    replace_in(index, "date: 2018-06-04", "date: 04.06.2018")
    replace_in(site / "content" / "environments" / "nas-default.md", "kind:", "kind: [")
    new = site / "content" / "reports" / "brand-new" / "index.md"
    new.parent.mkdir()
    new.write_text(index.read_text(encoding="utf-8").replace("date: 04.06.2018", "date: 05.06.2018"), encoding="utf-8")
    problems = plan(site)[1]  # what ingest would say, without building anything
    assert preview.update(problems) == {
        f"reports/{REPORT}",
        "reports/brand-new",
        "environments/nas-default.md",
        "reports/nas-cache-modes",
    }
    assert (copy / "reports" / REPORT / "index.md").read_bytes() == good
    assert (copy / "environments" / "nas-default.md").read_bytes() == environment
    assert not (copy / "reports" / "brand-new").exists()
    assert "server" not in tomllib.loads((site / ".serve" / "preview.toml").read_text())
    new.parent.joinpath("index.md").unlink()
    new.parent.rmdir()

    # Fixed, they are back; a report folder deleted goes from the copy, and 404s.
    replace_in(index, "date: 04.06.2018", "date: 2018-06-04")
    replace_in(site / "content" / "environments" / "nas-default.md", "kind: [", "kind:")
    shutil.rmtree(site / "content" / "reports" / "vm-vs-bare-metal")
    assert preview.update(plan(site)[1]) == set()
    assert (copy / "reports" / REPORT / "index.md").is_file() and not (copy / "reports" / "vm-vs-bare-metal").exists()
    redirects = tomllib.loads((site / ".serve" / "preview.toml").read_text())["server"]["redirects"]
    assert [redirect["from"] for redirect in redirects] == [
        f"/{section}/vm-vs-bare-metal/**" for section in ("reports", "runs", "raw")
    ]


def test_an_ingest_started_by_hand_waits_for_the_running_one_and_says_whose(tmp_path):
    site = site_copy(tmp_path)
    lock_path = site / ".perfwiki-cache" / "lock"
    lock_path.parent.mkdir()
    with lock_path.open("a+") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # as the watcher's ingest holds it
        lock.write(str(os.getpid()))
        lock.flush()
        second = subprocess.Popen(
            perfwiki_command() + ["ingest", "--root", str(site)], stderr=subprocess.PIPE, text=True
        )
        said = second.stderr.readline()
        assert said == f"another ingest is running (pid {os.getpid()}); waiting for it to finish\n"
        time.sleep(1)
        assert second.poll() is None, "it ran while the other held the lock"
        assert not (site / "data").exists()
    rest = second.communicate(timeout=60)[1]
    assert second.returncode == 0, rest
    assert "ingested 219 runs in 8 reports" in rest
    assert lock_path.read_text() == str(second.pid)  # whose turn it was, for the next one to say


def test_saves_in_quick_succession_are_one_ingest_and_hugo_toml_is_watched(tmp_path):
    site = site_copy(tmp_path / "site")
    log = tmp_path / "watch.log"
    with log.open("w") as out:
        watcher = subprocess.Popen(
            perfwiki_command() + ["watch", "--root", str(site), "--no-search"], stdout=out, stderr=subprocess.STDOUT
        )
    try:
        wait_for("watching", lambda: "for changes" in log.read_text(), 60, log)
        # Twelve raw files, one every 50 ms: the writes have not settled (300 ms) until the last.
        folder = site / "content" / "reports" / REPORT / "raw" / "lab-vm-dm0"
        for number in range(12):
            (folder / f"copy-{number:02}.json").write_bytes(NEW_RAW.read_bytes())
            time.sleep(0.05)
        wait_for("one ingest of them all", lambda: "changed: ingested" in log.read_text(), 30, log)
        time.sleep(2)  # time for a second ingest, were there one
        ingests = [line for line in log.read_text().splitlines() if "changed: ingest" in line]
        assert len(ingests) == 1, ingests
        expected = f"content/reports/{REPORT}/raw/lab-vm-dm0/copy-00.json, "
        assert expected in ingests[0] and " and 9 more changed: ingested 231 runs in 8 reports" in ingests[0]

        # The site's configuration decides redaction: a change to it is ingested too.
        config = site / "hugo.toml"
        config.write_text(config.read_text() + "\n# edited\n")
        wait_for("hugo.toml ingested", lambda: "hugo.toml changed: ingested 231 runs" in log.read_text(), 30, log)
    finally:
        watcher.terminate()
        watcher.wait(30)
    assert watcher.returncode == 0 and log.read_text().splitlines()[-1].endswith(" stopped")


# --- perfwiki watch under a running hugo server -----------------------------------------------


@contextlib.contextmanager
def watching(site: Path, log: Path, search: bool = True) -> Iterator[tuple[str, subprocess.Popen]]:
    """`perfwiki watch -- hugo server` as `make serve` runs them, on a site copy: (address, watcher).
    Whatever happens, nothing it started outlives it."""
    port = free_port()
    search_flags = ["--hugo", str(hugo_binary())] if search else ["--no-search"]
    command = perfwiki_command() + ["watch", "--root", str(site), *search_flags, "--", *hugo_server(port, SERVE_CONFIG)]
    with log.open("w") as out:
        watcher = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT)
    try:
        yield f"http://127.0.0.1:{port}", watcher
    finally:
        children = descendants(watcher.pid)
        watcher.terminate()
        watcher.wait(30)
        deadline = time.monotonic() + 10
        while any(alive(pid) for pid in children) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not [pid for pid in children if alive(pid)], "a process outlived the watcher"


@pytest.fixture
def watched(tmp_path) -> Iterator[tuple[Path, str, Path, subprocess.Popen]]:
    """`perfwiki watch -- hugo server` on a copy of the example site: (site, address, log, watcher)."""
    site = site_copy(tmp_path / "site")
    log = tmp_path / "watch.log"
    with watching(site, log) as (address, watcher):
        yield site, address, log, watcher


@pytest.mark.site
def test_watch_shows_edits_live_and_outlives_bad_input(watched):
    site, address, log, watcher = watched
    page = f"{address}/reports/{REPORT}/"
    index = site / "content" / "reports" / REPORT / "index.md"
    served = site / ".serve" / "search" / "static" / "pagefind"
    wait_for("the report page served", lambda: get(page)[0] == 200, 90, log)
    wait_for("the first search index", lambda: "search index rebuilt" in log.read_text(), 90, log)
    before = run_ids(site)

    # A new summary, with a word no page had.
    replace_in(index, "Random and sequential read and write IOPS", "Quokkaesque random and sequential IOPS")
    wait_for("the new summary served", lambda: "Quokkaesque random and sequential IOPS" in get(page)[1], 30, log)

    # A raw file of real fio output: a new run, with its page, on the report's page.
    (index.parent / "raw" / "lab-vm-dm0" / "randread.json").write_bytes(NEW_RAW.read_bytes())
    wait_for("a new run ingested", lambda: len(run_ids(site) - before) == 1, 30, log)
    (new_run,) = run_ids(site) - before
    run_page = f"{address}/runs/{REPORT}/{new_run}/"
    wait_for("its run page served", lambda: get(run_page)[0] == 200, 30, log)
    assert "--rw=randread" in get(run_page)[1] or "randread" in get(run_page)[1]
    wait_for("the report page links the run", lambda: f"/runs/{REPORT}/{new_run}/" in get(page)[1], 30, log)
    lines = log.read_text().splitlines()
    # One line for it (with the summary's edit, when both came within one ingest's time).
    summary = [line for line in lines if "changed: ingest" in line and f"{REPORT}/raw/lab-vm-dm0/randread.json" in line]
    assert len(summary) == 1 and "changed: ingested 220 runs in 8 reports in " in summary[0], lines

    # The served search index is rebuilt from the pages as they are now.
    def indexed() -> bool:
        entry = served / "pagefind-entry.json"
        if not entry.is_file() or get(f"{address}/pagefind/pagefind-entry.json")[1] != entry.read_text():
            return False
        try:
            pages = indexed_pages(served)
        except FileNotFoundError:  # swapped for a newer one while read: look again
            return False
        return "Quokkaesque" in pages.get(f"/reports/{REPORT}/", "") and f"/runs/{REPORT}/{new_run}/" in pages

    wait_for("the served index finds the new word and run", indexed, 60, log)

    # Broken front matter: its problem is printed, the loop goes on, and the fix is picked up.
    said = len(log.read_text().splitlines())
    replace_in(index, "baseline: lab-vm-dm0", "baseline: [lab-vm-dm0")
    wait_for(
        "the broken file's problem printed",
        lambda: any(f"{REPORT}/index.md" in line for line in log.read_text().splitlines()[said:]),
        30,
        log,
    )
    assert watcher.poll() is None
    replace_in(index, "baseline: [lab-vm-dm0", "baseline: lab-vm-dm0")
    replace_in(index, "Quokkaesque", "Wombatish")
    wait_for("the fix served", lambda: "Wombatish random and sequential IOPS" in get(page)[1], 30, log)
    assert watcher.poll() is None

    # A server that dies after it came up (hugo 0.168 can panic on a fixed front matter) is started again.
    (server,) = [pid for pid in descendants(watcher.pid) if command_line(pid)[:2] == [str(hugo_binary()), "server"]]
    os.kill(server, signal.SIGKILL)
    restarted = "hugo stopped (killed by SIGKILL); starting it again"
    wait_for("the server started again", lambda: restarted in log.read_text(), 30, log)
    wait_for("the page served again", lambda: "Wombatish" in get(page)[1], 60, log)
    assert watcher.poll() is None
    assert "Traceback" not in log.read_text()


# Pages of the other reports and the lists, asked for all along while one report breaks and is fixed.
OTHER_PAGES = [
    "/",
    "/reports/",
    "/environments/",
    "/reports/nvme-raw-vs-ext4/",
    "/runs/nvme-raw-vs-ext4/nvme-raw-sequential-write-bandwidth-test/",
    "/environments/lab-vm-dm0/",
]


@pytest.mark.site
def test_a_report_hugo_cannot_read_is_held_back_and_every_other_page_still_served(tmp_path):
    site = site_copy(tmp_path / "site")
    log = tmp_path / "watch.log"
    index = site / "content" / "reports" / REPORT / "index.md"
    written = index.read_text(encoding="utf-8")
    where = f"content/reports/{REPORT}/index.md"
    with watching(site, log, search=False) as (address, watcher):
        page = f"{address}/reports/{REPORT}/"
        wait_for("the report served", lambda: get(page)[0] == 200, 90, log)
        run_page = f"{address}/runs/{REPORT}/{sorted(run_ids(site))[0]}/"
        assert get(run_page)[0] == 200
        answers: list[tuple[str, int]] = []
        stop = threading.Event()

        def poll() -> None:
            while not stop.is_set():
                for path in [*OTHER_PAGES, f"/reports/{REPORT}/"]:
                    answers.append((path, get(address + path)[0]))
                time.sleep(0.05)

        poller = threading.Thread(target=poll)
        poller.start()
        try:
            # Hugo refuses both (a date it cannot parse; a quote never closed): each is held back and said
            # at its line, Hugo keeps the version it had rather than every page answering 500; fixed
            # (with a word more, to tell the fix from the version kept), the fix is served.
            for turn, (broken, said) in enumerate(
                (
                    (written.replace("date: 2018-06-04", "date: 04.06.2018"), f"{where}:3: date '04.06.2018' is not"),
                    (written.replace("title: fio IOPS", 'title: "fio IOPS'), f"{where}:10: front matter is not valid"),
                )
            ):
                assert broken != written
                index.write_text(broken, encoding="utf-8")
                wait_for("the mistake said at its line", lambda: said in log.read_text(), 30, log)  # noqa: B023
                assert f"held back: reports/{REPORT}" in log.read_text()
                assert "fio IOPS basics and ioping latency" in get(page)[1]  # the version Hugo had
                fixed = f"{written}\nFixed, turn {turn}.\n"
                index.write_text(fixed, encoding="utf-8")
                wait_for("the fix served", lambda: f"Fixed, turn {turn}." in get(page)[1], 30, log)  # noqa: B023
                assert get(run_page)[0] == 200

            # A report folder deleted: its pages 404 and the list of reports no longer names it.
            shutil.rmtree(index.parent)
            wait_for("the deleted report's page 404", lambda: get(page)[0] == 404, 30, log)
            assert get(run_page)[0] == 404
            wait_for("the list without it", lambda: f"/reports/{REPORT}/" not in get(f"{address}/reports/")[1], 30, log)
        finally:
            stop.set()
            poller.join()
        assert watcher.poll() is None
    others = {status for path, status in answers if path != f"/reports/{REPORT}/"}
    assert others == {200}, [answer for answer in answers if answer[1] != 200][:10]
    assert {status for path, status in answers if path == f"/reports/{REPORT}/"} == {200, 404}
    assert len(answers) > 100
    said = log.read_text()
    assert "panic" not in said and "starting it again" not in said and "Traceback" not in said


def test_a_server_that_never_comes_up_stops_the_watcher_with_its_reason(tmp_path):
    site = site_copy(tmp_path / "site")
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        command = perfwiki_command() + ["watch", "--root", str(site), "--no-search", "--"]
        command += hugo_server(port, SERVE_CONFIG)
        done = subprocess.run(command, capture_output=True, text=True, timeout=120)
    assert done.returncode == 1
    assert "hugo stopped (exit status 1); stopping too" in done.stderr.splitlines()[-1]
    assert f"{port}" in done.stdout + done.stderr  # hugo's own words about the port


# --- make serve and make build ------------------------------------------------------------------


def make(site: Path, *words: str) -> list[str]:
    """make in a site copy with this checkout's Makefile and venv; setup is done already (-o setup)."""
    for name in ("Makefile", "requirements.lock", "pyproject.toml"):
        shutil.copy2(ROOT / name, site / name)
    venv = Path(sys.executable).parent.parent
    return ["make", "--no-print-directory", "-C", str(site), "-o", "setup", f"VENV={venv}"]


@pytest.mark.site
@pytest.mark.parametrize("how", ["ctrl-c", "sigterm", "sigkill"])
def test_stopping_make_serve_leaves_no_process_behind(tmp_path, how):
    site = site_copy(tmp_path / "site")
    port = free_port()
    log = tmp_path / "serve.log"
    with log.open("w") as out:
        # Its own session, as a terminal gives it: Ctrl-C is SIGINT to that whole process group.
        serve = subprocess.Popen(
            [*make(site), "serve", f"PORT={port}"], stdout=out, stderr=subprocess.STDOUT, start_new_session=True
        )
    started: set[int] = set()
    try:
        wait_for("make serve serving", lambda: get(f"http://localhost:{port}/reports/{REPORT}/")[0] == 200, 90, log)
        started = descendants(serve.pid)
        assert len(started) >= 2, started  # the watcher and hugo server at least
        if how == "ctrl-c":
            os.killpg(serve.pid, signal.SIGINT)
        else:
            serve.send_signal(signal.SIGTERM if how == "sigterm" else signal.SIGKILL)
        serve.wait(30)
        wait_for("every process it started gone", lambda: not any(alive(pid) for pid in started), 20, log)
        assert get(f"http://localhost:{port}/")[0] == 0
    finally:  # whatever failed, nothing of this test keeps running
        for pid in started | (descendants(serve.pid) if serve.poll() is None else set()):
            if alive(pid):
                os.kill(pid, signal.SIGKILL)
        if serve.poll() is None:
            serve.kill()
            serve.wait()


@pytest.mark.site
def test_make_build_indexes_its_own_output_never_an_old_index(tmp_path):
    site = site_copy(tmp_path / "site")
    # What an older `make serve` left in site/static/pagefind, and a report added since.
    stale = site / "site" / "static" / "pagefind"
    stale.mkdir(parents=True)
    (stale / "pagefind-entry.json").write_text('{"version": "stale"}')
    (stale / "stale-fragment.pf_fragment").write_text("stale")
    added = site / "content" / "reports" / "numbat-report"
    shutil.copytree(site / "content" / "reports" / REPORT, added)
    replace_in(added / "index.md", "title: fio IOPS basics and ioping latency", "title: Numbatoid latency notes")
    done = subprocess.run([*make(site), "build"], capture_output=True, text=True)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    index = site / "public" / "pagefind"
    assert not (index / "stale-fragment.pf_fragment").exists()
    assert json.loads((index / "pagefind-entry.json").read_text())["version"] == "1.5.2"
    pages = indexed_pages(index)
    assert "Numbatoid latency notes" in pages["/reports/numbat-report/"]
    assert len(pages) > 300  # every page of the build, not a leftover
    # plotly.js ships precompressed beside itself, each copy the bundle byte for byte and smaller.
    (bundle,) = (site / "public" / "vendor").glob("plotly.min.*.js")
    original = bundle.read_bytes()
    gz, br = bundle.with_name(bundle.name + ".gz").read_bytes(), bundle.with_name(bundle.name + ".br").read_bytes()
    assert gzip.decompress(gz) == original and brotli.decompress(br) == original
    # gzip -9 itself, and brotli smaller still (plotly's core and bar: 35 % and 29 % of the bundle).
    assert gz == gzip.compress(original, compresslevel=9, mtime=0)
    assert len(br) < len(gz) < len(original) * 0.4

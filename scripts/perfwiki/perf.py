"""`make perf`: build a wiki-sized site from real raw outputs and print how long each stage takes.

The synthetic wiki replicates the shipped raw files (seed runs and captured runs) to
10,000 runs over 200 environments and 50 reports, then measures ingest (cold, warm,
after one change), the Hugo build (time and peak memory), the largest report page and
the time to the first drawn chart in headless Chromium. One figure per line:

    ingest_cold_s 17.93
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import http.server
import resource
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path

from .content import files_under, raw_files
from .extract import extract
from .manual import FILE_NAMES


def sources(root: Path) -> list[tuple[str, bytes, int]]:
    """(file name, bytes, runs) of every real raw file shipped: the seed slices and the captured runs."""
    paths = raw_files(root) + [path for path in files_under(root / "tests" / "fixtures") if path.suffix != ".fio"]
    found = []
    for path in paths:
        data = path.read_bytes()
        runs = len(extract(path.name, data).runs)
        if runs:
            found.append((path.name, data, runs))
    return found


def build_site(root: Path, out: Path, runs: int, environments: int, reports: int) -> tuple[int, int]:
    """A copy of the site whose content is real raw files replicated to `runs` runs; returns (runs, raw bytes).

    Every environment gets runs / environments runs, a different mix of files for each.
    """
    for name in ("hugo.toml", "layouts", "site"):
        source = root / name
        (shutil.copytree if source.is_dir() else shutil.copy2)(source, out / name)
    content = out / "content"
    for section in ("_index.md", "reports/_index.md", "environments/_index.md", "runs", "scenarios", "tools", "search"):
        source = root / "content" / section
        target = content / section
        target.parent.mkdir(parents=True, exist_ok=True)
        (shutil.copytree if source.is_dir() else shutil.copy2)(source, target)
    pool = sources(root)
    per_env, envs_per_report = runs // environments, environments // reports
    total_runs = total_bytes = 0
    for report in range(reports):
        slug = f"perf-report-{report:03d}"
        envs = [f"perf-env-{report:03d}-{n}" for n in range(envs_per_report)]
        folder = content / "reports" / slug
        for number, env in enumerate(envs):
            (content / "environments" / f"{env}.md").write_text(
                f'---\ntitle: {env}\nkind: baremetal\nfacts:\n  disk: "synthetic copy {env}"\n---\nSynthetic.\n',
                encoding="utf-8",
            )
            env_dir = folder / "raw" / env
            env_dir.mkdir(parents=True)
            remaining, turn, copies = per_env, report * envs_per_report + number, 0
            while remaining > 0:
                fitting = [source for source in pool if source[2] <= remaining]
                if not fitting:
                    break  # no file small enough: this environment gets a few runs less
                name, data, count = fitting[turn % len(fitting)]
                # A numbered copy; manual.yaml is known by its name, so its copies get a folder each.
                copy = env_dir / f"{copies:03d}" / name if name in FILE_NAMES else env_dir / f"{copies:03d}-{name}"
                copy.parent.mkdir(exist_ok=True)
                copy.write_bytes(data)
                remaining, turn, copies = remaining - count, turn + 1, copies + 1
                total_runs, total_bytes = total_runs + count, total_bytes + len(data)
        front = f"title: {slug}\ndate: 2026-01-01\nbaseline: {envs[0]}\nenvironments: [{', '.join(envs)}]"
        (folder / "index.md").write_text(f"---\n{front}\n---\nSynthetic.\n", encoding="utf-8")
    return total_runs, total_bytes


def timed(command: list[str], cwd: Path, show: bool = False) -> tuple[float, int]:
    """(seconds, exit code) of a command; its output goes to stderr when it fails or `show` is set."""
    started = time.monotonic()
    result = subprocess.run(command, cwd=cwd, capture_output=True, text=True)
    if show or result.returncode not in (0, 1):
        sys.stderr.write("# " + (result.stdout + result.stderr).strip().replace("\n", "\n# ") + "\n")
    return time.monotonic() - started, result.returncode


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format, *args):  # noqa: A002 - stdlib signature
        pass


@contextlib.contextmanager
def serve(folder: Path) -> Iterator[int]:
    """A static HTTP server for a built site on 127.0.0.1, as a wiki's web server would be; yields its port."""
    handler = functools.partial(_QuietHandler, directory=str(folder))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield server.server_address[1]
    finally:
        server.shutdown()


def first_chart_seconds(site: Path, page: str) -> float | None:
    """Seconds from navigation to the first drawn Plotly chart, in Debian's Chromium."""
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        return None
    with serve(site) as port, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox"])
        tab = browser.new_page()
        started = time.monotonic()
        tab.goto(f"http://127.0.0.1:{port}/{page}")
        try:
            drawn = tab.locator(".chart__plot svg.main-svg, .panel__plot svg.main-svg").first
            drawn.wait_for(state="visible", timeout=60_000)
            return time.monotonic() - started
        except Exception as error:  # noqa: BLE001 - reported; the figure is n/a
            print(f"# first chart: {error}".split("\n")[0], file=sys.stderr)
            return None
        finally:
            browser.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--root", default=".", help="the perfwiki checkout")
    parser.add_argument("--runs", type=int, default=10_000)
    parser.add_argument("--environments", type=int, default=200)
    parser.add_argument("--reports", type=int, default=50)
    parser.add_argument("--hugo", required=True, help="the pinned Hugo binary")
    parser.add_argument("--keep", help="build the synthetic wiki here and keep it (default: a temporary folder)")
    args = parser.parse_args(argv)
    root = Path(args.root).resolve()
    perfwiki = [sys.executable, "-m", "perfwiki.cli"]
    with tempfile.TemporaryDirectory(prefix="perfwiki-perf-") as work:
        site = Path(args.keep).resolve() if args.keep else Path(work)
        site.mkdir(parents=True, exist_ok=True)
        runs, raw_bytes = build_site(root, site, args.runs, args.environments, args.reports)
        print(f"# {runs} runs, {args.environments} environments, {args.reports} reports", file=sys.stderr)
        cold, _ = timed(perfwiki + ["ingest", "--root", str(site)], site, show=True)
        warm, _ = timed(perfwiki + ["ingest", "--root", str(site)], site)
        changed = next((site / "content" / "reports").glob("*/raw/*/*.md"))
        changed.write_bytes(changed.read_bytes() + b"\n<!-- changed -->\n")
        one_change, _ = timed(perfwiki + ["ingest", "--root", str(site)], site)
        before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
        build, code = timed([str(Path(args.hugo).resolve()), "--quiet", "-d", str(site / "public")], site)
        peak_kib = max(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, before)
        pages = list((site / "public" / "reports").glob("*/index.html"))
        largest = max(pages, key=lambda page: page.stat().st_size) if pages else None
        chart = first_chart_seconds(site / "public", f"reports/{largest.parent.name}/") if largest else None
        figures = {
            "ingest_cold_s": cold,
            "ingest_warm_s": warm,
            "ingest_one_change_s": one_change,
            "hugo_build_s": build if code == 0 else None,
            "hugo_peak_rss_mib": peak_kib / 1024,
            "largest_report_html_kib": largest.stat().st_size / 1024 if largest else None,
            "first_chart_s": chart,
            "ingest_mb_per_s": raw_bytes / 1e6 / cold if cold else None,
        }
        for name, value in figures.items():
            print(f"{name} {'n/a' if value is None else f'{value:.2f}'}")
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())

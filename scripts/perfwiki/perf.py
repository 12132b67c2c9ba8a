"""`make perf`: build a wiki-sized site from real raw outputs and print how long each stage takes.

The synthetic wiki replicates the shipped raw files (seed runs and captured runs) to
`--runs` runs (10,000 by default) over one environment per 50 runs and one report per
200, then measures ingest (cold, warm, after one change); the Hugo build (time, pages,
peak memory), and the same build as hugo.toml's segments side by side; the sizes of
data/ and public/ per run; the search index; its largest report and page; and, apart from the
wiki, `perfwiki parse` against json.load of the same runs, its start-up, and the peak memory of
ingesting one raw file of `--one-file-runs` fio runs (10,000 by default; the bound is 1 GiB at
100,000). Then perf_browser's page-speed figures: the example site's largest report and a
generated 300-run report loaded in Chromium as a phone, the count of pages over 2 MiB in
every site built, and /runs/ in a wiki of 100,000 runs to its first rows (perf_finder). One
figure per line, a `#` line before some saying how it was measured:

    ingest_cold_s 17.93
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import http.server
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import tomllib
import urllib.parse
from collections.abc import Iterator
from pathlib import Path
from typing import NamedTuple

from . import publish
from .content import files_under, raw_files
from .extract import extract
from .manual import FILE_NAMES


def sources(root: Path, per_tool: int | None = None) -> list[tuple[str, bytes, int]]:
    """(file name, bytes, runs) of every real raw file shipped: the seed slices and the captured runs;
    with `per_tool`, only the first that many files of each tool."""
    # Not tests/fixtures/secrets/: a transcript of leaked credentials tests redaction, and replicated it
    # would fill the figures with its warnings.
    fixtures = [path for path in files_under(root / "tests" / "fixtures") if path.suffix != ".fio"]
    paths = raw_files(root) + [path for path in fixtures if path.parent.name != "secrets"]
    by_tool: dict[str, list[tuple[str, bytes, int]]] = {}
    for path in paths:
        data = path.read_bytes()
        found = extract(path.name, data).runs
        if found:
            by_tool.setdefault(found[0].tool, []).append((path.name, data, len(found)))
    # One file of each tool in turn, so that a few hundred runs already hold every kind of output
    # whatever the number of files one tool ships (the networks example alone has twelve).
    groups = [group[:per_tool] for group in by_tool.values()]
    return [group[index] for index in range(max(map(len, groups), default=0)) for group in groups if index < len(group)]


# What ingest and Pagefind write under site/ (.gitignore): a copy of the site starts without them.
GENERATED_STATIC = ("reports", "runs", "pagefind")


def copy_site(root: Path, out: Path) -> None:
    """The site's configuration, layouts and assets (not content/) copied to `out`, without what ingest
    published into site/static, so a build there shows only what is ingested there."""
    static = (root / "site" / "static").resolve()

    def generated(folder: str, names: list[str]) -> list[str]:
        return [name for name in names if Path(folder).resolve() == static and name in GENERATED_STATIC]

    shutil.copy2(root / "hugo.toml", out / "hugo.toml")
    shutil.copytree(root / "layouts", out / "layouts")
    shutil.copytree(root / "site", out / "site", ignore=generated)


def site_skeleton(root: Path, out: Path) -> None:
    """A copy of the site without the example reports and environments: its configuration, layouts,
    assets, and every section of content (runs, raw files, scenarios, tools, search...)."""
    copy_site(root, out)
    content = out / "content"
    for source in sorted((root / "content").iterdir()):
        # A section's own files (_index.md, a content adapter such as reports' tables pages) without its pages.
        kept = [source]
        if source.name in ("reports", "environments"):
            kept = [item for item in sorted(source.iterdir()) if item.name.startswith("_")]
        for item in kept:
            target = content / item.relative_to(root / "content")
            target.parent.mkdir(parents=True, exist_ok=True)
            (shutil.copytree if item.is_dir() else shutil.copy2)(item, target)


def build_site(
    root: Path, out: Path, runs: int, environments: int, reports: int, per_tool: int | None = None
) -> tuple[int, int]:
    """A copy of the site whose content is real raw files replicated to `runs` runs; returns (runs, raw bytes).

    Every environment gets runs / environments runs, a different mix of files for each; `per_tool`
    draws them from the first that many files of each tool (sources).
    """
    site_skeleton(root, out)
    content = out / "content"
    pool = sources(root, per_tool)
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


# The real fio transcript the one-file figure repeats: two runs, each a "# label", its command and output.
ONE_FILE_SOURCE = Path("tests") / "fixtures" / "fio" / "fio-3.33-randread-direct-then-buffered.txt"


def one_file_transcript(root: Path, runs: int) -> Iterator[bytes]:
    """A transcript of `runs` real fio runs (ONE_FILE_SOURCE repeated), each copy's job names and labels
    numbered so that every run has a name of its own, as a long benchmark session's would; in pieces."""
    text = (root / ONE_FILE_SOURCE).read_text(encoding="utf-8")
    names = sorted(set(re.findall(r"--name=(\S+)", text)), key=len, reverse=True)
    mark = "\x00copy\x00"  # where each copy's number goes: in every job name and label
    template = re.sub("|".join(map(re.escape, names)), lambda name: name.group(0) + "-" + mark, text)
    template = re.sub(r"^(# .+)$", lambda label: f"{label.group(1)} ({mark})", template, flags=re.M)
    for copy in range(-(-runs // len(names))):
        yield template.replace(mark, str(copy)).encode("utf-8")


def one_file_report(root: Path, out: Path, runs: int, slug: str = "one-file", env: str = "one-file-env") -> Path:
    """A report `slug` in the site at `out` whose one environment `env` has one raw file of `runs` fio runs."""
    environments = out / "content" / "environments"
    environments.mkdir(parents=True, exist_ok=True)
    (environments / f"{env}.md").write_text(
        f'---\ntitle: {env}\nkind: baremetal\nfacts:\n  disk: "synthetic"\n---\nSynthetic.\n', encoding="utf-8"
    )
    folder = out / "content" / "reports" / slug
    (folder / "raw" / env).mkdir(parents=True)
    (folder / "index.md").write_text(
        f"---\ntitle: {slug}\ndate: 2026-01-01\nbaseline: {env}\nenvironments: [{env}]\n---\nSynthetic.\n",
        encoding="utf-8",
    )
    path = folder / "raw" / env / "session.txt"
    with path.open("wb") as file:
        for piece in one_file_transcript(root, runs):
            file.write(piece)
    return path


def one_file_site(root: Path, out: Path, runs: int) -> Path:
    """A copy of the site whose one report has one environment and one raw file of `runs` fio runs."""
    site_skeleton(root, out)
    return one_file_report(root, out, runs)


def one_file_figures(root: Path, out: Path, runs: int, perfwiki: list[str], hugo: str) -> dict[str, float | None]:
    """Peak memory and time of a cold ingest of one raw file of `runs` fio runs (its workers included), and
    the largest pages of that one report once built: its report page and any page (its raw file's, issue 32)."""
    out.mkdir(parents=True)
    one_file_site(root, out, runs)
    os.sync()
    with TreeMemory() as tree:
        run = measured(perfwiki + ["ingest", "--root", str(out)], out)
    # The ingest and the processes it forks, together: a large file is worked on in one of its own.
    peak_kib = max(run.peak_kib, tree.peak_kib)
    print(f"# one file of {runs} runs: peak RSS {peak_kib / 1024:.0f} MiB (processes together)", file=sys.stderr)
    built = measured([hugo, "-d", str(out / "public")], out).code == 0
    report = out / "public" / "reports" / "one-file" / "index.html"
    largest = max((page.stat().st_size for page in (out / "public").rglob("*.html")), default=0)
    return {
        "one_file_ingest_s": run.seconds,
        "one_file_peak_rss_mib": peak_kib / 1024,
        "one_file_peak_rss_kib_per_run": peak_kib / runs,
        "one_file_report_html_kib": report.stat().st_size / 1024 if built else None,
        "one_file_largest_page_html_kib": largest / 1024 if built else None,
    }


class TreeMemory:
    """The largest total RSS of this process's descendants at once, sampled every 20 ms while the block
    runs: wait4's figure is the largest one process's, and an ingest and its workers are alive together."""

    def __init__(self) -> None:
        self.peak_kib = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._sample, daemon=True)

    def __enter__(self) -> TreeMemory:
        self._thread.start()
        return self

    def __exit__(self, *_: object) -> None:
        self._stop.set()
        self._thread.join()

    def _sample(self) -> None:
        me = os.getpid()
        while not self._stop.wait(0.02):
            parents: dict[int, int] = {}
            rss: dict[int, int] = {}
            for entry in os.scandir("/proc"):
                if not entry.name.isdigit():
                    continue
                with contextlib.suppress(OSError, ValueError, IndexError):
                    with open(f"/proc/{entry.name}/stat", "rb") as stat:
                        fields = stat.read().rsplit(b")", 1)[1].split()
                    parents[int(entry.name)] = int(fields[1])
                    rss[int(entry.name)] = int(fields[21]) * os.sysconf("SC_PAGE_SIZE") // 1024
            children: dict[int, list[int]] = {}
            for pid, parent in parents.items():
                children.setdefault(parent, []).append(pid)
            below, waiting = [], list(children.get(me, []))
            while waiting:
                pid = waiting.pop()
                below.append(pid)
                waiting.extend(children.get(pid, []))
            self.peak_kib = max(self.peak_kib, sum(rss[pid] for pid in below))


class Measured(NamedTuple):
    seconds: float
    code: int  # exit code
    peak_kib: int  # its own peak RSS, no other process's (wait4)
    cpu_s: float  # user and system time, with the worker processes it waited for
    output: str
    system_s: float = 0.0  # the kernel's part of cpu_s (ru_stime): system calls, page faults, file systems


def timed(command: list[str], cwd: Path, show: bool = False) -> tuple[float, int]:
    """(seconds, exit code) of a command; its output goes to stderr when it fails or `show` is set."""
    run = measured(command, cwd, show)
    return run.seconds, run.code


def measured(command: list[str], cwd: Path, show: bool = False, env: dict[str, str] | None = None) -> Measured:
    """One command, measured; its output goes to stderr when it fails or `show` is set."""
    with tempfile.TemporaryFile() as captured:
        started = time.monotonic()
        process = subprocess.Popen(command, cwd=cwd, env=env, stdout=captured, stderr=subprocess.STDOUT)
        _, status, usage = os.wait4(process.pid, 0)
        seconds = time.monotonic() - started
        process.returncode = code = os.waitstatus_to_exitcode(status)
        captured.seek(0)
        output = captured.read().decode("utf-8", "replace")
    if show or code not in (0, 1):
        sys.stderr.write("# " + output.strip().replace("\n", "\n# ") + "\n")
    return Measured(seconds, code, usage.ru_maxrss, usage.ru_utime + usage.ru_stime, output, usage.ru_stime)


def measured_together(commands: list[list[str]], cwd: Path) -> tuple[float, bool, int]:
    """(seconds until the last ends, all exited 0, the largest peak RSS in KiB) of commands run side by side."""
    started = time.monotonic()
    processes = [subprocess.Popen(c, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL) for c in commands]
    results = [os.wait4(process.pid, 0) for process in processes]
    for process, (_, status, _) in zip(processes, results, strict=True):
        process.returncode = os.waitstatus_to_exitcode(status)
    seconds = time.monotonic() - started
    return seconds, all(process.returncode == 0 for process in processes), max(usage.ru_maxrss for *_, usage in results)


def hugo_segments(site: Path) -> list[str]:
    """The segments hugo.toml defines, in its order."""
    return list(tomllib.loads((site / "hugo.toml").read_text(encoding="utf-8")).get("segments", {}))


# What ingest publishes, each a symlink into the current generation (publish.PUBLISHED), and its exports tree.
INGEST_TREES = (
    Path("data"),
    Path("site") / "static" / "reports",
    Path("site") / "static" / "runs",
    Path(publish.DIR) / publish.CURRENT / publish.FOLDERS["exports"],  # runs' exports, read by Hugo (runstore.py)
)


def file_count(folder: Path) -> int:
    """Files under a folder, through a symlink to it (ingest's trees are links into a generation)."""
    return sum(len(files) for _, _, files in os.walk(folder, followlinks=True)) if folder.exists() else 0


def folder_bytes(folder: Path) -> int:
    """Bytes of every file under a folder (a hard link counted once per name, as du -b --count-links)."""
    return sum(path.stat().st_size for path in folder.rglob("*") if path.is_file())


# The precompressed copies a static server may send for a file (perfwiki.precompress writes them), best first:
# nginx's brotli_static and gzip_static, Caddy's `precompressed br gzip`.
PRECOMPRESSED = (("br", ".br"), ("gzip", ".gz"))


def accepted_encodings(header: str) -> set[str]:
    """The content codings an Accept-Encoding header accepts (RFC 9110 12.5.3): listed with a weight
    above 0, or covered by a `*` above 0 and not listed at 0."""
    weights: dict[str, float] = {}
    for item in header.split(","):
        name, *parameters = (part.strip() for part in item.split(";"))
        if not name:
            continue
        weight = 1.0
        for parameter in parameters:
            key, _, value = parameter.partition("=")
            if key.strip().lower() == "q":
                try:
                    weight = float(value)
                except ValueError:
                    weight = 0.0
        weights[name.lower()] = weight
    anything = weights.get("*", 0.0)
    return {coding for coding, _ in PRECOMPRESSED if weights.get(coding, anything) > 0}


def precompressed(path: Path, accept_encoding: str) -> tuple[Path, str | None]:
    """The file to send for `path` and its Content-Encoding: its .br or .gz copy when the client accepts
    that coding and the copy exists, else the file itself (None)."""
    accepted = accepted_encodings(accept_encoding)
    for coding, suffix in PRECOMPRESSED:
        copy = path.with_name(path.name + suffix)
        if coding in accepted and copy.is_file():
            return copy, coding
    return path, None


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format, *args):  # noqa: A002 - stdlib signature
        pass

    def send_head(self):
        """A file with a precompressed copy the browser accepts is sent as that copy, with its coding in
        Content-Encoding, as a production server sends a built site (nginx gzip_static/brotli_static)."""
        path = Path(self.translate_path(self.path))
        if urllib.parse.urlsplit(self.path).path.endswith("/") or not path.is_file():
            return super().send_head()
        chosen, coding = precompressed(path, self.headers.get("Accept-Encoding", ""))
        if coding is None:
            return super().send_head()
        file = chosen.open("rb")
        stat = os.fstat(file.fileno())
        self.send_response(200)
        self.send_header("Content-Type", self.guess_type(str(path)))
        self.send_header("Content-Encoding", coding)
        self.send_header("Content-Length", str(stat.st_size))
        self.send_header("Vary", "Accept-Encoding")
        self.send_header("Last-Modified", self.date_time_string(int(stat.st_mtime)))
        self.end_headers()
        return file

    def send_error(self, code, message=None, explain=None):
        """A missing address answers 404 with the site's own 404 page, as a wiki's web server is set
        up to (nginx `error_page 404`, GitHub Pages, S3 websites): the nearest 404.html above it,
        so a site built under a sub-path (/bench/404.html) is served as it would be."""
        page = self._not_found_page() if code == 404 else None
        if page is None:
            super().send_error(code, message, explain)
            return
        body = page.read_bytes()
        self.send_response(404, message)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def _not_found_page(self) -> Path | None:
        root = Path(self.directory).resolve()
        folder = Path(self.translate_path(self.path)).resolve()
        while folder != root and root in folder.parents:
            folder = folder.parent
            if (folder / "404.html").is_file():
                return folder / "404.html"
        return root / "404.html" if (root / "404.html").is_file() else None


@contextlib.contextmanager
def serve(folder: Path) -> Iterator[int]:
    """A static HTTP server for a built site on 127.0.0.1, as a wiki's web server would be (precompressed
    copies sent to a browser that accepts them); yields its port."""
    handler = functools.partial(_QuietHandler, directory=str(folder))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield server.server_address[1]
    finally:
        server.shutdown()
        server.server_close()


def parse_pair(root: Path, work: Path, runs: int = 300) -> tuple[Path, Path]:
    """`runs` copies of one real fio 3.33 run as text and as JSON (the same run, printed both ways)."""
    fixtures = root / "tests" / "fixtures" / "fio"
    text, document = ((fixtures / f"fio-3.33-randrw-numjobs2.{suffix}").read_bytes() for suffix in ("txt", "json"))
    folders = work / "parse-text", work / "parse-json"
    for folder, data, suffix in zip(folders, (text, document), ("txt", "json"), strict=True):
        folder.mkdir(parents=True, exist_ok=True)
        for number in range(runs):
            (folder / f"run-{number:04d}.{suffix}").write_bytes(data)
    return folders


def parse_versus_json(perfwiki: list[str], root: Path, work: Path, pairs: int = 5, parsed: str = "txt") -> float:
    """Median over interleaved pairs of (perfwiki parse of the runs as text, or with `parsed="json"` as
    fio's JSON) / (json.load of the same runs' JSON), each a whole process."""
    texts, documents = parse_pair(root, work)
    load = "import json, sys\nfor name in sys.argv[1:]:\n    with open(name) as f: json.load(f)"
    ratios = []
    for _ in range(pairs):
        inputs = texts if parsed == "txt" else documents
        parse, _ = timed(perfwiki + ["parse", *map(str, sorted(inputs.iterdir()))], work)
        loaded, _ = timed([sys.executable, "-c", load, *map(str, sorted(documents.iterdir()))], work)
        ratios.append(parse / loaded)
    return statistics.median(ratios)


def start_up_seconds(root: Path, work: Path, samples: int = 21) -> float:
    """Median wall time of the console script `perfwiki parse` on one small real file."""
    console = Path(sys.executable).with_name("perfwiki")
    command = [str(console)] if console.exists() else [sys.executable, "-m", "perfwiki.cli"]
    small = root / "tests" / "fixtures" / "fio" / "fio-3.33-two-groups.txt"
    return statistics.median(timed(command + ["parse", str(small)], work)[0] for _ in range(samples))


def live_heap_mib(gctrace: str) -> float | None:
    """The largest heap a Go garbage collection left alive (GODEBUG=gctrace=1: "before->after->live MB").

    What the build needs at once; the peak RSS above it is the collector's headroom (GOGC,
    GOMEMLIMIT) and memory not yet handed back. The runtime's "MB" are 2**20 bytes (it prints
    bytes >> 20), so they are MiB as they stand.
    """
    live = [int(found) for found in re.findall(r"\d+->\d+->(\d+) MB", gctrace)]
    return float(max(live)) if live else None


def hugo_pages(output: str) -> int | None:
    """The page count from Hugo's build summary ("Pages  │ 650")."""
    match = re.search(r"^\s*Pages\s*[│|]\s*(\d+)", output, re.M)
    return int(match.group(1)) if match else None


# Issue 34's bounds on a two-core machine (20,000 and 100,000 runs); one_change_s's is for 100,000.
TARGETS = {
    "files_per_run": 1.5,
    "kernel_ms_per_run": 0.3,
    "ingest_cpu_ms_per_run": 1.0,
    "ingest_wall_ms_per_run": 0.6,
    "one_change_s": 1.0,
    "data_kib_per_run": 4,
    "hugo_kib_per_run": 60,
    "hugo_ms_per_page": 1.5,
    "parse_fio_json_ratio": 4,
    "parse_fio_text_ratio": 3,
    "cache_kib_per_run": 1,
}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--root", default=".", help="the perfwiki checkout")
    parser.add_argument("--runs", type=int, default=10_000)
    parser.add_argument("--environments", type=int, help="default: one per 50 runs")
    parser.add_argument("--reports", type=int, help="default: one per 200 runs")
    parser.add_argument("--hugo", required=True, help="the pinned Hugo binary")
    parser.add_argument("--keep", help="build the synthetic wiki here and keep it (default: a temporary folder)")
    parser.add_argument(
        "--page-loads",
        type=int,
        default=3,
        help="page loads in Chromium per page-speed figure, the median printed (0: those figures n/a)",
    )
    parser.add_argument(
        "--one-file-runs",
        type=int,
        default=10_000,
        help="runs in the one raw file whose ingest's peak memory is measured (0: not measured); "
        "10,000 by default to keep `make perf` short, the bound is for 100,000",
    )
    args = parser.parse_args(argv)
    environments = args.environments or max(1, args.runs // 50)
    reports = args.reports or max(1, args.runs // 200)
    root = Path(args.root).resolve()
    perfwiki = [sys.executable, "-m", "perfwiki.cli"]
    hugo = str(Path(args.hugo).resolve())
    with tempfile.TemporaryDirectory(prefix="perfwiki-perf-") as work:
        site = Path(args.keep).resolve() if args.keep else Path(work) / "site"
        site.mkdir(parents=True, exist_ok=True)
        runs, raw_bytes = build_site(root, site, args.runs, environments, reports)
        print(f"# {runs} runs, {environments} environments, {reports} reports", file=sys.stderr)
        # The synthetic wiki on disk first: its writeback is no part of the ingest that follows.
        os.sync()
        cold_ingest = measured(perfwiki + ["ingest", "--root", str(site)], site, show=True)
        cold, cold_cpu = cold_ingest.seconds, cold_ingest.cpu_s
        files = sum(file_count(site / tree) for tree in INGEST_TREES)
        cache_kib = folder_bytes(site / ".perfwiki-cache") / 1024
        print(
            f"# cold ingest wrote {files} files in data/ and the static trees ({file_count(site / 'data')} in data/)"
            f" and a cache of {file_count(site / '.perfwiki-cache')} files, {cache_kib / 1024:.1f} MiB;"
            f" {cold_ingest.system_s:.2f} s of its {cold_cpu:.2f} s CPU in the kernel",
            file=sys.stderr,
        )
        warm, _ = timed(perfwiki + ["ingest", "--root", str(site)], site)
        # One report changed, twice: in what its own pages alone show (a comment in a raw file: the site
        # index stays as it was), then in its results (a raw file's runs twice over: the index is made again).
        changed = next((site / "content" / "reports").glob("*/raw/*/*.md"))
        raw = changed.read_bytes()
        changed.write_bytes(raw + b"\n<!-- changed -->\n")
        one_change_text, _ = timed(perfwiki + ["ingest", "--root", str(site)], site)
        changed.write_bytes(raw + b"\n" + raw)
        one_change, _ = timed(perfwiki + ["ingest", "--root", str(site)], site)
        limits = (f"{name}={os.environ.get(name, 'unset')}" for name in ("GOMEMLIMIT", "HUGO_MEMORYLIMIT"))
        print(f"# Hugo runs with {' '.join(limits)}", file=sys.stderr)
        traced = {**os.environ, "GODEBUG": ",".join(filter(None, [os.environ.get("GODEBUG"), "gctrace=1"]))}
        build, code, peak_kib, _, summary, _ = measured([hugo, "-d", str(site / "public")], site, env=traced)
        pages = hugo_pages(summary)
        parts = [[hugo, "-d", str(site / f"public-{name}"), "--renderSegments", name] for name in hugo_segments(site)]
        segmented, segments_built, segment_peak_kib = measured_together(parts, site)
        for name in hugo_segments(site):
            shutil.rmtree(site / f"public-{name}", ignore_errors=True)
        search, _ = timed([sys.executable, "-m", "pagefind_bin", "--site", str(site / "public")], site)
        reports_html = list((site / "public" / "reports").glob("*/index.html"))
        largest = max(reports_html, key=lambda page: page.stat().st_size) if reports_html else None
        # The largest page of any kind (a raw output's, a run's): none may freeze a phone (issue 32: 2 MB).
        every_page = [page.stat().st_size for page in (site / "public").rglob("*.html")]
        built = code == 0
        figures = {
            "ingest_cold_s": cold,
            "ingest_cold_ms_per_run": 1000 * cold / runs,
            # Less noisy than the time on a shared machine, and what more cores would divide.
            "ingest_cold_cpu_ms_per_run": 1000 * cold_cpu / runs,
            "ingest_warm_s": warm,
            "ingest_one_change_s": one_change,
            "ingest_one_change_text_s": one_change_text,
            "hugo_build_s": build if built else None,
            "hugo_pages": pages,
            # Hugo's count is of what it rendered: a run page's JSON and CSV outputs count too. Per page
            # as before they were outputs (a run page's index.json and index.csv were ingest's files).
            "hugo_ms_per_page": 1000 * build / (pages - 2 * runs) if built and pages and pages > 2 * runs else None,
            "hugo_peak_rss_mib": peak_kib / 1024,
            "hugo_peak_rss_kib_per_run": peak_kib / runs,
            "hugo_live_heap_mib": live_heap_mib(summary),
            "hugo_segments_parallel_s": segmented if segments_built else None,
            "hugo_segment_peak_rss_mib": segment_peak_kib / 1024,
            "data_kib_per_run": folder_bytes(site / "data") / 1024 / runs,
            "public_kib_per_run": folder_bytes(site / "public") / 1024 / runs if built else None,
            "search_index_s": search if built else None,
            "synthetic_largest_report_html_kib": largest.stat().st_size / 1024 if largest else None,
            "synthetic_largest_page_html_kib": max(every_page) / 1024 if every_page else None,
            "ingest_mb_per_s": raw_bytes / 1e6 / cold if cold else None,
            "parse_vs_json_load": parse_versus_json(perfwiki, root, Path(work)),
            "parse_start_up_s": start_up_seconds(root, Path(work)),
        }
        # Issue 34's names for what ingest and Hugo cost, per run (some repeat a figure above under its name).
        figures |= {
            "files_per_run": files / runs,
            "kernel_ms_per_run": 1000 * cold_ingest.system_s / runs,
            "ingest_cpu_ms_per_run": figures["ingest_cold_cpu_ms_per_run"],
            "ingest_wall_ms_per_run": figures["ingest_cold_ms_per_run"],
            "one_change_s": one_change,
            "hugo_kib_per_run": figures["hugo_peak_rss_kib_per_run"],
            "parse_fio_json_ratio": parse_versus_json(perfwiki, root, Path(work), parsed="json"),
            "parse_fio_text_ratio": figures["parse_vs_json_load"],
            "cache_kib_per_run": cache_kib / runs,
        }
        if args.one_file_runs:
            figures.update(one_file_figures(root, Path(work) / "one-file", args.one_file_runs, perfwiki, hugo))
        for name, value in figures.items():
            if name in TARGETS and value is not None:
                verdict = "pass" if value <= TARGETS[name] else "FAIL"
                print(f"# {name}: target <= {TARGETS[name]:g}: {verdict}")
            print(f"{name} {'n/a' if value is None else f'{value:.2f}'}", flush=True)
        # Here, not at the top: perf_browser builds its sites with this module's build_site.
        from .perf_browser import report

        report(root, hugo, Path(work) / "pages", args.page_loads, also=[site / "public"])
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())

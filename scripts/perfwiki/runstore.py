"""A report's runs as a few files, not as files a run: its page documents and its exports in chunks.

A run's page document (what its page shows) and its exports (its index.json, the whole run
schema, and its index.csv) are written into files of about CHUNK_CHARS characters each, one
after another:

- `data/runs/<report>/<n>.json`: a JSON list of page documents, one a line;
- `exports/<report>/<n>.txt` in the generation (publish.py): each run's JSON then its CSV, as published.

Each run's entry in the report's `run_index` says where its own are: `doc` is [n, start, length]
and `export` [n, start, JSON length, CSV length], in characters (code points), which is what
Hugo's `substr` counts. The run's page reads its document with one `substr` of its chunk, and
its index.json and index.csv are the JSON and CSV output formats of that page, cut from the
exports chunk the same way (layouts/runs/page.json.json, page.csv.csv); the chunks themselves
are not published.

Why: a cold ingest of 2,000 runs made 4.5 files and 1.5 folders a run (its page document, its
two exports, their folder), and on ext4 the kernel's side of creating them was a third of the
ingest's time. Chunks of some 64 K characters are a page's worth of reading for Hugo, a dozen
runs each.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from . import datafile, publish

# The characters a chunk holds before the next run starts another: a run page reads its chunk
# whole (and Hugo's substr decodes it to runes), so large chunks cost every page; small ones, files.
CHUNK_CHARS = 64 * 1024


class Chunks:
    """Texts packed into numbered chunks as they come; each `add` says where its text landed.

    `write(n, text)` is called with each full chunk (and the last when closed), so a report of
    100,000 runs never holds more than one chunk of them.
    """

    def __init__(self, write: Callable[[int, str], None], opening: str = "", separator: str = "", closing: str = ""):
        self.write, self.opening, self.separator, self.closing = write, opening, separator, closing
        self.number, self.parts, self.size = 0, [], 0

    def add(self, *texts: str) -> list[int]:
        """[chunk, start, length of each text]: the texts are stored one after the other."""
        if self.parts and self.size >= CHUNK_CHARS:
            self.flush()
        if self.parts:
            self.parts.append(self.separator)
            self.size += len(self.separator)
        else:
            self.parts.append(self.opening)
            self.size = len(self.opening)
        start = self.size
        for text in texts:
            self.parts.append(text)
            self.size += len(text)
        return [self.number, start, *map(len, texts)]

    def flush(self) -> None:
        if self.parts:
            self.write(self.number, "".join(self.parts) + self.closing)
            self.number, self.parts, self.size = self.number + 1, [], 0

    def __enter__(self) -> Chunks:
        return self

    def __exit__(self, kind: object, *_: object) -> None:
        if kind is None:
            self.flush()


def page_chunks(write: Callable[[int, str], None]) -> Chunks:
    """Page documents as one JSON list a chunk, a document a line, so the chunk is a document too."""
    return Chunks(write, "[\n", ",\n", "\n]\n")


def page_chunk_name(report: str, number: int) -> str:
    """A page documents chunk's name under data/."""
    return datafile.name(f"runs/{report}/{number}")


def exports_chunk_name(report: str, number: int) -> str:
    """An exports chunk's name in the generation's exports tree."""
    return f"{report}/{number}.txt"


class Reader:
    """A report's runs read back from its chunks, each chunk read once."""

    def __init__(self, root: Path, report: str) -> None:
        self.root, self.report = root, report
        self.entries: list[dict[str, Any]] = datafile.load(root / "data" / datafile.name(f"reports/{report}"))[
            "run_index"
        ]
        self.by_id = {entry["id"]: entry for entry in self.entries}
        self._chunks: dict[Path, str] = {}

    def _chunk(self, path: Path) -> str:
        if path not in self._chunks:
            self._chunks = {path: path.read_text(encoding="utf-8")}  # a report is read in order: one at a time
        return self._chunks[path]

    def entry(self, run_id: str) -> dict[str, Any]:
        if run_id not in self.by_id:
            raise KeyError(f"no run {run_id!r} in report {self.report!r}")
        return self.by_id[run_id]

    def page(self, entry: dict[str, Any]) -> dict[str, Any]:
        number, start, length = entry["doc"]
        chunk = self._chunk(self.root / "data" / page_chunk_name(self.report, number))
        return datafile.loads(chunk[start : start + length])

    def exports(self, entry: dict[str, Any]) -> tuple[str, str]:
        number, start, json_length, csv_length = entry["export"]
        exported = publish.folder(self.root) / publish.CURRENT / publish.FOLDERS["exports"]
        chunk = self._chunk(exported / exports_chunk_name(self.report, number))
        middle = start + json_length
        return chunk[start:middle], chunk[middle : middle + csv_length]


def run_page(root: Path, report: str, run_id: str) -> dict[str, Any]:
    """A run's page document, as its page reads it."""
    reader = Reader(root, report)
    return reader.page(reader.entry(run_id))


def run_pages(root: Path, report: str) -> Iterator[tuple[str, dict[str, Any]]]:
    """(id, page document) of every run of a report, in its order."""
    reader = Reader(root, report)
    for entry in reader.entries:
        yield entry["id"], reader.page(entry)


def run_exports(root: Path, report: str, run_id: str) -> tuple[str, str]:
    """A run's index.json and index.csv, as its page publishes them."""
    reader = Reader(root, report)
    return reader.exports(reader.entry(run_id))


def run_json(root: Path, report: str, run_id: str) -> dict[str, Any]:
    """A run's index.json, read."""
    return datafile.loads(run_exports(root, report, run_id)[0])


def runs(root: Path, report: str) -> list[dict[str, Any]]:
    """Every run of a report in its order, as its index.json has it (the run schema)."""
    reader = Reader(root, report)
    return [datafile.loads(reader.exports(entry)[0]) for entry in reader.entries]


def reports(root: Path) -> list[str]:
    """Every report in data/, by slug."""
    return sorted(path.stem for path in (root / "data" / "reports").glob("*" + datafile.SUFFIX))

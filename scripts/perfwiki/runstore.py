"""A report's runs as a few files, not as files a run: its page documents and its exports in chunks.

A run's page document (what its page shows, pages/run.py) and its exports (its index.json, the
whole run schema, and its index.csv) are written into files of a few tens of K characters each,
one after another, every text a whole number of lines:

- `data/runs/<report>/<n>.jsonl`: the page documents, one a line (JSON Lines);
- `exports/<report>/<n>.txt` in the generation (publish.py): each run's JSON (one line) then its
  CSV, as published.

Each run's entry in the report's `run_index` says where its own are, by line: `doc` is [n, line]
and `export` [n, first line, the JSON's lines, the CSV's lines]. A run's page splits its chunk into
lines and reads its own (layouts/_partials/run-doc.html); its index.json and index.csv are the
JSON and CSV output formats of that page, joined from the exports chunk's lines the same way
(run-export.html), byte for byte the files ingest used to write. The chunks themselves are not
published. Lines rather than character offsets: Hugo's substr decodes the whole chunk to runes for
every cut (1.9 s more CPU for a 2,000-run build); a split is one scan.

Why: a cold ingest of 2,000 runs wrote 3.5 files and a folder a run, and on ext4 the kernel's side
of creating them was a third of its CPU time. The output formats cost Hugo, at 20,000 runs, 7% more
peak memory and a tenth more CPU (issue 34's note).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from . import datafile, publish

# The characters a chunk holds before the next run starts another: a run page reads and splits its
# chunk whole, so large chunks cost every page (at 20,000 runs, exports chunks of 64 K characters took
# Hugo's peak memory from 1.5 to 1.96 GB, the garbage of reading them); small ones, files.
PAGE_CHUNK_CHARS = 32 * 1024
EXPORT_CHUNK_CHARS = 16 * 1024


class Chunks:
    """Texts packed into numbered chunks as they come; each `add` says where its texts landed.

    `write(n, text)` is called with each full chunk (and the last when closed), so a report of
    100,000 runs never holds more than one chunk of them. Every text ends with a newline: a chunk is
    read back by its lines.
    """

    def __init__(self, write: Callable[[int, str], None], limit: int):
        self.write, self.limit = write, limit
        self.number, self.parts, self.size, self.lines = 0, [], 0, 0

    def add(self, *texts: str) -> list[int]:
        """[chunk, first line, lines of each text]: the texts are stored one after the other."""
        if self.parts and self.size >= self.limit:
            self.flush()
        place = [self.number, self.lines]
        for text in texts:
            if not text.endswith("\n"):
                raise ValueError(f"a chunk's text must end with a newline: {text[-40:]!r}")
            count = text.count("\n")
            self.parts.append(text)
            self.size += len(text)
            self.lines += count
            place.append(count)
        return place

    def flush(self) -> None:
        if self.parts:
            self.write(self.number, "".join(self.parts))
            self.number, self.parts, self.size, self.lines = self.number + 1, [], 0, 0

    def __enter__(self) -> Chunks:
        return self

    def __exit__(self, kind: object, *_: object) -> None:
        if kind is None:
            self.flush()


def page_chunk_name(report: str, number: int) -> str:
    """A page documents chunk's name under data/."""
    return f"runs/{report}/{number}.jsonl"


def exports_chunk_name(report: str, number: int) -> str:
    """An exports chunk's name in the generation's exports tree."""
    return f"{report}/{number}.txt"


def _lines(chunk: list[str], first: int, count: int) -> str:
    return "".join(chunk[first : first + count])


class Reader:
    """A report's runs read back from its chunks, each chunk read once."""

    def __init__(self, root: Path, report: str) -> None:
        self.root, self.report = root, report
        self.entries: list[dict[str, Any]] = datafile.load(root / "data" / datafile.name(f"reports/{report}"))[
            "run_index"
        ]
        self.by_id = {entry["id"]: entry for entry in self.entries}
        self._chunks: dict[Path, list[str]] = {}

    def _chunk(self, path: Path) -> list[str]:
        """The chunk's lines, each with its newline, cut at "\n" only, as Chunks counts them and Hugo's
        split cuts them (str.splitlines would cut at a U+2028 in a run's title too). A report is read
        in order: one chunk kept at a time."""
        if path not in self._chunks:
            with path.open(encoding="utf-8", newline="\n") as file:  # a "\r" stays within its line
                self._chunks = {path: list(file)}
        return self._chunks[path]

    def entry(self, run_id: str) -> dict[str, Any]:
        if run_id not in self.by_id:
            raise KeyError(f"no run {run_id!r} in report {self.report!r}")
        return self.by_id[run_id]

    def page(self, entry: dict[str, Any]) -> dict[str, Any]:
        number, line = entry["doc"][:2]
        return datafile.loads(self._chunk(self.root / "data" / page_chunk_name(self.report, number))[line])

    def exports(self, entry: dict[str, Any]) -> tuple[str, str]:
        number, first, json_lines, csv_lines = entry["export"]
        exported = publish.folder(self.root) / publish.CURRENT / publish.FOLDERS["exports"]
        chunk = self._chunk(exported / exports_chunk_name(self.report, number))
        return _lines(chunk, first, json_lines), _lines(chunk, first + json_lines, csv_lines)


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

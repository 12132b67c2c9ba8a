"""What a raw file's page shows of a large file: its first and last lines and every line a run or check cites.

The page renders every line it is given as a numbered, addressable line (layouts/raw/page.html): some
100 bytes of markup a line beside its text, so a 200 MB log made a 425 MB page that froze the browser.
A file within the limits below is shown whole. Any other is shown as its first and last
RAW_EDGE_LINES lines and every cited line with a little context, the rest as gaps that say how many
lines and bytes they leave out and link to the download, which is always the whole published file.

No page holds more than RAW_PAGE_BUDGET bytes of lines, so none passes 2 MB of HTML: a line longer
than RAW_LINE_MAX_CHARS shows its start and says how much more it has, and when the cited lines do
not all fit beside the file's start and end (a session of thousands of runs, where every line is a
run's) the rest go on further pages of the file (`<page>/page/2/`, ...), in file order, each filled
to the budget. Every cited line is on exactly one page, and each run page links to that one.

The file is read a line at a time, twice (the plan, then the text): it is never held whole, and the
pages are handed on one at a time.
"""

from __future__ import annotations

import bisect
import os
from collections import deque
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..decode import decode
from ..units import format_bytes

# The first and the last lines every capped page shows (issue 32): the banner and first commands,
# and how the session ended.
RAW_EDGE_LINES = 2_000
# Lines shown around each cited range, so a run's label and prompt stay in view.
RAW_CONTEXT_LINES = 3
# A line past this many characters shows its start and how many bytes more it has: a progress meter
# rewritten with \r, or a JSON document on one line, can be megabytes.
RAW_LINE_MAX_CHARS = 8_000
# The bytes of line markup one page may hold (layouts/raw/page.html's spans, escaped text, gap notes):
# with the header, the runs listed and the list of pages, a page stays under 2 MB of HTML.
RAW_PAGE_BUDGET = 3 * 2**19  # 1.5 MiB
# The start and the end each take at most this much of the first page, so that page has room left
# for cited lines even when the edges are long lines.
RAW_EDGE_BUDGET = RAW_PAGE_BUDGET * 3 // 10
# Runs a page lists by name above its lines; past that it says how many more it shows.
RAW_RUNS_LISTED = 300

# What the page's markup costs beside a line's text: <span class="raw__line" id="L12"><a
# class="raw__number" href="#L12" aria-label="line 12">12</a>...</span> is 94 bytes and the number
# four times; a gap's note and a cut line's note are a sentence with a link.
_LINE_MARKUP = 94
_GAP_BYTES = 400
_CUT_BYTES = 200
# The longest run the start or the end of a capped page takes in whole when it cuts through it.
_STRADDLING = RAW_PAGE_BUDGET // 16
_BOMS = (b"\xff\xfe", b"\xfe\xff", b"\xef\xbb\xbf")


def _file_lines(path: str) -> Iterator[tuple[bytes, int]]:
    """(line without its end, its bytes on disk with its end) of the published file, numbered as the page numbers
    them (split at newlines). UTF-8 files (nearly all) are read a line at a time; a UTF-16 file or one with a BOM
    is decoded whole, as extraction decodes it, and measured as UTF-8."""
    with open(path, "rb") as file:
        head = file.read(4096)
        file.seek(0)
        if head.startswith(_BOMS) or (0 in head and len(head) >= 4):
            text = decode(file.read()).removesuffix("\n")
            for line in text.split("\n"):
                data = line.removesuffix("\r").encode("utf-8")
                yield data, len(data) + 1
            return
        for raw in file:
            yield raw.rstrip(b"\n").removesuffix(b"\r"), len(raw)


def shown(data: bytes) -> tuple[str, int]:
    """A line as the page shows it, and the bytes of it the page leaves out (0 unless it is over RAW_LINE_MAX_CHARS)."""
    text = data.decode("utf-8", "replace")
    if len(text) <= RAW_LINE_MAX_CHARS:
        return text, 0
    kept = text[:RAW_LINE_MAX_CHARS]
    return kept, max(0, len(data) - len(kept.encode("utf-8")))


def cost(number: int, data: bytes) -> int:
    """The bytes of HTML line `number` takes on the page: its markup, and its text as shown, escaped."""
    extra = 0
    if len(data) > RAW_LINE_MAX_CHARS:
        text, left_out = shown(data)
        data, extra = text.encode("utf-8"), _CUT_BYTES if left_out else 0
    escaped = 4 * (data.count(b"&") + data.count(b'"') + data.count(b"'")) + 3 * (data.count(b"<") + data.count(b">"))
    return _LINE_MARKUP + 4 * len(str(number)) + len(data) + escaped + extra


@dataclass(frozen=True)
class Cited:
    """One run's lines in the file: its output (first, last) and the lines its checks point at."""

    first: int
    last: int
    checks: tuple[int, ...] = ()

    def lines(self) -> Iterator[tuple[int, int]]:
        yield self.first, self.last
        for line in self.checks:
            yield line, line


def merged(ranges: Iterable[tuple[int, int]], context: int = RAW_CONTEXT_LINES) -> list[tuple[int, int]]:
    """The ranges widened by `context` lines each side (from line 1), merged where they touch, in order."""
    found: list[tuple[int, int]] = []
    for first, last in sorted((max(1, a - context), b + context) for a, b in ranges):
        if found and first <= found[-1][1] + 1:
            found[-1] = (found[-1][0], max(found[-1][1], last))
        else:
            found.append((first, last))
    return found


def apart(ranges: Iterable[tuple[int, int]], context: int = RAW_CONTEXT_LINES) -> list[tuple[int, int]]:
    """One range a run (or a check's line), in order and apart, so that a page can end between two runs
    rather than inside one: each keeps its own lines (a range inside another is the other's), and is
    widened by `context` lines each side into lines no other range holds."""
    own: list[tuple[int, int]] = []
    for first, last in sorted(ranges):
        first = max(first, own[-1][1] + 1) if own else max(first, 1)
        if first <= last:
            own.append((first, last))
    found: list[tuple[int, int]] = []
    for index, (first, last) in enumerate(own):
        before = found[-1][1] + 1 if found else 1
        after = own[index + 1][0] - 1 if index + 1 < len(own) else last + context
        found.append((max(first - context, before), min(last + context, after)))
    return found


@dataclass
class Plan:
    """Which lines each page shows: page 1 the file's start, end and the first cited lines that fit, then
    further pages the other cited lines in file order. Ranges are (first, last) lines, 1-based, inclusive."""

    lines: int = 0
    bytes: int = 0
    pages: list[list[tuple[int, int]]] = field(default_factory=lambda: [[]])
    # Every shown range as (first, last, page number), in file order: which page holds a line.
    located: list[tuple[int, int, int]] = field(default_factory=list)

    def page_of(self, line: int) -> int:
        """The page that shows `line` (1 when no page does: a line past the end)."""
        index = bisect.bisect_right(self.located, (line, float("inf"), 0)) - 1
        if index >= 0 and self.located[index][0] <= line <= self.located[index][1]:
            return self.located[index][2]
        return 1

    def pages_within(self, first: int, last: int, page: int) -> list[int]:
        """The lowest and highest other page that shows a line of first..last ([] when none does)."""
        index = max(0, bisect.bisect_right(self.located, (first, float("inf"), 0)) - 1)
        found = []
        while index < len(self.located) and self.located[index][0] <= last:
            start, end, other = self.located[index]
            if end >= first and other != page:
                found.append(other)
            index += 1
        return [min(found), max(found)] if found else []


def plan(path: str, cited: Sequence[Cited]) -> Plan:
    """Read the file once for its size and the cost of the lines that may be shown, and lay them out in pages."""
    wanted = apart(range_ for run in cited for range_ in run.lines())
    piece_max = RAW_PAGE_BUDGET - _GAP_BYTES
    pieces: list[list[int]] = []  # [first, last, cost]: a cited range, or part of one too long for a page
    head_end = head_cost = 0
    tail: deque[int] = deque(maxlen=RAW_EDGE_LINES)  # the costs of the last lines read
    found = Plan()
    at = 0  # the wanted range at or after the line being read
    for number, (data, size) in enumerate(_file_lines(path), start=1):
        found.lines, found.bytes = number, found.bytes + size
        line_cost = cost(number, data)
        tail.append(line_cost)
        if head_end == number - 1 and number <= RAW_EDGE_LINES and head_cost + line_cost <= RAW_EDGE_BUDGET:
            head_end, head_cost = number, head_cost + line_cost
        while at < len(wanted) and wanted[at][1] < number:
            at += 1
        if at < len(wanted) and wanted[at][0] <= number:
            last = pieces[-1] if pieces else None
            # A range longer than a page goes on as many as it fills.
            if last and number > wanted[at][0] and last[2] + line_cost <= piece_max:
                last[1], last[2] = number, last[2] + line_cost
            else:
                pieces.append([number, number, line_cost + _GAP_BYTES])
    tail_start, tail_cost = found.lines + 1, 0
    for line_cost in reversed(tail):
        if tail_start <= head_end + 1 or tail_cost + line_cost > RAW_EDGE_BUDGET:
            break
        tail_start, tail_cost = tail_start - 1, tail_cost + line_cost
    # A run that the start or the end cuts through is shown whole with it, so that it is not split
    # between two pages; unless it is long, and the first page would be too.
    for first, last, piece_cost in pieces:
        if first <= head_end < last and piece_cost <= _STRADDLING and last < tail_start:
            head_end, head_cost = last, head_cost + piece_cost
    for first, last, piece_cost in reversed(pieces):
        if first < tail_start <= last and piece_cost <= _STRADDLING and first > head_end:
            tail_start, tail_cost = first, tail_cost + piece_cost
    # Cited lines the start or the end already show are not shown again; a piece's cost stays what it
    # was whole, an upper bound.
    room = RAW_PAGE_BUDGET - head_cost - tail_cost - 2 * _GAP_BYTES
    for first, last, piece_cost in pieces:
        first, last = max(first, head_end + 1), min(last, tail_start - 1)
        if first > last:
            continue
        if piece_cost > room:  # in file order: once a range goes on the next page, so does every later one
            found.pages.append([])
            room = RAW_PAGE_BUDGET
        found.pages[-1].append((first, last))
        room -= piece_cost
    if head_end:
        found.pages[0].insert(0, (1, head_end))
    if tail_start <= found.lines:
        found.pages[0].append((tail_start, found.lines))
    found.pages = [merged(ranges, context=0) for ranges in found.pages]
    found.located = sorted((first, last, page) for page, ranges in enumerate(found.pages, 1) for first, last in ranges)
    return found


def whole(path: str, cited: Sequence[Cited]) -> bool:
    """Whether the page shows the file whole: no more lines than the start and end would show, no line cut,
    within one page's budget, and few enough runs to list them all."""
    if len(cited) > RAW_RUNS_LISTED or os.path.getsize(path) > RAW_PAGE_BUDGET:
        return False
    total = 0
    for number, (data, _) in enumerate(_file_lines(path), start=1):
        if number > 2 * RAW_EDGE_LINES or (len(data) > RAW_LINE_MAX_CHARS and shown(data)[1]):
            return False
        total += cost(number, data)
        if total > RAW_PAGE_BUDGET:
            return False
    return True


@dataclass
class View:
    """A capped file's pages: `documents` yields (page number, its data/ document), reading the file again."""

    path: str
    cited: Sequence[Cited]
    plan: Plan

    @property
    def spans(self) -> list[list[int]]:
        """[first, last] line of each page after the first, for the list of pages every page shows."""
        return [[ranges[0][0], ranges[-1][1]] for ranges in self.plan.pages[1:]]

    def run_pages(self) -> list[dict[str, int]]:
        """Per run (as `cited` lists them), the page of each line its page links to, when that is not page 1:
        its first line and its checks' lines ({"1234": 3}), for the run page's links to land."""
        found = []
        for run in self.cited:
            pages = {str(line): self.plan.page_of(line) for line in (run.first, *run.checks)}
            found.append({line: page for line, page in pages.items() if page != 1})
        return found

    def documents(self) -> Iterator[tuple[int, dict[str, Any]]]:
        """Each page's document, a page at a time as the file is read (the first page, which ends with the
        file's last lines, last): {"lines", "size", "page", "blocks", "runs", "runs_count"} (layouts/raw/page.html);
        "runs" are the indexes, in `cited`, of the first RAW_RUNS_LISTED runs whose first line the page shows.

        A block is {"start": line, "text": "its lines\\n...", "cuts"?: {line: bytes left out}} or a gap,
        {"gap": [first, last], "bytes": "5.20 MiB", "pages"?: [lowest, highest page showing lines of it]}."""
        plan = self.plan
        ranges = plan.located
        runs: dict[int, list[int]] = {}
        for index, run in enumerate(self.cited):
            runs.setdefault(plan.page_of(run.first), []).append(index)
        blocks: dict[int, list[dict[str, Any]]] = {page: [] for page in range(1, len(plan.pages) + 1)}
        last_range = {page: shown_ranges[-1][1] for page, shown_ranges in enumerate(plan.pages, 1) if shown_ranges}
        ends: dict[int, tuple[int, int]] = {}  # page: (last line shown so far, the bytes before the line after it)
        at, offset = 0, 0
        text: list[str] = []
        cuts: dict[str, str] = {}
        for number, (data, size) in enumerate(_file_lines(self.path), start=1):
            while at < len(ranges) and ranges[at][1] < number:
                at += 1
            if at < len(ranges) and ranges[at][0] <= number:
                first, last, page = ranges[at]
                if number == first:
                    self._gap_before(blocks[page], ends.get(page, (0, 0)), first, offset, page)
                    text, cuts = [], {}
                line, left_out = shown(data)
                text.append(line)
                if left_out:
                    cuts[str(number)] = format_bytes(left_out) or ""
                if number == last:
                    block: dict[str, Any] = {"start": first, "text": "\n".join(text)}
                    blocks[page].append({**block, "cuts": cuts} if cuts else block)
                    ends[page] = (last, offset + size)
                    if page > 1 and last == last_range[page]:
                        yield page, self._document(page, blocks.pop(page), ends[page], runs.get(page, []))
            offset += size
        yield 1, self._document(1, blocks.pop(1, []), ends.get(1, (0, 0)), runs.get(1, []))

    def _gap_before(
        self, blocks: list[dict[str, Any]], end: tuple[int, int], first: int, offset: int, page: int
    ) -> None:
        """The gap between what the page showed last (its last line, the bytes up to it) and line `first`."""
        shown_last, shown_bytes = end
        if first > shown_last + 1:
            blocks.append(self._gap(shown_last + 1, first - 1, offset - shown_bytes, page))

    def _gap(self, first: int, last: int, size: int, page: int) -> dict[str, Any]:
        gap: dict[str, Any] = {"gap": [first, last], "bytes": format_bytes(size) or ""}
        elsewhere = self.plan.pages_within(first, last, page)
        return {**gap, "pages": elsewhere} if elsewhere else gap

    def _document(
        self, page: int, blocks: list[dict[str, Any]], end: tuple[int, int], runs: list[int]
    ) -> dict[str, Any]:
        """A page's document: its blocks with the gap after the last, and the runs whose first line it shows."""
        shown_last, shown_bytes = end
        if shown_last < self.plan.lines:
            blocks.append(self._gap(shown_last + 1, self.plan.lines, self.plan.bytes - shown_bytes, page))
        return {
            "lines": self.plan.lines,
            "size": format_bytes(self.plan.bytes) or "",
            "page": page,
            "blocks": blocks,
            "runs": runs[:RAW_RUNS_LISTED],
            "runs_count": len(runs),
        }


def view(path: str, cited: Sequence[Cited]) -> View | None:
    """The capped view of the published file at `path`, or None when the page shows it whole.
    `cited` is each of the file's runs, in the order of its `raw_files` entry's runs."""
    if whole(path, cited):
        return None
    return View(path, cited, plan(path, cited))

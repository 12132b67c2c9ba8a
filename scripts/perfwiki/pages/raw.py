"""What a raw file's page shows of a large file: the lines its runs cite, not all of it.

The page renders every line it is given as a numbered, addressable line (layouts/raw/page.html),
about four times the text's size in HTML: a 200 MB log made a 425 MB page that froze the browser.
A file over the limits below is shown as its first lines and every line a run or a check cites
(with a little context), the rest as gaps that link to the download, which is always the
whole published file. Read a line at a time: a capped file is never held whole in memory.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator
from typing import Any

from ..decode import decode

# A file is shown whole up to either limit. 256 KiB of text is about 1 MB of page, which a phone
# still lays out in well under a second; 2,000 lines is a long transcript of some 60 fio runs, and
# more lines than anyone scrolls through rather than searching the download.
RAW_VIEW_MAX_BYTES = 256 * 1024
RAW_VIEW_MAX_LINES = 2_000
# What a capped page shows besides the cited lines: the file's start (its banner, the first
# commands), and lines around each cited range, so a run's label and prompt stay in view.
RAW_VIEW_HEAD_LINES = 200
RAW_VIEW_CONTEXT_LINES = 3
# When every line is a run's (a session of thousands of runs), the cited lines are the file: past
# this many, in file order, a run keeps only its first line, which its page's source link lands on
# (#L<n>) beside a gap to the download. 10,000 lines is some 300 fio runs as text, a page of about
# 2.5 MB; a 100,000-run file's page is then that and a line a run, not the whole 200 MB.
RAW_VIEW_MAX_CITED_LINES = 10_000


def ranges(
    cited: Iterable[tuple[int, int]],
    context: int = RAW_VIEW_CONTEXT_LINES,
    budget: int = RAW_VIEW_MAX_CITED_LINES,
) -> list[tuple[int, int]]:
    """The lines to show (first, last; 1-based, inclusive), merged and in order: the head and each
    cited range widened by `context`, the first `budget` lines of them; after those, each range's first line."""
    wanted = [(1, RAW_VIEW_HEAD_LINES)]
    for a, b in sorted(cited):
        if budget > 0:
            wanted.append((max(1, a - context), b + context))
            budget -= b - a + 1 + 2 * context
        else:
            wanted.append((a, a))
    wanted.sort()
    merged: list[tuple[int, int]] = []
    for first, last in wanted:
        if merged and first <= merged[-1][1] + 1:
            merged[-1] = (merged[-1][0], max(merged[-1][1], last))
        else:
            merged.append((first, last))
    return merged


def _lines(path: str) -> Iterator[str]:
    """The published file's lines as the page numbers them (split at newlines), decoded one at a time.

    UTF-8 files (nearly all) are read a line at a time; a UTF-16 file or one with a BOM is decoded
    whole, as extraction decodes it.
    """
    with open(path, "rb") as file:
        head = file.read(4096)
        if head.startswith((b"\xff\xfe", b"\xfe\xff", b"\xef\xbb\xbf")) or (0 in head and len(head) >= 4):
            file.seek(0)
            text = decode(file.read()).removesuffix("\n")
            yield from (line.removesuffix("\r") for line in text.split("\n"))
            return
        file.seek(0)
        for raw in file:
            yield raw.rstrip(b"\n").removesuffix(b"\r").decode("utf-8", "replace")


def _small(path: str) -> bool:
    """Whether the page shows the file whole: within both limits."""
    if os.path.getsize(path) > RAW_VIEW_MAX_BYTES:
        return False
    with open(path, "rb") as file:
        data = file.read()
    return data.removesuffix(b"\n").count(b"\n") + 1 <= RAW_VIEW_MAX_LINES


def view(path: str, cited: Iterable[tuple[int, int]]) -> dict[str, Any] | None:
    """The capped view of the published file at `path`, or None when the page shows it whole.

    `{"lines": N, "blocks": [{"start": first line, "text": "its lines\\n..."}]}`: the page numbers
    each block's lines from `start` and says what lies between blocks and after the last.
    """
    if _small(path):
        return None
    shown = iter(ranges(cited))
    first, last = next(shown)
    blocks: list[dict[str, Any]] = []
    kept: list[str] = []
    number = 0
    for number, line in enumerate(_lines(path), start=1):
        while number > last:
            if kept:
                blocks.append({"start": first, "text": "\n".join(kept)})
                kept = []
            first, last = next(shown, (0, -1))
            if last < 0:
                break
        if first <= number <= last:
            kept.append(line)
    if kept:
        blocks.append({"start": first, "text": "\n".join(kept)})
    return {"lines": number, "blocks": blocks}

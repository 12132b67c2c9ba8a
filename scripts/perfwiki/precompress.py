"""Precompressed copies of a built site's scripts and styles: `x.js.gz` and `x.js.br` beside `x.js`.

plotly.js is 1 MB even as the site builds it (core and bar trace only, scripts/plotly-bundle.mjs),
and no chart turns interactive before it has it: its 1,001,184 bytes are 351,489 gzipped and
293,179 with brotli. A static server (nginx's gzip_static and brotli_static, Caddy's
precompressed, most CDNs) sends a file compressed ahead of time as it is, spending no CPU per
request. `make build` writes the copies once, gzip at level 9 and brotli at its best (11), levels
too slow to run on every request.

    $ .venv/bin/python -m perfwiki.precompress public
    precompressed 15 files: 1,566,635 bytes as 492,397 gzip, 414,384 brotli   (the example site)

Only what a page loads and is large enough to gain: scripts, styles, SVG, a report's chart specs
(charts.json) and the run finder's files (runs/_find/) of 1 KiB or more.
A copy is written only when it is smaller than the file, and every copy is deterministic (no
name or time in the gzip header), so an unchanged file gives byte-identical copies and `hugo
deploy` uploads nothing new for it.
"""

from __future__ import annotations

import gzip
import sys
from pathlib import Path

import brotli

SUFFIXES = (".js", ".css", ".svg")
# A report page's chart specs (chartsvg.specs_apart), fetched when the reader reaches for a chart. Not
# every .json: a wiki of 100,000 runs publishes as many run documents, downloads nobody waits on.
NAMES = ("charts.json",)
# The run finder's files (runs/_find/, pages/finder.py): fetched by /runs/ a filter at a time, the
# rows 200 to a file; at 100,000 runs each is fetched while a reader waits for the first rows.
FOLDERS = ("_find",)
MIN_BYTES = 1024
# Brotli's quality for the finder's files: 9 makes a 136 KB file of rows 12 % larger than 11 does
# (2,077 bytes against 1,855) in 1.8 ms rather than 104: at 100,000 runs, 62 MB of them took 45 s at 11.
DATA_QUALITY = 9


def _candidates(root: Path) -> list[Path]:
    return sorted(
        path
        for path in root.rglob("*")
        if (path.suffix in SUFFIXES or path.name in NAMES or (path.suffix == ".json" and path.parent.name in FOLDERS))
        and path.is_file()
        and path.stat().st_size >= MIN_BYTES
    )


def precompress(root: Path) -> tuple[int, int, int, int]:
    """Write the .gz and .br of every candidate under `root`; (files, bytes, gzip bytes, brotli bytes)."""
    files = total = gz_total = br_total = 0
    for path in _candidates(root):
        data = path.read_bytes()
        gz = gzip.compress(data, compresslevel=9, mtime=0)
        br = brotli.compress(data, quality=DATA_QUALITY if path.parent.name in FOLDERS else 11)
        for suffix, packed in ((".gz", gz), (".br", br)):
            target = path.with_name(path.name + suffix)
            if len(packed) < len(data):
                target.write_bytes(packed)
            elif target.exists():
                target.unlink()  # an older copy of a file that no longer shrinks
        files, total = files + 1, total + len(data)
        gz_total, br_total = gz_total + min(len(gz), len(data)), br_total + min(len(br), len(data))
    return files, total, gz_total, br_total


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1 or not Path(args[0]).is_dir():
        print("usage: python -m perfwiki.precompress SITE_DIR (a built site: public/)", file=sys.stderr)
        return 2
    files, total, gz, br = precompress(Path(args[0]))
    print(f"precompressed {files:,} files: {total:,} bytes as {gz:,} gzip, {br:,} brotli", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""What the cache compresses a raw file's runs against: a zlib dictionary of what runs look like.

A raw file's cache entry holds its few runs, some 4 KB pickled. Compressed alone, every entry
spells out what all the others say too: the classes, the field and metric names, the shape of a
tool's metrics. Compressed against a preset dictionary made of runs, an entry of make perf's
100,000-run wiki shrinks from 2.0 to 1.4 KB (measured on 2,800 of them), which is what brings the
cache under issue 34's 1 KiB per run.

The dictionary is made from the code alone, so every process makes the same bytes: the runs of
the real inputs the parsers' docstrings show (`tools/<name>/parser.py`, each literal block after
`::`), pickled. A docstring that changes changes the dictionary and, with it, the code version
(cache.CODE_VERSION) every entry is keyed on, so no entry is read against another dictionary than
the one it was written with; zlib checks the dictionary's Adler-32 as well.
"""

from __future__ import annotations

import functools
import importlib
import pickle
import re
import textwrap

# Deflate looks back 32 KiB at most: a longer dictionary is cut to its end.
WINDOW = 32 * 1024
# A reST literal block: `::`, a blank line, then the indented lines.
_LITERAL = re.compile(r"::\n\n((?:(?:[ ]{4}.*)?\n)+)")


def examples(doc: str) -> list[str]:
    """The literal blocks of a docstring, dedented."""
    return [textwrap.dedent(block) for block in _LITERAL.findall(doc)]


@functools.cache
def runs() -> bytes:
    """The dictionary for entries of runs: every documented example's runs, pickled, the last 32 KiB."""
    from . import tools
    from .extract import extract_text
    from .model import Source

    pickled = []
    for name in tools.NAMES:
        doc = importlib.import_module(f"{tools.__name__}.{name}.parser").__doc__ or ""
        for number, text in enumerate(examples(doc)):
            # A fixed source: the example's runs, not where they came from, make the dictionary.
            source = Source(f"reports/example/raw/env/{name}-{number}.txt", 1, 1, "0" * 64)
            for run in extract_text(text, source).runs:
                pickled.append(pickle.dumps(run, protocol=pickle.HIGHEST_PROTOCOL))
    return b"".join(pickled)[-WINDOW:]

"""A raw file that is one JSON object (`fio --output-format=json > x.json`, `iperf3 -J`) is decoded once.

segments.split decodes the whole file to tell that it is one object; the tool's parser then decodes
its output again to read it (fio's find_documents, iperf3's _parse_json). The second decode takes
the first's object instead, through raw_decode here: a tenth of parsing a fio JSON file.
"""

from __future__ import annotations

import json
from typing import Any

from .datafile import loads

# The last file found to be one JSON object, blank space stripped, and that object, until taken.
_whole: tuple[str, Any] | None = None


def is_one_object(text: str) -> bool:
    """Whether the whole text is one JSON object (blank space around it aside); it is kept for raw_decode."""
    global _whole
    _whole = None
    if not text.lstrip()[:1] == "{" or not text.rstrip().endswith("}"):
        return False
    try:
        document = loads(text)
    except ValueError:  # a transcript of several, text around it, a truncated document
        return False
    if not isinstance(document, dict):
        return False
    _whole = (text.strip(), document)
    return True


def raw_decode(decoder: json.JSONDecoder, text: str, start: int) -> tuple[Any, int]:
    """decoder.raw_decode(text, start), or the same (object, end) from the object is_one_object kept,
    when `text` from `start` is that object (the output of the file's one segment), taken once."""
    global _whole
    if start == 0 and _whole is not None and text[:1] == "{":
        stripped, document = _whole
        if len(text.rstrip()) == len(stripped) and text.strip() == stripped:
            _whole = None  # once: a parser may change what it reads
            return document, len(stripped)
    return decoder.raw_decode(text, start)

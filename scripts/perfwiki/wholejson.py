"""A raw file that is one JSON object (`fio --output-format=json > x.json`, `iperf3 -J`) is decoded once.

segments.split decodes the whole file to tell that it is one object; the tool's parser then decodes
its output again to read it (fio's find_documents, iperf3's _parse_json). The second decode takes
the first's object instead, through raw_decode here: a tenth of parsing a fio JSON file.
"""

from __future__ import annotations

import json
from typing import Any

import orjson

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


# Every digit as "0", to find an integer of 20 digits or more: orjson reads one past 64 bits as a
# float, json as that integer. (A regular expression took ten times orjson's decode to look.)
_ZEROS = bytes.maketrans(b"123456789", b"000000000")
_LONG_INTEGER = b"0" * 20


def loads(text: str) -> Any:
    """json.loads(text), the same objects, through orjson where it reads them alike: 0.020 ms instead of
    0.066 for a 14 KB fio document, a tenth of parsing one. Numbers fio and iperf3 print read the
    same (checked on 600,000 random floats); what orjson refuses and json takes (NaN, 1e400, a lone
    surrogate) goes to json, as does any integer orjson would round."""
    try:
        data = text.encode()
    except UnicodeEncodeError:  # a lone surrogate: only json reads it
        return json.loads(text)
    if _LONG_INTEGER not in data.translate(_ZEROS):
        try:
            return orjson.loads(data)
        except orjson.JSONDecodeError:
            pass
    return json.loads(text)


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

"""data/ documents: compact JSON, keys sorted, one file per report, run, environment and scenario.

JSON rather than YAML because Hugo reads it 7x faster in a third less memory: the data/
of a 2,000-run wiki (45 MB as YAML) took Hugo 7.2 s and 385 MB to load, the same
documents as JSON 1.1 s and 235 MB (see the closing note of issue 16). Every run keeps
the field names of the run schema; `perfwiki parse --format yaml` still prints YAML.
"""

from __future__ import annotations

import json
import math
from typing import TYPE_CHECKING, Any

import orjson

if TYPE_CHECKING:  # not imported to run: `perfwiki parse` writes with dump() and never loads pathlib
    from pathlib import Path

SUFFIX = ".json"


def name(stem: str) -> str:
    """The file name of a document: 'reports/x' -> 'reports/x.json'."""
    return stem + SUFFIX


# Python's own encoder, for what orjson refuses: an integer past 64 bits, a key that is not a string.
# Documents are trees (no object holds itself), so it need not keep every container it is inside
# to catch a cycle.
_ENCODER = json.JSONEncoder(
    ensure_ascii=False, check_circular=False, allow_nan=False, sort_keys=True, separators=(",", ":")
)


def dump(document: Any) -> str:
    """The document's text, keys sorted, compact; a NaN or infinite float (never printed by a tool as a
    result) is written as null.

    Through orjson: json's C encoder took a sixth of building a report's documents (a cold ingest
    writes three or four a run), orjson a quarter of that, and it writes the same bytes for every
    run of the shipped examples and of a 2,000-run synthetic wiki (tests/test_datafile.py).
    """
    try:
        return orjson.dumps(document, option=orjson.OPT_SORT_KEYS).decode("utf-8") + "\n"
    except TypeError:
        return dump_with_json(document)


def dump_with_json(document: Any) -> str:
    """dump() through the standard library's encoder."""
    try:
        return _ENCODER.encode(document) + "\n"
    except ValueError:
        return dump_with_json(_finite(document))


def load(path: Path) -> Any:
    return loads(path.read_text(encoding="utf-8"))


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


def _finite(node: Any) -> Any:
    if isinstance(node, float) and not math.isfinite(node):
        return None
    if isinstance(node, dict):
        return {key: _finite(value) for key, value in node.items()}
    if isinstance(node, list):
        return [_finite(value) for value in node]
    return node

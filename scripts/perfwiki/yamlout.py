"""Write data/ as block-style YAML, fast.

PyYAML's representer walks every node in Python before its emitter runs; at wiki
scale (10,000 runs, ~1,000 nodes each) that was half of ingest. Our documents
hold only dicts with string keys, lists, strings, numbers, booleans and None, so
a direct writer suffices. Its output is what PyYAML's safe loader and Hugo read
back to the same values (tests/test_yamlout.py checks both on real data and on
hypothesis-generated documents):

- keys sorted, mappings indented by two, lists not indented under their key;
- strings plain only when they cannot be read as anything but a string,
  otherwise double-quoted with JSON-style escapes plus the code points YAML
  forbids raw (C1 controls, U+2028/9, BOM, surrogates, U+FFFE/F);
- floats as PyYAML writes them (`1.0e+16`, `.nan`, `.inf`).
"""

from __future__ import annotations

import json
import math
import re
from typing import Any

# Starts with a letter, no character YAML gives a meaning to: never a number, null or bool.
_PLAIN = re.compile(r"[A-Za-z_][A-Za-z0-9_ .,/+()%-]*")
# Plain words YAML 1.1 (PyYAML) or 1.2 (Hugo) read as booleans or null.
_RESERVED = {"y", "n", "yes", "no", "on", "off", "true", "false", "null"}
_UNPRINTABLE = re.compile("[\x7f-\x9f\u2028\u2029\ufeff\ud800-\udfff\ufffe\uffff]")


def _string(text: str) -> str:
    if _PLAIN.fullmatch(text) and not text.endswith(" ") and text.lower() not in _RESERVED:
        return text
    quoted = json.dumps(text, ensure_ascii=False)
    return _UNPRINTABLE.sub(lambda match: f"\\u{ord(match.group()):04x}", quoted)


def _float(number: float) -> str:
    if math.isnan(number):
        return ".nan"
    if math.isinf(number):
        return ".inf" if number > 0 else "-.inf"
    text = repr(number).lower()
    if "." not in text and "e" in text:
        text = text.replace("e", ".0e", 1)  # YAML 1.1 needs the dot to read 1e+16 as a float
    return text


def scalar(value: Any) -> str:
    if isinstance(value, str):
        return _string(value)
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return _float(value)
    raise TypeError(f"cannot write {type(value).__name__} to data/: {value!r}")


def _mapping(out: list[str], node: dict[str, Any], indent: str, first: str) -> None:
    """A non-empty mapping; its first line starts with `first` (the indent, or "- " in a list)."""
    prefix = first
    for key in sorted(node):
        value = node[key]
        out.append(f"{prefix}{_string(key) if isinstance(key, str) else scalar(key)}:")
        prefix = indent
        if isinstance(value, dict) and value:
            out.append("\n")
            _mapping(out, value, indent + "  ", indent + "  ")
        elif isinstance(value, list) and value:
            out.append("\n")
            _sequence(out, value, indent)
        else:
            out.append(f" {_inline(value)}\n")


def _sequence(out: list[str], node: list[Any], indent: str) -> None:
    for item in node:
        if isinstance(item, dict) and item:
            _mapping(out, item, indent + "  ", indent + "- ")
        elif isinstance(item, list) and item:
            out.append(f"{indent}-\n")
            _sequence(out, item, indent + "  ")
        else:
            out.append(f"{indent}- {_inline(item)}\n")


def _inline(value: Any) -> str:
    if isinstance(value, dict):
        return "{}"
    if isinstance(value, list):
        return "[]"
    return scalar(value)


def dump(document: Any) -> str:
    """The YAML text of a document (a mapping, a list or a scalar)."""
    out: list[str] = []
    if isinstance(document, dict) and document:
        _mapping(out, document, "", "")
    elif isinstance(document, list) and document:
        _sequence(out, document, "")
    else:
        out.append(f"{_inline(document)}\n")
    return "".join(out)

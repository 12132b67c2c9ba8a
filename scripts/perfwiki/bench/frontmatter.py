"""Edits of a page's front matter that keep the rest of its text as the author wrote it: comments,
key order, quoting. `perfwiki bench` adds its environment to a report's `environments:` and, when
asked to, its facts to an environment page; a YAML dump would rewrite the whole file.

Each edit is checked by reading the result back: the edited key holds what was meant and every
other key is unchanged; otherwise FrontMatterError, and the file is left as it is.
"""

from __future__ import annotations

import json
import re
from typing import Any

import yaml


class FrontMatterError(Exception):
    """A front matter this module cannot edit safely; the message says what to add by hand."""


def _split(text: str) -> tuple[list[str], int, int]:
    """(lines, index of the opening ---, index of the closing ---)."""
    lines = text.split("\n")
    if not lines or lines[0].rstrip() != "---":
        raise FrontMatterError("no front matter (a first line ---)")
    for number in range(1, len(lines)):
        if lines[number].rstrip() == "---":
            return lines, 0, number
    raise FrontMatterError("its front matter has no closing ---")


def _load(lines: list[str], end: int) -> dict[str, Any]:
    try:
        loaded = yaml.safe_load("\n".join(lines[1:end])) or {}
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None)
        where = f"line {mark.line + 2}: " if mark is not None else ""
        raise FrontMatterError(f"{where}its front matter is not valid YAML") from None
    if not isinstance(loaded, dict):
        raise FrontMatterError("its front matter is not a mapping of keys")
    return loaded


def _scalar(value: str) -> str:
    """A YAML scalar that reads back as the string `value`, never a number or a date (JSON strings are YAML)."""
    return json.dumps(value, ensure_ascii=False)


def _checked(new_lines: list[str], before: dict[str, Any], key: str, expect: Any) -> str:
    _, _, end = _split("\n".join(new_lines))
    after = _load(new_lines, end)
    others_kept = {k: v for k, v in after.items() if k != key} == {k: v for k, v in before.items() if k != key}
    if after.get(key) != expect or not others_kept:
        raise FrontMatterError(f"could not add to its `{key}:` without changing other keys")
    return "\n".join(new_lines)


def add_environment(text: str, environment: str) -> str | None:
    """The page's text with `environment` last in its `environments:` list; None when it is there already."""
    lines, _, end = _split(text)
    before = _load(lines, end)
    listed = before.get("environments")
    if isinstance(listed, str):
        listed = [listed]
    if listed is not None and not isinstance(listed, list):
        raise FrontMatterError("its `environments:` is not a list")
    listed = [str(item) for item in listed or []]
    if environment in listed:
        return None
    original = before.get("environments")
    expect = [*(original if isinstance(original, list) else listed), environment]
    found = next((number for number in range(1, end) if re.match(r"environments:", lines[number])), None)
    new = list(lines)
    if found is None:
        new.insert(end, f"environments: [{environment}]")
        return _checked(new, before, "environments", expect)
    parts = re.match(r"environments:\s*(?P<value>.*?)(?P<tail>\s+#.*)?$", lines[found])
    value, tail = parts["value"], parts["tail"] or ""
    if value.startswith("[") and value.endswith("]"):
        inner = value[1:-1].strip()
        new[found] = f"environments: [{inner + ', ' if inner else ''}{environment}]{tail}"
    elif value == "":
        following = found + 1  # the block list: indented lines, or "- " lines at the margin
        while following < end and (lines[following].startswith((" ", "\t", "- ")) or not lines[following].strip()):
            following += 1
        items = [number for number in range(found + 1, following) if re.match(r"\s*-\s", lines[number])]
        if not items:
            new[found] = f"environments: [{environment}]{tail}"
        else:
            indent = re.match(r"(\s*-\s+)", lines[items[-1]]).group(1)
            new.insert(items[-1] + 1, f"{indent}{environment}")
    else:  # one environment written as a string: a list of it and this one
        new[found] = f"environments: [{value}, {environment}]{tail}"
    return _checked(new, before, "environments", expect)


def set_facts(text: str, facts: dict[str, str]) -> str:
    """The page's text with each of `facts` set under its `facts:` mapping (a line replaced or added)."""
    lines, _, end = _split(text)
    before = _load(lines, end)
    known = before.get("facts")
    if known is not None and not isinstance(known, dict):
        raise FrontMatterError("its `facts:` is not a mapping")
    expect = {**(known or {}), **facts}
    new = list(lines)
    found = next((number for number in range(1, end) if re.match(r"facts:", lines[number])), None)
    if found is None or new[found].split("#", 1)[0].strip() != "facts:":
        # No facts yet, or a one-line mapping ("facts: {}"): written out as a block, in full.
        block = ["facts:"] + [f"  {key}: {_scalar(str(value))}" for key, value in expect.items()]
        if found is None:
            new[end:end] = block
        else:
            new[found : found + 1] = block
        return _checked(new, before, "facts", expect)
    following = found + 1
    while following < end and (lines[following].startswith((" ", "\t")) or not lines[following].strip()):
        following += 1
    indent = "  "
    for number in range(found + 1, following):
        if match := re.match(r"(\s+)[\w-]+:", lines[number]):
            indent = match.group(1)
            break
    inserted = following
    for key, value in facts.items():
        line = f"{indent}{key}: {_scalar(str(value))}"
        same = [n for n in range(found + 1, inserted) if re.match(rf"{re.escape(indent)}{re.escape(key)}\s*:", new[n])]
        if same:
            new[same[0]] = line
        else:
            new.insert(inserted, line)
            inserted += 1
    return _checked(new, before, "facts", expect)

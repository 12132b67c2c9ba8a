"""Fuzzing: real inputs with random lines deleted never raise, and what survives still validates."""

from __future__ import annotations

import os
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from perfwiki import tools
from perfwiki.extract import assign_ids, extract
from support import example_raw_files
from test_encodings import hard_wrap

ROOT = Path(__file__).resolve().parent
INPUTS = sorted(path for path in (ROOT / "fixtures").rglob("*") if path.is_file() and path.suffix != ".fio")
# The example reports' raw files: the seed pages' slices (seeds 000 and 004 among them) and manual.yaml.
INPUTS += example_raw_files()
LINES = {path: path.read_bytes().splitlines(keepends=True) for path in INPUTS}


def as_saved(data: bytes, how: str) -> bytes:
    """The bytes as another tool would have saved them."""
    if how == "utf-16 (PowerShell >)":
        return data.decode("utf-8", "replace").encode("utf-16")
    if how == "CRLF":
        return data.replace(b"\n", b"\r\n")
    if how == "hard-wrapped at 80":
        return hard_wrap(data.decode("utf-8", "replace"), 80).encode("utf-8")
    return data


# Locally every run explores new inputs; in CI the same 6,000 run, so a submission never fails on luck.
@settings(
    max_examples=6000,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    derandomize=bool(os.environ.get("CI")),
)
@given(
    which=st.sampled_from(INPUTS),
    deletions=st.lists(st.floats(min_value=0, max_value=1, exclude_max=True), max_size=12),
    garbage=st.binary(max_size=40),
    saved=st.sampled_from(["as is", "utf-16 (PowerShell >)", "CRLF", "hard-wrapped at 80"]),
)
def test_random_deletions_and_junk_never_raise(which, deletions, garbage, saved):
    lines = list(LINES[which])
    for position in deletions:
        if lines:
            del lines[int(position * len(lines))]
    data = as_saved(b"".join(lines), saved) + garbage
    found = extract(which.name, data)
    assign_ids(found.runs)  # as ingest and parse do
    for problem in found.problems:
        assert problem.path == which.name and problem.line >= 1 and problem.message
        assert not problem.message.startswith("internal parser error"), problem
    for run in found.runs:
        assert tools.validate(run) == []
        assert run.source.line_start >= 1 and run.source.line_end >= run.source.line_start

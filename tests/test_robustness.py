"""No input raises: every fixture cut at every line, each seed slice every few lines, gives runs or located problems."""

from __future__ import annotations

from pathlib import Path

import pytest

from perfwiki.extract import extract
from support import ALL_SLICES, read_slice

FIXTURES = sorted(path for path in (Path(__file__).resolve().parent / "fixtures").rglob("*") if path.is_file())


def cuts(lines: list[bytes], stride: int):
    for end in range(1, len(lines) + 1, stride):
        yield b"".join(lines[:end])


@pytest.mark.parametrize("path", FIXTURES, ids=lambda p: p.name)
def test_fixture_cut_at_every_line(path):
    lines = path.read_bytes().splitlines(keepends=True)
    for text in cuts(lines, 1):
        found = extract(path.name, text)
        for problem in found.problems:
            assert problem.path == path.name and problem.line >= 1 and problem.message


@pytest.mark.parametrize("name", ALL_SLICES)
def test_seed_slice_cut_every_few_lines(name):
    lines = read_slice(name).splitlines(keepends=True)
    for text in cuts(lines, 7):
        found = extract(name, text)
        assert all(problem.line >= 1 for problem in found.problems)

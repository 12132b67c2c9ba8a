"""No input raises: every fixture cut at every line, every seed cut every few lines, gives runs or located problems."""

from __future__ import annotations

from pathlib import Path

import pytest

from perfwiki.extract import extract

FIXTURES = sorted(path for path in (Path(__file__).resolve().parent / "fixtures").rglob("*") if path.is_file())
SEED_NAMES = [
    "000_c5bf5583b403651e.txt",
    "001_217b3b91532e58e6.txt",
    "002_d97d8e1b2cafb357.txt",
    "003_b17219a0f97acf24.txt",
    "004_c57effe2b68a336c.txt",
]


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


@pytest.mark.parametrize("name", SEED_NAMES)
def test_seed_cut_every_few_lines(seeds, name):
    lines = (seeds / name).read_bytes().splitlines(keepends=True)
    for text in cuts(lines, 53):
        found = extract(name, text)
        assert all(problem.line >= 1 for problem in found.problems)

"""Input hygiene: the same output saved by other tools parses exactly as the clean original."""

from __future__ import annotations

import re
import unicodedata
from pathlib import Path

import pytest
import yaml

from perfwiki.extract import extract
from perfwiki.segments import physical_lines, wrap_width
from support import SEED_SLICES, example_raw_files, read_slice

FIXTURES = Path(__file__).resolve().parent / "fixtures"


def summary(found) -> str:
    """Everything a run says except where it came from (the bytes, and so line numbers, differ by design)."""
    runs = [{k: v for k, v in run.to_dict().items() if k != "source"} for run in found.runs]
    for run in runs:
        run["checks"] = [{k: v for k, v in finding.items() if k != "line"} for finding in run["checks"]]
    return re.sub(r"\bline \d+", "line N", yaml.safe_dump(runs, sort_keys=True, allow_unicode=True))


def hard_wrap(text: str, width: int) -> str:
    """What a terminal `width` columns wide shows, copied: long lines cut into pieces (CJK is two columns)."""
    out = []
    for line in text.split("\n"):
        piece, used = "", 0
        for char in line.expandtabs(8):
            columns = 2 if unicodedata.east_asian_width(char) in "WF" else 1
            if used + columns > width:
                out.append(piece)
                piece, used = "", 0
            piece, used = piece + char, used + columns
        out.append(piece)
    return "\n".join(out)


def variants(text: str) -> dict[str, bytes]:
    colour = text.replace("IOPS=", "\x1b[1;32mIOPS=\x1b[0m").replace("Run status", "\x1b[33mRun status\x1b[0m")
    tabs = re.sub(r"(?m)^(?: {4})+", lambda match: "\t" * (len(match.group(0)) // 4), text)
    lines = text.split("\n")
    junk = "\n".join(lines[:40] + ["\x00\x01\x02 \x7f\x1b garbage from a serial console \x00"] + lines[40:])
    return {
        "utf-8 with BOM": b"\xef\xbb\xbf" + text.encode("utf-8"),
        "utf-16le with BOM (PowerShell >)": text.encode("utf-16"),
        "utf-16le without BOM": text.encode("utf-16-le"),
        "utf-16be with BOM": b"\xfe\xff" + text.encode("utf-16-be"),
        "gb18030 (Chinese Windows)": text.encode("gb18030"),
        "CRLF line ends": text.replace("\n", "\r\n").encode("utf-8"),
        "CR line ends": text.replace("\n", "\r").encode("utf-8"),
        "ANSI colour codes": colour.encode("utf-8"),
        "tabs for indentation": tabs.encode("utf-8"),
        "a line of control-character junk": junk.encode("utf-8"),
        "hard-wrapped at 80 columns": hard_wrap(text, 80).encode("utf-8"),
    }


@pytest.mark.parametrize("name", list(variants("x")))
def test_seed_001_storage_transcript_in_every_encoding(name):
    # A real slice: seed 001's Windows guest (cache=none), with Chinese labels and D:\\> prompts,
    # from its heading to the end of the slice (the commands listed above it are left out).
    text = read_slice("vm-vs-bare-metal/raw/win2008-vm-cache-none/fio.md").decode("utf-8")
    text = text[text.index("* Windows虚拟机(cache=none)") :]
    clean = extract("clean.md", text.encode("utf-8"))
    assert len(clean.runs) == 6 and clean.problems == []
    other = extract("variant.md", variants(text)[name])
    assert other.problems == []
    assert summary(other) == summary(clean)


def test_latin1_is_reported_not_garbled():
    found = extract("latin1.txt", "fio --name=x\n\ncaf\xe9 au lait\n".encode("latin-1"))
    assert found.runs == [] and found.problems[0].message.startswith("not valid UTF-8")


def test_invalid_bytes_in_the_middle_are_a_problem_at_their_line():
    data = read_slice(SEED_SLICES["000"][0])
    middle = data.index(b"\n", len(data) // 2) + 1
    found = extract("binary.txt", data[:middle] + b"\x00\xff\xfe\x80 junk\n" + data[middle:])
    line = data[:middle].count(b"\n") + 1
    assert found.runs == []  # nothing half-decoded is published ...
    assert [(p.line, p.message) for p in found.problems] == [
        (line, f"not valid UTF-8 (byte {middle + 1}): invalid start byte")
    ]


# The example reports' raw files are the seed pages' slices.
RAW_INPUTS = sorted(
    [path for path in example_raw_files() if path.name != "manual.yaml"]
    + [path for path in FIXTURES.rglob("*") if path.is_file() and path.suffix != ".fio"]
)


@pytest.mark.parametrize("path", RAW_INPUTS, ids=lambda path: path.name)
def test_every_shipped_input_hard_wrapped_at_80_and_120_columns_parses_as_the_original(path):
    text = path.read_text(encoding="utf-8")
    clean = extract(path.name, text.encode("utf-8"))
    assert wrap_width(physical_lines(text)) is None  # an unwrapped file is never taken for a wrapped one
    for width in (80, 120):
        wrapped = extract(path.name, hard_wrap(text, width).encode("utf-8"))
        assert [str(problem).split(":", 2)[2] for problem in wrapped.problems] == [
            str(problem).split(":", 2)[2] for problem in clean.problems
        ]
        assert summary(wrapped) == summary(clean), width

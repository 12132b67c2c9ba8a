"""Input hygiene: the same output saved by other tools parses exactly as the clean original."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from perfwiki.extract import extract

FIXTURES = Path(__file__).resolve().parent / "fixtures"


def summary(found) -> str:
    """Everything a run says except where it came from (the bytes differ by design)."""
    runs = [{k: v for k, v in run.to_dict().items() if k != "source"} for run in found.runs]
    return yaml.safe_dump(runs, sort_keys=True, allow_unicode=True)


def variants(text: str) -> dict[str, bytes]:
    colour = text.replace("IOPS=", "\x1b[1;32mIOPS=\x1b[0m").replace("Run status", "\x1b[33mRun status\x1b[0m")
    return {
        "utf-8 with BOM": b"\xef\xbb\xbf" + text.encode("utf-8"),
        "utf-16le with BOM (PowerShell >)": text.encode("utf-16"),
        "utf-16le without BOM": text.encode("utf-16-le"),
        "utf-16be with BOM": b"\xfe\xff" + text.encode("utf-16-be"),
        "gb18030 (Chinese Windows)": text.encode("gb18030"),
        "CRLF line ends": text.replace("\n", "\r\n").encode("utf-8"),
        "CR line ends": text.replace("\n", "\r").encode("utf-8"),
        "ANSI colour codes": colour.encode("utf-8"),
    }


@pytest.mark.parametrize("name", list(variants("x")))
def test_seed_001_storage_transcript_in_every_encoding(seeds, name):
    # A real slice: seed 001's Windows guests, with Chinese labels and D:\\> prompts.
    text = (seeds / "001_217b3b91532e58e6.txt").read_text(encoding="utf-8")
    start = text.index("* Windows虚拟机(cache=none)")
    text = text[start : text.index("* Windows虚拟机(cache=none,queues=4)")]
    clean = extract("clean.md", text.encode("utf-8"))
    assert len(clean.runs) == 6 and clean.problems == []
    other = extract("variant.md", variants(text)[name])
    assert other.problems == []
    assert summary(other) == summary(clean)


def test_latin1_is_reported_not_garbled():
    found = extract("latin1.txt", "fio --name=x\n\ncaf\xe9 au lait\n".encode("latin-1"))
    assert found.runs == [] and found.problems[0].message.startswith("not valid UTF-8")

"""Line numbers of offsets from one running count (linenumbers.py), on a real fio JSON capture."""

from __future__ import annotations

from pathlib import Path

from perfwiki.linenumbers import LineNumbers

TEXT = (Path(__file__).parent / "fixtures" / "fio" / "fio-3.33-randrw-numjobs2.json").read_text(encoding="utf-8")


def test_each_offset_s_line_is_the_newlines_before_it_in_any_order():
    offsets = [0, 1, TEXT.index('"fio version"'), TEXT.index('"jobs"'), len(TEXT) - 1, len(TEXT)]
    lines = LineNumbers(TEXT)
    for offset in [*offsets, *reversed(offsets), offsets[2]]:  # forwards, then backwards: counted again
        assert lines.index(offset) == TEXT.count("\n", 0, offset)
        assert lines.number(offset) == TEXT.count("\n", 0, offset) + 1

"""A raw file that is one JSON object is decoded once: split() finds it is one object, and the tool's
parser takes that decoded object rather than decoding the text again (wholejson.py)."""

from __future__ import annotations

import json

from perfwiki import datafile, segments, wholejson
from perfwiki.extract import extract
from perfwiki.tools.fio.json_output import find_documents
from support import ROOT

FIO_JSON = ROOT / "tests" / "fixtures" / "fio" / "fio-3.33-randrw-numjobs2.json"
IPERF3_JSON = ROOT / "tests" / "fixtures" / "iperf3" / "iperf3-3.12-loopback-t1-json.txt"


def test_the_parser_takes_the_object_split_decoded_once():
    text = FIO_JSON.read_text(encoding="utf-8")
    [segment] = segments.split(text)
    kept = wholejson._whole[1]
    found = find_documents(segment.text)
    assert len(found) == 1 and found[0][2] is kept  # not decoded again
    assert found[0][2] == json.loads(text) and found[0][0] == 0
    assert found[0][1] == text.rstrip().count("\n")  # its last line, as the decoder's end gives it
    again = find_documents(segment.text)  # taken once: a second parse decodes its own
    assert again[0][2] is not kept and again[0][2] == kept


def test_text_around_the_object_is_decoded_as_before():
    text = "$ fio --output-format=json job.fio\n" + FIO_JSON.read_text(encoding="utf-8")
    assert not wholejson.is_one_object(text)
    assert wholejson._whole is None
    assert [(first, document["fio version"]) for first, _, document in find_documents(text)] == [(1, "fio-3.33")]


def test_runs_are_the_same_whichever_way_the_object_was_decoded(monkeypatch, tmp_path):
    # iperf3 -J's own output, without the command line the fixture has above it: `iperf3 -J > x.json`.
    iperf3 = tmp_path / "iperf3.json"
    iperf3.write_text(IPERF3_JSON.read_text(encoding="utf-8").split("\n", 1)[1], encoding="utf-8")
    for path in (FIO_JSON, iperf3):
        data = path.read_bytes()
        assert wholejson.is_one_object(data.decode("utf-8"))
        once = [run.to_dict() for run in extract(str(path), data).runs]
        assert wholejson._whole is None  # taken by the parser
        monkeypatch.setattr(wholejson, "raw_decode", lambda decoder, text, start: decoder.raw_decode(text, start))
        assert [run.to_dict() for run in extract(str(path), data).runs] == once and once
        monkeypatch.undo()


def test_its_lines_are_made_as_asked_and_are_physical_lines():
    """read() gives such a file NumberedLines: the lines physical_lines gives, each made when asked for."""
    text = "\n" + FIO_JSON.read_text(encoding="utf-8") + "\n\n"  # a blank line above, two below
    lines, [segment] = segments.read(text)
    assert isinstance(lines, segments.NumberedLines) and list(lines) == segments.physical_lines(text)
    assert segment.lines[0] == segments.Line(2, "{") and segment.line_start == 2
    assert segment.line_end == text.rstrip().count("\n") + 1 and segment.lines[-1].text == "}"
    assert segment.text == text.strip() and len(segment.lines) == segment.line_end - 1
    assert [line.number for line in lines[3:6]] == [4, 5, 6]


def test_a_file_with_carriage_returns_or_a_terminals_width_is_read_line_by_line():
    document = FIO_JSON.read_text(encoding="utf-8")
    padded = document.replace('"fio version"', " " * (80 - len(document.split("\n")[1])) + '"fio version"', 1)
    assert max(map(len, padded.split("\n"))) == 80  # a line as wide as a terminal: unwrap decides
    for text in (document.replace("\n", "\r\n"), padded):
        lines, [segment] = segments.read(text)
        assert isinstance(lines, list) and lines == segments.physical_lines(text)
        assert segment.text == "\n".join(line.text for line in segments.physical_lines(text)).strip()


def _same(a, b) -> bool:
    """Equal and of the same types all the way down, floats to the last bit (1 == 1.0 is not enough)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return list(a) == list(b) and all(_same(a[key], b[key]) for key in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    return repr(a) == repr(b)


def test_loads_reads_what_json_reads_through_orjson_or_not():
    """datafile.loads (is_one_object's decoder) is json.loads, faster: where orjson would read a
    document otherwise than json (an integer past 64 bits it rounds to a float) or refuses what json
    takes, json reads it."""
    real = [FIO_JSON.read_text(encoding="utf-8"), IPERF3_JSON.read_text(encoding="utf-8").split("\n", 1)[1]]
    edges = [
        '{"io_bytes": 18446744073709551616, "runtime": -9223372036854775809}',  # past 64 bits
        '{"io_bytes": 18446744073709551615}',  # the last that fits
        '{"iops": NaN, "bw": Infinity, "lat": 1e400}',  # json's extensions orjson refuses
        '{"job": "\\ud800"}',  # a lone surrogate escaped
        '{"job": "\ud800"}',  # and one in the text itself, which has no UTF-8 form
        '{"a": 1, "b": 2, "a": 3}',  # a repeated key: the last value, at the first place
        '{"clat_ns": {"mean": 0.30000000000000004, "min": 5e-324, "max": 1.7976931348623157e308}}',
    ]
    for text in real + edges:
        assert _same(datafile.loads(text), json.loads(text)), text[:60]
    assert datafile.loads(edges[0])["io_bytes"] == 2**64  # not 1.8446744073709552e19
    for broken in ('{"a": 1', '{"a": 1} {"b": 2}', "\ufeff{}"):
        for read in (json.loads, datafile.loads):
            try:
                read(broken)
            except ValueError:
                continue
            raise AssertionError(f"{read} read {broken!r}")

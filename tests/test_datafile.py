"""data/ documents are written by orjson; they read back as the same document, and for real runs
they are the bytes the standard library's encoder writes (so data/ did not change with it)."""

from __future__ import annotations

import json
import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from perfwiki import datafile
from perfwiki.extract import extract
from test_exports import INPUTS


@pytest.mark.parametrize("path", INPUTS, ids=[path.name for path in INPUTS])
def test_every_real_run_is_written_as_the_standard_encoder_writes_it(path):
    for run in extract(path.name, path.read_bytes()).runs:
        document = run.to_dict()
        assert datafile.dump(document) == datafile.dump_with_json(document)


def test_what_orjson_refuses_is_written_by_the_standard_encoder():
    assert datafile.dump({"big": 2**70, "b": 1}) == '{"b":1,"big":1180591620717411303424}\n'
    assert datafile.dump({2: "two", 10: "ten"}) == '{"2":"two","10":"ten"}\n'  # sorted as numbers, as json does


def test_a_float_that_is_not_a_number_is_written_as_null_either_way():
    document = {"nan": math.nan, "inf": [math.inf, -math.inf], "ok": 1.5}
    expected = '{"inf":[null,null],"nan":null,"ok":1.5}\n'
    assert datafile.dump(document) == datafile.dump_with_json(document) == expected


# Documents as ingest makes them: string keys, and strings, numbers, booleans and null as values.
_leaves = st.none() | st.booleans() | st.integers(-(2**63), 2**64 - 1) | st.floats() | st.text()
_documents = st.recursive(_leaves, lambda inner: st.lists(inner) | st.dictionaries(st.text(), inner), max_leaves=30)


@given(_documents)
def test_any_document_reads_back_as_itself(document):
    read = json.loads(datafile.dump(document))
    # NaN and infinities are null; everything else survives (floats compared as the JSON numbers they are).
    assert read == json.loads(datafile.dump_with_json(document))

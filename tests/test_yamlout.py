"""data/ is written by perfwiki.yamlout; PyYAML's safe loader reads back exactly what was written."""

from __future__ import annotations

import math

import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from perfwiki import yamlout
from support import ROOT

scalars = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**63), max_value=2**63)
    | st.floats(allow_nan=False)
    | st.text(st.characters(exclude_categories=["Cs"]))
    | st.sampled_from(["yes", "No", "on", "null", "~", "1e3", "0x1F", "1_000", "12:30", "- x", "a: b", "a #b", " x"])
)
documents = st.recursive(
    scalars, lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(), children, max_size=4)
)


@settings(max_examples=600, deadline=None)
@given(documents)
def test_any_document_reads_back_unchanged(document):
    assert yaml.safe_load(yamlout.dump(document)) == document


def test_floats_as_pyyaml_writes_them():
    assert yamlout.scalar(1e16) == "1.0e+16" and yaml.safe_load("1.0e+16") == 1e16
    assert (yamlout.scalar(float("inf")), yamlout.scalar(-float("inf"))) == (".inf", "-.inf")
    assert math.isnan(yaml.safe_load(yamlout.dump(float("nan"))))


def test_strings_that_look_like_other_types_are_quoted():
    # Seed labels and fio keys: plain only when nothing else can read them differently.
    assert yamlout.scalar("randread") == "randread"
    assert yamlout.scalar("4KB随机读") == '"4KB随机读"'
    assert yamlout.scalar("99.00") == '"99.00"'
    assert yamlout.scalar("off") == '"off"'
    assert yamlout.scalar("\x85 next line") == '"\\u0085 next line"'


def test_the_ingested_example_wiki_reads_back_unchanged(built_site):
    # built_site ingested the five example reports into data/ with this writer.
    for path in sorted((ROOT / "data").rglob("*.yaml")):
        text = path.read_text(encoding="utf-8")
        document = yaml.load(text, Loader=yaml.CSafeLoader)
        assert yamlout.dump(document) == text, path

"""A run's CSV, written line by line, is what csv.writer writes, byte for byte."""

from __future__ import annotations

import csv
import io
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from perfwiki import exports
from perfwiki.extract import extract
from perfwiki.model import Run, Source
from support import example_raw_files

ROOT = Path(__file__).resolve().parent
INPUTS = sorted(path for path in (ROOT / "fixtures").rglob("*") if path.is_file() and path.suffix != ".fio")
INPUTS += example_raw_files()


def written_by_csv_module(run: Run) -> str:
    """The reference: every leaf of params and metrics as a (path, value) row through csv.writer."""
    rows: list[list[object]] = []

    def flatten(prefix: str, value: object) -> None:
        if isinstance(value, dict):
            for key, item in value.items():
                flatten(f"{prefix}.{key}", item)
        elif isinstance(value, list):
            for index, item in enumerate(value):
                flatten(f"{prefix}[{index}]", item)
        else:
            rows.append([prefix, "" if value is None else value])

    flatten("params", run.params)
    flatten("metrics", run.metrics)
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["field", "value"])
    writer.writerows(rows)
    return out.getvalue()


def test_every_real_run_csv_is_what_csv_writer_writes():
    runs = [run for path in INPUTS for run in extract(path.name, path.read_bytes()).runs]
    assert len(runs) > 150
    for run in runs:
        assert exports.run_csv(run) == written_by_csv_module(run), run.source.path
    # No real run needs a field quoted; the property test below covers quoting.


leaf = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(alphabet=st.characters(codec="utf-8"), max_size=12),
)
tree = st.recursive(
    leaf,
    lambda inner: st.one_of(st.lists(inner, max_size=3), st.dictionaries(st.text(max_size=6), inner, max_size=3)),
    max_leaves=12,
)


@given(
    params=st.dictionaries(st.text(max_size=8), tree, max_size=4),
    metrics=st.dictionaries(st.text(max_size=8), tree, max_size=4),
)
def test_any_values_and_keys_are_quoted_as_csv_writer_quotes_them(params, metrics):
    run = Run("x", "fio", None, "text", None, None, Source("p", 1, 1, "0" * 64), params, metrics, [])
    assert exports.run_csv(run) == written_by_csv_module(run)

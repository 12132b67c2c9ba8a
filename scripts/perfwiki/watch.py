"""`perfwiki watch`: ingest on every save, so a running `hugo server` shows the change.

It ingests once, then watches content/ (reports, their raw files, aliases.yaml and
manual.yaml, environment pages) and hugo.toml (its redaction settings). When something
changed it waits until nothing more has changed for SETTLE_MS (an editor writes a temporary
file and renames it; a copy arrives in pieces), ingests, and prints one line, with each problem
as `path:line: message` above it. What changes during an ingest is one more ingest after it,
never a second one beside it (and `perfwiki ingest` started by hand waits for the ingest lock
too). Bad input never stops it: ingest reports what it cannot use, and anything else it raises
is printed as one line.

content/ is watched with watchfiles (inotify; WATCHFILES_FORCE_POLLING=1 where inotify does not
reach, such as some network mounts). Polling every file's time was the alternative without a
dependency: 2 ms a look at the example site's 126 files, but 64 ms at a 10,000-run wiki's 4,655,
a quarter of a core four times a second while nobody types. inotify costs nothing while idle.

With a command after `--` (`make serve`: `hugo server ...`) it runs that command beside the
loop, after the first ingest, and stops it when it stops: Ctrl-C, SIGTERM, a closed terminal,
or the death of whoever started it (make killed with SIGKILL) leave no process behind. After
each ingest it gives the server content/ as validation passed it, a report held back or deleted
answering 404 (`preview`: the server reads `.serve/preview.toml`), and rebuilds the Pagefind
index the server serves (`searchindex`), in the background so the preview is not delayed.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from . import preview
from .lifetime import parent_death_signal
from .searchindex import IndexBuild, prepare

if TYPE_CHECKING:
    from watchfiles import Change

SETTLE_MS = 300  # how long nothing must change before an ingest
PATIENCE_MS = 3000  # ingest after this long even if changes keep coming (a long copy)
TICK_MS = 250  # how often the loop looks at the server, the index build and hugo.toml while idle
STOP_GRACE = 5.0  # seconds the server has to stop on SIGTERM before it is killed
SERVER_UP = 5.0  # seconds a server has run when it counts as having come up

# Editors' temporary and backup files: vim's .swp and its 4913 probe, emacs' #name# and name~.
_SCRATCH_SUFFIXES = (".swp", ".swx", ".swo", "~", ".tmp")


def wanted(path: str, content: str) -> bool:
    """A file under `content` whose change matters to ingest: not an editor's scratch file, nor
    under a hidden folder (ingest reads neither)."""
    *folders, name = os.path.relpath(path, content).split(os.sep)
    hidden = any(folder.startswith(".") for folder in folders)
    return not (hidden or name.startswith((".", "#")) or name.endswith(_SCRATCH_SUFFIXES) or name == "4913")


def _signature(path: Path) -> tuple[int, int] | None:
    try:
        info = path.stat()
    except OSError:
        return None
    return info.st_mtime_ns, info.st_size


class Watcher:
    """The loop's state: the server beside it, the index build under way, the warnings shown."""

    def __init__(self, root: Path, hugo: str | None, command: list[str], out: TextIO) -> None:
        self.root = root
        self.hugo = hugo  # None: no search index
        self.command = command
        self.out = out
        self.server: subprocess.Popen[bytes] | None = None
        self.server_started = 0.0
        self.server_served = False  # it has run SERVER_UP seconds once: a later exit is a crash
        self.index: IndexBuild | None = None
        self.warnings_shown: set[str] = set()
        self.preview = preview.Preview(root)

    def say(self, line: str) -> None:
        print(f"{datetime.now():%H:%M:%S} {line}", file=self.out, flush=True)

    def ingest(self, changed: list[str]) -> None:
        """One ingest, its new problems and a one-line summary; nothing it raises stops the loop."""
        from .ingest import ingest

        started = time.monotonic()
        what = ", ".join(changed[:3]) + (f" and {len(changed) - 3} more" if len(changed) > 3 else "")
        what = f"{what} changed: " if what else ""
        try:
            result = ingest(self.root, out=None)
        except Exception as error:  # noqa: BLE001 - the loop outlives any bad input
            said = " ".join(str(error).split())  # one line, whatever the message spans
            self.say(f"{what}ingest failed: {type(error).__name__}: {said}; run `perfwiki ingest` for details")
            return  # Hugo keeps the content it was last given
        # Only now does Hugo see the save, beside the data published for it, and never what validation refused.
        try:
            withheld = self.preview.update(result.problems)
        except OSError as error:  # a full disk: Hugo keeps what it was given, the loop goes on
            self.say(f"the preview's copy of content/ not updated: {error}")
            withheld = set()
        errors = [str(problem) for problem in result.problems if problem.severity == "error"]
        warnings = [str(problem) for problem in result.problems if problem.severity != "error"]
        # Errors every time (what is broken now); warnings once, or a save would repeat them all.
        for line in errors + [line for line in warnings if line not in self.warnings_shown]:
            print(line, file=self.out)
        self.warnings_shown = set(warnings)
        counts = [f"{len(errors)} problem{'s' if len(errors) != 1 else ''}"] if errors else []
        counts += [f"{len(warnings)} warning{'s' if len(warnings) != 1 else ''}"] if warnings else []
        # Hugo keeps what it had of them before the mistake (preview.py).
        counts += [f"held back: {', '.join(sorted(withheld))}"] if withheld else []
        self.say(
            f"{what}ingested {result.run_count} runs in {len(result.reports)} reports"
            f" in {time.monotonic() - started:.2f} s ({result.extracted} files parsed, {result.built} reports built)"
            + (f"; {', '.join(counts)}" if counts else "")
        )

    def rebuild_index(self) -> None:
        if self.hugo is None:
            return
        if self.index is not None:
            self.index.cancel()
        self.index = IndexBuild(self.root, self.hugo, [self.root / "hugo.toml", self.root / preview.CONFIG])

    def tend(self) -> None:
        """Between looks: finish an index build, notice a server that stopped by itself."""
        if self.index is not None and (outcome := self.index.poll()) is not None:
            self.say(outcome)
            self.index = None
        if self.server is None or self.server.poll() is None:
            return
        code, ran = self.server.returncode, time.monotonic() - self.server_started
        self.server = None
        name = os.path.basename(self.command[0])
        how = f"killed by {signal.Signals(-code).name}" if code < 0 else f"exit status {code}"
        if not self.server_served:  # it never came up (a port in use, a broken config): say so and stop
            raise ServerStopped(f"{name} stopped ({how}); stopping too")
        if ran < SERVER_UP:
            # It came up before but not now: most likely the content it cannot build. A save starts it.
            self.say(f"{name} stopped again ({how}); it starts again after the next change")
            return
        # hugo server 0.168 can panic on a page whose front matter was broken and then fixed.
        self.say(f"{name} stopped ({how}); starting it again")
        self.start_server()

    def start_server(self) -> None:
        if self.command:
            self.server = subprocess.Popen(self.command, cwd=self.root, preexec_fn=_die_with_parent)
            self.server_started = time.monotonic()

    def note_server_up(self) -> None:
        if self.server is not None and time.monotonic() - self.server_started >= SERVER_UP:
            self.server_served = True

    def stop(self) -> None:
        if self.index is not None:
            self.index.cancel()
            self.index = None
        if self.server is not None and self.server.poll() is None:
            self.server.terminate()
            try:
                self.server.wait(STOP_GRACE)
            except subprocess.TimeoutExpired:
                self.server.kill()
                self.server.wait()
        self.server = None

    def run(self) -> None:
        from watchfiles import watch as changes_under

        if self.command:
            prepare(self.root)  # the theme folder serve.toml names must exist before the server starts
        self.preview.write_config()  # the server cannot start without it, even should the first ingest fail
        config = self.root / "hugo.toml"
        config_was = _signature(config)
        # Watching from before the first ingest: a save during it is seen.
        batches = changes_under(
            self.root / "content",
            watch_filter=lambda _change, path: wanted(path, str(self.root / "content")),
            step=SETTLE_MS,
            debounce=PATIENCE_MS,
            rust_timeout=TICK_MS,
            yield_on_timeout=True,
        )
        with contextlib.closing(batches):
            next(batches)  # the generator starts watching on its first step (a tick at most)
            self.ingest([])
            self.start_server()
            self.rebuild_index()
            self.say(f"watching {self.root / 'content'} for changes (Ctrl-C to stop)")
            # While an ingest runs, the changes gather in the watcher: the next batch is all of them.
            for batch in batches:
                self.note_server_up()
                self.tend()
                changed = sorted(os.path.relpath(path, self.root) for path in _lasting(batch))
                if (config_is := _signature(config)) != config_was:
                    config_was = config_is
                    changed.append("hugo.toml")
                    self.preview.write_config()
                if not changed:
                    continue
                if self.index is not None:
                    self.index.cancel()  # its index would be stale before it is done
                    self.index = None
                self.ingest(changed)
                if self.command and self.server is None:
                    self.start_server()
                self.rebuild_index()


def _lasting(batch: set[tuple[Change, str]]) -> set[str]:
    """The paths of a batch of changes, without files that came and went within it (sed -i's)."""
    from watchfiles import Change

    added = {path for change, path in batch if change == Change.added}
    return {path for _, path in batch if path not in added or os.path.lexists(path)}


class ServerStopped(Exception):
    """The command run beside the loop exited by itself (a port in use, a broken config)."""


class _Stop(BaseException):
    """A signal asked the watcher to stop (SIGTERM, SIGHUP)."""


def _die_with_parent() -> None:
    """In the server's process before it starts: SIGTERM it when the watcher dies, even by SIGKILL."""
    parent_death_signal(signal.SIGTERM)


@contextlib.contextmanager
def _stopping_on_signals() -> Iterator[None]:
    def stop(signum: int, _frame: object) -> None:
        raise _Stop(signal.Signals(signum).name)

    previous = {signum: signal.signal(signum, stop) for signum in (signal.SIGTERM, signal.SIGHUP)}
    try:
        yield
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)


def watch(root: Path, hugo: str | None, command: list[str], out: TextIO = sys.stderr) -> int:
    """Run until stopped; 0 when stopped by a signal or Ctrl-C, 1 when the server stopped by itself."""
    # make killed with SIGKILL cannot pass anything on: ask the kernel to tell us instead.
    parent_death_signal(signal.SIGTERM)
    watcher = Watcher(root, hugo, command, out)
    try:
        with _stopping_on_signals():
            watcher.run()
    except (KeyboardInterrupt, _Stop):
        print("", file=out)
        watcher.say("stopped")
        return 0
    except ServerStopped as stopped:
        watcher.say(str(stopped))
        return 1
    finally:
        watcher.stop()
    return 0  # pragma: no cover - run() only returns by raising

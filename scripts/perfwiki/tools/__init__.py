"""The registry of benchmark tools: the one list every other list of tools derives from.

Adding a tool means adding its package here (see tools/base.py for the interface),
with its fixtures and goldens under tests/; nothing is discovered by magic. The order
is the order reports show their tools' comparisons in.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from ..model import Run
from .programs import PROGRAMS

if TYPE_CHECKING:
    from .base import Tool

NAMES: tuple[str, ...] = tuple(PROGRAMS)
_LOADED: dict[str, Tool] = {}
_BY_COMMAND = {command: name for name, (commands, _) in PROGRAMS.items() for command in commands}
_BY_PATH_ONLY = {command: name for name, (_, commands) in PROGRAMS.items() for command in commands}


def __getattr__(attribute: str) -> Any:
    # REGISTRY loads every tool; a command names its tool without loading the others
    # (`perfwiki parse` of a file of fio runs starts without importing the other parsers).
    if attribute == "REGISTRY":
        return tuple(get(name) for name in NAMES)
    raise AttributeError(attribute)


# A segment whose command does not name a tool is given to the tool that recognises
# its output with at least this confidence.
DETECT_THRESHOLD = 0.5
# The most a tool's detect says (Tool.detect: 0 to 1).
CERTAIN = 1.0


def get(name: str) -> Tool:
    """The registered tool of that name, its package imported on first use; KeyError for anything else."""
    tool = _LOADED.get(name)
    if tool is None:
        if name not in PROGRAMS:
            raise KeyError(name)
        tool = _LOADED[name] = importlib.import_module(f"{__name__}.{name}").TOOL
    return tool


def load_all() -> tuple[Tool, ...]:
    """Every tool, each package imported (REGISTRY): ingest loads them before it forks its workers."""
    return tuple(get(name) for name in NAMES)


def run_by(program: str, by_path: bool = False) -> Tool | None:
    """The tool a program name runs (`fio`, `fio.exe`; `Run` only as `./Run`)."""
    name = _BY_COMMAND.get(program) or (_BY_PATH_ONLY.get(program) if by_path else None)
    return get(name) if name else None


def command_names() -> set[str]:
    """Every program name that runs a known tool."""
    return set(_BY_COMMAND)


def all_command_names() -> set[str]:
    """Every program name that runs a known tool, with those that count only when run by path (`Run`)."""
    return set(_BY_COMMAND) | set(_BY_PATH_ONLY)


def detect(text: str) -> Tool | None:
    """The tool whose output `text` most looks like, if any is confident."""
    best, best_score = None, 0.0
    for name in NAMES:
        tool = get(name)
        score = tool.detect(text)
        if score > best_score:
            best, best_score = tool, score
            if score >= CERTAIN:
                # No tool scores above 1 and a tie keeps the first: the rest need not read the text
                # (nor be imported; they took more time than fio's own detect on a file of fio runs).
                break
    return best if best_score >= DETECT_THRESHOLD else None


def fingerprints(run: Run) -> dict[str | None, dict[str, Any]]:
    """Each comparable part of a run and its fingerprint, in the tool's order of parts."""
    tool = get(run.tool)
    return {part: tool.fingerprint(run, part) for part in tool.parts(run)}


def validate(run: Run) -> list[str]:
    """Schema errors of a run, empty when it is well formed: a known tool and format, an id, a line range."""
    errors = []
    if run.tool not in PROGRAMS:
        errors.append(f"unknown tool {run.tool!r}")
    elif run.format not in (*get(run.tool).formats, "manual"):
        errors.append(f"unknown format {run.format!r} for {run.tool}")
    if not run.id:
        errors.append("empty run id")
    if run.source.line_start > run.source.line_end:
        errors.append("source line range is reversed")
    return errors

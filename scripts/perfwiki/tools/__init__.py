"""The registry of benchmark tools: the one list every other list of tools derives from.

Adding a tool means adding its package here (see tools/base.py for the interface),
with its fixtures and goldens under tests/; nothing is discovered by magic. The order
is the order reports show their tools' comparisons in.
"""

from __future__ import annotations

from typing import Any

from ..model import Run
from .base import Tool
from .dd import TOOL as DD
from .fio import TOOL as FIO
from .ioping import TOOL as IOPING
from .iostat import TOOL as IOSTAT
from .iperf3 import TOOL as IPERF3
from .mbw import TOOL as MBW
from .sysbench import TOOL as SYSBENCH
from .unixbench import TOOL as UNIXBENCH

REGISTRY: tuple[Tool, ...] = (FIO, IPERF3, UNIXBENCH, SYSBENCH, MBW, DD, IOPING, IOSTAT)
NAMES: tuple[str, ...] = tuple(tool.name for tool in REGISTRY)
_BY_NAME = {tool.name: tool for tool in REGISTRY}
_BY_COMMAND = {command: tool for tool in REGISTRY for command in tool.commands}
_BY_PATH_ONLY = {command: tool for tool in REGISTRY for command in tool.path_only_commands}


# A segment whose command does not name a tool is given to the tool that recognises
# its output with at least this confidence.
DETECT_THRESHOLD = 0.5


def get(name: str) -> Tool:
    """The registered tool of that name; KeyError for anything else."""
    return _BY_NAME[name]


def run_by(program: str, by_path: bool = False) -> Tool | None:
    """The tool a program name runs (`fio`, `fio.exe`; `Run` only as `./Run`)."""
    return _BY_COMMAND.get(program) or (_BY_PATH_ONLY.get(program) if by_path else None)


def command_names() -> set[str]:
    """Every program name that runs a known tool."""
    return set(_BY_COMMAND)


def detect(text: str) -> Tool | None:
    """The tool whose output `text` most looks like, if any is confident."""
    best, best_score = None, 0.0
    for tool in REGISTRY:
        score = tool.detect(text)
        if score > best_score:
            best, best_score = tool, score
    return best if best_score >= DETECT_THRESHOLD else None


def fingerprints(run: Run) -> dict[str | None, dict[str, Any]]:
    """Each comparable part of a run and its fingerprint, in the tool's order of parts."""
    tool = get(run.tool)
    return {part: tool.fingerprint(run, part) for part in tool.parts(run)}


def validate(run: Run) -> list[str]:
    """Schema errors of a run, empty when it is well formed: a known tool and format, an id, a line range."""
    errors = []
    if run.tool not in _BY_NAME:
        errors.append(f"unknown tool {run.tool!r}")
    elif run.format not in (*_BY_NAME[run.tool].formats, "manual"):
        errors.append(f"unknown format {run.format!r} for {run.tool}")
    if not run.id:
        errors.append("empty run id")
    if run.source.line_start > run.source.line_end:
        errors.append("source line range is reversed")
    return errors

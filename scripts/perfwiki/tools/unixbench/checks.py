"""UnixBench's checks: a command shown with output it cannot have printed.

`./Run` takes the tests to run as names (dhry2reg, fsdisk, ...) or groups of them (index, system,
fs, ...); with none it runs `index`. A page that shows `./Run -c 1 whetstone-double dhry2reg fsdisk`
above twelve results, Execl and Shell Scripts among them, shows a command that did not print them:
whoever reruns it gets three numbers, not the twelve the page compares.
"""

from __future__ import annotations

import re

from ...findings import Evidence, Finding
from ...model import Run

# Each test's name on the command line, and the line it prints (byte-unixbench's Run, `logmsg`).
TESTS = {
    "dhry2reg": "Dhrystone 2 using register variables",
    "whetstone-double": "Double-Precision Whetstone",
    "syscall": "System Call Overhead",
    "pipe": "Pipe Throughput",
    "context1": "Pipe-based Context Switching",
    "spawn": "Process Creation",
    "execl": "Execl Throughput",
    "fstime-w": "File Write 1024 bufsize 2000 maxblocks",
    "fstime-r": "File Read 1024 bufsize 2000 maxblocks",
    "fstime": "File Copy 1024 bufsize 2000 maxblocks",
    "fsbuffer-w": "File Write 256 bufsize 500 maxblocks",
    "fsbuffer-r": "File Read 256 bufsize 500 maxblocks",
    "fsbuffer": "File Copy 256 bufsize 500 maxblocks",
    "fsdisk-w": "File Write 4096 bufsize 8000 maxblocks",
    "fsdisk-r": "File Read 4096 bufsize 8000 maxblocks",
    "fsdisk": "File Copy 4096 bufsize 8000 maxblocks",
    "shell1": "Shell Scripts (1 concurrent)",
    "shell8": "Shell Scripts (8 concurrent)",
    "shell16": "Shell Scripts (16 concurrent)",
    "arithoh": "Arithoh",
    "short": "Arithmetic Test (short)",
    "int": "Arithmetic Test (int)",
    "long": "Arithmetic Test (long)",
    "float": "Arithmetic Test (float)",
    "double": "Arithmetic Test (double)",
    "C": "C Compiler Throughput",  # followed by the compiler's name: "(gcc)"
    "dc": "Dc: sqrt(2) to 99 decimal places",
    "hanoi": "Recursion Test -- Tower of Hanoi",
    "grep": "Grep a large file",
    "sysexec": "Exec System Call Overhead",
}
_OLD_SYSTEM = ["execl", "fstime", "fsbuffer", "fsdisk", "pipe", "context1", "spawn", "syscall"]
_ARITHMETIC = ["arithoh", "short", "int", "long", "float", "double", "whetstone-double"]
_SYSTEM = ["shell1", "shell8", "shell16", *_OLD_SYSTEM]
GROUPS = {
    "index": ["dhry2reg", "whetstone-double", *_OLD_SYSTEM, "shell1", "shell8"],
    "system": _SYSTEM,
    "oldsystem": _OLD_SYSTEM,
    "arithmetic": _ARITHMETIC,
    "speed": [*_ARITHMETIC, *_SYSTEM],
    "fs": ["fstime-w", "fstime-r", "fstime", "fsbuffer-w", "fsbuffer-r", "fsbuffer", "fsdisk-w", "fsdisk-r", "fsdisk"],
    "shell": ["shell1", "shell8", "shell16"],
    "load": ["shell1", "shell8", "shell16"],
    "misc": ["C", "dc", "hanoi"],
    "dhry": ["dhry2reg"],
    "dhrystone": ["dhry2reg"],
    "whets": ["whetstone-double"],
    "whetstone": ["whetstone-double"],
}


def asked(run: Run) -> list[str] | None:
    """The tests the run's `./Run` command asked for (the parser's `selected`, else `index`), by the
    lines they print; None without a command, or when it names something this table does not know
    (graphics, a newer test): then nothing is judged."""
    if not run.command:
        return None
    tests: list[str] = []
    for name in run.params.get("selected") or ["index"]:
        members = GROUPS.get(name, [name])
        if any(member not in TESTS for member in members):
            return None
        tests += [TESTS[member] for member in members]
    return tests


def command_prints_other_tests(run: Run, ev: Evidence) -> list[Finding]:
    """The output holds tests the command shown did not ask for: it is not that command's output."""
    expected = asked(run)
    if expected is None:
        return []
    printed = [test["name"] for test in run.metrics.get("tests") or []]
    extra = [name for name in printed if not any(name.startswith(test) for test in expected)]
    if not extra:
        return []
    named = ", ".join(extra[:3]) + (f" and {len(extra) - 3} more" if len(extra) > 3 else "")
    return [
        ev.finding(
            "unixbench-command-other-tests",
            "warning",
            f"the command shown ({run.command}) asks for {len(set(expected))} "
            f"test{'s' if len(set(expected)) != 1 else ''}, but the output holds {len(printed)}: {named} "
            f"{'were' if len(extra) > 1 else 'was'} not asked for. This output came from another command, so "
            "rerunning the one shown will not reproduce it",
            r"^\s*" + re.escape(extra[0]),
        )
    ]


CHECKS = (command_prints_other_tests,)

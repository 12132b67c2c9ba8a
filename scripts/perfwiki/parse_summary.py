"""`perfwiki parse --format summary`: what was found in raw files, told in a few lines a run.

For each file, each run's tool, the lines of its output and its key result, the command it was
attributed to and that command's line (or "no command"), and every problem, as path:line. Made
for an author checking a paste before committing it, so it says where to look, not every number
(json and yaml do). tests/fixtures/transcripts/output-without-command.txt, a fio command and its
output, then an iperf3 output pasted without the line that ran it, begins::

    tests/fixtures/transcripts/output-without-command.txt: 4 runs
      fio (run randread-qd8), output lines 2-32: IOPS 71.4k
        command at line 1: fio --name=randread-qd8 --filename=/tmp/perfwiki-data/f.dat --size=8M
        --rw=randread --bs=4k --ioengine=libaio --iodepth=8 --direct=1 --runtime=1 --time_based
      iperf3 (run iperf3), output lines 33-40: Throughput 22.2 Gbits/sec
        no command
        tests/fixtures/transcripts/output-without-command.txt:33: no command before this output:
        parameters come from the output only

(its long lines folded here).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from . import tools, units
from .model import Problem, Run

# Results a run's line shows at most: one per part (fio's read and write, mbw's methods).
_RESULTS = 3


def summary(paths: Sequence[str], runs: Iterable[Run], problems: Iterable[Problem]) -> str:
    """The summary of these files, in the order given; `runs` and `problems` as extract gave them."""
    by_path: dict[str, tuple[list[Run], list[Problem]]] = {path: ([], []) for path in paths}
    for run in runs:
        by_path.setdefault(run.source.path, ([], []))[0].append(run)
    for problem in problems:
        by_path.setdefault(problem.path, ([], []))[1].append(problem)
    lines: list[str] = []
    for path, (found, said) in by_path.items():
        count = f"{len(found)} run{'' if len(found) == 1 else 's'}" if found else "no runs"
        lines.append(f"{path}: {count}")
        for run in found:
            lines.extend(_run_lines(run))
        lines.extend(f"  {problem}" for problem in sorted(said, key=lambda problem: problem.line))
    return "\n".join(lines) + "\n"


def _run_lines(run: Run) -> list[str]:
    start = run.output_start or run.source.line_start
    result = _key_result(run)
    where = "typed by hand at lines" if run.format == "manual" else "output lines"
    lines = [f"  {run.tool} (run {run.id}), {where} {start}-{run.source.line_end}{': ' + result if result else ''}"]
    if run.label:
        lines.append(f"    label: {run.label}")
    if run.command is None:
        if run.format != "manual":  # manual.yaml holds numbers, never a command
            lines.append("    no command")
    else:
        at = f" at line {run.command_line}" if run.command_line else ""
        lines.append(f"    command{at}: {run.command}")
    lines.extend(f"    {run.source.path}:{start}: {warning}" for warning in run.warnings)
    return lines


def _key_result(run: Run) -> str:
    """The run's first headline number for each of its parts ('read IOPS 21.9k, write IOPS 21.9k')."""
    headline = tools.get(run.tool).headline(run)
    if not headline:
        return ""
    metric = headline[0].get("metric")
    if metric is None:  # a headline of its own (UnixBench's score, iostat's devices): its first line
        shown = headline[:1]
    else:
        shown = [item for item in headline if item.get("metric") == metric][:_RESULTS]
    shown = [item for item in shown if item["value"] is not None]
    return ", ".join(f"{item['label']} {units.quantity_text(item['value'])}" for item in shown)

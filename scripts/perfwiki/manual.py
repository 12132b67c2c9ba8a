"""manual.yaml: results that have no raw output, typed from a screenshot, a table or a vendor sheet.

A raw folder may hold a `manual.yaml`::

    # Typed from the original page's summary table; no raw output was published.
    note: "Summary table of section 2.2 (EXT4) of the original page"
    runs:
      - tool: fio
        section: "3.1 BandWidth"
        label: "【1. Sequential Write】"
        params: {rw: write, bs_bytes: 1048576, iodepth: 4096, numjobs: 1, ioengine: libaio, direct: true}
        metrics:
          jobs:
            - {name: sequential_write_bandwidth_test, write: {bw_bytes_per_s: 1943000000}}

Every entry becomes a run with format "manual" and the note as a warning, so it
is always shown as entered by hand, never mistaken for parsed output. Metrics use
the same canonical units and names as the tool's parser.
"""

from __future__ import annotations

from typing import Any

from . import tools
from .model import Problem, Run, Source

FILE_NAMES = ("manual.yaml", "manual.yml")


def _entry_lines(text: str) -> list[tuple[int, int]]:
    """(first, last) 1-based lines of each item of the top-level `runs:` list."""
    import yaml

    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml: 20x faster on a long manual.yaml
    try:
        root = yaml.compose(text, Loader=loader)
    except yaml.YAMLError:
        return []
    if not isinstance(root, yaml.MappingNode):
        return []
    for key, value in root.value:
        if key.value == "runs" and isinstance(value, yaml.SequenceNode):
            return [
                (item.start_mark.line + 1, max(item.start_mark.line + 1, item.end_mark.line)) for item in value.value
            ]
    return []


def parse(path: str, text: str, digest: str) -> tuple[list[Run], list[Problem]]:
    import yaml  # loaded only when there is a manual.yaml: `perfwiki parse` starts faster without it

    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    try:
        document = yaml.load(text, Loader=loader)
    except yaml.YAMLError as exc:
        line = exc.problem_mark.line + 1 if getattr(exc, "problem_mark", None) else 1
        return [], [Problem(path, line, f"manual.yaml is not valid YAML: {getattr(exc, 'problem', exc)}")]
    entries = (document or {}).get("runs") if isinstance(document, dict) else None
    if not isinstance(entries, list) or not entries:
        return [], [Problem(path, 1, "manual.yaml needs a `runs:` list")]
    note = str(document.get("note") or "entered by hand")
    lines = _entry_lines(text)
    runs, problems = [], []
    for index, entry in enumerate(entries):
        first, last = lines[index] if index < len(lines) else (1, 1)
        problem = _check(entry)
        if problem:
            problems.append(Problem(path, first, f"manual run {index + 1}: {problem}"))
            continue
        runs.append(
            Run(
                id=str(entry.get("id") or ""),
                tool=entry["tool"],
                tool_version=None,
                format="manual",
                label=entry.get("label"),
                section=entry.get("section"),
                command=entry.get("command"),
                source=Source(path, first, last, digest),
                params=dict(entry.get("params") or {}),
                metrics=dict(entry["metrics"]),
                warnings=[f"manual: {note}"],
            )
        )
    return runs, problems


def _check(entry: Any) -> str | None:
    if not isinstance(entry, dict):
        return "each run is a mapping"
    if entry.get("tool") not in tools.NAMES:
        return f"tool must be one of {', '.join(tools.NAMES)}"
    if not isinstance(entry.get("metrics"), dict) or not entry["metrics"]:
        return "metrics are missing"
    if entry.get("params") is not None and not isinstance(entry["params"], dict):
        return "params must be a mapping"
    jobs = entry["metrics"].get("jobs")
    if jobs is not None and not (isinstance(jobs, list) and all(isinstance(job, dict) for job in jobs)):
        return "metrics.jobs must be a list of mappings, one per fio job"
    return None

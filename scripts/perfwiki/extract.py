"""One raw file in, its runs and problems out.

This is the whole per-file pipeline: decode, split into segments, pick the tool
of each segment, hand it to that tool's parser, and wrap what comes back into
Run records with their exact source location. Nothing here writes anything.
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
from dataclasses import dataclass, field

from . import checks, manual
from .model import Problem, Run, Source
from .parsers import PARSERS, detect_tool
from .segments import Segment, physical_lines, split


@dataclass
class Extracted:
    runs: list[Run] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)


def sha256_hex(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


_ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b\][^\x07]*\x07")
_CJK = re.compile(r"[\u4e00-\u9fff]")


def decode(data: bytes) -> str:
    """Text of a raw file as people save it; raises UnicodeDecodeError when no reading is safe.

    UTF-8 (with or without BOM); UTF-16 with a BOM or, without one, by its NUL pattern
    (PowerShell's `>` writes UTF-16LE); GB18030/GBK from Chinese Windows, accepted only
    when it yields Chinese text, so other 8-bit text is reported rather than garbled.
    Terminal colour codes are removed and lone CR line ends become newlines.
    """
    text = _decode_bytes(data)
    text = _ANSI.sub("", text)
    if "\r" in text and "\n" not in text:
        text = text.replace("\r", "\n")  # classic Mac / some Windows tools: CR alone ends lines
    return text


def _decode_bytes(data: bytes) -> str:
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        return data.decode("utf-16")
    if data.startswith(b"\xef\xbb\xbf"):
        return data.decode("utf-8-sig")
    sample = data[:4096]
    if len(sample) >= 4 and sample[1::2].count(0) > len(sample) // 4:
        return data.decode("utf-16-le")
    if len(sample) >= 4 and sample[0::2].count(0) > len(sample) // 4:
        return data.decode("utf-16-be")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as not_utf8:
        try:
            text = data.decode("gb18030")
        except UnicodeDecodeError:
            raise not_utf8 from None
        if _CJK.search(text):
            return text
        raise not_utf8 from None


def _loose_command(parser, report, loose: list[Segment]) -> Segment | None:
    """The one command shown without output elsewhere in the file that fits this output."""
    fits = getattr(parser, "command_fits", None)
    if fits is None:
        return None
    matches = [segment for segment in loose if fits(report, segment.command)]
    return matches[0] if len(matches) == 1 else None


def _runs_of_segment(segment: Segment, path: str, digest: str, out: Extracted, loose: list[Segment]) -> None:
    tool = segment.tool_hint or detect_tool(segment.text)
    if tool is None:
        return  # prose, or the output of a command we do not benchmark (ls, df)
    parser = PARSERS.get(tool)
    if parser is None:
        if segment.lines:
            out.problems.append(Problem(path, segment.line_start, f"no parser for {tool} output yet"))
        return
    if not segment.lines:
        return  # a command shown without its output: nothing to publish
    try:
        reports = parser.parse(segment.text)
    except Exception as exc:  # noqa: BLE001 - one bad paste must never stop an ingest
        out.problems.append(
            Problem(path, segment.line_start, f"internal parser error in {tool}: {type(exc).__name__}: {exc}")
        )
        return
    for position, report in enumerate(reports):
        first = segment.lines[report.line_start].number
        last = segment.lines[min(report.line_end, len(segment.lines) - 1)].number
        for offset, message in report.problems:
            out.problems.append(Problem(path, segment.lines[offset].number, message))
        if not report.has_results():
            continue
        # The command belongs to the first invocation printed after it.
        command = segment.command if position == 0 else None
        label = _label(segment, report, position)
        adopted = None
        if command is None:
            adopted = _loose_command(parser, report, [s for s in loose if s.tool_hint == tool])
            command = adopted.command if adopted else None
        params, warnings = parser.params(report, command)
        if adopted:
            warnings.append(f"command shown apart from its output, at line {adopted.command_line}")
        out.runs.append(
            Run(
                id="",
                tool=tool,
                tool_version=report.tool_version,
                format=getattr(report, "format", "text"),
                label=label,
                section=segment.section,
                command=command,
                source=Source(path, segment.command_line if command and not adopted else first, last, digest),
                params=params,
                metrics=report.metrics,
                warnings=warnings + report.warnings,
            )
        )


def _label(segment: Segment, report, position: int) -> str | None:
    """The nearest label above a report: a comment in the segment, or the parser's own find."""
    first = segment.lines[report.line_start].number
    if position > 0 or segment.command is None:
        from_segment = segment.label_at(first)
    else:
        from_segment = segment.label
    return getattr(report, "label", None) or from_segment


def extract(path: str, data: bytes) -> Extracted:
    """Runs and problems of one raw file. `path` is how problems and sources name it."""
    out = Extracted()
    digest = sha256_hex(data)
    try:
        text = decode(data)
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        out.problems.append(Problem(path, line, f"not valid UTF-8 (byte {exc.start}): {exc.reason}"))
        return out
    if path.replace("\\", "/").rsplit("/", 1)[-1] in manual.FILE_NAMES:
        out.runs, out.problems = manual.parse(path, text, digest)
        return out
    segments = split(text)
    bench_line = re.match(r"\A# (perfwiki bench .+)$", text, re.M)
    # Pages often list the commands once and paste the outputs elsewhere (seed 001).
    loose = [segment for segment in segments if segment.command and segment.tool_hint and not segment.lines]
    for segment in segments:
        _runs_of_segment(segment, path, digest, out, loose)
    if bench_line:  # written by `perfwiki bench`: every run can be reproduced with that line
        for run in out.runs:
            run.reproduce = bench_line.group(1)
    lines = physical_lines(text)
    raw_lines = [""] * (lines[-1].number if lines else 0)  # by line number: unwrapped lines leave gaps
    for line in lines:
        raw_lines[line.number - 1] = line.text
    for run in out.runs:
        findings = checks.check(run, raw_lines)
        run.checks = [finding.to_dict() for finding in findings]
        run.warnings += [f"{finding.severity}: {finding.message}" for finding in findings if finding.severity != "info"]
    if not out.runs and not out.problems:
        out.problems.append(Problem(path, 1, "no benchmark output found"))
    return out


def slug(text: str) -> str:
    """A URL- and file-safe slug: 'Sequential Write (1M)' -> 'sequential-write-1m'."""
    ascii_text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z0-9]+", "-", ascii_text.lower()).strip("-")


def run_name(run: Run) -> str:
    """What a run calls itself: the fio job name on the command, else in the output."""
    if run.params.get("name"):
        return str(run.params["name"])
    jobs = run.metrics.get("jobs") or []
    if jobs and jobs[0].get("name"):
        return str(jobs[0]["name"])
    return run.label or run.tool


def assign_ids(runs: list[Run]) -> None:
    """Give every run a stable slug id, unique in the list: a second twin gets '-2'.

    Runs of a report are prefixed with their environment, so the same job run on two
    machines gets two readable ids.
    """
    taken: set[str] = {run.id for run in runs if run.id}
    for run in runs:
        if run.id:
            continue
        name = f"{run.environment}-{run_name(run)}" if run.environment else run_name(run)
        base = slug(name) or run.tool
        candidate, counter = base, 2
        while candidate in taken:
            candidate, counter = f"{base}-{counter}", counter + 1
        run.id = candidate
        taken.add(candidate)

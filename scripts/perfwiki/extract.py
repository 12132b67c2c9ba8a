"""One raw file in, its runs and problems out.

This is the whole per-file pipeline: split the decoded text into segments, pick the
tool of each segment, hand it to that tool's parser, and wrap what comes back into
Run records with their exact source location; then each run's checks and
fingerprints, computed once. Nothing here writes anything.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Collection, Iterable, Iterator, Sequence
from dataclasses import dataclass, field

from . import lazyre, manual, tools, underload
from .collector import fewer_collections
from .decode import binary_at, decode
from .model import Problem, Run, Source, sha256_hex, slug
from .segments import Line, NumberedLines, Segment, read, segments_of, stream_lines, streamable
from .shell import basename, shell_words
from .tools.base import Tool, ToolReport
from .tools.fio import logs as fio_logs


@dataclass
class Extracted:
    runs: list[Run] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    log: fio_logs.Log | None = None  # a fio log file: the run that wrote it carries it (tools/fio/logs.py)
    count: int = 0  # runs found, whether kept in `runs` or handed to a sink (extract_text)


def _loose_command(tool: Tool, report: ToolReport, loose: list[Segment]) -> Segment | None:
    """The one command shown without output elsewhere in the file that fits this output."""
    matches = [segment for segment in loose if tool.command_fits(report, segment.command)]
    return matches[0] if len(matches) == 1 else None


def _runs_of_segment(segment: Segment, source: Source, out: Extracted, loose: Callable[[str], list[Segment]]) -> None:
    text = segment.text  # joined from its lines: once, for detect and parse
    hinted = tools.get(segment.tool_hint) if segment.tool_hint else None
    tool = hinted or tools.detect(text)
    if tool is None or not segment.lines:
        return  # prose, the output of a command we do not benchmark (ls, df), or a command without output
    path = source.path
    reports = _parsed(tool, text, segment, path, out)
    if hinted is not None and not any(report.has_results() for report in reports):
        # The command printed nothing (or its output was left out) and another tool's output follows
        # it: that output is read as what it is, and the command is not taken for its own.
        other = tools.detect(text)
        if other is not None and other is not hinted:
            others = _parsed(other, text, segment, path, Extracted())
            if any(report.has_results() for report in others):
                tool, reports = other, others
    runs_tool = _runs_tool(segment.command, tool)
    after = _after_reports(segment, reports)
    for position, report in enumerate(reports):
        first = segment.lines[report.line_start].number
        last = segment.lines[min(report.line_end, len(segment.lines) - 1)].number
        for offset, message in report.problems:
            out.problems.append(Problem(path, segment.lines[offset].number, message))
        if not report.has_results():
            continue
        # The command belongs to the first invocation printed after it, when it runs that tool:
        # the output of `cat fio.log` was not made by cat.
        own = position == 0 and runs_tool
        command = segment.command if own else None
        command_line = segment.command_line if own else None
        label = _label(segment, report, position)
        adopted = None
        if command is None:
            adopted = _loose_command(tool, report, loose(tool.name))
            if adopted:
                command, command_line = adopted.command, adopted.command_line
        params, warnings = tool.params(report, command)
        if adopted:
            warnings.append(f"command shown apart from its output, at line {adopted.command_line}")
        elif command is None:
            warnings.append(_no_command(segment, tool, runs_tool))
        start = segment.command_line if own else first
        out.runs.append(
            Run(
                id="",
                tool=tool.name,
                tool_version=report.tool_version,
                format=report.format,
                label=label,
                section=segment.section,
                command=command,
                source=Source(path, start, last, source.sha256),
                params=params,
                metrics=report.metrics,
                warnings=warnings + report.warnings,
                command_line=command_line,
                output_start=first,
            )
        )
    if after is not None and tools.detect(after.text) not in (None, tool):
        _runs_of_segment(after, source, out, loose)  # another tool's output pasted on without its command


def _after_reports(segment: Segment, reports: Sequence[ToolReport]) -> Segment | None:
    """The segment's lines after the last of its tool's reports, when any is more than blank: a paste
    of fio output then iperf3's, without the iperf3 command between, is one segment."""
    if not reports:
        return None
    end = max(report.line_end for report in reports) + 1
    rest = segment.lines[end:]
    if not any(line.text.strip() for line in rest):
        return None
    # A comment below the reports names what follows it (Segment.label_at); the label above the
    # command is its own run's.
    markers = [(number, text) for number, text in segment.markers if number > segment.lines[end - 1].number]
    return Segment(lines=rest, section=segment.section, markers=markers)


def _parsed(tool: Tool, text: str, segment: Segment, path: str, out: Extracted) -> list[ToolReport]:
    """The tool's reports of a segment's output; none, and a problem, when its parser fails."""
    try:
        return tool.parse(text)
    except Exception as exc:  # noqa: BLE001 - one bad paste must never stop an ingest
        out.problems.append(
            Problem(path, segment.line_start, f"internal parser error in {tool.name}: {type(exc).__name__}: {exc}")
        )
        return []


def _runs_tool(command: str | None, tool: Tool) -> bool:
    """Whether a command line runs the tool, wrapped as it may be (`sudo`, `docker exec c fio`, `ssh db7 iperf3`)."""
    if not command:
        return False
    for word in shell_words(command):
        name = basename(word)
        if name in tool.commands or (name in tool.path_only_commands and "/" in word.replace("\\", "/")):
            return True
    return False


def _no_command(segment: Segment, tool: Tool, runs_tool: bool) -> str:
    """The warning of a run whose output shows no command of its own."""
    if segment.command is None:
        said = "no command before this output"
    elif runs_tool:  # a second invocation printed under one command
        said = f"no command of its own before this output (the one at line {segment.command_line} ran the run above it)"
    else:
        said = f"the command before this output (line {segment.command_line}) does not run {tool.name}"
    return f"{said}: parameters come from the output only"


def _label(segment: Segment, report, position: int) -> str | None:
    """The nearest label above a report: a comment in the segment, or the parser's own find."""
    first = segment.lines[report.line_start].number
    if position > 0 or segment.command is None:
        from_segment = segment.label_at(first)
    else:
        from_segment = segment.label
    return getattr(report, "label", None) or from_segment


def extract(path: str, data: bytes) -> Extracted:
    """Runs and problems of one raw file as saved. `path` is how problems and sources name it."""
    try:
        text = decode(data)
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        return Extracted(problems=[Problem(path, line, f"not valid UTF-8 (byte {exc.start}): {exc.reason}")])
    return extract_text(text, Source(path, 1, 1, sha256_hex(data)))


# Runs a transcript hands on at a time when extract_text is given a sink: finished (checked,
# fingerprinted) and let go, so a file of 100,000 runs never has them all in memory.
SINK_BATCH = 500


def extract_text(text: str, source: Source, sink: Callable[[list[Run]], None] | None = None) -> Extracted:
    """Runs and problems of one decoded raw file; `source` names the file, its sha256 and redaction.

    With a `sink`, the runs go to it as they are finished, a few hundred at a time, in file order,
    rather than into the result's `runs` (its `count` says how many there were).
    """
    with fewer_collections():
        return _extract_text(text, source, sink)


def _extract_text(text: str, source: Source, sink: Callable[[list[Run]], None] | None = None) -> Extracted:
    out = Extracted()
    kept: list[Run] = []

    def finish(runs: list[Run]) -> None:
        underload.pair(runs)  # before the fingerprints: a ping under load is not an idle ping
        for run in runs:
            run.fingerprints = tools.fingerprints(run)
            if source.redacted:
                run.source = dataclasses.replace(run.source, redacted=True)
        out.count += len(runs)
        if runs:
            (sink or kept.extend)(runs)

    path = source.path
    nul = binary_at(text)
    if nul is not None:  # publishing asks decode.refused() the same question of the file on disk
        line = text.count("\n", 0, nul) + 1
        out.problems.append(
            Problem(path, line, f"binary file (NUL bytes from character {nul + 1}): refused, not published")
        )
        return out
    if path.replace("\\", "/").rsplit("/", 1)[-1] in manual.FILE_NAMES:
        runs, out.problems = manual.parse(path, text, source.sha256)
        finish(runs)
    elif fio_logs.is_log(path):
        out.log, out.problems = fio_logs.parse(path, text)
    else:
        _extract_transcript(text, source, out, finish)
        if not out.count and not out.problems:
            out.problems.append(Problem(path, 1, "no benchmark output found"))
    out.runs = kept
    return out


# The first line of a file `perfwiki bench` wrote.
_BENCH_LINE = lazyre.compile(r"\A# (perfwiki bench .+)$", re.M)


def _extract_transcript(text: str, source: Source, out: Extracted, finish: Callable[[list[Run]], None]) -> None:
    """The transcript's runs into `out.runs`, handed to `finish` checked, every SINK_BATCH of them."""
    if streamable(text):
        _extract_long_transcript(text, source, out, finish)
        return
    lines, segments = read(text)
    # From the first line as unwrapped: a terminal or mail client may have cut the long command.
    bench_line = _BENCH_LINE.match(lines[0].text) if lines and text.startswith("# perfwiki bench ") else None
    if isinstance(lines, NumberedLines):  # a file that is one JSON object, its lines as they are
        raw_lines: Sequence[str] = lines.texts
    elif lines and lines[-1].number != len(lines):  # by line number: unwrapped lines leave gaps
        raw_lines = [""] * lines[-1].number
        for line in lines:
            raw_lines[line.number - 1] = line.text
    else:  # numbered 1 to n, as nearly every file is
        raw_lines = [line.text for line in lines]
    del lines  # the segments hold what they need of them
    # Pages often list the commands once and paste the outputs elsewhere (seed 001).
    loose = _loose_segments(segments)
    _parse(segments, source, out, finish, lambda tool: loose.get(tool, []), raw_lines, bench_line)


def _extract_long_transcript(text: str, source: Source, out: Extracted, finish: Callable[[list[Run]], None]) -> None:
    """_extract_transcript of a long plain transcript (segments.streamable), a stretch of lines at
    a time: a 200 MB file held its text, then every line as an object (three times the text's
    size), every segment, and a list of every line for the checks. Here the lines go as soon as
    their segment is parsed; the checks see a run's own lines (_RecentLines)."""
    recent = _RecentLines()
    loose: dict[str, list[Segment]] | None = None

    def loose_of(tool: str) -> list[Segment]:
        # A command shown apart from its output may be anywhere in the file: looked for only when
        # an output without its command asks, by reading the file's segments once more.
        nonlocal loose
        if loose is None:
            loose = _loose_segments(segments_of(stream_lines(text)))
        return loose.get(tool, [])

    first_line = next(stream_lines(text), None)
    bench_line = _BENCH_LINE.match(first_line.text) if first_line and text.startswith("# perfwiki bench ") else None
    segments = recent.each_read(segments_of(recent.keep(stream_lines(text))))
    _parse(segments, source, out, finish, loose_of, recent, bench_line)


def _parse(
    segments: Iterable[Segment],
    source: Source,
    out: Extracted,
    finish: Callable[[list[Run]], None],
    loose: Callable[[str], list[Segment]],
    raw_lines: Sequence[str],
    bench_line: re.Match[str] | None,
) -> None:
    """Each segment's runs, checked, handed to `finish` every SINK_BATCH of them and at the end."""
    for segment in segments:
        checked = len(out.runs)
        _runs_of_segment(segment, source, out, loose)
        _check(out.runs[checked:], raw_lines, bench_line)
        if len(out.runs) >= SINK_BATCH:
            finish(out.runs)
            out.runs = []
    finish(out.runs)
    out.runs = []


def _loose_segments(segments: Iterable[Segment]) -> dict[str, list[Segment]]:
    """The commands shown without output, by the tool each runs."""
    loose: dict[str, list[Segment]] = {}
    for segment in segments:
        if segment.command and segment.tool_hint and not segment.lines:
            loose.setdefault(segment.tool_hint, []).append(segment)
    return loose


def _check(runs: list[Run], raw_lines: Sequence[str], bench_line: re.Match[str] | None) -> None:
    """Each run's methodology checks, from its lines in the file."""
    for run in runs:
        if bench_line:  # written by `perfwiki bench`: every run can be reproduced with that line
            run.reproduce = bench_line.group(1)
        findings = tools.get(run.tool).check(run, raw_lines)
        run.checks = [finding.to_dict() for finding in findings]
        run.warnings += [f"{finding.severity}: {finding.message}" for finding in findings if finding.severity != "info"]


class _RecentLines(Sequence[str]):
    """The texts of a file's lines from the start of the segment being read on, as the checks ask
    for them: by 0-based line index, as a list of every line; len() is every line read so far."""

    def __init__(self) -> None:
        self.texts: list[str] = []
        self.first = 1  # the number of texts[0]

    def keep(self, lines: Iterable[Line]) -> Iterator[Line]:
        for line in lines:
            self.texts.append(line.text)
            yield line

    def each_read(self, segments: Iterable[Segment]) -> Iterator[Segment]:
        """The segments, the lines before each let go as it comes (the checks ask from its start on)."""
        for segment in segments:
            self.forget_before(segment.line_start)
            yield segment

    def forget_before(self, number: int) -> None:
        drop = min(number - self.first, len(self.texts))
        if drop > 0:
            del self.texts[:drop]
            self.first += drop

    def __len__(self) -> int:
        return self.first - 1 + len(self.texts)

    def __getitem__(self, index):  # type: ignore[no-untyped-def] - slices, as Evidence asks
        if not isinstance(index, slice) or index.step not in (None, 1):
            raise TypeError("recent lines are read by slices of consecutive lines")
        offset = self.first - 1
        start = max((index.start or 0) - offset, 0)
        stop = len(self.texts) if index.stop is None else max(index.stop - offset, 0)
        return self.texts[start:stop]


def assign_ids(runs: list[Run], retired: Collection[str] = ()) -> list[Problem]:
    """Give every run a slug id made from its own file alone: '<environment>-<file>-<name>', '-N' for the N-th.

    An id is an address prose cites, so nothing outside the run's own file may move it: adding,
    removing or renaming another raw file changes no id (issue 30). It is made of
    - the environment (the folder under raw/) and the file's path within it, its extension
      dropped (`_file_part`): left out when the file is named for the run's tool (fio.txt,
      iperf3.md) or is manual.yaml, so '<environment>-<name>' stays what most reports cite;
    - the run's name: its own (a fio job name, a label) when it tells the truth, else one made
      from its parameters (`Tool.id_name`: a job 'random-read' run with rw=read is '4k-seq-read');
    - N, the ordinal among the runs of that file that gave that same name, in file order,
      whatever name each then took: the fourth job named 'EBS 4K randwrite test' is '-4' even
      when the second and third were renamed for what they really did, so a run keeps its id
      when another's is corrected. Runs renamed from their parameters are counted among the
      runs renamed alike.
    Three files each holding a 'randread' job give '<env>-<file1>-randread', '<env>-<file2>-randread'...

    No run is given a `retired` id (the old ids of the report's aliases.yaml, aliases.py): the
    next number is taken instead, so an address once published never comes to mean another run.

    Two files can still spell one id (fio.md and fio.txt, or 'a.md' with job 'b-c' beside 'a-b.md'
    with job 'c'): the run of the file that comes later gets the next number, and each such run is
    a problem returned here, since its id then depends on the other file.
    """
    taken: dict[str, str] = {run.id: run.source.path for run in runs if run.id}
    taken.update((old, "") for old in retired if old not in taken)
    problems: list[Problem] = []
    # Runs counted so far per file and name given or made from parameters: the next N is one
    # more, never a search through the ids before it (300 runs of one job once took 45,000 tries).
    counted: dict[tuple[str, str, str], int] = {}
    # Per base, numbers low..high all known taken: a probe inside them jumps past once it has
    # found its clash (300 files of one job name each probed every id the files before them took).
    filled: dict[str, tuple[int, int]] = {}
    for run in runs:
        if run.id:
            continue
        tool = tools.get(run.tool)
        path = run.source.path
        given, told = tool.run_name(run), tool.id_name(run)
        given_base, base = _id_base(run, given, tool.name), _id_base(run, told, tool.name)
        counted[path, "given", given_base] = number = counted.get((path, "given", given_base), 0) + 1
        if told != given:
            counted[path, "made", base] = number = counted.get((path, "made", base), 0) + 1
        candidate = wanted = base if number == 1 else f"{base}-{number}"
        clash = None
        start = number
        while candidate in taken:  # a name that happens to end in '-N', a retired id, another file's id
            if taken[candidate] not in ("", path) and clash is None:
                clash = taken[candidate]
            low, high = filled.get(base, (0, -1))
            number = high + 1 if clash is not None and low <= number <= high else number + 1
            candidate = f"{base}-{number}"
        low, high = filled.get(base, (0, -1))
        filled[base] = (low, number) if low <= start <= high + 1 else (start, number)
        if clash is not None:
            message = (
                f"run id {wanted!r} is also made from {clash}: this run is {candidate!r} while that file is there; "
                "rename one of the files (or the job) so their ids differ"
            )
            problems.append(Problem(path, run.source.line_start, message, "warning"))
        run.id = candidate
        taken[candidate] = path
    return problems


def _file_part(run: Run, tool: str) -> str:
    """What of its raw file a run's id names: the path within the environment's folder, extension dropped.

    Left out ('') for a file named for the run's tool or manual.yaml: one file per tool is how
    most reports are laid out, and their ids need no more than '<environment>-<name>'.
    """
    path = run.source.path.replace("\\", "/")
    if "/raw/" not in path:  # a file outside a report (`perfwiki parse`): no address to keep apart
        return ""
    within = path.split("/raw/", 1)[1].split("/", 1)[-1]
    if within.rsplit("/", 1)[-1] in manual.FILE_NAMES:
        return ""
    folder, _, name = within.rpartition("/")
    stem = name.rsplit(".", 1)[0] if "." in name.lstrip(".") else name
    part = slug(f"{folder}/{stem}")
    return "" if part == slug(tool) else part


def _id_base(run: Run, name: str, tool: str) -> str:
    words = [run.environment or "", _file_part(run, tool), name]
    return slug("-".join(word for word in words if word)) or tool

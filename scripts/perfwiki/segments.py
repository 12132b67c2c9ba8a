"""Split a raw file into segments: (label, command, output lines).

A raw file is what people paste: a terminal transcript with prompts and
comments, or a markdown page (like the seeds) whose fenced code blocks hold the
transcripts and whose headings and bold lines name them. Every tool's parser
works on one segment at a time and never sees prompts, fences or prose.

Line numbers are 1-based physical lines of the original file, so a problem or a
run's source range points at the right line in an editor.
"""

from __future__ import annotations

import functools
import itertools
import re
import unicodedata
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import overload

from . import lazyre, tools, wholejson
from .shell import programs

# Prompts that name where they are (a user@host, a bracket, a Windows drive, zsh's arrow): behind
# one, any command counts, and a command that runs no known tool (ls, df) still ends the output above.
_STRONG_PROMPTS = [
    r"\[[^\]\n]*\][#$]\s*",  # [root@host dir]# and [essd_pl3]#
    r"[\w.-]+@[\w.-]+:[~/][^\s>#$]*>\s+",  # user@host:~> (SUSE), before the next takes a later '$'
    r"[\w.-]+@[\w.-]+:[^#$\n]*[#$]\s+",  # user@host:~$ / root@host:/x#
    r"[\w.-]+@[\w.-]+\[[^\]]*\][#$]\s+",  # root@truenas[/mnt/x]#
    r"[\w.-]+@[\w.-]+ [^\s#$%>]+ [%#$]\s+",  # user@host ~ % (zsh on macOS)
    r"(?:\[I\] )?[\w.-]+@[\w.-]+ [~/][^\s>]*(?: \([^)\n]*\))?>\s+",  # fish: alice@db7 ~/p (main)>
    r"PS (?:[A-Za-z]:\\|/)[^>]*>\s*",  # PS C:\Users\x> (and pwsh's PS /home/x>)
    r"[A-Za-z]:\\[^>]*>\s*",  # D:\> (cmd.exe)
    r"\u279c\s+\S+(?: git:\([^)\n]*\))?(?: \u2717)?\s+",  # oh-my-zsh: ➜  data git:(main) ✗
]
# Prompts that output can look like ("/dev/sda # system disk", "Total% 5"): taken only when a known
# tool follows (_command_in). A path prompt is busybox/ash's "\w \$" (/mnt/data # , ~ $ ); a
# device or kernel path is a file, never a folder a shell sits in. A host prompt is zsh's
# "%m%#" (host% ), SUSE root's host:~ # , or bash's own bash-5.2$ .
_WEAK_PROMPTS = [
    r"(?!/dev/|/proc/|/sys/)[~/][^\s#$%]*\s[#$]\s+",
    r"[A-Za-z][\w.-]*(?::[~/][^\s#$%]*\s)?[%#$]\s+",
    r"[$#%]\s*",  # $ cmd, $cmd, # cmd, #cmd
]
# A conda or virtualenv name before a prompt: (base) user@host:~$ , (venv) $
_ENV_PREFIX = r"(?:\([\w.-]+\) )?"
# One pattern: an alternation takes its first alternative that matches, as a loop over them would.
_PROMPT = lazyre.compile("^" + _ENV_PREFIX + "(?:" + "|".join(_STRONG_PROMPTS + _WEAK_PROMPTS) + ")")
_WEAK_PROMPT = lazyre.compile(_ENV_PREFIX + "(?:" + "|".join(_WEAK_PROMPTS) + ")")
# The host a weak prompt names (zsh's host% , SUSE's host:~ # ); bash-5.2$ and sh-4.4# name a shell.
_HOST_PROMPT = lazyre.compile(r"(?!(?:ba|da|z|k|c|tc|fi)?sh\b)(?P<host>[A-Za-z][\w.-]*)(?::\S*\s)?[%#]\s+$")
# A prompt printed on a line of its own, the command following on the next line
# after '#' or '$': "[root@x86.170 /polarx/lvm]" then "#fio ...".
_PROMPT_LINE = lazyre.compile(r"^\s*\[[^\]\n]*@[^\]\n]*\]\s*$")
_CONTINUED_PROMPT = lazyre.compile(r"^[#$]\s*")
# bash's PS2, before each line of a command continued with a backslash as a terminal shows it.
_PS2 = lazyre.compile(r"^\s*> ?")

_FENCE = lazyre.compile(r"^\s*(```+|~~~+)")
_HEADING = lazyre.compile(r"^\s{0,3}(#{1,6})\s+(?P<text>.+?)\s*#*\s*$")
_LIST_LABEL = lazyre.compile(r"^\s{0,3}[*+-]\s+(?P<text>\S.{0,59})$")
_EMPHASIS = lazyre.compile(r"(\*\*|__|`)")
# "[text](url)" and "![alt](src)" in a heading: the label is the text, never the markup.
_LINK = lazyre.compile(r"!?\[(?P<text>[^\]]*)\]\([^)]*\)")
_VERSION_WORD = lazyre.compile(r"^v?\d+(\.\d+)+")


def _shortest_names(names: set[str]) -> list[str]:
    """The names that hold no other name: a text holds one of `names` exactly when it holds one of these.

    "fio.exe" and "iperf3.exe" go, as "fio" and "iperf3" are in them; fewer alternatives
    for the pattern below to try at every character of every line.
    """
    return sorted(name for name in names if not any(other != name and other in name for other in names))


# A program name is a substring of any command that runs it (`/usr/bin/fio`, `sudo iperf3`).
_NAMES_A_PROGRAM = lazyre.compile("|".join(re.escape(name) for name in _shortest_names(tools.all_command_names())))

# A pseudo-heading is a short line its author marked up to stand out:
# "【**1. Sequential Write**】" or "**Random read**". Prose paragraphs are not labels.
_MAX_LABEL_CHARS = 60


@dataclass(slots=True)  # a file of 100,000 runs has millions: no __dict__ each
class Line:
    number: int
    text: str


@dataclass
class Segment:
    """One command (or one stretch of output without a command) and what it printed."""

    lines: list[Line] | NumberedLines
    command: str | None = None
    command_line: int | None = None
    label: str | None = None
    section: str | None = None
    tool_hint: str | None = None  # the tool the command invokes, when it names one
    # Comments met inside the segment, with their line numbers: in a paste of several
    # outputs without commands, each names the output that follows it.
    markers: list[tuple[int, str]] = field(default_factory=list)

    def label_at(self, line_number: int) -> str | None:
        """The label of output starting at `line_number`: the nearest comment above it,
        except that a comment under a command ("# result") does not rename the command."""
        if self.command is None:
            above = [text for number, text in self.markers if number < line_number]
            if above:
                return above[-1]
        return self.label

    @property
    def line_start(self) -> int:
        return self.command_line or (self.lines[0].number if self.lines else 0)

    @property
    def line_end(self) -> int:
        if self.lines:
            return self.lines[-1].number
        return self.command_line or 0

    @property
    def text(self) -> str:
        if isinstance(self.lines, NumberedLines):
            return "\n".join(self.lines.texts)
        return "\n".join([line.text for line in self.lines])


class NumberedLines(Sequence[Line]):
    """Lines numbered on from `first`, each made when it is asked for: the lines of a file that is one
    JSON object, whose parser reads the object, not its hundreds of lines (making them was a fifth of
    extracting a 14 KB fio document). Sliced, it is another NumberedLines; pop() drops the last."""

    __slots__ = ("texts", "first")

    def __init__(self, texts: list[str], first: int = 1) -> None:
        self.texts = texts
        self.first = first

    def __len__(self) -> int:
        return len(self.texts)

    @overload
    def __getitem__(self, index: int) -> Line: ...

    @overload
    def __getitem__(self, index: slice) -> NumberedLines: ...

    def __getitem__(self, index: int | slice) -> Line | NumberedLines:
        if isinstance(index, slice):
            start, _, step = index.indices(len(self.texts))
            if step != 1:
                raise ValueError("NumberedLines are sliced with a step of 1")
            return NumberedLines(self.texts[index], self.first + start)
        text = self.texts[index]  # IndexError as a list's
        return Line(self.first + (index if index >= 0 else len(self.texts) + index), text)

    def __iter__(self) -> Iterator[Line]:
        return map(Line, itertools.count(self.first), self.texts)

    def pop(self) -> Line:
        last = self[-1]
        self.texts.pop()
        return last


@dataclass
class _Block:
    """A stretch of transcript: a fenced block of a markdown file, or a whole plain file."""

    lines: list[Line]
    label: str | None
    section: str | None
    segments: list[Segment] = field(default_factory=list)


def physical_lines(text: str) -> list[Line]:
    """Lines as an editor numbers them; a '\\r'-glued progress line keeps its last redraw.

    A file copied from a terminal that hard-wrapped long lines is put back together
    (see unwrap): the joined line keeps the number of its first piece.
    """
    raws = text.replace("\r\n", "\n").split("\n")
    if "\r" in text:
        raws = [_last_redraw(raw) if "\r" in raw else raw for raw in raws]
    lines = list(map(Line, itertools.count(1), raws))
    if lines and lines[-1].text == "" and text.endswith("\n"):
        lines.pop()
    return unwrap(lines)


# A text longer than this is read a stretch at a time when it can be (stream_lines).
STREAMED_CHARS = 8 << 20
_STRETCH_CHARS = 1 << 20


def streamable(text: str) -> bool:
    """Whether stream_lines reads the text as physical_lines would: a long transcript that is not
    markdown (its blocks and headings span the file) and was not hard-wrapped by a terminal (the
    width is the whole file's: unwrap). Asked a stretch at a time, never of a list of every line."""
    if len(text) <= STREAMED_CHARS or "```" in text or "~~~" in text:
        return False
    width = len if text.isascii() and "\t" not in text else display_width
    widest = max((max(map(width, texts), default=0) for texts in _line_texts(text)), default=0)
    return widest not in WRAP_WIDTHS  # else wrap_width may find it wrapped: read whole


def stream_lines(text: str) -> Iterator[Line]:
    """physical_lines of a text `streamable` says yes to, one stretch at a time: a 200 MB file's
    millions of lines are never all held at once."""
    if not text:
        yield Line(1, "")  # as physical_lines: an empty file is one empty line
        return
    number = 1
    for texts in _line_texts(text):
        yield from map(Line, itertools.count(number), texts)
        number += len(texts)


def _line_texts(text: str) -> Iterator[list[str]]:
    """The texts of physical_lines (no unwrapping), a stretch of about _STRETCH_CHARS at a time."""
    carriage = "\r" in text
    start = 0
    while start < len(text):
        end = text.find("\n", start + _STRETCH_CHARS)
        end = len(text) if end < 0 else end + 1
        texts = text[start:end].split("\n")
        last = texts.pop()  # "" after the stretch's last newline, else the file's last line, unended
        if last:
            texts.append(last)
        if carriage:
            ended = len(texts) if not last else len(texts) - 1  # the lines a newline ends
            texts = [_shown(raw, index < ended) if "\r" in raw else raw for index, raw in enumerate(texts)]
        yield texts
        start = end


def _shown(raw: str, ended: bool) -> str:
    """A line with a CR in it as physical_lines shows it: the CR of a CRLF end dropped, then its last redraw."""
    if ended and raw.endswith("\r"):
        raw = raw[:-1]
    return _last_redraw(raw) if "\r" in raw else raw


def _last_redraw(raw: str) -> str:
    """What a '\\r'-glued progress line shows last: its last piece that is not blank."""
    pieces = [piece for piece in raw.split("\r") if piece.strip()]
    return pieces[-1] if pieces else ""


# Terminal widths a copy is commonly hard-wrapped at (an 80x24 PuTTY, tmux, `fold`).
WRAP_WIDTHS = (80, 100, 120, 132, 160, 200)


def display_width(text: str) -> int:
    """Columns a terminal gives the text: CJK characters take two, tabs go to the next multiple of 8."""
    expanded = text.expandtabs(8)
    if expanded.isascii():  # nearly every line; looking up each character's width is the slow part
        return len(expanded)
    # Wide (W) and full-width (F) characters take a column more: their classes counted at C speed.
    classes = list(map(unicodedata.east_asian_width, expanded))
    return len(expanded) + classes.count("W") + classes.count("F")


def wrap_width(lines: list[Line]) -> int | None:
    """The width a terminal hard-wrapped these lines at, or None.

    Hard-wrapped means: no line is wider than a common terminal width, and some line
    fills it exactly while the line after it does not start a line of its own. A line
    longer than the width always leaves such a piece behind; none of the seeds, example
    reports or captured outputs looks like that as they are (tests/test_encodings.py).
    """
    texts = [line.text for line in lines]
    widths = _widths(texts, "\n".join(texts))
    top = max(widths, default=0)
    if top not in WRAP_WIDTHS:
        return None
    pieces = zip(lines, widths, lines[1:], strict=False)  # every line with the one after it
    return top if any(width == top and _continues(line, after) for line, width, after in pieces) else None


def _widths(texts: list[str], everything: str) -> list[int]:
    """Each text's display_width; `everything` is the texts joined, asked once whether any needs more than len."""
    # ASCII without tabs is as wide as it is long: nearly every file, measured at C speed.
    plain = everything.isascii() and "\t" not in everything
    return list(map(len if plain else display_width, texts))


def _continues(line: Line, after: Line) -> bool:
    """Whether `after` can be the rest of `line`, cut at the terminal's edge."""
    if not line.text or _WHOLE_LINE.match(line.text):
        return False
    if _JSON_CUT.match(line.text):  # cut inside a JSON value: its rest may look like anything ('"nice": 2.41')
        return True
    return not _STARTS_A_LINE.match(after.text) and not _same_record(line.text, after.text)


def _same_record(line: str, after: str) -> bool:
    """Two records of one kind, one under the other ('4 KiB <<< /dev/sda ...: request=2'): the first
    fills the width by chance (ioping's request lines are 80 columns for some paths)."""
    words = line.split(maxsplit=2)
    return len(words) > 2 and after.split(maxsplit=2)[:2] == words[:2]


# How a line of its own starts, so that a genuine line that happens to fill the width is not
# glued to the next one: a blank line, an indented record ("  nvme0n1: ios=", "     | 99.00th=";
# an indented number is a wrapped table row's tail), a "name: " key, an fio job header
# ("EBS 4K randwrite test: (groupid=0"), fio's banner lines, an iperf3 "[  4]" row, a prompt,
# a comment, a markdown list item or fence.
_STARTS_A_LINE = lazyre.compile(
    r"\s*$|\s{2,}[^\s\d.]|[^\s:]+:\s|.{1,80}?: \((?:g|groupid)=|fio-\d|Starting \d|Run status|Disk stats"
    r"|\[|[$>%]\s|#|[-*+] |`{3}|~{3}|-{3}"
)
# A line of JSON that stops mid-value: pretty-printed JSON ends a whole line in , { [ } or ].
# An array's '[' is followed by its first value: "[ ID] Interval ... Datagrams", iperf2's 80-column
# table heading, is not JSON.
_JSON_CUT = lazyre.compile(r'\s*(?:[{"]|\[[\[{"\d-]).*[^\s,{\[}\]]$')
# A line that is whole however wide it is: fio pads its "Jobs:" status line to 80 columns; a netperf
# banner that names both ends ("TCP STREAM TEST from ... port 0 AF_INET to lag (15.4.89.214) port 0
# AF_INET") is complete, and the table header under it no part of it, whatever its length.
_WHOLE_LINE = lazyre.compile(
    r"Jobs: \d+ \(|(?:MIGRATED )?[A-Z][\w/| ]* TEST from \S* \([^)]*\) port \d+ AF_\w+ to \S* \([^)]*\) port \d+ AF_\w+"
)


def unwrap(lines: list[Line]) -> list[Line]:
    """Join each piece that fills the wrap width exactly with the piece after it."""
    width = wrap_width(lines)
    if width is None:
        return lines
    joined: list[Line] = []
    for line in lines:
        previous = joined[-1] if joined else None
        if previous is not None and display_width(previous.text) % width == 0 and _continues(previous, line):
            joined[-1] = Line(previous.number, previous.text + line.text)
        else:
            joined.append(line)
    return joined


_PROMPT_HOST = lazyre.compile(r"@([A-Za-z0-9][\w.-]*)")


def prompt_host(line: str) -> str | None:
    """The machine a prompt names: 'db7' in '[root@db7 ~]# fio ...', 'alice@db7:~$', '[root@db7 /x]',
    'alice@db7 ~ %' or, before a command that runs a known tool, zsh's 'db7% fio ...'."""
    stripped = line.strip()
    if _PROMPT_LINE.match(stripped):
        prompt, rest = stripped, ""
    else:
        prompt, rest = strip_prompt(stripped)
    host = _PROMPT_HOST.search(prompt) if prompt else None
    if host:
        return host.group(1)
    if prompt and prompt[0].isalpha() and "@" not in prompt:
        # A weak prompt names a host only when it is one: output can start "Total% 5".
        named = _HOST_PROMPT.match(prompt)
        if named and _command_in(stripped, prompted=(prompt, rest))[0]:
            return named["host"]
    return None


def is_markdown(lines: list[Line]) -> bool:
    everything = "\n".join([line.text for line in lines])
    if "`" not in everything and "~" not in everything:
        return False  # no fence can be there: most transcripts, decided without a match per line
    return any(_FENCE.match(line.text) for line in lines)


def strip_prompt(text: str) -> tuple[str | None, str]:
    """(prompt, rest) when the line starts with a shell prompt, else (None, text)."""
    first = text[:1]
    if (
        (not first or first not in "[$#%(")
        and "@" not in text
        and ":\\" not in text
        and "$ " not in text
        and "# " not in text
        and "% " not in text
        and "\u279c" not in text
        and not text.startswith("PS ")
    ):
        # What every prompt above needs is missing (a Windows prompt's C:\ too): most lines of output.
        return None, text
    match = _PROMPT.match(text)
    return (match.group(0), text[match.end() :]) if match else (None, text)


def _is_weak(prompt: str) -> bool:
    """Whether output could start like this prompt ('$ ', '/mnt/data # ', 'host% '): see _WEAK_PROMPTS."""
    return _WEAK_PROMPT.fullmatch(prompt) is not None


# Kept per line: output lines that name a program ("Run status group 0 (all jobs):", "fio-3.1",
# iperf3's "[  5] local ... connected to") recur in every output of their tool, and reading
# one's words is most of what splitting a transcript costs beyond its patterns. Pure: the
# registry of tools is fixed.
@functools.lru_cache(maxsize=2048)
def invoked_tool(command: str) -> str | None:
    """The known benchmark tool a command line runs, skipping sudo/time/env wrappers.

    In a compound line ("echo 3 > /proc/sys/vm/drop_caches; fio ...") the first
    part that runs a known tool counts.
    """
    if not _NAMES_A_PROGRAM.search(command):
        return None  # most lines of output: no tool's name in them at all
    for program, by_path, following in programs(command):
        tool = tools.run_by(program, by_path)
        # "sysbench 1.0.20 (using ...)" and "iperf version 2.1.8 (12 August 2022)" are banners, not commands.
        if tool and not _banner(following):
            return tool.name
    return None


def _banner(following: list[str]) -> bool:
    """Whether the words after a program's name are its version banner's."""
    version = following[1:2] if following[:1] == ["version"] else following[:1]
    return bool(version) and bool(_VERSION_WORD.match(version[0]))


def _command_in(
    line: str, after_prompt_line: bool = False, prompted: tuple[str | None, str] | None = None
) -> tuple[str | None, str | None]:
    """(command, tool) when the line is a command someone typed, else (None, None).

    `prompted` is strip_prompt(line.strip()), when the caller has it already.
    """
    if after_prompt_line and _CONTINUED_PROMPT.match(line):
        rest = _CONTINUED_PROMPT.sub("", line, count=1).strip()
        return (rest, invoked_tool(rest)) if rest else (None, None)
    prompt, rest = prompted or strip_prompt(line.strip())
    rest = rest.strip()
    if not rest:
        return None, None
    tool = invoked_tool(rest)
    bare = prompt.split(") ", 1)[-1] if prompt and prompt.startswith("(") else prompt  # no (venv) before it
    if tool and bare and bare != "#" and bare.strip() == "#" and not _looks_like_arguments(rest):
        # "# sysbench cpu" names what follows; "#iostat 1" (prompt glued on) and "# fio -bs=4k" run it.
        return None, None
    if tool:
        return rest, tool
    # Behind an explicit user@host prompt any command counts (ls, df): it ends the previous
    # tool's output. A bare "# text" is a comment, "/dev/sda # boot disk" a line of lsblk.
    if prompt and not _is_weak(prompt):
        return rest, None
    return None, None


def _looks_like_arguments(command: str) -> bool:
    """Whether a line after a bare '#' carries what commands carry: an option, a key=value, a path."""
    return any(word.startswith("-") or "=" in word or "/" in word for word in command.split()[1:])


def _is_bare_prompt(prompt: str | None, rest: str) -> bool:
    """'[root@host data]#' with nothing typed after it: `prompt` and `rest` as strip_prompt splits the line.

    Only a prompt output cannot look like: after "/dev/sda # " the next line is no command."""
    return bool(prompt) and not rest.strip() and not _is_weak(prompt)


def _comment_label(line: str) -> str | None:
    """'# 4KB随机读' -> '4KB随机读'; commands behind a '#' prompt are not comments."""
    stripped = line.strip()
    if not stripped.startswith("#") or stripped.startswith("#!"):
        return None
    text = stripped.lstrip("#").strip()
    if not text or len(text) > _MAX_LABEL_CHARS:
        return None
    return text


def _plain(text: str) -> str:
    """A label without inline markdown: emphasis, code ticks and link targets removed."""
    return _EMPHASIS.sub("", _LINK.sub(lambda link: link["text"], text)).strip()


def _markdown_label(line: str) -> tuple[str | None, bool]:
    """(label, is_heading) for a markdown line outside fences."""
    heading = _HEADING.match(line) if "#" in line else None  # the pattern needs a '#': prose has none
    if heading:
        return _plain(heading["text"]), True
    stripped = line.strip()
    listed = _LIST_LABEL.match(line) if stripped[:1] in "*+-" else None  # "" too: the pattern decides
    if listed:
        return _plain(listed["text"]), False
    emphasised = stripped.startswith(("**", "__", "【", "[**")) and stripped.endswith(("**", "__", "】", "**]"))
    if not emphasised:  # most prose: no label, whatever its markup would leave
        return None, False
    plain = _plain(stripped)
    if not plain or len(plain) > _MAX_LABEL_CHARS:
        return None, False
    return plain, False


def _blocks_of_markdown(lines: list[Line]) -> list[_Block]:
    blocks: list[_Block] = []
    label = section = None
    in_fence: str | None = None
    current: list[Line] = []
    start = 0
    if lines and lines[0].text.strip() == "---":  # front matter
        for index in range(1, len(lines)):
            if lines[index].text.strip() == "---":
                start = index + 1
                break
    for line in lines[start:]:
        text = line.text
        # A fence has three backticks or tildes: most lines have neither, and need no match.
        fence = _FENCE.match(text) if "```" in text or "~~~" in text else None
        if in_fence:
            if fence and fence.group(1)[0] == in_fence[0] and line.text.strip().startswith(in_fence):
                blocks.append(_Block(current, label, section))
                in_fence, current = None, []
            else:
                current.append(line)
            continue
        if fence:
            in_fence = fence.group(1)
            continue
        found, is_heading = _markdown_label(line.text)
        if found:
            label = found
            if is_heading:
                section = found
    if in_fence and current:  # an unclosed fence still holds output
        blocks.append(_Block(current, label, section))
    return blocks


def _split_block(block: _Block) -> list[Segment]:
    """Cut a transcript at every command; comments before a command name it."""
    return list(segments_of(block.lines, block.label, block.section))


def segments_of(lines: Iterable[Line], label: str | None = None, section: str | None = None) -> Iterator[Segment]:
    """The segments of a stretch of transcript, each as soon as the line after it starts another
    (a long file's lines can then come one stretch at a time: stream_lines)."""
    current: Segment | None = None
    pending_label = label
    after_prompt_line = False
    continued = False  # the command above ended in a backslash: this line is more of it
    for line in lines:
        text = line.text
        if continued and current is not None and current.command is not None:
            continued = bool(text.strip())  # a blank line ends the command, as in the shell
            if continued:
                current.command, continued = _continue_command(current.command, _PS2.sub("", text, count=1))
            if not continued and current.tool_hint is None:
                # "sudo \" then "fio ...": the tool is known once the command is whole.
                current.tool_hint = invoked_tool(current.command)
                if current.tool_hint is not None:
                    pending_label = label
            continue
        if (
            current is not None
            and not after_prompt_line
            and text.lstrip()[:1] not in "[#$%"  # "" too: a blank line takes the long way
            and "@" not in text
            and ":\\" not in text  # every Windows prompt has one (C:\>), and fio's ">=64" none
            and "\u279c" not in text  # oh-my-zsh's arrow
            and not text.startswith("PS ")  # PowerShell on Linux: PS /home/x>
            and not _NAMES_A_PROGRAM.search(text)
        ):
            # No prompt, comment or program name can be in it: a line of the current output,
            # as the checks below would find, for most lines of a transcript at a fraction of the cost.
            current.lines.append(line)
            continue
        prompted = strip_prompt(text.strip())  # once, for both questions below
        if ("@" in text and _PROMPT_LINE.match(text)) or _is_bare_prompt(*prompted):
            after_prompt_line = True  # a prompt, not output: the command may follow
            continue
        command, tool = _command_in(text, after_prompt_line, prompted)
        after_prompt_line = False
        if command:
            if current is not None:
                yield _trimmed(current)
            windows = prompted[0] is not None and (":\\" in prompted[0] or prompted[0].startswith("PS "))
            if not windows:  # cmd.exe and PowerShell continue lines otherwise (^ and `), and "D:\" ends in one
                command, continued = _continue_command(command, None)
            current = Segment(
                lines=[],
                command=command,
                command_line=line.number,
                label=pending_label,
                section=section,
                tool_hint=tool,
            )
            if tool is not None:
                # A '# label' names the next run only: the heading or bold line above the block
                # (the block's label) is what later commands of the block are under. A command that
                # runs no tool (cd, sync) leaves the label to the run that follows it.
                pending_label = label
            continue
        comment = _comment_label(text)
        if comment is not None:
            pending_label = comment
            if current is not None:
                current.markers.append((line.number, comment))
            continue
        if current is None:
            if not text.strip():
                continue
            current = Segment(lines=[], label=pending_label, section=section)
        current.lines.append(line)
    if current is not None:
        yield _trimmed(current)


def _continue_command(command: str, more: str | None) -> tuple[str, bool]:
    """(the command with `more` joined on, whether it goes on to the next line).

    A shell drops a backslash and the newline after it: 'fio --name=t \\' then '  --bs=4k' is
    'fio --name=t --bs=4k' (the space between kept as one). A backslash after a drive's colon
    ('--directory=D:\\') ends a Windows path, not the line.
    """
    if more is not None:
        head = command[:-1]  # the backslash
        command = (
            f"{head.rstrip()} {more.strip()}" if head[-1:].isspace() or more[:1].isspace() else head + more.strip()
        )
    stripped = command.rstrip()
    goes_on = stripped.endswith("\\") and not stripped.endswith(":\\") and not stripped.endswith("\\\\")
    return (stripped if goes_on else command.strip()), goes_on


def _trimmed(segment: Segment) -> Segment:
    while segment.lines and not segment.lines[-1].text.strip():
        segment.lines.pop()
    return segment


def read(text: str) -> tuple[list[Line] | NumberedLines, list[Segment]]:
    """(physical_lines, split) of a raw file: a file that is one JSON object gets NumberedLines."""
    if wholejson.is_one_object(text):
        lines = _object_lines(text)
        return lines, [_whole_object(lines)]
    lines = physical_lines(text)
    return lines, _split_lines(lines)


def split(text: str, lines: list[Line] | None = None) -> list[Segment]:
    """Every segment of a raw file, in file order; `lines` are its physical_lines when already read."""
    lines = physical_lines(text) if lines is None else lines
    if wholejson.is_one_object(text):
        return [_whole_object(lines)]
    return _split_lines(lines)


def _whole_object(lines: list[Line] | NumberedLines) -> Segment:
    """The one segment of a file that is one JSON object and nothing else (`fio --output-format=json
    > x.json`, `iperf3 -J`): an output without a command, as every line would be read, told by one
    decode instead of asking each of its hundreds of lines whether it is a prompt (44 % of such a
    file's extraction, 0.42 of 0.95 ms for a 14 KB fio document)."""
    texts = lines.texts if isinstance(lines, NumberedLines) else [line.text for line in lines]
    first = next((index for index, text in enumerate(texts) if text.strip()), len(texts))
    return _trimmed(Segment(lines=lines[first:]))


def _object_lines(text: str) -> list[Line] | NumberedLines:
    """physical_lines of a file that is one JSON object: NumberedLines when each is a line of the file
    as it is (no carriage return to resolve, no terminal wrap to join), as nearly every such file is."""
    if "\r" in text:
        return physical_lines(text)
    texts = text.split("\n")
    if texts[-1] == "" and len(texts) > 1:  # the newline that ends the last line
        texts.pop()
    if max(_widths(texts, text), default=0) in WRAP_WIDTHS:
        return physical_lines(text)  # maybe hard-wrapped: unwrap decides
    return NumberedLines(texts)


def _split_lines(lines: list[Line]) -> list[Segment]:
    """split() of a file that is not one JSON object."""
    if is_markdown(lines):
        blocks = _blocks_of_markdown(lines)
    else:
        blocks = [_Block(lines, None, None)]
    segments: list[Segment] = []
    for block in blocks:
        segments.extend(_split_block(block))
    return segments

"""What pages call a report's runs: the front matter's own words for labels, and titles that are unique.

A report may rename the sections and labels its raw files carry (`labels:` in its front
matter, e.g. English for a Chinese heading); the raw label stays in the run's data and is
shown on its page. Two runs of one environment under one heading (four fio runs under
"ESSD(PL3) 测试") get the parameters that tell them apart added to their titles.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from .model import Run
from .shell import shell_words

# A title names at most this many command words; the command itself is on the run's page.
_MAX_WORDS = 4


class LabelsError(ValueError):
    """A `labels:` entry that is not a mapping of text to text."""


def rename(runs: list[Run], labels: Any) -> None:
    """Give each run the front matter's words for its section and label."""
    if not labels:
        return
    if not isinstance(labels, dict) or not all(isinstance(k, str) and isinstance(v, str) for k, v in labels.items()):
        raise LabelsError("labels: must map each label as written to the words pages should use")
    wanted = {key.strip(): value.strip() for key, value in labels.items()}
    for run in runs:
        run.renamed = {
            text: wanted[text.strip()] for text in (run.section, run.label) if text and text.strip() in wanted
        }


def _differing_words(commands: list[str | None]) -> list[list[str]]:
    """Per command, its words that not every other command of the group has, in order."""
    split = [shell_words(command or "") for command in commands]
    common = set.intersection(*(set(words) for words in split)) if split else set()
    return [[word for word in words if word not in common] for words in split]


def make_titles_unique(runs: list[Run]) -> None:
    """Runs sharing a title on one environment get what tells them apart.

    First the tool when it differs ('fio测试 (iostat)'), then the command words the others
    lack ('ESSD (-direct=0 -buffered=1)'), and when even the commands are the same, a
    number in file order ('LVM性能对比 #2').
    """
    for tell in (_by_tool, _by_command, _by_order):
        groups: dict[tuple[str, str | None], list[Run]] = defaultdict(list)
        for run in runs:
            groups[(run.title, run.environment)].append(run)
        for group in groups.values():
            if len(group) > 1:
                tell(group)


def _by_tool(group: list[Run]) -> None:
    if len({run.tool for run in group}) > 1:
        for run in group:
            run.unique_title = f"{run.title} ({run.tool})"


def _by_command(group: list[Run]) -> None:
    for run, words in zip(group, _differing_words([run.command for run in group]), strict=True):
        if words:
            shown = " ".join(words[:_MAX_WORDS]) + (" …" if len(words) > _MAX_WORDS else "")
            run.unique_title = f"{run.title} ({shown})"


def _by_order(group: list[Run]) -> None:
    for number, run in enumerate(group, start=1):
        run.unique_title = f"{run.title} #{number}"

"""Shell command lines as people type them: words, and which program each part runs.

Knows nothing about benchmark tools; `tools` maps the program names found here to tools.
"""

from __future__ import annotations

import functools
import shlex
from collections.abc import Iterator

from . import lazyre

# Words that may stand before the program itself: `sudo fio`, `time dd`,
# `FOO=1 taskset -c 2 fio`.
WRAPPERS = {"sudo", "time", "nohup", "env", "taskset", "numactl", "ionice", "nice", "stdbuf", "exec"}
SEPARATOR = lazyre.compile(r"\s*(?:;|&&|\|\||\|)\s*")


def shell_words(command: str) -> list[str]:
    """Words of a command line; Windows paths keep their backslashes."""
    if not any(char in command for char in "'\"\\"):
        return command.split()  # what shlex gives without quotes or escapes, at a fraction of the cost
    return list(_quoted_words(command))


# One command line is split several times in an ingest (to find its program, its parameters,
# what tells it from its neighbours), and a report repeats its commands on every environment;
# shlex is slow (~0.1 ms for a quoted fio line of seed 001), so the last few thousand are kept.
@functools.lru_cache(maxsize=4096)
def _quoted_words(command: str) -> tuple[str, ...]:
    try:
        return tuple(shlex.split(command, posix="\\" not in command))
    except ValueError:  # an unbalanced quote: fall back to whitespace
        return tuple(command.split())


def basename(word: str) -> str:
    """'/usr/bin/fio' and 'C:\\fio\\fio.exe' -> 'fio', 'fio.exe'; a Windows path keeps its quotes
    through shell_words ('"C:\\Program Files\\DiskSpd\\diskspd.exe"'), which are no part of the name."""
    return word.strip("\"'").replace("\\", "/").rsplit("/", 1)[-1]


def programs(command: str) -> Iterator[tuple[str, bool, list[str]]]:
    """(program name, invoked by path, words after it) for each simple command of a line.

    `echo 3 > drop_caches; sudo taskset -c 2 fio --name=x` yields echo, then fio:
    wrappers, their options and VAR=value assignments before the program are skipped.
    """
    # Without ';', '|' or '&' there is nothing to split at: most lines, kept whole without the pattern.
    parts = SEPARATOR.split(command) if ";" in command or "|" in command or "&" in command else [command]
    for part in parts:
        words = shell_words(part)
        index = 0
        while index < len(words):
            word = words[index]
            if "=" in word and not word.startswith("-") and index < len(words) - 1:
                index += 1  # VAR=value before the program
                continue
            if basename(word) in WRAPPERS:
                index += 1
                while index < len(words) and words[index].startswith("-"):
                    index += 1
                if basename(word) == "taskset" and index < len(words):
                    index += 1  # the CPU list
                continue
            yield basename(word), "/" in word.replace("\\", "/"), words[index + 1 :]
            break

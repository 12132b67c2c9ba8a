"""DiskSpd's command line and its caching modes.

DiskSpd options are a dash, a letter or two and the value glued on: `-b4K -o16 -t8 -w30 -r
-Sh -d60 -L`, then the targets (files, `#1` for a physical disk, `D:` for a volume). Sizes are
powers of 1024 (`-b4K`, `-c1G`).

Caching (-S, its wiki's "Control caching"): `-Sb` (the default) keeps the Windows file cache,
`-Su` bypasses it, `-Sw` asks for write-through, `-Sh` (= `-Suw`, and the old `-h`) both,
`-Sr` bypasses the local cache of a remote file only. A run is known here by that flag.
"""

from __future__ import annotations

import re
from typing import Any

from ...shell import programs

PROGRAMS = {"diskspd", "diskspd.exe"}
_SIZE = {"": 1, "K": 2**10, "M": 2**20, "G": 2**30, "T": 2**40}


def size(spec: str) -> int | None:
    """Bytes of a DiskSpd size ('4K' -> 4096, '1G', '65536'); None for a count of blocks ('4b') or junk."""
    match = re.fullmatch(r"(\d+)([KMGT]?)", spec.strip(), re.IGNORECASE)
    return int(match.group(1)) * _SIZE[match.group(2).upper()] if match else None


def caching(software: str | None, writethrough: bool) -> str | None:
    """The -S flag a run's caching amounts to, from the software cache ('on', 'off', 'remote') and write-through."""
    if software is None:
        return None
    flag = {"on": "b", "off": "u", "remote": "r"}[software]
    if writethrough:
        return {"b": "-Sw", "u": "-Sh", "r": "-Srw"}[flag]
    return f"-S{flag}"


def command_words(command: str) -> list[str] | None:
    """The words after diskspd in a command line (`.\\diskspd.exe -b4K ...`), None when it runs no diskspd."""
    for program, _, following in programs(command):
        if program.lower() in PROGRAMS:
            return list(following)
    return None


def command_params(words: list[str]) -> dict[str, Any]:
    """What a DiskSpd command line asks for, in the names a run's params use."""
    found: dict[str, Any] = {}
    software, writethrough = "on", False  # DiskSpd's default: -Sb, the file cache on
    targets = []
    redirected = False
    for word in words:
        if redirected or word.startswith(">"):
            # `> result.txt`: where the output went, not a target
            redirected = word in (">", ">>")
            continue
        if not word.startswith("-") or len(word) < 2:
            targets.append(word)
            continue
        letter, value = word[1], word[2:]
        if letter == "b" and size(value):
            found["block_bytes"] = size(value)
        elif letter == "o" and value.isdigit():
            found["queue_depth"] = int(value)
        elif letter == "t" and value.isdigit():
            found["threads_per_file"] = int(value)
        elif letter == "F" and value.isdigit():
            found["thread_pool"] = int(value)
        elif letter == "w" and value.isdigit():
            found["write_pct"] = int(value)
        elif letter == "d" and value.isdigit():
            found["duration_s"] = int(value)
        elif letter == "W" and value.rstrip("s").isdigit():
            found["warmup_s"] = int(value.rstrip("s"))
        elif letter == "C" and value.rstrip("s").isdigit():
            found["cooldown_s"] = int(value.rstrip("s"))
        elif letter == "r" and not value.startswith("s"):
            found["access"] = "random"
        elif letter == "r" and value.startswith("s"):
            found["access"] = "mixed"
            found["random_pct"] = int(value[1:]) if value[1:].isdigit() else None
        elif letter == "s":
            found["access"] = "sequential"
        elif letter == "L":
            found["latency"] = True
        elif letter == "S":
            modes = value or "u"  # -S alone is -Su
            if "u" in modes or "h" in modes:
                software = "off"
            elif "r" in modes:
                software = "remote"
            elif "b" in modes:
                software = "on"
            writethrough = writethrough or "w" in modes or "h" in modes
        elif letter == "h" and not value:  # before -S had letters: no software cache, write-through
            software, writethrough = "off", True
        elif letter == "R":
            found["result_format"] = value.lower()
    found["caching"] = caching(software, writethrough)
    found["software_cache"] = software
    found["writethrough"] = writethrough
    if targets:
        found["targets"] = targets
    return {key: value for key, value in found.items() if value is not None}

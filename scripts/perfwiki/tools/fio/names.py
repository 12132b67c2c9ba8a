"""Whether a fio job's name tells the truth about the job, and a name made from its parameters.

A run's id is made from its job name (`--name=random-read`), so an id says what the author
called the job. Authors copy a command and change `--rw` but not `--name`: the example report
vm-vs-bare-metal runs `--name=random-read --rw=read`, a sequential read, and one page runs
`-rw=randrw` and `-rw=randread` under `-name="EBS 4K randwrite test"`. Such a name is read
word by word ('EBS 4K randwrite test' -> ebs, 4k, randwrite, test) and each word that states
an access pattern, a direction, a block size, a queue depth or an I/O mode is held to the
run's parameters; a name that contradicts them gives way to `name_from_params`
('4k-seq-read'), which always agrees with them.
"""

from __future__ import annotations

import re
from typing import Any

from ...model import Run, slug
from ..base import Tool

# What fio's rw= modes do: random or sequential, and the directions they move data in.
_RW: dict[str, tuple[bool, frozenset[str]]] = {
    "read": (False, frozenset({"read"})),
    "write": (False, frozenset({"write"})),
    "trim": (False, frozenset({"trim"})),
    "rw": (False, frozenset({"read", "write"})),
    "readwrite": (False, frozenset({"read", "write"})),
    "trimwrite": (False, frozenset({"trim", "write"})),
    "randread": (True, frozenset({"read"})),
    "randwrite": (True, frozenset({"write"})),
    "randtrim": (True, frozenset({"trim"})),
    "randrw": (True, frozenset({"read", "write"})),
}
# How a name made from parameters says each mode.
_RW_WORDS = {
    "read": "seq-read",
    "write": "seq-write",
    "trim": "seq-trim",
    "rw": "seq-read-write",
    "readwrite": "seq-read-write",
    "trimwrite": "seq-trim-write",
    "randread": "random-read",
    "randwrite": "random-write",
    "randtrim": "random-trim",
    "randrw": "random-read-write",
}

# Words of a name that state an access pattern or a direction (fio's own mode names included).
_RANDOM = {"rand", "random", "randomly", "randread", "randwrite", "randrw", "randtrim", "randomread", "randomwrite"}
_SEQUENTIAL = {"seq", "sequential", "sequentially", "seqread", "seqwrite", "seqrw"}
_DIRECTIONS = {
    "read": {"read"},
    "reads": {"read"},
    "reading": {"read"},
    "randread": {"read"},
    "seqread": {"read"},
    "randomread": {"read"},
    "write": {"write"},
    "writes": {"write"},
    "writing": {"write"},
    "overwrite": {"write"},
    "randwrite": {"write"},
    "seqwrite": {"write"},
    "randomwrite": {"write"},
    "trim": {"trim"},
    "randtrim": {"trim"},
    "trimwrite": {"trim", "write"},
    "rw": {"read", "write"},
    "randrw": {"read", "write"},
    "seqrw": {"read", "write"},
    "readwrite": {"read", "write"},
    "mixed": {"read", "write"},
    "rwmix": {"read", "write"},
}
# A block size as names write it: 4k, 4kb, 4kib, 1m, 512b (fio's kb_base 1024).
_SIZE = re.compile(r"(\d+)(b|k|kb|kib|m|mb|mib)")
_SIZE_FACTOR = {"b": 1, "k": 1024, "kb": 1024, "kib": 1024, "m": 1 << 20, "mb": 1 << 20, "mib": 1 << 20}
_DEPTH = re.compile(r"(?:qd|iodepth)(\d+)")
_IO_MODES = {"direct": "direct", "buffered": "buffered", "cached": "buffered"}


def rw_mode(params: dict[str, Any]) -> str | None:
    """The run's rw= mode without its ':N' offset modifier (`randread:8`), None when not known."""
    rw = str(params.get("rw") or "").split(":", 1)[0].strip().lower()
    return rw if rw in _RW else None


def contradictions(run: Run, name: str, io_mode: str | None) -> list[str]:
    """What `name` says about the job that its parameters deny, as 'says X, ran Y' phrases."""
    words = slug(name).split("-")
    params = run.params
    found = []
    rw = rw_mode(params)
    if rw is not None:
        random, directions = _RW[rw]
        if (random and _SEQUENTIAL.intersection(words)) or (not random and _RANDOM.intersection(words)):
            found.append(f"says {'sequential' if random else 'random'}, ran rw={rw}")
        said = set().union(*(_DIRECTIONS.get(word, set()) for word in words))
        if said and said != directions:
            found.append(f"says {'/'.join(sorted(said))}, ran rw={rw}")
    # A run whose job sections differ ("mixed", options.MIXED) has no one size or depth to contradict.
    bs = params.get("bs_bytes") if isinstance(params.get("bs_bytes"), int) else None
    asked_depth = params.get("iodepth") or 1
    for word in words:
        size = _SIZE.fullmatch(word)
        if size and bs and int(size[1]) * _SIZE_FACTOR[size[2]] not in (bs, params.get("size_bytes")):
            found.append(f"says {word}, ran bs={bs}")
        depth = _DEPTH.fullmatch(word)
        if depth and isinstance(asked_depth, int) and int(depth[1]) != asked_depth:
            found.append(f"says {word}, ran iodepth={asked_depth}")
        if word in _IO_MODES and io_mode and _IO_MODES[word] != io_mode:
            found.append(f"says {word}, ran {io_mode}")
    return found


def size_word(size: int) -> str:
    """4096 -> '4k', 1048576 -> '1m', 512 -> '512b': a block size as names write it."""
    if size % (1 << 20) == 0:
        return f"{size >> 20}m"
    if size % 1024 == 0:
        return f"{size >> 10}k"
    return f"{size}b"


def name_from_params(tool: Tool, run: Run) -> str:
    """'4k-random-read', '1m-seq-write': the block size and the rw= mode, as far as they are known."""
    parts = []
    if isinstance(run.params.get("bs_bytes"), int) and run.params["bs_bytes"] > 0:
        parts.append(size_word(run.params["bs_bytes"]))
    rw = rw_mode(run.params)
    if rw is not None:
        parts.append(_RW_WORDS[rw])
    return "-".join(parts) or tool.name

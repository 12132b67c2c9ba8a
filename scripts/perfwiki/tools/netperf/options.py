"""netperf's command line: global options before `--`, the test's own after it.

netperf reads both halves with getopt, so an option's value may be glued to it (`-tTCP_CRR`,
`-l10`, `-fm`) or be the next word (`-t TCP_RR`). The two halves reuse letters for other
things: a global `-o` is an alignment offset, a test-specific `-o` picks the omni CSV output.
The option strings below are netperf 2.7's (src/netsh.c GLOBAL_CMD_LINE_ARGS, and OMNI_ARGS
in src/nettest_omni.c, which the migrated classic tests parse with too).
"""

from __future__ import annotations

import re
from typing import Any

from ...shell import programs

# A letter followed by ':' takes a value.
GLOBAL = "A:a:b:B:CcdD:f:F:H:hi:I:jk:K:l:L:n:NO:o:P:p:rSs:t:T:v:VW:w:y:Y:Z:46"
TEST = "aBb:cCd:De:fFgG:hH:i:Ij:kK:l:L:m:M:nNoOp:P:q:r:R:s:S:t:T:u:UVw:W:46"
# Test-specific options whose value is optional: the next word, unless it is another option.
OPTIONAL_VALUE = {"k", "o", "O"}


def _takes_value(spec: str) -> dict[str, bool]:
    return {letter: spec[index + 1 : index + 2] == ":" for index, letter in enumerate(spec) if letter != ":"}


_GLOBAL_TAKES = _takes_value(GLOBAL)
_TEST_TAKES = _takes_value(TEST)


def getopt(words: list[str], takes: dict[str, bool], optional: set[str] = frozenset()) -> dict[str, str]:
    """The options of one half of a netperf command: {letter: value}, '' for a flag; the last one wins.

    Words that are no option of the set (a letter netperf would refuse) are skipped, as nothing
    is known of what they carry."""
    found: dict[str, str] = {}
    index = 0
    while index < len(words):
        word = words[index]
        index += 1
        if not word.startswith("-") or len(word) < 2:
            continue
        position = 1
        while position < len(word):
            letter = word[position]
            position += 1
            if letter in optional:
                if position < len(word):
                    found[letter] = word[position:]
                elif index < len(words) and not words[index].startswith("-"):
                    found[letter] = words[index]
                    index += 1
                else:
                    found[letter] = ""
                break
            if takes.get(letter):
                if position < len(word):
                    found[letter] = word[position:]
                elif index < len(words):
                    found[letter] = words[index]
                    index += 1
                break
            found[letter] = ""  # a flag; getopt reads the next letter of the same word as another
    return found


def netperf_words(command: str) -> list[str] | None:
    """The words after `netperf` in a command line (`sudo netperf -H x -- -m 1K`), None when it runs no netperf."""
    for program, _, following in programs(command):
        if program == "netperf":
            return list(following)
    return None


def split(command: str) -> tuple[dict[str, str], dict[str, str]] | None:
    """(global options, test-specific options) of a netperf command line, None when it runs no netperf."""
    words = netperf_words(command)
    if words is None:
        return None
    if "--" in words:
        cut = words.index("--")
        return getopt(words[:cut], _GLOBAL_TAKES), getopt(words[cut + 1 :], _TEST_TAKES, OPTIONAL_VALUE)
    return getopt(words, _GLOBAL_TAKES), {}


def size(spec: str) -> int | None:
    """A netperf sizespec in bytes, as its convert() reads one: 'K', 'M', 'G' are powers of 1024,
    'k', 'm', 'g' of 1000 ('128K' -> 131072, '32k' -> 32000); None when it starts with no number."""
    match = re.match(r"\s*(\d+)", spec)
    if not match:
        return None
    value = int(match.group(1))
    for letter, factor in (("K", 2**10), ("M", 2**20), ("G", 2**30), ("k", 10**3), ("m", 10**6), ("g", 10**9)):
        if letter in spec:
            value *= factor
    return value


def pair(spec: str) -> tuple[int | None, int | None]:
    """A netperf 'first,second' sizespec ('-r 32K' is both 32 KiB, '-r 1,64' is 1 and 64, '-m ,32K' the second only)."""
    if "," not in spec:
        one = size(spec)
        return one, one
    first, second = spec.split(",", 1)
    return (size(first) if first else None), (size(second) if second else None)


def command_params(command: str) -> dict[str, Any]:
    """What a netperf command line asked for, in the names the run's params use."""
    halves = split(command)
    if halves is None:
        return {}
    globals_, test = halves
    found: dict[str, Any] = {}
    if "t" in globals_:
        found["test"] = globals_["t"].upper()
    if globals_.get("H"):
        found["target"] = globals_["H"]
    if re.fullmatch(r"-?\d+", globals_.get("l", "")):
        length = int(globals_["l"])
        # A negative length is a count of transactions or bytes, not seconds.
        found["duration_s" if length > 0 else "length_count"] = abs(length)
    if globals_.get("f"):
        found["format"] = globals_["f"]
    if "i" in globals_ or "I" in globals_:
        found["confidence"] = " ".join(f"-{key} {globals_[key]}" for key in ("i", "I") if key in globals_)
    if "T" in test:
        found["protocol"] = test["T"].upper()
    if test.get("d"):
        found["direction"] = test["d"].lower()
    if test.get("m"):
        found["message_bytes"] = pair(test["m"])[0]
    if test.get("r"):
        request, response = pair(test["r"])
        found.update({"request_bytes": request, "response_bytes": response})
    if test.get("b"):
        found["burst"] = test["b"]
    return {key: value for key, value in found.items() if value is not None}

"""Regular expressions compiled on first use, so that importing a module costs nothing for its patterns.

`perfwiki parse` loads every tool's parser to recognise output, yet uses one of them;
compiling all ~150 module-level patterns took longer than the parsing of a small file.
After the first use a pattern's methods are the compiled pattern's own bound methods,
so a hot loop pays no extra call.
"""

from __future__ import annotations

import re
from typing import Any

_METHODS = ("match", "search", "fullmatch", "finditer", "findall", "sub", "subn", "split", "groupindex", "groups")


class LazyPattern:
    __slots__ = ("pattern", "flags", *_METHODS)

    def __init__(self, pattern: str, flags: int = 0):
        self.pattern = pattern
        self.flags = flags

    def __getattr__(self, name: str) -> Any:
        # Called only for a method not yet bound: compile once and bind them all.
        if name not in _METHODS:
            raise AttributeError(name)
        compiled = re.compile(self.pattern, self.flags)
        for method in _METHODS:
            setattr(self, method, getattr(compiled, method))
        return getattr(compiled, name)

    def __repr__(self) -> str:
        return f"lazyre.compile({self.pattern!r})"


def compile(pattern: str, flags: int = 0) -> LazyPattern:  # noqa: A001 - the name re uses
    """A pattern like re.compile's, compiled when first used."""
    return LazyPattern(pattern, flags)

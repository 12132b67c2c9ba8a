"""The run schema v1 and the problem record.

A Run is one invocation of one benchmark tool, with where it came from. Its
field names are fixed (ARCHITECTURE.md, "The run schema": external checks read
them); `to_dict` is the single place that decides how a run looks in YAML and JSON.
"""

from __future__ import annotations

import hashlib
import os
import re
import unicodedata
import zlib
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

SCHEMA_VERSION = 1

# Published raw files are served beside their report: content/reports/x/raw/... -> reports/x/raw/...
CONTENT_DIR = "content"


def sha256_hex(data: bytes) -> str:
    """The digest a run's source records: of the whole raw file, as read."""
    return hashlib.sha256(data).hexdigest()


def sha256_file(path: str | os.PathLike[str]) -> str:
    """sha256_hex of a file on disk, read in pieces (a raw file may be hundreds of MB)."""
    with open(path, "rb") as file:
        return hashlib.file_digest(file, "sha256").hexdigest()


def slug(text: str) -> str:
    """A URL- and file-safe slug: 'Sequential Write (1M)' -> 'sequential-write-1m'."""
    ascii_text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z0-9]+", "-", ascii_text.lower()).strip("-")


@dataclass(frozen=True)
class Problem:
    """Something in an input that could not be used, and exactly where it is."""

    path: str
    line: int
    message: str
    # "error": the input could not be used as it is (ingest exits non-zero). "warning": it was
    # used, but something in it is not what it seems (a failed fio job, a summary the data contradicts).
    severity: str = "error"

    def __str__(self) -> str:
        said = "warning: " if self.severity == "warning" else ""
        return f"{self.path}:{self.line}: {said}{self.message}"

    def to_dict(self) -> dict[str, Any]:
        found: dict[str, Any] = {"path": self.path, "line": self.line, "message": self.message}
        if self.severity != "error":
            found["severity"] = self.severity
        return found


@dataclass(frozen=True)
class Source:
    path: str
    line_start: int
    line_end: int
    sha256: str  # of the whole raw file as committed
    redacted: bool = False  # published and parsed with the site's redaction applied

    @property
    def published_path(self) -> str:
        """Where the site serves the raw file, beside its report page."""
        return published_path(self.path)

    def to_dict(self) -> dict[str, Any]:
        source = {
            "path": self.path,
            "line_start": self.line_start,
            "line_end": self.line_end,
            "sha256": self.sha256,
        }
        if self.redacted:
            source["redacted"] = True
        return source


def published_path(source_path: str) -> str:
    """content/reports/x/raw/env/f.md -> reports/x/raw/env/f.md: the raw file's place on the site."""
    return source_path.removeprefix(f"{CONTENT_DIR}/")


def _heading(section: str | None, label: str | None) -> str | None:
    if label and label == section:
        return label
    return " / ".join(part for part in (section, label) if part) or None


@dataclass
class Run:
    id: str
    tool: str
    tool_version: str | None
    format: str
    label: str | None
    command: str | None
    source: Source
    params: dict[str, Any] = field(default_factory=dict)
    metrics: dict[str, Any] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)
    # Not in the fixed set, but useful: the heading the label sits under, and
    # the environment the run belongs to (set by ingest).
    section: str | None = None
    environment: str | None = None
    reproduce: str | None = None  # the `perfwiki bench` command that produced this run, when one did
    checks: list[dict[str, Any]] = field(default_factory=list)  # methodology findings (perfwiki.findings)
    # Each comparable part's fingerprint ({part: {tool, params that must match}}), set once when
    # the run is extracted; the run's parts are its keys, in order. Not published as such:
    # pages show the scenario keys.
    fingerprints: dict[str | None, dict[str, Any]] = field(default_factory=dict)
    # How pages name the section and label when the report's front matter gives them
    # other words (`labels:`, e.g. English for "4KB随机读"); `label` stays as written.
    renamed: dict[str, str] = field(default_factory=dict)
    # Set by ingest when two runs of a report would otherwise share a title.
    unique_title: str | None = None
    # Not published (`source` spans both): the line of the command the run was attributed to, when
    # one was, and the first line of its output, which `perfwiki parse --format summary` shows.
    command_line: int | None = None
    output_start: int | None = None

    @property
    def heading(self) -> str | None:
        """'3.1 BandWidth / Sequential write': section and label as pages name them, whichever exist."""
        return _heading(
            self.renamed.get(self.section or "", self.section), self.renamed.get(self.label or "", self.label)
        )

    @property
    def original_heading(self) -> str | None:
        """The heading as the raw file wrote it, before `labels:` renamed it."""
        return _heading(self.section, self.label)

    @property
    def title(self) -> str:
        """What pages call the run: unique in its report; its heading, else its id."""
        return self.unique_title or self.heading or self.id

    def pack(self) -> Run:
        """The run with its detail (DETAIL: params, metrics, checks, fingerprints) held pickled and
        compressed, a field at a time, a sixth of its size as objects: a report of 100,000 runs holds them all while it
        is built, and as objects they were 1.5 GB of it. A field is unpacked when it is first read, and
        packed again once UNPACKED_LIMIT other runs have been unpacked since: pickled again if it was
        assigned meanwhile, else its pickle is still true and kept. A packed run's detail is changed by
        assigning the field (`run.checks = [...]`), never in place. Returns the run itself.
        """
        import pickle  # here: only ingest packs runs, and `perfwiki parse` starts 2 ms sooner without it

        fields = self.__dict__
        packed = fields.setdefault("_packed", {})
        for name in DETAIL:
            if name in fields:
                value = fields.pop(name)
                if name not in packed:  # assigned since it was last packed, or never packed
                    # Compressed too (zlib's fastest level): a run's metrics repeat their key names.
                    packed[name] = zlib.compress(pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL), 1)
        _UNPACKED.pop(id(self), None)
        return self

    def __getattr__(self, name: str) -> Any:
        # Only called for what the instance lacks: a packed field, or a real AttributeError.
        packed = self.__dict__.get("_packed")
        if packed is None or name not in packed or name not in DETAIL:
            raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")
        import pickle

        value = self.__dict__[name] = pickle.loads(zlib.decompress(packed[name]))  # noqa: S301 - by pack()
        _unpacked(self)
        return value

    def __setattr__(self, name: str, value: Any) -> None:
        packed = self.__dict__.get("_packed")
        if packed is not None:
            packed.pop(name, None)  # its pickle is older than this value
        object.__setattr__(self, name, value)

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "id": self.id,
            "tool": self.tool,
            "tool_version": self.tool_version,
            "format": self.format,
            "label": self.label,
            "command": self.command,
            "source": self.source.to_dict(),
            "params": self.params,
            "metrics": self.metrics,
            "warnings": list(self.warnings),
            "section": self.section,
        }
        if self.environment is not None:
            data["environment"] = self.environment
        if self.reproduce is not None:
            data["reproduce"] = self.reproduce
        data["checks"] = list(self.checks)
        return data


# What Run.pack holds pickled: the larger part of a run, read by fewer steps than its names are.
DETAIL = ("params", "metrics", "checks", "fingerprints")
# How many packed runs may have detail unpacked at once (some 12 KB each: 12 MB). A step that walks
# a report's runs unpacks each in turn, and the one unpacked longest ago is packed again past this
# many. A report of fewer runs is unpacked once and never packed again; each walk of a larger one
# unpacks every run anew (some 20 us a field): at 5,000 runs a fifth of building it, the price of
# holding 100,000 runs in a fifth of the memory.
UNPACKED_LIMIT = 1024
_UNPACKED: OrderedDict[int, Run] = OrderedDict()


def _unpacked(run: Run) -> None:
    _UNPACKED[id(run)] = run
    _UNPACKED.move_to_end(id(run))
    if len(_UNPACKED) > UNPACKED_LIMIT:
        _, oldest = _UNPACKED.popitem(last=False)
        oldest.pack()

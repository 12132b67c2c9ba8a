"""What a report's front matter states that its own runs contradict.

A title or summary is written before, or apart from, the runs it describes: "queue depth 64"
stays in the summary when the engine ran every job at QD1. Such a statement is reported at
ingest with its line, as a warning, so the author fixes the words (the page keeps the data).
"""

from __future__ import annotations

import re

from .model import Problem, Run

# "QD64", "QD 64", "queue depth 64", "queue depth of 64", "iodepth 64" said in prose.
# Words may wrap onto the next line of a folded YAML string.
_DEPTH_CLAIM = re.compile(r"\b(?:QD ?(\d+)|queue[-\s]+depths?\s+(?:of\s+)?(\d+))\b", re.IGNORECASE)


def _front_matter(text: str) -> str:
    """The YAML front matter between the first two '---' lines, from the first line on (so a
    match's line number is the count of newlines before it, plus one), comment lines blanked."""
    lines = text.split("\n")
    if not lines or lines[0].strip() != "---":
        return ""
    kept = [lines[0]]
    for line in lines[1:]:
        if line.strip() == "---":
            break
        kept.append("" if line.lstrip().startswith("#") else line)
    return "\n".join(kept)


def depths_run(runs: list[Run]) -> set[int]:
    """The queue depths the report's runs ran at, in effect (a synchronous engine's is 1)."""
    return {
        print_["iodepth"]
        for run in runs
        for print_ in run.fingerprints.values()
        if isinstance(print_.get("iodepth"), int)
    }


def contradicted(path: str, text: str, runs: list[Run]) -> list[Problem]:
    """A warning for each queue depth the front matter states that no run of the report ran at."""
    depths = depths_run(runs)
    if not depths:
        return []
    found = []
    front_matter = _front_matter(text)
    for match in _DEPTH_CLAIM.finditer(front_matter):
        claimed = int(match[1] or match[2])
        if claimed in depths:
            continue
        ran = ", ".join(f"QD{depth}" for depth in sorted(depths))
        said = " ".join(match[0].split())
        found.append(
            Problem(
                path,
                front_matter.count("\n", 0, match.start()) + 1,
                f"the front matter says “{said}”, but no run of this report ran at that queue depth "
                f"(in effect: {ran}; a synchronous engine such as psync runs at QD1 whatever iodepth says)",
                "warning",
            )
        )
    return found

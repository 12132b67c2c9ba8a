"""The explicit registry of tool parsers.

Each parser module exposes NAME, FORMATS, `detect(text) -> float`,
`parse(text) -> list[report]` (pure: text in, results out) and
`params(report, command) -> (params, warnings)`. A report has `line_start`,
`line_end` (0-based, within the text it was given), `tool_version`,
`metrics`, `warnings`, `problems` and `has_results()`.

Adding a tool means adding its module to PARSERS; nothing is discovered by magic.
"""

from __future__ import annotations

from types import ModuleType

from . import dd, fio, ioping, iostat, iperf3, mbw, sysbench, unixbench

PARSERS: dict[str, ModuleType] = {
    fio.NAME: fio,
    mbw.NAME: mbw,
    ioping.NAME: ioping,
    iperf3.NAME: iperf3,
    dd.NAME: dd,
    iostat.NAME: iostat,
    unixbench.NAME: unixbench,
    sysbench.NAME: sysbench,
}

# A segment whose command does not name a tool is given to the parser that
# recognises its output with at least this confidence.
DETECT_THRESHOLD = 0.5


def detect_tool(text: str) -> str | None:
    """The registered tool whose output `text` most looks like, if any is confident."""
    best, best_score = None, 0.0
    for name, module in PARSERS.items():
        score = module.detect(text)
        if score > best_score:
            best, best_score = name, score
    return best if best_score >= DETECT_THRESHOLD else None

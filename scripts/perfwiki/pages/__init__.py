"""Page models: what each kind of page shows, computed in Python so templates only lay out.

One module per page kind: report.py, run.py, index.py (scenario, tool and environment
pages, across reports). Every table is `{columns: [...], rows: [[cell, ...]]}` where a
cell is a display string or None (shown as missing, never as 0). Canonical numbers stay
in the run; these are their renderings with explicit units.
"""

from __future__ import annotations

from .. import tools
from ..compare import fingerprint_key
from ..model import Run


def scenario_keys(run: Run) -> list[str]:
    """The scenario pages a run appears on, one per comparable part that is a scenario of its own."""
    return [fingerprint_key(run.fingerprints[part]) for part in tools.get(run.tool).scenario_parts(run)]

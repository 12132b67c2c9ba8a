"""UnixBench: each test's result, and the index against the SPARC baseline with its overall score."""

from __future__ import annotations

from typing import Any

from ...model import Run
from ..base import Metric, Tool, shown
from . import parser
from .checks import CHECKS

# The overall score compares like a test in report tables, but is no scenario of its own:
# it summarises the tests that are.
INDEX_SCORE = "Index Score"


def _result(run: Run, part: str | None) -> float | None:
    if part == INDEX_SCORE:
        return run.metrics.get("score")
    return next((test["value"] for test in run.metrics.get("tests", []) if test["name"] == part), None)


class Unixbench(Tool):
    name = "unixbench"
    measures = "cpu"
    parser = parser
    metrics = (Metric("value", "UnixBench result", "per test", True, _result),)
    fingerprint_names = {"test": "test", "copies": "copies"}
    checks = CHECKS

    def parts(self, run: Run) -> list[str | None]:
        names: list[str | None] = [test["name"] for test in run.metrics.get("tests") or []]
        return names + ([INDEX_SCORE] if run.metrics.get("score") is not None else [])

    def scenario_parts(self, run: Run) -> list[str | None]:
        return [part for part in self.parts(run) if part != INDEX_SCORE]

    def fingerprint(self, run: Run, part: str | None) -> dict[str, Any]:
        return {"tool": self.name, "test": part, "copies": run.params.get("copies")}

    def unit_of(self, run: Run, part: str | None, metric: Metric) -> str:
        """Each test's own unit, as UnixBench printed it: lps, MWIPS, KBps; the index has none."""
        test = next((test for test in run.metrics.get("tests", []) if test["name"] == part), None)
        return test["unit"] if test and test.get("unit") else "index"

    runs_columns = ("Copies", "Tests", "Index score")

    def runs_row(self, run: Run) -> list[Any]:
        score = run.metrics.get("score")
        copies = run.metrics.get("copies")
        return [
            shown(copies),
            str(len(run.metrics.get("tests", []))),
            shown(score),
        ]

    def headline(self, run: Run) -> list[dict[str, Any]]:
        """The index score when the run has one, then each test's result in the unit UnixBench printed."""
        score = run.metrics.get("score")
        shown = (
            [{"label": "Index score", "value": f"{score:g}", "number": score, "higher_is_better": True}]
            if score is not None
            else []
        )
        for test in run.metrics.get("tests") or []:
            shown.append(
                {
                    "label": test["name"],
                    "value": f"{test['value']:.1f} {test['unit']}",
                    "number": test["value"],
                    "higher_is_better": True,
                }
            )
        return shown

    def result_tables(self, run: Run) -> list[dict[str, Any]]:
        metrics = run.metrics
        copies = metrics.get("copies")
        tables = [
            {
                "title": f"Results ({copies} parallel {'copy' if copies == 1 else 'copies'})",
                "id": "results",
                "columns": ["Test", "Result", "Unit", "Time", "Samples"],
                "rows": [
                    [t["name"], f"{t['value']:.1f}", t["unit"], f"{t['seconds']} s", str(t["samples"])]
                    for t in metrics.get("tests", [])
                ],
            }
        ]
        if metrics.get("index"):
            rows = [
                [
                    entry["name"],
                    shown(entry["baseline"]),
                    str(entry["result"]),
                    shown(entry["index"]),
                ]
                for entry in metrics["index"]
            ]
            score = metrics.get("score")
            rows.append(["System Benchmarks Index Score", None, None, shown(score)])
            tables.append(
                {"title": "Index", "id": "index", "columns": ["Test", "Baseline", "Result", "Index"], "rows": rows}
            )
        return tables


TOOL = Unixbench()

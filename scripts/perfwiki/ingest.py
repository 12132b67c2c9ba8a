"""content/ in, data/ out.

Reads every report bundle under content/reports/, extracts the runs of every
raw file under raw/<environment>/, and writes one YAML file per report under
data/reports/. The whole data/ tree is built beside the old one and swapped in,
so a crash or a bad file never leaves a half-written data/ behind, and a file
that fails does not stop the others from being published.
"""

from __future__ import annotations

import csv
import io
import os
import shutil
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from . import __version__, charts, compare, views, yamlout
from .extract import assign_ids, extract, sha256_hex, slug
from .model import SCHEMA_VERSION, Problem, Run

RAW_DIR = "raw"


@dataclass
class Report:
    slug: str
    front_matter: dict[str, Any]
    runs: list[Run] = field(default_factory=list)
    index_path: str = ""
    comparisons_line: int = 1  # where `comparisons:` sits in index.md, for problems
    comparisons: list[dict[str, Any]] = field(default_factory=list)
    environment_pages: list[dict[str, Any]] = field(default_factory=list)  # {id, title, kind, facts}, display order

    @property
    def baseline(self) -> str | None:
        """The front matter's baseline, else the first environment."""
        chosen = self.front_matter.get("baseline")
        if chosen:
            return str(chosen)
        return self.environments[0] if self.environments else None

    @property
    def environments(self) -> list[str]:
        """Display order: the front matter's list first, then any other env with runs."""
        order = [str(env) for env in self.front_matter.get("environments") or []]
        for run in self.runs:
            if run.environment not in order:
                order.append(run.environment)
        return order


@dataclass
class IngestResult:
    reports: list[Report] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)

    @property
    def run_count(self) -> int:
        return sum(len(report.runs) for report in self.reports)


def read_front_matter(path: Path) -> dict[str, Any]:
    """YAML front matter of a markdown file ({} when it has none)."""
    text = path.read_text(encoding="utf-8-sig")
    if not text.startswith("---"):
        return {}
    end = text.find("\n---", 3)
    if end < 0:
        return {}
    loaded = yaml.safe_load(text[3:end])
    return loaded if isinstance(loaded, dict) else {}


def known_environments(content: Path) -> set[str]:
    folder = content / "environments"
    if not folder.is_dir():
        return set()
    return {path.stem for path in folder.glob("*.md") if not path.name.startswith("_")}


def _relative(path: Path, root: Path) -> str:
    try:
        return path.relative_to(root).as_posix()
    except ValueError:
        return path.as_posix()


def _environment_page(content: Path, env: str) -> dict[str, Any]:
    path = content / "environments" / f"{env}.md"
    front = read_front_matter(path) if path.is_file() else {}
    facts = front.get("facts") if isinstance(front.get("facts"), dict) else {}
    return {"id": env, "title": front.get("title"), "kind": front.get("kind"), "facts": facts}


def _line_of(path: Path, prefix: str) -> int:
    for number, line in enumerate(path.read_text(encoding="utf-8-sig").split("\n"), start=1):
        if line.startswith(prefix):
            return number
    return 1


def _raw_files(env_dir: Path) -> list[Path]:
    return sorted(path for path in env_dir.rglob("*") if path.is_file() and not path.name.startswith("."))


def collect(root: Path) -> IngestResult:
    """Every report, run and problem under root/content, in a deterministic order."""
    content = root / "content"
    result = IngestResult()
    environments = known_environments(content)
    reports_dir = content / "reports"
    bundles = sorted(path.parent for path in reports_dir.glob("*/index.md")) if reports_dir.is_dir() else []
    for bundle in bundles:
        report_slug = bundle.name
        if slug(report_slug) != report_slug:
            result.problems.append(
                Problem(
                    _relative(bundle / "index.md", root),
                    1,
                    f"report folder {report_slug!r} is not a slug (a-z, 0-9, '-')",
                )
            )
            continue
        report = Report(
            report_slug, read_front_matter(bundle / "index.md"), index_path=_relative(bundle / "index.md", root)
        )
        report.comparisons_line = _line_of(bundle / "index.md", "comparisons:")
        raw = bundle / RAW_DIR
        env_dirs = sorted(path for path in raw.iterdir() if path.is_dir()) if raw.is_dir() else []
        for env_dir in env_dirs:
            if slug(env_dir.name) != env_dir.name:
                result.problems.append(
                    Problem(
                        _relative(env_dir, root),
                        1,
                        f"environment folder {env_dir.name!r} is not a slug (a-z, 0-9, '-')",
                    )
                )
                continue
            if env_dir.name not in environments:
                result.problems.append(
                    Problem(
                        _relative(env_dir, root),
                        1,
                        f"unknown environment {env_dir.name!r}: add content/environments/{env_dir.name}.md",
                    )
                )
                continue
            for path in _raw_files(env_dir):
                found = extract(_relative(path, root), path.read_bytes())
                for run in found.runs:
                    run.environment = env_dir.name
                report.runs.extend(found.runs)
                result.problems.extend(found.problems)
        assign_ids(report.runs)
        report.environment_pages = [_environment_page(content, env) for env in report.environments]
        result.reports.append(report)
    return result


def comparisons_csv(comparisons: list[dict[str, Any]]) -> str:
    """Every comparison cell as one CSV row, for spreadsheets."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["comparison", "metric", "unit", "environment", "column", "scenario", "value", "relative", "n"])
    for comparison in comparisons:
        for row in comparison["rows"]:
            for column, cell in zip(comparison["columns"], row["cells"], strict=True):
                writer.writerow(
                    [
                        comparison["title"],
                        comparison["metric"],
                        comparison["unit"],
                        row["environment"],
                        column["title"],
                        column["scenario"],
                        "" if cell["value"] is None else cell["value"],
                        "" if cell["relative"] is None else cell["relative"],
                        cell["n"],
                    ]
                )
    return out.getvalue()


def report_document(report: Report) -> dict[str, Any]:
    """The YAML document Hugo reads for one report."""
    environments = report.environments
    baseline = report.baseline
    comparisons = report.comparisons
    flagged = {
        run.id: [f["message"] for f in run.checks if f["severity"] in ("error", "warning")]
        for run in report.runs
        if run.checks
    }
    facts = {page["id"]: page.get("facts") or {} for page in report.environment_pages}
    return {
        "schema_version": SCHEMA_VERSION,
        "generator": f"perfwiki {__version__}",
        "report": report.slug,
        "baseline": baseline,
        "environments": environments,
        "comparisons": comparisons,
        "runs": [run.to_dict() for run in report.runs],
        "views": {
            "runs_table": views.runs_table(report.runs),
            "charts": charts.headline_charts(comparisons),
            "comparisons": {comparison["id"]: views.comparison_view(comparison, flagged) for comparison in comparisons},
            "checks": views.checks_summary(report.runs),
            "badges": {run.id: views.condition_badges(run, facts.get(run.environment)) for run in report.runs},
            "environments": views.environments_side_by_side(report.environment_pages),
            "runs": {run.id: views.run_page(run) for run in report.runs},
        },
        "exports": {"comparisons_csv": comparisons_csv(comparisons)},
    }


def write_data(root: Path, result: IngestResult) -> None:
    """Build data/ beside the old one, then swap it in."""
    data = root / "data"
    staging = root / ".data.new"
    previous = root / ".data.old"
    _recover(data, previous)
    shutil.rmtree(staging, ignore_errors=True)
    (staging / "reports").mkdir(parents=True)
    for report in result.reports:
        target = staging / "reports" / f"{report.slug}.yaml"
        target.write_text(yamlout.dump(report_document(report)), encoding="utf-8")
    index = views.site_index({report.slug: report.runs for report in result.reports})
    (staging / "index.yaml").write_text(yamlout.dump(index), encoding="utf-8")
    if data.exists():
        os.rename(data, previous)
    os.rename(staging, data)
    shutil.rmtree(previous, ignore_errors=True)


def _recover(data: Path, previous: Path) -> None:
    """A crash between the two renames leaves only .data.old: put it back."""
    if not data.exists() and previous.exists():
        os.rename(previous, data)


def ingest(root: Path) -> IngestResult:
    result = collect(root)
    for report in result.reports:
        specs = report.front_matter.get("comparisons") or []
        report.comparisons, errors = compare.for_report(
            specs, report.runs, report.environments, report.baseline, report.front_matter.get("automatic")
        )
        result.problems.extend(Problem(report.index_path, report.comparisons_line, error) for error in errors)
        for run in report.runs:
            for error in run.validate():
                result.problems.append(
                    Problem(run.source.path, run.source.line_start, f"invalid run {run.id}: {error}")
                )
    write_data(root, result)
    return result


def stale(root: Path) -> tuple[list[str], list[str], list[str]]:
    """(changed, new, removed) raw files since the last ingest, judged by the sha256 data/ recorded."""
    recorded: dict[str, str] = {}
    reports = root / "data" / "reports"
    for path in sorted(reports.glob("*.yaml")) if reports.is_dir() else []:
        document = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
        for run in document.get("runs", []):
            recorded[run["source"]["path"]] = run["source"]["sha256"]
    current: dict[str, str] = {}
    for raw in sorted((root / "content" / "reports").glob(f"*/{RAW_DIR}/*/*")):
        if raw.is_file() and not raw.name.startswith("."):
            current[_relative(raw, root)] = sha256_hex(raw.read_bytes())
    changed = [path for path, digest in current.items() if path in recorded and recorded[path] != digest]
    new = [path for path in current if path not in recorded]
    removed = [path for path in recorded if path not in current]
    return changed, new, removed

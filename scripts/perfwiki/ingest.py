"""content/ in, data/ out.

Reads every report bundle under content/reports/, extracts the runs of every
raw file under raw/<environment>/, and writes one YAML file per report under
data/reports/ plus data/index.yaml for the scenario and tool pages.

- Atomic: the whole data/ tree is built beside the old one and swapped in, so a
  crash, Ctrl-C or a bad file never leaves a half-written data/ behind, and a
  file that fails does not stop the others from being published.
- Incremental: a raw file's runs are cached by its sha256 and the code version,
  a report's YAML by everything it is made from (perfwiki.cache); unchanged work
  is not redone.
- Parallel: raw files are extracted, then reports built, on every core.
- Deterministic: the same content/ gives byte-identical data/, from the cache
  or not, on one core or many.
"""

from __future__ import annotations

import csv
import dataclasses
import fcntl
import io
import multiprocessing
import os
import shutil
import sys
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

import yaml

from . import __version__, cache, charts, compare, progress, views, yamlout
from .cache import Cache
from .extract import assign_ids, decode, extract, sha256_hex, slug
from .files import write_atomically
from .model import SCHEMA_VERSION, Problem, Run
from .redact import Redactor, Rules, prompt_hosts, rules_from_config

RAW_DIR = "raw"
# The published copies of the raw files (redacted when the site asks for it), served by Hugo
# from site/static: hugo.toml does not publish content/reports/*/raw/ itself.
PUBLISHED_RAW = Path("site") / "static" / "reports"
# Below this many work items a progress bar would only flicker.
PROGRESS_FROM = 200


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
class RawFile:
    environment: str
    path: str  # relative to the site root, as runs and problems name it
    sha256: str
    redactor: Redactor = field(default_factory=lambda: Redactor(Rules()))

    @property
    def key(self) -> str:
        return cache.key("extract", self.path, self.sha256, self.redactor.fingerprint)

    @property
    def published(self) -> str:
        return views.published_path(self.path)


@dataclass
class ReportJob:
    """Everything one report is built from; `key` hashes all of it."""

    slug: str
    index_path: str
    front_matter: dict[str, Any]
    comparisons_line: int
    raw_files: list[RawFile]
    environment_pages: dict[str, dict[str, Any]]  # every environment the report may show
    key: str = ""


@dataclass
class ReportOutcome:
    """What ingest keeps of a built report besides its YAML."""

    slug: str
    run_count: int
    problems: list[Problem]
    index_share: dict[str, Any]


@dataclass
class IngestResult:
    reports: list[ReportOutcome] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    extracted: int = 0  # raw files parsed this time rather than read from the cache
    built: int = 0  # reports built this time rather than read from the cache

    @property
    def run_count(self) -> int:
        return sum(report.run_count for report in self.reports)


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
    """Every file under an environment's raw folder, sub-folders too, without following folder links."""
    found = []
    for folder, subfolders, files in os.walk(env_dir):
        subfolders[:] = [name for name in subfolders if not name.startswith(".")]
        found += [Path(folder, name) for name in files if not name.startswith(".")]
    return sorted(path for path in found if path.is_file())


def plan(root: Path) -> tuple[list[ReportJob], list[Problem]]:
    """Every report to build with its inputs, in a deterministic order; plus the folders refused.

    Raises redact.ConfigError when hugo.toml asks for redaction in a way that cannot be
    followed: publishing unredacted output instead would be the one unrecoverable mistake.
    """
    rules = rules_from_config(root)
    content = root / "content"
    jobs: list[ReportJob] = []
    problems: list[Problem] = []
    environments = known_environments(content)
    reports_dir = content / "reports"
    bundles = sorted(path.parent for path in reports_dir.glob("*/index.md")) if reports_dir.is_dir() else []
    for bundle in bundles:
        index = bundle / "index.md"
        if slug(bundle.name) != bundle.name:
            problems.append(
                Problem(_relative(index, root), 1, f"report folder {bundle.name!r} is not a slug (a-z, 0-9, '-')")
            )
            continue
        raw_files: list[RawFile] = []
        raw = bundle / RAW_DIR
        for env_dir in sorted(path for path in raw.iterdir() if path.is_dir()) if raw.is_dir() else []:
            env, where = env_dir.name, _relative(env_dir, root)
            if slug(env) != env:
                problems.append(Problem(where, 1, f"environment folder {env!r} is not a slug (a-z, 0-9, '-')"))
            elif env not in environments:
                problems.append(Problem(where, 1, f"unknown environment {env!r}: add content/environments/{env}.md"))
            else:
                inside = content.resolve()
                for path in _raw_files(env_dir):
                    if (path.is_symlink() or env_dir.is_symlink()) and not path.resolve().is_relative_to(inside):
                        # A link to /etc/passwd or ~/.ssh would otherwise be parsed and published.
                        problems.append(Problem(_relative(path, root), 1, "links outside content/: not read"))
                        continue
                    raw_files.append(RawFile(env, _relative(path, root), sha256_hex(path.read_bytes())))
        front_matter = read_front_matter(index)
        listed = [str(env) for env in front_matter.get("environments") or []]
        shown = listed + sorted({raw_file.environment for raw_file in raw_files} - set(listed))
        pages = {env: _environment_page(content, env) for env in shown}
        job = ReportJob(
            bundle.name, _relative(index, root), front_matter, _line_of(index, "comparisons:"), raw_files, pages
        )
        jobs.append(job)
    redactor = _redactor(root, rules, [raw_file for job in jobs for raw_file in job.raw_files])
    problems += authored_leaks(content, redactor, root)
    for job in jobs:
        for raw_file in job.raw_files:
            raw_file.redactor = redactor
        for page in job.environment_pages.values():
            page["facts"] = redactor.facts(page["facts"])
        job.key = cache.key(
            "report",
            (root / job.index_path).read_bytes(),
            yamlout.dump(job.environment_pages),
            *(f"{raw_file.environment}/{raw_file.key}" for raw_file in job.raw_files),
        )
    return jobs, problems


def authored_leaks(content: Path, redactor: Redactor, root: Path) -> list[Problem]:
    """Lines people wrote (reports, environments) that show what redaction hides in raw output.

    Hugo publishes authored pages as written, so redaction cannot reach them; each such
    line is a problem naming the file and line, with the line as redaction would write it.
    """
    if not redactor.active:
        return []
    problems = []
    authored = sorted((content / "environments").glob("*.md")) + sorted((content / "reports").glob("*/index.md"))
    for path in authored:
        for number, line in enumerate(path.read_text(encoding="utf-8-sig").split("\n"), start=1):
            hidden = redactor.text(line)
            if hidden != line:
                problems.append(
                    Problem(
                        _relative(path, root),
                        number,
                        f"shows what redaction hides in raw output, and authored pages are published as written: "
                        f"write it as {hidden.rstrip()!r}",
                    )
                )
    return problems


def _redactor(root: Path, rules: Rules, raw_files: list[RawFile]) -> Redactor:
    """The site's redaction, with the prompt hosts of every raw file when hostnames are hidden."""
    if not rules.hostnames:
        return Redactor(rules)
    texts = []
    for raw_file in raw_files:
        try:
            texts.append(decode((root / raw_file.path).read_bytes()))
        except UnicodeDecodeError:
            continue  # reported when it is extracted, and never published
    return Redactor(rules, tuple(prompt_hosts(texts).items()))


def extract_file(root: Path, raw_file: RawFile) -> None:
    """Parse one raw file into the cache; its runs get ids later, from the whole report.

    With redaction on, the redacted text is what is parsed and what is published; the
    runs keep the original file's sha256. A file that cannot be decoded, and so cannot be
    redacted, is not published at all.
    """
    store = Cache(root)
    data = (root / raw_file.path).read_bytes()
    if raw_file.redactor.active:
        try:
            data = raw_file.redactor.text(decode(data)).encode("utf-8")
        except UnicodeDecodeError:
            pass  # extract() reports it; nothing is published
        else:
            write_atomically(store.path("published", raw_file.key, ""), data)
    found = extract(raw_file.path, data)
    if raw_file.redactor.active:
        for run in found.runs:
            run.source = dataclasses.replace(run.source, sha256=raw_file.sha256, redacted=True)
    store.save("extract", raw_file.key, (found.runs, found.problems))


def build_report(root: Path, job: ReportJob) -> ReportOutcome:
    """Build one report from the cached runs of its files; its YAML and outcome go into the cache."""
    store = Cache(root)
    report = Report(job.slug, job.front_matter, index_path=job.index_path, comparisons_line=job.comparisons_line)
    problems: list[Problem] = []
    for raw_file in job.raw_files:
        found = store.load("extract", raw_file.key)
        if found is None:  # removed under us or unreadable: parse again
            extract_file(root, raw_file)
            found = store.load("extract", raw_file.key)
        runs, file_problems = found
        for run in runs:
            run.environment = raw_file.environment
        report.runs.extend(runs)
        problems.extend(file_problems)
    assign_ids(report.runs)
    report.environment_pages = [job.environment_pages[env] for env in report.environments]
    specs = report.front_matter.get("comparisons") or []
    report.comparisons, errors = compare.for_report(
        specs, report.runs, report.environments, report.baseline, report.front_matter.get("automatic")
    )
    problems.extend(Problem(report.index_path, report.comparisons_line, error) for error in errors)
    for run in report.runs:
        for error in run.validate():
            problems.append(Problem(run.source.path, run.source.line_start, f"invalid run {run.id}: {error}"))
    document, runs = report_documents(report)
    files = {f"reports/{job.slug}.yaml": yamlout.dump(document)}
    files.update({f"runs/{job.slug}/{run_id}.yaml": yamlout.dump(run) for run_id, run in runs.items()})
    cache.write_tree(store.path("reports", job.key, ""), files)
    outcome = ReportOutcome(job.slug, len(report.runs), problems, views.index_share(job.slug, report.runs))
    store.save("reports", job.key, outcome)
    return outcome


def _label(item: RawFile | ReportJob) -> str:
    return item.path if isinstance(item, RawFile) else item.slug


def _in_parallel(
    work: Callable[[Path, Any], Any], items: list[Any], root: Path, workers: int, done: Callable[[str], None]
) -> Iterator[Any]:
    """work(root, item) for every item on `workers` processes; yields the results as they finish."""
    if workers <= 1 or len(items) <= 1:
        for item in items:
            yield work(root, item)
            done(_label(item))
        return
    # fork: workers start with every module already imported, and nothing to re-read.
    with ProcessPoolExecutor(max_workers=workers, mp_context=multiprocessing.get_context("fork")) as pool:
        futures = {pool.submit(work, root, item): item for item in items}
        try:
            for future in as_completed(futures):
                yield future.result()
                done(_label(futures[future]))
        except BaseException:  # a failure or Ctrl-C: start nothing more
            for future in futures:
                future.cancel()
            raise


def _progress_bar(total: int, out: TextIO | None) -> Callable[[str], None]:
    """A callback per finished item: a bar with an ETA on a terminal for long runs, else silent."""
    if out is None or total < PROGRESS_FROM or not out.isatty():
        return lambda label: None
    started, finished = time.monotonic(), 0

    def step(label: str) -> None:
        nonlocal finished
        finished += 1
        elapsed = time.monotonic() - started
        progress.draw(out, finished, total, elapsed / finished * (total - finished), label)
        if finished == total:
            out.write("\n")

    return step


def all_cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        return os.cpu_count() or 1


def ingest(root: Path, workers: int | None = None, out: TextIO | None = sys.stderr) -> IngestResult:
    """Bring data/ up to date with content/: every report, its runs and every problem.

    Two ingests of one site (`make serve` and a CI job, say) take turns: they share the
    staging folders and the cache.
    """
    lock_path = root / cache.DIR / "lock"
    lock_path.parent.mkdir(parents=True, exist_ok=True)
    with lock_path.open("a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        return _ingest(root, workers or all_cores(), out)


def _ingest(root: Path, workers: int, out: TextIO | None) -> IngestResult:
    jobs, problems = plan(root)
    store = Cache(root)
    result = IngestResult(problems=problems)
    outcomes: dict[str, ReportOutcome] = {}
    to_build: list[ReportJob] = []
    for job in jobs:
        cached = store.load("reports", job.key)
        if cached is not None and store.path("reports", job.key, "").is_dir():
            outcomes[job.slug] = cached
        else:
            to_build.append(job)
    current = {raw_file.key: raw_file for job in jobs for raw_file in job.raw_files}
    for name in current:
        store.path("extract", name, ".pickle")  # marks it as still in use
    wanted = {raw_file.key: raw_file for job in to_build for raw_file in job.raw_files}
    to_extract = [
        raw_file
        for name, raw_file in sorted(wanted.items(), key=lambda item: item[1].path)
        if not store.path("extract", name, ".pickle").is_file()
    ]
    done = _progress_bar(len(to_extract) + len(to_build), out)
    for _ in _in_parallel(extract_file, to_extract, root, workers, done):
        pass
    for outcome in _in_parallel(build_report, to_build, root, workers, done):
        outcomes[outcome.slug] = outcome
    result.extracted, result.built = len(to_extract), len(to_build)
    result.reports = [outcomes[job.slug] for job in jobs]
    for outcome in result.reports:
        result.problems.extend(outcome.problems)
    index = store.path("index", cache.key("index", *(job.key for job in jobs)), "")
    if not index.is_dir():
        cache.write_tree(index, index_files([outcome.index_share for outcome in result.reports]))
    published = {}
    for raw_file in current.values():
        if raw_file.redactor.active:
            redacted = store.path("published", raw_file.key, "")
            if redacted.is_file():
                published[raw_file.published] = redacted
        else:
            published[raw_file.published] = root / raw_file.path
    write_data(root, [store.path("reports", job.key, "") for job in jobs] + [index], published)
    store.prune()
    return result


def index_files(shares: list[dict[str, Any]]) -> dict[str, str]:
    """data/ files for the scenario, tool and environment pages, one per page (see report_documents)."""
    index = views.site_index(shares)
    files = {"tools.yaml": yamlout.dump(index["tools"])}
    files.update({f"scenarios/{key}.yaml": yamlout.dump(scenario) for key, scenario in index["scenarios"].items()})
    files.update(
        {f"environments/{env}.yaml": yamlout.dump({"runs": runs}) for env, runs in index["environments"].items()}
    )
    return files


def write_data(root: Path, trees: list[Path], published: dict[str, Path]) -> None:
    """Build data/ (from cached trees of YAML) and the published raw files beside the old ones, then swap them in.

    `published` maps each raw file's place on the site (reports/<slug>/raw/...) to the file to serve.
    """
    data, raw = root / "data", root / PUBLISHED_RAW
    staging, raw_staging = root / ".data.new", root / ".raw.new"
    previous, raw_previous = root / ".data.old", root / ".raw.old"
    _recover(data, previous)
    _recover(raw, raw_previous)
    for folder in (staging, raw_staging):
        shutil.rmtree(folder, ignore_errors=True)
        folder.mkdir()
    for tree in trees:
        shutil.copytree(tree, staging, copy_function=stage, dirs_exist_ok=True)
    folders: set[Path] = set()
    for place, source in sorted(published.items()):
        target = raw_staging / place.removeprefix("reports/")
        if target.parent not in folders:
            target.parent.mkdir(parents=True, exist_ok=True)
            folders.add(target.parent)
        stage(str(source), str(target))
    _swap(staging, data, previous)
    raw.parent.mkdir(parents=True, exist_ok=True)
    _swap(raw_staging, raw, raw_previous)


def _swap(staging: Path, target: Path, previous: Path) -> None:
    if target.exists():
        os.rename(target, previous)
    os.rename(staging, target)
    shutil.rmtree(previous, ignore_errors=True)


def stage(built: str, target: str) -> None:
    """Put a cached file into the staging tree: a hard link (10,000 runs are 10,000 files), else a copy."""
    try:
        os.link(built, target)
    except OSError:
        shutil.copyfile(built, target)


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


def report_documents(report: Report) -> tuple[dict[str, Any], dict[str, dict[str, Any]]]:
    """The report's own YAML document, and one document per run.

    Runs live in files of their own (data/runs/<report>/<id>.yaml) because Hugo's YAML
    decoder refuses a document with more than about 10,000 mappings and lists: a report
    of a few hundred fio runs in one file would not build.
    """
    environments = report.environments
    baseline = report.baseline
    comparisons = report.comparisons
    flagged = {
        run.id: [f["message"] for f in run.checks if f["severity"] in ("error", "warning")]
        for run in report.runs
        if run.checks
    }
    facts = {page["id"]: page.get("facts") or {} for page in report.environment_pages}
    document = {
        "schema_version": SCHEMA_VERSION,
        "generator": f"perfwiki {__version__}",
        "report": report.slug,
        "baseline": baseline,
        "environments": environments,
        "comparisons": comparisons,
        "run_ids": [run.id for run in report.runs],
        "views": {
            "runs_table": views.runs_table(report.runs),
            "charts": charts.headline_charts(comparisons),
            "comparisons": {comparison["id"]: views.comparison_view(comparison, flagged) for comparison in comparisons},
            "checks": views.checks_summary(report.runs),
            "environments": views.environments_side_by_side(report.environment_pages),
        },
        "exports": {"comparisons_csv": comparisons_csv(comparisons)},
    }
    runs = {
        run.id: {
            "run": run.to_dict(),
            "page": {**views.run_page(run), "badges": views.condition_badges(run, facts.get(run.environment))},
        }
        for run in report.runs
    }
    return document, runs


def _recover(data: Path, previous: Path) -> None:
    """A crash between the two renames leaves only .data.old: put it back."""
    if not data.exists() and previous.exists():
        os.rename(previous, data)


def load_report(data: Path, report_slug: str) -> dict[str, Any]:
    """A report's document from data/, with its runs read back in order as `runs`."""
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    document = yaml.load((data / "reports" / f"{report_slug}.yaml").read_text(encoding="utf-8"), Loader=loader)
    folder = data / "runs" / report_slug
    document["runs"] = [
        yaml.load((folder / f"{run_id}.yaml").read_text(encoding="utf-8"), Loader=loader)["run"]
        for run_id in document["run_ids"]
    ]
    return document


def stale(root: Path) -> tuple[list[str], list[str], list[str]]:
    """(changed, new, removed) raw files since the last ingest, judged by the sha256 data/ recorded."""
    recorded: dict[str, str] = {}
    reports = root / "data" / "reports"
    for path in sorted(reports.glob("*.yaml")) if reports.is_dir() else []:
        for run in load_report(root / "data", path.stem)["runs"]:
            recorded[run["source"]["path"]] = run["source"]["sha256"]
    current: dict[str, str] = {}
    for raw in sorted((root / "content" / "reports").glob(f"*/{RAW_DIR}/*/**/*")):
        if raw.is_file() and not raw.name.startswith("."):
            current[_relative(raw, root)] = sha256_hex(raw.read_bytes())
    changed = [path for path, digest in current.items() if path in recorded and recorded[path] != digest]
    new = [path for path in current if path not in recorded]
    removed = [path for path in recorded if path not in current]
    return changed, new, removed

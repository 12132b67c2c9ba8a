"""content/ in, data/ out: the build.

Plans the work from what `content` finds, extracts every raw file (`extract`), builds
every report's documents (`pages`), and swaps the result into data/, the published
raw files and each report's JSON and CSV exports into site/static/reports/, and each
run's CSV and JSON and the list of every run into site/static/runs/.

- Atomic: data/ and the two published static trees are built as one new generation beside
  the one in use and switched together by one rename (`publish`), so a crash, Ctrl-C, a full
  disk or a bad file never leaves a half-written or mismatched site behind, and a file that
  fails does not stop the others from being published.
- Incremental: a raw file's runs are cached by its sha256 and the code version, a
  report's documents by everything they are made from (`cache`); unchanged work is not
  redone.
- Parallel: raw files are extracted, then reports built, on every core.
- Deterministic: the same content/ gives byte-identical data/, from the cache or not,
  on one core or many.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import functools
import gc
import json
import os
import shutil
import sys
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple, TextIO

from . import (
    aliases,
    artefacts,
    cache,
    chartsvg,  # a report's chart specs, published apart, back into its views (load_report)
    claims,
    collector,
    compare,
    content,
    datafile,
    exports,
    model,  # model.UNPACKED_LIMIT read when a report is built (tests change it)
    naming,
    planned,
    progress,
    publish,
    runstore,
    tools,
)
from . import parts as parts_module  # `parts`: the sites ingest() joins
from . import renames as run_renames  # named apart: the runs renamed, beside the reports
from . import scenario_aliases as scenario_renames  # beside run_renames: old scenario keys
from . import secrets as secret_patterns
from . import validate as validation  # on a line of its own too
from .cache import AS_IT_IS, SHARE_KINDS, Cache
from .decode import binary_at, decode, refused
from .extract import extract, extract_text
from .files import OnDisk, copy_file, link_files, link_or_copy, write_atomically, write_files
from .lifetime import die_with_parent
from .model import Problem, Run, Source, published_path, sha256_file, sha256_hex
from .pages import finder
from .pages import index as index_pages
from .pages import raw as raw_view
from .pages.report import Report, report_documents, run_documents
from .redact import Redactor, Rules, opted_out, prompt_hosts, rules_from_config
from .tools.fio import logs as fio_logs

if TYPE_CHECKING:
    from concurrent.futures import Executor, Future

# The published copies of the raw files (redacted when the site asks for it), served by Hugo
# from the current generation (`publish`): hugo.toml does not publish content/reports/*/raw/
# itself. Each report's exports (index.json, index.csv) are published beside them.
PUBLISHED_RAW = publish.PUBLISHED["raw"]
# Each run's index.csv and index.json, served beside its page, and the run finder's files (every run
# by what it measured, pages/finder.py) that /runs/ and the search fall-back read: files Hugo copies
# cost it nothing to build.
PUBLISHED_RUNS = publish.PUBLISHED["runs"]
# A disk or quota full: the error says so, whatever was being written.
_FULL = (errno.ENOSPC, errno.EDQUOT)


@dataclass
class RawFile:
    environment: str
    path: str  # relative to the site root, as runs and problems name it
    sha256: str
    redactor: Redactor = field(default_factory=lambda: Redactor(Rules()))
    text: str | None = None  # decoded already, when planning needed the text (host names to hide)
    # Its cache key, once the site's redaction is known (plan() sets it): a digest per use was 4 a file.
    key: str = ""

    def keyed(self) -> None:
        self.key = cache.key("extract", self.path, self.sha256, self.redactor.fingerprint)

    @property
    def published(self) -> str:
        return published_path(self.path)


@dataclass
class ReportJob:
    """Everything one report is built from; `key` hashes all of it."""

    slug: str
    index_path: str
    front_matter: dict[str, Any]
    comparisons_line: int
    raw_files: list[RawFile]
    environment_pages: dict[str, dict[str, Any]]  # every environment the report may show
    # Its old names (aliases.py): its aliases.yaml (where, and its text, None without one) and
    # the slugs its front matter's `aliases` give it, as checked against every other report's.
    aliases_path: str = ""
    aliases_text: str | None = None
    former_slugs: list[str] = field(default_factory=list)
    key: str = ""
    # The new generation's folders by tree name (publish.FOLDERS), when this ingest publishes: the
    # worker that builds the report writes its files there itself, and the cache keeps them as one entry.
    staging: dict[str, str] | None = None
    # The current generation's folders, when its files are there as the cache has them (the last
    # ingest published them): linked from there, they stay one copy on disk, and the generation
    # replaced frees no space. Written anew, a 10,000-run ingest after one change spent 13 s of
    # system time writing and freeing them. Raw files are copied all the same (_publish_raw_files).
    previous: dict[str, str] | None = None


@dataclass
class ReportOutcome:
    """What ingest keeps of a built report besides its documents."""

    slug: str
    run_count: int
    problems: list[Problem]
    # The report's share of the site index is cached apart ("shares"): an ingest that finds
    # nothing new never reads it, and at 10,000 runs loading the shares was a fifth of its time.
    # Its digest names the site index it goes into: a report changed in what the index does not
    # show (its text, a comment in a raw file) leaves the index as it was, not made again from
    # every report's share (three fifths of one change at 20,000 runs).
    share: str = ""


@dataclass
class IngestResult:
    reports: list[ReportOutcome] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    extracted: int = 0  # raw files parsed this time rather than read from the cache
    built: int = 0  # reports built this time rather than read from the cache
    adopted: int = 0  # reports taken from the parts (`--parts`)

    @property
    def run_count(self) -> int:
        return sum(report.run_count for report in self.reports)


class JobState(NamedTuple):
    """A planned report's job as planned.py keeps it: its environments by id (their documents are kept
    once, unredacted), its raw files as (environment, path, sha256, key), its former slugs with its key."""

    slug: str
    index_path: str
    front_matter: dict[str, Any]
    comparisons_line: int
    raw_files: list[tuple[str, str, str, str]]
    shown: list[str]
    aliases_path: str
    aliases_text: str | None
    former_and_key: tuple[list[str], str] | None = None  # None until plan() keys it


@dataclass
class FolderPlan:
    """What planning made of one report folder; planned.py keeps it for the next ingest."""

    refused: list[Problem]  # content.bundle_of's: a name that is not a slug, unknown environments
    checked: validation.BundleChecked | None  # None: not a bundle (its name is not a slug)
    problems: list[Problem] = field(default_factory=list)  # held back, front matter, aliases.yaml
    job: JobState | None = None  # None when the report is left out
    leaks: list[Problem] | None = None  # its index.md's problems of redaction, once looked for
    digests: dict[str, tuple[int, int, int, str]] = field(default_factory=dict)  # cache.FileDigests.seen


def plan(root: Path) -> tuple[list[ReportJob], list[Problem]]:
    """Every report to build with its inputs, in a deterministic order; plus the folders refused.

    A report folder whose files are as the last ingest planned them, with nothing changed outside
    report folders, is taken from that plan (planned.py); the others are planned here.

    Raises redact.ConfigError when hugo.toml asks for redaction in a way that cannot be
    followed: publishing unredacted output instead would be the one unrecoverable mistake.
    """
    rules = rules_from_config(root)
    found = None if rules.hostnames else planned.survey(root)  # hidden hostnames: every file's prompts count
    memo = planned.load(root, found)
    # Validation first (validate.py): a report with an error is left out whole, rather than published
    # with a shape guessed from it, and a raw file that is not text is neither read nor published.
    pages: validation.EnvironmentPages = memo.site.get("pages") or validation.environment_pages(root)
    documents: dict[str, dict[str, Any]] = dict(memo.site.get("documents", {}))  # environment pages, read once
    environments, inside = set(pages.found), (root / content.CONTENT_DIR).resolve()
    folders: dict[str, FolderPlan] = {}
    for folder in content.report_folders(root):
        kept = memo.reports.get(folder.name)
        if kept is None:
            kept = _plan_folder(root, folder, environments, inside, pages, memo.digests(folder.name))
        folders[folder.name] = kept
    bundled = [name for name, folder in folders.items() if folder.checked is not None]
    problems = [problem for folder in folders.values() for problem in folder.refused]
    problems += pages.problems
    problems += validation.report_folders(root, [content.report_path(root, name) for name in bundled])
    problems += [problem for folder in folders.values() if folder.checked for problem in folder.checked.problems]
    problems += [problem for folder in folders.values() for problem in folder.problems]
    jobs = [_job_of(folder.job, root, documents) for folder in folders.values() if folder.job]
    former, slug_problems = aliases.check_slugs(root, {job.slug: (job.index_path, job.front_matter) for job in jobs})
    problems += slug_problems
    for job in jobs:
        job.former_slugs = former[job.slug]
    redactor = _redactor(root, rules, [raw_file for job in jobs for raw_file in job.raw_files])
    problems += opted_out(root, rules)
    if redactor.active:
        if memo.site.get("leaks") is None:
            memo.site["leaks"] = [
                leak for path in content.environment_texts(root) for leak in page_leaks(root, path, redactor)
            ]
        for name, folder in folders.items():
            if folder.leaks is None:
                folder.leaks = page_leaks(root, content.report_path(root, name), redactor)
        leaks = memo.site["leaks"] + [leak for folder in folders.values() for leak in folder.leaks or ()]
        problems += sorted(leaks, key=lambda problem: (problem.path, problem.line))
    kept_keys = {folder.job.slug: folder.job.former_and_key for folder in folders.values() if folder.job}
    # Anything planned anew is kept for the next ingest; a plan taken whole is not written again.
    changed = len(memo.reports) != len(folders) or not memo.site
    for job in jobs:
        for raw_file in job.raw_files:
            raw_file.redactor = redactor
            if not raw_file.key:
                raw_file.keyed()
        for page in job.environment_pages.values():
            page["facts"] = redactor.facts(page["facts"])
        former_and_key = kept_keys.get(job.slug)
        if former_and_key and former_and_key[0] == job.former_slugs:
            job.key = former_and_key[1]
        else:
            changed = True
            job.key = cache.key(
                "report",
                (root / job.index_path).read_bytes(),
                datafile.dump(job.environment_pages),
                datafile.dump({"aliases": job.aliases_text, "slugs": job.former_slugs}),
                *(f"{raw_file.environment}/{raw_file.key}" for raw_file in job.raw_files),
            )
    if changed:
        by_slug = {job.slug: job for job in jobs}
        for folder in folders.values():
            if folder.job:
                folder.job = _job_state(by_slug[folder.job.slug])
        planned.save(root, found, {"pages": pages, "documents": documents, "leaks": memo.site.get("leaks")}, folders)
    return jobs, problems


def _plan_folder(
    root: Path,
    folder: Path,
    environments: set[str],
    inside: Path,
    pages: validation.EnvironmentPages,
    digests: cache.FileDigests,
) -> FolderPlan:
    """One report folder planned: its bundle, checked; its job unless it is held back."""
    bundle, refused = content.bundle_of(root, folder, environments, inside)
    if bundle is None:
        return FolderPlan(refused, None)
    checked = validation.bundle_checked(root, bundle, pages, known_text=digests.unchanged)
    planned_folder = FolderPlan(refused, checked, digests=digests.seen)  # filled in as it is planned
    index_path = content.relative(bundle.index_path, root)
    if checked.held_back:
        planned_folder.problems.append(Problem(index_path, 1, validation.HELD_BACK))
        return planned_folder
    raw_files = [
        (env, content.relative(path, root), digests.digest(path), "")
        for env, path in bundle.raw_files
        if path not in checked.refused
    ]
    try:
        front_matter = content.read_front_matter(bundle.index_path)
    except content.FrontMatterError as error:  # validation reports it; this is the last guard
        planned_folder.problems.append(Problem(index_path, error.line, str(error)))
        return planned_folder
    listed = [str(env) for env in front_matter.get("environments") or []]
    shown = listed + sorted({env for env, *_ in raw_files} - set(listed))
    aliases_text = None
    if bundle.aliases_path.is_file():
        try:
            aliases_text = bundle.aliases_path.read_text(encoding="utf-8-sig")
        except UnicodeDecodeError as exc:
            where = content.relative(bundle.aliases_path, root)
            planned_folder.problems.append(Problem(where, 1, f"not valid UTF-8 (byte {exc.start}): {exc.reason}"))
    comparisons_line = content.line_of(bundle.index_path, "comparisons:")
    aliases_path = content.relative(bundle.aliases_path, root)
    planned_folder.job = JobState(
        bundle.slug, index_path, front_matter, comparisons_line, raw_files, shown, aliases_path, aliases_text
    )
    return planned_folder


# The redactor of a raw file until plan() gives it the site's: one object, not one a file.
_UNREDACTED = Redactor(Rules())


def _job_of(state: JobState, root: Path, documents: dict[str, dict[str, Any]]) -> ReportJob:
    """The job a folder's plan keeps, each environment page a copy of its document."""
    for env in state.shown:
        if env not in documents:
            documents[env] = content.environment_page(root, env)
    return ReportJob(
        state.slug,
        state.index_path,
        state.front_matter,
        state.comparisons_line,
        [RawFile(env, path, sha256, _UNREDACTED, key=key) for env, path, sha256, key in state.raw_files],
        {env: {**documents[env], "facts": dict(documents[env]["facts"])} for env in state.shown},
        aliases_path=state.aliases_path,
        aliases_text=state.aliases_text,
    )


def _job_state(job: ReportJob) -> JobState:
    """A planned job as planned.py keeps it (JobState), keyed."""
    raw_files = [(raw_file.environment, raw_file.path, raw_file.sha256, raw_file.key) for raw_file in job.raw_files]
    return JobState(
        job.slug,
        job.index_path,
        job.front_matter,
        job.comparisons_line,
        raw_files,
        list(job.environment_pages),
        job.aliases_path,
        job.aliases_text,
        (job.former_slugs, job.key),
    )


def authored_leaks(root: Path, redactor: Redactor) -> list[Problem]:
    """Lines people wrote (reports, environments) that show a secret or what redaction hides in raw output.

    Hugo publishes authored pages as written, so redaction cannot reach them; each such
    line is a problem naming the file and line: a secret by its kind (never itself), anything
    else with the line as redaction would write it.
    """
    if not redactor.active:
        return []
    problems = [problem for path in content.authored_pages(root) for problem in page_leaks(root, path, redactor)]
    return sorted(problems, key=lambda problem: (problem.path, problem.line))


def page_leaks(root: Path, path: Path, redactor: Redactor) -> list[Problem]:
    """authored_leaks of one page."""
    problems = []
    name = content.relative(path, root)
    # errors="replace": a page that is not UTF-8 is reported by validation (validate.py), not here.
    text = path.read_text(encoding="utf-8-sig", errors="replace")
    secret_lines = set()
    if redactor.rules.secrets:
        for found in secret_patterns.redact(text)[1]:
            secret_lines.add(found.line)
            problems.append(
                Problem(
                    name,
                    found.line,
                    f"shows {found.what} ({found.shown}), and authored pages are published as written: take it out",
                )
            )
    for number, line in enumerate(text.split("\n"), start=1):
        hidden = redactor.text(line)
        if hidden != line and number not in secret_lines:
            problems.append(
                Problem(
                    name,
                    number,
                    f"shows what redaction hides in raw output, and authored pages are published as written: "
                    f"write it as {hidden.rstrip()!r}",
                )
            )
    return problems


def _redactor(root: Path, rules: Rules, raw_files: list[RawFile]) -> Redactor:
    """The site's redaction, with the prompt hosts of every raw file when hostnames are hidden.

    The files decoded to find their hosts keep their text, so extraction does not decode them again.
    """
    if not rules.hostnames:
        return Redactor(rules)
    for raw_file in raw_files:
        try:
            raw_file.text = decode((root / raw_file.path).read_bytes())
        except UnicodeDecodeError:
            continue  # reported when it is extracted, and never published
    return Redactor(rules, tuple(prompt_hosts([f.text for f in raw_files if f.text is not None]).items()))


def extract_file(root: Path, raw_file: RawFile) -> None:
    """Parse one raw file into the cache; its runs get ids later, from the whole report.

    The file is decoded once. Redaction is on unless hugo.toml turns off even secrets: the
    redacted text is what is parsed and what is published (each secret a warning at its line),
    the file as it is when nothing was hidden; the runs keep the original file's sha256. A file
    that cannot be decoded, and so cannot be redacted, is not published at all.
    """
    store = Cache(root)
    source = Source(raw_file.path, 1, 1, raw_file.sha256)
    text = raw_file.text
    if text is None:
        data = (root / raw_file.path).read_bytes()
        try:
            # Decoded here rather than by extract(), which would hash the file again: planning has its sha256.
            text = decode(data)
        except UnicodeDecodeError:
            store.save("extract", raw_file.key, _found(extract(raw_file.path, data)))  # reports where
            return
        del data  # the text is what is parsed: a 200 MB file need not be held twice
    redactions: list[Problem] = []
    if raw_file.redactor.active and binary_at(text) is None:  # a binary file is not published at all
        redacted, findings = raw_file.redactor.redact(text)
        # Each secret a warning at its line, kept with the file's runs so every ingest reports it.
        redactions = [Problem(raw_file.path, found.line, found.message, "warning") for found in findings]
        published = store.path("published", raw_file.key, "")
        if redacted != text:
            source = Source(raw_file.path, 1, 1, raw_file.sha256, redacted=True)
            write_atomically(published, redacted.encode("utf-8"))
        else:  # nothing hidden: the file as it is (UTF-16, CRLF...), whose sha256 pages show, from content/
            published.unlink(missing_ok=True)
            write_atomically(store.path("published", raw_file.key, AS_IT_IS), b"")
        text = redacted
    raw_file.text = None  # (a worker's copy) parsed below, and held no longer than that
    # The runs onto the cache entry as they are parsed, a few hundred at a time: a file of 100,000
    # runs held them all (some 15 KB each) until the end.
    with store.pieces("extract", raw_file.key) as put:
        put("runs", [])
        # Packed (Run.pack): the report that reads them back holds them all while it is built.
        # As they are: the entry compresses them whole, and build_report packs them as it reads them.
        found = extract_text(text, source, sink=lambda runs: put("runs", runs))
        put("problems", redactions + found.problems)
        put("log", found.log)


def _found(extracted: Any) -> tuple[list[Any], list[Problem], Any]:
    return extracted.runs, extracted.problems, extracted.log


class _Held:
    """Runs as a report holds them while it is built: as they are while the report has no more than
    UNPACKED_LIMIT, packed (Run.pack) from the first run past it on, those read before it too. A report
    of 100,000 runs holds them all; one of a few hundred would be unpacked again, every field, by the
    first step that reads them, and kept so (packing, then unpacking, was 5 % of a cold ingest's CPU)."""

    def __init__(self) -> None:
        self.unpacked: list[Run] = []
        self.packing = False

    def __call__(self, runs: list[Run]) -> list[Run]:
        if not self.packing and len(self.unpacked) + len(runs) > model.UNPACKED_LIMIT:
            self.packing = True
            for run in self.unpacked:
                run.pack()
            self.unpacked = []
        if self.packing:
            return [run.pack() for run in runs]
        self.unpacked.extend(runs)
        return runs


def failed_runs(runs: list[Run]) -> list[Problem]:
    """A warning at the error line of each run that failed: it is published, and compared nowhere."""
    found = []
    for run in runs:
        for check in run.checks:
            if check["severity"] == "error":
                line = check.get("line") or run.source.line_start
                found.append(Problem(run.source.path, line, f"run {run.id}: {check['message']}", "warning"))
                break
    return found


def build_report(root: Path, job: ReportJob) -> ReportOutcome:
    """Build one report from the cached runs of its files; its documents and outcome go into the cache."""
    store = Cache(root)
    report = Report(job.slug, job.front_matter, index_path=job.index_path, comparisons_line=job.comparisons_line)
    problems: list[Problem] = []
    logs, log_files = [], []
    held = _Held()
    for raw_file in job.raw_files:
        found = store.load("extract", raw_file.key, each={"runs": held})
        if found is None:  # removed under us or unreadable: parse again
            extract_file(root, raw_file)
            found = store.load("extract", raw_file.key, each={"runs": held})
        # Written in pieces (extract_file), or whole for a file that could not be decoded.
        runs, file_problems, log = (
            (found["runs"], found["problems"], found["log"]) if isinstance(found, dict) else found
        )
        for run in runs:
            run.environment = raw_file.environment
        report.runs.extend(runs)
        problems.extend(file_problems)
        if log is not None:
            logs.append(log)
            log_files.append({"source": raw_file.path, "sha256": raw_file.sha256})
    fio_logs.attach(report.runs, logs)  # a log no run wrote is published, and charted nowhere
    retired, alias_problems = aliases.read(job.aliases_path, job.aliases_text)
    # Ids from each run's own file; one the last ingest published otherwise is kept as an old id (renames.py).
    digests = [run_renames.digest(run) for run in report.runs]
    before = run_renames.previous(root, job.slug, job.former_slugs)
    moved, id_problems = run_renames.assign(report.runs, digests, retired, before)
    if moved and not alias_problems:
        retired, id_notes = run_renames.keep(root, job.aliases_path, job.aliases_text, retired, moved)
        id_problems += id_notes
    problems.extend(id_problems)
    table, wrong = aliases.check(job.aliases_path, retired, report.runs)
    problems.extend(alias_problems + wrong)
    report.aliases = aliases.Aliases(table, job.former_slugs)
    try:
        naming.rename(report.runs, report.front_matter.get("labels"))
    except naming.LabelsError as exc:
        problems.append(Problem(report.index_path, 1, str(exc)))
    naming.make_titles_unique(report.runs)
    report.environment_pages = [job.environment_pages[env] for env in report.environments]
    specs = report.front_matter.get("comparisons") or []
    report.comparisons, errors = compare.for_report(
        specs, report.runs, report.environments, report.baseline, report.front_matter.get("automatic")
    )
    problems.extend(Problem(report.index_path, report.comparisons_line, error) for error in errors)
    artefacts.annotate(report.runs, report.comparisons, report.environment_pages)
    problems.extend(failed_runs(report.runs))
    problems.extend(
        claims.contradicted(report.index_path, (root / job.index_path).read_text(encoding="utf-8"), report.runs)
    )
    for run in report.runs:
        for error in tools.validate(run):
            problems.append(Problem(run.source.path, run.source.line_start, f"invalid run {run.id}: {error}"))
    documents = report_documents(report, with_runs=False)
    if log_files:  # no page of their own, but `perfwiki status` knows them as ingested
        documents.document["logs"] = log_files
    # The report's files go into staging as they are made, a few hundred runs' at a time, their names
    # into its cache entry, and are then let go: held whole (and as text beside the bytes) they were
    # most of the memory a report of 10,000 runs took to build (1,085 MB peak).
    assert job.staging is not None  # a report is built only by an ingest that publishes
    with store.pieces("files", job.key) as put, _Spool(put, job.staging) as spool:
        ledger = run_renames.ledger(report.runs, digests)
        spool.add("data", datafile.name(f"{run_renames.LEDGER}/{job.slug}"), datafile.dump(ledger))
        # Before the report's document, whose raw_files entries they name.
        raw_pages = _raw_views(
            root, job, report.runs, documents.document["raw_files"], functools.partial(spool.add, "data")
        )
        # Each run's page document and exports into the report's chunks (runstore.py), where each lands noted
        # in its run_index entry: so the report's document is written after them.
        where = {entry["id"]: entry for entry in documents.document["run_index"]}
        page_chunk = functools.partial(_spool_chunk, spool, "data", runstore.page_chunk_name, job.slug)
        with runstore.Chunks(page_chunk, runstore.PAGE_CHUNK_CHARS) as docs:
            for run_id, page in run_documents(report, documents.document, raw_pages):
                where[run_id]["doc"] = docs.add(datafile.dump(page))[:2]
        # The report's exports, published beside its page and its raw files (site/static/reports/<slug>/),
        # the JSON one with every run's JSON, made once a run for both.
        title = str(report.front_matter.get("title") or "")
        baseline = documents.document["baseline"]
        export_chunk = functools.partial(_spool_chunk, spool, "exports", runstore.exports_chunk_name, job.slug)
        exported = runstore.Chunks(export_chunk, runstore.EXPORT_CHUNK_CHARS)
        with exported:
            texts = _run_texts(report.runs, exported, where)
            export = exports.report_json_pieces(
                job.slug, title, baseline, report.environments, report.comparisons, texts
            )
            # Straight into staging, a piece at a time: some 6 KB a run, it was the largest single object a
            # report of 100,000 runs held (600 MB).
            exported_at = spool.file("raw", f"{job.slug}/index.json")
            with open(exported_at, "xb") as file:
                for piece in export:
                    file.write(piece.encode("utf-8"))
        spool.add("data", datafile.name(f"reports/{job.slug}"), datafile.dump(documents.document))
        spool.add("data", datafile.name(f"views/{job.slug}"), datafile.dump(documents.views))
        documents.views = {}
        raw: dict[str, bytes | OnDisk] = {
            "index.json": OnDisk(exported_at),
            "index.csv": exports.comparisons_csv(job.slug, report.comparisons).encode("utf-8"),
        }
        # The specs of the report page's charts, which its page fetches when the reader reaches for one.
        spool.add("raw", f"{job.slug}/charts.json", json.dumps(documents.charts, separators=(",", ":")))
        # The exports at the report's former addresses too: a static host cannot redirect a download,
        # and two small files are cheap. Their run page addresses are relative (../../runs/<slug>/...),
        # so from there they still lead to the runs.
        for folder in [job.slug, *job.former_slugs]:
            for name, data in raw.items():
                if f"{folder}/{name}" != f"{job.slug}/index.json":  # written there already
                    spool.add("raw", f"{folder}/{name}", data)
    _publish_raw_files(root, job)
    # Written: let go before the share is made, the largest step left (a tenth of a GB at 100,000 runs).
    del documents, raw, ledger, raw_pages
    # The scenarios the report compares across a parameter on purpose: the compare page honours them.
    decided = index_pages.decided_across(report.comparisons, report.runs)
    report.comparisons = []
    share = index_pages.index_share(
        job.slug, report.runs, report.front_matter.get("title"), report.front_matter.get("date"), decided
    )
    _save_share(store, job.key, share)
    outcome = ReportOutcome(job.slug, len(report.runs), problems, cache.key("share", datafile.dump(share)))
    store.save("reports", job.key, outcome)
    return outcome


def _spool_chunk(spool: _Spool, tree: str, name: Callable[[str, int], str], slug: str, number: int, text: str) -> None:
    spool.add(tree, name(slug, number), text)


def _run_texts(runs: list[Run], chunks: runstore.Chunks, where: dict[str, dict]) -> Iterator[tuple[str, str]]:
    """(id, run_json) of each run, in order, its index.json and index.csv put in the exports chunks on the way."""
    for run in runs:
        text = exports.run_json(run)
        where[run.id]["export"] = chunks.add(text, exports.run_csv(run))
        yield run.id, text


class _Spool:
    """A report's files on their way out: every SPOOLED of them into staging, their names onto the
    report's cache entry (`put`), then let go. The cache keeps names, not bytes: an ingest that
    publishes the report again links its files from the generation in use (publish_report)."""

    SPOOLED = 1500  # some 500 runs' files: a few MB, and few enough pieces to cost nothing to write
    # Or this many bytes, whichever comes first: a capped raw file's pages are up to 1.5 MB each, and
    # a file of 100,000 runs has hundreds of them (pages/raw.py).
    SPOOLED_BYTES = 32 * 2**20

    def __init__(self, put: Callable[[str, dict[str, None]], None], staging: dict[str, str]) -> None:
        self.put, self.staging = put, staging
        self.pending: dict[str, dict[str, bytes | OnDisk]] = {}
        self.count = self.size = 0

    def add(self, tree: str, name: str, data: str | bytes | OnDisk) -> None:
        encoded = data.encode("utf-8") if isinstance(data, str) and not isinstance(data, OnDisk) else data
        self.pending.setdefault(tree, {})[name] = encoded
        self.count += 1
        self.size += len(encoded) if isinstance(encoded, bytes) else 0
        if self.count >= self.SPOOLED or self.size >= self.SPOOLED_BYTES:
            self.flush()

    def file(self, tree: str, name: str) -> str:
        """Where a file too large to hold is written in staging by the caller; named in the entry."""
        path = f"{self.staging[tree]}/{name}"
        os.makedirs(os.path.dirname(path), exist_ok=True)
        self.put(tree, {name: None})
        return path

    def flush(self) -> None:
        for tree, files in self.pending.items():
            write_files(self.staging[tree], files)
            self.put(tree, dict.fromkeys(files))
        self.pending, self.count, self.size = {}, 0, 0

    def __enter__(self) -> _Spool:
        return self

    def __exit__(self, kind: object, *_: object) -> None:
        if kind is None:
            for tree in publish.FOLDERS:  # every tree in the entry, as publish_report reads them, if only empty
                self.pending.setdefault(tree, {})
            self.flush()


def _raw_views(
    root: Path, job: ReportJob, runs: list[Run], entries: list[dict[str, Any]], add: Callable[[str, str], None]
) -> dict[str, dict[str, int]]:
    """The capped views of the report's large raw files (pages/raw.py), each page a data/ document handed to
    `add` as it is made; each such file's entry in `raw_files` names its view (and the line span of each page
    after the first), and a redacted file's the sha256 of what is published. Returns, per run whose page
    links to lines past a view's first page, those lines' pages ({run id: {"line": page}})."""
    by_path = {raw_file.path: raw_file for raw_file in job.raw_files}
    checks = {run.id: tuple(check["line"] for check in run.checks if check.get("line")) for run in runs}
    run_pages: dict[str, dict[str, int]] = {}
    for number, entry in enumerate(entries):
        raw_file = by_path.get(entry["source"])
        if raw_file is None:
            continue
        published = _published_text(root, raw_file)
        if published is None:
            continue
        if entry.get("redacted"):  # the download is the redacted text: its own sha256 is the one to check
            entry["published_sha256"] = sha256_file(published)
        cited = [raw_view.Cited(run["line_start"], run["line_end"], checks.get(run["id"], ())) for run in entry["runs"]]
        view = raw_view.view(os.fspath(published), cited)
        if view is None:
            continue
        name = f"raw-views/{job.slug}/{number}"
        entry["view"] = name
        if view.spans:
            entry["pages"] = view.spans
        for page, document in view.documents():
            add(datafile.name(name if page == 1 else f"{name}-{page}"), datafile.dump(document))
        for run, pages in zip(entry["runs"], view.run_pages(), strict=True):
            if pages:
                run_pages[run["id"]] = pages
    return run_pages


def extract_files(root: Path, raw_files: list[RawFile]) -> None:
    """extract_file for each of a few raw files: one task of the pool for all of them."""
    for raw_file in raw_files:
        extract_file(root, raw_file)


# The most raw files one task extracts. Each task costs the pool's queues and threads ~0.4 M
# instructions in the parent alone (callgrind, 2,000-run wiki, -j 2: 812 files, 337 M), and
# eight files are still a small part of a report's time, which keeps the workers even.
BATCH = 8


def _batches(raw_files: list[RawFile], workers: int) -> list[list[RawFile]]:
    """The raw files in tasks of up to BATCH, at least four a worker when there are that many files."""
    size = max(1, min(BATCH, len(raw_files) // (4 * workers)))
    return [raw_files[start : start + size] for start in range(0, len(raw_files), size)]


def _labels(item: list[RawFile] | ReportJob) -> list[str]:
    """What the progress bar names for a finished task: one step per raw file or report."""
    return [raw_file.path for raw_file in item] if isinstance(item, list) else [item.slug]


def _in_parallel(
    work: Callable[[Path, Any], Any], items: list[Any], root: Path, pool: Executor | None, done: Callable[[str], None]
) -> Iterator[Any]:
    """work(root, item) for every item, on the pool's processes; yields the results as they finish."""
    if pool is None or len(items) <= 1:
        for item in items:
            yield work(root, item)
            for label in _labels(item):
                done(label)
        return
    from concurrent.futures import as_completed

    futures = {pool.submit(work, root, item): item for item in items}
    try:
        for future in as_completed(futures):
            yield future.result()
            for label in _labels(futures[future]):
                done(label)
    except BaseException:  # a failure or Ctrl-C: start nothing more
        for future in futures:
            future.cancel()
        raise


@contextlib.contextmanager
def _pool(workers: int, busy: bool) -> Iterator[Executor | None]:
    """The worker processes of one ingest (None: work in this one), for extraction and then the reports.

    One pool for both: each worker starts once and imports the tools once. A pool per phase
    started twice as many processes, each importing every tool and compiling its patterns.
    """
    if workers <= 1 or not busy:
        yield None
        return
    # Imported here: an ingest with nothing new starts no process (they are 15 ms of its start-up).
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    tools.load_all()  # before the fork: the workers inherit the tools instead of each importing them
    # fork: workers start with every module already imported, and nothing to re-read.
    fork = multiprocessing.get_context("fork")
    with ProcessPoolExecutor(max_workers=workers, mp_context=fork, initializer=_worker_start) as pool:
        yield pool


# A raw file this large (or a report with one) is extracted or built in a process of its own, which
# gives all its memory back when it ends: in the ingest's own process, what a 200 MB file's
# extraction and its report's build had freed stayed resident (the allocator keeps what it got),
# and the site's index was made on top of it.
_OWN_PROCESS_BYTES = 32 << 20


def _large(root: Path, raw_files: list[RawFile]) -> bool:
    sizes = (os.stat(os.path.join(root, raw_file.path)).st_size for raw_file in raw_files)
    return any(size > _OWN_PROCESS_BYTES for size in sizes)


def _worker_start() -> None:
    collector.worker_start()
    die_with_parent()


def _in_own_process(work: Callable[[Path, Any], Any], root: Path, item: Any) -> Any:
    """work(root, item) in a process forked for it alone, its result returned (and its error raised) here."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    fork = multiprocessing.get_context("fork")
    with ProcessPoolExecutor(max_workers=1, mp_context=fork, initializer=_worker_start) as one:
        return one.submit(work, root, item).result()


def all_cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        return os.cpu_count() or 1


def ingest(
    root: Path,
    workers: int | None = None,
    out: TextIO | None = sys.stderr,
    part: tuple[int, int] | None = None,
    parts: list[Path] | None = None,
) -> IngestResult:
    """Bring data/ up to date with content/: every report, its runs and every problem.

    `part` (K, N) builds and publishes only the K-th of N parts of the reports; `parts` are the
    sites of such parts, whose reports are taken from them rather than built (parts.py).

    Two ingests of one site (`make serve` and a CI job, say) take turns: they share the
    staging folders and the cache.
    """
    joined = parts_module.Parts(parts) if parts else None  # a folder that is no site: said before anything is locked
    lock_path = root / cache.DIR / "lock"
    lock_path.parent.mkdir(parents=True, exist_ok=True)
    with lock_path.open("a+") as lock:
        _take_turn(lock, out or sys.stderr)
        return _ingest(root, workers or all_cores(), out, part, joined)


def _take_turn(lock: TextIO, out: TextIO) -> None:
    """Hold the site's ingest lock, saying whose turn it is when another ingest has it.

    The holder's pid is in the file, so `make serve`'s watcher and an ingest started by hand
    never run at once, and the one that waits says why rather than hang in silence.
    """
    try:
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        lock.seek(0)
        holder = lock.read().strip() or "?"
        print(f"another ingest is running (pid {holder}); waiting for it to finish", file=out, flush=True)
        fcntl.flock(lock, fcntl.LOCK_EX)
    lock.seek(0)
    lock.truncate()
    lock.write(str(os.getpid()))
    lock.flush()


def _ingest(
    root: Path, workers: int, out: TextIO | None, part: tuple[int, int] | None, joined: parts_module.Parts | None
) -> IngestResult:
    publish.recover(root)  # what a killed ingest left: under the lock, no other ingest is writing
    publish.crash_point("started")
    generation: list[str] = []  # the one this ingest builds, until it is committed
    try:
        # The plan, the reports built here and the site index are large trees of plain objects, all
        # kept: the collector found nothing in them (collector.py). Workers turn it on again.
        with collector.paused():
            tries = _TRIES
            while True:
                try:
                    return _build(root, workers, out, generation, part, joined)
                except DamagedShares as damaged:
                    if not tries:
                        raise
                    tries -= 1
                    # Found while making the index, before anything was published: their reports are
                    # forgotten by the cache, and the ingest runs again and builds them.
                    if generation:
                        publish.abandon(root, generation.pop())
                    store = Cache(root)
                    for key in damaged.keys:
                        store.path("reports", key, ".pickle").unlink(missing_ok=True)
    except BaseException as exc:
        committed = bool(generation) and publish.current(root) == generation[0]
        if generation and not committed:
            publish.abandon(root, generation[0])
        if isinstance(exc, OSError) and not committed and (generation or exc.errno in _FULL):
            raise publish.publishing_error(exc) from exc
        raise


def _build(
    root: Path,
    workers: int,
    out: TextIO | None,
    generation: list[str],
    part: tuple[int, int] | None = None,
    joined: parts_module.Parts | None = None,
) -> IngestResult:
    jobs, problems = plan(root)
    if part is not None:
        jobs = parts_module.split(root, jobs, part)
    held_back = validation.held_back(problems)  # data/held_back.json: citations of their runs say so
    store = Cache(root)
    result = IngestResult(problems=problems)
    outcomes: dict[str, ReportOutcome] = {}
    to_build: list[ReportJob] = []
    adopted: dict[str, dict[str, str]] = {}  # a part's generation folders, by the slug of a report it published
    for job in jobs:
        if joined is not None and not store.path("reports", job.key, ".pickle").is_file():
            folders = joined.adopt(store, job)
            if folders is not None:
                adopted[job.slug] = folders
        cached = store.load("reports", job.key)
        # Named first: entries still in use are kept by prune().
        kept = [store.path(kind, job.key, ".pickle") for kind in (*SHARE_KINDS, "files")]
        if cached is not None and all(path.is_file() for path in kept):
            outcomes[job.slug] = cached
        else:
            to_build.append(job)
    current = {raw_file.key: raw_file for job in jobs for raw_file in job.raw_files}
    store.keep("extract", current)  # still in use
    # Their redacted texts, which workers publish (or AS_IT_IS: nothing to hide).
    store.keep("published", [name for name, raw_file in current.items() if raw_file.redactor.active])
    wanted = {raw_file.key: raw_file for job in to_build for raw_file in job.raw_files}
    to_extract = [
        raw_file
        for name, raw_file in sorted(wanted.items(), key=lambda item: item[1].path)
        if not store.path("extract", name, ".pickle").is_file()
    ]
    # What data/ and the published files are made of. The same as last time, they are left as they
    # are: a warm ingest of 10,000 runs would otherwise write 30,000 files to say what is there.
    output = cache.key(
        "output",
        *(job.key for job in jobs),
        datafile.dump(held_back),
        scenario_renames.table_text(root) or "",  # added to the index's files after the cache (below)
    )  # the raw files' keys, and so their paths and where they are published, are in the reports' keys
    # The generation in use, and the output and reports (their keys) it was made of.
    in_use = publish.current(root)
    last = publish.manifest(root, in_use)
    previous = publish.folders(root, in_use) if in_use else {}
    whole = bool(previous) and all(path.is_dir() for path in previous.values())
    publishing = bool(to_build) or not (last.get("output") == output and whole)
    older = publish.manifest(root, last.get("replaces")) if last.get("replaces") != in_use else {}
    # The names of the files of the two generations kept: the next ingest takes the older over (_recycled).
    for key in [*last.get("reports", []), *older.get("reports", [])]:
        store.mark("files", key, ".pickle")
    staging = None
    building = {job.slug for job in to_build}
    taken_over = Recycled({}, set(), {})  # what the generation being built holds already
    if publishing:
        # Named by what it publishes: the same content/ gives the same generation, byte for byte.
        name = output[:16] if output[:16] != in_use else f"{output[:16]}-again"
        generation.append(name)
        recycled = None if part or joined else _recycled(root, store, last.get("replaces"), older, jobs, building, name)
        taken_over = recycled or Recycled(publish.begin(root, name), set(), {})
        staging = taken_over.staging
        still_published = set(last.get("reports", [])) if whole else set()
        for job in jobs:
            job.staging = staging
            if job.key in still_published:
                job.previous = {tree: os.fspath(path) for tree, path in previous.items()}
            elif job.slug in adopted:
                job.previous = adopted[job.slug]
    elif not publish.linked(root):  # published before generations, or a link removed by hand
        publish.link_published(root)
    to_publish = [job for job in jobs if job.slug not in building and job.key not in taken_over.reports]
    to_publish = to_publish if publishing else []
    done = progress.bar(len(to_extract) + len(to_build), out)
    # A large raw file, and a report with one, are worked on in a process of their own first.
    large_files = [raw_file for raw_file in to_extract if _large(root, [raw_file])]
    large_reports = [job for job in to_build if _large(root, job.raw_files)]
    for raw_file in large_files:
        _in_own_process(extract_files, root, [raw_file])
        done(raw_file.path)
    for job in large_reports:
        outcome = _in_own_process(build_report, root, job)
        outcomes[outcome.slug] = outcome
        done(job.slug)
    to_extract = [raw_file for raw_file in to_extract if not any(raw_file is large for large in large_files)]
    to_build = [job for job in to_build if not any(job is large for large in large_reports)]
    # Publishing, the run finder's files are made on a worker beside the rest of the site index (_site_index).
    busy = len(to_extract) > 1 or len(to_build) > 1 or len(to_publish) > 1 or (publishing and len(jobs) > 1)
    with _pool(workers, busy) as pool:
        for _ in _in_parallel(extract_files, _batches(to_extract, workers), root, pool, done):
            pass
        for raw_file in current.values():
            raw_file.text = None  # extracted: the reports are built from the cache, not from text
        for outcome in _in_parallel(build_report, to_build, root, pool, done):
            outcomes[outcome.slug] = outcome
        # The reports built before: their files from the cache, on the workers too.
        for outcome in _in_parallel(publish_report, to_publish, root, pool, lambda _: None):
            if outcome is not None:  # its cached files were unreadable: built again
                outcomes[outcome.slug] = outcome
        result.reports = [outcomes[job.slug] for job in jobs]
        made_before = (last, previous) if whole else None
        index = _site_index(root, jobs, result.reports, held_back, made_before, staging, pool)
    result.extracted, result.built = len(to_extract) + len(large_files), len(to_build) + len(large_reports)
    result.adopted = len(adopted)
    for outcome in result.reports:
        result.problems.extend(outcome.problems)
    if part is None:  # a part's index has its reports' scenarios alone: the aliases of the rest look unknown
        result.problems.extend(index.problems)
    if staging is not None:
        # data/'s index files: their digests, and those the generation taken over holds already, as they are.
        digests = last.get("index_digests") if index.data is None else _digests(index.data)
        same = _keep_same(staging["data"], taken_over.index, digests or {})
        if index.data is None:
            for tree, names in index.names.items():
                kept = same if tree == "data" else set()
                link_files(staging[tree], [name for name in names if name not in kept], os.fspath(previous[tree]))
        else:  # the runs/ tree's were written as they were made
            write_files(staging["data"], {name: data for name, data in index.data.items() if name not in same})
        # A report held back keeps the ids its runs were last published under (renames.py): fixed, a
        # run that moved meanwhile is still found and keeps its old address.
        for slug in held_back:
            ledger = datafile.name(f"{run_renames.LEDGER}/{slug}")
            if (root / "data" / ledger).is_file():
                write_files(staging["data"], {ledger: (root / "data" / ledger).read_bytes()})
        made_from = {"output": output, "reports": [job.key for job in jobs], "index": index.made}
        made_from["held_back"] = sorted(held_back)  # their ledgers, which _recycled takes out
        if digests is not None:
            made_from["index_digests"] = digests
        publish.commit(root, generation[0], {**made_from, "index_files": index.names})
    store.prune()
    publish.crash_point("done")
    return result


@dataclass
class Recycled:
    """The generation taken over (_recycled): its folders, the keys of the reports it holds already, and
    {name: digest} of data/'s site index files it still holds, which stay where the new index's are the same."""

    staging: dict[str, str]
    reports: set[str]
    index: dict[str, str]


def _recycled(
    root: Path, store: Cache, before: str | None, old: dict, jobs: list[ReportJob], building: set[str], name: str
) -> Recycled | None:
    """The generation the one in use replaced (`before`, its manifest `old`), taken over as generation
    `name` (publish.recycle), with what differs taken out. None when there is none to take over, or
    one whose reports' files the cache cannot name.

    What it holds of a report is a function of the report's key, as what publish_report links is: a
    report of the same key is left as it is, every other one's files are taken out (their names from
    the cache, and the report's copies of its raw files, under <slug>/raw/), as are its site index's
    files and the ledgers of the reports it held back. What is put in is what a new generation would
    get, and files go into a generation with O_EXCL: a name left behind fails, never overwritten.
    """
    if not {"reports", "index_files", "held_back"} <= old.keys():
        return None  # none, or made by a perfwiki that did not say what it held back
    if not all(path.is_dir() for path in publish.folders(root, before).values()):
        return None
    there = {job.key for job in jobs if job.slug not in building} & set(old["reports"])
    removed = [store.load("files", key) for key in old["reports"] if key not in there]
    if None in removed:
        return None
    staging = publish.recycle(root, before, name)
    emptied: set[str] = set()
    for names in removed:
        for tree, entries in names.items():
            _take_out(staging[tree], entries, emptied)
        # Its own folder is the one its charts.json is in (build_report); its raw files are under it.
        for own in [entry.rpartition("/")[0] for entry in names.get("raw", ()) if entry.endswith("/charts.json")]:
            shutil.rmtree(f"{staging['raw']}/{own}/raw", ignore_errors=True)
            emptied.add(f"{staging['raw']}/{own}")
    # Its site index's files go, but data/'s whose digests it knows: those the new index has the same stay.
    index = old.get("index_digests") or {}
    for tree, entries in old["index_files"].items():
        _take_out(staging[tree], [entry for entry in entries if tree != "data" or entry not in index], emptied)
    ledgers = [datafile.name(f"{run_renames.LEDGER}/{slug}") for slug in old["held_back"]]
    _take_out(staging["data"], ledgers, emptied)
    _remove_empty(emptied, set(staging.values()))
    publish.crash_point("recycled")
    return Recycled(staging, there, index)


def _take_out(folder: str, names: Iterable[str], emptied: set[str]) -> None:
    for name in names:
        path = f"{folder}/{name}"
        try:
            os.unlink(path)
        except FileNotFoundError:
            continue
        emptied.add(os.path.dirname(path))


def _remove_empty(emptied: set[str], roots: set[str]) -> None:
    """Folders that taking files out left empty, and those above them it empties, up to a tree's
    folder: a new generation has no empty folder."""
    for emptied_folder in sorted(emptied, key=len, reverse=True):
        path = emptied_folder
        while path not in roots and path.startswith(tuple(roots)):
            try:
                os.rmdir(path)
            except OSError:  # not empty (or gone): what is above it is not either
                break
            path = os.path.dirname(path)


def _digests(files: dict[str, bytes]) -> dict[str, str]:
    return {name: sha256_hex(data) for name, data in files.items()}


def _keep_same(folder: str, held: dict[str, str], digests: dict[str, str]) -> set[str]:
    """The site index files of data/ a generation taken over holds (`held`, name: digest) that the new
    index has the same (`digests`): they stay. The rest of them go."""
    same = {name for name, digest in held.items() if digests.get(name) == digest}
    emptied: set[str] = set()
    _take_out(folder, [name for name in held if name not in same], emptied)
    _remove_empty(emptied, {folder})
    return same


# Per scenario its cells, near scenarios and a report's decisions to compare across a parameter (pages/index.py).
COMPARE = "compare.json"


@dataclass
class SiteIndex:
    """The site index an ingest publishes: data/'s scenario, tool and environment files (`data`, None
    when they are the generation in use's), the run finder's files and compare.json (runs/), and what
    the scenario aliases table says."""

    made: str  # the key of what it is made of
    names: dict[str, list[str]]  # its files' names, by tree
    data: dict[str, bytes] | None = None
    problems: list[Problem] = field(default_factory=list)


def _site_index(
    root: Path,
    jobs: list[ReportJob],
    reports: list[ReportOutcome],
    held_back: Any,
    made_before: tuple[dict, dict[str, Path]] | None,
    staging: dict[str, str] | None,
    pool: Executor | None,
) -> SiteIndex:
    """The site index, named by what it is made of: every report's share, what is held back, the
    scenario aliases table. Made of the same as the generation in use's (`made_before`: its manifest
    and folders), it is that one's, whose manifest names its files: they are linked from there rather
    than made, cached and written again (the cache keeps results, not their bytes).

    Made anew while publishing, the run finder's files are made and written into `staging` on a worker
    of the pool from every report's listings, while this process makes the rest from every share: at
    100,000 runs 2.2 s (the listings read 0.55, the finder's files made and written 1.6) beside 2.1 s
    (the shares read 0.75, data/'s files 0.65, compare.json 0.57), where they took 4.9 s one after the
    other from whole shares.
    """
    table = scenario_renames.table_text(root) or ""
    made = cache.key("index", *(outcome.share for outcome in reports), datafile.dump(held_back), table)
    if made_before is not None:
        last, previous = made_before
        names: dict[str, list[str]] = last.get("index_files") or {}
        if last.get("index") == made and _all_there(names, previous):
            published_index = (previous["data"] / scenario_renames.INDEX).read_bytes()
            return SiteIndex(made, names, problems=scenario_renames.table_problems(root, published_index))
    keys = [job.key for job in jobs]
    finding = pool.submit(_run_finder, root, keys, staging["runs"]) if staging and pool else None
    store = Cache(root)
    shares = [store.load("shares", key) for key in keys]  # the listings are the finder's (_run_finder)
    if None in shares:
        raise _with_listings(
            [key for key, share in zip(keys, shares, strict=True) if share is None], keys, finding, store
        )
    held = {datafile.name("held_back"): datafile.dump(held_back)}
    try:
        made_files = index_pages.index_files(shares, _overlays(store, jobs))
    except DamagedShares as series:
        raise _with_listings(series.keys, keys, finding, store) from None
    data = _utf8({**made_files, **held})
    # Each scenario's old keys (scenario_aliases.py): found against the last ingest's data/ as well as content/.
    data, problems = scenario_renames.keep_old_keys(root, data, staging is not None)
    runs: list[str] = []  # not publishing, the index was made for what keep_old_keys says alone
    if staging is not None:
        write_files(staging["runs"], _utf8({COMPARE: index_pages.compare_index(shares)}))
        del shares  # let go while the worker may still be making the finder, rather than after (0.2 s)
        if finding is not None:
            found = finding.result()
        else:  # no pool: made here, from the listings
            found = _write_run_finder(_listings(store, keys), staging["runs"])
        runs = sorted([COMPARE, *found])
    return SiteIndex(made, {"data": sorted(data), "runs": runs}, data, problems)


def _with_listings(damaged: list[str], keys: list[str], finding: Future | None, store: Cache) -> DamagedShares:
    """Damaged entries found by the site index, with the listings found damaged too (by the finder's
    worker, or read here without one): so that one more ingest builds them all."""
    try:
        if finding is not None:
            finding.result()
        else:
            _listings(store, keys)
    except DamagedShares as also:
        damaged = damaged + also.keys
    return DamagedShares(damaged)


def _overlays(store: Cache, jobs: list[ReportJob]) -> index_pages.Overlays:
    """A report's overlay series from the cache ("series"), by its slug. When one is not there, every
    report's is looked at, so that one DamagedShares names all those the cache cannot give back: found
    one a time, three damaged entries would outlast the ingest's tries."""
    keys = {job.slug: job.key for job in jobs}

    @functools.cache
    def overlays(report: str) -> dict[str, list[dict[str, Any]]]:
        series = store.load("series", keys[report])
        if series is None:
            raise DamagedShares([key for key in keys.values() if store.load("series", key) is None])
        return series

    return overlays


def _run_finder(root: Path, keys: list[str], folder: str) -> list[str]:
    """_write_run_finder on a worker, from the listings it reads itself (fewer bytes than sending them)."""
    store = Cache(root)
    # A large tree of plain objects, all kept (collector.py). It is the worker's last task, and a forked
    # worker ends by os._exit, which gives the memory back at once: the tree is left to that, where
    # letting go of it object by object took 0.3 s at 100,000 runs. Frozen, the collection that comes
    # with the collector back does not walk it either (its first young one took 1.4 s).
    with collector.paused():
        listings = _listings(store, keys)  # all the finder reads of a share
        names = _write_run_finder(listings, folder)
        _LEFT_TO_EXIT.append(listings)
        gc.freeze()
    return names


# How many times an ingest starts again for reports whose cache entries it found damaged (DamagedShares).
_TRIES = 2


class DamagedShares(Exception):
    """Reports whose share of the site index the cache could not give back (an entry cut short or
    changed by hand; entries are written whole): `keys`, to be built again."""

    def __init__(self, keys: list[str]) -> None:
        super().__init__(keys)
        self.keys = keys


def _listings(store: Cache, keys: list[str]) -> list[dict[str, Any]]:
    """These reports' listings from the cache, each there; else DamagedShares naming those that are not."""
    listings = [store.load("listings", key) for key in keys]
    damaged = [key for key, listing in zip(keys, listings, strict=True) if listing is None]
    if damaged:
        raise DamagedShares(damaged)
    return listings


# What a worker keeps until it exits (_run_finder).
_LEFT_TO_EXIT: list[Any] = []


# What of a share the "listings" entry holds (cache.SHARE_KINDS).
_LISTED = ("report", "title", "date", "environments")


def _save_share(store: Cache, key: str, share: dict[str, Any]) -> None:
    store.save("listings", key, {name: share[name] for name in _LISTED})
    scenarios = share["scenarios"]
    store.save("series", key, {name: scenario["series"] for name, scenario in scenarios.items()})
    # The series are read from their own entry, when a scenario page draws them (index_pages._merged_scenarios).
    rest = {name: {k: v for k, v in scenario.items() if k != "series"} for name, scenario in scenarios.items()}
    kept = {name: value for name, value in share.items() if name != "environments"}
    store.save("shares", key, {**kept, "scenarios": rest})


def _write_run_finder(shares: list[dict[str, Any]], folder: str) -> list[str]:
    """The run finder's files written into a generation's runs/ tree; their names."""
    files = finder.files(shares)
    write_files(folder, _utf8(files))
    return list(files)


def _utf8(files: dict[str, str]) -> dict[str, bytes]:
    return {name: text.encode("utf-8") for name, text in files.items()}


def _all_there(names: dict[str, list[str]], folders: dict[str, Path] | dict[str, str]) -> bool:
    """Whether every named file ({tree: names}) is in its tree's folder, to be linked from there."""
    return all(os.path.isfile(f"{folders[tree]}/{name}") for tree, entries in names.items() for name in entries)


def publish_report(root: Path, job: ReportJob) -> ReportOutcome | None:
    """Put a report built before into staging: its files linked from the generation in use, where the
    last ingest published them (the cache names them), and its raw files.

    Returns None, or the report's outcome when its files were not all there to link (a file removed
    by hand, a generation that did not publish it) and it was built again from its runs.
    """
    assert job.staging is not None
    names = Cache(root).load("files", job.key)
    previous = job.previous
    if names is None or previous is None or not _all_there(names, previous):
        return build_report(root, job)
    for tree, entries in names.items():
        link_files(job.staging[tree], list(entries), previous[tree])
    _publish_raw_files(root, job)
    return None


def _published_text(root: Path, raw_file: RawFile, store: Cache | None = None) -> Path | None:
    """What is published of a raw file: its redacted text when redaction hid something in it (the
    cache keeps that text), else the file under content/; None for a file that could not be decoded,
    and so not redacted, or is binary: it is not published at all."""
    original = root / raw_file.path
    if not raw_file.redactor.active:
        return None if refused(os.fspath(original)) else original
    store = store or Cache(root)
    redacted = store.path("published", raw_file.key, "")
    if redacted.is_file():
        return redacted
    return original if store.path("published", raw_file.key, AS_IT_IS).is_file() else None


def _publish_raw_files(root: Path, job: ReportJob) -> None:
    """Each raw file of the report at its place under site/static/reports/ (redacted, when the site
    asks for it); a file that could not be decoded, and so not redacted, is not published.

    A report published before under the same key (`job.previous`) has these very files there, its
    own copies: each is linked from there. Copied again, a wiki's every raw file was written anew
    for one changed report (41 MB at 20,000 runs)."""
    assert job.staging is not None
    store = Cache(root)
    made: set[str] = set()
    for raw_file in job.raw_files:
        relative = raw_file.published.removeprefix("reports/")
        target = f"{job.staging['raw']}/{relative}"
        folder = os.path.dirname(target)
        # Published there, it is to be published here: the same key decides alike.
        if job.previous is not None and _linked(f"{job.previous['raw']}/{relative}", target, made):
            continue
        found = _published_text(root, raw_file, store)
        if found is None:
            continue
        if folder not in made:
            os.makedirs(folder, exist_ok=True)
            made.add(folder)
        copy_file(os.fspath(found), target)


def _linked(source: str, target: str, made: set[str]) -> bool:
    """`target` a hard link to `source` (files.link_or_copy), its folder made first (once: `made`);
    False when `source` is not there (not published, or removed by hand)."""
    folder = os.path.dirname(target)
    if folder not in made:
        if not os.path.exists(source):
            return False  # no folder made for nothing
        os.makedirs(folder, exist_ok=True)
        made.add(folder)
    publish.crash_point("staged")
    try:
        link_or_copy(source, target)
    except FileNotFoundError:
        return False
    return True


def load_report(root: Path, report_slug: str) -> dict[str, Any]:
    """A report's document from data/, with its page's views (its charts' specs in place), its comparisons and its
    runs (in order) read back in.

    The runs are the published ones (each run page's index.json, runstore.py), every field of the
    run schema: data/ holds only what their pages show. The comparisons are those of
    the report's published JSON export (site/static/reports/<report>/index.json).
    """
    data = root / "data"
    document = datafile.load(data / datafile.name(f"reports/{report_slug}"))
    charts = root / PUBLISHED_RAW / report_slug / "charts.json"  # its charts' specs, published apart
    document["views"] = chartsvg.specs_back(
        datafile.load(data / datafile.name(f"views/{report_slug}")), datafile.load(charts) if charts.is_file() else {}
    )
    document["comparisons"] = datafile.load(root / PUBLISHED_RAW / report_slug / "index.json")["comparisons"]
    document["runs"] = runstore.runs(root, report_slug)
    return document


def stale(root: Path) -> tuple[list[str], list[str], list[str]]:
    """(changed, new, removed) raw files since the last ingest, judged by the sha256 data/ recorded."""
    recorded: dict[str, str] = {}
    reports = root / "data" / "reports"
    for path in sorted(reports.glob("*" + datafile.SUFFIX)) if reports.is_dir() else []:
        document = datafile.load(path)
        for raw_file in document["raw_files"] + document.get("logs", []):
            recorded[raw_file["source"]] = raw_file["sha256"]
    current = {content.relative(path, root): sha256_hex(path.read_bytes()) for path in content.raw_files(root)}
    changed = [path for path, digest in current.items() if path in recorded and recorded[path] != digest]
    new = [path for path in current if path not in recorded]
    removed = [path for path in recorded if path not in current]
    return changed, new, removed

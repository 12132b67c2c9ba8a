"""What a portable report is made of, read from data/ and the published run exports."""

from __future__ import annotations

import functools
import json
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .. import aliases, chartsvg, datafile, runstore
from ..content import FrontMatterError, read_front_matter
from ..ingest import PUBLISHED_RAW
from ..pages.index import report_date
from ..pages.layouts import expand_headline


class ExportError(Exception):
    """A report that cannot be exported; the message names the file (and line) to fix."""


def wiki_address(root: Path) -> str:
    """The wiki's address, for links back to it: hugo.toml's baseURL, ending with a slash."""
    config = tomllib.loads((root / "hugo.toml").read_text(encoding="utf-8"))
    return str(config.get("baseURL") or "/").rstrip("/") + "/"


def local_address(wiki: str) -> bool:
    """Whether links to `wiki` work only on this machine (hugo.toml's default http://localhost:1313/)."""
    from urllib.parse import urlparse

    host = urlparse(wiki).hostname or ""
    return host in ("localhost", "127.0.0.1", "::1") or host.endswith(".localhost")


@dataclass
class Source:
    """A report as the wiki shows it: front matter, narrative, views and runs."""

    root: Path
    slug: str
    wiki: str  # the wiki's address, ending with a slash
    path: Path  # content/reports/<slug>/index.md
    front: dict[str, Any]
    narrative: str
    narrative_line: int  # the line of index.md the narrative starts on
    document: dict[str, Any]  # data/reports/<slug>.json
    views: dict[str, Any]  # data/views/<slug>.json

    @classmethod
    def load(cls, root: Path, slug: str, wiki: str | None = None) -> Source:
        """The report `slug` names: its own, or the one that had that slug before (aliases.py)."""
        path = root / "content" / "reports" / slug / "index.md"
        if not path.is_file() and (now := aliases.current_slug(root, slug)):
            slug, path = now, root / "content" / "reports" / now / "index.md"
        if not path.is_file():
            known = sorted(p.parent.name for p in (root / "content" / "reports").glob("*/index.md"))
            raise ExportError(f"{path}: no such report; the reports are: {', '.join(known) or 'none'}")
        data = root / "data"
        document_path = data / datafile.name(f"reports/{slug}")
        if not document_path.is_file():
            raise ExportError(f"{document_path}: missing: run `perfwiki ingest` (or `make ingest`) first")
        try:
            front = read_front_matter(path)
        except FrontMatterError as error:  # `perfwiki check` says more
            raise ExportError(f"{path}:{error.line}: {error}") from None
        text = path.read_text(encoding="utf-8-sig")
        narrative, line = text, 1
        if text.startswith("---"):
            end = text.find("\n---", 3)
            if end >= 0:
                after = text.find("\n", end + 4)
                narrative = text[after + 1 :] if after >= 0 else ""
                line = text[: after + 1].count("\n") + 1 if after >= 0 else text.count("\n") + 1
        return cls(
            root=root,
            slug=slug,
            wiki=(wiki.rstrip("/") + "/") if wiki else wiki_address(root),
            path=path,
            front=front,
            narrative=narrative,
            narrative_line=line,
            document=datafile.load(document_path),
            views=_with_specs(datafile.load(data / datafile.name(f"views/{slug}")), root / PUBLISHED_RAW / slug),
        )

    @property
    def title(self) -> str:
        return str(self.front.get("title") or self.slug)

    @property
    def date(self) -> str | None:
        """The report's date as pages and history show it: "2026-11-24", or with its time in UTC."""
        return report_date(self.front.get("date"))

    @property
    def relative_path(self) -> str:
        return self.path.relative_to(self.root).as_posix()

    def url(self, path: str) -> str:
        """The wiki's address of one of its pages ("reports/x/"), for links back."""
        return self.wiki + path

    def run_url(self, run_id: str, report: str | None = None) -> str:
        """A run page's address on the wiki: a run of this report, or of `report`."""
        return self.url(f"runs/{report or self.slug}/{run_id}/")

    @functools.cached_property
    def runs(self) -> list[dict[str, Any]]:
        """Every run of the report in its order, as its published export has it (the run schema)."""
        return [datafile.loads(self.reader.exports(entry)[0]) for entry in self.reader.entries]

    @functools.cached_property
    def reader(self) -> runstore.Reader:
        return runstore.Reader(self.root, self.slug)

    @functools.cached_property
    def titles(self) -> dict[str, str]:
        return {entry["id"]: entry["title"] for entry in self.document["run_index"]}

    def run_id(self, cited: str) -> str | None:
        """The id now of the run this report knows as `cited`: its id, or one it had before (aliases.py)."""
        return aliases.resolve_run(self.document, cited)

    def since(self) -> list[dict[str, Any]]:
        """The changes from an earlier report's runs to this one's, per environment and scenario
        (pages/history.py, through each environment's document)."""
        found = []
        for environment in self.document["environments"]:
            path = self.root / "data" / datafile.name(f"environments/{environment}")
            entries = datafile.load(path).get("history", []) if path.is_file() else []
            for entry in entries:
                for change in entry["changes"]:
                    if change["to"] == self.slug:
                        found.append({"environment": environment, "description": entry["description"], **change})
        return found

    def raw_file(self, run_page: dict[str, Any]) -> dict[str, Any]:
        """The raw_files entry of the report a run's page document points to."""
        return self.document["raw_files"][int(run_page["raw"])]

    def raw_url(self, run_page: dict[str, Any]) -> str:
        """The wiki's page of the run's raw file, opened at its lines."""
        start, end = run_page["lines"]
        return self.url(f"{self.raw_file(run_page)['page']}/?lines={start}-{end}#L{start}")


@functools.cache
def _other(root: Path, slug: str, wiki: str) -> Source | None:
    try:
        return Source.load(root, slug, wiki)
    except ExportError:
        return None


def report(source: Source, slug: str) -> Source | None:
    """This report, or another of the same wiki (a narrative may cite it, by its slug or one it had), or None."""
    if slug == source.slug:
        return source
    other = _other(source.root, slug, source.wiki)
    return source if other is not None and other.slug == source.slug else other  # its own former slug


def run_page(source: Source, run_id: str) -> dict[str, Any]:
    """A run's page document (runstore.py): headline, command, lines, raw file."""
    return source.reader.page(source.reader.entry(run_id))


def headline(page: dict[str, Any]) -> list[dict[str, Any]]:
    return expand_headline(page["headline"]) if page.get("headline") else []


def exports_url(source: Source) -> str:
    return source.url(f"{PUBLISHED_RAW.name}/{source.slug}/index.json")


def _with_specs(views: dict[str, Any], published: Path) -> dict[str, Any]:
    """The report page's views with each chart's spec back in place: ingest publishes them apart, as
    charts.json beside the report's exports (chartsvg.specs_apart), and the export draws every chart."""
    path = published / "charts.json"
    return chartsvg.specs_back(views, json.loads(path.read_text(encoding="utf-8")) if path.is_file() else {})

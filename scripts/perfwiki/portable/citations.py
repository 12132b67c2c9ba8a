"""The narrative's citations ({{< run >}}, {{< command >}}, {{< comparison >}}) resolved the way the
wiki's shortcodes resolve them (layouts/_partials/cite-ref.html, cited-run.html), with the same
messages when one points nowhere: a portable report must not say something its page does not."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from .sanitize import SHORTCODES, shortcode_text
from .source import ExportError, Source, headline, report, run_page

SHORTCODE = re.compile(r"\{\{<\s*(?P<name>[\w/-]+)(?P<args>(?:\s+(?:\"[^\"]*\"|[^\s\">/]+))*)\s*/?>\}\}")
ARGUMENT = re.compile(r"\"([^\"]*)\"|([^\s\"]+)")
CITING = ("run", "command", "comparison")


@dataclass
class Citation:
    name: str  # run, command or comparison
    start: int  # offset in the narrative
    end: int
    report: Source
    id: str
    page: dict[str, Any]  # run and command: the run's page document; comparison: the block

    @property
    def title(self) -> str:
        return self.page["title"] if self.name == "comparison" else self.report.titles[self.id]

    @property
    def headline(self) -> list[dict[str, Any]]:
        return headline(self.page)


@dataclass
class Verbatim:
    """A shortcode the export does not draw (not a citation, `{{% %}}`, Hugo's `{{</* */>}}`): its text,
    shown as written, so a reader sees it rather than losing it or having it run."""

    start: int
    end: int
    text: str
    where: str  # file:line:column, for the warning
    escaped: bool  # Hugo's {{</* */>}}, which the wiki shows as text too


def _where(source: Source, start: int) -> str:
    before = source.narrative[:start]
    line = source.narrative_line + before.count("\n")
    return f"{source.relative_path}:{line}:{start - (before.rfind(chr(10)) + 1) + 1}"


def shown_as_text(source: Source) -> list[str]:
    """A warning for each shortcode the export shows as text that the wiki's build would stop at."""
    return [
        f"{found.where}: {found.text}: not a citation (run, command, comparison): shown as text here; "
        "the wiki's build stops at it"
        for found in citations(source)
        if isinstance(found, Verbatim) and not found.escaped
    ]


def citations(source: Source) -> Iterator[Citation | Verbatim]:
    """Every shortcode of the narrative in order; ExportError at the first citation that points nowhere."""
    for found in SHORTCODES.finditer(source.narrative):
        match = SHORTCODE.fullmatch(source.narrative, found.start(), found.end())
        escaped_or_markdown = found[2] or found[1] != "<"
        if escaped_or_markdown or match is None or match["name"] not in CITING:
            yield Verbatim(
                found.start(), found.end(), shortcode_text(found), _where(source, found.start()), bool(found[2])
            )
            continue
        name = match["name"]
        where = f"{_where(source, match.start())}: {{{{< {name} >}}}}"
        arguments = [quoted or bare for quoted, bare in ARGUMENT.findall(match["args"])]
        slug, cited = _reference(source, arguments)
        try:
            if name == "comparison":
                yield _comparison(source, match, slug, cited)
            else:
                yield _run(source, match, name, slug, cited)
        except ExportError as error:
            raise ExportError(f"{where}: {error}") from None


def _reference(source: Source, arguments: list[str]) -> tuple[str | None, str]:
    """(report slug or None, id): ID is of this report; REPORT ID and "REPORT/ID" name the report."""
    if len(arguments) > 1:
        return arguments[0], arguments[1]
    cited = arguments[0] if arguments else ""
    if "/" in cited:
        slug, _, cited = cited.rpartition("/")
        return slug, cited
    return source.slug, cited


def _run(source: Source, match: re.Match[str], name: str, slug: str | None, cited_id: str) -> Citation:
    if not cited_id:
        raise ExportError("the run to cite is missing: give its id (REPORT ID outside the report's page)")
    cited = report(source, slug) if slug else None
    if cited is None:
        raise ExportError(f'unknown run "{cited_id}" (there is no report "{slug}")')
    run_id = cited.run_id(cited_id)  # an id the run had before is the run, as on the wiki (cited-run.html)
    if run_id is None:
        hint = "a run's id is the last part of its page's address, /runs/REPORT/ID/"
        raise ExportError(f'unknown run "{cited_id}" in report "{slug}"; {hint}')
    page = run_page(cited, run_id)
    if name == "command" and not page.get("command"):
        why = "its numbers were typed by hand" if page.get("format") == "manual" else "its raw output does not show one"
        raise ExportError(f'run "{run_id}" has no command to show ({why})')
    return Citation(name, match.start(), match.end(), cited, run_id, page)


def _comparison(source: Source, match: re.Match[str], slug: str | None, block_id: str) -> Citation:
    if not block_id:
        raise ExportError("the comparison to cite is missing: give its id (REPORT ID outside the report's page)")
    cited = report(source, slug) if slug else None
    if cited is None:
        raise ExportError(f'unknown comparison "{block_id}": there is no report "{slug}"')
    compared = [block for block in cited.views.get("blocks", []) if block["kind"] == "comparison"]
    for block in compared:
        if block["id"] == block_id or block_id in block.get("aliases", []):
            return Citation("comparison", match.start(), match.end(), cited, block_id, block)
    known = ", ".join(block["id"] for block in compared)
    raise ExportError(f'unknown comparison "{block_id}" in report "{slug}" (its comparisons: {known})')

"""Portable reports: `perfwiki export REPORT --format html|md`.

One report, taken out of the wiki to attach to a ticket or a mail: `html` is a single
self-contained file (narrative, comparisons with their charts, every command, links back to
the wiki) that opens and draws offline; `md` is a summary to paste into a ticket or a pull
request (verdicts, tables, commands). Both read what `perfwiki ingest` wrote, never the raw
files, so they say the same as the report's page.
"""

from __future__ import annotations

from pathlib import Path

from .source import ExportError, Source

__all__ = ["ExportError", "export", "warnings"]


def export(root: Path, slug: str, form: str, wiki: str | None = None) -> str:
    """The report `slug` of the site at `root` as one document of `form` (html or md)."""
    source = Source.load(root, slug, wiki)
    if form == "md":
        from .summary import summary

        return summary(source)
    from .page import page

    return page(source)


def warnings(root: Path, slug: str, wiki: str | None = None) -> list[str]:
    """What the export of `slug` shows differently from the wiki: shortcodes it shows as text."""
    from .citations import shown_as_text

    return shown_as_text(Source.load(root, slug, wiki))

"""`perfwiki export REPORT --format html`: one self-contained HTML file.

The wiki's stylesheet, plotly.js and the wiki's own chart code are inlined, so the file opens and
draws its charts with no network and no wiki; every number and command links back to its page
on the wiki. The narrative is rendered with python-markdown and sanitised (sanitize.py), its
citations as the wiki shows them.
"""

from __future__ import annotations

import html
import json
import re
from pathlib import Path
from typing import Any
from urllib.parse import urljoin

import jinja2
import markdown
from markdown.extensions.tables import TableExtension

from ..units import quantity_text
from .citations import Citation, Verbatim, citations
from .sanitize import TOKEN, clean, visible
from .source import ExportError, Source, exports_url, headline, run_page
from .tables import table, verdict

ASSETS = Path("site") / "assets"
PLOTLY = ASSETS / "vendor" / "plotly.min.js"
TEMPLATE = Path(__file__).with_name("report.html.j2")
# An href or src that is not a fragment, an absolute address, or a data: or mailto: one.
_LINK = re.compile(r'\b(href|src)="(?!#|[a-zA-Z][a-zA-Z0-9+.-]*:)([^"]*)"')
# A markdown table's empty heading (its corner), as the wiki's render-table.html writes it: a plain cell.
_EMPTY_HEADING = re.compile(r"<th((?:\s[^>]*)?)>\s*</th>")
CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")


def _script(text: str) -> str:
    """Code or JSON to put inside a <script> element: "</" would close it early."""
    return text.replace("</", "<\\/")


def chart_code(root: Path) -> str:
    """The wiki's chart code (js/format.js and js/charts.js, ES modules) as one classic script.

    Hugo bundles them with esbuild for the wiki; a file opened from disk cannot import modules,
    and these two only import each other, so dropping their import and export words is enough.
    """
    parts = []
    for name in ("format.js", "charts.js"):
        code = (root / ASSETS / "js" / name).read_text(encoding="utf-8")
        code = re.sub(r"^import\s*\{[^}]*\}\s*from\s*\"\./[\w.]+\";\n", "", code, flags=re.M)
        if re.search(r"^\s*import\b", code, flags=re.M):
            raise ExportError(f"{ASSETS / 'js' / name}: imports a module the portable report cannot inline")
        parts.append(re.sub(r"^export (?=const|function|class|let)", "", code, flags=re.M))
    return "(() => {\n" + "\n".join(parts) + "\n})();\n"


def _plotly(root: Path) -> str:
    """plotly.js, to inline. HTML forbids raw control characters in a document, and plotly's dist
    bundles hold some inside string literals (image signatures such as PNG's; the core + bar bundle
    has none): each is written as its \\xNN escape, which is the same string to JavaScript."""
    path = root / PLOTLY
    if not path.is_file():
        raise ExportError(f"{path}: missing: run `make setup` to vendor plotly.js")
    code = path.read_text(encoding="utf-8")
    return _script(CONTROL.sub(lambda match: f"\\x{ord(match.group()):02x}", code))


class _Narrative:
    """The narrative as HTML, with each citation drawn where it stands."""

    def __init__(self, source: Source, render: jinja2.Environment) -> None:
        self.source, self.render = source, render
        self.cited: list[str] = []  # comparison ids shown in the text, by the first citation of each

    def html(self) -> str:
        text, shown = self.source.narrative, {}
        pieces, last = [], 0
        for number, citation in enumerate(citations(self.source)):
            # A token markdown leaves alone, swapped for the citation's HTML once rendered.
            token = f"{TOKEN}{number}X"
            shown[token] = (
                visible(citation.text) if isinstance(citation, Verbatim) else self._citation(citation, number)
            )
            pieces += [text[last : citation.start], token]
            last = citation.end
        pieces.append(text[last:])
        # A table's alignment as the align attribute: a style attribute is not on the allowlist.
        extensions = [TableExtension(use_align_attribute=True), "fenced_code"]
        rendered = clean(markdown.markdown("".join(pieces), extensions=extensions, output_format="html"))
        rendered = _EMPTY_HEADING.sub(r"<td\1></td>", rendered)
        # The author's links are relative to the report's page on the wiki ("../other-report/"):
        # from a file attached to a ticket they must say where that page is.
        page = self.source.url(f"reports/{self.source.slug}/")
        rendered = _LINK.sub(
            lambda match: f'{match[1]}="{html.escape(urljoin(page, html.unescape(match[2])))}"', rendered
        )
        for token, fragment in shown.items():
            # A block (command, comparison) alone in its paragraph replaces the paragraph.
            rendered = rendered.replace(f"<p>{token}</p>", fragment).replace(token, fragment)
        return rendered

    def _citation(self, citation: Citation, number: int) -> str:
        if citation.name == "comparison":
            key = f"{citation.report.slug}/{citation.id}"
            if key in self.cited:
                link = f'<a href="#cmp-{html.escape(citation.id)}">{html.escape(citation.title)}</a>'
                return f'<p class="cite-again">{link}, above.</p>'
            self.cited.append(key)
            return self.render.get_template("block").render(
                block=block_view(citation.report, citation.page), from_report=citation.report is not self.source
            )
        template = "cited-run" if citation.name == "run" else "cited-command"
        return self.render.get_template(template).render(
            run=run_view(citation.report, citation.id, citation.page), number=number
        )


def run_view(source: Source, run_id: str, page: dict[str, Any]) -> dict[str, Any]:
    """What the templates show of one run."""
    view = {
        "id": run_id,
        "title": source.titles[run_id],
        "url": source.run_url(run_id),
        "headline": [{"label": entry["label"], "value": entry["value"]} for entry in headline(page)],
        "manual": page.get("format") == "manual",
        "command": page.get("command"),
    }
    if page.get("lines") and "raw" in page:
        start, end = page["lines"]
        view.update(
            raw=source.raw_file(page)["source"].rsplit("/", 1)[-1], lines=f"{start}–{end}", raw_url=source.raw_url(page)
        )
    return view


def block_view(source: Source, block: dict[str, Any]) -> dict[str, Any]:
    """A comparison or profile block: verdict, panels (their compact series) and table."""
    return {
        "id": block["id"],
        "title": block["title"],
        "verdict": verdict(block),
        "how": (
            f"{(block.get('direction') or '').capitalize()}. Baseline: {block['baseline']} (grey bar, dotted line)."
            if block["kind"] == "comparison"
            else f"One environment, {block['environment']}: its scenarios side by side, a panel per metric."
        ),
        "panels": [
            {
                "id": panel["id"],
                "title": panel["title"],
                "unit": quantity_text(panel["unit"]) if panel.get("unit") else "",
                "direction": panel.get("direction", ""),
                "series": _script(json.dumps(panel["plot"], ensure_ascii=False, sort_keys=True)),
            }
            for panel in block.get("panels", [])
        ],
        "table": table(block),
        "report": source,
        "report_url": source.url(f"reports/{source.slug}/#cmp-{block['id']}"),
    }


def _environment(source: Source, environment: str) -> dict[str, Any]:
    runs = []
    for run in source.runs:
        if run["environment"] == environment:
            runs.append(run_view(source, run["id"], run_page(source, run["id"])))
    return {"id": environment, "url": source.url(f"environments/{environment}/"), "runs": runs}


def page(source: Source) -> str:
    templates = jinja2.Environment(
        loader=jinja2.DictLoader(_templates()),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    narrative = _Narrative(source, templates)
    body = narrative.html()
    blocks = source.views.get("blocks", [])
    root = source.root
    return templates.get_template("report").render(
        source=source,
        front=source.front,
        summary=" ".join(str(source.front.get("summary") or "").split()),
        verdicts=[(block["id"], block["title"], verdict(block)) for block in blocks if verdict(block)],
        summary_table=source.views.get("summary"),
        since=source.since(),
        narrative=body,
        blocks=[block_view(source, block) for block in blocks],
        cited={key.split("/", 1)[1] for key in narrative.cited if key.startswith(f"{source.slug}/")},
        several=len(source.document["environments"]) > 1,
        environments=[_environment(source, environment) for environment in source.document["environments"]],
        report_url=source.url(f"reports/{source.slug}/"),
        exports_url=exports_url(source),
        generator=source.document.get("generator", "perfwiki"),
        stylesheet=_script((root / ASSETS / "css" / "main.css").read_text(encoding="utf-8")),
        plotly=_plotly(root),
        charts=_script(chart_code(root)),
        copy=_script((root / ASSETS / "js" / "copy.js").read_text(encoding="utf-8")),
    )


def _templates() -> dict[str, str]:
    """The file's templates, each between `{# name #}` lines of report.html.j2."""
    parts = re.split(r"^\{# template (\S+) #\}\n", TEMPLATE.read_text(encoding="utf-8"), flags=re.M)
    return dict(zip(parts[1::2], parts[2::2], strict=True))

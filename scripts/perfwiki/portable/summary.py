"""`perfwiki export REPORT --format md`: a report's verdicts, tables and commands as markdown, to
paste into a ticket or a pull request. Every value links to its run page on the wiki. It carries no
raw HTML and no script address, whoever wrote the text (sanitize.markdown_text)."""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import urljoin

from ..units import quantity_text
from .citations import Verbatim, citations
from .sanitize import markdown_text, safe_links
from .source import Source, run_page
from .tables import Cell, table, verdict


def _escaped(text: str) -> str:
    """Text for a markdown table cell or link: pipes and brackets would end them."""
    return text.replace("\\", "\\\\").replace("|", "\\|").replace("[", "\\[").replace("]", "\\]")


def _fenced(code: str, language: str = "sh") -> list[str]:
    fence = "```"
    while fence in code:
        fence += "`"
    return [f"{fence}{language}", code, fence]


def _cell(source: Source, cell: Cell) -> str:
    if cell.value is None:
        return "n/a"
    text = f"[{_escaped(cell.value)}]({source.run_url(cell.run)})" if cell.run else cell.value
    return (
        text
        + (f" ({cell.relative})" if cell.relative else "")
        + (" *manual*" if cell.manual else "")
        + (f" (not a speed result: {cell.artefact})" if cell.artefact else "")
    )


def _summary_table(source: Source) -> list[str]:
    """The report's one row per environment (pages/summary.py) as a markdown table, when it has one."""
    summary = source.views.get("summary")
    if not summary:
        return []
    lines = [
        "| Environment | Against the baseline | Faster / slower / even | Left out |",
        "|---|---|---|---|",
    ]
    for group in summary["groups"]:
        lines.append(f"| **{_escaped(group['title'])}** (against {group['baseline']}; {group['metric']}) | | | |")
        for row in group["rows"]:
            said = "no like-for-like result"
            if row.get("mean"):
                plural = "s" if row["scenarios"] != 1 else ""
                said = f"{row['mean']} ({row['said']}) over {row['scenarios']} scenario{plural}"
            manual = " *manual*" if row.get("manual") else ""
            left = [f"{row['left_out']}" + (f" ({row['artefact']})" if row.get("artefact") else "")] * bool(
                row["left_out"]
            )
            if row.get("unlike"):
                left.append(f"{row['unlike']} another scenario than the baseline's ({row['unlike_reason']})")
            lines.append(
                f"| {row['environment']}{manual} | {said} | "
                f"{row['better']} / {row['worse']} / {row['even']} | {'; '.join(left) or 'none'} |"
            )
    return lines + [""]


def _block(source: Source, block: dict[str, Any]) -> list[str]:
    """The block's verdict and table. A table wider than it is long is turned on its side (a row per
    scenario, a column per environment), so it stays readable in a ticket's narrow column."""
    shown = table(block)
    lines = [f"### {block['title']}", ""]
    if said := verdict(block):
        lines += [said, ""]
    labels = []
    for row in shown.rows:
        label = f"[{_escaped(row.label)}]({source.url(row.link)})" if row.link else _escaped(row.label)
        labels.append(label + (" (baseline)" if row.baseline else ""))
    grid = [[_cell(source, cell) for cell in row.cells] for row in shown.rows]
    header, body = (
        [_escaped(shown.corner), *map(_escaped, shown.columns)],
        [[label, *cells] for label, cells in zip(labels, grid, strict=True)],
    )
    if len(shown.columns) > len(shown.rows):
        header = ["", *labels]
        body = [[_escaped(column), *(cells[index] for cells in grid)] for index, column in enumerate(shown.columns)]
    lines.append("| " + " | ".join(header) + " |")
    lines.append("|---|" + "---:|" * (len(header) - 1))
    lines += ["| " + " | ".join(row) + " |" for row in body]
    return [*lines, ""]


# A markdown link the author wrote relative to the report's page: "[x](../other-report/)".
_RELATIVE_LINK = re.compile(r"\]\((?!#|[a-zA-Z][a-zA-Z0-9+.-]*:)([^)\s]+)\)")


def _narrative(source: Source) -> str:
    """The report's own text, its citations as markdown and its links to the wiki made absolute."""
    text, pieces, last = source.narrative, [], 0
    for cited in citations(source):
        pieces.append(text[last : cited.start])
        last = cited.end
        if isinstance(cited, Verbatim):  # a shortcode the export does not draw: shown as written
            ticks = "`"
            while ticks in cited.text:
                ticks += "`"
            pieces.append(f"{ticks} {' '.join(cited.text.splitlines())} {ticks}")
            continue
        run_url = cited.report.run_url(cited.id)
        if cited.name == "run":
            numbers = " · ".join(f"{entry['label']} {quantity_text(entry['value'])}" for entry in cited.headline)
            pieces.append(f"[{_escaped(cited.title)}]({run_url})" + (f" ({numbers})" if numbers else ""))
        elif cited.name == "command":
            pieces.append("\n".join([*_fenced(cited.page["command"]), "", f"([{_escaped(cited.title)}]({run_url}))"]))
        elif cited.report is source:
            pieces.append(f"*{cited.title}* (its table is below)")
        else:
            pieces.append(
                f"[{_escaped(cited.title)}]({cited.report.url(f'reports/{cited.report.slug}/#cmp-{cited.id}')})"
            )
    pieces.append(text[last:])
    page = source.url(f"reports/{source.slug}/")
    # Script addresses go first: "javascript&#58;…" has no ":" to tell it from a relative link.
    text = safe_links("".join(pieces))
    return _RELATIVE_LINK.sub(lambda match: f"]({urljoin(page, match[1])})", text).strip()


def _commands(source: Source) -> list[str]:
    lines = ["## Commands", ""]
    by_environment: dict[str, list[dict[str, Any]]] = {}
    for run in source.runs:
        by_environment.setdefault(run["environment"], []).append(run)
    for environment in source.document["environments"]:
        runs = by_environment.get(environment, [])
        if not runs:
            continue
        lines += [f"### {environment}", ""]
        for run in runs:
            run_id = run["id"]
            link = f"[{_escaped(source.titles[run_id])}]({source.run_url(run_id)})"
            if not run.get("command"):
                why = (
                    "typed by hand, no raw output"
                    if run.get("format") == "manual"
                    else "the raw output shows no command"
                )
                lines += [f"- {link}: {why}", ""]
                continue
            page = run_page(source, run_id)
            start, end = page["lines"]
            raw = source.raw_file(page)["source"].rsplit("/", 1)[-1]
            lines += [f"- {link} ([{_escaped(raw)}, lines {start}–{end}]({source.raw_url(page)})):", ""]
            lines += ["  " + line if line else line for line in _fenced(run["command"])] + [""]
    return lines


def summary(source: Source) -> str:
    front = source.front
    head = [source.date] if source.date else []
    if len(source.document["environments"]) > 1 and source.document.get("baseline"):
        head.append(f"baseline: {source.document['baseline']}")
    head.append(f"[on the wiki]({source.url(f'reports/{source.slug}/')})")
    lines = [f"# {source.title}", "", " · ".join(head), ""]
    if front.get("summary"):
        lines += [" ".join(str(front["summary"]).split()), ""]
    since = source.since()
    if since:
        lines += ["## Since earlier reports", ""]
        for change in since:
            flag = "within noise" if change["kind"] == "noise" else f"**{change['kind']}**"
            before = f"[{_escaped(change['from'])}]({source.run_url(change['from_runs'][0], change['from'])})"
            lines.append(
                f"- {flag}, {change['environment']}, {change['description']}: from {before} ({change['from_date']}):"
            )
            lines += [f"  {change['text']} ({change['noise']})", ""]
    blocks = source.views.get("blocks", [])
    verdicts = [(block, verdict(block)) for block in blocks if verdict(block)]
    if verdicts:
        lines += (
            ["## At a glance", ""]
            + _summary_table(source)
            + [f"- **{block['title']}**: {said}" for block, said in verdicts]
            + [""]
        )
    narrative = _narrative(source)
    if narrative:
        lines += ["## Notes", "", narrative, ""]
    if blocks:
        lines += ["## " + ("Comparisons" if len(source.document["environments"]) > 1 else "Results"), ""]
        for block in blocks:
            lines += _block(source, block)
    lines += _commands(source)
    lines.append(f"Exported by {source.document.get('generator', 'perfwiki')} from {source.relative_path}.")
    return markdown_text("\n".join(lines).rstrip("\n") + "\n")

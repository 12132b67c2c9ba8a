"""Exports: every CSV the site offers, made here and only here (templates print them as they are)."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Iterator
from typing import Any

from . import datafile
from .model import Run


def _csv(header: list[str], rows: list[list[Any]]) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(header)
    writer.writerows(rows)
    return out.getvalue()


# What makes csv.writer quote a field here: QUOTE_MINIMAL quotes the delimiter, the quote character
# and the characters of the line terminator ("\n"; a lone "\r" is written as it is). Tested with `in`
# three times rather than a set or a function: a run's CSV has a hundred fields or more.


def _quoted(text: str) -> str:
    return '"' + text.replace('"', '""') + '"'


def _lines(prefix: str, value: dict[Any, Any] | list[Any], out: list[str]) -> None:
    """`path,value` lines of every leaf under `value`, as run_csv publishes them."""
    if type(value) is dict:
        pairs = [(f"{prefix}.{key}", item) for key, item in value.items()]
    else:
        pairs = [(f"{prefix}[{index}]", item) for index, item in enumerate(value)]
    for path, item in pairs:
        kind = type(item)
        if kind is dict or kind is list:
            _lines(path, item, out)
            continue
        if "," in path or '"' in path or "\n" in path:
            path = _quoted(path)
        if kind is int or kind is float:  # never quoted (bool is neither: it prints True/False)
            out.append(f"{path},{item!r}\n")
        elif item is None:
            out.append(path + ",\n")
        else:
            text = item if kind is str else str(item)
            if "," in text or '"' in text or "\n" in text:
                text = _quoted(text)
            out.append(f"{path},{text}\n")


def run_csv(run: Run) -> str:
    """Every parameter and metric of a run as `path,value` rows (metrics in canonical units).

    Published as a static file beside the run's page (runs/<report>/<id>/index.csv), not
    kept in data/: made by a template, it was 5 ms of Hugo per run. Written line by line:
    csv.writer over a flattened row list took 10-25 % longer per run, and a quoting function
    called per field twice as long as this (96 against 178 us a run, the runs of a 2,000-run
    synthetic wiki); tests hold it to csv.writer's bytes.
    """
    lines = ["field,value\n"]
    _lines("params", run.params, lines)
    _lines("metrics", run.metrics, lines)
    return "".join(lines)


def run_json(run: Run) -> str:
    """The run as the schema names it (the `run` of its data/ document), for the file beside its page.

    Published as a static file like run_csv: Hugo made it with jsonify, but an output format
    per run page costs Hugo memory at every run of the wiki. Compact, as data/ is: an indented
    dump goes through json's pure-Python encoder, a fifth of a cold ingest's time.
    """
    return datafile.dump(run.to_dict())


# A report's exports are published as files at reports/<slug>/index.{json,csv}; their addresses
# are relative to that place, so they hold wherever the site is served (a sub-path, a preview)
# and resolve against the address the file was fetched from (urllib.parse.urljoin).
REPORT_PAGE = "./"


def run_url(report: str, run_id: str) -> str:
    """A run page's address, relative to its report's exports (reports/<slug>/index.csv)."""
    return f"../../runs/{report}/{run_id}/"


def report_json(
    slug: str,
    title: str,
    baseline: str | None,
    environments: list[str],
    comparisons: list[Any],
    run_texts: dict[str, str],
) -> str:
    """A report's JSON export: who it compares, every comparison, and every run with its page's address.

    Published as a static file beside the report's page (reports/<slug>/index.json), like a run's:
    as a Hugo output format it read 200 runs' index.json per report, 7 % of the template time of a
    10,000-run build (--templateMetrics).
    `run_texts` is each run's run_json by id, in the report's order: spliced in as they are,
    since encoding every run a second time was 4 % of a cold ingest.
    """
    return "".join(report_json_pieces(slug, title, baseline, environments, comparisons, run_texts.items()))


def report_json_pieces(
    slug: str,
    title: str,
    baseline: str | None,
    environments: list[str],
    comparisons: list[Any],
    run_texts: Iterable[tuple[str, str]],
) -> Iterator[str]:
    """report_json's text in pieces, a run's at a time as `run_texts` gives them: ingest makes each
    run's JSON once, for its own file and for this, without holding every run's text at once."""
    head = {"report": slug, "title": title, "url": REPORT_PAGE, "baseline": baseline, "environments": environments}
    yield datafile.dump(head).strip()[:-1] + ',\n  "comparisons": ' + datafile.dump(comparisons).strip()
    yield ',\n  "runs": [\n    '
    for number, (run_id, text) in enumerate(run_texts):
        yield (
            (",\n    " if number else "")
            + '{"url":'
            + datafile.dump(run_url(slug, run_id)).strip()
            + ","
            + text.strip()[1:]
        )
    yield "\n  ]\n}\n"


def comparisons_csv(report: str, comparisons: list[dict[str, Any]]) -> str:
    """Every comparison cell as one CSV row, for spreadsheets: each row in its column's metric and unit.

    `value` is in the canonical unit the row names (B/s, ns, IOPS, bit/s); `run_url` is the
    run page of the cell's first run (the median of several is on the report page), relative
    to the CSV's own address (run_url).
    """
    rows = []
    for comparison in comparisons:
        for row in comparison["rows"]:
            for column, cell in zip(comparison["columns"], row["cells"], strict=True):
                if cell["value"] is None:
                    continue  # nothing measured: the report page says why
                rows.append(
                    [
                        comparison["title"],
                        column["metric"],
                        column["unit"],
                        "higher" if column["higher_is_better"] else "lower",
                        row["environment"],
                        column["title"],
                        column["scenario"],
                        cell["value"],
                        "" if cell["relative"] is None else cell["relative"],
                        cell["n"],
                        run_url(report, cell["runs"][0]) if cell.get("runs") else "",
                    ]
                )
    header = [
        "comparison",
        "metric",
        "unit",
        "better",
        "environment",
        "column",
        "scenario",
        "value",
        "relative",
        "n",
        "run_url",
    ]
    return _csv(header, rows)


def environment_runs_csv(entries: list[dict[str, Any]]) -> str:
    """Every run on one environment, across reports: report, run id, tool, label.

    The environment page's template writes this CSV from the environment's document (which
    need not hold a copy); tests/site/test_environment_csv.py holds the two to the same bytes.
    """
    return _csv(
        ["report", "run", "tool", "label"], [[e["report"], e["id"], e["tool"], e["label"] or ""] for e in entries]
    )

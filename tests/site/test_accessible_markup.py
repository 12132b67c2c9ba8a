"""What the built pages give readers who cannot see them, and readers who followed a dead link:
the 404 page, and table headings that say what they head."""

from __future__ import annotations

import json
from html.parser import HTMLParser
from pathlib import Path

import pytest

from support import nameless_header_cells

pytestmark = pytest.mark.site


class _Main(HTMLParser):
    """The links (text: href), headings and form controls inside <main>, and <main>'s attributes."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.main: dict[str, str | None] | None = None
        self.links: dict[str, str] = {}
        self.h1 = ""
        self.labels: dict[str, str] = {}  # for= -> text
        self.inputs: dict[str, dict[str, str | None]] = {}  # id -> attributes
        self.forms: list[dict[str, str | None]] = []
        self._in_main = False
        self._open: tuple[str, str] | None = None  # (what, key) collecting text
        self._text = ""

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        if tag == "main":
            self.main, self._in_main = attributes, True
        if not self._in_main:
            return
        if tag == "a":
            self._open, self._text = ("a", attributes.get("href") or ""), ""
        elif tag == "h1":
            self._open, self._text = ("h1", ""), ""
        elif tag == "label":
            self._open, self._text = ("label", attributes.get("for") or ""), ""
        elif tag == "input":
            self.inputs[attributes.get("id") or ""] = attributes
        elif tag == "form":
            self.forms.append(attributes)

    def handle_endtag(self, tag):
        if tag == "main":
            self._in_main = False
        if self._open and tag == self._open[0]:
            what, key = self._open
            text = " ".join(self._text.split())
            if what == "a":
                self.links[text] = key
            elif what == "h1":
                self.h1 = text
            else:
                self.labels[key] = text
            self._open = None

    def handle_data(self, data):
        if self._open:
            self._text += data


def test_the_404_page_says_the_page_is_not_there_and_leads_back(built_site):
    site = built_site / "bench"
    page = _Main()
    page.feed((site / "404.html").read_text(encoding="utf-8"))
    assert page.h1 == "Page not found"
    # In <main>, not the header: the page itself says where to go. Root-relative addresses, because
    # the web server shows this page at whatever missing address was asked for, however deep.
    wanted = {"Home": "/bench/", "Reports": "/bench/reports/", "Runs": "/bench/runs/", "Search": "/bench/search/"}
    assert {text: page.links.get(text) for text in wanted} == wanted
    for href in wanted.values():
        assert (site / href.removeprefix("/bench/") / "index.html").is_file(), href
    # A search for what the page showed, labelled, sent to the search page as ?q=.
    (form,) = page.forms
    assert (form["role"], form["action"]) == ("search", "/bench/search/")
    (field,) = page.inputs.values()
    assert field["name"] == "q" and page.labels[field["id"]] == "Search the wiki for what this page showed"
    # Not a page of the wiki: Pagefind leaves it out of the search (it indexes data-pagefind-body only).
    assert page.main is not None and "data-pagefind-body" not in page.main
    indexed = json.loads((site / "pagefind" / "pagefind-entry.json").read_text())["languages"]["en"]["page_count"]
    # Every page but this one is indexed; the redirects that keep old addresses working are no pages.
    pages = [path for path in site.rglob("*.html") if 'http-equiv="refresh"' not in path.read_text(encoding="utf-8")]
    assert indexed == len(pages) - 1


def nameless_headers_under(folder: Path) -> tuple[list[str], int, int]:
    """(each <th> without text as 'file line: where', pages read, <th> read) over every page."""
    found, pages, cells = [], 0, 0
    for path in sorted(folder.rglob("*.html")):
        nameless, count = nameless_header_cells(path.read_text(encoding="utf-8"))
        found += [f"{path.relative_to(folder)} {where}" for where in nameless]
        pages, cells = pages + 1, cells + count
    return found, pages, cells


def test_no_table_heading_on_any_page_is_without_text(built_site):
    found, pages, cells = nameless_headers_under(built_site / "bench")
    assert found == [], "\n".join(found)
    assert pages > 300 and cells > 4000  # every page was read, not none
    # The headings that used to be empty: a fio run's latency table, a markdown table's corner.
    run = (
        built_site / "bench/runs/build-vm-disk-quiet/build-vm-vda-fio-logs-20261124-234311-randread-logged/index.html"
    ).read_text()
    assert '<th scope="col">Latency</th><th scope="col">min</th>' in run
    report = (built_site / "bench/reports/ssd-cloud-disks-lvm-raid/index.html").read_text()
    assert "<td></td>\n          <th>ESSD AutoPL</th>" in report

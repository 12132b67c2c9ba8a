"""A report's text cannot run in its export: the OWASP-derived corpus (tests/fixtures/xss/vectors.txt)
through `perfwiki export` in both formats, each vector through the sanitiser on its own, and what the
narrative needs (tables, code, images, links) kept. The same corpus in Chromium: tests/browser/test_export_xss.py."""

from __future__ import annotations

import html
import re
import shutil
import subprocess
from html.parser import HTMLParser
from pathlib import Path

import markdown
import pytest
from markdown.extensions.tables import TableExtension

from perfwiki.portable import export
from perfwiki.portable.sanitize import clean, markdown_text
from support import FIXTURES, ROOT, copy_site_sources, hugo_binary, perfwiki_command

REPORT = "fio-iops-basics"
WIKI = "https://wiki.example/perf/"
# Attributes that hold an address a browser would follow or load.
ADDRESSES = {"href", "src", "action", "formaction", "background", "data", "dynsrc", "lowsrc", "xlink:href", "srcdoc"}
ACTIVE = {"script", "iframe", "object", "embed", "meta", "link", "style", "form", "svg", "math", "base", "frame"}


def vectors() -> list[str]:
    text = (FIXTURES / "xss" / "vectors.txt").read_text(encoding="utf-8")
    return [part.strip("\n") for part in re.split(r"^%%\n", text, flags=re.M)[1:]]


def shortcode_free(found: list[str]) -> list[str]:
    return [vector for vector in found if "{{" not in vector]


def corpus_site(target: Path, found: list[str]) -> Path:
    """A copy of the ingested example wiki whose report REPORT has every vector in its text."""
    target.mkdir(parents=True, exist_ok=True)
    site = copy_site_sources(target)
    shutil.copytree(ROOT / "data", site / "data")
    index = site / "content" / "reports" / REPORT / "index.md"
    text = index.read_text(encoding="utf-8")
    index.write_text(text + "\n" + "\n\n".join(found) + "\n", encoding="utf-8")
    return site


class _Elements(HTMLParser):
    """Every element (tag, attributes) as a browser's tokenizer reads it."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.elements: list[tuple[str, dict[str, str | None]]] = []

    def handle_starttag(self, tag, attrs):
        self.elements.append((tag, dict(attrs)))


def elements(page: str) -> list[tuple[str, dict[str, str | None]]]:
    parser = _Elements()
    parser.feed(page)
    parser.close()
    return parser.elements


def dangers(fragment: str) -> list[str]:
    """What in an HTML fragment could run: active elements, event attributes, script addresses."""
    found = []
    for tag, attributes in elements(fragment):
        if tag in ACTIVE:
            found.append(f"<{tag}>")
        for name, value in attributes.items():
            if name.startswith("on"):
                found.append(f"<{tag} {name}>")
            # As a browser reads an address (WHATWG URL): ends trimmed, tabs and newlines dropped.
            plain = re.sub(r"[\t\n\r]", "", html.unescape(value or "").strip("\x00\x20")).lower()
            plain = plain.strip("".join(map(chr, range(33))))
            if name in ADDRESSES and re.match(r"(javascript|vbscript|data):", plain):
                found.append(f"<{tag} {name}={value!r}>")
            if name == "style":
                found.append(f"<{tag} style>")
    return found


def narrative_of(page: str) -> str:
    """The narrative section of an HTML export: after the summary, before the comparisons."""
    start = page.index('<p class="summary">')
    return page[start : page.index('<section aria-labelledby="comparisons-heading">', start)]


@pytest.fixture(scope="module")
def corpus(tmp_path_factory, ingested) -> Path:
    return corpus_site(tmp_path_factory.mktemp("xss"), vectors())


def test_the_corpus_is_the_size_and_spread_the_issue_asks_for():
    found = vectors()
    assert len(found) >= 40
    for kind in ("<script", "onerror", "onload", "javascript:", "data:", "vbscript:", "srcdoc", "ontoggle"):
        assert any(kind.lower() in vector.lower() for vector in found), kind
    assert any(vector.startswith("{{%") for vector in found) and any("](javascript" in vector for vector in found)


@pytest.mark.parametrize("vector", vectors(), ids=lambda vector: vector[:40])
def test_each_vector_leaves_nothing_that_runs(vector):
    rendered = clean(markdown.markdown(vector, extensions=["tables", "fenced_code"], output_format="html"))
    assert dangers(rendered) == [], rendered
    summary = markdown.markdown(markdown_text(vector), extensions=["tables", "fenced_code"], output_format="html")
    assert dangers(summary) == [], summary


def test_the_html_export_of_the_corpus_has_no_event_attribute_and_no_script_address(corpus):
    page = export(corpus, REPORT, "html", WIKI)
    assert dangers(narrative_of(page)) == []
    # The whole file: its own scripts (plotly, charts, copy; the charts' JSON) and stylesheet, nothing more.
    scripts = [attributes for tag, attributes in elements(page) if tag == "script"]
    assert len([s for s in scripts if not s]) == 3 and all(s.get("type") == "application/json" for s in scripts if s)
    assert [tag for tag, _ in elements(page) if tag == "style"] == ["style"]
    assert not any(name.startswith("on") for _, attributes in elements(page) for name in attributes)
    assert (
        "alert(" not in re.sub(r"<script>.*?</script>", "", page, flags=re.S).replace("&#x27;", "'").split("<code")[0]
    )
    # The markdown links are links still, with no address; a code span shows its tag as written.
    assert "<a>markdown link</a>" in page and '<img alt="markdown image">' in page
    assert "<code>&lt;script&gt;alert('in a code span')&lt;/script&gt;</code>" in page


def test_an_unknown_shortcode_shows_as_text_in_both_formats(corpus):
    page = export(corpus, REPORT, "html", WIKI)
    assert '<code class="shortcode">{{&lt; foo &gt;}}</code>' in page
    assert '<code class="shortcode">{{% foo %}}</code>' in page
    assert '<code class="shortcode">{{&lt; /script &gt;}}</code>' in page
    assert '<code class="shortcode">{{&lt; run x &gt;}}</code>' in page  # Hugo's escaped form, shown as Hugo shows it
    argument = "{{&lt; foo &quot;&lt;img src=x onerror=alert(&#x27;shortcode argument&#x27;)&gt;&quot; &gt;}}"
    assert f'<code class="shortcode">{argument}</code>' in page
    # The citations around them still resolve and draw.
    assert page.count('<span class="cite-run">') == 1 and '<figure class="cite-command">' in page
    # Said on the command line too, at its line: the wiki's build would stop there.
    done = subprocess.run(
        perfwiki_command() + ["export", REPORT, "--root", str(corpus), "--wiki", WIKI, "-o", "-"],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0 and done.stdout == page
    index = corpus / "content" / "reports" / REPORT / "index.md"
    line = index.read_text(encoding="utf-8").split("\n").index("{{< foo >}}") + 1
    warned = [said for said in done.stderr.splitlines() if "warning" in said]
    assert warned[0] == (
        f"perfwiki export: warning: content/reports/{REPORT}/index.md:{line}:1: {{{{< foo >}}}}: not a citation"
        " (run, command, comparison): shown as text here; the wiki's build stops at it"
    )
    assert len(warned) == 5  # foo, foo, script and /script, foo "…"; not Hugo's escaped {{</* run x */>}}
    summary = export(corpus, REPORT, "md", WIKI)
    assert "` {{< foo >}} `" in summary and "` {{% foo %}} `" in summary and "` {{< run x >}} `" in summary


def test_the_markdown_summary_carries_no_raw_html(corpus):
    summary = export(corpus, REPORT, "md", WIKI)
    notes = summary[summary.index("## Notes") : summary.index("## Results")]
    prose = re.sub(r"(`+).*?\1", "", notes)  # code spans show their text as written
    assert "<" not in prose
    assert "&lt;script>alert('script tag')&lt;/script>" in notes
    assert "[markdown link](#)" in notes and "[markdown entity](#)" in notes and "[xss-ref]: #" in notes
    assert not re.search(r"\]\(\s*(javascript|vbscript|data)", notes, re.I)
    # Rendered as a ticket would (alignment as align=, as the HTML export renders tables).
    tables = TableExtension(use_align_attribute=True)
    rendered = markdown.markdown(summary, extensions=[tables, "fenced_code"], output_format="html")
    assert dangers(rendered) == []
    # Rendered, the vectors read as the text they are.
    assert "&lt;script&gt;alert('script tag')&lt;/script&gt;" in rendered


def test_what_a_narrative_needs_is_kept():
    text = (
        "## Setup\n\n*one* **two** ~~x~~ [wiki](https://wiki.example/a) [rel](../other/) [mail](mailto:a@b.c)\n\n"
        "![chart](https://img.example/c.png) ![local](c.png)\n\n"
        "| disk | IOPS |\n|:---|---:|\n| nvme | 1,000 |\n\n"
        "```sh\nfio --name=x\n```\n\n1. first\n2. second\n\n> quoted\n"
    )
    rendered = clean(markdown.markdown(text, extensions=["tables", "fenced_code"], output_format="html"))
    for kept in (
        "<h2>Setup</h2>",
        "<em>one</em> <strong>two</strong>",
        '<a href="https://wiki.example/a">wiki</a>',
        '<a href="../other/">rel</a>',
        '<a href="mailto:a@b.c">mail</a>',
        '<img alt="chart" src="https://img.example/c.png">',
        '<img alt="local" src="c.png">',
        '<code class="language-sh">fio --name=x\n</code>',
        "<ol>\n<li>first</li>",
        "<blockquote>",
        "<td>nvme</td>",
    ):
        assert kept in rendered, kept
    assert clean('<img src="data:image/png;base64,AAAA" alt="x">') == '<img alt="x">'
    assert clean('<code class="language-sh copy">x</code>') == '<code class="language-sh">x</code>'


def test_the_wiki_refuses_an_unknown_shortcode_with_its_file_and_line(tmp_path, ingested):
    """Hugo's side of the same rule: an unknown shortcode never runs, the build stops and says where."""
    site = corpus_site(tmp_path, ["{{< foo >}}"])
    index = site / "content" / "reports" / REPORT / "index.md"
    line = index.read_text(encoding="utf-8").split("\n").index("{{< foo >}}") + 1
    build = subprocess.run(
        [str(hugo_binary()), "-d", str(tmp_path / "public")], cwd=site, capture_output=True, text=True
    )
    assert build.returncode != 0
    said = build.stdout + build.stderr
    assert f"index.md:{line}:" in said and 'shortcode "foo" not found' in said


def test_a_title_and_summary_of_html_are_text_in_both_formats(tmp_path, ingested):
    site = corpus_site(tmp_path / "site", [])
    index = site / "content" / "reports" / REPORT / "index.md"
    text = index.read_text(encoding="utf-8")
    title = "<img src=x onerror=alert('title')>"
    text = text.replace("title: fio IOPS basics and ioping latency", f'title: "{title}"', 1)
    index.write_text(text.replace("summary: >-\n", "summary: >-\n  <script>alert('summary')</script>\n", 1))
    page = export(site, REPORT, "html", WIKI)
    assert "<h1>&lt;img src=x onerror=alert(&#39;title&#39;)&gt;</h1>" in page
    assert '<p class="summary">&lt;script&gt;alert(&#39;summary&#39;)&lt;/script&gt; Random' in page
    assert not any(
        tag == "img" or any(name.startswith("on") for name in attributes) for tag, attributes in elements(page)
    )
    summary = export(site, REPORT, "md", WIKI)
    assert summary.startswith("# &lt;img src=x onerror=alert('title')>\n")
    assert "\n&lt;script>alert('summary')&lt;/script> Random" in summary

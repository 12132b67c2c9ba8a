"""The XSS corpus (tests/fixtures/xss/vectors.txt, from OWASP's filter evasion cheat sheet) in a report's
text, opened in Chromium: the HTML export, the markdown summary rendered as a ticket would render it,
and the wiki's own page of the report. Any dialog, alert() call or script that ran fails the test."""

from __future__ import annotations

import subprocess

import markdown
import pytest

from perfwiki.perf import serve
from support import hugo_binary, perfwiki_command
from test_export_safety import REPORT, corpus_site, shortcode_free, vectors

pytestmark = pytest.mark.browser

# Every frame (an iframe's srcdoc too) reports a call of alert, confirm, prompt or print on the console.
TRAP = """
for (const name of ["alert", "confirm", "prompt", "print"]) {
  const original = window[name];
  window[name] = function (...args) {
    console.log("XSS-CALL " + name + ": " + args.join(" "));
    return original.apply(this, args);
  };
}
"""
# Fire what an unsuspecting reader would: pointer over, focus, load and error events, details toggled,
# and a click on every link whose address is neither http(s) nor the file itself (javascript: would run).
PROVOKE = """
() => {
  const clicked = [];
  for (const element of document.querySelectorAll("body *")) {
    for (const type of ["mouseover", "mouseenter", "focus", "toggle"]) element.dispatchEvent(new Event(type));
    if (/^(IMG|SVG|IFRAME|OBJECT|EMBED|INPUT|BODY|VIDEO|AUDIO)$/i.test(element.tagName)) {
      element.dispatchEvent(new Event("load"));
      element.dispatchEvent(new Event("error"));
    }
    if (element.tagName === "DETAILS") element.open = !element.open;
  }
  for (const link of document.querySelectorAll("a[href]")) {
    if (!/^(https?|file):$/.test(link.protocol)) { clicked.push(link.getAttribute("href")); link.click(); }
  }
  const handlers = [...document.querySelectorAll("*")].flatMap(
    (element) => [...element.attributes]
      .filter((a) => a.name.startsWith("on"))
      .map((a) => `${element.tagName} ${a.name}`)
  );
  return {clicked, handlers, xss: window.__xss === undefined ? null : String(window.__xss)};
}
"""


@pytest.fixture(scope="module")
def exported(tmp_path_factory, ingested):
    """(the HTML export, the markdown summary rendered to HTML) of a report holding the whole corpus."""
    folder = tmp_path_factory.mktemp("xss-export")
    site = corpus_site(folder / "site", vectors())
    files = {}
    for form in ("html", "md"):
        output = folder / f"{REPORT}.{form}"
        done = subprocess.run(
            perfwiki_command() + ["export", REPORT, "--format", form, "--root", str(site), "-o", str(output)],
            capture_output=True,
            text=True,
        )
        assert done.returncode == 0, done.stderr
        files[form] = output
    rendered = folder / "summary.html"
    body = markdown.markdown(files["md"].read_text(encoding="utf-8"), extensions=["tables", "fenced_code"])
    rendered.write_text(f"<!DOCTYPE html><html><head><meta charset='utf-8'></head><body>{body}</body></html>")
    return files["html"], rendered


def visit(page, url: str) -> None:
    calls, dialogs, errors = [], [], []
    page.add_init_script(TRAP)
    page.on("console", lambda message: calls.append(message.text) if message.text.startswith("XSS-CALL") else None)
    page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(url, wait_until="load")
    page.wait_for_timeout(500)  # an onerror or onload handler, a meta refresh, would have run by now
    found = page.evaluate(PROVOKE)
    page.wait_for_timeout(300)
    assert dialogs == [] and calls == [], (dialogs, calls)
    assert found == {"clicked": [], "handlers": [], "xss": None}
    assert page.url == url  # no meta refresh or form took the reader elsewhere
    assert errors == []


def test_the_html_export_runs_nothing_of_the_corpus(page, exported):
    html_file, _ = exported
    visit(page, html_file.as_uri())
    # What the author typed shows as text, and the report's own scripts still draw its charts.
    assert page.locator("code.shortcode", has_text="{{< foo >}}").count() == 1
    page.locator(".panel__plot svg.main-svg").first.wait_for(state="visible")


def test_the_markdown_summary_rendered_as_html_runs_nothing(page, exported):
    _, rendered = exported
    visit(page, rendered.as_uri())
    assert page.get_by_text("<script>alert('script tag')</script>", exact=True).count() == 1


def test_the_wikis_own_page_runs_nothing_of_the_corpus(page, tmp_path, ingested):
    """Hugo renders the same text with goldmark's unsafe = false: raw HTML left out (with a warning, which
    `make build`'s --panicOnWarning turns into a refusal naming the file), script links emptied."""
    site = corpus_site(tmp_path / "site", shortcode_free(vectors()))
    public = tmp_path / "public"
    build = subprocess.run([str(hugo_binary()), "-d", str(public)], cwd=site, capture_output=True, text=True)
    assert build.returncode == 0, build.stdout + build.stderr
    assert f'Raw HTML omitted while rendering "{site}/content/reports/{REPORT}/index.md"' in build.stdout + build.stderr
    with serve(public) as port:
        visit(page, f"http://127.0.0.1:{port}/reports/{REPORT}/")
        assert page.locator("a", has_text="markdown link").count() == 1

"""Search from any page: the header's search field, reached with "/", sends the words to the search page."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

PAGES = [
    "",
    "reports/vm-vs-bare-metal/",
    "environments/r730-host/",
    "scenarios/fio-read-randread-4096-16-1-direct-libaio-file/",
    "runs/nvme-raw-vs-ext4/nvme-raw-fio-bandwidth-iops-latency-random-read-latency-test/",
    "regressions/",
]


@pytest.mark.parametrize("path", PAGES)
def test_every_page_kind_has_the_search_field_in_its_header(page, base_url_local, path):
    page.goto(base_url_local + path)
    field = page.locator("header.site-header form[role=search] input#site-search")
    assert field.count() == 1 and field.get_attribute("name") == "q"
    assert page.locator("label[for=site-search]").text_content() == "Search the wiki"


def test_slash_focuses_the_field_and_enter_searches(page, base_url_local):
    page.goto(f"{base_url_local}reports/vm-vs-bare-metal/")
    page.keyboard.press("/")
    assert page.evaluate("document.activeElement.id") == "site-search"
    page.keyboard.type("windowsaio/")  # inside the field, "/" is a character
    assert page.locator("#site-search").input_value() == "windowsaio/"
    page.keyboard.press("Backspace")
    page.keyboard.press("Enter")
    page.wait_for_url("**/search/?q=windowsaio")
    # The search page runs the query it was given: the Windows guests' fio runs used that engine.
    # Pagefind lists placeholders (". . .") first and fills each result in as its fragment loads.
    page.locator(".pagefind-ui__result-link").first.wait_for(state="visible", timeout=10_000)
    expect(page.locator(".pagefind-ui__results")).to_contain_text(re.compile("windowsaio", re.IGNORECASE))


def test_each_result_says_what_kind_of_page_it_is(page, base_url_local):
    kinds = set(_kinds_in_order(page, base_url_local, "r730-host"))
    titles = page.locator(".pagefind-ui__result-title").all_inner_texts()
    # The host's environment page, its runs and the raw outputs they came from, each labelled.
    assert {"run", "raw output"} <= kinds and kinds <= {
        "report",
        "environment",
        "scenario",
        "tool",
        "run",
        "raw output",
    }
    assert "unixbench.md — r730-host · raw output" in titles


RANK = {"report": 1, "report tables": 1, "environment": 2, "scenario": 3, "tool": 3, "run": 4, "raw output": 5}


def _kinds_in_order(page, base_url_local, query):
    page.goto(f"{base_url_local}search/?q={query}")
    page.locator(".pagefind-ui__result-link").first.wait_for(state="visible", timeout=10_000)
    kinds = []
    while True:  # every result, not the first page of them: "Load more" until it is gone
        more = page.locator(".pagefind-ui__button")
        if not more.count():
            break
        more.click()
        page.wait_for_timeout(100)
    # Each result a placeholder (.pagefind-ui__loading) until its fragment has loaded: all loaded, then read.
    expect(page.locator(".pagefind-ui__results .pagefind-ui__loading")).to_have_count(0, timeout=10_000)
    for title in page.locator(".pagefind-ui__result-title").all_inner_texts():
        if " · " in title:  # a page's title; its sub-results (headings) carry no kind
            kinds.append(title.rsplit(" · ", 1)[-1])
    return kinds


@pytest.mark.parametrize("query", ["windowsaio", "r730-host", "randread"])
def test_results_come_report_first_and_raw_output_last(page, base_url_local, query):
    kinds = _kinds_in_order(page, base_url_local, query)
    ranks = [RANK[kind] for kind in kinds]
    assert ranks == sorted(ranks), kinds
    # The seeds' words are in reports, in runs and in the raw outputs the runs come from.
    assert kinds[0] == "report" and "run" in kinds and kinds[-1] == "raw output"

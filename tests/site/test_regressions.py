"""/regressions/: every change beyond the noise across the wiki, newest first, and its Atom feed
(pages/history.py flagged_changes). The example has one: the build VM's disk measured quiet, then busy."""

from __future__ import annotations

import re

import feedparser

from perfwiki.pages import history
from support import CHECK_BASE_URL

QUIET, BUSY = "build-vm-disk-quiet", "build-vm-disk-busy"


def test_the_feed_has_an_entry_per_change_a_feed_reader_can_read(built_site):
    feed = feedparser.parse((built_site / "bench" / "regressions" / "index.xml").read_bytes())
    assert not feed.bozo, feed.get("bozo_exception")
    assert feed.version == "atom10"
    assert feed.feed.title == "perfwiki: Regressions and improvements"
    assert feed.feed.updated == "2026-11-24T23:43:59Z"
    # Busy against quiet, 4 KiB random I/O at QD16 on the build VM's disk: IOPS fell by 86 % and 79 %.
    titles = [entry.title for entry in feed.entries]
    assert [title.split(",")[0] for title in titles] == [
        "regression: IOPS −85.6 % on build-vm-vda",
        "regression: IOPS −78.5 % on build-vm-vda",
    ]
    for entry in feed.entries:
        assert re.fullmatch(r"urn:uuid:[0-9a-f-]{36}", entry.id)
        assert entry.updated == "2026-11-24T23:43:59Z"
        assert entry.link.startswith(f"{CHECK_BASE_URL}scenarios/fio-") and entry.link.endswith("/#history-heading")
        assert f"Before: {QUIET} (2026-11-24 23:43:11)" in entry.summary and f"After: {BUSY}" in entry.summary
    assert "IOPS 57,904 → 8,361 (−85.6 %)" in feed.entries[0].summary
    # What the busy report's author knew of its conditions comes with the number: a regression caused
    # by a second writer on the disk says so, not a bare drop.
    assert "while a second process wrote to the disk with direct I/O the whole time." in feed.entries[0].summary
    assert len({entry.id for entry in feed.entries}) == 2


def test_an_entry_id_survives_renamed_reports_and_runs():
    change = {"from": QUIET, "to": BUSY, "from_date": "2026-11-24 23:43:11", "to_date": "2026-11-24 23:43:59"}
    renamed = {**change, "from": "quiet-disk", "to": "busy-disk", "from_runs": ["another-id"]}
    key = "fio-read-randread-4096-16-1-direct-libaio-file"
    assert history.change_id(key, "build-vm-vda", change) == history.change_id(key, "build-vm-vda", renamed)
    assert history.change_id(key, "build-vm-vda", change) != history.change_id(key, "another-env", change)


def test_the_page_lists_each_change_with_its_runs_and_commands(built_site):
    page = (built_site / "bench" / "regressions" / "index.html").read_text(encoding="utf-8")
    assert page.count('<li class="change change--regression"') == 2
    assert 'href="/bench/regressions/index.xml" type="application/atom+xml"' in page
    # Each side's run, linked, with the command that measured it.
    for report in (QUIET, BUSY):
        assert f'href="/bench/runs/{report}/build-vm-vda-fio-logs-' in page
    assert page.count("<code>fio --name=randread-logged") == 2 and page.count("<code>fio --name=randwrite-logged") == 2
    assert "beyond ±5 % (a single run shows no noise of its own)" in page
    said = re.findall(r'<dd class="change__said muted">([^<]*)</dd>', page)
    assert len(said) == 4 and said[1].endswith(
        "while a second process wrote to the disk with direct I/O the whole time."
    )
    # Every page's header leads here, and the home page shows the latest changes.
    home = (built_site / "bench" / "index.html").read_text(encoding="utf-8")
    assert 'href="/bench/regressions/">Regressions</a>' in home
    latest = home[home.index('id="changes-heading"') : home.index('id="reports-heading"')]
    assert latest.count("<li>") == 2 and "<strong>IOPS −85.6 %</strong> on build-vm-vda" in latest
    assert f"({QUIET} → {BUSY}, 2026-11-24 23:43:59)" in latest
    assert 'href="/bench/regressions/">All 2 changes</a>' in latest

"""What only a browser shows of history and fio's logs: the trend by date with the regression
marked, and a logged run's series over time and its json+ histogram, drawn without errors."""

from __future__ import annotations

import pytest

from perfwiki import runstore
from support import ROOT, interactive

pytestmark = pytest.mark.browser
RUN = "runs/build-vm-disk-quiet/build-vm-vda-fio-logs-20261124-234311-randwrite-logged/"


def drawn(page, url: str) -> dict:
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    page.goto(url, wait_until="networkidle")
    interactive(page)
    plots = page.locator(".chart__plot")
    for index in range(plots.count()):
        plots.nth(index).locator("svg.main-svg").first.wait_for(state="visible")
    assert errors == []
    return page.evaluate("window.perfwikiFigures")


def test_the_environment_page_draws_its_history_with_the_regression_marked(page, base_url_local, artifacts):
    page.set_viewport_size({"width": 1440, "height": 1000})
    figures = drawn(page, f"{base_url_local}environments/build-vm-vda/")
    trend = figures["chart-history-1"]
    assert trend["layout"]["xaxis"]["type"] == "date"
    (trace,) = trend["data"]
    assert trace["x"] == ["2026-11-24 23:43:11", "2026-11-24 23:43:59"]
    assert trace["marker"]["line"]["color"][1] == "#d62728"  # the busy pass: a regression
    assert page.locator(".history .badge--regression").count() == 2
    page.locator("#history-heading").scroll_into_view_if_needed()
    page.screenshot(path=str(artifacts / "history-environment-1440.png"))


def test_a_logged_run_draws_its_series_over_time_and_its_latency_bins(page, base_url_local, artifacts):
    run = runstore.run_json(ROOT, *RUN.strip("/").split("/")[1:])
    bandwidth = next(entry for entry in run["metrics"]["logs"] if entry["kind"] == "bw")
    for width in (1440, 390):
        page.set_viewport_size({"width": width, "height": 900})
        figures = drawn(page, f"{base_url_local}{RUN}")
        (trace,) = figures["chart-log-bw"]["data"]
        assert trace["x"] == bandwidth["t_s"] and len(trace["y"]) == len(bandwidth["values"])
        assert figures["chart-log-bw"]["layout"]["yaxis"]["title"]["text"] in ("MiB/s", "KiB/s", "GiB/s")
        assert figures["chart-bins"]["layout"]["xaxis"]["type"] == "log"
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        page.locator("#chart-log-bw").scroll_into_view_if_needed()
        page.screenshot(path=str(artifacts / f"fio-logs-run-{width}.png"))

"""What data/ holds for a chart: its numbers once, in canonical units, and nothing of its look.

The browser turns these series into plotly figures (js/charts.js); tests/browser/test_drawn_charts.py
checks the figures it draws.
"""

from __future__ import annotations

from perfwiki import charts
from perfwiki.tools import mbw
from support import ROOT


def test_a_panel_keeps_the_bars_with_a_value_in_canonical_units_and_marks_the_typed_one():
    bars = [
        {"label": "host (baseline)", "value": 200e6, "colour": charts.BASELINE_COLOUR},
        {"label": "vm", "value": None, "colour": charts.PALETTE[0]},
        {"label": "nas (typed)", "value": 150e6, "colour": charts.PALETTE[1], "manual": True},
    ]
    panel = charts.bar_panel("p", bars, "B/s", "si", baseline_value=200e6)
    assert panel == {
        "id": "p",
        "plot": {
            "kind": "bars",
            "unit": "B/s",
            "printed": "si",
            "labels": ["host (baseline)", "nas (typed)"],  # a missing value is no bar, never a 0-length one
            "series": [{"values": [200e6, 150e6]}],
            "colours": [charts.BASELINE_COLOUR, charts.PALETTE[1]],
            "manual": [1],
            "baseline": 200e6,
        },
    }


def test_twelve_environments_get_twelve_distinct_colours_and_the_baseline_is_grey():
    environments = [f"env{index}" for index in range(12)]
    chosen = charts.colours(environments, "env3")
    assert chosen["env3"] == charts.BASELINE_COLOUR
    assert len(set(chosen.values())) == 12


def test_an_mbw_chart_carries_every_iteration_and_a_table_for_readers_without_javascript():
    methods = {"MEMCPY": {"runs_bytes_per_s": [7.0e9, 7.2e9], "avg_bytes_per_s": 7.1e9}}
    chart = mbw.iterations_chart(methods, "chart-iterations")
    assert chart["plot"] == {
        "kind": "iterations",
        "unit": "B/s",
        "series": [{"name": "MEMCPY", "values": [7.0e9, 7.2e9]}],
    }
    assert chart["table"]["rows"] == [["0", "6,676 MiB/s"], ["1", "6,866 MiB/s"], ["AVG", "6,771 MiB/s"]]


def test_no_chart_in_data_carries_a_plotly_layout(built_site):
    """data/ holds results: a chart's look (layout, hover templates, margins) is decided by js/charts.js."""
    plots = 0
    for path in sorted((ROOT / "data").rglob("*.json")):
        text = path.read_text(encoding="utf-8")
        for word in ('"layout"', '"hovertemplate"', '"margin"', '"spec"'):
            assert word not in text, (path, word)
        plots += text.count('"plot":{')
    # The five reports chart their comparisons and scenarios; iperf3 and mbw runs chart their details
    # (a fio run's charts name where their numbers are in its published index.json: tools/fio/pages.py).
    assert plots > 100

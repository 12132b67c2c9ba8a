"""Every chart spec ingest writes is a valid plotly.js figure.

charts.py builds specs as plain dicts for speed; plotly.graph_objects, pinned to the
same plotly.js as the vendored bundle, validates each one here instead.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import plotly.graph_objects as go
import pytest

from perfwiki import charts, units
from perfwiki.tools import mbw
from support import ROOT


def chart_specs(node: Any, where: str = "") -> Iterator[tuple[str, dict[str, Any]]]:
    """(where, spec) of every chart in a data/ document."""
    if isinstance(node, dict):
        if isinstance(node.get("spec"), dict) and "data" in node["spec"]:
            yield f"{where}/{node.get('id')}", node["spec"]
        for key, value in node.items():
            yield from chart_specs(value, f"{where}/{key}")
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield from chart_specs(value, f"{where}/{index}")


def test_every_chart_in_data_is_a_valid_plotly_figure(built_site):
    # built_site ingested the example wiki into data/.
    checked = 0
    for path in sorted((ROOT / "data").rglob("*.json")):
        document = json.loads(path.read_text(encoding="utf-8"))
        for where, spec in chart_specs(document):
            figure = go.Figure(spec)  # raises ValueError on any unknown or ill-typed property
            assert len(figure.data) == len(spec["data"]) >= 1, f"{path.name}{where}"
            checked += 1
    # The five reports chart their comparisons, and fio, iperf3 and mbw runs chart their details.
    assert checked > 200


def test_the_validation_catches_a_misspelt_property():
    spec = mbw.iterations_chart({"MEMCPY": {"runs_bytes_per_s": [1.0, 2.0], "avg_bytes_per_s": 1.5}}, "c")["spec"]
    go.Figure(spec)
    spec["layout"]["yaxis"]["rangemod"] = "tozero"
    with pytest.raises(ValueError, match="rangemod"):
        go.Figure(spec)


def test_a_panel_prints_every_bar_in_one_unit_and_marks_the_baseline_value():
    scale = units.scale_for([200e6, 150e6], "B/s", "si")
    bars = [
        {"label": "host (baseline)", "value": 200e6, "colour": charts.BASELINE_COLOUR},
        {"label": "vm", "value": 150e6, "colour": charts.PALETTE[0]},
    ]
    spec = charts.bar_panel("p", bars, scale, baseline_value=200e6)["spec"]
    go.Figure(spec)
    (trace,) = spec["data"]
    assert trace["orientation"] == "h" and trace["text"] == ["200 MB/s", "150 MB/s"]
    assert trace["x"] == [200.0, 150.0]  # drawn in the axis's one unit, MB/s, from zero
    assert spec["layout"]["xaxis"]["range"][0] == 0
    (line,) = spec["layout"]["shapes"]
    assert (line["x0"], line["x1"], line["yref"]) == (200.0, 200.0, "y domain")


def test_twelve_environments_get_twelve_distinct_colours_and_the_baseline_is_grey():
    environments = [f"env{index}" for index in range(12)]
    chosen = charts.colours(environments, "env3")
    assert chosen["env3"] == charts.BASELINE_COLOUR
    assert len(set(chosen.values())) == 12


def test_a_sweep_line_carries_its_points_in_si_and_iec_for_the_unit_switch():
    # Sequential read bandwidth at QD 1/4/16 as fio printed it, in bytes/s.
    points = [("1", 1.2e9), ("4", 2.9e9), ("16", 3.4e9)]
    values = [v for _, v in points]
    si, iec = units.scale_for(values, "B/s", "si"), units.scale_for(values, "B/s", "iec")
    panel = charts.line_panel("p", points, iec, "queue depth", {"si": si, "iec": iec})
    go.Figure(panel["spec"])
    assert panel["spec"]["data"][0]["text"][0] == "1144 MiB/s"  # one prefix for the whole axis
    assert panel["switch"]["si"]["data"][0]["text"] == ["1200 MB/s", "2900 MB/s", "3400 MB/s"]
    assert panel["switch"]["si"]["data"][0]["y"] == pytest.approx([1200, 2900, 3400])
    assert panel["switch"]["printed"]["data"][0]["y"] == panel["spec"]["data"][0]["y"]
    assert panel["switch"]["si"]["layout"]["yaxis.range"][1] == pytest.approx(3400 * 1.25)

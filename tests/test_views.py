"""What pages show: environments side by side, comparison cells and their verdicts."""

from __future__ import annotations

import json

from perfwiki.pages import comparison as comparison_view
from perfwiki.pages import report as views


def test_equal_facts_fold_and_differing_ones_lead():
    table = views.environments_side_by_side(
        [
            {"id": "host", "title": "Host", "kind": "baremetal", "facts": {"os": "CentOS 7", "cpu": "E5-2678 v3"}},
            {"id": "vm", "title": "VM", "kind": "vm", "facts": {"os": "CentOS 7", "vm_cache_mode": "none"}},
        ]
    )
    assert [row["fact"] for row in table["differing"]] == ["kind", "cpu", "vm_cache_mode"]
    assert table["differing"][1]["values"] == ["E5-2678 v3", None]  # a gap is a difference, shown as missing
    assert table["differing"][1]["cells"] == [False, True]  # the cell that differs from the first, not the row
    assert table["same"] == [{"fact": "os", "value": "CentOS 7"}]


def test_comparison_cells_carry_text_percent_and_verdict():
    comparison = {
        "id": "fio-iops",
        "tool": "fio",
        "baseline": "host",
        "columns": [{"title": "4k randread", "scenario": "s", "unit": "IOPS", "higher_is_better": True, "refused": []}],
        "rows": [
            {"environment": "host", "cells": [{"value": 195, "relative": 1.0, "runs": ["a"], "n": 1}]},
            {"environment": "vm", "cells": [{"value": 245, "relative": 245 / 195, "runs": ["b"], "n": 1}]},
            # compare.py marks a cell even by noise.py's rule; the table only lays it out.
            {
                "environment": "win",
                "cells": [{"value": 190, "relative": 190 / 195, "runs": ["c"], "n": 1, "even": True}],
            },
            {"environment": "old", "cells": [{"value": None, "relative": None, "runs": [], "n": 0}]},
        ],
    }
    table = comparison_view.comparison_table(comparison)
    host, vm, win = (row["cells"][0] for row in table["rows"])
    assert (host["text"], host.get("relative"), host["class"]) == ("195", None, "baseline")
    assert (vm["text"], vm["relative"], vm["class"], vm["run"]) == ("245", "126%", "better", "b")
    assert (win["relative"], "class" in win) == ("97.4%", False)  # within 5%: not coloured as a win or loss
    assert table["without"] == ["old"]  # no empty row: the page names it once instead
    assert table["columns"][0]["unit"] == "IOPS" and table["columns"][0]["direction"] == "higher is better"


def bandwidths(host: float, vm: float) -> dict:
    """A one-column fio bandwidth comparison of two environments, the host the baseline."""
    return {
        "id": "fio-bw",
        "tool": "fio",
        "baseline": "host",
        "columns": [{"title": "seq", "scenario": "s", "unit": "B/s", "higher_is_better": True, "refused": []}],
        "rows": [
            {"environment": "host", "cells": [{"value": host, "relative": 1.0, "runs": ["a"], "n": 1}]},
            {"environment": "vm", "cells": [{"value": vm, "relative": vm / host, "runs": ["b"], "n": 1}]},
        ],
    }


def test_a_column_shows_every_value_with_one_prefix_in_each_convention():
    table = comparison_view.comparison_table(bandwidths(9810 * 1024, 1854 * 2**20))
    host, vm = (row["cells"][0] for row in table["rows"])
    assert (host["text"], vm["text"]) == ("9.58 MiB/s", "1,854 MiB/s")  # not "9,810 KiB/s" next to "1.81 GiB/s"
    assert (host["si"], vm["si"]) == ("10.0 MB/s", "1,944 MB/s")
    assert table["columns"][0]["unit"] == {"si": "MB/s", "iec": "MiB/s"}  # printed in IEC: no text of its own
    assert vm["relative"] == "194×"


def test_a_column_spanning_more_than_three_decades_gives_each_value_its_own_prefix():
    """981 KiB/s beside 1854 MiB/s (1,935×): in one unit the first would read 0.958 MiB/s, a
    number no tool prints; each keeps the prefix that gives it one to four digits."""
    table = comparison_view.comparison_table(bandwidths(981 * 1024, 1854 * 2**20))
    host, vm = (row["cells"][0] for row in table["rows"])
    assert (host["text"], vm["text"], host["si"], vm["si"]) == ("981 KiB/s", "1,854 MiB/s", "1,005 kB/s", "1,944 MB/s")
    assert table["columns"][0]["unit"] == {"si": "kB/s–MB/s", "iec": "KiB/s–MiB/s"}  # the header says so


def test_an_environment_page_names_its_closest_environments_not_every_one():
    from perfwiki.pages import index as index_views

    # One scenario run on 30 environments, a second on the first five of them only.
    everywhere = [{"environment": f"env-{n:02d}"} for n in range(30)]
    scenarios = {
        "fio-randread": {"runs": everywhere},
        "fio-randwrite": {"runs": everywhere[:5] + [{"environment": None}]},
    }
    related = index_views._related(scenarios)
    first = related["env-00"]
    assert first["count"] == 29 and len(first["closest"]) == index_views.RELATED_SHOWN == 12
    # Those sharing both scenarios lead, then the rest by name.
    assert [(e["environment"], e["scenarios"]) for e in first["closest"][:5]] == [
        ("env-01", 2),
        ("env-02", 2),
        ("env-03", 2),
        ("env-04", 2),
        ("env-05", 1),
    ]
    assert related["env-29"]["closest"][0] == {"environment": "env-00", "scenarios": 1}


def test_related_environments_are_those_sharing_the_most_scenarios_counted_pair_by_pair():
    """The bit-sliced counts (pages/index.py) against the definition: for each pair of environments,
    the scenarios both ran. 60 environments over 9 scenarios give counts 0 to 9 (four planes), ties
    cut by name, environments with no relative, and scenarios run several times on one environment."""
    import random

    from perfwiki.pages import index as index_views

    chance = random.Random(34)
    names = [f"env-{n:02d}" for n in range(60)]
    scenarios = {
        f"scenario-{s}": {
            "runs": [{"environment": name} for name in names for _ in range(chance.choice((0, 0, 1, 2)))]
            + [{"environment": None}]
        }
        for s in range(9)
    }
    scenarios["alone"] = {"runs": [{"environment": "env-solo"}]}
    ran = {name: set() for name in [*names, "env-solo"]}
    for key, scenario in scenarios.items():
        for run in scenario["runs"]:
            if run["environment"]:
                ran[run["environment"]].add(key)
    related = index_views._related(scenarios)
    for name, mine in ran.items():
        shared = {other: len(mine & theirs) for other, theirs in ran.items() if other != name and mine & theirs}
        if not mine or not shared:
            assert name not in related
            continue
        ranked = sorted(shared.items(), key=lambda item: (-item[1], item[0]))[: index_views.RELATED_SHOWN]
        assert related[name]["count"] == len(shared)
        assert [(e["environment"], e["scenarios"]) for e in related[name]["closest"]] == ranked
    assert "env-solo" not in related and max(len(mine) for mine in ran.values()) >= 8


def test_overlay_series_kept_apart_are_read_for_the_reports_a_scenario_page_draws_and_give_the_same_pages():
    """ingest keeps a report's overlay series apart from the rest of its share; the site index asks for
    them only while a scenario has no more than OVERLAID lines, and makes the same pages as from whole shares."""
    from perfwiki.pages import index as index_pages
    from support import fixture_runs as runs_of

    many = index_pages.OVERLAID + 4  # reports of one fio scenario: its page draws no lines past OVERLAID
    shares = [
        index_pages.index_share(f"report-{n:02}", runs_of("fio/fio-3.33-randread-4k-normal.txt", f"env-{n}"))
        for n in range(many)
    ]
    # Last in report order, and alone in its scenario: its lines are drawn.
    shares.append(index_pages.index_share("report-zz", runs_of("iperf3/iperf3-3.12-loopback-t1-text.txt", "env-z")))
    whole = index_pages.index_files(shares)
    series = {share["report"]: {key: s["series"] for key, s in share["scenarios"].items()} for share in shares}
    apart = [
        {
            **share,
            "scenarios": {k: {f: v for f, v in s.items() if f != "series"} for k, s in share["scenarios"].items()},
        }
        for share in shares
    ]
    asked: list[str] = []
    assert index_pages.index_files(apart, lambda report: asked.append(report) or series[report]) == whole
    fio_lines = next(iter(shares[0]["scenarios"].values()))["series"]
    drawn_from = -(-(index_pages.OVERLAID + 1) // len(fio_lines))  # reports until one line too many
    assert sorted(set(asked)) == [f"report-{n:02}" for n in range(drawn_from)] + ["report-zz"]
    scenario_pages = [name for name in whole if name.startswith("scenarios/")]
    charts = [json.loads(whole[name]).get("charts") for name in scenario_pages]
    assert [] in charts and any(charts)  # the fio page draws none (too many lines), the iperf3 page draws its own

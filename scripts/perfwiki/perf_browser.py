"""`make perf`'s page-speed figures (issue 32): two report pages as a phone loads them.

The pages: the largest report (by HTML size) of the example site as shipped, and a generated
report of 300 runs and about 60 charts (perf.build_site: one real file of each tool, replicated over
6 environments). Each site is built as `make build` builds it (ingest, Hugo's production build,
Pagefind, the .br and .gz copies), served by a static server that sends those copies to a browser
that accepts them, and loaded in Debian's Chromium as a mid-range phone (perf_pageload). Every
figure is the median of `loads` loads (3), each in a fresh context:

    first_chart_s            navigation to the first frame showing a chart's rendering
    long_task_ms             the longest main-thread task while the page loads, is scrolled to its end and idles 2 s
    kib_before_first_chart   decoded KiB of every response that had ended by then
    largest_report_html_kib  the measured page's HTML
    largest_page_html_kib    the largest HTML page of any kind in that site
    tap_to_interactive_s     a tap on the first chart, once the page has settled, to plotly's drawing there
    cls                      cumulative layout shift (Lighthouse's session windows) over the load and the scroll

The generated report's names end in `_300_runs`. Then the run finder's figures at 100,000 runs
(perf_finder: /runs/ unfiltered and filtered, to its first rows). Before each figure a `#` line gives its samples
and issue 32's target; `pages_over_2mb` counts the HTML pages over 2 MiB in every site built,
including the ones the caller names (make perf's synthetic wiki).

    $ .venv/bin/python -m perfwiki.perf_browser --hugo HUGO    # these figures alone
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterable, Sequence
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

from . import perf_finder, perf_pageload
from .perf import build_site, copy_site, serve
from .precompress import precompress

# issue 32, item 3: (the most a figure may be, its unit), for the example site's largest report.
TARGETS: dict[str, tuple[float, str]] = {
    "first_chart_s": (1.0, "s"),
    "long_task_ms": (200, "ms"),
    "kib_before_first_chart": (300, "KiB"),
    "largest_report_html_kib": (300, "KiB"),
    "largest_page_html_kib": (2048, "KiB"),  # item 4: no page over 2 MB
    "tap_to_interactive_s": (1.5, "s"),
    "cls": (0.1, ""),
}
GENERATED_SUFFIX = "_300_runs"
# The 300-run report's page may be larger: 1 MiB.
GENERATED_TARGETS = {**TARGETS, "largest_report_html_kib": (1024, "KiB")}
BROWSER_FIGURES = ("first_chart_s", "long_task_ms", "kib_before_first_chart", "tap_to_interactive_s", "cls")
PAGE_LIMIT_BYTES = 2 * 2**20
# The generated report: 300 runs of one real file of each tool over 6 environments make 61 charts.
GENERATED_RUNS, GENERATED_ENVIRONMENTS, GENERATED_FILES_PER_TOOL = 300, 6, 1


def production_build(site: Path, hugo: str) -> Path:
    """`make build` in `site`: ingest, Hugo's minified build, the search index, the precompressed copies;
    returns the built folder (public/). A step that fails raises, with its output."""
    steps = [
        [sys.executable, "-m", "perfwiki.cli", "ingest", "--root", str(site)],
        [hugo, "--panicOnWarning", "--printPathWarnings", "--minify", "-d", str(site / "public")],
        [sys.executable, "-m", "pagefind_bin", "--site", str(site / "public"), "--quiet"],
    ]
    for command in steps:
        done = subprocess.run(command, cwd=site, capture_output=True, text=True)
        if done.returncode != 0:
            raise RuntimeError(f"{Path(command[0]).name} {' '.join(command[1:3])} failed:\n{done.stdout}{done.stderr}")
    precompress(site / "public")
    return site / "public"


def example_site(root: Path, hugo: str, work: Path) -> Path:
    """The example wiki as shipped (content/ as it is), built in `work`; its public/."""
    site = work / "example"
    site.mkdir(parents=True)
    copy_site(root, site)
    shutil.copytree(root / "content", site / "content")
    return production_build(site, hugo)


def generated_site(root: Path, hugo: str, work: Path) -> Path:
    """A site whose one report has GENERATED_RUNS runs (perf.build_site), built in `work`; its public/."""
    site = work / "generated"
    site.mkdir(parents=True)
    build_site(root, site, GENERATED_RUNS, GENERATED_ENVIRONMENTS, 1, per_tool=GENERATED_FILES_PER_TOOL)
    return production_build(site, hugo)


def largest_report(public: Path) -> Path:
    """The largest report page of a built site."""
    return max(public.glob("reports/*/index.html"), key=lambda page: page.stat().st_size)


class _Charts(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.kinds = {"chart": 0, "panel": 0}

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "figure":
            classes = (dict(attrs).get("class") or "").split()
            for kind in self.kinds:
                self.kinds[kind] += kind in classes


def chart_counts(page: Path) -> dict[str, int]:
    """{"chart": figure.chart elements, "panel": figure.panel elements} of a built page."""
    parser = _Charts()
    parser.feed(page.read_text(encoding="utf-8"))
    return parser.kinds


def median(samples: Iterable[float | None]) -> float | None:
    """The median of the samples that were measured; None when none was."""
    measured = [sample for sample in samples if sample is not None]
    return statistics.median(measured) if measured else None


def pages_over(sites: Iterable[Path], limit: int = PAGE_LIMIT_BYTES) -> list[tuple[Path, int]]:
    """(page, bytes) of every HTML page over `limit` in the built sites, the largest first."""
    sizes = ((page, page.stat().st_size) for site in sites for page in site.rglob("*.html"))
    return sorted(((page, size) for page, size in sizes if size > limit), key=lambda item: -item[1])


def measure(browser: Any, public: Path, page: str, loads: int) -> tuple[dict[str, list[float | None]], list[str]]:
    """({figure: one sample per load}, notes) of `page` (a path under the site) served from `public`."""
    samples: dict[str, list[float | None]] = {name: [] for name in BROWSER_FIGURES}
    notes: list[str] = []
    plotly_loads = touched = 0
    with serve(public) as port:
        url = f"http://127.0.0.1:{port}/{page}"
        for number in range(loads):
            started = time.monotonic()
            try:
                load = perf_pageload.scroll_load(browser, url)
            except Exception as error:  # noqa: BLE001 - reported; this sample is n/a
                print(f"# {page} load {number + 1}: {str(error).splitlines()[0]}", file=sys.stderr)
                load = None
            try:
                tap = perf_pageload.tap_load(browser, url)
            except Exception as error:  # noqa: BLE001 - reported; this sample is n/a
                print(f"# {page} tap {number + 1}: {str(error).splitlines()[0]}", file=sys.stderr)
                tap = None
            print(f"# {page} load {number + 1} of {loads}: {time.monotonic() - started:.0f} s", file=sys.stderr)
            samples["tap_to_interactive_s"].append(tap)
            for name in ("first_chart_s", "long_task_ms", "kib_before_first_chart", "cls"):
                samples[name].append(None if load is None else getattr(load, name))
            if load is not None:
                plotly_loads += any("plotly" in address for address, *_ in load.requests)
                touched += len(load.touched)
    notes.append(
        f"hands-off loads that fetched plotly: {plotly_loads} of {loads}; events on a chart while scrolling: {touched}"
    )
    return samples, notes


def _number(name: str, value: float | None) -> str:
    return "n/a" if value is None else f"{value:.3f}" if name.startswith("cls") else f"{value:.2f}"


def figure_lines(
    suffix: str, targets: dict[str, tuple[float, str]], samples: dict[str, list[float | None]], sizes: dict[str, float]
) -> list[str]:
    """The `# samples, target` line and the `name value` line of every figure, in TARGETS' order."""
    lines = []
    for name, (limit, unit) in targets.items():
        values = samples.get(name) or [sizes.get(name)]
        value = median(values)
        verdict = "n/a" if value is None else "pass" if value <= limit else "FAIL"
        shown = " ".join(_number(name, sample) for sample in values)
        kind = "samples" if name in BROWSER_FIGURES else "measured"
        lines.append(f"# {name}{suffix}: {kind} {shown}; target <= {limit:g}{' ' + unit if unit else ''}: {verdict}")
        lines.append(f"{name}{suffix} {_number(name, value)}")
    return lines


def site_lines(browser: Any, public: Path | None, suffix: str, loads: int, why_not: str | None) -> list[str]:
    """Every figure of one site's largest report: measured with `browser`, or n/a with the reason said."""
    targets = GENERATED_TARGETS if suffix else TARGETS
    if public is None:
        return figure_lines(suffix, targets, {}, {})
    report = largest_report(public)
    page = f"{report.parent.relative_to(public).as_posix()}/"
    counts = chart_counts(report)
    lines = [
        f"# {page}{' (generated, 300 runs)' if suffix else ''}: {counts['chart'] + counts['panel']} charts "
        f"({counts['chart']} figure.chart, {counts['panel']} figure.panel)"
    ]
    sizes = {
        "largest_report_html_kib": report.stat().st_size / 1024,
        "largest_page_html_kib": max(html.stat().st_size for html in public.rglob("*.html")) / 1024,
    }
    samples: dict[str, list[float | None]] = {}
    if browser is not None:
        samples, notes = measure(browser, public, page, loads)
        lines += [f"# {note}" for note in notes]
    elif why_not:
        print(f"# {page}: no page-speed figures: {why_not}", file=sys.stderr)
    return lines + figure_lines(suffix, targets, samples, sizes)


def report(root: Path, hugo: str, work: Path, loads: int = 3, also: Sequence[Path] = ()) -> None:
    """Build both sites in `work`, measure them, print every figure; pages_over_2mb counts `also` too."""
    sites: list[tuple[str, Path | None]] = []
    for suffix, build in (("", example_site), (GENERATED_SUFFIX, generated_site)):
        started = time.monotonic()
        try:
            sites.append((suffix, build(root, hugo, work)))
            print(f"# built {build.__name__} in {time.monotonic() - started:.0f} s", file=sys.stderr)
        except Exception as error:  # noqa: BLE001 - reported; its figures are n/a
            print(f"# {build.__name__}: {error}", file=sys.stderr)
            sites.append((suffix, None))
    why_not = "--page-loads 0" if loads == 0 else perf_pageload.unavailable()
    if why_not:
        for suffix, public in sites:
            print("\n".join(site_lines(None, public, suffix, loads, why_not)), flush=True)
    else:
        with perf_pageload.chromium() as browser:
            for suffix, public in sites:
                print("\n".join(site_lines(browser, public, suffix, loads, None)), flush=True)
    over = pages_over([*also, *(public for _, public in sites if public is not None)])
    for page, size in over[:10]:
        print(f"# over 2 MiB: {page} {size / 2**20:.1f} MiB")
    print(f"pages_over_2mb {len(over)}", flush=True)
    # Last: it replaces the example site's run finder files with a wiki of 100,000 runs.
    example = sites[0][1]
    if example is not None:
        print("\n".join(perf_finder.lines(example, perf_finder.RUNS, loads)), flush=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--root", default=".", help="the perfwiki checkout")
    parser.add_argument("--hugo", required=True, help="the pinned Hugo binary")
    parser.add_argument("--page-loads", type=int, default=3, help="loads per figure (0: build and size only)")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="perfwiki-pages-") as work:
        report(Path(args.root).resolve(), str(Path(args.hugo).resolve()), Path(work), args.page_loads)
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())

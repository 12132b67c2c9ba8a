"""One page load in Debian's Chromium as a mid-range phone sees it, measured from inside the page.

A phone here is a 390x844 viewport at 3 device pixels per CSS pixel, touch, and the CPU slowed 4x
through the DevTools protocol (Emulation.setCPUThrottlingRate); every load has a context of its own,
so its cache is empty. The page carries an instrument (INSTRUMENT, an init script that runs before
any of the page's own) that records, on the clock of performance.now(), which starts at navigation:

- the first frame that shows a chart's rendering (its static SVG, or the SVG plotly drew) with a
  box: polled once a frame, and the frame after the one it was laid out in is the one on screen;
- every long task (over 50 ms) and every layout shift, observed from the start;
- the first touch or pointer press, and any pointer, touch or focus event on a chart, so a load
  meant to be hands-off can say it was.

`scroll_load` loads a page, scrolls it to the end a viewport at a time with window.scrollBy (not
the wheel, which is input) and waits 2 s; `tap_load` loads one, lets it settle, taps its first
chart and times until plotly has drawn there.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any, NamedTuple

CHROMIUM = Path("/usr/bin/chromium")
LAUNCH_ARGS = [
    "--no-sandbox",
    "--disable-dev-shm-usage",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
PHONE = {
    "viewport": {"width": 390, "height": 844},
    "device_scale_factor": 3,
    "is_mobile": True,
    "has_touch": True,
}
CPU_SLOWDOWN = 4
# A chart is a figure.chart, or on today's report pages a comparison's figure.panel. What shows one is
# its static rendering (an svg in .chart__static) or what plotly drew (its svg.main-svg).
FIGURES = "figure.chart, figure.panel"
RENDERED = ", ".join(
    f"{figure} {svg}" for figure in ("figure.chart", "figure.panel") for svg in (".chart__static svg", "svg.main-svg")
)
PLOT = ".chart__plot, .panel__plot"
# Lighthouse's session windows: shifts less than 1 s apart, a window at most 5 s long.
SHIFT_GAP_MS, SHIFT_WINDOW_MS = 1000.0, 5000.0
RECENT_INPUT_MS = 500.0  # how long after input Chromium flags a shift (hadRecentInput)
SCROLL_PAUSE_MS, AFTER_SCROLL_MS = 250, 2000
MAX_SCROLL_STEPS = 2000  # 2000 viewports: a page longer than that is measured as far as that
LOAD_TIMEOUT_MS = 300_000  # a report that draws every chart at load takes minutes at 4x
SETTLED_MS, SETTLE_TIMEOUT_MS = 1000, 30_000  # "settled": no long task for 1 s
TAP_TIMEOUT_MS = 30_000

_SELECTORS = f"const RENDERED = {json.dumps(RENDERED)}, FIGURES = {json.dumps(FIGURES)}, PLOT = {json.dumps(PLOT)};"
INSTRUMENT = (
    "(() => {\n"
    + _SELECTORS
    + """
  const state = (window.__perfwiki = { firstChart: null, longTasks: [], shifts: [], touched: [], tap: null,
    interactive: null });
  // The default buffer of 250 entries would drop a large page's later requests.
  performance.setResourceTimingBufferSize(100000);
  const observe = (type, take) => {
    try {
      new PerformanceObserver((list) => list.getEntries().forEach(take)).observe({ type, buffered: true });
    } catch (error) {
      state.unobserved = (state.unobserved || []).concat(type);
    }
  };
  observe("longtask", (entry) => state.longTasks.push([entry.startTime, entry.duration]));
  observe("layout-shift", (entry) =>
    state.shifts.push([entry.startTime, entry.value, entry.hadRecentInput, entry.lastInputTime]));
  const painted = (selector, within) =>
    [...within.querySelectorAll(selector)].some((element) => {
      const box = element.getBoundingClientRect();
      return box.width > 0 && box.height > 0;
    });
  // Checked once a frame; a rendering laid out in one frame is on screen from the next.
  const watch = (ready, record) => {
    const poll = () => requestAnimationFrame(ready() ? () => record(performance.now()) : poll);
    poll();
  };
  watch(() => painted(RENDERED, document), (time) => { state.firstChart = time; });
  for (const type of ["pointerdown", "pointerenter", "pointerover", "mouseover", "touchstart", "focusin", "click"]) {
    addEventListener(type, (event) => {
      if (state.tap === null && (type === "pointerdown" || type === "touchstart")) state.tap = event.timeStamp;
      if (event.target instanceof Element && event.target.closest(FIGURES)) state.touched.push(type);
    }, { capture: true, passive: true });
  }
  state.watchFirstPlot = () => {
    const plot = document.querySelector(FIGURES).querySelector(PLOT);
    watch(() => state.tap !== null && painted("svg.main-svg", plot), (time) => { state.interactive = time; });
  };
  state.requests = () =>
    [...performance.getEntriesByType("navigation"), ...performance.getEntriesByType("resource")].map((entry) =>
      [entry.name, entry.responseEnd, entry.decodedBodySize, entry.transferSize]);
  state.quietFor = () =>
    performance.now() - Math.max(0, ...state.longTasks.map(([start, duration]) => start + duration));
})();
"""
)


class Load(NamedTuple):
    """What one hands-off load of a page, scrolled to its end, measured."""

    first_chart_s: float | None  # None: no chart was rendered
    long_task_ms: float  # the longest task; 0 when none reached the 50 ms a long task starts at
    kib_before_first_chart: float | None
    cls: float
    requests: list[tuple[str, float, int, int]]  # (url, responseEnd ms, decoded bytes, transferred bytes)
    touched: list[str]  # pointer, touch and focus events on a chart: none, for a hands-off load


def layout_shift_score(shifts: Iterable[tuple[float, float, bool, float]]) -> float:
    """CLS as Lighthouse defines it: the largest sum of one session window of layout shifts
    (startTime ms, value, hadRecentInput, lastInputTime ms), those after recent input left out.

    Chromium takes the viewport change that applies an emulated screen, early in every load, for
    input (chromium bug 1302667), so, as Lighthouse does, a shift flagged for recent input still
    counts while it is within RECENT_INPUT_MS of the first input and no unflagged shift came before:
    in a load without input, that input is the emulation's.
    """
    ordered = sorted(shifts)
    first_input = min((last_input for _, _, recent, last_input in ordered if recent), default=0.0)
    counted, respect_input = [], False
    for start, value, recent_input, _ in ordered:
        if recent_input and (respect_input or start - first_input > RECENT_INPUT_MS):
            continue
        respect_input = respect_input or not recent_input
        counted.append((start, value))
    largest = window = 0.0
    first = last = None
    for start, value in counted:
        if first is not None and start - last < SHIFT_GAP_MS and start - first < SHIFT_WINDOW_MS:
            window += value
        else:
            first, window = start, value
        last = start
        largest = max(largest, window)
    return largest


def decoded_kib_before(requests: Iterable[tuple[str, float, int, int]], until_ms: float) -> float:
    """KiB of the bodies, decoded, of every request whose response had ended by `until_ms`
    (a cross-origin one without Timing-Allow-Origin counts 0: its size is hidden from the page)."""
    return sum(decoded for _, end, decoded, _ in requests if 0 < end <= until_ms) / 1024


def unavailable() -> str | None:
    """Why no page can be measured here (Playwright or Debian's Chromium missing), or None."""
    try:
        import playwright.sync_api  # noqa: F401 - only whether it is there
    except ImportError:
        return "Playwright is not installed (make setup installs it in .venv)"
    if not CHROMIUM.exists():
        return f"{CHROMIUM} is missing (make setup-system installs Debian's chromium)"
    return None


@contextlib.contextmanager
def chromium() -> Iterator[Any]:
    """Debian's Chromium, headless, through Playwright."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=LAUNCH_ARGS)
        try:
            yield browser
        finally:
            browser.close()


@contextlib.contextmanager
def phone_page(browser: Any) -> Iterator[Any]:
    """A tab of a fresh context (nothing cached) as a phone: PHONE's screen, the CPU CPU_SLOWDOWN times slower,
    the instrument in place for the next navigation."""
    context = browser.new_context(**PHONE)
    try:
        context.add_init_script(INSTRUMENT)
        page = context.new_page()
        context.new_cdp_session(page).send("Emulation.setCPUThrottlingRate", {"rate": CPU_SLOWDOWN})
        yield page
    finally:
        context.close()


def scroll_to_end(page: Any) -> None:
    """One viewport at a time, SCROLL_PAUSE_MS apart, by script: no wheel, no touch, no pointer."""
    step = "() => { scrollBy({ top: innerHeight, behavior: 'instant' });"
    step += " return scrollY + innerHeight >= document.documentElement.scrollHeight - 1; }"
    for _ in range(MAX_SCROLL_STEPS):
        at_end = page.evaluate(step)
        page.wait_for_timeout(SCROLL_PAUSE_MS)
        if at_end:
            return


def scroll_load(browser: Any, url: str) -> Load:
    """Load `url` hands-off, scroll to its end, wait AFTER_SCROLL_MS, and read the instrument."""
    with phone_page(browser) as page:
        # The pointer off the page: the content scrolling under a pointer would hover what passes below it.
        page.mouse.move(-1, -1)
        page.goto(url, wait_until="load", timeout=LOAD_TIMEOUT_MS)
        with contextlib.suppress(Exception):  # a page without a chart: first_chart_s is None
            page.wait_for_function("window.__perfwiki.firstChart !== null", polling=100, timeout=LOAD_TIMEOUT_MS)
        scroll_to_end(page)
        page.wait_for_timeout(AFTER_SCROLL_MS)
        state = page.evaluate(
            "() => { const s = window.__perfwiki; return { firstChart: s.firstChart, longTasks: s.longTasks,"
            " shifts: s.shifts, touched: s.touched, requests: s.requests(), unobserved: s.unobserved || [] }; }"
        )
    if state["unobserved"]:
        raise RuntimeError(f"this Chromium does not report {', '.join(state['unobserved'])} entries")
    first = state["firstChart"]
    requests = [tuple(request) for request in state["requests"]]
    return Load(
        first_chart_s=None if first is None else first / 1000,
        long_task_ms=max((duration for _, duration in state["longTasks"]), default=0.0),
        kib_before_first_chart=None if first is None else decoded_kib_before(requests, first),
        cls=layout_shift_score(tuple(shift) for shift in state["shifts"]),
        requests=requests,
        touched=state["touched"],
    )


def tap_load(browser: Any, url: str) -> float | None:
    """Seconds from a tap on the first chart, once the page has settled, to the first frame in which
    plotly has drawn that chart (its svg.main-svg); None when it is not drawn within TAP_TIMEOUT_MS."""
    with phone_page(browser) as page:
        page.goto(url, wait_until="load", timeout=LOAD_TIMEOUT_MS)
        page.wait_for_load_state("networkidle", timeout=LOAD_TIMEOUT_MS)
        for _ in range(SETTLE_TIMEOUT_MS // 250):
            if page.evaluate("window.__perfwiki.quietFor()") >= SETTLED_MS:
                break
            page.wait_for_timeout(250)
        figure = page.locator(FIGURES).first
        figure.evaluate("figure => figure.scrollIntoView({ block: 'center', behavior: 'instant' })")
        page.wait_for_timeout(SCROLL_PAUSE_MS)
        box = figure.bounding_box()
        page.evaluate("window.__perfwiki.watchFirstPlot()")
        page.touchscreen.tap(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        try:
            page.wait_for_function("window.__perfwiki.interactive !== null", polling=50, timeout=TAP_TIMEOUT_MS)
        except Exception:  # noqa: BLE001 - never drawn: the figure is n/a
            return None
        tapped, drawn = page.evaluate("[window.__perfwiki.tap, window.__perfwiki.interactive]")
    return (drawn - tapped) / 1000

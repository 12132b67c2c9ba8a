"""Bounded resources: a large raw file's page is capped with its cited lines kept, the download is the
whole file with the sha256 the page shows, and a binary file is refused and never published."""

from __future__ import annotations

import hashlib
import html
import json
import re
import subprocess
from pathlib import Path

import pytest

from perfwiki import perf, units
from perfwiki.compare import _merge_same_scenario
from perfwiki.decode import refused
from perfwiki.extract import extract
from perfwiki.pages import raw
from support import ROOT, copy_site_sources, example_raw_files, hugo_binary, perfwiki_command

FIO = ROOT / "tests" / "fixtures" / "fio" / "fio-3.33-randread-direct-then-buffered.txt"
# Real output of a command that is no benchmark (`ls -la /usr/bin`): lines no run cites.
UNCITED = ROOT / "tests" / "fixtures" / "transcripts" / "ls-la-usr-bin.txt"
REPORT = "bounded-large"
MAX_PAGE_BYTES = 2 * 2**20
ENV = "build-vm-vda"  # an example environment


def large_transcript(copies: int = 60) -> bytes:
    """Real fio runs, then real uncited output repeated past both caps, then the fio runs again, deep in the file."""
    fio, uncited = FIO.read_bytes(), UNCITED.read_bytes()
    copied = b"alice@db7:~$ scp results.txt alice@10.20.30.40:/srv/results/\n"  # an address redaction hides
    return fio + b"\n" + uncited * copies + copied + b"\n" + fio.replace(b"randread-", b"deep-randread-")


# Real output of `dd status=progress`: one line of progress reports, each ended by a carriage return.
DD_PROGRESS = ROOT / "tests" / "fixtures" / "dd" / "status-progress-urandom.txt"
PROGRESS_COPIES = 4000


def long_progress() -> bytes:
    """The dd transcript with its progress line as a run of hours prints it: its reports 4,000 times over,
    one line of some 1.3 MB, which the page cannot show whole."""
    command, progress, rest = DD_PROGRESS.read_bytes().split(b"\n", 2)
    return command + b"\n" + progress * PROGRESS_COPIES + b"\n" + rest


@pytest.fixture(scope="module")
def capped_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    site = copy_site_sources(tmp_path_factory.mktemp("bounded"))
    # Redacted, so that the download (and so its sha256) differs from the file in content/.
    with (site / "hugo.toml").open("a", encoding="utf-8") as config:
        config.write("\n[params.perfwiki.redact]\nipv4 = true\n")
    folder = site / "content" / "reports" / REPORT
    (folder / "raw" / ENV).mkdir(parents=True)
    (folder / "index.md").write_text(
        f"---\ntitle: A large session\ndate: 2026-01-01\nbaseline: {ENV}\nenvironments: [{ENV}]\n---\nOne long log.\n",
        encoding="utf-8",
    )
    (folder / "raw" / ENV / "session.txt").write_bytes(large_transcript())
    (folder / "raw" / ENV / "progress.txt").write_bytes(long_progress())
    # A screenshot (not UTF-8 at all) saved among the outputs by mistake, and an output whose end a
    # crash left as a block of NULs (what a file system shows of blocks it never wrote).
    (folder / "raw" / ENV / "screenshot.png").write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(range(256)))
    (folder / "raw" / ENV / "crashed.txt").write_bytes(FIO.read_bytes() + bytes(4096) + b"fio-3.33\n")
    ingested = subprocess.run(perfwiki_command() + ["ingest", "--root", str(site)], capture_output=True, text=True)
    assert ingested.returncode == 1, ingested.stderr  # the binary file is a problem
    (site / "ingest.err").write_text(ingested.stderr, encoding="utf-8")
    built = subprocess.run(
        [str(hugo_binary()), "--panicOnWarning", "-d", str(site / "public")], cwd=site, capture_output=True, text=True
    )
    assert built.returncode == 0, built.stdout + built.stderr
    return site


def test_a_binary_file_is_refused_at_its_path_and_not_published(capped_site):
    folder = f"content/reports/{REPORT}/raw/{ENV}"
    problems = (capped_site / "ingest.err").read_text(encoding="utf-8").splitlines()
    # Said at the file's path (by validation, before extraction would say it), and not published.
    for name in ("crashed.txt", "screenshot.png"):
        said = [line for line in problems if line.startswith(f"{folder}/{name}:")]
        assert len(said) == 1 and "not published" in said[0], problems
    for name in ("crashed.txt", "screenshot.png"):
        assert not (capped_site / "site" / "static" / folder.removeprefix("content/") / name).exists()
    assert (capped_site / "site" / "static" / f"reports/{REPORT}/raw/{ENV}/session.txt").is_file()


def test_refused_tells_binary_and_undecodable_files_from_text(tmp_path):
    cases = {
        "nul.txt": (FIO.read_bytes() + bytes(4096) + b"tail\n", True),
        # A serial console's junk (a NUL or two) in text stays text.
        "junk.txt": (FIO.read_bytes() + b"\x00\x01\x02 \x7f garbage \x00\n", False),
        # A run of NULs across the 1 MiB pieces refused() reads.
        "zeros.txt": (b"a" * ((1 << 20) - 4) + bytes(8) + b"\n", True),
        "latin1.txt": ("fio --name=x\n\ncaf\xe9 au lait\n".encode("latin-1"), True),
        "utf16.txt": (("\ufeff" + FIO.read_text(encoding="utf-8")).encode("utf-16-le"), False),
        # A multi-byte character across the 1 MiB chunks refused() reads: still valid UTF-8.
        "long.txt": (b"a" * ((1 << 20) - 1) + "é\n".encode(), False),
        "fio.txt": (FIO.read_bytes(), False),
    }
    for name, (data, binary) in cases.items():
        (tmp_path / name).write_bytes(data)
        assert refused(str(tmp_path / name)) is binary, name
    (problem,) = extract("nul.txt", cases["nul.txt"][0]).problems
    assert (problem.line, problem.message) == (
        70,
        f"binary file (NUL bytes from character {len(FIO.read_text()) + 1}): refused, not published",
    )


def _raw_page(site: Path, name: str = "session-txt") -> str:
    return (site / "public" / "raw" / REPORT / ENV / name / "index.html").read_text(encoding="utf-8")


def _published(site: Path, name: str = "session.txt") -> bytes:
    return (site / "site" / "static" / "reports" / REPORT / "raw" / ENV / name).read_bytes()


def _entry(site: Path, name: str) -> dict:
    document = json.loads((site / "data" / "reports" / f"{REPORT}.json").read_text(encoding="utf-8"))
    (entry,) = [e for e in document["raw_files"] if e["source"].endswith(name)]
    return entry


def _line_text(page: str, number: int) -> str:
    """The escaped text of line `number` as the page shows it (after its number)."""
    found = re.search(rf'<span class="raw__line" id="L{number}"><a [^>]+>{number}</a>(.*?)</span>', page)
    assert found, number
    return found.group(1)


def test_a_large_raw_file_page_shows_its_first_and_last_lines_and_every_cited_line(capped_site):
    page = _raw_page(capped_site)
    published = _published(capped_site)
    lines = published.removesuffix(b"\n").split(b"\n")
    total = len(lines)
    assert len(published) > 4 * raw.RAW_EDGE_LINES * 80 and total > 10 * raw.RAW_EDGE_LINES
    shown = [int(n) for n in re.findall(r'<span class="raw__line" id="L(\d+)"', page)]
    runs = _entry(capped_site, "session.txt")["runs"]
    assert len(runs) == 4 and runs[-1]["line_start"] > total - 80  # two runs deep in the file
    # The first and the last 2,000 lines (lines of ls -la: far under the page's budget), and each run's
    # lines with their context; nothing else.
    expected = set(range(1, raw.RAW_EDGE_LINES + 1)) | set(range(total - raw.RAW_EDGE_LINES + 1, total + 1))
    for run in runs:
        expected |= set(range(max(1, run["line_start"] - 3), run["line_end"] + 4))
    assert shown == sorted(n for n in expected if n <= total)
    for number in (1, raw.RAW_EDGE_LINES, total - raw.RAW_EDGE_LINES + 1, total):
        assert html.unescape(_line_text(page, number)) == lines[number - 1].decode("utf-8")
    # Under 2 MB: the HTML of the lines shown, not of the 1.6 MB file's 24,000 lines.
    assert len(page.encode()) < MAX_PAGE_BYTES / 2
    # The one gap says which lines, how many and how many bytes it leaves out, and links the download.
    gaps = re.findall(
        r"… lines ([\d,]+)–([\d,]+) not shown: ([\d,]+) lines, ([^<]+?) — "
        r'<a href="([^"]+)" download>download the full file',
        page,
    )
    first, last = raw.RAW_EDGE_LINES + 1, total - raw.RAW_EDGE_LINES
    left_out = sum(len(line) + 1 for line in lines[first - 1 : last])
    assert gaps == [
        (f"{first:,}", f"{last:,}", f"{last - first + 1:,}", units.format_bytes(left_out), gaps[0][4]),
    ]
    assert gaps[0][4].endswith(f"/reports/{REPORT}/raw/{ENV}/session.txt")
    assert f'<a href="{gaps[0][4]}" download>download</a>' in page  # and at the top, beside its sha256
    assert "raw-pages" not in page  # every cited line fits on the one page


def test_run_pages_source_links_land_on_lines_the_capped_page_shows(capped_site):
    page = _raw_page(capped_site)
    shown = set(re.findall(r'id="(L\d+)"', page))
    deep = capped_site / "public" / "runs" / REPORT
    links = []
    for run_page in sorted(deep.glob("*/index.html")):
        links += re.findall(r'class="raw-link" href="[^"]*session-txt/\?lines=\d+-\d+#(L\d+)"', run_page.read_text())
    assert len(links) == 4 and set(links) <= shown


def test_a_line_too_long_to_show_shows_its_start_and_how_much_more_it_has(capped_site):
    page = _raw_page(capped_site, "progress-txt")
    lines = _published(capped_site, "progress.txt").removesuffix(b"\n").split(b"\n")
    progress = lines[1].decode("utf-8")
    assert len(progress) > 100 * raw.RAW_LINE_MAX_CHARS
    # Every line is shown (the run cites them all), the long one cut after RAW_LINE_MAX_CHARS characters.
    assert re.findall(r'id="L(\d+)"', page) == [str(n) for n in range(1, len(lines) + 1)]
    shown = re.search(r'id="L2"><a [^>]+>2</a>(.*?)<span class="raw__cut">(.*?)</span></span>', page, re.S)
    # (Its carriage returns as the page's HTML has them, newlines: what a browser reads either as.)
    assert shown and html.unescape(shown.group(1)) == progress[: raw.RAW_LINE_MAX_CHARS].replace("\r", "\n")
    more = units.format_bytes(len(lines[1]) - raw.RAW_LINE_MAX_CHARS)
    assert re.fullmatch(
        rf' … {re.escape(more)} more on this line: <a href="[^"]+progress.txt" download>download the full file</a>',
        shown.group(2),
    )
    assert html.unescape(_line_text(page, len(lines))) == lines[-1].decode("utf-8")
    assert len(page.encode()) < raw.RAW_PAGE_BUDGET


def test_the_download_is_the_whole_file_with_the_sha256_the_page_shows(capped_site):
    page = _raw_page(capped_site)
    shown = re.search(r'class="raw-sha256">([0-9a-f]{64})<', page).group(1)
    published = _published(capped_site)
    original = large_transcript()
    # The whole file, as redaction rewrote its one address, and not the file in content/.
    assert published.count(b"\n") == original.count(b"\n") and b"10.20.30.40" not in published
    assert published.replace(b"192.0.2.1", b"10.20.30.40") == original
    assert hashlib.sha256(published).hexdigest() == shown != hashlib.sha256(original).hexdigest()


def test_a_small_raw_file_is_shown_whole(tmp_path):
    (tmp_path / "fio.txt").write_bytes(FIO.read_bytes())
    assert raw.view(str(tmp_path / "fio.txt"), [raw.Cited(2, 34)]) is None


def test_each_run_is_a_range_of_its_own_widened_and_cut_apart():
    assert raw.apart([(2, 34), (37, 69), (5000, 5030), (5032, 5040), (5033, 5033)], context=3) == [
        (1, 36),
        (37, 72),
        (4997, 5031),
        (5032, 5043),
    ]
    assert raw.merged([(2, 34), (37, 69), (5000, 5030)], context=3) == [(1, 72), (4997, 5033)]


def test_cited_lines_past_one_page_fill_further_pages_each_line_on_one(tmp_path):
    """3,000 real fio runs in one file, every line a run's: the first page holds the file's first and last
    2,000 lines and the first runs that fit; the others fill pages of their own, in file order. Each line is
    on one page at most, every cited line on one, each page within the budget, and its gaps and lines
    together are the whole file."""
    path = tmp_path / "session.txt"
    path.write_bytes(b"".join(perf.one_file_transcript(ROOT, 3000)))
    data = path.read_bytes()
    lines = data.removesuffix(b"\n").split(b"\n")
    runs = extract("session.txt", data).runs
    cited = [raw.Cited(run.source.line_start, run.source.line_end) for run in runs]
    found = raw.view(str(path), cited)
    assert found is not None and found.plan.lines == len(lines) and found.plan.bytes == len(data)
    documents = dict(found.documents())
    assert sorted(documents) == list(range(1, len(found.plan.pages) + 1)) and len(documents) > 5
    on_page: dict[int, int] = {}
    for number, document in documents.items():
        shown_lines, shown_bytes, page_cost = 0, 0, 0
        for block in document["blocks"]:
            if "gap" in block:
                first, last = block["gap"]
                shown_lines += last - first + 1
                continue
            for offset, text in enumerate(block["text"].split("\n")):
                line = block["start"] + offset
                assert line not in on_page and text == lines[line - 1].decode("utf-8")
                on_page[line] = number
                shown_lines += 1
                shown_bytes += len(lines[line - 1]) + 1
                page_cost += raw.cost(line, lines[line - 1])
        assert shown_lines == len(lines) and page_cost <= raw.RAW_PAGE_BUDGET
        listed = [i for i, run in enumerate(cited) if on_page.get(run.first) == number]
        assert document["runs"] == listed[: raw.RAW_RUNS_LISTED] and document["runs_count"] == len(listed)
    # Page 1: the start, the end, and the first runs; every cited line somewhere, runs never split.
    assert all(on_page[n] == 1 for n in [*range(1, 2001), *range(len(lines) - 1999, len(lines) + 1)])
    assert any(on_page[run.first] == 1 for run in cited if run.first > raw.RAW_EDGE_LINES)
    assert all(on_page[n] == on_page[run.first] for run in cited for n in range(run.first, run.last + 1))
    assert set(on_page) == set(range(1, len(lines) + 1))  # here every line is a run's or its context
    # Each run page's link lands: the page its document names for its first line (page 1 unnamed).
    for run, pages in zip(cited, found.run_pages(), strict=True):
        assert pages.get(str(run.first), 1) == on_page[run.first]
    # The list of pages each page shows: the span of lines on each page after the first.
    for number, (first, last) in enumerate(found.spans, start=2):
        assert on_page[first] == on_page[last] == number


def test_twin_columns_merge_as_before_across_environments():
    """The indexed merge keeps its rule: one scenario labelled apart per environment is one column."""
    from perfwiki.compare import Column

    def column(title, environment, fingerprint):
        made = Column(id="", title=title, tool="fio", part=None, fingerprint=fingerprint)
        made.refused.append({"run": title, "environment": environment, "reason": "x"})
        return made

    fp = {"tool": "fio", "rw": "randread", "bs": 4096, "numjobs": None}
    columns = [
        column("a", "vm", fp),
        column("b", "vm", fp),  # same environment: its own column
        column("c", "host", {**fp, "numjobs": None}),  # joins "a"
        column("d", "host", {**fp, "bs": 8192}),  # another scenario
        column("e", "disk", fp),  # joins "a", the first twin without "disk" (it has vm and host now)
    ]
    merged = _merge_same_scenario(columns)
    assert [[entry["run"] for entry in c.refused] for c in merged] == [["a", "c", "e"], ["b"], ["d"]]


def test_the_one_file_transcript_is_real_fio_output_with_a_name_a_run(tmp_path):
    data = b"".join(perf.one_file_transcript(ROOT, 20))
    found = extract("session.txt", data)
    assert found.problems == [] and len(found.runs) == 20
    assert len({run.params.get("name") or run.label for run in found.runs}) == 20


def test_extraction_hands_runs_on_in_batches_and_keeps_none():
    """What keeps a large file's extraction bounded by its text rather than by its runs: finished runs
    leave in batches of SINK_BATCH, checked and fingerprinted, and the result holds none of them."""
    from perfwiki.extract import SINK_BATCH, extract_text
    from perfwiki.model import Source

    data = b"".join(perf.one_file_transcript(ROOT, 1201))  # 601 copies of two runs
    batches = []
    found = extract_text(data.decode("utf-8"), Source("session.txt", 1, 1, "0" * 64), sink=batches.append)
    assert found.runs == [] and found.problems == [] and found.count == 1202
    assert [len(batch) for batch in batches] == [SINK_BATCH, SINK_BATCH, 1202 - 2 * SINK_BATCH]
    runs = [run for batch in batches for run in batch]
    assert all(run.fingerprints and run.checks is not None for run in runs)
    # The same runs, in the same order, as extraction without a sink keeps them.
    kept = extract_text(data.decode("utf-8"), Source("session.txt", 1, 1, "0" * 64)).runs
    assert [run.to_dict() for run in runs] == [run.to_dict() for run in kept]


def _published_tree(folder: Path) -> dict[str, bytes]:
    return {
        str(path.relative_to(folder)): path.read_bytes()
        for path in sorted(folder.rglob("*"))
        if path.is_file() and path.name not in ("generation.json", "manifest.json")
    }


def test_packed_runs_and_own_processes_build_the_same_site(tmp_path, monkeypatch):
    """Run.pack holds a report's runs pickled while it is built, a few unpacked at a time: with one
    run unpacked at a time (every read unpacks, every next run packs the last again), and every raw
    file and report counted large (each extracted and built in a process of its own), the example
    site is byte for byte the one built with every run unpacked, in one process. A step that changed
    a run's detail in place, rather than by assigning the field, would be lost and show here."""
    from perfwiki import ingest, model

    trees = []
    for limit in (10**9, 1):
        monkeypatch.setattr(model, "UNPACKED_LIMIT", limit)
        monkeypatch.setattr(ingest, "_OWN_PROCESS_BYTES", 0 if limit == 1 else 10**12)
        (tmp_path / f"limit-{limit}").mkdir()
        site = copy_site_sources(tmp_path / f"limit-{limit}")
        result = ingest.ingest(site, workers=1, out=None)
        assert result.run_count > 100
        trees.append(_published_tree(site / ".perfwiki-publish" / "current"))
    assert trees[0].keys() == trees[1].keys()
    assert [name for name in trees[0] if trees[0][name] != trees[1][name]] == []


def test_a_report_of_few_runs_is_built_from_them_as_they_are_and_a_large_one_packs_them(tmp_path, monkeypatch):
    """Packing is for a report of more runs than UNPACKED_LIMIT: one of fewer would be unpacked
    again, every field, by the first step that reads them. A report past the limit packs every run,
    those read before it crossed the limit too."""
    from perfwiki import ingest, model

    packed: list[str] = []
    original = model.Run.pack
    monkeypatch.setattr(model.Run, "pack", lambda run: packed.append(run.source.path) or original(run))
    site = copy_site_sources(tmp_path)
    runs = ingest.ingest(site, workers=1, out=None).run_count
    assert packed == [] and runs > 100  # every example report has fewer runs than the limit

    monkeypatch.setattr(model, "UNPACKED_LIMIT", 3)
    monkeypatch.setattr(model, "_UNPACKED", model.OrderedDict())
    held = ingest._Held()
    first, second = ([model.Run.__new__(model.Run) for _ in range(2)] for _ in range(2))
    for run in first + second:
        run.__dict__.update(source=model.Source("a.txt", 1, 1, "0" * 64), metrics={"x": 1})
    assert held(first) == first and packed == []
    assert held(second) == second and len(packed) == 4  # the limit crossed: the two before too
    assert all("metrics" not in run.__dict__ and run.metrics == {"x": 1} for run in first + second)


def test_a_packed_run_reads_as_it_was_and_keeps_what_is_assigned():
    data = b"".join(perf.one_file_transcript(ROOT, 2))
    run = extract("session.txt", data).runs[0]
    whole = run.to_dict()
    fingerprints = run.fingerprints
    run.pack()
    assert set(run.__dict__) & {"params", "metrics", "checks", "fingerprints"} == set()
    assert run.to_dict() == whole and run.fingerprints == fingerprints
    run.checks = [*run.checks, {"id": "x", "severity": "info", "message": "m", "evidence": None, "line": 1}]
    run.pack()
    assert run.checks[-1]["id"] == "x" and run.to_dict()["metrics"] == whole["metrics"]
    with pytest.raises(AttributeError):
        run.no_such_field  # noqa: B018 - the attribute error a packed run still gives


def test_past_max_labelled_columns_a_tool_is_compared_by_scenario():
    """The one-file transcript names every run apart: 200 runs of two scenarios are two columns of
    100 runs each (median, count and range), not 200 columns of one."""
    from perfwiki import compare

    data = b"".join(perf.one_file_transcript(ROOT, 200))
    runs = extract("session.txt", data).runs
    for run in runs:
        run.environment = "vm"
    assert compare.labels_of(runs, "fio") == 200 > compare.MAX_LABELLED_COLUMNS
    comparisons = compare.automatic(runs, ["vm"], "vm")
    iops = next(c for c in comparisons if c["metric"] == "iops")
    assert iops["by_scenario"] == {"labels": 200}
    # Named by what sets them apart (the transcript runs each job direct, then buffered), the whole
    # scenario in their descriptions.
    assert [column["title"] for column in iops["columns"]] == ["I/O mode direct", "I/O mode buffered"]
    assert [column["description"] for column in iops["columns"]] == [
        compare.describe(runs[0].fingerprints["read"]),
        compare.describe(runs[1].fingerprints["read"]),
    ]
    cells = iops["rows"][0]["cells"]
    assert [cell["n"] for cell in cells] == [100, 100]
    direct = sorted(run.metrics["jobs"][0]["read"]["iops"] for run in runs[::2])
    assert cells[0]["min"] == direct[0] and cells[0]["max"] == direct[-1]
    # Under the limit, the labels are the columns as before.
    few = compare.automatic(runs[:20], ["vm"], "vm")
    assert "by_scenario" not in few[0] and len(few[0]["columns"]) == 20


def _text_fixtures() -> list[Path]:
    """Every raw file of the example reports and every fixture that decodes as text."""
    found = []
    for path in sorted([*example_raw_files(), *(ROOT / "tests" / "fixtures").rglob("*")]):
        if path.is_file() and not refused(str(path)):
            found.append(path)
    return found


def test_a_long_transcript_read_a_stretch_at_a_time_gives_what_reading_it_whole_gives(monkeypatch):
    """extract reads a long plain transcript a stretch of lines at a time (segments.streamable): with
    every file counted long and stretches of 64 characters (a line cut at every turn), each example
    raw file and fixture gives the same runs, checks and problems as when read whole."""
    from perfwiki import segments
    from perfwiki.decode import decode
    from perfwiki.extract import extract_text
    from perfwiki.model import Source

    streamed = 0
    for path in _text_fixtures():
        text = decode(path.read_bytes())
        source = Source(path.name, 1, 1, "0" * 64)
        monkeypatch.setattr(segments, "STREAMED_CHARS", 10**12)
        whole = extract_text(text, source)
        monkeypatch.setattr(segments, "STREAMED_CHARS", 0)
        monkeypatch.setattr(segments, "_STRETCH_CHARS", 64)
        streamed += segments.streamable(text)
        stretched = extract_text(text, source)
        assert [run.to_dict() for run in stretched.runs] == [run.to_dict() for run in whole.runs], path
        assert stretched.problems == whole.problems, path
    assert streamed > 50  # most are plain transcripts; markdown pages and wrapped pastes are read whole


def test_stream_lines_numbers_and_cleans_lines_as_physical_lines_does(monkeypatch):
    import random

    from perfwiki import segments

    monkeypatch.setattr(segments, "_STRETCH_CHARS", 7)
    pick = random.Random(30).choice
    texts = ["", "abc", "abc\n", "a\r\nb\r", "x\rprogress\r\ny\n\n", "a\r\r\nb"]
    texts += [
        "".join(pick(["a", "bb", "\n", "\r", "\r\n", " ", "\t", "\n\n"]) for _ in range(n % 40)) for n in range(3000)
    ]
    for text in texts:
        expected = [(line.number, line.text) for line in segments.physical_lines(text)]
        assert [(line.number, line.text) for line in segments.stream_lines(text)] == expected, repr(text)

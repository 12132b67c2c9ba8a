"""`perfwiki check`: what people write, held to what ingest and Hugo read, before either reads it.

Hugo reads content/ front matter itself and fails the whole site on one value it cannot
render (malformed YAML, a key given twice, a date it cannot parse, a summary that is a list),
with a Go stack instead of a line number; ingest read the same files with PyYAML and either
crashed or took a wrong shape as something else (`environments: nas-default` letter by letter).
Here each file is composed into YAML nodes, which keep their line, and every key the README
documents is checked for its type and meaning, so each mistake is one `path:line: message`:

- report front matter (content/reports/*/index.md): title, date (a form Hugo parses),
  summary, baseline (one of the report's environments), environments (known ids),
  labels, comparisons, automatic, aliases; an unknown key is a warning with a did-you-mean;
- environment pages (content/environments/*.md): title, kind, facts (a mapping of scalars;
  `host_environment` a known environment), a file name that is an id;
- names that differ only in case (environment ids, report folders, raw files of a report):
  one overwrites the other on a case-insensitive file system and in URLs;
- raw files that are not text (NUL bytes, or no encoding decode.py knows): never published;
- with `deep` (the `check` command), aliases.yaml, manual.yaml and bench suite files, which
  ingest and bench otherwise report only when they read them.

Ingest runs `site` first (ingest.plan) and leaves out what fails: a report with an error, the
reports shown with a broken environment page, and each refused raw file.
"""

from __future__ import annotations

import datetime as dt
import difflib
import re
from collections.abc import Callable, Collection, Iterable
from dataclasses import dataclass, field
from pathlib import Path

import yaml

from . import content, tools
from .content import Bundle
from .decode import binary_at, decode
from .model import CONTENT_DIR, Problem, slug

STR, INT, FLOAT, BOOL, NULL, TIMESTAMP = (
    f"tag:yaml.org,2002:{name}" for name in ("str", "int", "float", "bool", "null", "timestamp")
)

# Front matter keys Hugo itself reads that an author may set on any page; perfwiki does not check their values
# beyond what Hugo needs (dates parse, aliases are addresses).
HUGO_KEYS = ("draft", "weight", "description", "keywords", "linkTitle", "lastmod", "publishDate", "expiryDate")
HUGO_DATES = ("lastmod", "publishDate", "expiryDate")

REPORT_KEYS = (
    "title",
    "date",
    "summary",
    "baseline",
    "environments",
    "comparisons",
    "automatic",
    "labels",
    "aliases",
    "tags",
    *HUGO_KEYS,
)
ENVIRONMENT_KEYS = ("title", "kind", "facts", "aliases", "tags", "date", *HUGO_KEYS)
COMPARISON_KEYS = ("title", "id", "tool", "metric", "baseline", "environments", "ignore", "columns")
COLUMN_KEYS = ("title", "label", "section", "scenario", "command", "part", "tool", "metric")
SUITE_KEYS = ("description", "defaults", "target", "steps", "job_files", "needs_loopback_server", "writes")
STEP_KEYS = ("label", "tool", "command", "seconds", "section", "shell", "show_job_file", "during")
DURING_KEYS = ("label", "tool", "command", "seconds", "lead")
SUITE_TARGETS = ("none", "file", "directory")

# The dates Hugo 0.168 parses, in the forms people write them (tests/test_validation.py builds each with
# the pinned Hugo): a day, or a day and a time to the second, with an optional fraction and zone. Hugo
# refuses "2021-10-24 10:00" (no seconds), "2021/10/24", "24.10.2021" and month 13 alike.
_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")
_DATETIME = re.compile(r"(\d{4}-\d{2}-\d{2})[Tt ](\d{2}:\d{2}:\d{2})(\.\d{1,9})?([Zz]|[+-]\d{2}:\d{2})?")
DATE_FORMS = "YYYY-MM-DD, or 2021-10-24T10:00:00Z with a time"

# How much of a raw file is read to tell text from binary: enough for any header, little for a large log.
SNIFF_BYTES = 65536
# Control characters text does not hold: all but tab, line ends, form feed, backspace (progress bars),
# bell and escape (terminal codes). In more than 1 % of the characters, it is not text.
_CONTROLS = re.compile("[\x00-\x06\x0e-\x1a\x1c-\x1f]")


# What ingest says of a report it leaves out (ingest.plan); `held_back` finds them by it.
HELD_BACK = "report not published until the errors above are fixed; the other reports are"


def held_back(problems: list[Problem]) -> dict[str, str]:
    """{slug: its index.md} of the reports ingest left out: data/held_back.json, which the citing
    shortcodes read to say so where a citation of one of their runs stands, instead of failing Hugo."""
    return {problem.path.rsplit("/", 2)[-2]: problem.path for problem in problems if problem.message == HELD_BACK}


@dataclass
class Checked:
    """Every problem found, and what ingest must leave out because of them."""

    problems: list[Problem] = field(default_factory=list)
    reports: set[str] = field(default_factory=set)  # slugs of reports not to publish
    raw_files: set[Path] = field(default_factory=set)  # raw files not to read nor publish
    environments: set[str] = field(default_factory=set)  # ids whose page has an error
    report_count: int = 0
    environment_count: int = 0
    suite_count: int = 0


def site(
    root: Path, bundles: list[Bundle], deep: bool = False, known_text: Callable[[Path], bool] | None = None
) -> Checked:
    """Check every environment page, report and raw file of a site (`bundles` from content.bundles).

    `deep` adds what ingest reports by itself when it reads them: aliases.yaml, manual.yaml
    and the bench suites. `known_text(path)` says a raw file is the one the last ingest read as
    text, unchanged since (cache.FileDigests.unchanged): it is not read again to tell.
    """
    checked = Checked(report_count=len(bundles))
    pages = environment_pages(root)
    checked.environment_count = len(pages.found)
    checked.environments, checked.problems = set(pages.broken), list(pages.problems)
    checked.problems += report_folders(root, [bundle.index_path for bundle in bundles])
    for bundle in bundles:
        one = bundle_checked(root, bundle, pages, known_text)
        if one.held_back:
            checked.reports.add(bundle.slug)
        checked.problems += one.problems
        checked.raw_files |= one.refused
        if deep:
            checked.problems += _aliases_table(root, bundle)
    if deep:
        from .bench.runner import SUITES

        checked.problems += manual_files(root, bundles)
        for path in sorted(SUITES.iterdir()):
            if not path.name.startswith((".", "_")):
                checked.problems += suite(content.relative(path, root), path)
                checked.suite_count += 1
    return checked


def _folders_without_text(root: Path) -> list[Problem]:
    """Folders under content/reports/ without an index.md: not a report, so nothing in them is published."""
    reports = root / CONTENT_DIR / "reports"
    problems = []
    for folder in sorted(path for path in reports.iterdir() if path.is_dir()) if reports.is_dir() else []:
        if folder.name.startswith(".") or (folder / "index.md").is_file():
            continue
        named = [path.name for path in folder.iterdir() if path.name.casefold() == "index.md"]
        said = f"{named[0]} must be named index.md" if named else "no index.md (its title and text)"
        message = f"{said}: not a report, so nothing in it is published"
        problems.append(Problem(content.relative(folder, root), 1, message))
    return problems


def _read(path: Path) -> str | Problem:
    """A file people write, as text; or what is wrong, at its line (the path is filled in by the caller)."""
    try:
        data = path.read_bytes()
    except OSError as exc:
        return Problem("", 1, f"cannot read: {exc.strerror}")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        return Problem("", line, f"not UTF-8 text (byte {exc.start}): save it as UTF-8")


def _shown(index: Path, raw_envs: list[str]) -> list[str]:
    """The environments a report shows (its list, then its raw folders), read leniently: a wrong shape is
    reported by `report`."""
    try:
        listed = content.read_front_matter(index).get("environments")
    except (content.FrontMatterError, OSError):
        listed = None
    names = [str(env) for env in listed] if isinstance(listed, list) else []
    return names + [env for env in raw_envs if env not in names]


# -- front matter -------------------------------------------------------------------------


class _Page:
    """One file's problems as they are found, each at the line of the node it is about."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.problems: list[Problem] = []
        # The line of the key each value node was given under: a wrong value is reported there, where
        # the author looks, even when it is a list or mapping written on the lines below.
        self.key_lines: dict[int, int] = {}

    def sorted(self) -> list[Problem]:
        """The problems in the order of their lines (each kind of check runs over the whole page)."""
        return sorted(self.problems, key=lambda problem: problem.line)

    def line(self, node: yaml.Node | int) -> int:
        return node if isinstance(node, int) else self.key_lines.get(id(node), node.start_mark.line + 1)

    def error(self, node: yaml.Node | int, message: str) -> None:
        self.problems.append(Problem(self.path, self.line(node), message))

    def warning(self, node: yaml.Node | int, message: str) -> None:
        self.problems.append(Problem(self.path, self.line(node), message, "warning"))


def _line(node: yaml.Node | int) -> int:
    return node if isinstance(node, int) else node.start_mark.line + 1


def front_matter(page: _Page, text: str | Problem) -> yaml.MappingNode | None:
    """The front matter of a markdown file as YAML nodes (their marks are lines of the file), or None
    after reporting why there is none that can be read."""
    if isinstance(text, Problem):
        page.error(text.line, text.message)
        return None
    if not text.strip():
        page.error(1, "empty file: a page starts with front matter between two '---' lines (title: …)")
        return None
    if text.startswith("+++") or text.startswith("{"):
        page.error(1, "front matter must be YAML between two '---' lines (perfwiki does not read TOML or JSON)")
        return None
    yaml_text = content.front_matter_text(text)
    if yaml_text is None:
        if text.startswith("---"):
            page.error(1, "front matter is not closed: end it with a line '---'")
        else:
            page.error(1, "no front matter: start the file with a line '---', then title: …, then a line '---'")
        return None
    try:
        node = _compose(yaml_text)
    except yaml.YAMLError as exc:
        line, said = _yaml_error(exc, yaml_text)
        page.error(line, f"front matter is not valid YAML: {said}")
        return None
    if node is None:
        page.error(2, "the front matter is empty: give the page a title: …")
        return None
    if not isinstance(node, yaml.MappingNode):
        page.error(node, f"front matter must be keys and values (title: …), not {_kind(node)}")
        return None
    return node if _constructible(page, node) else None


_PLAIN_TAGS = frozenset({STR, INT, FLOAT, BOOL, NULL, TIMESTAMP, "tag:yaml.org,2002:seq", "tag:yaml.org,2002:map"})


def _constructible(page: _Page, root: yaml.Node) -> bool:
    """Whether every value can be read as plain data: no `!!tag` (a safe reader refuses them, Hugo
    ignores them) and no timestamp that is not a real date (YAML's 2021-13-45 is a ValueError)."""
    pending, seen, good = [root], set(), True
    while pending:
        node = pending.pop()
        if id(node) in seen:  # an anchor used twice
            continue
        seen.add(id(node))
        if node.tag not in _PLAIN_TAGS:
            tag = node.tag.replace("tag:yaml.org,2002:", "!!")
            page.error(
                node, f"{tag} is a YAML tag, which perfwiki does not read: write plain text, numbers, lists, mappings"
            )
            good = False
        elif node.tag == TIMESTAMP:
            try:
                yaml.SafeLoader("").construct_yaml_timestamp(node)
            except ValueError:
                page.error(node, f"{node.value!r} is not a real date: write {DATE_FORMS}")
                good = False
        if isinstance(node, yaml.MappingNode):
            pending += [item for pair in node.value for item in pair]
        elif isinstance(node, yaml.SequenceNode):
            pending += node.value
    return good


def _compose(text: str) -> yaml.Node | None:
    """YAML nodes with their marks: by libyaml (a tenth of the time: ingest checks every page each time),
    and, for a document it refuses, by PyYAML's own reader, whose messages are the same everywhere."""
    try:
        return yaml.compose(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    except yaml.YAMLError:
        return yaml.compose(text, Loader=yaml.SafeLoader)


def _yaml_error(exc: yaml.YAMLError, text: str) -> tuple[int, str]:
    """Where YAML went wrong (a line of the file) and what it says, with where the construct it was
    reading began when that is an earlier line (an unclosed '[' is found wrong lines later)."""
    if isinstance(exc, yaml.reader.ReaderError):  # a character YAML refuses anywhere (NUL, most controls)
        return text[: exc.position].count("\n") + 1, f"a character YAML does not allow (#x{exc.character:04x})"
    if not isinstance(exc, yaml.MarkedYAMLError):
        return 1, " ".join(str(exc).split())
    mark = exc.problem_mark or exc.context_mark
    said = str(exc.problem)
    if exc.context and exc.context_mark and mark and exc.context_mark.line < mark.line:
        said += f" ({exc.context} at line {exc.context_mark.line + 1})"
    if "\\t" in said:
        said += " (indent with spaces: YAML does not allow tabs)"
    return (mark.line + 1 if mark else 1), said


def _kind(node: yaml.Node) -> str:
    if isinstance(node, yaml.MappingNode):
        return "a mapping"
    if isinstance(node, yaml.SequenceNode):
        return "a list"
    kinds = {STR: "text", INT: "a number", FLOAT: "a number", BOOL: "true/false", NULL: "empty", TIMESTAMP: "a date"}
    return kinds.get(node.tag, "a value")


def _keys(page: _Page, node: yaml.MappingNode, known: Iterable[str], what: str) -> dict[str, yaml.Node]:
    """{key: value node} of a mapping; a key given twice is an error (Hugo refuses it), a key that is not
    one of `known` a warning with the known key it is closest to, in lower case an error."""
    known = tuple(known)
    found: dict[str, yaml.Node] = {}
    first: dict[str, int] = {}
    for key, value in node.value:
        if not isinstance(key, yaml.ScalarNode):
            page.error(key, f"a key of {what} must be a word, not {_kind(key)}")
            continue
        name = key.value
        if name in first:
            page.error(key, f"{name} is given twice (first at line {first[name]}): Hugo refuses the page")
            continue
        first[name] = _line(key)
        page.key_lines[id(value)] = first[name]
        if name in known:
            found[name] = value
            continue
        same = [word for word in known if word.lower() == name.lower()]
        if same:
            page.error(key, f"{name}: write it as {same[0]} (Hugo reads either, perfwiki only {same[0]})")
            continue
        close = difflib.get_close_matches(name, known, n=1, cutoff=0.7)
        hint = f" (did you mean {close[0]}?)" if close else ""
        page.warning(key, f"unknown key {name!r} in {what}{hint}: nothing reads it")
    return found


def _text(page: _Page, name: str, node: yaml.Node | None, required: bool = False) -> str | None:
    """A value shown as text (any scalar but an empty one); None, reported, when it is not one."""
    if node is None:
        return None
    if isinstance(node, yaml.ScalarNode) and node.tag != NULL:
        return node.value
    if isinstance(node, yaml.ScalarNode) and not required:
        return None  # `summary:` with nothing after it: as if absent
    page.error(node, f"{name} must be text, not {_kind(node)}")
    return None


def _date(page: _Page, name: str, node: yaml.Node | None) -> None:
    """A date in a form Hugo parses (or nothing at all)."""
    if node is None or (isinstance(node, yaml.ScalarNode) and node.tag == NULL):
        return
    if not isinstance(node, yaml.ScalarNode) or node.tag not in (STR, TIMESTAMP):
        page.error(node, f"{name} must be a date ({DATE_FORMS}), not {_kind(node)}")
        return
    if not _parses(node.value.strip()):
        page.error(node, f"{name} {node.value!r} is not a date Hugo can read: write {DATE_FORMS}")


def _parses(text: str) -> bool:
    """Whether a date is in one of the forms Hugo parses, and a real day and time."""
    if _DATE.fullmatch(text):
        day, time, fraction, zone = text, "00:00:00", None, None
    else:
        match = _DATETIME.fullmatch(text)
        if not match:
            return False
        day, time, fraction, zone = match.groups()
    zone = "+00:00" if zone in ("Z", "z") else zone
    try:
        dt.datetime.fromisoformat(f"{day}T{time}{zone or ''}")
    except ValueError:  # month 13, hour 25, a zone 25 hours off
        return False
    return fraction is None or len(fraction) > 1


def _list(page: _Page, name: str, node: yaml.Node | None, item: str, example: str) -> list[yaml.ScalarNode]:
    """The items of a list of words (each a scalar); a single word or anything else is an error that shows
    how to write it."""
    if node is None or (isinstance(node, yaml.ScalarNode) and node.tag == NULL):
        return []
    if isinstance(node, yaml.ScalarNode):
        page.error(node, f"{name} must be a list of {item}, not {_kind(node)}: write {name}: [{node.value}]")
        return []
    if not isinstance(node, yaml.SequenceNode):
        page.error(node, f"{name} must be a list of {item}, not {_kind(node)}: write {name}: [{example}]")
        return []
    items = []
    for entry in node.value:
        if isinstance(entry, yaml.ScalarNode) and entry.tag != NULL:
            items.append(entry)
        else:
            page.error(entry, f"{name}: each item must be one of {item}, not {_kind(entry)}")
    return items


def _one_of(page: _Page, node: yaml.ScalarNode, what: str, known: Collection[str], is_not: str, tail: str = "") -> bool:
    """Whether a value is one of `known`; if not, an error: "{what} 'x' is not {is_not} (did you mean 'y'?){tail}",
    the tail listing them unless given (a set, in sorted order)."""
    if node.value in known:
        return True
    # Sorted only to say what is wrong: a wiki of 2,000 environments sorted their ids for every report's
    # every environment, a sixth of planning an ingest at 100,000 runs.
    known = sorted(known) if isinstance(known, (set, frozenset)) else list(known)
    close = difflib.get_close_matches(node.value, known, n=1, cutoff=0.6)
    hint = f" (did you mean {close[0]!r}?)" if close else ""
    tail = tail or (f": {', '.join(known)}" if known else "")
    page.error(node, f"{what} {node.value!r} is not {is_not}{hint}{tail}")
    return False


def report(path: str, text: str | Problem, environments: set[str], raw_envs: list[str]) -> list[Problem]:
    """A report's index.md: its front matter against the README's keys. `environments` are the ids with a
    page, `raw_envs` the report's raw folders."""
    page = _Page(path)
    node = front_matter(page, text)
    if node is None:
        return page.sorted()
    keys = _keys(page, node, REPORT_KEYS, "a report's front matter")
    if "title" not in keys:
        page.error(1, "no title: add title: … to the front matter")
    _text(page, "title", keys.get("title"), required=True)
    for name in ("date", *HUGO_DATES):
        _date(page, name, keys.get(name))
    for name in ("summary", "description"):
        _text(page, name, keys.get(name))
    listed = _list(page, "environments", keys.get("environments"), "environment ids", "env-id, …")
    seen: dict[str, int] = {}
    for entry in listed:
        if entry.value in seen:
            page.error(entry, f"environments: {entry.value!r} is listed twice (first at line {seen[entry.value]})")
            continue
        seen[entry.value] = _line(entry)
        add = f": add content/environments/{entry.value}.md" if slug(entry.value) == entry.value else ": ids are slugs"
        _one_of(page, entry, "environments:", environments, "a known environment", add)
    shown = list(seen) + [env for env in raw_envs if env not in seen]
    baseline = keys.get("baseline")
    if baseline is not None and _text(page, "baseline", baseline) is not None:
        _one_of(page, baseline, "baseline", shown, "one of the report's environments")
    _labels(page, keys.get("labels"))
    _automatic(page, keys.get("automatic"))
    _comparisons(page, keys.get("comparisons"), shown)
    _words(page, "aliases", keys.get("aliases"), "addresses", "/reports/old-slug/")
    _words(page, "tags", keys.get("tags"), "words", "fio, nvme")
    _keywords(page, keys)
    return page.sorted()


def _words(page: _Page, name: str, node: yaml.Node | None, item: str, example: str) -> None:
    """A list of words that may also be given as one word (Hugo reads `aliases: /x/` as a list of one)."""
    if node is None or (isinstance(node, yaml.ScalarNode) and node.tag != NULL):
        return
    _list(page, name, node, item, example)


def _keywords(page: _Page, keys: dict[str, yaml.Node]) -> None:
    for name, tag, wanted in (("draft", BOOL, "true or false"), ("weight", INT, "a whole number")):
        node = keys.get(name)
        if node is not None and not (isinstance(node, yaml.ScalarNode) and node.tag == tag):
            page.error(node, f"{name} must be {wanted}, not {_kind(node)}")
    _words(page, "keywords", keys.get("keywords"), "words", "fio, nvme")


def _labels(page: _Page, node: yaml.Node | None) -> None:
    """labels: {label as written: the words pages use} (naming.rename), "" to drop a heading."""
    if node is None or (isinstance(node, yaml.ScalarNode) and node.tag == NULL):
        return
    if not isinstance(node, yaml.MappingNode):
        page.error(
            node,
            "labels must map each label as written to the words pages use "
            f'("4KB随机读": "4 KiB random read"), not {_kind(node)}',
        )
        return
    for key, value in node.value:
        if not isinstance(key, yaml.ScalarNode) or key.tag == NULL:
            page.error(key, f"labels: a label as written must be text, not {_kind(key)}")
        elif not isinstance(value, yaml.ScalarNode) or value.tag == NULL:
            page.error(value, f'labels: {key.value!r} must map to text ("" drops the heading), not {_kind(value)}')


def _automatic(page: _Page, node: yaml.Node | None) -> None:
    """automatic: true, false, or the tools whose automatic comparisons are kept."""
    if node is None or (isinstance(node, yaml.ScalarNode) and node.tag in (BOOL, NULL)):
        return
    if isinstance(node, yaml.ScalarNode):
        page.error(
            node,
            f"automatic must be true, false or a list of tools, not {_kind(node)}: write automatic: [{node.value}]",
        )
        return
    for entry in _list(page, "automatic", node, "tools", "fio"):
        _one_of(page, entry, "automatic:", tools.NAMES, "a tool")


def _tool(page: _Page, where: str, node: yaml.Node | None) -> str | None:
    if node is None or _text(page, f"{where} tool", node) is None:
        return None
    assert isinstance(node, yaml.ScalarNode)
    return node.value if _one_of(page, node, f"{where} tool", tools.NAMES, "a tool") else None


def _metric(page: _Page, where: str, tool: str | None, node: yaml.Node | None) -> None:
    if node is None or _text(page, f"{where} metric", node) is None or tool is None:
        return
    assert isinstance(node, yaml.ScalarNode)
    known = [metric.key for metric in tools.get(tool).metrics]
    _one_of(page, node, f"{where} metric", known, f"a metric of {tool}")


def _comparisons(page: _Page, node: yaml.Node | None, environments: list[str]) -> None:
    """comparisons: a list of {title, id, tool, metric, baseline, environments, ignore, columns} (compare.authored)."""
    if node is None or (isinstance(node, yaml.ScalarNode) and node.tag == NULL):
        return
    if not isinstance(node, yaml.SequenceNode):
        page.error(node, f"comparisons must be a list of comparisons (- title: …, tool: …), not {_kind(node)}")
        return
    for number, spec in enumerate(node.value, start=1):
        if not isinstance(spec, yaml.MappingNode):
            page.error(spec, f"comparison {number} must be a mapping (title: …, tool: …), not {_kind(spec)}")
            continue
        keys = _keys(page, spec, COMPARISON_KEYS, f"comparison {number}")
        where = f"comparison {number}:"
        if _text(page, f"{where} title", keys.get("title"), required=True) is None and "title" not in keys:
            page.error(spec, f"comparison {number} needs a title")
        _text(page, f"{where} id", keys.get("id"))
        tool = _tool(page, where, keys.get("tool"))
        _metric(page, where, tool, keys.get("metric"))
        envs = []
        for entry in _list(page, f"{where} environments", keys.get("environments"), "environment ids", "env-id, …"):
            if _one_of(page, entry, f"{where} environment", environments, "one of the report's environments"):
                envs.append(entry.value)
        if keys.get("baseline") is not None and _text(page, f"{where} baseline", keys["baseline"]) is not None:
            _one_of(page, keys["baseline"], f"{where} baseline", envs or environments, "one of its environments")
        _list(page, f"{where} ignore", keys.get("ignore"), "parameter names", "iodepth")
        columns = keys.get("columns")
        if columns is None:
            if tool is None and "tool" not in keys:
                page.error(spec, f"comparison {number} needs a tool (or columns)")
            continue
        if not isinstance(columns, yaml.SequenceNode):
            page.error(
                columns, f"{where} columns must be a list of columns (- title: …, label: …), not {_kind(columns)}"
            )
            continue
        for index, column in enumerate(columns.value, start=1):
            here = f"{where} column {index}"
            if not isinstance(column, yaml.MappingNode):
                page.error(column, f"{here} must be a mapping (title: …, label: …), not {_kind(column)}")
                continue
            fields = _keys(page, column, COLUMN_KEYS, here)
            for name in ("title", "label", "section", "scenario", "command", "part"):
                _text(page, f"{here} {name}", fields.get(name))
            column_tool = _tool(page, f"{here}", fields.get("tool")) or tool
            if column_tool is None and "tool" not in fields and "tool" not in keys:
                page.error(column, f"{here}: which tool? give the comparison or the column a tool")
            _metric(page, f"{here}", column_tool, fields.get("metric"))


# -- environment pages ------------------------------------------------------------------


@dataclass(frozen=True)
class EnvironmentPages:
    """Every environment page, checked: {id: page}, the ids whose page has an error, the problems."""

    found: dict[str, Path]
    broken: frozenset[str]
    problems: tuple[Problem, ...]


def environment_pages(root: Path) -> EnvironmentPages:
    """Every environment page under content/environments/, each checked."""
    folder = root / CONTENT_DIR / "environments"
    pages = sorted(path for path in folder.glob("*.md") if not path.name.startswith("_")) if folder.is_dir() else []
    found = {path.stem: path for path in pages}
    problems: list[Problem] = []
    _case_clashes(root, pages, "environment page", problems)
    broken = set()
    for env, path in found.items():
        where = content.relative(path, root)
        page_problems = environment(where, _read(path), env, set(found))
        if any(problem.severity == "error" for problem in page_problems):
            broken.add(env)
        problems += page_problems
    return EnvironmentPages(found, frozenset(broken), tuple(problems))


def report_folders(root: Path, texts: list[Path]) -> list[Problem]:
    """What is wrong with the report folders as a whole (`texts`: each bundle's index.md): names that
    clash in case, folders without text."""
    problems: list[Problem] = []
    _case_clashes(root, [text.parent for text in texts], "report folder", problems)
    return problems + _folders_without_text(root)


@dataclass
class BundleChecked:
    """One report bundle, checked: its problems, whether it is held back, its raw files refused."""

    problems: list[Problem] = field(default_factory=list)
    held_back: bool = False
    refused: set[Path] = field(default_factory=set)


def bundle_checked(
    root: Path, bundle: Bundle, pages: EnvironmentPages, known_text: Callable[[Path], bool] | None = None
) -> BundleChecked:
    """One report's text (front matter, the environments it shows) and raw files (text, no case clashes)."""
    where = content.relative(bundle.index_path, root)
    raw_envs = sorted({env for env, _ in bundle.raw_files})
    found = report(where, _read(bundle.index_path), set(pages.found), raw_envs)
    for env in _shown(bundle.index_path, raw_envs):
        if env in pages.broken:
            page = content.relative(pages.found[env], root)
            found.append(Problem(where, 1, f"shows environment {env!r}, whose page {page} has errors"))
    one = BundleChecked(found, any(problem.severity == "error" for problem in found))
    _raw_files(root, bundle, one, known_text)
    return one


def environment(path: str, text: str | Problem, env: str, environments: set[str]) -> list[Problem]:
    """An environment page: an id for a name, title, kind, facts of scalars, a known host_environment."""
    page = _Page(path)
    if slug(env) != env:
        page.error(1, f"the file name {env!r} is the environment's id and must be a slug: {slug(env)!r}")
    node = front_matter(page, text)
    if node is None:
        return page.sorted()
    keys = _keys(page, node, ENVIRONMENT_KEYS, "an environment page's front matter")
    if "title" not in keys:
        page.error(1, "no title: add title: … to the front matter")
    _text(page, "title", keys.get("title"), required=True)
    _text(page, "kind", keys.get("kind"))
    for name in ("date", *HUGO_DATES):
        _date(page, name, keys.get(name))
    _text(page, "description", keys.get("description"))
    _words(page, "aliases", keys.get("aliases"), "addresses", "/environments/old-id/")
    _keywords(page, keys)
    facts = keys.get("facts")
    if facts is None or (isinstance(facts, yaml.ScalarNode) and facts.tag == NULL):
        return page.sorted()
    if not isinstance(facts, yaml.MappingNode):
        page.error(facts, f"facts must be a mapping of names to values (cpu: …), not {_kind(facts)}")
        return page.sorted()
    for name, value in _facts(page, facts):
        if name == "host_environment" and value.value != env:
            _one_of(
                page,
                value,
                "facts: host_environment",
                sorted(environments),
                "a known environment",
                ": name the host's environment id",
            )
        elif name == "host_environment":
            page.error(value, "host_environment names this environment itself: name its host's")
    return page.sorted()


def _facts(page: _Page, node: yaml.MappingNode) -> list[tuple[str, yaml.ScalarNode]]:
    """The facts whose value is one value (a scalar); the others reported. Any name is a fact."""
    found, first = [], {}
    for key, value in node.value:
        if not isinstance(key, yaml.ScalarNode):
            page.error(key, f"facts: a fact's name must be a word, not {_kind(key)}")
        elif key.value in first:
            page.error(
                key, f"facts: {key.value} is given twice (first at line {first[key.value]}): Hugo refuses the page"
            )
        elif not isinstance(value, yaml.ScalarNode):
            first[key.value] = _line(key)
            page.key_lines[id(value)] = first[key.value]
            page.error(value, f"facts: {key.value} must be one value (text or a number), not {_kind(value)}")
        elif value.tag == NULL:
            first[key.value] = _line(key)
            page.warning(value, f"facts: {key.value} has no value: give one or leave the line out")
        else:
            first[key.value] = _line(key)
            found.append((key.value, value))
    return found


# -- names and raw files ------------------------------------------------------------------


def _case_clashes(root: Path, paths: list[Path], what: str, problems: list[Problem]) -> list[Path]:
    """Paths that differ from an earlier one only in case: an error each; returned to be left out."""
    keys = [content.relative(path, root).casefold() for path in paths]
    if len(set(keys)) == len(keys):  # the usual case: no two clash, in whatever order they are taken
        return []
    first: dict[str, Path] = {}
    clashing = []
    # Names in lower case first: of two that clash, the one with capitals is the one reported and left out.
    for path in sorted(paths, key=lambda path: (path.name != path.name.lower(), path)):
        key = content.relative(path, root).casefold()
        if key in first:
            other = content.relative(first[key], root)
            message = (
                f"{what} differs from {other} only in case: on a case-insensitive file system or in a URL "
                "one overwrites the other; rename one"
            )
            problems.append(Problem(content.relative(path, root), 1, message))
            clashing.append(path)
        else:
            first[key] = path
    return clashing


def _raw_files(root: Path, bundle: Bundle, checked: BundleChecked, known_text: Callable[[Path], bool] | None) -> None:
    """A report's raw files that are not text, or whose path clashes in case with another's: left out."""
    paths = [path for _, path in bundle.raw_files]
    checked.refused.update(_case_clashes(root, paths, "raw file", checked.problems))
    for path in paths:
        if known_text is not None and known_text(path):
            continue
        refused = binary(path)
        if refused:
            checked.problems.append(Problem(content.relative(path, root), *refused))
            checked.refused.add(path)


def binary(path: Path) -> tuple[int, str] | None:
    """(line, why) a raw file is not text decode.py reads, from its first SNIFF_BYTES; None when it is text.

    Text not in an encoding decode.py knows is said as extract.py says it, at the line it goes wrong."""
    try:
        with path.open("rb") as file:
            data = file.read(SNIFF_BYTES + 1)
    except OSError as exc:
        return 1, f"cannot read: {exc.strerror}"
    complete = len(data) <= SNIFF_BYTES
    data = data[:SNIFF_BYTES]
    # A sample ends at a whole line (UTF-16: a whole code unit); failing that, it may end inside a character.
    cut = not complete
    if cut:
        if data.startswith((b"\xff\xfe", b"\xfe\xff")) or data[:4096].count(0) > 1024:
            data = data[: len(data) // 2 * 2]
        elif b"\n" in data:
            data, cut = data[: data.rfind(b"\n") + 1], False
    try:
        text = decode(data)
    except UnicodeDecodeError as exc:
        if 0 in data:
            return 1, f"a binary file (a NUL byte at byte {data.index(0)}): not read, not published"
        if cut and exc.end >= len(data) - 3:  # the sample ends inside a character: read it without
            return _binary_sample(data[: exc.start])
        return data[: exc.start].count(b"\n") + 1, f"not valid UTF-8 (byte {exc.start}): {exc.reason}"
    return _binary_text(text)


def _binary_sample(data: bytes) -> tuple[int, str] | None:
    try:
        return _binary_text(decode(data))
    except UnicodeDecodeError as exc:
        return data[: exc.start].count(b"\n") + 1, f"not valid UTF-8 (byte {exc.start}): {exc.reason}"


def _binary_text(text: str) -> tuple[int, str] | None:
    """Decoded text that is still not text: a NUL (UTF-16 read from binary data), or control characters."""
    # The rule extraction applies (decode.binary_at): one NUL in a serial console's junk line is text.
    at = binary_at(text)
    if at is not None:
        return text.count(
            "\n", 0, at
        ) + 1, f"a binary file (a NUL character at character {at}): not read, not published"
    controls = len(_CONTROLS.findall(text))
    if controls * 100 > len(text):
        return 1, f"a binary file ({controls} control characters in its first {len(text)}): not read, not published"
    return None


def _aliases_table(root: Path, bundle: Bundle) -> list[Problem]:
    """The report's aliases.yaml, as ingest reads it (aliases.read): a mapping of old ids to ids."""
    from . import aliases

    if not bundle.aliases_path.is_file():
        return []
    where = content.relative(bundle.aliases_path, root)
    text = _read(bundle.aliases_path)
    if isinstance(text, Problem):
        return [Problem(where, text.line, text.message)]
    return aliases.read(where, text)[1]


def manual_files(root: Path, bundles: list[Bundle]) -> list[Problem]:
    """Every manual.yaml held to its schema (manual.parse), as ingest reads it."""
    from . import manual

    problems = []
    for bundle in bundles:
        for _, path in bundle.raw_files:
            if path.name in manual.FILE_NAMES:
                text = _read(path)
                where = content.relative(path, root)
                if isinstance(text, Problem):
                    problems.append(Problem(where, text.line, text.message))
                else:
                    problems += manual.parse(where, text, "")[1]
    return problems


# -- bench suites ---------------------------------------------------------------------


def suite(where: str, path: Path) -> list[Problem]:
    """A bench suite file (bench/runner.py): its keys, its steps' tools, its templates' syntax."""
    page = _Page(where)
    if path.suffix != ".yaml":
        page.warning(1, "not a suite: `perfwiki bench` reads only files named <suite>.yaml here")
        return page.sorted()
    text = _read(path)
    if isinstance(text, Problem):
        page.error(text.line, text.message)
        return page.sorted()
    try:
        node = _compose(text)
    except yaml.YAMLError as exc:
        line, said = _yaml_error(exc, text)
        page.error(line, f"not valid YAML: {said}")
        return page.sorted()
    if not isinstance(node, yaml.MappingNode):
        page.error(node or 1, "a suite is a mapping: description, defaults, target, steps")
        return page.sorted()
    if not _constructible(page, node):
        return page.sorted()
    keys = _keys(page, node, SUITE_KEYS, "a suite")
    _text(page, "description", keys.get("description"))
    target = keys.get("target")
    if target is not None and _text(page, "target", target) is not None:
        _one_of(page, target, "target", SUITE_TARGETS, "a suite target")
    defaults = keys.get("defaults")
    if defaults is not None and not isinstance(defaults, yaml.MappingNode):
        page.error(defaults, f"defaults must be a mapping of names to values (runtime: 30), not {_kind(defaults)}")
    if keys.get("needs_loopback_server") is not None and keys["needs_loopback_server"].tag != BOOL:
        page.error(keys["needs_loopback_server"], "needs_loopback_server must be true or false")
    check_template = _templates(page)
    if keys.get("writes") is not None:
        check_template(keys["writes"], "writes")
    job_files = keys.get("job_files")
    names: set[str] = set()
    if job_files is not None:
        if not isinstance(job_files, yaml.MappingNode):
            page.error(job_files, f"job_files must map file names to their text, not {_kind(job_files)}")
        else:
            for key, value in job_files.value:
                if isinstance(key, yaml.ScalarNode):
                    names.add(key.value)
                    check_template(value, f"job file {key.value}")
                else:
                    page.error(key, f"job_files: a file name must be a word, not {_kind(key)}")
    steps = keys.get("steps")
    if steps is None:
        page.error(node, "a suite needs steps: a list of {label, tool, command, seconds}")
        return page.sorted()
    if not isinstance(steps, yaml.SequenceNode) or not steps.value:
        page.error(steps, "steps must be a list of {label, tool, command, seconds}")
        return page.sorted()
    for number, step in enumerate(steps.value, start=1):
        here = f"step {number}"
        if not isinstance(step, yaml.MappingNode):
            page.error(step, f"{here} must be a mapping (label: …, tool: …, command: …), not {_kind(step)}")
            continue
        fields = _keys(page, step, STEP_KEYS, here)
        for name in ("label", "tool", "command"):
            if name not in fields:
                page.error(step, f"{here} needs a {name}")
        _text(page, f"{here} label", fields.get("label"))
        _text(page, f"{here} section", fields.get("section"))
        _tool(page, f"{here}:", fields.get("tool"))
        for name in ("command", "seconds"):
            if fields.get(name) is not None:
                check_template(fields[name], f"{here} {name}")
        shell = fields.get("shell")
        if shell is not None and shell.tag != BOOL:
            page.error(shell, f"{here} shell must be true or false")
        job = fields.get("show_job_file")
        if job is not None and _text(page, f"{here} show_job_file", job) is not None:
            _one_of(page, job, f"{here} show_job_file", sorted(names), "one of its job_files")
        during = fields.get("during")
        if during is not None:
            _during(page, f"{here} during", during, check_template)
    return page.sorted()


def _during(page: _Page, here: str, node: yaml.Node, check_template: Callable[[yaml.Node, str], None]) -> None:
    """A step's `during:`, the command run alongside it (bench/runner.py _run_alongside)."""
    if not isinstance(node, yaml.MappingNode):
        page.error(node, f"{here} must be a mapping (tool: …, command: …, lead: …), not {_kind(node)}")
        return
    fields = _keys(page, node, DURING_KEYS, here)
    for name in ("tool", "command"):
        if name not in fields:
            page.error(node, f"{here} needs a {name}")
    _text(page, f"{here} label", fields.get("label"))
    _tool(page, f"{here}:", fields.get("tool"))
    for name in ("command", "seconds", "lead"):
        if fields.get(name) is not None:
            check_template(fields[name], f"{here} {name}")


def _templates(page: _Page) -> Callable[[yaml.Node, str], None]:
    """A check of one jinja2 template of a suite: text, and its syntax (runner.plan renders it)."""
    import jinja2

    env = jinja2.Environment(autoescape=False)

    def check(node: yaml.Node, what: str) -> None:
        if not isinstance(node, yaml.ScalarNode) or node.tag == NULL:
            page.error(node, f"{what} must be text, not {_kind(node)}")
            return
        try:
            env.parse(node.value)
        except jinja2.TemplateSyntaxError as exc:
            page.error(node, f"{what}: template error: {exc.message}")

    return check

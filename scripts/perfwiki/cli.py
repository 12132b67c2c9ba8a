"""The `perfwiki` command: argument parsing only; the work is in the modules."""

from __future__ import annotations

import argparse
import functools
import json
import os
import sys
from typing import TYPE_CHECKING, Any

from . import __version__
from .model import Problem, slug

if TYPE_CHECKING:
    from pathlib import Path

# Each command imports what it needs when it runs (`perfwiki parse` never loads the ingest,
# page and bench machinery, nor pathlib): start-up is most of the time a small file takes.
SUITES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "bench", "suites")


class NotASite(Exception):
    """The command was not pointed at a perfwiki site; the message says how to point it."""


def _site_root(root: str | None) -> Path:
    """The site a command works on: `--root`, else the nearest folder upwards with hugo.toml and content/.

    Never the current folder by default: an ingest run from scripts/ by mistake would
    otherwise write a stray data/ and cache there.
    """
    from pathlib import Path

    if root:
        folder = Path(root).resolve()
        if not (folder / "content").is_dir():
            raise NotASite(f"--root {root}: no content/ folder there, so it is not a perfwiki site")
        return folder
    start = Path.cwd().resolve()
    for folder in (start, *start.parents):
        if (folder / "hugo.toml").is_file() and (folder / "content").is_dir():
            return folder
    raise NotASite(f"{start} is not inside a perfwiki site (no folder above holds hugo.toml and content/); use --root")


def cmd_parse(args: argparse.Namespace) -> int:
    """Exit 0 when every file was read, whatever the document says about it (what a file does
    not hold is in its "problems"); 1 when a file could not be read at all."""
    import gc

    from .collector import fewer_collections
    from .extract import assign_ids, extract

    runs, problems = [], []
    unreadable = False
    # The runs of every file are kept to the end: the collector's young collections between files
    # walked them again and again, and what the imports made is never garbage (5 % of 300 files).
    gc.freeze()
    with fewer_collections():
        for name in args.paths:
            try:
                with open(name, "rb") as file:
                    data = file.read()
            except OSError as exc:
                problems.append(Problem(name, 0, f"cannot read: {exc.strerror}"))
                unreadable = True
                continue
            found = extract(name, data)
            runs.extend(found.runs)
            problems.extend(found.problems)
    problems.extend(assign_ids(runs))  # two files that spell the same id: said, as ingest says it
    if args.format == "summary":  # problems are in it, at their runs' files: not said twice
        from .parse_summary import summary

        sys.stdout.write(summary(args.paths, runs, problems))
        return 1 if unreadable else 0
    document = {"runs": [run.to_dict() for run in runs], "problems": [p.to_dict() for p in problems]}
    if args.format == "yaml":
        from . import yamlout

        sys.stdout.write(yamlout.dump(document))
    else:
        sys.stdout.write(json_lines(document))
    for problem in problems:
        print(problem, file=sys.stderr)
    return 1 if unreadable else 0


def cmd_ingest(args: argparse.Namespace) -> int:
    from pathlib import Path

    from .ingest import ingest
    from .parts import PartError, parse
    from .publish import PublishError
    from .redact import ConfigError

    root = _site_root(args.root)
    try:
        part = parse(args.part) if args.part else None
        result = ingest(root, workers=args.jobs, part=part, parts=[Path(site) for site in args.parts or []])
    except PartError as error:
        print(f"perfwiki ingest: {error}", file=sys.stderr)
        return 2
    except ConfigError as error:
        print(f"{error}; data/ left as it was", file=sys.stderr)
        return 2
    except PublishError as error:  # a full disk: says so, and that the site is the one before
        print(f"perfwiki ingest: {error}", file=sys.stderr)
        return 2
    for problem in result.problems:
        print(problem, file=sys.stderr)
    errors = [problem for problem in result.problems if problem.severity == "error"]
    warnings = len(result.problems) - len(errors)
    print(
        f"ingested {result.run_count} runs in {len(result.reports)} reports into {root / 'data'}"
        + (f" (part {args.part})" if args.part else "")
        + (f"; {result.adopted} reports taken from the parts, {result.built} built here" if args.parts else "")
        + (f"; {len(errors)} problems" if errors else "")
        + (f"; {warnings} warning{'s' if warnings != 1 else ''}" if warnings else ""),
        file=sys.stderr,
    )
    return 1 if errors else 0


def cmd_check(args: argparse.Namespace) -> int:
    """Exit 1 when any file has an error (warnings do not count): what ingest would leave out."""
    from . import content, validate
    from .ingest import authored_leaks
    from .redact import ConfigError, Redactor, opted_out, rules_from_config

    root = _site_root(args.root)
    bundles, problems = content.bundles(root)
    checked = validate.site(root, bundles, deep=True)
    problems += checked.problems
    try:
        rules = rules_from_config(root)
    except ConfigError as error:
        problems.append(Problem("hugo.toml", 1, str(error).removeprefix("hugo.toml: ")))
    else:
        # A secret in a report's text is published as written: said before ingest or Hugo run, as ingest says it.
        problems += opted_out(root, rules) + authored_leaks(root, Redactor(rules))
    for problem in problems:
        print(problem, file=sys.stderr)
    errors = sum(problem.severity == "error" for problem in problems)
    warnings = len(problems) - errors
    said = [f"{errors} error{'s' if errors != 1 else ''}"] if errors else []
    said += [f"{warnings} warning{'s' if warnings != 1 else ''}"] if warnings else []
    print(
        f"checked {checked.report_count} reports, {checked.environment_count} environment pages "
        f"and {checked.suite_count} bench suites: {', '.join(said) or 'no problems'}",
        file=sys.stderr,
    )
    return 1 if errors else 0


def cmd_watch(args: argparse.Namespace) -> int:
    from .searchindex import pinned_hugo
    from .watch import watch

    root = _site_root(args.root)
    command = args.command_line[1:] if args.command_line[:1] == ["--"] else args.command_line

    def located(program: str) -> str:
        """Both run in the site's folder: a program named by a path relative to here is still found."""
        return os.path.abspath(program) if os.sep in program else program  # else looked up on PATH

    if command:
        command[0] = located(command[0])
    hugo = None if args.no_search else located(args.hugo) if args.hugo else pinned_hugo()
    return watch(root, hugo, command)


def cmd_facts(args: argparse.Namespace) -> int:
    from pathlib import Path

    from . import yamlout
    from .decode import decode
    from .facts import facts_from_text

    facts: dict[str, str] = {}
    status = 0
    for name in args.paths:
        try:
            facts.update(facts_from_text(decode(Path(name).read_bytes())))
        except (OSError, UnicodeDecodeError) as exc:
            print(f"{name}:0: cannot read: {exc}", file=sys.stderr)
            status = 1
    if not facts:
        print(
            "no environment facts found (uname -a, os-release, lscpu, free, df -h, lsblk, nvme list)", file=sys.stderr
        )
        status = status or 1
    document = {"facts": dict(sorted(facts.items()))}
    if args.format == "json":
        json.dump(document, sys.stdout, ensure_ascii=False, indent=2)
        sys.stdout.write("\n")
    else:
        sys.stdout.write(yamlout.dump(document))
    return status


def cmd_bench(args: argparse.Namespace) -> int:
    import shlex
    import tempfile
    from pathlib import Path

    from .bench import runner

    root = _site_root(args.root)
    for kind, value in (("--env", args.env), ("--report", args.report)):
        if slug(value) != value:
            print(f"{kind} {value!r} must be a slug: lower-case letters, digits and '-'", file=sys.stderr)
            return 2
    if (args.suite is None) == (args.suite_file is None):
        print("perfwiki bench: give a suite name or --suite-file FILE (one of them)", file=sys.stderr)
        return 2
    suite_file = Path(args.suite_file) if args.suite_file else None
    suite = args.suite or slug(suite_file.stem) or "suite"
    chosen = [args.suite] if args.suite else ["--suite-file", args.suite_file]
    words = ["perfwiki", "bench", *chosen, "--env", args.env, "--report", args.report]
    for flag in ("target", "runtime", "size", "server", "repeat"):
        value = getattr(args, flag)
        if value is not None and not (flag == "repeat" and value == 1):
            words += [f"--{flag}", str(value)]
    reproduce = shlex.join(words)
    overrides = {"runtime": args.runtime, "size": args.size, "server": args.server}
    with tempfile.TemporaryDirectory(prefix="perfwiki-bench-") as work:
        try:
            the_plan = runner.plan(suite, args.target, overrides, Path(work), suite_file)
            if args.dry_run:
                for step in the_plan.steps:
                    if step.during:  # started first, left running while the step runs
                        print(f"{step.during.command} &  # {step.lead:g} s before the next, until its own end")
                    print(step.command)
                print(
                    f"{len(the_plan.steps)} commands, about {sum(s.seconds for s in the_plan.steps):.0f} s each pass",
                    file=sys.stderr,
                )
                return 0
            runner.check_target(the_plan, args.allow_destructive, runner.confirm_on_terminal, sys.stderr)
            report_dir = root / "content" / "reports" / args.report
            files = runner.run(the_plan, report_dir / "raw" / args.env, reproduce, args.repeat, sys.stderr)
        except runner.BenchError as exc:
            print(f"perfwiki bench: {exc}", file=sys.stderr)
            return 2
        except KeyboardInterrupt:
            print("\ninterrupted: no partial raw file was written", file=sys.stderr)
            return 130
    for path in files:
        print(f"wrote {path.relative_to(root)}", file=sys.stderr)
    # The report and the environment page are the author's: bench adds to them, never rewrites them.
    said = [runner.ensure_report(report_dir / "index.md", args.env)]
    ask = runner.ask_on_terminal if sys.stdin.isatty() else None
    page = root / "content" / "environments" / f"{args.env}.md"
    facts = runner.capture_facts(the_plan.target_dir, the_plan.context.get("server"))
    said.append(runner.record_facts(page, args.env, facts, args.update_facts, ask, sys.stderr))
    for line in filter(None, said):
        print(line, file=sys.stderr)
    return cmd_ingest(argparse.Namespace(root=str(root), jobs=None, part=None, parts=None))


def cmd_new(args: argparse.Namespace) -> int:
    from . import scaffold

    root = _site_root(args.root)
    try:
        if args.kind == "report":
            made = scaffold.new_report(root, args.name)
            hint = f"next: put raw output under {made[0].parent.relative_to(root)}/raw/<environment>/, then ingest"
        else:
            made = [scaffold.new_environment(root, args.name)]
            hint = f"next: fill in its facts, and name it in a report's environments: and raw/{args.name}/"
    except scaffold.ScaffoldError as error:
        print(f"perfwiki new: {error}", file=sys.stderr)
        return 2
    for path in made:
        print(f"created {path.relative_to(root)}", file=sys.stderr)
    print(hint, file=sys.stderr)
    return 0


def cmd_status(args: argparse.Namespace) -> int:
    from .ingest import stale

    root = _site_root(args.root)
    changed, new, removed = stale(root)
    for label, paths in (
        ("changed since the last ingest", changed),
        ("not ingested yet", new),
        ("ingested but gone", removed),
    ):
        for path in paths:
            print(f"{path}: {label}")
    if not (changed or new or removed):
        print("data/ is up to date with every raw file", file=sys.stderr)
        return 0
    print("run `perfwiki ingest` (or `make ingest`) to bring data/ up to date", file=sys.stderr)
    return 1


def cmd_export(args: argparse.Namespace) -> int:
    from pathlib import Path

    from .files import write_atomically
    from .portable import ExportError, export, warnings
    from .portable.source import local_address, wiki_address

    root = _site_root(args.root)
    try:
        text = export(root, args.report, args.format, args.wiki)
    except ExportError as error:
        print(f"perfwiki export: {error}", file=sys.stderr)
        return 2
    for warning in warnings(root, args.report, args.wiki):
        print(f"perfwiki export: warning: {warning}", file=sys.stderr)
    if args.output == "-":
        sys.stdout.write(text)
    else:
        output = Path(args.output or f"{args.report}.{args.format}")
        write_atomically(output, text)
        print(f"wrote {output} ({len(text.encode('utf-8')):,} bytes)", file=sys.stderr)
    wiki = args.wiki or wiki_address(root)
    if local_address(wiki):
        print(
            f"perfwiki export: its links point to {wiki}, which only this machine serves: "
            "give the wiki's public address with --wiki https://… before attaching it to a ticket",
            file=sys.stderr,
        )
    return 0


def _parse_command(sub: Any) -> None:
    parse = sub.add_parser("parse", help="print the runs found in raw files; writes nothing")
    parse.add_argument("paths", nargs="+", metavar="PATH")
    parse.add_argument(
        "--format",
        choices=("json", "yaml", "summary"),
        default="json",
        help="summary: each run's tool, command and its line, output lines, key result, and every problem",
    )
    parse.set_defaults(func=cmd_parse)


def _facts_command(sub: Any) -> None:
    facts = sub.add_parser("facts", help="environment facts from pasted uname/lscpu/free/df/lsblk/nvme output")
    facts.add_argument("paths", nargs="+", metavar="FILE")
    facts.add_argument("--format", choices=("yaml", "json"), default="yaml")
    facts.set_defaults(func=cmd_facts)


def _bench_command(sub: Any) -> None:
    bench = sub.add_parser("bench", help="run a benchmark suite here and add its raw output to a report")
    suites = sorted(name.removesuffix(".yaml") for name in os.listdir(SUITES) if name.endswith(".yaml"))
    bench.add_argument("suite", nargs="?", help=", ".join(suites))
    bench.add_argument("--suite-file", metavar="FILE", help="a suite of your own, in the format of bench/suites/*.yaml")
    bench.add_argument(
        "--update-facts", action="store_true", help="write facts gathered here that differ into the environment page"
    )
    bench.add_argument("--env", required=True, help="environment id (content/environments/<id>.md)")
    bench.add_argument("--report", required=True, help="report slug (content/reports/<slug>/)")
    bench.add_argument("--target", help="directory (or file) to test in; a raw block device needs --allow-destructive")
    bench.add_argument("--runtime", type=int, help="seconds per timed run")
    bench.add_argument("--size", help="test file size, fio style: 4G, 512M")
    bench.add_argument("--server", help="iperf3 server for the network suite (default: a loopback server started here)")
    bench.add_argument("--repeat", type=int, default=1, help="run the suite N times; comparisons show the median")
    bench.add_argument("--dry-run", action="store_true", help="print the exact commands and stop")
    bench.add_argument("--allow-destructive", action="store_true", help="allow a raw block device as --target")
    bench.add_argument("--root", help="site root (default: nearest folder with hugo.toml)")
    bench.set_defaults(func=cmd_bench)


def _new_command(sub: Any) -> None:
    new = sub.add_parser("new", help="a commented report or environment file to fill in; never overwrites")
    new.add_argument("kind", choices=("report", "environment"))
    new.add_argument("name", metavar="SLUG|ID", help="the report's slug or the environment's id")
    new.add_argument("--root", help="site root (default: nearest folder with hugo.toml)")
    new.set_defaults(func=cmd_new)


def _status_command(sub: Any) -> None:
    status = sub.add_parser("status", help="list raw files changed, added or removed since the last ingest")
    status.add_argument("--root", help="site root (default: nearest folder with hugo.toml)")
    status.set_defaults(func=cmd_status)


def _export_command(sub: Any) -> None:
    export = sub.add_parser("export", help="one report as a self-contained HTML file or a markdown summary")
    export.add_argument("report", help="report slug (content/reports/<slug>/)")
    export.add_argument("--format", choices=("html", "md"), default="html")
    export.add_argument("--output", "-o", help="file to write (default: <report>.<format>; - for standard output)")
    export.add_argument("--wiki", help="the wiki's address, for links back to it (default: hugo.toml's baseURL)")
    export.add_argument("--root", help="site root (default: nearest folder with hugo.toml)")
    export.set_defaults(func=cmd_export)


def _check_command(sub: Any) -> None:
    check = sub.add_parser("check", help="check every report, environment page and bench suite; writes nothing")
    check.add_argument("--root", help="site root (default: nearest folder with hugo.toml)")
    check.set_defaults(func=cmd_check)


def _ingest_command(sub: Any) -> None:
    ingest_cmd = sub.add_parser("ingest", help="read content/, write data/")
    ingest_cmd.add_argument("--root", help="site root (default: nearest folder with hugo.toml)")
    ingest_cmd.add_argument("--jobs", "-j", type=int, help="worker processes (default: one per core)")
    ingest_cmd.add_argument(
        "--part", metavar="K/N", help="build and publish only the K-th of N parts of the reports (one machine's share)"
    )
    ingest_cmd.add_argument(
        "--parts",
        nargs="+",
        metavar="SITE",
        help="sites where `ingest --part` ran: their reports are taken from there, the rest built here",
    )
    ingest_cmd.set_defaults(func=cmd_ingest)


def _watch_command(sub: Any) -> None:
    watch = sub.add_parser(
        "watch",
        help="ingest, then ingest again on every save under content/; with `-- COMMAND` run it beside (make serve)",
    )
    watch.add_argument("--root", help="site root (default: nearest folder with hugo.toml)")
    watch.add_argument("--hugo", help="Hugo binary for the search index (default: the pinned one)")
    watch.add_argument("--no-search", action="store_true", help="do not rebuild the Pagefind index after each ingest")
    watch.add_argument("command_line", nargs=argparse.REMAINDER, metavar="-- COMMAND", help="e.g. -- hugo server ...")
    watch.set_defaults(func=cmd_watch)


# Each command's arguments, added to the parser by name: `perfwiki parse` builds only its own
# (every command's parser was 5 ms of the start-up that a small file's parse mostly is).
COMMANDS = {
    "parse": _parse_command,
    "facts": _facts_command,
    "bench": _bench_command,
    "new": _new_command,
    "status": _status_command,
    "export": _export_command,
    "check": _check_command,
    "ingest": _ingest_command,
    "watch": _watch_command,
}


def _columns() -> int:
    """The terminal's width as shutil.get_terminal_size gives it: $COLUMNS, else the terminal's, else 80."""
    try:
        columns = int(os.environ["COLUMNS"])
    except (KeyError, ValueError):
        columns = 0
    if columns <= 0:
        try:
            columns = os.get_terminal_size(sys.__stdout__.fileno()).columns
        except (AttributeError, ValueError, OSError):
            columns = 0
    return columns or 80


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The `perfwiki` parser: every command, or with `only` that command alone (its usage, help and
    errors are the same as in the whole parser's)."""
    # argparse sizes its help to the terminal through shutil, 2 ms of imports for a width: read here.
    formatter = functools.partial(argparse.HelpFormatter, width=_columns() - 2)
    parser = argparse.ArgumentParser(
        prog="perfwiki", description="Publish benchmark reports from raw tool output.", formatter_class=formatter
    )
    parser.add_argument("--version", action="version", version=f"perfwiki {__version__}")
    sub = parser.add_subparsers(
        dest="command",
        required=True,
        parser_class=functools.partial(argparse.ArgumentParser, formatter_class=formatter),
    )
    for name, add in COMMANDS.items():
        if only is None or name == only:
            add(sub)
    return parser


def json_lines(document: dict[str, list[Any]]) -> str:
    """The document as JSON with one item of each list per line: diffable and greppable.

    Each item is written as data/ files are (datafile.dump: orjson, keys sorted, compact): json's C
    encoder took 27 ms of the 200 that 300 fio JSON runs take to parse, orjson 5.5.
    """
    from .datafile import dump

    def items(values: list[Any]) -> str:
        inner = ",\n".join(dump(value)[:-1] for value in values)
        return f"[\n{inner}\n]" if values else "[]"

    fields = ",\n".join(f"{json.dumps(key)}: {items(values)}" for key, values in sorted(document.items()))
    return "{\n" + fields + "\n}\n"


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    # The first word names the command unless it is an option (--version, --help): the whole parser.
    only = argv[0] if argv and argv[0] in COMMANDS else None
    args = build_parser(only).parse_args(argv)
    try:
        return args.func(args)
    except NotASite as error:
        print(f"perfwiki: {error}", file=sys.stderr)
        return 2


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())

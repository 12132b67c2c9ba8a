"""The `perfwiki` command: argument parsing only; the work is in the modules."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from . import __version__
from .extract import assign_ids, decode, extract
from .facts import facts_from_text
from .ingest import dump_yaml, ingest
from .model import Problem


def _find_root(start: Path) -> Path:
    """The site root: the nearest folder upwards holding hugo.toml and content/."""
    for folder in (start, *start.parents):
        if (folder / "hugo.toml").is_file() and (folder / "content").is_dir():
            return folder
    return start


def cmd_parse(args: argparse.Namespace) -> int:
    runs, problems = [], []
    for name in args.paths:
        path = Path(name)
        try:
            data = path.read_bytes()
        except OSError as exc:
            problems.append(Problem(name, 0, f"cannot read: {exc.strerror}"))
            continue
        found = extract(name, data)
        runs.extend(found.runs)
        problems.extend(found.problems)
    assign_ids(runs)
    document = {"runs": [run.to_dict() for run in runs], "problems": [p.to_dict() for p in problems]}
    if args.format == "yaml":
        sys.stdout.write(dump_yaml(document))
    else:
        json.dump(document, sys.stdout, ensure_ascii=False, indent=2, sort_keys=True)
        sys.stdout.write("\n")
    for problem in problems:
        print(problem, file=sys.stderr)
    return 1 if problems else 0


def cmd_ingest(args: argparse.Namespace) -> int:
    root = Path(args.root).resolve() if args.root else _find_root(Path.cwd())
    result = ingest(root)
    for problem in result.problems:
        print(problem, file=sys.stderr)
    print(
        f"ingested {result.run_count} runs in {len(result.reports)} reports into {root / 'data'}"
        + (f"; {len(result.problems)} problems" if result.problems else ""),
        file=sys.stderr,
    )
    return 1 if result.problems else 0


def cmd_facts(args: argparse.Namespace) -> int:
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
        sys.stdout.write(dump_yaml(document))
    return status


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="perfwiki", description="Publish benchmark reports from raw tool output.")
    parser.add_argument("--version", action="version", version=f"perfwiki {__version__}")
    sub = parser.add_subparsers(dest="command", required=True)

    parse = sub.add_parser("parse", help="print the runs found in raw files; writes nothing")
    parse.add_argument("paths", nargs="+", metavar="PATH")
    parse.add_argument("--format", choices=("json", "yaml"), default="json")
    parse.set_defaults(func=cmd_parse)

    facts = sub.add_parser("facts", help="environment facts from pasted uname/lscpu/free/df/lsblk/nvme output")
    facts.add_argument("paths", nargs="+", metavar="FILE")
    facts.add_argument("--format", choices=("yaml", "json"), default="yaml")
    facts.set_defaults(func=cmd_facts)

    ingest_cmd = sub.add_parser("ingest", help="read content/, write data/")
    ingest_cmd.add_argument("--root", help="site root (default: nearest folder with hugo.toml)")
    ingest_cmd.set_defaults(func=cmd_ingest)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    return args.func(args)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())

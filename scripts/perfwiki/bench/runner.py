"""Render a suite into commands, check the target, run them, store the transcripts, record facts.

A transcript is what a person would paste, and what every parser already reads::

    # perfwiki bench smoke --env laptop --report quick --target /tmp/bench
    # fio 4k randread
    $ fio --name=smoke --filename=/tmp/bench/perfwiki-bench.data ...
    <fio's output>

The first line is the `perfwiki bench` command that produced the file: run pages
show it as the way to reproduce the result.
"""

from __future__ import annotations

import datetime as _dt
import os
import re
import shlex
import shutil
import socket
import stat
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, TextIO

import jinja2
import yaml

from .. import progress, scaffold, tools, units
from ..content import FrontMatterError, read_front_matter
from ..facts import facts_from_text
from ..files import write_atomically
from ..tools.base import Tool
from ..tools.fio import logs as fio_logs
from . import frontmatter

SUITES = Path(__file__).resolve().parent / "suites"
TARGET_FILE = "perfwiki-bench.data"


class BenchError(Exception):
    """A suite that cannot run as asked; the message says why and what to do."""


@dataclass
class Step:
    label: str
    tool: str
    command: str
    seconds: float
    shell: bool = False
    job_file: tuple[str, str] | None = None  # (path, text) written before the command runs
    # A command run alongside this one (ping while iperf3 loads the path): started `lead` seconds
    # before it, left to end on its own (its own deadline), its output shown before this step's.
    during: Step | None = None
    lead: float = 0.0


@dataclass
class Plan:
    suite: str
    steps: list[Step]
    target: str | None
    target_dir: str | None
    needs_bytes: int = 0
    loopback_server: bool = False
    context: dict[str, Any] = field(default_factory=dict)


def suite_names() -> list[str]:
    return sorted(path.stem for path in SUITES.glob("*.yaml"))


def load_suite(name: str, path: Path | None = None) -> dict[str, Any]:
    """A suite by its name (suites/<name>.yaml), or the suite file at `path` (`--suite-file`)."""
    if path is None:
        path = SUITES / f"{name}.yaml"
        if not path.is_file():
            raise BenchError(f"unknown suite {name!r}; one of: {', '.join(suite_names())}")
    try:
        suite = yaml.safe_load(path.read_text(encoding="utf-8"))
    except OSError as error:
        raise BenchError(f"{path}: cannot read: {error.strerror}") from None
    except UnicodeDecodeError as error:
        raise BenchError(f"{path}:1: not UTF-8 text ({error.reason})") from None
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None)
        line = mark.line + 1 if mark is not None else 1
        raise BenchError(f"{path}:{line}: not valid YAML: {getattr(error, 'problem', None) or error}") from None
    steps = suite.get("steps") if isinstance(suite, dict) else None
    if not isinstance(steps, list) or not steps or not all(isinstance(step, dict) for step in steps):
        raise BenchError(f"{path}:1: a suite is a mapping with `steps:`, a list of {{label, tool, command}}")
    for number, step in enumerate(steps, 1):
        missing = [key for key in ("label", "tool", "command") if not step.get(key)]
        if missing:
            raise BenchError(f"{path}: step {number} has no {', '.join(missing)}")
    return suite


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _size_bytes(text: Any) -> int:
    try:
        return int(units.parse_fio_option_size(str(text)))
    except units.UnitError:
        return 0


def plan(
    name: str, target: str | None, overrides: dict[str, Any], work_dir: Path, suite_file: Path | None = None
) -> Plan:
    """The suite's commands with every value substituted; nothing runs. A suite file's name is its stem."""
    suite = load_suite(name, suite_file)
    context: dict[str, Any] = dict(suite.get("defaults") or {})
    context.update({key: value for key, value in overrides.items() if value is not None})
    context.setdefault("cpus", os.cpu_count() or 1)
    kind = suite.get("target", "none")
    target_path = target_dir = None
    if kind in ("file", "directory"):
        if not target:
            raise BenchError(f"suite {name} needs --target DIR (a directory to write its test file in)")
        path = Path(target)
        if path.is_dir():
            target_dir = str(path)
            target_path = str(path / TARGET_FILE)
        else:
            target_path = str(path)
            target_dir = str(path.parent)
    context.update({"target": target_path, "target_dir": target_dir})
    if suite.get("needs_loopback_server"):
        context.setdefault("server", "127.0.0.1")
        loopback = context["server"] == "127.0.0.1"
        # iperf3's and iperf2's servers, each on its own port (their defaults against a remote server)
        context.setdefault("port", _free_port() if loopback else 5201)
        context.setdefault("iperf2_port", _free_port() if loopback else 5001)
    job_files = {filename: str(work_dir / filename) for filename in (suite.get("job_files") or {})}
    context["job_file"] = lambda filename: job_files[filename]
    env = jinja2.Environment(undefined=jinja2.StrictUndefined, autoescape=False)

    def render(template: str) -> str:
        try:
            return " ".join(env.from_string(str(template)).render(**context).split())
        except jinja2.UndefinedError as exc:
            raise BenchError(f"suite {name}: {exc.message}") from exc

    steps = []
    for raw in suite.get("steps", []):
        if raw.get("tool") not in tools.NAMES:
            raise BenchError(f"suite {name}: step {raw.get('label')!r} runs {raw.get('tool')!r}, not a known tool")
        label = f"{raw['section']} / {raw['label']}" if raw.get("section") else raw["label"]
        label = render(label)  # a label may name a suite value ("UDP, {{ udp_rate }}bit/s offered")
        job = raw.get("show_job_file")
        job_file = None
        if job:
            text = env.from_string(suite["job_files"][job]).render(**context)
            job_file = (job_files[job], text)
        during = raw.get("during")
        alongside = None
        if during:
            if during.get("tool") not in tools.NAMES or not during.get("command"):
                raise BenchError(f"suite {name}: step {raw.get('label')!r}: `during:` needs a known tool and a command")
            alongside = Step(
                label=render(str(during.get("label") or f"{during['tool']} during {label}")),
                tool=during["tool"],
                command=render(during["command"]),
                seconds=float(render(during.get("seconds", "1"))),
            )
        steps.append(
            Step(
                label=label,
                tool=raw["tool"],
                command=render(raw["command"]),
                seconds=float(render(raw.get("seconds", "1"))),
                shell=bool(raw.get("shell")),
                job_file=job_file,
                during=alongside,
                lead=float(render((during or {}).get("lead", "0"))),
            )
        )
    # Free space the suite needs in its target: its test file's size, or what it says it writes.
    needs = _size_bytes(context.get("size")) if kind == "file" else 0
    if suite.get("writes"):
        needs = max(needs, _size_bytes(render(suite["writes"])))
    return Plan(name, steps, target_path, target_dir, needs, bool(suite.get("needs_loopback_server")), context)


# -- safety ------------------------------------------------------------------------


def check_target(the_plan: Plan, allow_destructive: bool, confirm: Callable[[str], str] | None, out: TextIO) -> None:
    """Refuse what could destroy data or fill a disk; raw block devices need an explicit yes."""
    if the_plan.target is None:
        return
    target = Path(the_plan.target)
    if target.exists() and stat.S_ISBLK(target.stat().st_mode):
        if not allow_destructive:
            raise BenchError(
                f"{target} is a block device: writing to it destroys its data. "
                "Pass --allow-destructive to confirm you mean it, or --target a directory instead."
            )
        if confirm is None:
            raise BenchError(f"{target} is a block device and there is no terminal to confirm on; refusing")
        answer = confirm(f"This overwrites {target}. Type its path to continue: ")
        if answer.strip() != str(target):
            raise BenchError("not confirmed; nothing was run")
        return
    directory = Path(the_plan.target_dir or ".")
    if not directory.is_dir():
        raise BenchError(f"target directory {directory} does not exist")
    free = shutil.disk_usage(directory).free
    needed = int(the_plan.needs_bytes * 1.1)
    if needed > free:
        raise BenchError(
            f"{directory} has {units.format_bytes(free)} free, the suite needs about {units.format_bytes(needed)}; "
            "use --size to shrink it or --target another directory"
        )


# -- running --------------------------------------------------------------------------


# The suite variable that holds each client/server tool's port ("port" for any other).
_PORTS = {"iperf2": "iperf2_port"}


class _LoopbackServer:
    """The server of a client/server tool on 127.0.0.1 for the suite's duration: no second machine needed."""

    def __init__(self, tool: Tool, port: int):
        self.process = subprocess.Popen(
            [word.replace("{port}", str(port)) for word in tool.loopback_server],
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        for line in self.process.stdout:
            if tool.server_ready in line:
                break

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
        self.process.stdout.close()


def _run_step(step: Step, cwd: Path) -> str:
    if step.during:
        return _run_alongside(step, cwd)
    if step.job_file:
        Path(step.job_file[0]).write_text(step.job_file[1], encoding="utf-8")
    args = ["bash", "-c", step.command] if step.shell else shlex.split(step.command)
    result = subprocess.run(
        args,
        capture_output=True,
        text=True,
        timeout=step.seconds * 3 + 120,
        env={**os.environ, "LC_ALL": "C"},
        cwd=cwd,
    )
    output = result.stdout + result.stderr
    if step.job_file:
        output = step.job_file[1].rstrip("\n") + "\n" + output
    return output


def _run_alongside(step: Step, cwd: Path) -> str:
    """The step with its `during` command around it: both outputs as a person would paste them,
    the one that ran alongside first, each after its own command line."""
    beside = step.during
    process = subprocess.Popen(
        shlex.split(beside.command),
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env={**os.environ, "LC_ALL": "C"},
        cwd=cwd,
    )
    try:
        time.sleep(step.lead)
        output = _run_step(replace(step, during=None), cwd)
        alongside, _ = process.communicate(timeout=beside.seconds * 3 + 120)
    finally:
        if process.poll() is None:
            process.kill()
            process.communicate()
    return "\n".join([alongside.rstrip("\n"), "", f"# {step.label}", f"$ {step.command}", output.rstrip("\n")])


def run(the_plan: Plan, raw_dir: Path, reproduce: str, repeat: int, out: TextIO) -> list[Path]:
    """Run the plan `repeat` times; each repetition becomes one transcript file, written whole or not at all."""
    raw_dir.mkdir(parents=True, exist_ok=True)
    written = []
    needed = {step.tool: tools.get(step.tool) for step in the_plan.steps if tools.get(step.tool).loopback_server}
    servers = (
        [_LoopbackServer(tool, the_plan.context[_PORTS.get(name, "port")]) for name, tool in needed.items()]
        if the_plan.loopback_server and the_plan.context.get("server") == "127.0.0.1"
        else []
    )
    total = len(the_plan.steps) * repeat
    expected = sum(step.seconds for step in the_plan.steps) * repeat
    started, done = time.monotonic(), 0
    try:
        for _ in range(repeat):
            lines = [f"# {reproduce}"]
            target = _next_name(raw_dir, the_plan.suite)
            for step in the_plan.steps:
                elapsed = time.monotonic() - started
                progress.draw(out, done, total, max(expected - elapsed, 0), step.label)
                # Each step in a scratch folder: what it leaves there (fio's logs) goes beside the transcript.
                with tempfile.TemporaryDirectory(prefix="perfwiki-bench-") as scratch:
                    output = _run_step(step, Path(scratch))
                    _keep_logs(Path(scratch), raw_dir / target.stem)
                # A command that ran alongside this one comes first, under its own label and line.
                first = step.during or step
                lines += [f"# {first.label}", f"$ {first.command}", output.rstrip("\n"), ""]
                done += 1
            write_atomically(target, "\n".join(lines) + "\n")
            written.append(target)
        progress.draw(out, done, total, 0, "done")
        out.write("\n")
    finally:
        for server in servers:
            server.stop()
        if the_plan.target and Path(the_plan.target).name == TARGET_FILE and Path(the_plan.target).is_file():
            Path(the_plan.target).unlink()  # the test file is scratch, not a result
    return written


def _keep_logs(scratch: Path, folder: Path) -> None:
    """fio's logs a step wrote (--write_bw_log and the like), into the transcript's own folder: ingest
    gives them to the run whose command wrote them (tools/fio/logs.py). Other leftovers are scratch."""
    for path in sorted(scratch.iterdir()):
        if path.is_file() and fio_logs.is_log(path.name):
            folder.mkdir(parents=True, exist_ok=True)
            shutil.move(path, folder / path.name)


def _next_name(raw_dir: Path, suite: str) -> Path:
    stamp = _dt.datetime.now().strftime("%Y%m%d-%H%M%S")
    candidate, counter = raw_dir / f"{suite}-{stamp}.txt", 2
    while candidate.exists():
        candidate, counter = raw_dir / f"{suite}-{stamp}-{counter}.txt", counter + 1
    return candidate


# -- facts -----------------------------------------------------------------------------


_FACT_COMMANDS = ["uname -a", "cat /etc/os-release", "lscpu", "free -h", "lsblk"]


# A network suite's path: the interface the route to the server leaves by, as `perfwiki facts` reads them.
_NETWORK_FACT_COMMANDS = [
    "ip -d link show dev {dev}",
    "ethtool {dev}",
    "ethtool -i {dev}",
    "ethtool -k {dev}",
    "tc qdisc show dev {dev}",
    "sysctl net.ipv4.tcp_congestion_control",
]
_ROUTE_DEV = re.compile(r"\bdev (\S+)")


def _route_device(server: str) -> str | None:
    """The interface traffic to `server` leaves by (`ip route get`), `lo` for this machine itself."""
    if not shutil.which("ip"):
        return None
    route = subprocess.run(["ip", "route", "get", server], capture_output=True, text=True)
    match = _ROUTE_DEV.search(route.stdout)
    return match.group(1) if match else None


def capture_facts(target_dir: str | None, server: str | None = None) -> dict[str, str]:
    """This machine's facts: the same commands a person would paste, read by `perfwiki facts`; with
    a `server` (a network suite), the facts of the interface the path to it leaves by too."""
    text = []
    commands = list(_FACT_COMMANDS)
    device = _route_device(server) if server else None
    if device:
        commands += [command.format(dev=shlex.quote(device)) for command in _NETWORK_FACT_COMMANDS]
    for command in commands:
        result = subprocess.run(
            ["bash", "-c", command], capture_output=True, text=True, env={**os.environ, "LC_ALL": "C"}
        )
        text.append(result.stdout)
    facts = facts_from_text("\n".join(text))
    if target_dir:
        facts.update(_filesystem_facts(target_dir))
    facts.update(_virtualisation())
    return facts


def _virtualisation() -> dict[str, str]:
    """The hypervisor under this machine and the container around the tests, apart: plain
    `systemd-detect-virt` names the innermost only, and called a container in a KVM guest's
    hypervisor "docker"."""
    if not shutil.which("systemd-detect-virt"):
        return {}
    found = {}
    for flag, fact in (("--vm", "hypervisor"), ("--container", "container")):
        said = subprocess.run(["systemd-detect-virt", flag], capture_output=True, text=True).stdout.strip()
        if said and said != "none":
            found[fact] = said
        elif said == "none" and fact == "hypervisor":
            found[fact] = "none (bare metal)"
    return found


def _filesystem_facts(directory: str) -> dict[str, str]:
    found: dict[str, str] = {}
    mount = subprocess.run(
        ["findmnt", "-no", "SOURCE,FSTYPE,OPTIONS,TARGET", "-T", directory], capture_output=True, text=True
    )
    parts = mount.stdout.split()
    if len(parts) >= 4:
        source, fstype, options, mountpoint = parts[:4]
        found.update({"filesystem": f"{fstype} on {source}, mounted at {mountpoint}", "mount_options": options})
        device = Path(source).name
        for candidate in (device, device.rstrip("0123456789").rstrip("p")):
            scheduler = Path(f"/sys/block/{candidate}/queue/scheduler")
            if scheduler.is_file():
                found["scheduler"] = scheduler.read_text().strip()
                rotational = Path(f"/sys/block/{candidate}/queue/rotational").read_text().strip()
                found["rotational"] = f"{candidate}: " + (
                    "rotational (HDD)" if rotational == "1" else "SSD (non-rotational)"
                )
                break
    return found


def record_facts(
    page: Path, env_id: str, facts: dict[str, str], update: bool, ask: Callable[[str], bool] | None, out: TextIO
) -> str:
    """Facts gathered here onto the environment page, never over what it says unasked.

    A new page is written with them. On an existing page, facts that differ or are missing are shown;
    they are written (into its `facts:`, the rest of the text as it was) with `update`, or when `ask`
    (a terminal) says yes; otherwise the page is left as it is. Returns what was done, for the log.
    """
    where = f"content/environments/{page.name}"
    if not page.is_file():
        front: dict[str, Any] = {"title": env_id}
        if "hypervisor" in facts:
            front["kind"] = "baremetal" if facts["hypervisor"].startswith("none") else "vm"
        front["facts"] = dict(sorted(facts.items()))
        body = "Facts captured by `perfwiki bench` on the machine itself.\n"
        page.parent.mkdir(parents=True, exist_ok=True)
        write_atomically(page, "---\n" + yaml.safe_dump(front, allow_unicode=True, sort_keys=False) + "---\n" + body)
        return f"facts added to {where}: {', '.join(sorted(facts))}"
    text = page.read_text(encoding="utf-8-sig")
    try:
        known = read_front_matter(page).get("facts")
    except (yaml.YAMLError, FrontMatterError) as error:
        line = f":{error.line}" if isinstance(error, FrontMatterError) else ""
        return f"{where}{line}: its front matter cannot be read ({error}); the facts gathered here were not written"
    known = known if isinstance(known, dict) else {}
    differ = {key: value for key, value in sorted(facts.items()) if str(known.get(key, "")).strip() != value}
    if not differ:
        return ""
    out.write(f"{where}: the facts gathered here differ from the page's:\n")
    for key, value in differ.items():
        was = f"{known[key]!r}" if key in known else "(not on the page)"
        out.write(f"  {key}: {was} -> {value!r}\n")
    if not (update or (ask is not None and ask(f"Write these facts into {where}? [y/N] "))):
        return f"left {where} as it is; `--update-facts` writes the facts gathered here into it"
    try:
        write_atomically(page, frontmatter.set_facts(text, differ))
    except frontmatter.FrontMatterError as error:
        return f"{where}: {error}; left as it is, add the facts above by hand"
    return f"facts updated in {where}: {', '.join(differ)}"


def ensure_report(index: Path, env_id: str) -> str:
    """The report lists the environment in its `environments:` (the rest of its text kept); a missing
    report is made from `perfwiki new report`'s scaffold. Returns what was done, for the log."""
    where = f"content/reports/{index.parent.name}/index.md"
    if not index.is_file():
        index.parent.mkdir(parents=True, exist_ok=True)
        scaffold.report_scaffold(index, env_id)
        return f"created {where} (fill in its title and summary)"
    try:
        text = frontmatter.add_environment(index.read_text(encoding="utf-8-sig"), env_id)
    except frontmatter.FrontMatterError as error:
        return f"{where}: {error}; add {env_id} to its environments: by hand"
    if text is None:
        return ""
    write_atomically(index, text)
    return f"added {env_id} to the environments: of {where}"


def ask_on_terminal(prompt: str) -> bool:
    return input(prompt).strip().lower() in ("y", "yes")


def confirm_on_terminal(prompt: str) -> str:
    if not sys.stdin.isatty():
        raise BenchError("a raw block device needs a typed confirmation, and there is no terminal")
    return input(prompt)

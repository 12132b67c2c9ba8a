"""fio options as people write them on the command line, normalised to params.

`sudo fio --name=x --bs=4k --iodepth=4096 --rw=randread --direct=1 --runtime=1m`
becomes {name, rw, bs_bytes, iodepth, ioengine, direct, runtime_s, ...}. Option
values use fio's own conventions (sizes in kb_base 1024, times in seconds
unless suffixed), converted by `units`.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from ... import units
from ...shell import basename, shell_words
from ..programs import PROGRAMS

# The names fio is run by.
COMMANDS = PROGRAMS["fio"][0]


def _flag(value: str) -> bool:
    return value.strip().lower() not in ("0", "false", "no", "off")


# fio engines that submit one I/O at a time: iodepth above 1 changes nothing.
SYNC_ENGINES = {"sync", "psync", "vsync", "pvsync", "pvsync2", "mmap"}

# A run's value of a key its job sections differ in (job_params.py): `params["jobs"]` has each one's.
MIXED = "mixed"


def per_job(params: dict[str, Any]) -> list[dict[str, Any]]:
    """Each job section's params (the run's, with its own values over them), or the run's alone."""
    return [{**params, **job} for job in params.get("jobs") or ()] or [params]


# Engines fio builds on Linux alone (its Makefile's Linux sources), and Windows' own.
_LINUX_ENGINES = {"libaio", "io_uring", "io_uring_cmd", "sg", "splice", "falloc", "e4defrag", "binject"}


def ran_on(params: dict[str, Any], metrics: dict[str, Any]) -> str | None:
    """ "linux" or "windows" when the run itself shows which, else None.

    fio prints its disk statistics on Linux alone (diskutil.c is in its Makefile's Linux sources),
    so a run that has them ran there, whatever its filename looks like; so did one on a Linux-only
    engine. windowsaio exists on Windows alone."""
    engines = {job.get("ioengine") for job in per_job(params)}
    if metrics.get("disks") or engines & _LINUX_ENGINES:
        return "linux"
    return "windows" if "windowsaio" in engines else None


def effective_depth(params: dict[str, Any], platform: str | None = None) -> int | str | None:
    """The queue depth the device saw: a synchronous engine (psync, sync, …) submits one I/O at a
    time whatever iodepth says (fio's HOWTO; fio 3.x even prints "queue depth will be capped at 1"),
    and so, on Linux (`platform`, from `ran_on`), does posixaio. MIXED where the run's job sections
    saw different depths."""
    if params.get("jobs"):
        depths = {_one_depth(job, platform) for job in per_job(params)}
        return depths.pop() if len(depths) == 1 else MIXED
    return _one_depth(params, platform)


def serialised_by(params: dict[str, Any], platform: str | None = None) -> str | None:
    """What runs the job one request at a time whatever iodepth says, as its depth is labelled
    ('psync', 'buffered libaio', 'posixaio on Linux'), else None."""
    engine = params.get("ioengine")
    if engine in SYNC_ENGINES:
        return str(engine)
    # fio's HOWTO on libaio: "Linux may only support queued behavior with non-buffered I/O (set
    # direct=1 or buffered=0)". Buffered, each submission completes before the next is sent.
    if engine == "libaio" and io_mode(params) == "buffered":
        return "buffered libaio"
    # Linux's POSIX AIO is glibc's, in threads, and glibc queues a file's requests behind the one in
    # progress (aio_misc.c: "The current file descriptor is worked on"; fio issue #718): fio keeps
    # iodepth requests queued, the disk sees one at a time. fio's own "IO depths" line cannot tell.
    if engine == "posixaio" and platform == "linux":
        return "posixaio on Linux"
    return None


def _one_depth(params: dict[str, Any], platform: str | None) -> int | None:
    depth = params.get("iodepth")
    return 1 if depth is not None and serialised_by(params, platform) else depth


def io_mode(params: dict[str, Any]) -> str | None:
    """Direct or buffered I/O: what the command's flags resolved to, else what a manual entry states."""
    if params.get("io_mode"):
        return params["io_mode"]
    if params.get("direct") is not None:
        return "direct" if params["direct"] else "buffered"
    if params.get("buffered") is not None:
        return "buffered" if params["buffered"] else "direct"
    return None


# fio's defaults, as `fio --cmdhelp=<option>` prints them (fio 3.33): what a job ran with when no
# option set them. ioengine's is psync everywhere but Windows (windowsaio), since fio 3.
DEFAULTS: dict[str, Any] = {"rw": "read", "bs_bytes": 4096, "iodepth": 1, "numjobs": 1}


def in_effect(
    params: dict[str, Any], *, complete: bool, version: str | None, printed: tuple[str, ...] = ()
) -> dict[str, Any]:
    """`params` with fio's defaults where nothing set the option, when the run's options are `complete`.

    Complete: its command line, a job file shown with it, or fio's JSON (whose "job options" are
    every option the job was given) says every option it had, so an option missing was fio's
    default. One command captured as text and as JSON then gives one scenario: the text header
    prints ioengine and iodepth, the JSON only what was set. fio's text output alone never
    prints direct= (nor terse output anything): there a default would be a guess, and stays None.
    `printed` are the params fio's output showed itself (its text header's rw, bs, ioengine, iodepth):
    None there is what fio printed (a block size range), not a default. Nor is bs= a default beside
    bssplit= or bsrange=, which fio uses instead.
    """
    if not complete:
        return params
    unset = [key for key in DEFAULTS if params.get(key) is None and key not in printed]
    if params.get("bssplit") or params.get("bsrange"):
        unset = [key for key in unset if key != "bs_bytes"]
    filled = {**params, **{key: DEFAULTS[key] for key in unset}}
    if io_mode(params) is None:
        filled["direct"] = False  # fio's direct=0: buffered
    major = re.match(r"(\d+)\.", version or "")
    if params.get("ioengine") is None and "ioengine" not in printed and major and int(major[1]) >= 3:
        target = str(params.get("filename") or "")
        filled["ioengine"] = "windowsaio" if target.startswith("\\\\.\\") or target[1:2] == ":" else "psync"
    return filled


def depth_text(params: dict[str, Any], platform: str | None = None) -> str | None:
    """'QD16', or 'QD1 (iodepth=64, psync)' when the engine ignores the depth asked, 'QD1 (iodepth=64,
    buffered libaio)' when the page cache does, 'QD1 (iodepth=16, posixaio on Linux)' when glibc does."""
    depth = effective_depth(params, platform)
    if depth is None:
        return None
    if depth == MIXED:
        return "mixed QD"
    asked = params.get("iodepth")
    if asked in (depth, MIXED):  # a mixed iodepth asked that every job saw as one depth: say that one
        return f"QD{depth}"
    return f"QD{depth} (iodepth={asked}, {serialised_by(params, platform) or params.get('ioengine')})"


# option name -> (param name, converter)
_OPTIONS: dict[str, tuple[str, Callable[[str], Any]]] = {
    "name": ("name", str),
    "rw": ("rw", str),
    "readwrite": ("rw", str),
    "description": ("description", str),
    "bssplit": ("bssplit", str),
    "bsrange": ("bsrange", str),
    "blocksize_range": ("bsrange", str),
    "bs": ("bs_bytes", units.parse_fio_option_size),
    "blocksize": ("bs_bytes", units.parse_fio_option_size),
    "iodepth": ("iodepth", int),
    "numjobs": ("numjobs", int),
    "ioengine": ("ioengine", str),
    "direct": ("direct", _flag),
    "buffered": ("buffered", _flag),
    "runtime": ("runtime_s", units.parse_fio_option_seconds),
    "ramp_time": ("ramp_time_s", units.parse_fio_option_seconds),
    "size": ("size_bytes", units.parse_fio_option_size),
    "filesize": ("filesize_bytes", units.parse_fio_option_size),
    "filename": ("filename", str),
    "directory": ("directory", str),
    "rwmixread": ("rwmixread", int),
    "rwmixwrite": ("rwmixwrite", int),
    "time_based": ("time_based", _flag),
    "group_reporting": ("group_reporting", _flag),
    "end_fsync": ("end_fsync", _flag),
    "invalidate": ("invalidate", _flag),
    "fsync": ("fsync", int),
    "fdatasync": ("fdatasync", int),
    "sync": ("sync", _flag),
    "verify": ("verify", str),
    "randrepeat": ("randrepeat", _flag),
    "thread": ("thread", _flag),
    "output-format": ("output_format", str),
    # fio's own logs (tools/fio/logs.py): the file prefix, or the job name when given alone.
    "write_bw_log": ("write_bw_log", str),
    "write_iops_log": ("write_iops_log", str),
    "write_lat_log": ("write_lat_log", str),
    "log_avg_msec": ("log_avg_msec", int),
}

# Options that are switches: `--time_based` alone means on.
_SWITCHES = {
    "time_based",
    "group_reporting",
    "thread",
    "end_fsync",
    "randrepeat",
    "sync",
    "direct",
    "buffered",
    "write_bw_log",
    "write_iops_log",
    "write_lat_log",
}


def _words_after_fio(command: str) -> list[str]:
    words = shell_words(command)
    for index, word in enumerate(words):
        if basename(word) in COMMANDS:
            return words[index + 1 :]
    return []


def params_from_options(options: list[tuple[str, str | None]]) -> tuple[dict[str, Any], list[str]]:
    """Params from (option, value) pairs, as a command line or a job file gives them.

    A value of None is a bare switch (`--time_based`, or `time_based` in a job file).
    """
    params: dict[str, Any] = {}
    warnings: list[str] = []
    for key, value in options:
        if key not in _OPTIONS:
            continue
        name, convert = _OPTIONS[key]
        if value is None:
            if key in _SWITCHES:
                params[name] = True
            continue
        try:
            params[name] = convert(value.strip())
        except (units.UnitError, ValueError):
            warnings.append(f"cannot read fio option {key}={value}")
    if "size_bytes" not in params and "filesize_bytes" in params:
        params["size_bytes"] = params["filesize_bytes"]
    _effective_io_mode(options, params)
    return params, warnings


def _effective_io_mode(options: list[tuple[str, str | None]], params: dict[str, Any]) -> None:
    """direct and buffered are one setting in fio (buffered=1 is direct=0): the last one given wins.

    Sets params["io_mode"] to "direct" or "buffered". Flags that contradict each other
    (both on, or both off) stay in params as given, for fio's checks to report.
    """
    mode = None
    for key, value in options:
        if key not in ("direct", "buffered"):
            continue
        on = value is None or _flag(value)
        mode = ("direct" if on else "buffered") if key == "direct" else ("buffered" if on else "direct")
    if mode is not None:
        params["io_mode"] = mode


def command_jobs(command: str) -> tuple[list[tuple[str, str | None]], list[tuple[str, list[tuple[str, str | None]]]]]:
    """A fio command line's options as fio reads them: those before the first --name for every job
    (global), then each job's, started by its --name (fio's HOWTO: on the command line, name "also
    signals the start of a new job"), in the order given.

    `fio --bs=4k --name=reader --rw=randread --name=writer --rw=randwrite` gives
    ([("bs", "4k")], [("reader", [("name", "reader"), ("rw", "randread")]),
    ("writer", [("name", "writer"), ("rw", "randwrite")])]).
    """
    shared: list[tuple[str, str | None]] = []
    jobs: list[tuple[str, list[tuple[str, str | None]]]] = []
    for key, value in _command_options(command)[0]:
        if key == "name" and value is not None:
            jobs.append((value, []))
        (jobs[-1][1] if jobs else shared).append((key, value))
    return shared, jobs


def _command_options(command: str) -> tuple[list[tuple[str, str | None]], list[str]]:
    """Every (option, value) of a fio command line in order, and the job files it names."""
    options: list[tuple[str, str | None]] = []
    job_files: list[str] = []
    for word in _words_after_fio(command):
        if not word.startswith("-"):
            job_files.append(word)
            continue
        # fio takes options with one dash or two: -direct=1 and --direct=1.
        key, has_value, value = word.lstrip("-").partition("=")
        options.append((key, value if has_value else None))
    return options, job_files


def params_from_command(command: str) -> tuple[dict[str, Any], list[str]]:
    """Params from a fio command line, every job's options read as one, and warnings for values that
    did not read. command_jobs keeps each job's apart."""
    options, job_files = _command_options(command)
    params, warnings = params_from_options(options)
    if job_files:
        params["job_files"] = job_files
    return params, warnings

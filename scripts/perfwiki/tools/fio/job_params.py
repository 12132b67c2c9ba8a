"""A fio run's params: each job section's own, and the run's where its sections agree.

A run is one fio invocation, and it can hold several job sections (`--name=reader ...
--name=writer ...`, or a job file's [sections]), each with its own rw, bs, engine, depth and
numjobs. A section's params come from its own option lines: the header fio printed for it, the
command line's options for it (those before the first --name count for every job), a job file's
[global] and its [section]; its numjobs from the result blocks fio printed for it.

A real input (tests/fixtures/fio/fio-3.33-two-jobs-group-reporting.txt)::

    $ fio --group_reporting --filename=/tmp/fidcap/f --size=8M --runtime=1 --time_based --bs=4k --name=reader --rw=randread --name=writer --rw=randwrite
    reader: (g=0): rw=randread, bs=(R) 4096B-4096B, (W) 4096B-4096B, (T) 4096B-4096B, ioengine=psync, iodepth=1
    writer: (g=0): rw=randwrite, bs=(R) 4096B-4096B, (W) 4096B-4096B, (T) 4096B-4096B, ioengine=psync, iodepth=1
    ...
    reader: (groupid=0, jobs=2): err= 0: pid=7620: Fri Nov 27 08:17:56 2026

gives {rw: mixed, bs_bytes: 4096, ioengine: psync, iodepth: 1, numjobs: 1, ..., jobs: [{name:
reader, rw: randread, bs_bytes: 4096, ioengine: psync, iodepth: 1, numjobs: 1}, {name: writer,
rw: randwrite, ...}]}: `jobs=2` is the group's two processes, one per section, not numjobs=2.

The run's params are its sections' where they agree. Where they differ, a key that says what
workload ran (MIXED_KEYS) is "mixed", any other is left out, and `jobs` lists each section's
values: its name, HEADER_KEYS, numjobs, and every key the sections differ in. A run of one
section has no `jobs`.
"""

from __future__ import annotations

import functools
from typing import Any

from .options import MIXED, command_jobs, params_from_command, params_from_options
from .report import FioReport

# What a job header shows besides the job's name.
HEADER_KEYS = ("rw", "bs_bytes", "ioengine", "iodepth")
# What makes one job's workload another's: "mixed" in a run whose sections differ in it.
MIXED_KEYS = (*HEADER_KEYS, "numjobs", "io_mode")
# What `jobs` gives every section, beside the keys the sections differ in.
_JOB_KEYS = ("name", *HEADER_KEYS, "numjobs")

Options = list[tuple[str, str | None]]


def params(report: FioReport, command: str | None) -> tuple[dict[str, Any], list[str]]:
    """Normalised parameters, and warnings where the command and the output disagree.

    What fio printed in its job headers is what ran; the command line and a job file add what
    a header never shows (direct, runtime, size, numjobs).
    """
    shared, by_job = command_jobs(command) if command else ([], [])
    sections = _sections(report)
    warnings: list[str] = []
    each: list[dict[str, Any]] = []
    for section in sections:
        if command:
            own = next((options for name, options in by_job if name == section["name"]), None)
            if own is None and len(by_job) == 1 and len(sections) == 1:
                own = by_job[0][1]  # the command's one job, whatever name fio printed (warned below)
            options = shared + (own or [])
        else:
            options = None
        found, said = _section_params(report, section, sections, options, several=len(sections) > 1)
        each.append(found)
        warnings += [warning for warning in said if warning not in warnings]
    merged = each[0] if len(each) == 1 else _agreed([section["name"] for section in sections], each)
    if command:
        job_files = params_from_command(command)[0].get("job_files")
        if job_files:
            merged["job_files"] = job_files
    if report.job_file:
        merged["job_file_sections"] = sorted(report.job_file)
    if report.jobs and len(each) == 1:
        printed_name = report.jobs[0]["name"]
        if merged.get("name") and merged["name"] != printed_name and len(report.jobs) == 1:
            warnings.append(f"command names job {merged['name']!r} but fio printed results for {printed_name!r}")
    return merged, warnings


def _sections(report: FioReport) -> list[dict[str, Any]]:
    """The run's job sections: the headers fio's text printed, one per section; else (JSON, terse,
    text pasted without its headers) one per job name among the result blocks."""
    printed = [header for header in report.headers if "rw" in header]
    if printed:
        return printed
    names = list(dict.fromkeys(job["name"] for job in report.jobs))
    if not names and report.headers:
        names = [report.headers[0]["name"]]
    return [{"name": name} for name in names] or [{"name": None}]


def _section_params(
    report: FioReport,
    section: dict[str, Any],
    sections: list[dict[str, Any]],
    options: Options | None,
    several: bool,
) -> tuple[dict[str, Any], list[str]]:
    """One section's params: its command-line options, over its job file's, under what fio printed."""
    found, warnings = params_from_options(options) if options is not None else ({}, [])
    if report.job_file:
        from_file, file_warnings = params_from_options(
            report.job_file.get("global", []) + report.job_file.get(section["name"], [])
        )
        found = {**from_file, **found}
        warnings += file_warnings
    where = f" in job {section['name']!r}" if several else ""
    for key in HEADER_KEYS:
        printed = section.get(key)
        if printed is None:
            continue
        given = found.get(key)
        if given is not None and given != printed:
            warnings.append(f"command says {key}={given} but fio printed {key}={printed}{where}")
        found[key] = printed
    if report.jobs:
        counted = _counted(report, section, sections)
        given = found.get("numjobs")
        if counted is not None and given is not None and given != counted:
            warnings.append(
                f"the options say numjobs={given} but fio ran {counted} processes of job {section['name']!r}"
            )
        found["numjobs"] = counted if counted is not None else given
    return found, warnings


def _counted(report: FioReport, section: dict[str, Any], sections: list[dict[str, Any]]) -> int | None:
    """How many processes ran this section, as far as fio's output tells; None where it cannot.

    A printed header without "..." after it is one process. With "...", the section's result
    blocks count them (each process has its own unless group_reporting), or, when its group
    printed one block (group_reporting), that block's jobs=N less the group's other sections,
    if none of those had "..." too. Without headers, the jobs=N of the section's blocks add up (JSON
    and terse print none: two blocks or more of one name are one process each, one block says nothing).
    """
    name = section["name"]
    if "rw" not in section:
        counts = [job.get("jobs") for job in report.jobs if job["name"] == name]
        if None in counts:  # JSON and terse say no jobs=N: blocks of one name are a process each
            return len(counts) if len(counts) > 1 else None
        return sum(counts) if counts else None
    if not section.get("clones"):
        return 1
    group = section.get("groupid")
    blocks = [job for job in report.jobs if job.get("groupid") == group]
    if blocks and all(job.get("jobs") == 1 for job in blocks):
        mine = sum(1 for job in blocks if job["name"] == name)
        return mine if mine >= 2 else None
    if len(blocks) == 1 and blocks[0].get("jobs"):
        others = [other for other in sections if other is not section and other.get("groupid") == group]
        if any(other.get("clones") for other in others):
            return None
        mine = blocks[0]["jobs"] - len(others)
        return mine if mine >= 2 else None
    return None  # some processes reported apart and some together (group_reporting on some jobs)


def _agreed(names: list[str | None], each: list[dict[str, Any]]) -> dict[str, Any]:
    """The run's params from its sections': a value they share, "mixed" for a MIXED_KEYS one they
    differ in, nothing for any other; and `jobs`, each section's."""
    keys = list(dict.fromkeys(key for found in each for key in found))
    merged: dict[str, Any] = {}
    differing = []
    for key in keys:
        values = [found.get(key) for found in each]
        if all(value == values[0] for value in values):
            merged[key] = values[0]
            continue
        differing.append(key)
        if key in MIXED_KEYS:
            merged[key] = MIXED
    shown = [key for key in keys if key in _JOB_KEYS or key in differing]
    merged["jobs"] = [
        {"name": name, **{key: found[key] for key in shown if found.get(key) is not None}}
        for name, found in zip(names, each, strict=True)
    ]
    return merged


def command_fits(report: FioReport, command: str) -> bool:
    """Whether a command shown apart from any output could have printed this report.

    Its jobs are the ones fio printed headers for, by name and in order, and everything a header
    shows (rw, bs, engine, depth) agrees with what the command gives that job.
    """
    if not report.headers:
        return False
    jobs = _header_params(command)
    if [name for name, _ in jobs] != [header.get("name") for header in report.headers]:
        return False
    return all(
        value in (None, header.get(key))
        for (_, given), header in zip(jobs, report.headers, strict=True)
        for key, value in zip(HEADER_KEYS, given, strict=True)
    )


# A page that lists its commands apart from their outputs has each output tried against each
# command (6 x 6 in seed 001's copies): each command is read once. Values are str and int, never changed.
@functools.lru_cache(maxsize=512)
def _header_params(command: str) -> tuple[tuple[str | None, tuple[Any, ...]], ...]:
    """Per job of a fio command line, its name and the HEADER_KEYS params it is given (None where none).

    A command without --name is one job of no name."""
    shared, by_job = command_jobs(command)
    jobs = by_job or [(None, [])]
    found = []
    for name, options in jobs:
        given, _ = params_from_options(shared + options)
        found.append((name, tuple(given.get(key) for key in HEADER_KEYS)))
    return tuple(found)

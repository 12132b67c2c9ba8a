"""Artefacts: results that measured a cache or the wrong layer, not the storage the page names.

A tool's own checks (`Tool.checks`) look at one run. These need more: the environment's
facts (its memory, its interface, its cache mode) or the other runs of the report (the same
workload with direct I/O, the host a guest runs on, the raw device under a file system).
They run when a report is built, and add their findings to the runs they flag, so the run
page, the comparison table and every verdict see the same thing.

A finding here carries `artefact`: the short reason a sentence names in the same line
("served from the page cache, not the disk"). Verdicts leave such results out of
"fastest", "slowest" and the summary ranges, and say so; they never state an artefact as a
speed difference. The checks, each as a storage engineer would put it:

- buffered I/O on a file that fits in the environment's RAM (a write without fsync; a read
  when fio was told not to drop the cache first: fio's default `invalidate=1` does);
- a buffered result more than twice the same environment's direct-I/O result for the same
  workload;
- a result above the link the environment states (a SATA SSD past 600 MB/s, a host past its NIC);
- a guest faster than the host it runs on, with a caching mode (cache=writeback serves the
  guest from the host's page cache);
- a file system faster than the raw device under it, with direct I/O on both: device state
  (a fresh or trimmed SSD), test size or a cache, never the file system;
- a run on an environment that names an NVMe disk whose fio disk statistics list no NVMe device
  (the test file was on the system disk).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from . import noise, tools, units
from .findings import Finding
from .model import Run
from .tools.fio import checks as fio_checks
from .tools.fio.options import io_mode

PAGE_CACHE = "served from the page cache, not the disk"
WRITE_CACHE = "absorbed by the page cache, not written to the disk"
HOST_CACHE = "served from the host's cache, not the disk"
OVER_LINK = "faster than the link allows: a cache answered"
FS_OVER_RAW = "device state, test size or a cache, not the file system"
OTHER_DISK = "another disk or a cache, not its host's disk"
OTHER_DEVICE = "measured on another disk than the one named"

# A buffered result this many times the direct one is the cache, not the device.
BUFFERED_OVER_DIRECT = 2.0

# Cache modes in which the host keeps the guest's disk in its page cache (QEMU/libvirt names).
CACHING_MODES = {"writeback", "unsafe", "writethrough", "default"}

# Interfaces whose ethtool speed is nominal: the kernel moves their packets in memory.
VIRTUAL_DRIVERS = frozenset({"veth", "loopback", "tun", "bridge", "dummy", "macvlan", "ipvlan", "vxlan"})
# SATA's fastest link, 6 Gbit/s, carries 600 MB/s of data after 8b/10b encoding.
SATA_BYTES_PER_S = 600e6


@dataclass(frozen=True)
class Environment:
    """What the checks read of an environment: its id, kind and facts."""

    id: str
    kind: str | None
    facts: dict[str, Any]

    def fact(self, *keys: str) -> str:
        return " ".join(str(self.facts.get(key) or "") for key in keys).strip()

    @property
    def memory_bytes(self) -> float | None:
        """The RAM its `memory` fact states: '4 GB', '23Gi', '256 GB DDR4 …'."""
        found = re.match(r"\s*(\d+(?:\.\d+)?)\s*([KMGT]i?)B?\b", self.fact("memory"))
        if not found:
            return None
        return float(units.parse_size(f"{found[1]}{found[2]}{'' if found[2].endswith('i') else 'B'}"))

    def link_bytes_per_s(self, measures: str) -> float | None:
        """The most the link a tool goes through can carry, as the facts state it: for storage, a
        rate in `interface` ('SATA 6Gb/s', 'PCIe 3.0 x4, 32 Gbit/s') or SATA's when the disk is a
        SATA one; for networks, a rate in `nic`, `link` or `link_speed` ('10000Mb/s', '25 Gbit/s'),
        unless the interface is a virtual one, whose stated speed limits nothing (a veth pair says
        10 Gbit/s and carries 17)."""
        keys = {"storage": ("interface",), "network": ("nic", "link", "link_speed")}.get(measures, ())
        virtual = re.search(r"\((?:veth|loopback|bridge|tun|tap)\)", self.fact("nic"))
        if measures == "network" and (self.fact("driver") in VIRTUAL_DRIVERS or virtual):
            keys = ("link",)  # only what the author wrote about the link itself
        for key in keys:
            found = re.search(r"(\d+(?:\.\d+)?)\s*([kMGT])b(?:it)?(?:/s|ps)\b", self.fact(key))
            if found:
                bits = float(found[1]) * {"k": 1e3, "M": 1e6, "G": 1e9, "T": 1e12}[found[2]]
                # A SATA link of 6 Gbit/s is 8b/10b encoded; an Ethernet rate is the data rate.
                return SATA_BYTES_PER_S if "sata" in self.fact(key).lower() else bits / 8
        if measures == "storage" and re.search(r"\bSATA\b", self.fact("disk", "interface"), re.IGNORECASE):
            return SATA_BYTES_PER_S
        return None

    @property
    def caching_mode(self) -> str | None:
        """A guest's host-side cache mode when it caches ('writeback'), else None."""
        mode = self.fact("vm_cache_mode").split()[0].lower() if self.fact("vm_cache_mode") else ""
        return mode if mode in CACHING_MODES else None


def environments(pages: Iterable[dict[str, Any]]) -> dict[str, Environment]:
    """The report's environment pages ({id, kind, facts}) by id."""
    return {
        page["id"]: Environment(page["id"], page.get("kind"), dict(page.get("facts") or {}))
        for page in pages
        if page.get("id")
    }


def _flag(run: Run, check_id: str, message: str, artefact: str) -> None:
    """Add a finding to the run, once (a run in two comparisons is flagged once)."""
    if any(check["id"] == check_id for check in run.checks):
        return
    finding = Finding(check_id, "warning", message, run.command, run.source.line_start, artefact)
    run.checks = [*run.checks, finding.to_dict()]  # assigned: a packed run keeps it (Run.pack)
    run.warnings.append(f"warning: {message}")


def artefact(run: Run) -> str | None:
    """The artefact a run was flagged for, when one was."""
    return next((check["artefact"] for check in run.checks if check.get("artefact")), None)


# -- one run and its environment ---------------------------------------------------------------


def _io(run: Run) -> dict[str, Any] | None:
    """What the page-cache checks need of a storage run: its I/O mode, file size and flushing."""
    if run.tool != "fio":
        return None
    params = run.params
    mode = io_mode(params)
    size = params.get("filesize_bytes") or params.get("size_bytes")
    flushed = bool(params.get("end_fsync") or params.get("fsync") or params.get("fdatasync") or params.get("sync"))
    return {"mode": mode, "size": size, "flushed": flushed, "invalidate": params.get("invalidate")}


def check_fits_in_ram(run: Run, env: Environment) -> None:
    io = _io(run)
    memory = env.memory_bytes
    if not io or io["mode"] != "buffered" or not io["size"] or not memory or io["size"] > memory:
        return
    size, ram = units.format_bytes(io["size"]), env.fact("memory")
    parts = set(run.fingerprints)
    if "write" in parts and not io["flushed"]:
        _flag(
            run,
            "page-cache-write",
            f"buffered writes of a {size} file with {ram} of RAM and no fsync: the page cache took them, "
            "the disk may not have seen one",
            WRITE_CACHE,
        )
    elif "read" in parts and io["invalidate"] is False:
        _flag(
            run,
            "page-cache-read",
            f"buffered reads of a {size} file with {ram} of RAM and invalidate=0: after the first pass every "
            "read is a page-cache hit",
            PAGE_CACHE,
        )


def check_over_link(run: Run, env: Environment) -> None:
    if run.tool not in tools.NAMES:
        return
    tool = tools.get(run.tool)
    limit = env.link_bytes_per_s(tool.measures)
    if not limit:
        return
    for metric in tool.metrics:
        if metric.unit not in ("B/s", "bit/s"):
            continue
        for part in run.fingerprints:
            value = metric.read(run, part)
            rate = value / 8 if value is not None and metric.unit == "bit/s" else value
            if rate is not None and rate > limit * (1 + noise.EVEN):
                said = units.format_bytes_per_s(rate, "si")
                _flag(
                    run,
                    "over-link",
                    f"{said} is more than the {units.format_bytes_per_s(limit, 'si')} its link carries "
                    f"({env.fact('interface', 'nic', 'link', 'link_speed') or env.fact('disk')}): "
                    + (
                        "the traffic did not cross that link (the same host, or a cache)"
                        if tool.measures == "network"
                        else "a cache answered, not the device"
                    ),
                    OVER_LINK,
                )
                return


def _workload_key(run: Run, part: str | None, print_: dict[str, Any]) -> tuple:
    """A run part's workload on its environment as the job asked for it, whatever its I/O mode: the
    queue depth asked, since buffered I/O may run another in effect (libaio) and that is the cache's doing."""
    asked = {**print_, "iodepth": run.params.get("iodepth", print_.get("iodepth"))}
    return (run.environment, part, tuple(sorted((key, str(value)) for key, value in asked.items() if key != "io")))


def check_buffered_over_direct(runs: list[Run]) -> None:
    """Within one environment: a buffered run more than twice its direct twin. One pass to index the
    direct results by workload, one to look each buffered run up: no pairs of runs are tried."""
    metric = tools.get("fio").metrics[0] if "fio" in tools.NAMES else None
    fio = [run for run in runs if run.tool == "fio"]
    direct: dict[tuple, float] = {}
    for run in fio:
        for part, print_ in run.fingerprints.items():
            value = metric.read(run, part) if print_.get("io") == "direct" else None
            if value:
                key = _workload_key(run, part, print_)
                direct[key] = max(direct.get(key, 0.0), value)
    for run in fio:
        for part, print_ in run.fingerprints.items():
            if print_.get("io") != "buffered":
                continue
            mine, theirs = metric.read(run, part), direct.get(_workload_key(run, part, print_))
            if mine and theirs and mine > BUFFERED_OVER_DIRECT * theirs:
                _flag(
                    run,
                    "buffered-over-direct",
                    f"buffered {part}s ran {mine / theirs:.3g}× the same workload with direct I/O on this "
                    f"environment ({units.format_count(mine)} against {units.format_count(theirs)} IOPS): "
                    "the page cache answered, not the disk",
                    PAGE_CACHE,
                )


def check_other_device(run: Run, env: Environment) -> None:
    """An environment that names an NVMe disk, a fio run whose disk statistics (every device the I/O
    reached, and what a device-mapper volume sits on) list none: its file was on another disk."""
    disks = [str(disk.get("name") or "") for disk in run.metrics.get("disks") or []] if run.tool == "fio" else []
    if not disks or not re.search(r"\bNVMe\b", env.fact("disk", "device"), re.IGNORECASE):
        return
    if any(name.startswith("nvme") for name in disks):
        return
    _flag(
        run,
        "other-device",
        f"fio's disk statistics list {', '.join(disks)}, no NVMe device, where this environment's disk is "
        f"{env.fact('disk', 'device')}: the test file was on another disk",
        OTHER_DEVICE,
    )


def check_runs(runs: list[Run], envs: dict[str, Environment]) -> None:
    """Every check that needs one run and its environment, or one environment's runs."""
    for run in runs:
        env = envs.get(run.environment or "")
        if env is None:
            continue
        check_fits_in_ram(run, env)
        check_over_link(run, env)
        check_other_device(run, env)
    check_buffered_over_direct(runs)


# -- across environments, in a comparison ----------------------------------------------------


def host_of(guest: Environment, envs: dict[str, Environment]) -> str | None:
    """The environment a guest runs on: its `host_environment` fact, else the bare-metal
    environment whose `host` fact its `hypervisor` fact names ('… on Dell PowerEdge R730xd')."""
    named = guest.fact("host_environment")
    if named in envs:
        return named
    hypervisor = guest.fact("hypervisor").lower()
    for env in envs.values():
        host = env.fact("host").lower()
        if env.id != guest.id and env.kind == "baremetal" and host and host in hypervisor:
            return env.id
    return None


def _same_disk(a: Environment, b: Environment) -> bool:
    for key in ("device", "disk"):
        if a.fact(key) and a.fact(key) == b.fact(key):
            return True
    return False


def _has_file_system(env: Environment) -> bool:
    stated = env.fact("filesystem").lower()
    return bool(stated) and not stated.startswith("none")


def check_comparison(comparison: dict[str, Any], runs: dict[str, Run], envs: dict[str, Environment]) -> None:
    """Guests faster than their host, and file systems faster than their raw device, in one comparison."""
    higher = comparison["higher_is_better"]
    rows = {row["environment"]: row["cells"] for row in comparison["rows"]}
    for env_id, cells in rows.items():
        env = envs.get(env_id)
        if env is None:
            continue
        host = host_of(env, envs) if env.kind == "vm" or env.caching_mode else None
        raw = next(
            (
                other
                for other in rows
                if other != env_id
                and other in envs
                and _has_file_system(env)
                and envs[other].fact("filesystem").lower().startswith("none")
                and _same_disk(env, envs[other])
            ),
            None,
        )
        cached = False
        for index, cell in enumerate(cells):
            column = comparison["columns"][index]
            if host in rows:
                cached = _guest_over_host(cell, rows[host][index], column, env, host, runs, higher) or cached
            if raw is not None:
                _file_over_raw(cell, rows[raw][index], column, env, raw, runs, higher)
        if cached:
            # The cache mode is the guest's, not one scenario's: where it beat its host somewhere, its other
            # results went through the same host cache, and are no measure of the disk either.
            for index, cell in enumerate(cells):
                said = (
                    f"with cache={env.caching_mode}, this guest's I/O goes through its host's page cache: it beat "
                    f"its host {host} elsewhere in this comparison, so “{comparison['columns'][index]['title']}” "
                    "is no measure of the disk either"
                )
                _flag_cell(cell, runs, "guest-host-cache", said, HOST_CACHE)


def _factor(cell: dict[str, Any], other: dict[str, Any], higher: bool) -> float | None:
    """How many times faster `cell` is than `other` (direction folded), or None."""
    if cell.get("value") is None or not other.get("value"):
        return None
    ratio = cell["value"] / other["value"]
    if not ratio:
        return None
    return ratio if higher else 1 / ratio


def _beyond_noise(cell: dict[str, Any], other: dict[str, Any], higher: bool) -> float | None:
    found = _factor(cell, other, higher)
    if found is None or found <= 1 or noise.is_even(found, noise.spread(cell), noise.spread(other)):
        return None
    return found


def _flag_cell(cell: dict[str, Any], runs: dict[str, Run], check_id: str, message: str, artefact: str) -> None:
    """The same finding on every run behind a comparison cell."""
    for run_id in cell.get("runs") or []:
        _flag(runs[run_id], check_id, message, artefact)


def _guest_over_host(cell, host_cell, column, env: Environment, host: str, runs, higher: bool) -> bool:
    """Flag a guest's cell that beats its host; whether it was the host's cache (a caching mode)."""
    found = _beyond_noise(cell, host_cell, higher)
    if found is None:
        return False
    if env.caching_mode:
        said = (
            f"{found:.3g}× its host {host} in “{column['title']}”, with cache={env.caching_mode}: the host's page "
            "cache served the guest, not the disk"
        )
        _flag_cell(cell, runs, "guest-over-host", said, HOST_CACHE)
        return True
    if found > BUFFERED_OVER_DIRECT:
        # No host cache (cache=none): a guest cannot be more than twice as fast as the disk it sits on.
        said = (
            f"{found:.3g}× its host {host} in “{column['title']}” with cache={env.fact('vm_cache_mode') or 'none'}: "
            "a guest cannot outrun the disk under it, so its disk is another one, or a cache answered"
        )
        _flag_cell(cell, runs, "guest-over-host-disk", said, OTHER_DISK)
    return False


def _file_over_raw(cell, raw_cell, column, env: Environment, raw: str, runs, higher: bool) -> None:
    # Runs in one column share their I/O mode unless the author compares across it on purpose.
    direct = (column.get("parameters") or {}).get("io") == "direct" and "I/O mode" not in (
        column.get("compared_across") or []
    )
    found = _beyond_noise(cell, raw_cell, higher)
    if found is not None and direct:
        said = (
            f"a file on {env.fact('filesystem')} ran {found:.3g}× the raw device under it ({raw}) in "
            f"“{column['title']}”, both with direct I/O: a file system adds work, so the difference is device "
            "state (a fresh or trimmed SSD), the test size or a cache"
        )
        _flag_cell(cell, runs, "file-over-raw", said, FS_OVER_RAW)


def short_seconds(run: Run) -> float | None:
    """How long a run lasted when a check found it too short to trust (fio-short-run: under 10 s)."""
    if not any(check["id"] == "fio-short-run" for check in run.checks):
        return None
    return fio_checks.runtime_s(run) or None


def mark_cells(comparison: dict[str, Any], runs: dict[str, Run]) -> None:
    """Each cell whose runs were flagged carries the artefact its sentence names, and a cell of one
    run too short to trust its length (`short_s`), which a sentence picking it out says."""
    for row in comparison["rows"]:
        for cell in row["cells"]:
            found = [artefact(runs[run_id]) for run_id in cell.get("runs") or [] if run_id in runs]
            found = [reason for reason in found if reason]
            if found:
                cell["artefact"] = found[0]
            if len(cell.get("runs") or []) == 1 and cell["runs"][0] in runs:
                seconds = short_seconds(runs[cell["runs"][0]])
                if seconds:
                    cell["short_s"] = seconds


def annotate(runs: list[Run], comparisons: list[dict[str, Any]], pages: Iterable[dict[str, Any]]) -> None:
    """Run every artefact check of a report: findings on its runs, the artefact on each cell."""
    envs = environments(pages)
    check_runs(runs, envs)
    by_id = {run.id: run for run in runs}
    for comparison in comparisons:
        check_comparison(comparison, by_id, envs)
    for comparison in comparisons:  # after every check: a run flagged in one comparison is in others
        mark_cells(comparison, by_id)

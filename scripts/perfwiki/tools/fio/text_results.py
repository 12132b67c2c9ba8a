"""fio's text output: a job's result for one direction, and the per-second samples fio took of it.

A real block (tests/fixtures/fio/fio-3.33-randrw-numjobs2.txt, its latency lines left out)::

      read: IOPS=20.0k, BW=78.1MiB/s (81.9MB/s)(78.2MiB/1001msec)
       bw (  KiB/s): min=76960, max=76960, per=48.20%, avg=76960.00, stdev= 0.00, samples=1
       iops        : min=19240, max=19240, avg=19240.00, stdev= 0.00, samples=1
      write: IOPS=20.0k, BW=78.3MiB/s (82.1MB/s)(78.3MiB/1001msec); 0 zone resets

fio 2.0-2.16 printed the first line as "  write: io=1024.0MB, bw=48273KB/s, iops=12068,
runt= 21722msec", with KB meaning KiB. Each direction line starts `self.direction`, the
mapping the latency lines (text_latency.py) and these sample lines add to.
"""

from __future__ import annotations

import re
from typing import Any

from ... import lazyre, units

# fio 2.0-2.16: "  write: io=1024.0MB, bw=48273KB/s, iops=12068, runt= 21722msec"
_DIRECTION_2X = lazyre.compile(
    r"^\s*(?P<dir>read|write|trim|mixed)\s*: io=(?P<io>[^,]+?)\s*, bw=(?P<bw>[^,]+?)\s*, "
    r"iops=(?P<iops>[\d.]+[KMG]?)\s*, runt=\s*(?P<runt>\d+)msec\s*$"
)
_DIRECTION = lazyre.compile(
    r"^\s*(?P<dir>read|write|trim|mixed)\s*: IOPS=(?P<iops>[\d.]+[kMG]?), "
    r"BW=(?P<bw>[^ (]+) \((?P<bw_alt>[^)]+)\)\((?P<io>[^/]+)/(?P<runt>\d+)msec\)(?P<rest>.*)$"
)
# What fio 3.x adds after a direction's runtime: "; 0 zone resets", "; Cachehit=12.5%".
_ZONE_RESETS = lazyre.compile(r"(\d+) zone resets")
_CACHE_HIT = lazyre.compile(r"Cachehit=([\d.]+)%")
_BW_SAMPLES = lazyre.compile(
    r"^\s*bw \(\s*(?P<unit>[KMG]i?B|[kKMG]i?bit|B)\s*/s\)\s*: min=\s*(?P<min>\d+)\s*, max=\s*(?P<max>\d+)\s*, "
    r"per=\s*(?P<per>[\d.]+)%, avg=\s*(?P<avg>[\d.]+), stdev=\s*(?P<stdev>[\d.]+)(?:, samples=\s*(?P<n>\d+))?\s*$"
)
_IOPS_SAMPLES = lazyre.compile(
    r"^\s*iops\s*: min=\s*(?P<min>\d+), max=\s*(?P<max>\d+), avg=\s*(?P<avg>[\d.]+), "
    r"stdev=\s*(?P<stdev>[\d.]+)(?:, samples=\s*(?P<n>\d+))?\s*$"
)

# The handlers below, with the first words of the lines each can take, and those a line's first
# word points to first (a line of a job named "read" that no direction handler takes is a header).
HANDLERS: tuple[tuple[str, tuple[str, ...] | None], ...] = (
    ("_direction", ("read", "write", "trim", "mixed")),
    ("_bw_line", ("bw",)),
    ("_iops_line", ("iops",)),
)
LIKELY: dict[str, tuple[str, ...]] = {
    **dict.fromkeys(("read", "write", "trim", "mixed"), ("_direction",)),
    "bw": ("_bw_line",),
    "iops": ("_iops_line",),
}


def _bw_samples(match: re.Match[str], legacy: bool) -> dict[str, units.Number]:
    # Before 2.17 "KB"/"MB" mean KiB/MiB; from 2.17 fio spells IEC and SI out.
    factor = (units.parse_fio2_size if legacy else units.parse_size)("1" + match["unit"])
    low, high, mean, stdev = match.group("min", "max", "avg", "stdev")
    samples = {
        "min": units.scaled(low, factor),
        "max": units.scaled(high, factor),
        "mean": units.scaled(mean, factor),
        "stdev": units.scaled(stdev, factor),
    }
    samples["per_pct"] = float(match["per"])
    if match["n"]:
        samples["samples"] = int(match["n"])
    return samples


class ResultLines:
    """Handlers of a direction's result line and its bw/iops sample lines (state: text_output.TextParser)."""

    def _cross_check(self, direction: str, bw_text: str, io_text: str) -> None:
        """fio's printed bandwidth is io / runtime: a disagreement past what the printed digits
        allow is fio misprinting (2.2.8 printed bw=1092.1MB/s for 2185.9MB in 2000 msec). The
        printed value is kept; the run says it does not add up."""
        data = self.direction or {}
        bw, io, runtime = data.get("bw_bytes_per_s"), data.get("io_bytes"), data.get("runtime_ms")
        if not (bw and io and runtime) or self.report is None:
            return
        computed = io / (runtime / 1000)
        allowed = units.last_digit(bw_text) + units.last_digit(io_text) + 0.5 / runtime
        if abs(bw - computed) / computed > allowed:
            # The computed rate in the printed value's own unit, one digit finer: 1092.95MB/s.
            number = re.search(r"\d+(?:\.(\d+))?", bw_text)
            digits = len(number.group(1) or "") + 1 if number else 2
            said = (
                f"{computed * float(number.group(0)) / bw:.{digits}f}{bw_text[number.end() :].strip()}"
                if number
                else ""
            )
            self.report.warnings.append(
                f"{direction} bandwidth printed as {bw_text.strip()}, but {io_text.strip()} in {runtime} ms is "
                f"{said}: more than fio's rounding apart (the printed value is kept)"
            )

    def _direction(self, index: int, line: str) -> bool:
        if self.job is None:
            return False
        match = _DIRECTION.match(line)
        old = None if match else _DIRECTION_2X.match(line)  # fio before 2.17; never both
        match = match or old
        if not match:
            return False
        if match["dir"] in self.job and self.report is not None:
            # A job prints each direction once: a second line is another job's, never an overwrite.
            self.report.problems.append(
                (index, f"a second {match['dir']} result in job {self.job['name']!r}: the first is kept")
            )
            return True
        if old:
            self.direction = {
                "iops": units.parse_count(old["iops"]),
                "bw_bytes_per_s": units.parse_fio2_rate(old["bw"]),
                "io_bytes": units.parse_fio2_size(old["io"]),
                "runtime_ms": int(old["runt"]),
                "printed": {"iops": old["iops"], "bw_bytes_per_s": old["bw"], "io_bytes": old["io"]},
            }
            self.job[old["dir"]] = self.direction
            self.legacy = True
            self._cross_check(old["dir"], old["bw"], old["io"])
            return True
        self.direction = {
            "iops": units.parse_count(match["iops"]),
            "bw_bytes_per_s": units.parse_rate(match["bw"]),
            "io_bytes": units.parse_size(match["io"]),
            "runtime_ms": int(match["runt"]),
            # The tokens as fio printed them, for "Units: as printed" (units.shown): parsing loses
            # their spelling ("13k", "1056MiB/s"), and a page converting back would not find it.
            "printed": {"iops": match["iops"], "bw_bytes_per_s": match["bw"], "io_bytes": match["io"]},
        }
        rest = match["rest"]
        if rest:  # "; 0 zone resets" and the like; most lines end at the runtime
            zone = _ZONE_RESETS.search(rest)
            if zone:
                self.direction["zone_resets"] = int(zone.group(1))
            cache = _CACHE_HIT.search(rest)
            if cache:
                self.direction["cachehit_pct"] = float(cache.group(1))
        self.job[match["dir"]] = self.direction
        self._cross_check(match["dir"], match["bw"], match["io"])
        return True

    def _bw_line(self, index: int, line: str) -> bool:
        match = _BW_SAMPLES.match(line) if self.direction is not None else None
        if not match:
            return False
        self.direction["bw_samples"] = _bw_samples(match, self.legacy)
        return True

    def _iops_line(self, index: int, line: str) -> bool:
        match = _IOPS_SAMPLES.match(line) if self.direction is not None else None
        if not match:
            return False
        samples: dict[str, Any] = {
            "min": int(match["min"]),
            "max": int(match["max"]),
            "mean": float(match["avg"]),
            "stdev": float(match["stdev"]),
        }
        if match["n"]:
            samples["samples"] = int(match["n"])
        self.direction["iops_samples"] = samples
        return True

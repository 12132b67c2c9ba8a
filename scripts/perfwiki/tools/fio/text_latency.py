"""fio's text output: latency lines, percentile tables and the latency distribution of a job.

Real lines (tests/fixtures/fio/fio-3.33-randrw-numjobs2.txt)::

        clat (nsec): min=581, max=920777, avg=38596.13, stdev=40753.55
         lat (nsec): min=601, max=920817, avg=38630.95, stdev=40757.72
        clat percentiles (nsec):
         |  1.00th=[   860],  5.00th=[  1048], 10.00th=[  1128], 20.00th=[  1256],
         | 99.00th=[128512], 99.50th=[144384], 99.90th=[197632], 99.95th=[309248],
      lat (nsec)   : 750=0.14%, 1000=1.52%
      lat (usec)   : 2=31.44%, 4=31.87%, 10=7.90%, 20=0.78%, 50=3.60%

The first three belong to the direction line above them (text_results.py), or to the job's
sync block after "fsync/fdatasync/sync_file_range:"; the distribution ("lat (nsec)   :") to the
job. The unit is read per line: a percentile table's unit can differ from the clat line's.
"""

from __future__ import annotations

import re

from ... import lazyre, units

_LATENCY = lazyre.compile(
    r"^\s*(?P<kind>slat|clat|lat|sync) \((?P<unit>[num]?sec)\): min=\s*(?P<min>[\d.]+[kKMG]?)\s*,\s*"
    r"max=\s*(?P<max>[\d.]+[kKMG]?)\s*,\s*avg=\s*(?P<avg>[\d.]+)\s*,\s*stdev=\s*(?P<stdev>[\d.]+)\s*$"
)
_PERCENTILE_HEADER = lazyre.compile(r"^\s*(?P<kind>clat|lat|slat|sync) percentiles \((?P<unit>[num]?sec)\):\s*$")
# "99.90th=[ 7013]". The key is the percentile with two decimals, as fio's JSON names it; fio's
# text prints it so (the first group: ASCII, no leading zero, at most 15 digits, so float and
# back would give these very digits), any other spelling (the second group) goes through float.
# An entry starts with a digit: saying so first (?=\d) lets the engine pass the rest of the row
# quickly; the possessive ++ cannot change a match, as what follows each run is no digit.
_PERCENTILE_ENTRY = lazyre.compile(
    r"(?=\d)(?:(?P<as_key>(?:0|[1-9][0-9]{0,12})\.[0-9]{2})|(?P<p>\d++\.\d++))th=\[\s*+(?P<v>\d++)\]"
)
_LAT_BUCKETS = lazyre.compile(r"^\s*lat \((?P<unit>[num]sec)\)\s*: (?P<body>.*)$")
# "4=31.87%" or ">=64=0.0%" (also the IO depths lines, text_job.py); the lookahead is the first
# character any entry starts with (as above).
BUCKET = lazyre.compile(r"(?=[>\d])(?P<ge>>=)?(?P<k>\d+)=(?P<pct>[\d.]+)%")

# The handlers below, with the first words of the lines each can take, and those a line's first
# word points to first.
HANDLERS: tuple[tuple[str, tuple[str, ...] | None], ...] = (
    ("_latency", ("slat", "clat", "lat", "sync")),
    ("_percentile_header", ("slat", "clat", "lat", "sync")),
    ("_lat_buckets", ("lat",)),
)
LIKELY: dict[str, tuple[str, ...]] = {
    **dict.fromkeys(("slat", "clat", "sync"), ("_latency", "_percentile_header")),
    "lat": ("_latency", "_percentile_header", "_lat_buckets"),
}


def _latency_stats(match: re.Match[str]) -> dict[str, units.Number]:
    unit = match["unit"]
    low, high, mean, stdev = match.group("min", "max", "avg", "stdev")
    return {
        "min": units.to_ns(low, unit),
        "max": units.to_ns(high, unit),
        "mean": units.to_ns(mean, unit),
        "stdev": units.to_ns(stdev, unit),
    }


class LatencyLines:
    """Handlers of latency, percentile and distribution lines (state: text_output.TextParser).

    A percentile header sets `self.percentiles` (the table being filled, ns per its unit); the
    rows after it ("     |  1.00th=[ 860], ...") go to `_percentile_row` straight from the
    parser's loop, until a line that is not a row.
    """

    def _latency(self, index: int, line: str) -> bool:
        match = _LATENCY.match(line)
        if not match or self.job is None:
            return False
        if match["kind"] == "sync":
            self.job.setdefault("sync", {})["lat_ns"] = _latency_stats(match)
        elif self.direction is not None:
            self.direction[f"{match['kind']}_ns"] = _latency_stats(match)
        return True

    def _percentile_header(self, index: int, line: str) -> bool:
        match = _PERCENTILE_HEADER.match(line)
        if not match or self.job is None:
            return False
        if match["kind"] == "sync":
            target = self.job.setdefault("sync", {})
        elif self.direction is not None:
            target = self.direction
            target["percentiles_of"] = match["kind"]
        else:
            return False
        target["percentiles_ns"] = {}
        self.percentiles = (target["percentiles_ns"], units.ns_per(match["unit"]))
        return True

    def _percentile_row(self, line: str) -> None:
        table, ns_per_unit = self.percentiles
        for as_key, percentile, value in _PERCENTILE_ENTRY.findall(line):
            # The value is digits (\d+): units.to_ns would read it the same way, as an exact int.
            table[as_key or f"{float(percentile):.2f}"] = int(value) * ns_per_unit

    def _lat_buckets(self, index: int, line: str) -> bool:
        match = _LAT_BUCKETS.match(line) if self.job is not None else None
        if not match:
            return False
        buckets = self.job.setdefault("lat_buckets", [])
        ns_per_unit = units.ns_per(match["unit"])
        for at_least, edge, pct in BUCKET.findall(match["body"]):
            # The edge is digits (\d+): units.to_ns would read it the same way, as an exact int.
            buckets.append({"ge_ns" if at_least else "le_ns": int(edge) * ns_per_unit, "pct": float(pct)})
        return True

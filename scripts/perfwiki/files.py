"""Writing files so that a crash or Ctrl-C never leaves half of one behind."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path


def write_atomically(target: Path, data: bytes | str) -> None:
    """Write beside the target, then rename over it: readers see the old file or the new one."""
    target.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(dir=target.parent, prefix=".", suffix=".partial")
    try:
        with os.fdopen(handle, "wb") as stream:
            stream.write(data.encode("utf-8") if isinstance(data, str) else data)
        os.replace(temporary, target)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise

"""Line numbers of offsets into one text, each newline counted once.

`text.count("\\n", 0, offset)` for each match counts from the start of the text every time: for the
documents of a file, quadratic in its size (38 % of extracting a large fio JSON file, issue 34).
Offsets asked for in increasing order, as a scan finds them, cost one pass over the text in all;
an offset before the last one asked for is counted again from the start.
"""

from __future__ import annotations


class LineNumbers:
    def __init__(self, text: str) -> None:
        self.text = text
        self._offset = 0  # the last offset asked for
        self._line = 0  # its 0-based line

    def index(self, offset: int) -> int:
        """The 0-based line of `offset`: how many newlines come before it."""
        if offset < self._offset:
            self._offset, self._line = 0, 0
        self._line += self.text.count("\n", self._offset, offset)
        self._offset = offset
        return self._line

    def number(self, offset: int) -> int:
        """The 1-based line of `offset`, as an editor numbers it."""
        return self.index(offset) + 1

"""Raw files as people save them, read as text: one decoding for parsing, redaction and facts."""

from __future__ import annotations

import codecs

from . import lazyre

_ANSI = lazyre.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b\][^\x07]*\x07")
_CJK = lazyre.compile(r"[\u4e00-\u9fff]")


def decode(data: bytes) -> str:
    """Text of a raw file as people save it; raises UnicodeDecodeError when no reading is safe.

    UTF-8 (with or without BOM); UTF-16 with a BOM or, without one, by its NUL pattern
    (PowerShell's `>` writes UTF-16LE); GB18030/GBK from Chinese Windows, accepted only
    when it yields Chinese text, so other 8-bit text is reported rather than garbled.
    Terminal colour codes are removed and lone CR line ends become newlines.
    """
    text = _decode_bytes(data)
    if "\x1b" in text:  # every colour code starts with ESC: most files have none to remove
        text = _ANSI.sub("", text)
    if "\r" in text and "\n" not in text:
        text = text.replace("\r", "\n")  # classic Mac / some Windows tools: CR alone ends lines
    return text


def _utf16_without_bom(sample: bytes) -> str | None:
    """'utf-16-le' or 'utf-16-be' when the file's first bytes have UTF-16's NUL pattern, else None."""
    if len(sample) >= 4 and 0 in sample:  # UTF-16 has NULs; most text has none, told without counting
        if sample[1::2].count(0) > len(sample) // 4:
            return "utf-16-le"
        if sample[0::2].count(0) > len(sample) // 4:
            return "utf-16-be"
    return None


def _decode_bytes(data: bytes) -> str:
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        return data.decode("utf-16")
    if data.startswith(b"\xef\xbb\xbf"):
        return data.decode("utf-8-sig")
    utf16 = _utf16_without_bom(data[:4096])
    if utf16:
        return data.decode(utf16)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as not_utf8:
        try:
            text = data.decode("gb18030")
        except UnicodeDecodeError:
            raise not_utf8 from None
        if _CJK.search(text):
            return text
        raise not_utf8 from None


# Read this much at a time when judging a file on disk: memory stays flat for a 200 MB log.
_CHUNK = 1 << 20


# What tells a binary file (an image, a core dump, a tarball saved under raw/, a log a crash left
# as blocks of zeros) from text with a little junk in it: a run of NULs no text has, or NULs in
# more than 1 % of it. A serial console's line of control-character junk has a NUL or two
# (tests/test_encodings.py), and is still read.
_NUL_RUN = "\x00" * 8
_NUL_SHARE = 100


def binary_at(text: str) -> int | None:
    """Where decoded text shows itself binary (the first NUL of its first run of them, or its first
    NUL when NULs are more than 1 % of it), or None."""
    offset = text.find(_NUL_RUN)
    if offset >= 0:
        return offset
    nuls = text.count("\x00")
    return text.find("\x00") if nuls and nuls * _NUL_SHARE > len(text) else None


def refused(path: str) -> bool:
    """Whether the file on disk is one that extraction refuses (`decode` fails, or its text holds
    a NUL), told in chunks: publishing asks this of every raw file it copies, without reading it whole."""
    with open(path, "rb") as file:
        head = file.read(_CHUNK)
        if head.startswith((b"\xff\xfe", b"\xfe\xff", b"\xef\xbb\xbf")) or _utf16_without_bom(head[:4096]):
            # A BOM, or UTF-16 without one (its NULs are its encoding): decoded whole, as rare as it is.
            data = head + file.read()
            try:
                return binary_at(decode(data)) is not None
            except UnicodeDecodeError:
                return True
        utf8 = codecs.getincrementaldecoder("utf-8")()
        chunk, nuls, size, tail = head, 0, 0, b""
        try:
            while chunk:
                if 0 in chunk:  # as binary_at(), over bytes: a NUL is one byte in UTF-8, and one character
                    if _NUL_RUN.encode() in tail + chunk:
                        return True
                    nuls += chunk.count(0)
                size += len(utf8.decode(chunk))
                tail = chunk[-len(_NUL_RUN) :]
                chunk = file.read(_CHUNK)
            utf8.decode(b"", final=True)
            return nuls * _NUL_SHARE > size
        except UnicodeDecodeError:
            pass  # not UTF-8: GB18030 perhaps, which only decode() as a whole can tell
        file.seek(0)
        try:
            return binary_at(decode(file.read())) is not None
        except UnicodeDecodeError:
            return True

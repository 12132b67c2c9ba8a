"""Raw files as people save them, read as text: one decoding for parsing, redaction and facts."""

from __future__ import annotations

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


def _decode_bytes(data: bytes) -> str:
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        return data.decode("utf-16")
    if data.startswith(b"\xef\xbb\xbf"):
        return data.decode("utf-8-sig")
    sample = data[:4096]
    if len(sample) >= 4 and 0 in sample:  # UTF-16 has NULs; most text has none, told without counting
        if sample[1::2].count(0) > len(sample) // 4:
            return data.decode("utf-16-le")
        if sample[0::2].count(0) > len(sample) // 4:
            return data.decode("utf-16-be")
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

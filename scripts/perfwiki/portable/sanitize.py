"""What the author wrote, made safe to open: the narrative's HTML through an allowlist (nh3, the
ammonia sanitiser), and shortcodes the export does not draw shown as the text they are.

A portable report is mailed around and opened from disk, so nothing in the report's text may run:
raw HTML that is not on the list below is dropped, and so are every event attribute (onerror,
onload, ...) and every address that is not http(s), mailto or relative (javascript:, data:,
vbscript:, however written: ammonia reads entities, case and whitespace as a browser does).
The wiki's own markup (citations, tables, charts) is put in after this, never through it.
"""

from __future__ import annotations

import html
import re

import nh3

# What a narrative needs: the markdown python-markdown writes (headings, emphasis, lists, links,
# images, tables, code) and the few inline elements people type by hand.
TAGS = {
    *("p", "br", "hr", "blockquote", "pre", "code", "kbd", "samp", "em", "strong", "b", "i", "del", "s"),
    *("sub", "sup", "small", "abbr", "h1", "h2", "h3", "h4", "h5", "h6", "ul", "ol", "li", "dl", "dt", "dd"),
    *("a", "img", "table", "thead", "tbody", "tfoot", "tr", "th", "td", "caption"),
}
ATTRIBUTES = {
    "a": {"href", "title"},
    "img": {"src", "alt", "title", "width", "height"},
    "th": {"align", "colspan", "rowspan"},
    "td": {"align", "colspan", "rowspan"},
    "ol": {"start"},
    "abbr": {"title"},
    "code": {"class"},  # a fenced block's language-xxx, nothing else (_attribute)
}
SCHEMES = {"http", "https", "mailto"}
# What page.py puts in the text where a citation goes, and swaps for its HTML after `clean`.
TOKEN = "PERFWIKICITATION"


def _attribute(element: str, attribute: str, value: str) -> str | None:
    if TOKEN in value:  # a shortcode inside an attribute ({{< run x >}} as an href): HTML there would break out
        return None
    if attribute == "class":
        kept = [word for word in value.split() if re.fullmatch(r"language-[\w+#.-]+", word)]
        return " ".join(kept) or None
    return value


def clean(fragment: str) -> str:
    """An HTML fragment with only the allowlisted elements, attributes and addresses left."""
    return nh3.clean(
        fragment,
        tags=TAGS,
        attributes=ATTRIBUTES,
        attribute_filter=_attribute,
        url_schemes=SCHEMES,
        link_rel=None,  # the export's links lead to the wiki; the author's to where the author meant
        strip_comments=True,
    )


# Every shortcode, either delimiter, opening or closing, across lines, and Hugo's escaped form
# {{</* name */>}}, which Hugo shows as the shortcode's own text.
SHORTCODES = re.compile(r"\{\{([<%])(/\*)?(.*?)(?(2)\*/)([>%])\}\}", re.S)


def shortcode_text(match: re.Match[str]) -> str:
    """What a shortcode the export does not draw shows: its own text, escaped, so a reader sees it."""
    opening, escaped, body, closing = match.groups()
    return "{{" + opening + body + closing + "}}" if escaped else match.group()


def visible(text: str) -> str:
    """Text as an HTML element that shows it, character for character."""
    return f'<code class="shortcode">{html.escape(text)}</code>'


# -- the markdown summary ------------------------------------------------------------------------
# A fenced code block that closes (a fence that never closes is prose to python-markdown), and an
# inline code span whose opening backticks are not escaped: markdown shows both as written.
_FENCED = re.compile(r"^[ \t]*(?P<fence>`{3,}|~{3,})[^\n]*\n.*?^[ \t]*(?P=fence)[`~]*[ \t]*$", re.M | re.S)
_SPAN = re.compile(r"(?<![\\`])(?:\\\\)*(?P<ticks>`+)(?!`)[^\n]*?(?<!`)(?P=ticks)(?!`)")
# A link's address: inline "](address" (optionally in <>) or a reference definition "[x]: address".
_DESTINATION = re.compile(r"(?P<lead>\]\(\s*<?|^[ \t]*\[[^\]\n]+\]:[ \t]*<?)(?P<url>(?:[^\s()<>]|\([^\s()]*\))*)", re.M)
_SCHEME = re.compile(r"[a-z][a-z0-9+.-]*:")


def _safe_address(url: str) -> bool:
    """Whether a link may point there: relative, a fragment, or http(s)/mailto however it is written
    (markdown decodes entities in an address, and browsers drop tabs and newlines from it)."""
    plain = re.sub(r"[\x00-\x20\x7f]", "", html.unescape(url)).lower()
    scheme = _SCHEME.match(plain)
    return scheme is None or scheme.group()[:-1] in SCHEMES


def safe_links(text: str) -> str:
    """Markdown whose links to a javascript:/data:/... address (entities and all) point to "#" instead."""
    return _DESTINATION.sub(lambda m: m.group() if _safe_address(m["url"]) else m["lead"] + "#", text)


def _prose(text: str) -> str:
    """Markdown prose with no HTML in it: each "<" an entity, which markdown shows as "<" (so a tag,
    a comment or an autolink is text), and no link to a script address."""
    return safe_links(text).replace("<", "&lt;")


def markdown_text(text: str) -> str:
    """A markdown document that carries no raw HTML and no script address; code shows as written."""
    pieces, last = [], 0
    for block in _FENCED.finditer(text):
        pieces += [_inline(text[last : block.start()]), block.group()]
        last = block.end()
    pieces.append(_inline(text[last:]))
    return "".join(pieces)


def _inline(text: str) -> str:
    pieces, last = [], 0
    for span in _SPAN.finditer(text):
        start = span.start("ticks")
        pieces += [_prose(text[last:start]), text[start : span.end()]]
        last = span.end()
    pieces.append(_prose(text[last:]))
    return "".join(pieces)

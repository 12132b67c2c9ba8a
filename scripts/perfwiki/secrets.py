"""Secrets in raw output: found, replaced by a readable marker, and each one reported.

On unless hugo.toml says `secrets = false` (redact.py applies it): a password typed on a
command line, a cloud key in an environment variable or a token in a header is as easy to
paste into a transcript as it is hard to take back once the wiki is published.

    sysbench oltp_read_only --mysql-password=hunter2 run
 -> sysbench oltp_read_only --mysql-password=[REDACTED:password] run

What is found is what gitleaks and detect-secrets taught: a value next to a name that says
it is secret (password, token, secret, api key, access key, in options, environment
variables, JSON/YAML keys, connection strings and query parameters), and credentials
whose shape alone gives them away (AWS key ids, GCP API keys, GitHub/GitLab/Slack tokens,
JWTs, Authorization headers, user:password@ in URLs, PEM private key blocks). Values that
only stand for a secret (`$MYSQL_PASSWORD`, `<password>`, `***`, `true`) are left alone.

Cheap on every raw file: each rule names literal words one of which must be on a secret's
line, as gitleaks' keywords do. One regex of all of them finds the lines that have one (in the
lower-cased text), and only the rules whose words were found run, as one combined regex, over
those lines only. A fio log with none costs one `lower()` and one scan.

Lines are never added or removed (a PEM block keeps its lines, each body line a marker),
so every line number still points at the same line. A finding names its line and what
was redacted, never the secret itself.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

from .linenumbers import LineNumbers
from .segments import strip_prompt
from .shell import WRAPPERS, basename, shell_words


@dataclass(frozen=True)
class Finding:
    """One redaction: where, what kind of secret, and the text around it with the secret as "…"."""

    line: int
    what: str  # "a password", "an AWS access key id"
    shown: str  # "--mysql-password=…"

    @property
    def message(self) -> str:
        return f"redacted {self.what} ({self.shown})"


@dataclass(frozen=True)
class _Rule:
    kind: str  # the marker: [REDACTED:<kind>]; "named" takes it from the name next to the value
    what: str
    keywords: tuple[str, ...]  # lower case; the rule runs only when one of them is in the text
    pattern: str  # (?P<S>...) the secret, (?P<N>...) the words before it that a report shows
    # A program that must come before the match in its command (mysql for -p): looked for apart, so the
    # match stays short and a secret between the program and the match is still found on its own.
    program: str = ""
    # An option given its value: the programs that take none after a space are asked (_prompts_instead).
    option: bool = False


# A value as shells, JSON, YAML, connection strings and URLs write one: quoted (the quotes kept), or
# up to a space, a quote, or `;`/`&` (a shell ends the command there; connection strings and query
# strings end the value there).
_VALUE = r"""(?:"(?P<S>[^"\n]+)"|'(?P<S>[^'\n]+)'|(?P<S>[^\s"'`;&]+))"""
# Names that say the value beside them is secret, as a name ends (`mysql-password`, `DB_PASSWORD`,
# `x-api-key`, `SecretAccessKey`, `private_key_id`). `pwd` and `pass` only after a prefix: PWD=/root
# is a folder, and "pass" alone is too common a word.
_SECRET_NAME = (
    r"(?:pass(?:word|wd|phrase)|[-_]pwd|[-_]pass|token|secret|api[-_]?key|apikey|auth[-_]?key|"
    r"access[-_]?key(?:[-_]?id)?|secret[-_]?(?:access[-_]?)?key|account[-_]?key|private[-_]?key(?:[-_]?id)?|"
    r"client[-_]?secret|shared[-_]?access[-_]?signature|credentials?)"
)
_NAMED_WORDS = ("pass", "pwd", "token", "secret", "key", "credential", "signature")

_RULES: tuple[_Rule, ...] = (
    # Options: --password=x, --mysql-password x, --pgsql-password=x, --token x, --api-key=x, -pass x.
    # A following option (`--no-password -h db`) is not a value.
    _Rule(
        "named",
        "",
        _NAMED_WORDS,
        r"(?<![\w-])(?P<N>--?(?i:[a-z0-9]+[-_])*(?i:password|passwd|passphrase|pass|pwd|token|secret|"
        r"api[-_]?key|apikey|access[-_]?key|secret[-_]?key|client[-_]?secret|auth[-_]?token))"
        r"(?:=|[ \t]+(?![-\s]))" + _VALUE,
        option=True,
    ),
    # mysql -pSECRET (with a space, -p asks for the password and the next word is the database). The
    # program a word of its own (`--mysql-host=` is sysbench's option, and its -p is not a password).
    _Rule(
        "password",
        "a password",
        ("mysql", "mariadb"),
        r"(?<!\S)(?P<N>-p)(?=[^\s-])" + _VALUE,
        r"(?<![\w-])(?:mysql|mariadb)",
    ),
    _Rule("password", "a password", ("sshpass",), r"(?<!\S)(?P<N>-p)[ \t]*" + _VALUE, r"\bsshpass\b"),
    _Rule(
        "password",
        "a password",
        ("curl", "wget"),
        r"(?<!\S)(?P<N>(?:-u|--user)[ \t=]*[\"']?[^\s:\"']+:)(?P<S>[^\s\"']+)",
        r"\b(?:curl|wget)\b",
    ),
    # Authorization: Bearer x, Basic x, or any scheme; the scheme stays readable.
    _Rule(
        "authorization",
        "an Authorization header",
        ("authorization",),
        r"(?P<N>\b(?i:(?:proxy-)?authorization)[\"']?[ \t]*[:=][ \t]*[\"']?"
        r"(?:(?i:bearer|basic|token|digest|negotiate|ntlm)[ \t]+)?)(?P<S>[^\"'\n]+)",
    ),
    # NAME=value, NAME: value, "name": "value", Password=x; in connection strings, ?access_token=x.
    _Rule(
        "named",
        "",
        _NAMED_WORDS,
        r"(?<![\w-])(?P<N>[\"']?(?i:[a-z0-9_.-]*?" + _SECRET_NAME + r")[\"']?[ \t]*[:=][ \t]*)" + _VALUE,
    ),
    # Query parameters whose name is short or generic: ?key=AIza..., SAS &sig=..., signed URLs.
    _Rule(
        "key",
        "a key in a URL",
        ("key=", "sig=", "signature=", "credential="),
        r"(?P<N>[?&](?i:key|sig|signature|x-amz-signature|x-amz-credential|x-goog-signature|x-goog-credential)=)"
        r"(?P<S>[^\s\"'`&#]+)",
    ),
    _Rule(
        "password",
        "a password in a URL",
        ("://",),
        r"(?P<N>\b(?i:[a-z][a-z0-9+.-]*)://[^\s:/@\"'`]+:)(?P<S>[^\s/\"'`]+)@",
    ),
    _Rule(
        "aws-access-key-id",
        "an AWS access key id",
        ("akia", "asia", "abia", "acca", "a3t"),
        r"(?<![A-Za-z0-9])(?P<S>(?:A3T[A-Z0-9]|AKIA|ASIA|ABIA|ACCA)[A-Z2-7]{16})(?![A-Za-z0-9])",
    ),
    _Rule("gcp-api-key", "a GCP API key", ("aiza",), r"(?<![\w-])(?P<S>AIza[0-9A-Za-z_-]{35})(?![\w-])"),
    _Rule(
        "github-token",
        "a GitHub token",
        ("ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_"),
        r"(?<![\w-])(?P<S>gh[pousr]_[A-Za-z0-9]{36,255}|github_pat_\w{22,255})(?![\w-])",
    ),
    _Rule("gitlab-token", "a GitLab token", ("glpat-", "gldt-", "glrt-"), r"(?P<S>\bgl(?:pat|dt|rt)-[\w-]{20,})"),
    _Rule(
        "slack-token",
        "a Slack token",
        ("xox", "hooks.slack.com"),
        r"(?P<S>\bxox[abposr]-[A-Za-z0-9-]{10,}|(?<=hooks\.slack\.com/services/)[A-Za-z0-9]+/[A-Za-z0-9]+/[A-Za-z0-9]+)",
    ),
    _Rule(
        "api-key",
        "an API key",
        ("_live_", "sk-ant-", "sk-proj-"),
        r"(?P<S>\b(?:[sr]k_live_\w{20,}|sk-(?:ant|proj)-[\w-]{20,}))",
    ),
    _Rule(
        "jwt",
        "a JSON web token",
        ("eyj",),
        r"(?<![\w-])(?P<S>eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]*)",
    ),
    # Bearer tokens outside an Authorization header (an Authorization rule above starts earlier).
    _Rule("token", "a bearer token", ("bearer",), r"(?P<N>(?<![\w-])Bearer[ \t]+)(?P<S>[A-Za-z0-9._~+/-]{16,}=*)"),
    # Only the marker line: the body is taken line by line (_private_key).
    _Rule(
        "private-key",
        "a private key",
        ("private key",),
        r"(?P<PEM>-----BEGIN[ A-Z0-9]*PRIVATE KEY(?: BLOCK)?-----)",
    ),
)

# What only stands for a secret: a variable, a placeholder, a masked or boolean value; and what
# starts with "(", which is fio's job header (`token: (g=0): rw=read`), not a value.
_PLACEHOLDER = re.compile(
    r"(?i)\$.*|\(.*|%\w+%|<[^>]*>|\{\{.*\}\}|\[REDACTED.*|\*+|x{3,}|\.{3}|…|true|false|null|none|nil|yes|no|on|off|"
    r"required|optional|prompt|stdin|-"
)
# The rules that know a secret by its shape alone, which name a value found beside a name too.
_SHAPED = tuple(
    i
    for i, rule in enumerate(_RULES)
    if rule.kind in ("aws-access-key-id", "gcp-api-key", "github-token", "gitlab-token", "slack-token", "jwt")
)
_KNOWN_PREFIX = re.compile(
    r"gh[pousr]_|github_pat_|gl(?:pat|dt|rt)-|xox[a-z]-|[sr]k_live_|sk-(?:ant|proj)-|AKIA|ASIA|ABIA|ACCA|A3T|AIza|eyJ"
)
_PEM_BODY = re.compile(r"\s*(?:[A-Za-z0-9+/=]+|[\w-]+: .*)?\s*")
_PEM_END = re.compile(r"-----END[ A-Z0-9]*PRIVATE KEY(?: BLOCK)?-----")

# Clients whose `--password` takes no value after a space: alone it asks for the password, and the
# next word is something else, as in `mysql --password sbtest` (sbtest the database). MySQL's and
# MariaDB's take the value attached only (`--password=x`, `-px`: "--password[=name]" in their
# --help); PostgreSQL's `-W, --password` takes none at all ("force password prompt"). SonarSource's
# hard-coded secrets check (S6437) knows mysql, mysqladmin and mysqldump the same way. Only the
# program a command runs (its first word, after a prompt and wrappers) counts: a value published
# because a word merely looked like mysql (`sudo -u mysql bench --password x`) would be a leak.
_PROMPTING_PROGRAMS = re.compile(
    r"(?:mysql(?:admin|binlog|check|dump|import|pump|sh|show|slap)?|"
    r"mariadb(?:-(?:admin|binlog|check|dump|import|show|slap))?|"
    r"psql|pg_dump(?:all)?|pg_restore|pg_basebackup|pg_receivewal|pg_recvlogical|pg_amcheck|"
    r"createdb|dropdb|createuser|dropuser|vacuumdb|reindexdb|clusterdb|vacuumlo)(?:\.exe)?",
    re.IGNORECASE,
)
# `--password1` to `3`: MySQL 8.0.27's multifactor passwords, taken the same way.
_PROMPTING_OPTIONS = re.compile(r"--password[123]?")


def _kind_of_value(name: str, secret: str) -> tuple[str, str]:
    """The marker and the words for a value named `name`: what its shape says it is (an AWS key id in
    AWS_ACCESS_KEY_ID=), else what its name says: password, token, secret or key."""
    for index in _SHAPED:
        if re.search(_RULES[index].pattern.replace("(?P<S>", "("), secret):
            return _RULES[index].kind, _RULES[index].what
    lowered = name.lower()
    if "pass" in lowered or "pwd" in lowered:
        return "password", "a password"
    if "aws" in lowered and "secret" in lowered:
        return "aws-secret-access-key", "an AWS secret access key"
    if "token" in lowered:
        return "token", "a token"
    if "secret" in lowered or "signature" in lowered or "credential" in lowered:
        return "secret", "a secret"
    return "key", "a key"


@functools.lru_cache(maxsize=64)
def _combined(indexes: tuple[int, ...]) -> tuple[re.Pattern[str], dict[int, list[tuple[str, str]]]]:
    """One regex for these rules, each an alternative named r<i>; and each rule's (role, group name),
    its groups renamed to be unique (S the secret, N the name before it, PEM a key's BEGIN line)."""
    parts, roles = [], {}
    for index in indexes:
        names: list[tuple[str, str]] = []

        def rename(match: re.Match[str], index: int = index, names: list[tuple[str, str]] = names) -> str:
            names.append((match.group(1), f"{match.group(1)}{index}_{len(names)}"))
            return f"(?P<{names[-1][1]}>"

        parts.append(f"(?P<r{index}>{re.sub(r'[(][?]P<(S|N|PEM)>', rename, _RULES[index].pattern)})")
        roles[index] = names
    return re.compile("|".join(parts)), roles


@dataclass(frozen=True)
class _Keywords:
    """Every rule's keywords as one regex over lower-cased text, and what a hit of each enables."""

    pattern: re.Pattern[str]
    rules: dict[str, tuple[int, ...]]  # a hit enables the rules of every keyword inside it ("key=": "key")
    # Keywords that start inside a hit and end after it ("eyj" in "keyj"), which the regex, going on
    # from the hit's end, would not see: (offset in the hit, keyword).
    overlapping: dict[str, tuple[tuple[int, str], ...]]


@functools.cache
def _keywords() -> _Keywords:
    rules: dict[str, set[int]] = {}
    for index, rule in enumerate(_RULES):
        for word in rule.keywords:
            rules.setdefault(word, set()).add(index)
    words = sorted(rules, key=len, reverse=True)  # the longest at each position
    inside = {word: tuple(sorted({i for inner in words if inner in word for i in rules[inner]})) for word in words}
    overlapping = {
        word: tuple(
            (offset, other)
            for offset in range(1, len(word))
            for other in words
            if len(other) > len(word) - offset and other.startswith(word[offset:])
        )
        for word in words
    }
    return _Keywords(re.compile("|".join(map(re.escape, words))), inside, overlapping)


def _candidates(text: str) -> tuple[tuple[int, ...], list[tuple[int, int]]]:
    """The rules whose keywords the text has, and the lines that have one, as (start, end) offsets.

    Every secret a rule finds is on a line with one of its keywords (a PEM block starts on one), so
    the combined regex runs over those lines only: a fio log with none costs one scan of its text.
    """
    keywords = _keywords()
    enabled: set[int] = set()
    lines: list[tuple[int, int]] = []
    lowered = text.lower()
    for hit in keywords.pattern.finditer(lowered):
        word = hit.group(0)
        enabled.update(keywords.rules[word])
        for offset, other in keywords.overlapping[word]:
            if lowered.startswith(other, hit.start() + offset):
                enabled.update(keywords.rules[other])
        if lines and hit.start() < lines[-1][1]:
            continue  # on the line found last
        start = lowered.rfind("\n", 0, hit.start()) + 1
        end = lowered.find("\n", hit.end())
        lines.append((start, len(text) if end < 0 else end))
    if len(lowered) != len(text):  # a letter lower-cased to two (Turkish İ): offsets differ, take every line
        lines = [(0, len(text))] if lines else []
    return tuple(sorted(enabled)), lines


def find(text: str) -> list[tuple[int, int, str, Finding]]:
    """(start, end, marker, finding) of each secret in the text, in order, not overlapping."""
    indexes, candidates = _candidates(text)
    if not indexes:
        return []
    # One combined regex for the rules without a program; each rule with one apart (they are rare),
    # so a match skipped for want of its program never hides another rule's match at that place.
    groups = [tuple(i for i in indexes if not _RULES[i].program)]
    groups += [(i,) for i in indexes if _RULES[i].program]
    matches = []
    for group in filter(None, groups):
        pattern, roles = _combined(group)
        for start, end in candidates:
            matches.extend((match, roles) for match in pattern.finditer(text, start, end))
    matches.sort(key=lambda item: item[0].start())
    lines = LineNumbers(text)
    found: list[tuple[int, int, str, Finding]] = []
    for match, roles in matches:
        assert match.lastgroup is not None
        index = int(match.lastgroup[1:])
        spans = {role: match.span(name) for role, name in roles[index] if match.group(name) is not None}
        if "PEM" in spans:
            block = _private_key(text, spans["PEM"], lines)
            if not any(_overlaps(start, end, found) for start, end, _, _ in block):
                found.extend(block)
            continue
        start, end = spans["S"]
        if _overlaps(start, end, found):
            continue  # a part of a secret found already (a key's body, a value another rule took)
        secret = text[start:end]
        if _PLACEHOLDER.fullmatch(secret):
            continue
        rule = _RULES[index]
        command = _command_before(text, match.start())
        program = None
        if rule.program:
            program = re.search(rule.program, command)
            if not program:
                continue
        if rule.option and _prompts_instead(command, text[spans["N"][0] : spans["N"][1]], text[spans["N"][1] : start]):
            continue
        # The words before the secret, quotes left out: "--mysql-password=", "Authorization: Bearer ".
        name = re.sub("[\"']", "", text[spans["N"][0] : start]).strip() if "N" in spans else ""
        kind, what = (rule.kind, rule.what) if rule.kind != "named" else _kind_of_value(name, secret)
        shown = name + "…" if name else _shape(secret)
        if program:
            shown = f"{program.group(0)} … {shown}"
        found.append((start, end, f"[REDACTED:{kind}]", Finding(lines.number(start), what, _shorten(shown))))
    return sorted(found, key=lambda item: item[0])


def _command_before(text: str, offset: int) -> str:
    """The words of the command a match is part of, up to it: from the start of its line, or from the
    last `;`, `&&`, `||` or `|` outside quotes (`systemctl stop mysql; iperf3 -p5201` runs iperf3)."""
    line = text[text.rfind("\n", 0, offset) + 1 : offset]
    start, quote, position = 0, "", 0
    while position < len(line):
        char = line[position]
        if quote:
            quote = "" if char == quote else quote
        elif char in "'\"":
            quote = char
        elif char == ";" or char == "|" or line.startswith("&&", position):
            position += 2 if line.startswith(("&&", "||"), position) else 1
            start = position
            continue
        position += 1
    return line[start:]


def _prompts_instead(command: str, option: str, separator: str) -> bool:
    """Whether the word after an option is not its value: `--password` then a space, run by a client
    whose `--password` takes its value attached or none (_PROMPTING_PROGRAMS)."""
    if "=" in separator or not _PROMPTING_OPTIONS.fullmatch(option):
        return False
    ran = _program(strip_prompt(command.lstrip())[1])
    return ran is not None and _PROMPTING_PROGRAMS.fullmatch(ran) is not None


def _program(command: str) -> str | None:
    """The program a command runs, when its words say so for certain: its first word after VAR=value
    assignments and wrappers (`sudo`, `time`); None after a wrapper option whose value cannot be told
    from a program. sudo's user and group are known (`sudo -u postgres psql`), so `sudo -u mysql bench`
    runs bench."""
    words = iter(shell_words(command))
    for word in words:
        if "=" in word and not word.startswith("-"):
            continue
        if word in ("-u", "-g"):
            next(words, None)  # sudo's user or group (the one wrapper option taken as known)
            continue
        if word.startswith("-"):
            return None
        if basename(word) not in WRAPPERS:
            return basename(word)
    return None


def _overlaps(start: int, end: int, found: list[tuple[int, int, str, Finding]]) -> bool:
    return any(start < taken_end and taken_start < end for taken_start, taken_end, _, _ in found)


def _shape(secret: str) -> str:
    """What a secret recognised by its shape is shown as: its well-known prefix only (AKIA…, ghp_…)."""
    prefix = _KNOWN_PREFIX.match(secret)
    return (prefix.group(0) if prefix else "") + "…"


def _shorten(shown: str) -> str:
    """A command's words before a secret, as a problem message shows them: the last ones only."""
    return shown if len(shown) <= 60 else "…" + shown[-59:]


def _private_key(text: str, marker: tuple[int, int], lines: LineNumbers) -> list[tuple[int, int, str, Finding]]:
    """A PEM private key block: each line of its body as a marker, up to its END line or whatever is not PEM."""
    begin = text[marker[0] : marker[1]]
    line_end = text.find("\n", marker[1])
    line_end = len(text) if line_end < 0 else line_end
    end_marker = _PEM_END.search(text, marker[1], line_end)
    if end_marker:  # on one line, as JSON writes it ("-----BEGIN...-----\nMIIE...\n-----END...-----")
        if end_marker.start() == marker[1]:
            return []
        return [
            (
                marker[1],
                end_marker.start(),
                "[REDACTED:private-key]",
                Finding(lines.number(marker[0]), "a private key", begin + "…"),
            )
        ]
    spans = []
    if text[marker[1] : line_end].strip():  # the body pasted on the marker's own line
        spans.append((marker[1], line_end))
    last = lines.number(marker[0])
    position = line_end + 1
    while position <= len(text):
        next_end = text.find("\n", position)
        next_end = len(text) if next_end < 0 else next_end
        line = text[position:next_end]
        if _PEM_END.search(line) or not _PEM_BODY.fullmatch(line):
            break
        if line.strip():
            indent = len(line) - len(line.lstrip())
            spans.append((position + indent, position + len(line.rstrip())))
        last += 1
        position = next_end + 1
    first = lines.number(marker[0])
    finding = Finding(first, "a private key", f"{begin} to line {last}" if last > first else begin)
    return [(start, end, "[REDACTED:private-key]", finding) for start, end in spans] or [
        (marker[1], marker[1], "", finding)  # a marker with nothing after it: reported, nothing to hide
    ]


def redact(text: str) -> tuple[str, list[Finding]]:
    """The text with every secret replaced by its marker, and one finding per secret (a PEM block is one)."""
    found = find(text)
    if not found:
        return text, []
    pieces, position, findings = [], 0, []
    for start, end, marker, finding in found:
        pieces.append(text[position:start])
        pieces.append(marker)
        position = end
        if not findings or findings[-1] is not finding:
            findings.append(finding)
    pieces.append(text[position:])
    return "".join(pieces), findings

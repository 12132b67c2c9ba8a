"""Redaction of raw output, applied at ingest so originals never reach data/ or public/.

Secrets (passwords and tokens in options, cloud keys, Authorization headers, user:password@
in URLs, private keys: secrets.py) are redacted always, unless hugo.toml opts out; the rest
is off unless asked for. Configured in hugo.toml:

    [params.perfwiki.redact]
      secrets = true     # the default; false publishes secrets as they are (a warning every ingest)
      ipv4 = true        # 10.1.2.3 -> 192.0.2.1 (TEST-NET), loopback kept
      ipv6 = true        # fe80::1c2:3ff:fe4d:5e6f -> 2001:db8::1, ::1 kept
      hostnames = true   # the host of every prompt ([root@db7 ~]#, alice@db7:~$) -> host-1, in every file
      serials = true     # Serial Number: / SN: values, and the SN or SERIAL column of nvme list and lsblk
      domains = ['corp.example.com']   # every host under these domains -> redacted-1.invalid
      patterns = ['ACME-\\d+']   # anything else, as Python regexes -> [redacted]

Replacements are numbered in order of first appearance within each file, so two
addresses stay two addresses and the output still parses; lines are never added
or removed, so every line number still points at the same line. Text is redacted
before it is parsed: commands, labels, metrics and the published copy of the raw
file all come from the redacted text. The recorded sha256 stays the original's, so
`perfwiki status` still recognises the file. Each secret, domain and pattern redacted
is a finding (`Redactor.redact`), which ingest reports with its file and line.
"""

from __future__ import annotations

import functools
import hashlib
import ipaddress
import re
import tomllib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from . import lazyre, secrets, tools
from .model import Problem
from .segments import prompt_host

CONFIG_TABLE = "params.perfwiki.redact"


class ConfigError(ValueError):
    """The redaction settings in hugo.toml are unusable; the message names the key."""


@dataclass(frozen=True)
class Rules:
    secrets: bool = True  # on unless hugo.toml opts out: a leaked password cannot be taken back
    ipv4: bool = False
    ipv6: bool = False
    hostnames: bool = False
    serials: bool = False
    patterns: tuple[str, ...] = ()
    domains: tuple[str, ...] = ()  # lower case, without a leading dot

    @property
    def active(self) -> bool:
        flags = self.secrets or self.ipv4 or self.ipv6 or self.hostnames or self.serials
        return flags or bool(self.patterns) or bool(self.domains)


def rules_from_config(root: Path) -> Rules:
    """The rules in root/hugo.toml ([params.perfwiki.redact]); none when the table is absent."""
    path = root / "hugo.toml"
    if not path.is_file():
        return Rules()
    try:
        config = tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as error:
        raise ConfigError(f"hugo.toml: {error}") from error
    table: Any = config
    for part in CONFIG_TABLE.split("."):
        table = table.get(part, {}) if isinstance(table, dict) else {}
    if not isinstance(table, dict):
        raise ConfigError(f"hugo.toml: [{CONFIG_TABLE}] must be a table")
    unknown = sorted(set(table) - {"secrets", "ipv4", "ipv6", "hostnames", "serials", "patterns", "domains"})
    if unknown:
        raise ConfigError(f"hugo.toml: [{CONFIG_TABLE}] has unknown keys {', '.join(unknown)}")
    for flag in ("secrets", "ipv4", "ipv6", "hostnames", "serials"):
        if not isinstance(table.get(flag, False), bool):
            raise ConfigError(f"hugo.toml: {CONFIG_TABLE}.{flag} must be true or false")
    patterns = table.get("patterns", [])
    if not isinstance(patterns, list) or not all(isinstance(pattern, str) for pattern in patterns):
        raise ConfigError(f"hugo.toml: {CONFIG_TABLE}.patterns must be a list of strings")
    for number, pattern in enumerate(patterns):
        try:
            re.compile(pattern)  # now: a bad pattern is refused with its key
        except re.error as error:
            raise ConfigError(f"hugo.toml: {CONFIG_TABLE}.patterns[{number}] {pattern!r}: {error}") from error
    domains = table.get("domains", [])
    if not isinstance(domains, list) or not all(isinstance(domain, str) for domain in domains):
        raise ConfigError(f"hugo.toml: {CONFIG_TABLE}.domains must be a list of strings")
    for number, domain in enumerate(domains):
        if not _DOMAIN.fullmatch(domain.strip(".")):
            raise ConfigError(f"hugo.toml: {CONFIG_TABLE}.domains[{number}] {domain!r} is not a domain name")
    return Rules(
        secrets=table.get("secrets", True),
        ipv4=table.get("ipv4", False),
        ipv6=table.get("ipv6", False),
        hostnames=table.get("hostnames", False),
        serials=table.get("serials", False),
        patterns=tuple(patterns),
        domains=tuple(domain.strip(".").lower() for domain in domains),
    )


def opted_out(root: Path, rules: Rules) -> list[Problem]:
    """A warning, every ingest, that secrets are published as they are (hugo.toml's `secrets = false`)."""
    if rules.secrets:
        return []
    path = root / "hugo.toml"
    lines = path.read_text(encoding="utf-8").split("\n")
    line = next((n for n, text in enumerate(lines, start=1) if re.match(r"\s*secrets\s*=", text)), 1)
    message = "secrets = false: passwords, keys and tokens in raw files are published as they are, not redacted"
    return [Problem("hugo.toml", line, message, "warning")]


class _Pseudonyms:
    """original -> replacement, numbered by first appearance."""

    def __init__(self, make: Callable[[int, str], str]) -> None:
        self.make = make
        self.seen: dict[str, str] = {}

    def __call__(self, original: str) -> str:
        if original not in self.seen:
            self.seen[original] = self.make(len(self.seen) + 1, original)
        return self.seen[original]


_DOMAIN = re.compile(r"(?i)[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)+")


def _domain_pattern(domains: tuple[str, ...]) -> re.Pattern[str]:
    """Any host under these domains, or the domain itself: db1.corp.example.com, CORP.example.com."""
    names = "|".join(re.escape(domain) for domain in sorted(domains, key=len, reverse=True))
    return re.compile(rf"(?i)(?<![\w.-])(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)*(?:{names})(?![\w-]|\.[a-z0-9])")


# Words that must never be renamed even if a machine is called so: renaming them would break parsing.
_NOT_HOSTS = {"localhost", *tools.command_names()}
_IPV4 = lazyre.compile(r"(?<![\w.])(\d{1,3}(?:\.\d{1,3}){3})(?![\w]|\.\d)")
_IPV6 = lazyre.compile(r"(?<![\w:.])([0-9A-Fa-f]{0,4}(?::[0-9A-Fa-f]{0,4}){2,7})(?![\w:])")
_SERIAL_VALUE = lazyre.compile(
    r"(?i)(\b(?:serial(?:[ _]?(?:number|no\.?|num))?|s/n|sn)\s*[:=]\s*)([A-Za-z0-9][\w.-]{3,})"
)
_SERIAL_HEADER = lazyre.compile(r"^(\s*(?:Node|NAME)\b.*?\s)(SN|SERIAL)(\s|$)")
# A row of nvme list (/dev/nvme0n1 ...) or lsblk (sda ..., ├─sda1 ..., `-vg-lv ...), or the dashes under a header.
_TABLE_ROW = lazyre.compile(r"[/a-z├└│─|`-]")


def _ipv4(number: int, original: str) -> str:
    block, host = divmod(number - 1, 254)
    return f"{('192.0.2', '198.51.100', '203.0.113')[block % 3]}.{host + 1}"


def _serial(number: int, original: str) -> str:
    name = f"SN{number}"
    return name + "X" * (len(original) - len(name))  # same width: table columns stay aligned


def _serial_columns(text: str, pseudonym: _Pseudonyms) -> str:
    """The SN column of `nvme list` and the SERIAL column of `lsblk -o ...,SERIAL`."""
    lines = text.split("\n")
    column = None
    for index, line in enumerate(lines):
        header = _SERIAL_HEADER.match(line)
        if header:
            column = header.start(2)
            continue
        if column is None:
            continue
        if not _TABLE_ROW.match(line):
            column = None  # a blank line, a prompt, indented output: the table is over
            continue
        if line.startswith("-", column) or column >= len(line) or line[column].isspace():
            continue  # the dashes under the header, or no serial in this row
        if column and not line[column - 1].isspace():
            continue  # not the start of a value: the columns moved
        end = column
        while end < len(line) and not line[end].isspace():
            end += 1
        lines[index] = line[:column] + pseudonym(line[column:end]) + line[end:]
    return "\n".join(lines)


def prompt_hosts(texts: list[str]) -> dict[str, str]:
    """host -> host-N for the host of every prompt in these texts, numbered by first appearance.

    Collected across the whole wiki, so a machine's name is hidden in every file that
    mentions it (uname -a, iperf3 banners, facts), not only in files that show its prompt.
    """
    hosts = _Pseudonyms(lambda number, original: f"host-{number}")
    for text in texts:
        for line in text.split("\n"):
            host = prompt_host(line)
            if host and host.lower() not in _NOT_HOSTS:
                hosts(host)
    return hosts.seen


@dataclass(frozen=True)
class Redactor:
    rules: Rules
    hosts: tuple[tuple[str, str], ...] = ()  # (host, pseudonym), from prompt_hosts

    @property
    def active(self) -> bool:
        return self.rules.active

    @functools.cached_property  # one redactor for every raw file of the site: one digest
    def fingerprint(self) -> str:
        """Part of every cache key: other rules or other hosts, other output."""
        return hashlib.sha256(repr((self.rules, self.hosts)).encode()).hexdigest()

    def text(self, text: str) -> str:
        """The text with what the rules name replaced; the same number of lines."""
        return self.redact(text)[0]

    def redact(self, text: str) -> tuple[str, list[secrets.Finding]]:
        """The text with what the rules name replaced (the same number of lines), and a finding for
        each secret, host under a listed domain and pattern match: what ingest reports."""
        rules = self.rules
        if not rules.active:
            return text, []
        findings: list[secrets.Finding] = []
        if rules.secrets:
            text, findings = secrets.redact(text)
        if rules.domains and any(domain in text.lower() for domain in rules.domains):
            text = self._domains(text, findings)
        if rules.hostnames:
            text = self._hosts(text)
        if rules.ipv4:
            addresses = _Pseudonyms(_ipv4)
            text = _IPV4.sub(lambda match: _replace_address(match, ipaddress.IPv4Address, addresses), text)
        if rules.ipv6:
            addresses6 = _Pseudonyms(lambda number, original: f"2001:db8::{number:x}")
            text = _IPV6.sub(lambda match: _replace_address(match, ipaddress.IPv6Address, addresses6), text)
        if rules.serials:
            serials = _Pseudonyms(_serial)
            text = _SERIAL_VALUE.sub(lambda match: match.group(1) + serials(match.group(2)), text)
            text = _serial_columns(text, serials)
        if rules.patterns:
            # Line by line: a pattern that spans lines must not shift every line number after it.
            lines = text.split("\n")
            for pattern in rules.patterns:
                for number, line in enumerate(lines, start=1):
                    hidden, count = re.subn(pattern, "[redacted]", line)
                    if count:
                        lines[number - 1] = hidden
                        findings.append(
                            secrets.Finding(number, f"a match of the pattern {pattern!r}", line_shape(hidden))
                        )
            text = "\n".join(lines)
        findings.sort(key=lambda finding: finding.line)
        return text, findings

    def _domains(self, text: str, findings: list[secrets.Finding]) -> str:
        """Hosts under the configured domains as redacted-N.invalid (RFC 2606: a name that is no host)."""
        hosts = _Pseudonyms(lambda number, original: f"redacted-{number}.invalid")
        lines = text.split("\n")
        pattern = _domain_pattern(self.rules.domains)

        def hide(match: re.Match[str], number: int) -> str:
            host = match.group(0).lower()
            domain = next(d for d in sorted(self.rules.domains, key=len, reverse=True) if host.endswith(d))
            findings.append(secrets.Finding(number, f"a host name under {domain}", f"now {hosts(host)}"))
            return hosts(host)

        for number, line in enumerate(lines, start=1):
            if "." in line:
                lines[number - 1] = pattern.sub(lambda match, at=number: hide(match, at), line)
        return "\n".join(lines)

    def _hosts(self, text: str) -> str:
        for host, pseudonym in sorted(self.hosts, key=lambda pair: len(pair[0]), reverse=True):  # db7.lab first
            if host in text:
                text = re.sub(rf"(?<![\w-]){re.escape(host)}(?![\w-])", pseudonym, text)
        return text

    def facts(self, facts: dict[str, Any]) -> dict[str, Any]:
        """An environment's facts under the same rules; a `host` or `hostname` fact is hidden whole."""
        if not self.rules.active:
            return facts
        redacted = {}
        for key, value in facts.items():
            if self.rules.hostnames and str(key).lower() in ("host", "hostname"):
                redacted[key] = "[redacted]"
            elif isinstance(value, str):
                redacted[key] = self.text(value)
            else:
                redacted[key] = value
        return redacted


def line_shape(line: str) -> str:
    """A redacted line as a problem message shows it: stripped, and short."""
    line = line.strip()
    return line if len(line) <= 60 else line[:59] + "…"


def _replace_address(match: re.Match[str], kind: type, pseudonym: _Pseudonyms) -> str:
    try:
        address = kind(match.group(1))
    except ValueError:
        return match.group(0)  # 999.1.2.3 is a version number; 10:00:00 and MAC addresses are not IPv6
    if address.is_loopback or address.is_unspecified:
        return match.group(0)
    return pseudonym(match.group(1))

"""Secrets: redacted by default in raw files, and so in commands, data/, exports and the site; each one reported.

The fixture tests/fixtures/secrets/leaked-credentials.txt is a transcript as people paste
one: real sysbench 1.0.20, fio 3.33 and iperf3 3.12 output (iperf3 -V prints its session
cookie), and between them what should never have been pasted: a sysbench command line with
--mysql-password, a curl with an Authorization: Bearer JWT, an aws s3 cp with AWS keys in its
environment, a freshly generated ed25519 key (openssl genpkey, used nowhere) and a label with
user:password@ in a URL. The curl and aws lines were typed as those tools print them.
"""

from __future__ import annotations

import re
import subprocess

import pytest

from perfwiki import runstore, secrets
from perfwiki.extract import extract
from perfwiki.redact import ConfigError, Redactor, Rules, rules_from_config
from support import FIXTURES, copy_site_sources, hugo_binary, perfwiki_command

FIXTURE = FIXTURES / "secrets" / "leaked-credentials.txt"
TRANSCRIPT = FIXTURE.read_text(encoding="utf-8")
# Every secret in the fixture, each as it must never be published.
SECRETS = [
    "S3cr3t-Pa55",
    "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJiZW5jaC11cGxvYWQifQ.Zm9vYmFyYmF6cXV4c2VjcmV0",
    "AKIAZ7QK3MEXAMPLE2QX",
    "wJalrXUtnFEMI/K7MDENG/bPxRfiCYzEXAMPLEKEY",
    TRANSCRIPT.split("-----BEGIN PRIVATE KEY-----\n")[1].split("\n")[0],  # the key's one body line
    "Pa55w0rd-77",
]


def line_of(text: str, needle: str) -> int:
    return text[: text.index(needle)].count("\n") + 1


# (line as pasted, line as published, what the warning calls it)
POSITIVES = [
    (
        "sysbench oltp_read_write --mysql-user=sbtest --mysql-password=hunter2 run",
        "sysbench oltp_read_write --mysql-user=sbtest --mysql-password=[REDACTED:password] run",
        "a password (--mysql-password=…)",
    ),
    (
        "sysbench --db-driver=pgsql --pgsql-password 'pa ss' run",
        "sysbench --db-driver=pgsql --pgsql-password '[REDACTED:password]' run",
        "a password (--pgsql-password…)",
    ),
    ("mysqladmin -uroot -pS3cret status", "mysqladmin -uroot -p[REDACTED:password] status", "a password"),
    ("sshpass -p 'hunter 2' ssh root@db7", "sshpass -p '[REDACTED:password]' ssh root@db7", "a password"),
    ("sshpass -phunter2 ssh db7", "sshpass -p[REDACTED:password] ssh db7", "a password (sshpass … -p…)"),
    ("PASSWORD=hunter2 ./bench.sh", "PASSWORD=[REDACTED:password] ./bench.sh", "a password (PASSWORD=…)"),
    ("export MYSQL_PWD=hunter2", "export MYSQL_PWD=[REDACTED:password]", "a password (MYSQL_PWD=…)"),
    ("PGPASSWORD=hunter2 pgbench -c 8", "PGPASSWORD=[REDACTED:password] pgbench -c 8", "a password (PGPASSWORD=…)"),
    ("bench --token abc123def --runs 3", "bench --token [REDACTED:token] --runs 3", "a token (--token…)"),
    ("upload --secret=s3kr1t", "upload --secret=[REDACTED:secret]", "a secret (--secret=…)"),
    ("upload --api-key=0123456789abcdef", "upload --api-key=[REDACTED:key]", "a key (--api-key=…)"),
    (
        "POST /token client_id=perf&client_secret=Zq8-xx_91&grant_type=client_credentials",
        "POST /token client_id=perf&client_secret=[REDACTED:secret]&grant_type=client_credentials",
        "a secret (client_secret=…)",
    ),
    (
        "curl 'https://maps.googleapis.com/api?key=AIzaSyD-1234567890abcdefghijklmnopqrstu&x=1'",
        "curl 'https://maps.googleapis.com/api?key=[REDACTED:key]&x=1'",
        "a key in a URL (?key=…)",
    ),
    ("key AIzaSyD-1234567890abcdefghijklmnopqrstu", "key [REDACTED:gcp-api-key]", "a GCP API key (AIza…)"),
    ("AKIAIOSFODNN7EXAMPLE", "[REDACTED:aws-access-key-id]", "an AWS access key id (AKIA…)"),
    (
        "aws_access_key_id = ASIAIOSFODNN7EXAMPLE",
        "aws_access_key_id = [REDACTED:aws-access-key-id]",
        "an AWS access key id (aws_access_key_id =…)",
    ),
    (
        "aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
        "aws_secret_access_key = [REDACTED:aws-secret-access-key]",
        "an AWS secret access key",
    ),
    (
        '  "private_key_id": "8d6a3c1f0e9b7a5c3e1f2d4b6a8c0e2f4d6b8a0c",',
        '  "private_key_id": "[REDACTED:key]",',
        "a key (private_key_id:…)",
    ),
    (
        '  "private_key": "-----BEGIN PRIVATE KEY-----\\nMIIEvQIBADAN\\n-----END PRIVATE KEY-----\\n",',
        '  "private_key": "[REDACTED:key]",',
        "a key (private_key:…)",
    ),
    (
        "DefaultEndpointsProtocol=https;AccountName=perf;AccountKey=Eby8vdM02xNOcqF+lPs/8==;EndpointSuffix=core.windows.net",
        "DefaultEndpointsProtocol=https;AccountName=perf;AccountKey=[REDACTED:key];EndpointSuffix=core.windows.net",
        "a key (AccountKey=…)",
    ),
    (
        "https://perf.blob.core.windows.net/c/f.json?sv=2022-11-02&se=2026-12-01&sp=r&sig=Xy%2Fz9AbC%3D",
        "https://perf.blob.core.windows.net/c/f.json?sv=2022-11-02&se=2026-12-01&sp=r&sig=[REDACTED:key]",
        "a key in a URL (&sig=…)",
    ),
    (
        "Server=db7;Database=bench;User Id=sa;Password=P@ss;",
        "Server=db7;Database=bench;User Id=sa;Password=[REDACTED:password];",
        "a password (Password=…)",
    ),
    (
        "git clone https://x:ghp_0123456789abcdefghijABCDEFGHIJ012345@github.com/o/r",
        "git clone https://x:[REDACTED:password]@github.com/o/r",
        "a password in a URL (https://x:…)",
    ),
    (
        "GH=ghp_0123456789abcdefghijABCDEFGHIJ012345",
        "GH=[REDACTED:github-token]",
        "a GitHub token (ghp_…)",
    ),
    ("glpat-Abcdefghij0123456789", "[REDACTED:gitlab-token]", "a GitLab token (glpat-…)"),
    ("xoxb-1234567890-abcdefghijkl", "[REDACTED:slack-token]", "a Slack token (xoxb-…)"),
    (
        "token eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0In0.sig_nature-1",
        "token [REDACTED:jwt]",
        "a JSON web token (eyJ…)",
    ),
    (
        "curl -H 'Authorization: Basic YmVuY2g6aHVudGVyMg==' http://db7/",
        "curl -H 'Authorization: Basic [REDACTED:authorization]' http://db7/",
        "an Authorization header (Authorization: Basic…)",
    ),
    (
        "Authorization: AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20260101, Signature=fe5f80f7",
        "Authorization: [REDACTED:authorization]",
        "an Authorization header (Authorization:…)",
    ),
    (
        "X-Auth-Token: 5f1c0b2e9d",
        "X-Auth-Token: [REDACTED:token]",
        "a token (X-Auth-Token:…)",
    ),
    (
        "wget --header 'x' Bearer abcdefghijklmnop0123",
        "wget --header 'x' Bearer [REDACTED:token]",
        "a bearer token (Bearer…)",
    ),
    (
        "curl -u bench:hunter2 https://db7/",
        "curl -u bench:[REDACTED:password] https://db7/",
        "a password (curl … -u bench:…)",
    ),
    (
        "mongodb://bench:hunter2@db7:27017/perf",
        "mongodb://bench:[REDACTED:password]@db7:27017/perf",
        "a password in a URL (mongodb://bench:…)",
    ),
]

# Near misses: each looks like a secret to a careless pattern, and is published as it is.
NEGATIVES = [
    "fio --name=randread --filename=/dev/nvme0n1 --rw=randread --bs=4k",  # fio's job names
    "randread: (g=0): rw=randread, bs=(R) 4096B-4096B, ioengine=libaio, iodepth=32",
    '"job options" : {"name" : "seq-write", "filename" : "/dev/sdb"}',
    "      Cookie: os6mtdv47xq4x5zuuv46kzk3wzzv774mk4we",  # iperf3 -V: a session id, not a secret
    '    "cookie": "3ynuwvsazhq6ln6t5lxqiijk6zqxf4pooqmw",',  # iperf3 -J
    "sda   8:0  0 100G 0 disk  c1b9d5a2-5e8f-4a3d-9b7e-2f1a0c4d6e8b",  # lsblk UUID
    "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855  fio.json",  # sha256sum
    "mysql -p sbtest",  # -p with a space: mysql asks for the password, sbtest is the database
    "mysql -P 3306 -h db7",
    "PWD=/root OLDPWD=/",  # the working folder
    "PASSWORD=$MYSQL_PASSWORD ./bench.sh",  # a variable stands for it
    "mysql --password=<password> -u root",
    "--password-file=/etc/bench/pw",  # a file that holds it, not it
    "ssh --no-password -h db7",
    "mysql: [Warning] Using a password on the command line interface can be insecure.",
    "http://db7:8080/results and ssh://git@github.com/o/r",
    "Bearer tokens are short-lived",
    "AKIAEXAMPLE",  # too short to be a key id
    "iperf3 --rsa-public-key-path key.pem --authorized-users-path users.csv",
    "Authorization:",
    "the BEGIN PRIVATE KEY marker is what to search for",
    "tokens: 128, max_tokens=4096",
    "secretary: none",
    "token: true",
    "sk-5 disk-3 grafana.example.com/d/abc?orgId=1&refresh=5s",
    "token: (g=0): rw=randread, bs=(R) 4096B-4096B",  # a fio job named token
    "ls -p /tmp; ps -p 1234",  # -p of programs that take no password
]


# Options whose value must be attached: MySQL's and MariaDB's clients take `--password[=name]` and
# `-p[password]` (their --help), PostgreSQL's `-W, --password` takes none (psql 15's --help: "force
# password prompt"). Alone they prompt, and the word after is another argument (the database). Where a
# separate word is the value, or the program running the option is not certain, it is still hidden.
# (command line, as published)
SEPARATE_WORDS = [
    # Not a value: published as typed.
    ("[root@db7 ~]# mysql -u root --password sbtest", "[root@db7 ~]# mysql -u root --password sbtest"),
    ("mysql --password db", "mysql --password db"),
    ("mysql -h db7 -P 3306 -u sbtest -p sbtest", "mysql -h db7 -P 3306 -u sbtest -p sbtest"),
    ("mysqldump -u root --password sbtest > sbtest.sql", "mysqldump -u root --password sbtest > sbtest.sql"),
    ("sudo mariadb --password -e 'show databases' sbtest", "sudo mariadb --password -e 'show databases' sbtest"),
    ("$ sudo -u postgres psql --password pgbench", "$ sudo -u postgres psql --password pgbench"),
    ("pg_dump -h db7 -U bench --password pgbench", "pg_dump -h db7 -U bench --password pgbench"),
    # mysql on the line, but iperf3's and sysbench's -p: a port and a thread count, not passwords.
    ("systemctl stop mysql; iperf3 -c 10.0.0.2 -p5201", "systemctl stop mysql; iperf3 -c 10.0.0.2 -p5201"),
    ("sysbench --mysql-host=db7 --mysql-port=3306 -p4 run", "sysbench --mysql-host=db7 --mysql-port=3306 -p4 run"),
    # A value: hidden.
    ("mysql -u root --password=S3cret sbtest", "mysql -u root --password=[REDACTED:password] sbtest"),
    ("mysql -u root -pS3cret sbtest", "mysql -u root -p[REDACTED:password] sbtest"),
    ('ssh db7 "mysql -pS3cret sbtest"', 'ssh db7 "mysql -p[REDACTED:password] sbtest"'),
    # sysbench 1.0.20 reads no value after a space either, but the word is what its author meant as one.
    (
        "sysbench oltp_read_write --mysql-password S3cret run",
        "sysbench oltp_read_write --mysql-password [REDACTED:password] run",
    ),
    ("curl -u bench:S3cret https://db7/", "curl -u bench:[REDACTED:password] https://db7/"),
    ("./bench.sh --password S3cret", "./bench.sh --password [REDACTED:password]"),
    # The program not certain: mysql is sudo's user here, and ssh runs mysql elsewhere; hidden all the same.
    ("sudo -u mysql ./bench.sh --password S3cret", "sudo -u mysql ./bench.sh --password [REDACTED:password]"),
    ("ssh db7 mysql --password S3cret", "ssh db7 mysql --password [REDACTED:password]"),
]


@pytest.mark.parametrize("pasted,published", SEPARATE_WORDS, ids=[p[0][:40] for p in SEPARATE_WORDS])
def test_a_separate_word_is_hidden_only_where_it_is_the_value(pasted, published):
    redacted, findings = secrets.redact(pasted)
    assert redacted == published
    assert len(findings) == published.count("[REDACTED")


@pytest.mark.parametrize("pasted,published,what", POSITIVES, ids=[p[1][:40] for p in POSITIVES])
def test_each_built_in_pattern_redacts_the_secret_and_keeps_the_line(pasted, published, what):
    redacted, findings = secrets.redact(pasted)
    assert redacted == published
    assert [finding.line for finding in findings] == [1]
    assert f"redacted {what}" in findings[0].message
    # The report names the kind and the words before it, never the secret.
    around = re.split(r"\[REDACTED:[\w-]+\]", published)
    secret = re.fullmatch("(.+)".join(map(re.escape, around)), pasted).group(1)
    assert secret not in findings[0].message


@pytest.mark.parametrize("text", NEGATIVES)
def test_near_misses_are_published_as_they_are(text):
    assert secrets.redact(text) == (text, [])


def test_secrets_side_by_side_are_each_found():
    line = "curl -s -H 'Authorization: Bearer 9f8e7d6c5b4a39281706' -u bench:hunter2 -d token=abc123 https://db7/"
    redacted, findings = secrets.redact(line)
    assert redacted == (
        "curl -s -H 'Authorization: Bearer [REDACTED:authorization]' -u bench:[REDACTED:password] "
        "-d token=[REDACTED:token] https://db7/"
    )
    assert [finding.what for finding in findings] == ["an Authorization header", "a password", "a token"]


def test_a_pem_block_keeps_its_lines_and_is_one_finding():
    block = TRANSCRIPT[TRANSCRIPT.index("-----BEGIN") : TRANSCRIPT.index("-----\n# random") + 5]
    text = f"before\n{block}\nafter\n"
    redacted, findings = secrets.redact(text)
    assert redacted == "before\n-----BEGIN PRIVATE KEY-----\n[REDACTED:private-key]\n-----END PRIVATE KEY-----\nafter\n"
    assert [(f.line, f.message) for f in findings] == [
        (2, "redacted a private key (-----BEGIN PRIVATE KEY----- to line 3)")
    ]
    # Pasted without its END line (a cut-off paste): the body up to what is not base64 is hidden.
    cut = "-----BEGIN RSA PRIVATE KEY-----\nProc-Type: 4,ENCRYPTED\n\nMIIEow\nAAAB==\n[root@db7 ~]# fio --name=x\n"
    assert secrets.redact(cut)[0] == (
        "-----BEGIN RSA PRIVATE KEY-----\n[REDACTED:private-key]\n\n[REDACTED:private-key]\n"
        "[REDACTED:private-key]\n[root@db7 ~]# fio --name=x\n"
    )


def test_the_fixture_loses_every_secret_and_parses_as_before():
    redacted, findings = Redactor(Rules()).redact(TRANSCRIPT)
    assert redacted.count("\n") == TRANSCRIPT.count("\n")
    assert [secret for secret in SECRETS if secret in redacted] == []
    assert [(f.line, f.message) for f in findings] == [
        (line_of(TRANSCRIPT, "--mysql-password"), "redacted a password (--mysql-password=…)"),
        (line_of(TRANSCRIPT, "Authorization"), "redacted an Authorization header (Authorization: Bearer…)"),
        (line_of(TRANSCRIPT, "AKIA"), "redacted an AWS access key id (AWS_ACCESS_KEY_ID=…)"),
        (line_of(TRANSCRIPT, "AKIA"), "redacted an AWS secret access key (AWS_SECRET_ACCESS_KEY=…)"),
        (line_of(TRANSCRIPT, "-----BEGIN"), "redacted a private key (-----BEGIN PRIVATE KEY----- to line 39)"),
        (line_of(TRANSCRIPT, "bench:Pa55"), "redacted a password in a URL (https://bench:…)"),
    ]
    assert "--mysql-password='[REDACTED:password]' cpu" in redacted
    assert "      Cookie: os6mtdv47xq4x5zuuv46kzk3wzzv774mk4we\n" in redacted  # iperf3's session id stays
    clean, hidden = extract("x.txt", TRANSCRIPT.encode()), extract("x.txt", redacted.encode())
    assert [run.tool for run in hidden.runs] == ["sysbench", "fio", "iperf3"]
    assert [run.metrics for run in hidden.runs] == [run.metrics for run in clean.runs]


def test_domains_are_redacted_as_numbered_invalid_hosts_and_reported():
    rules = Rules(secrets=False, domains=("corp.example.com",))
    text = (
        "ping db1.corp.example.com\nDB1.Corp.Example.com and files.corp.example.com\n"
        "notcorp.example.com corp.example.community\n"
    )
    redacted, findings = Redactor(rules).redact(text)
    assert redacted == (
        "ping redacted-1.invalid\nredacted-1.invalid and redacted-2.invalid\n"
        "notcorp.example.com corp.example.community\n"
    )
    assert [(f.line, f.message) for f in findings] == [
        (1, "redacted a host name under corp.example.com (now redacted-1.invalid)"),
        (2, "redacted a host name under corp.example.com (now redacted-1.invalid)"),
        (2, "redacted a host name under corp.example.com (now redacted-2.invalid)"),
    ]


def test_configuration_secrets_domains_and_patterns(tmp_path):
    config = tmp_path / "hugo.toml"
    config.write_text("[params]\n")
    assert rules_from_config(tmp_path) == Rules(secrets=True) and Rules().active
    config.write_text("[params.perfwiki.redact]\nsecrets = false\ndomains = ['.Corp.Example.com']\n")
    assert rules_from_config(tmp_path) == Rules(secrets=False, domains=("corp.example.com",))
    config.write_text("[params.perfwiki.redact]\nsecrets = 'no'\n")
    with pytest.raises(ConfigError, match=r"params.perfwiki.redact.secrets must be true or false"):
        rules_from_config(tmp_path)
    config.write_text("[params.perfwiki.redact]\ndomains = ['corp example']\n")
    with pytest.raises(ConfigError, match=r"domains\[0\] 'corp example' is not a domain name"):
        rules_from_config(tmp_path)
    redacted, findings = Redactor(Rules(secrets=False, patterns=(r"ACME-\d+",))).redact("a\nrack ACME-42\n")
    assert redacted == "a\nrack [redacted]\n" and [(f.line, f.message) for f in findings] == [
        (2, r"redacted a match of the pattern 'ACME-\\d+' (rack [redacted])")
    ]


def test_the_shipped_inputs_have_no_secret():
    """Zero false positives over every real output shipped: the example reports and the fixtures."""
    paths = [p for p in (FIXTURES.parent.parent / "content").rglob("*") if p.is_file()]
    paths += [p for p in FIXTURES.rglob("*") if p.is_file() and p != FIXTURE]
    fired = {}
    for path in paths:
        found = secrets.redact(path.read_bytes().decode("utf-8", errors="replace"))[1]
        if found:
            fired[str(path)] = [finding.message for finding in found]
    assert len(paths) > 100 and fired == {}


REPORT = "vm-vs-bare-metal"
RAW = f"content/reports/{REPORT}/raw/r730-host/leaked-credentials.txt"
PROSE_SECRET = "ghp_ProseTokenProseTokenProseToken012345"


@pytest.fixture(scope="module")
def leaked_site(tmp_path_factory):
    """The example wiki with the fixture as a raw file, a token in a report's prose, and a listed domain."""
    site = copy_site_sources(tmp_path_factory.mktemp("secrets"))
    with (site / "hugo.toml").open("a", encoding="utf-8") as config:
        config.write("\n[params.perfwiki.redact]\ndomains = ['corp.example.com']\n")
    (site / RAW).write_text(TRANSCRIPT, encoding="utf-8")
    index = site / "content" / "reports" / REPORT / "index.md"
    prose = index.read_text(encoding="utf-8") + f"\nResults were uploaded with `GITHUB_TOKEN={PROSE_SECRET}`.\n"
    index.write_text(prose, encoding="utf-8")
    ingest = subprocess.run(perfwiki_command() + ["ingest", "--root", str(site)], capture_output=True, text=True)
    again = subprocess.run(perfwiki_command() + ["ingest", "--root", str(site)], capture_output=True, text=True)
    assert again.stderr == ingest.stderr  # from the cache, every warning again until the author acts
    build = subprocess.run([str(hugo_binary()), "-d", str(site / "public")], cwd=site, capture_output=True, text=True)
    assert build.returncode == 0, build.stdout + build.stderr
    exports = {}
    for form in ("html", "md"):
        out = site / f"export.{form}"
        done = subprocess.run(
            perfwiki_command() + ["export", REPORT, "--format", form, "-o", str(out), "--root", str(site)],
            capture_output=True,
            text=True,
        )
        assert done.returncode == 0, done.stderr
        exports[form] = out.read_text(encoding="utf-8")
    return site, ingest, prose, exports


def test_each_redaction_is_a_warning_at_its_file_and_line(leaked_site):
    site, ingest, prose, _ = leaked_site
    said = [line for line in ingest.stderr.splitlines() if line.startswith(RAW)]
    assert said == [
        f"{RAW}:1: warning: redacted a password (--mysql-password=…)",
        f"{RAW}:1: warning: redacted a host name under corp.example.com (now redacted-1.invalid)",
        f"{RAW}:33: warning: redacted an Authorization header (Authorization: Bearer…)",
        f"{RAW}:33: warning: redacted a host name under corp.example.com (now redacted-2.invalid)",
        f"{RAW}:35: warning: redacted an AWS access key id (AWS_ACCESS_KEY_ID=…)",
        f"{RAW}:35: warning: redacted an AWS secret access key (AWS_SECRET_ACCESS_KEY=…)",
        f"{RAW}:38: warning: redacted a private key (-----BEGIN PRIVATE KEY----- to line 39)",
        f"{RAW}:41: warning: redacted a password in a URL (https://bench:…)",
        f"{RAW}:41: warning: redacted a host name under corp.example.com (now redacted-3.invalid)",
    ]
    assert not any(secret in ingest.stderr for secret in SECRETS)


def test_a_secret_in_prose_is_reported_and_left_for_the_author(leaked_site):
    site, ingest, prose, _ = leaked_site
    index = f"content/reports/{REPORT}/index.md"
    line = prose.split("\n").index(f"Results were uploaded with `GITHUB_TOKEN={PROSE_SECRET}`.") + 1
    assert (
        f"{index}:{line}: shows a GitHub token (GITHUB_TOKEN=…), "
        "and authored pages are published as written: take it out"
    ) in ingest.stderr.splitlines()
    assert ingest.returncode == 1 and PROSE_SECRET not in ingest.stderr
    assert (site / index).read_text(encoding="utf-8") == prose  # not rewritten
    # `perfwiki check` (what make build and make check run first) says it the same way, and fails.
    check = subprocess.run(perfwiki_command() + ["check", "--root", str(site)], capture_output=True, text=True)
    assert check.returncode == 1 and PROSE_SECRET not in check.stderr
    assert (
        f"{index}:{line}: shows a GitHub token (GITHUB_TOKEN=…), "
        "and authored pages are published as written: take it out"
    ) in check.stderr.splitlines()


def test_no_secret_reaches_data_static_exports_or_the_built_site(leaked_site):
    site, _, _, exports = leaked_site
    assert all(secret in TRANSCRIPT for secret in SECRETS)
    leaks = {}
    for folder in ("data", "site/static", "public"):
        for path in (site / folder).rglob("*"):
            if path.is_file():
                text = path.read_bytes().decode("utf-8", errors="replace")
                found = [s for s in SECRETS + ["corp.example.com"] if s in text]
                if found:
                    leaks[str(path.relative_to(site))] = found
    for form, text in exports.items():
        found = [s for s in SECRETS + ["corp.example.com"] if s in text]
        if found:
            leaks[f"export.{form}"] = found
    assert leaks == {}
    published = (site / "site" / "static" / RAW.removeprefix("content/")).read_text(encoding="utf-8")
    assert published.count("\n") == TRANSCRIPT.count("\n") and "[REDACTED:private-key]" in published
    run_json, _ = runstore.run_exports(site, REPORT, "r730-host-leaked-credentials-sysbench")
    assert "--mysql-password='[REDACTED:password]'" in run_json
    # The prose is the author's: published as written, and reported above.
    assert PROSE_SECRET in (site / "public" / "reports" / REPORT / "index.html").read_text(encoding="utf-8")


def test_opting_out_publishes_as_is_and_warns_every_ingest(tmp_path):
    site = copy_site_sources(tmp_path)
    with (site / "hugo.toml").open("a", encoding="utf-8") as config:
        config.write("\n[params.perfwiki.redact]\nsecrets = false\n")
    (site / RAW).write_text(TRANSCRIPT, encoding="utf-8")
    line = (site / "hugo.toml").read_text(encoding="utf-8").split("\n").index("secrets = false") + 1
    warning = (
        f"hugo.toml:{line}: warning: secrets = false: passwords, keys and tokens in raw files are published "
        "as they are, not redacted"
    )
    for _ in range(2):  # every ingest, the second from the cache
        ingest = subprocess.run(perfwiki_command() + ["ingest", "--root", str(site)], capture_output=True, text=True)
        assert ingest.returncode == 0 and warning in ingest.stderr.splitlines(), ingest.stderr
        assert "warning: redacted" not in ingest.stderr
    published = (site / "site" / "static" / RAW.removeprefix("content/")).read_text(encoding="utf-8")
    assert published == TRANSCRIPT

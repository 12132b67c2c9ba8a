"""segments: prompts, comments, markdown fences and labels, cut where people would cut."""

from __future__ import annotations

from perfwiki.extract import extract_text
from perfwiki.model import Source
from perfwiki.segments import invoked_tool, split, strip_prompt
from support import FIXTURES


def test_markdown_headings_and_bold_lines_label_the_fenced_command():
    text = "\n".join(
        [
            "---",
            "title: x",
            "---",
            "### 3.1 BandWidth",
            "Some prose paragraph that explains the settings at length, which is not a label at all.",
            "【**1. Sequential Write**】",
            "```",
            "sudo fio --name=a --rw=write",
            "a: (groupid=0, jobs=1): err= 0: pid=1",
            "```",
        ]
    )
    (segment,) = split(text)
    assert segment.label == "【1. Sequential Write】"
    assert segment.section == "3.1 BandWidth"
    assert segment.command == "sudo fio --name=a --rw=write"
    assert segment.command_line == 8
    assert [line.number for line in segment.lines] == [9]


def test_transcript_comments_label_commands_and_prompts_are_stripped():
    text = "\n".join(
        [
            "# 4KB随机读",
            "[root@host ~]# fio --name=r --rw=randread",
            "output one",
            "# 4KB随机写",
            "root@box:/tmp# fio --name=w --rw=randwrite",
            "output two",
            "D:\\>c:\\fio\\fio\\fio --name=win",
            "output three",
        ]
    )
    segments = split(text)
    assert [(s.label, s.command, s.tool_hint) for s in segments] == [
        ("4KB随机读", "fio --name=r --rw=randread", "fio"),
        ("4KB随机写", "fio --name=w --rw=randwrite", "fio"),
        (None, "c:\\fio\\fio\\fio --name=win", "fio"),  # a label names the next run only
    ]
    assert [line.text for line in segments[1].lines] == ["output two"]


def test_a_comment_after_the_command_does_not_rename_it():
    text = "```shell\n# 测试随机写 IOPS\nfio --name=x\n# 结果\nx: (groupid=0, jobs=1): err= 0: pid=1\n```\n"
    (segment,) = split(text)
    assert segment.label == "测试随机写 IOPS"
    assert [line.text for line in segment.lines] == ["x: (groupid=0, jobs=1): err= 0: pid=1"]


def test_output_lines_that_start_like_tools_are_not_commands():
    assert invoked_tool("Run status group 0 (all jobs):") is None
    assert invoked_tool("sysbench 1.0.20 (using bundled LuaJIT 2.1.0-beta3)") is None
    assert invoked_tool("fio-3.1") is None
    assert invoked_tool("./Run -c 1") == "unixbench"
    assert invoked_tool("sudo time taskset -c 2 fio --name=x") == "fio"
    assert invoked_tool("FOO=1 dd if=/dev/zero of=x bs=1M count=1") == "dd"


def test_prompt_forms():
    assert strip_prompt("[root@localhost ~]# fio x") == ("[root@localhost ~]# ", "fio x")
    assert strip_prompt("user@host:~$ iperf3 -c x") == ("user@host:~$ ", "iperf3 -c x")
    assert strip_prompt("PS C:\\Users\\me> fio x") == ("PS C:\\Users\\me> ", "fio x")
    assert strip_prompt("  write: IOPS=872") == (None, "  write: IOPS=872")


def test_carriage_return_progress_keeps_line_numbers():
    text = "fio --name=x\nJobs: 1 [10%]\rJobs: 1 [100%]\nx: (groupid=0, jobs=1): err= 0: pid=1\n"
    (segment,) = split(text)
    assert [(line.number, line.text) for line in segment.lines] == [
        (2, "Jobs: 1 [100%]"),
        (3, "x: (groupid=0, jobs=1): err= 0: pid=1"),
    ]


def test_prompt_forms_of_seed_002():
    text = "\n".join(
        [
            "$fio -name=a -rw=randrw",
            "a out",
            "[essd_pl3]# fio -name=b",
            "b out",
            "[root@x86.170 /polarx/lvm]",
            "#/usr/sbin/nvme list",
            "Node             SN",
            "[root@hygon8 14:44 /polarx/lvm]",
            "#echo 3 > /proc/sys/vm/drop_caches ; rm -f ./fio.test; fio -name=c",
            "c out",
            "[root@nu4d01142 data]#",
        ]
    )
    segments = split(text)
    assert [(s.command, s.tool_hint, [line.text for line in s.lines]) for s in segments] == [
        ("fio -name=a -rw=randrw", "fio", ["a out"]),
        ("fio -name=b", "fio", ["b out"]),
        ("/usr/sbin/nvme list", None, ["Node             SN"]),
        ("echo 3 > /proc/sys/vm/drop_caches ; rm -f ./fio.test; fio -name=c", "fio", ["c out"]),
    ]


def test_a_comment_after_a_bare_hash_is_not_a_command():
    (segment,) = split("#set read 50% write 50%\nrwmixread=50\n")
    assert segment.command is None and segment.label == "set read 50% write 50%"


def test_comments_inside_a_paste_of_outputs_label_the_output_below_them():
    text = "```\n# 4KB随机读\nfirst output\n# 4KB随机写\nDisk stats of the first\nsecond output\n```\n"
    (segment,) = split(text)
    assert segment.command is None
    assert segment.markers == [(4, "4KB随机写")]
    assert segment.label == "4KB随机读"
    assert segment.label_at(3) == "4KB随机读"
    assert segment.label_at(6) == "4KB随机写"


def test_a_hash_line_naming_a_tool_is_a_comment_unless_it_has_arguments():
    text = (
        "# sysbench cpu\n$ sysbench cpu --time=1 run\nevents per second: 4505.29\n"
        "#fio -bs=4k -rw=read\nx: (groupid=0, jobs=1): err= 0: pid=1\n#iostat 1\nDevice tps\n"
    )
    first, second, third = split(text)
    assert (first.label, first.command) == ("sysbench cpu", "sysbench cpu --time=1 run")
    assert second.command == "fio -bs=4k -rw=read"  # arguments: a command behind a root prompt
    assert third.command == "iostat 1"  # the prompt glued to the tool: a command


def test_a_comment_label_names_the_next_run_only_not_the_tools_after_it():
    """Issue 30: a '# label' above a fio run was inherited by the dd and iperf3 runs pasted after it.
    Real captures: the labelled direct-I/O fio run of fio-3.33-randread-direct-then-buffered.txt,
    then debian12-dd.txt and debian12-iperf3.txt, as one transcript; a `cd` in between runs no tool."""
    fio = (FIXTURES / "fio" / "fio-3.33-randread-direct-then-buffered.txt").read_text(encoding="utf-8")
    labelled = fio.split("\n# 4 KiB random read, buffered")[0]  # its first run: the comment, command, output
    text = "\n".join(
        [
            labelled.rstrip("\n"),
            "$ cd /tmp",
            (FIXTURES / "dd" / "debian12-dd.txt").read_text(encoding="utf-8").rstrip("\n"),
            (FIXTURES / "iperf3" / "debian12-iperf3.txt").read_text(encoding="utf-8").rstrip("\n"),
            "# loopback again",
            "$ cd /tmp",  # runs no tool: the label waits for the run below it
            (FIXTURES / "iperf3" / "debian12-iperf3.txt").read_text(encoding="utf-8").rstrip("\n"),
        ]
    )
    runs = extract_text(text, Source("transcript.txt", 1, 1, "0" * 64)).runs
    assert [(run.tool, run.label) for run in runs] == [
        ("fio", "4 KiB random read, direct I/O"),
        ("dd", None),
        ("iperf3", None),
        ("iperf3", "loopback again"),
    ]
    assert runs[0].params["name"] == "randread-direct" and runs[1].metrics["bytes"] == 8388608


TRANSCRIPTS = FIXTURES / "transcripts"


def read(path) -> str:
    """A fixture as saved: read_text would turn the carriage return of fio's `Jobs:` line into a new line."""
    return path.read_bytes().decode("utf-8")


def runs_of(name: str):
    return extract_text(read(TRANSCRIPTS / name), Source(name, 1, 1, "0" * 64))


def described(run) -> tuple:
    return run.tool, run.command_line, run.command


def test_prompt_forms_keep_the_command_and_the_parameters_only_it_gives():
    """Issue 31: behind `/tmp/perfwiki-data # ` (busybox ash), zsh's `db7% ` and `➜  dir git:(main) ✗ `, a
    conda `(base) ` prefix and PowerShell on Linux, each run lost its command, and with it what only
    the command says (fio's size, runtime and direct=1; sysbench's memory options), or the run itself."""
    bash = runs_of("bash-prompts.txt").runs
    assert [described(run) for run in bash] == [
        (
            "fio",
            1,
            "fio --name=randread-qd8 --filename=/tmp/perfwiki-data/f.dat --size=8M --rw=randread --bs=4k "
            "--ioengine=libaio --iodepth=8 --direct=1 --runtime=1 --time_based",
        ),
        ("iperf3", 35, "iperf3 -c 127.0.0.1 -p 5299 -t 1"),  # `[root@db7 perfwiki-data]# ls` above it ends nothing
        ("sysbench", 46, "sysbench cpu --threads=2 --time=1 run"),  # behind `(base) alice@db7:~$ `
        ("ioping", 78, "ioping -c 3 /tmp/perfwiki-data"),
    ]
    fio = bash[0].params
    assert (fio["rw"], fio["bs_bytes"], fio["iodepth"]) == ("randread", 4096, 8)
    assert (fio["size_bytes"], fio["runtime_s"], fio["io_mode"]) == (8 << 20, 1, "direct")
    assert bash[2].params["time_s"] == 1 and bash[3].params["count"] == 3

    ash = runs_of("busybox-ash.txt").runs
    assert [described(run) for run in ash] == [
        (
            "fio",
            1,
            "fio --name=seqwrite --filename=/tmp/perfwiki-data/f.dat --size=8M --rw=write --bs=64k "
            "--ioengine=psync --direct=1 --runtime=1 --time_based",
        ),
        ("ioping", 35, "ioping -c 3 -s 64k /tmp/perfwiki-data"),  # behind `~ # `
    ]
    assert ash[0].params["io_mode"] == "direct" and ash[0].params["bs_bytes"] == 65536
    # `/tmp/perfwiki-data # df -h` runs no tool behind a prompt output can look like: output, not a
    # command; df's own row ('/dev/vda ... 17% /') neither, and fio's run ends where its output does.
    assert ash[0].source.line_end == 31

    zsh = runs_of("zsh-prompts.txt").runs
    assert [described(run) for run in zsh] == [
        ("sysbench", 1, "sysbench memory --memory-block-size=1M --memory-total-size=2G run"),  # db7%
        ("mbw", 39, "mbw -n 2 16"),  # alice@db7 ~ %
        (
            "fio",
            52,  # ➜  perfwiki-data git:(main) ✗
            "fio --name=randwrite-qd16 --filename=/tmp/perfwiki-data/f.dat --size=8M --rw=randwrite --bs=16k "
            "--ioengine=libaio --iodepth=16 --direct=1 --runtime=1 --time_based",
        ),
        ("iperf3", 87, "iperf3 -c 127.0.0.1 -p 5299 -t 1 -R"),  # ➜  ~ , after `ls` there
    ]
    assert zsh[0].params["memory_block_size"] == "1M" and zsh[0].params["memory_total_size"] == "2G"
    assert (zsh[2].params["iodepth"], zsh[2].params["size_bytes"]) == (16, 8 << 20) and zsh[2].label is None
    assert zsh[3].params["reverse"] is True

    windows = runs_of("windows-prompts.txt").runs
    assert [described(run) for run in windows] == [
        ("iperf3", 1, "iperf3 -c 127.0.0.1 -p 5299 -t 1"),  # PS C:\Users\alice>
        ("iperf3", 12, "iperf3 -c 127.0.0.1 -p 5299 -t 1 -P 2"),  # C:\Users\alice>
        ("mbw", 30, "mbw -n 2 -t 0 16"),  # PS /home/alice>
    ]
    assert all(not run.warnings for run in bash + ash + zsh + windows)


def test_a_command_continued_with_backslashes_is_one_command():
    """bash's `> ` before each continued line, or none (a command copied from a script): the
    parameters on the later lines (direct=1, runtime; sysbench's prime limit and time) are kept."""
    fio, sysbench = runs_of("continued-command.txt").runs
    assert fio.command == (
        "fio --name=randrw-qd4 --filename=/tmp/perfwiki-data/f.dat --size=8M --rw=randrw --bs=8k "
        "--ioengine=libaio --iodepth=4 --direct=1 --runtime=1 --time_based"
    )
    assert (fio.command_line, fio.output_start, fio.source.line_start) == (1, 4, 1)
    assert (fio.params["io_mode"], fio.params["runtime_s"], fio.params["iodepth"]) == ("direct", 1, 4)
    assert fio.label is None  # "> --runtime=1 --time_based" was taken for one
    assert sysbench.command == "sysbench cpu --threads=2 --cpu-max-prime=20000 --time=1 run"
    assert (sysbench.command_line, sysbench.output_start) == (50, 54)
    assert (sysbench.params["cpu_max_prime"], sysbench.params["time_s"]) == ("20000", 1)


def test_python_prompts_are_not_shell_prompts():
    text = read(TRANSCRIPTS / "python-repl.txt")
    assert [segment.command for segment in split(text)] == ["python3 -q"]
    (run,) = runs_of("python-repl.txt").runs
    assert (run.tool, run.command, run.label) == ("fio", None, None)  # not ">>> import subprocess"
    assert run.warnings == [
        "the command before this output (line 1) does not run fio: parameters come from the output only"
    ]
    assert (run.params["rw"], run.params["bs_bytes"]) == ("read", 131072) and "size_bytes" not in run.params


def test_an_output_without_its_command_says_so_and_borrows_none():
    """An iperf3 output pasted after a fio run's, without its command, was lost; `cat fio.log` became
    the command of the fio run it shows. fio's rule that ties a command shown apart from its output
    (the job name of --name=, and every header value the command gives) still holds."""
    fio, iperf3, seqread, randwrite = runs_of("output-without-command.txt").runs
    assert (fio.command_line, fio.params["iodepth"], fio.warnings) == (1, 8, [])
    assert (iperf3.tool, iperf3.command, iperf3.command_line, iperf3.output_start) == ("iperf3", None, None, 33)
    assert iperf3.metrics["sender"]["bits_per_s"] == 22.2e9
    assert iperf3.warnings == ["no command before this output: parameters come from the output only"]
    assert (seqread.command_line, seqread.source.line_start, seqread.output_start) == (43, 45, 45)
    assert seqread.command.endswith("--output=/tmp/perfwiki-data/seqread.log")
    assert seqread.warnings == ["command shown apart from its output, at line 43"]
    assert seqread.params["size_bytes"] == 8 << 20  # from the command, which the output does not show
    assert (randwrite.command, randwrite.params["iodepth"], "size_bytes" in randwrite.params) == (None, 32, False)
    assert randwrite.warnings == [
        "the command before this output (line 75) does not run fio: parameters come from the output only"
    ]


def test_the_prompt_rules_hold_when_a_transcript_is_read_a_stretch_at_a_time(monkeypatch):
    from perfwiki import segments
    from perfwiki.segments import segments_of, stream_lines

    monkeypatch.setattr(segments, "_STRETCH_CHARS", 64)
    for path in sorted(TRANSCRIPTS.glob("*.txt")):
        text = read(path)
        whole = [(s.command, s.command_line, s.tool_hint, [line.number for line in s.lines]) for s in split(text)]
        streamed = [
            (s.command, s.command_line, s.tool_hint, [line.number for line in s.lines])
            for s in segments_of(stream_lines(text))
        ]
        assert streamed == whole, path.name


def test_lines_of_output_that_look_like_prompts():
    """What tools print beside '#', '$', '%' and ':' is no prompt, unless a tool is run behind a prompt
    only output can look like; behind a prompt that names where it is, any command ends the output."""
    for line in (
        "/dev/sda # fio target disk",  # a device is a file, never a folder a shell sits in
        "/dev/vda        252G   15G   77G  17% /",
        "Run status group 0 (all jobs):",
        "  vda: ios=16858/16847, merge=0/8, ticks=1326/1306, in_queue=2631, util=71.82%",
        ">>> subprocess.run(['fio', '--name=x'])",
        "> fio --name=quoted",
        "... fio --name=x",
    ):
        assert split(f"$ fio --name=x\n{line}\n")[0].lines[0].text == line, line
    assert strip_prompt("/mnt/data # fio --name=x") == ("/mnt/data # ", "fio --name=x")
    assert strip_prompt("db7% sysbench cpu run") == ("db7% ", "sysbench cpu run")
    assert strip_prompt("➜  ~ ls") == ("➜  ~ ", "ls")
    assert strip_prompt("(venv) $ fio --name=x") == ("(venv) $ ", "fio --name=x")
    assert [s.command for s in split("➜  ~ ls\nf.dat\n/mnt/data # ls\nf.dat\n")] == ["ls"]  # the second: output

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

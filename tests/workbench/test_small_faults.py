"""Small faults from the hostile audit (issue 27 item 11), each checked where it was: a cancelled job and a full
undo stack, lesson numbers, a lesson saved with a byte order mark, and newlines in the desktop entry's paths.
(A session whose "format" field is damaged: tests/files/test_detect_users_files.py.)"""

from __future__ import annotations

import pytest

from bloomviz import cli
from bloomviz.desktop_entry import entry_text
from bloomviz.lessons.format import LessonError, parse_file
from bloomviz.workbench.model import Workbench as WorkbenchModel
from bloomviz.workbench.undo import DEPTH

LESSON = "# A lesson\n\nIntro.\n\n## Step one\n\nText.\n\n```bloomviz\nfilter m={m} k=3\ninsert apple\n```\n"


def test_a_cancelled_job_on_a_full_undo_stack_keeps_the_oldest_step():
    wb = WorkbenchModel(probes=50)
    assert wb.configure(256, 3)
    for i in range(DEPTH):
        wb.insert(f"item {i}")
    assert len(wb.undo_stack) == DEPTH
    oldest = wb.undo_stack._steps[0].label
    items = [f"bulk {i}" for i in range(10_000)]
    assert wb.run_job(lambda count, it=iter(items): [x for _, x in zip(range(count), it)], len(items), "bulk",
                      atomic=True)
    wb.step_job()
    wb.cancel()
    assert len(wb.undo_stack) == DEPTH and wb.undo_stack._steps[0].label == oldest
    for _ in range(DEPTH):   # every insert can still be undone, the first one too
        assert wb.undo()
    assert len(wb.filter) == 0


@pytest.mark.parametrize("m", ["1,0", "١٢٨", "６４", "6,4"])
def test_lesson_numbers_refuse_unicode_digits_and_misplaced_commas(tmp_path, m):
    path = tmp_path / "lesson.md"
    path.write_text(LESSON.format(m=m), encoding="utf-8")
    with pytest.raises(LessonError, match=":10:"):
        parse_file(path)


def test_a_lesson_saved_with_a_byte_order_mark_is_read(tmp_path, capsys):
    path = tmp_path / "lesson.md"
    path.write_bytes(b"\xef\xbb\xbf" + LESSON.format(m=64).encode("utf-8"))
    lesson = parse_file(path)
    assert lesson.title == "A lesson" and len(lesson.steps) == 1
    assert cli.main(["lesson", str(path), "--check"]) == 0
    assert "step 1 of 1" in capsys.readouterr().out


def _unescape(value: str) -> str:
    out, i = [], 0
    while i < len(value):
        if value[i] == "\\" and i + 1 < len(value):
            out.append({"n": "\n", "t": "\t", "r": "\r", "s": " ", "\\": "\\"}[value[i + 1]])
            i += 2
        else:
            out.append(value[i])
            i += 1
    return "".join(out)


def _exec_args(line: str) -> list[str]:
    """The arguments of an Exec value (after the string-level unescape), as the specification quotes them."""
    args, i, text = [], 0, _unescape(line)
    while i < len(text):
        if text[i] == " ":
            i += 1
            continue
        if text[i] == '"':
            i, arg = i + 1, []
            while text[i] != '"':
                if text[i] == "\\":
                    i += 1
                arg.append(text[i])
                i += 1
            args.append("".join(arg).replace("%%", "%"))
            i += 1
        else:
            j = text.find(" ", i)
            j = len(text) if j < 0 else j
            args.append(text[i:j])
            i = j
    return args


def test_the_desktop_entry_escapes_newlines_in_its_paths():
    command = ["/home/ana/my\nenv/bin/python", "-m", "bloomviz"]
    icon = "/home/ana/icons\nx/bloomviz.png"
    text = entry_text(command, icon)
    lines = text.splitlines()
    assert len(lines) == len(entry_text(["python"], "bloomviz").splitlines())
    assert all(line == "[Desktop Entry]" or "=" in line for line in lines)
    values = dict(line.split("=", 1) for line in lines[1:])
    assert _exec_args(values["Exec"]) == command
    assert _unescape(values["Icon"]) == icon

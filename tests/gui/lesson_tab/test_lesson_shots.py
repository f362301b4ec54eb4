"""bloomviz lesson NAME --shots DIR: every step of a lesson as presenter mode draws it, at the size asked for,
the question and its answer as two pictures; bad sizes and targets refused in one line."""

from __future__ import annotations

import os
import struct
import subprocess
import sys

import pytest

from bloomviz import cli
from bloomviz.gui.lesson_tab.shots import parse_size


def _png_size(path) -> tuple[int, int]:
    with open(path, "rb") as f:
        head = f.read(24)
    assert head[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", head[16:24])


def test_every_step_of_lesson_1_is_drawn_at_the_size_asked(tmp_path):
    out = tmp_path / "shots"
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    proc = subprocess.run([sys.executable, "-m", "bloomviz", "lesson", "1", "--shots", str(out), "--size", "1280x720"],
                          env=env, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    names = sorted(os.listdir(out))
    assert names[0] == "00-title.png" and len(names) == 9            # title, 6 steps, 2 revealed answers
    assert names.index("04-start-again-without-k1.png") + 1 == names.index("04b-start-again-without-k1-answer.png")
    assert all(_png_size(out / n) == (1280, 720) for n in names)
    assert "shots: 9 pictures at 1280x720" in proc.stdout


@pytest.mark.parametrize("text, size", [("1920x1080", (1920, 1080)), (" 1280 × 720 ", (1280, 720))])
def test_a_size_is_width_x_height(text, size):
    assert parse_size(text) == size


@pytest.mark.parametrize("args, message", [
    (["--size", "big"], "--size: a size is WIDTHxHEIGHT"),
    (["--size", "100x100"], "--size: size 100x100 is outside 640x400"),
])
def test_a_bad_size_is_refused_before_anything_is_drawn(tmp_path, capsys, args, message):
    assert cli.main(["lesson", "1", "--shots", str(tmp_path / "s"), *args]) == 2
    assert message in capsys.readouterr().err and not (tmp_path / "s").exists()


def test_a_file_in_the_way_is_refused(tmp_path, capsys):
    target = tmp_path / "file.png"
    target.write_bytes(b"x")
    assert cli.main(["lesson", "1", "--shots", str(target)]) == 2
    assert "exists and is not a folder" in capsys.readouterr().err

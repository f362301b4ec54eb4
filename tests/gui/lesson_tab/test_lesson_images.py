"""A lesson's Markdown images come only from its own folder: bounded regular files beside it; never a device, a
FIFO, ``file://``, an absolute path, ``..`` or a symbolic link out. The Lesson tab (and so ``--shots``, which
draws it) does not load the others, and ``bloomviz lesson --check`` names each with its line.

The first pass names an image that exists outside the folder (code that loads any path shows it, and the test
fails without reading a device); then ``/dev/zero`` itself."""

from __future__ import annotations

import os

import pytest
from PySide6 import QtCore, QtGui

from bloomviz import cli
from bloomviz.gui.lesson_tab.view import LessonView
from bloomviz.lessons import images

STEP = "```bloomviz\nfilter m=64 k=3\ninsert apple\n```\n"


def write_lesson(tmp_path, references) -> tuple[str, str]:
    folder = tmp_path / "lesson"
    folder.mkdir()
    picture = QtGui.QImage(12, 8, QtGui.QImage.Format.Format_RGB32)
    picture.fill(QtGui.QColor("red"))
    assert picture.save(str(folder / "pic.png")) and picture.save(str(tmp_path / "outside.png"))
    os.symlink(tmp_path / "outside.png", folder / "link.png")
    uses = " ".join(f"![{i}]({ref})" for i, ref in enumerate(references))
    text = (f"# Pictures\n\nBeside it: ![in](pic.png)\n\n## Step one\n\nOthers: {uses} and ![r][out].\n\n"
            f"[out]: {references[0]}\n\n{STEP}")
    path = folder / "lesson.md"
    path.write_text(text, encoding="utf-8")
    return str(path), str(folder)


def outside_references(tmp_path):
    out = str(tmp_path / "outside.png")
    return ["../outside.png", out, "file://" + out, "link.png"]


@pytest.fixture
def view(qtbot):
    v = LessonView()
    qtbot.addWidget(v)
    v.resize(900, 700)
    v.show()
    qtbot.waitExposed(v)
    return v


def loaded(view, reference) -> bool:
    doc = view.narration.document()
    doc.setTextWidth(600)
    doc.size()
    got = doc.resource(QtGui.QTextDocument.ResourceType.ImageResource.value, QtCore.QUrl(reference))
    return isinstance(got, QtGui.QImage) and got.size() == QtCore.QSize(12, 8)   # the red picture itself


def test_the_lesson_tab_shows_only_images_beside_the_lesson(view, tmp_path):
    refs = outside_references(tmp_path)
    path, _ = write_lesson(tmp_path, refs)
    assert view.open_path(path) and view.opening.wait(60)   # opening checks the lesson on a worker first
    assert loaded(view, "pic.png")
    assert view.next()
    for ref in refs:
        assert not loaded(view, ref), ref
    # and the device itself: refused, not read
    other = tmp_path / "second"
    other.mkdir()
    path, _ = write_lesson(other, ["/dev/zero", "../../dev/zero", "file:///dev/zero"])
    assert view.open_path(path) and view.opening.wait(60) and view.next()
    view.narration.document().setTextWidth(600)
    view.narration.document().size()
    assert {"/dev/zero", "../../dev/zero", "file:///dev/zero"} <= set(view.narration.refused)


def test_check_names_every_refused_image_with_its_line(tmp_path, capsys):
    path, _ = write_lesson(tmp_path, outside_references(tmp_path) + ["/dev/zero"])
    assert cli.main(["lesson", path, "--check"]) == 2
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 6 and all(f"{path}:" in line and "is not shown" in line for line in err)
    assert any("'/dev/zero'" in line and "absolute path" in line for line in err)
    assert any("symbolic link" in line for line in err) and any("'..'" in line for line in err)
    assert cli.main(["lesson", path, "--shots", str(tmp_path / "shots")]) == 2
    assert not (tmp_path / "shots").exists()


def test_a_lesson_with_only_its_own_images_passes(tmp_path, capsys):
    folder = tmp_path / "ok"
    folder.mkdir()
    (folder / "fig.png").write_bytes(b"\x89PNG\r\n\x1a\n")
    (folder / "lesson.md").write_text(f"# Fine\n\n![f](fig.png)\n\n## One\n\nText.\n\n{STEP}", encoding="utf-8")
    assert cli.main(["lesson", str(folder / "lesson.md"), "--check"]) == 0
    capsys.readouterr()


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs are POSIX")
def test_fifos_devices_and_large_files_are_refused_by_kind_and_size(tmp_path):
    os.mkfifo(tmp_path / "pipe.png")
    (tmp_path / "big.png").write_bytes(b"\0" * (images.MAX_IMAGE_BYTES + 1))
    folder = str(tmp_path)
    assert "FIFO" in images.refusal(folder, "pipe.png")
    assert images.load(folder, "pipe.png") is None
    assert "more than" in images.refusal(folder, "big.png")
    assert images.refusal(None, "pic.png").startswith("only a lesson file's own folder")

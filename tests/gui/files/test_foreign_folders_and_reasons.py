"""The Other libraries' filter tab on what users of git, LevelDB and RocksDB have: a folder (File → Open, the tab's
"Open a folder…", ``--open DIR``), the system's reasons its rate can be above its setting under the lookup, and a
damaged file of a known format refused with that format's own words."""

from __future__ import annotations

import pytest

from bloomviz.gui.app import parse_args
from bloomviz.gui.files.foreign_view import ForeignView
from git_repos import make_repo, needs_git, write_graph
from window_helpers import new_window


def _window_with_files(qtbot, tmp_path):
    """A window on throwaway settings with the other libraries' view and the File menu's actions installed."""
    from bloomviz.gui.files import foreign_view, session_io
    window = new_window(qtbot, tmp_path)
    foreign_view.install(window)
    return window, session_io.install(window)


class FolderDialogs:
    def __init__(self, folder):
        self.folder, self.errors = str(folder), []

    def open_directory(self, title: str, directory: str = "") -> str:
        return self.folder

    def error(self, title: str, text: str, details: str = "") -> None:
        self.errors.append(text)


@pytest.fixture(scope="module")
def repo(tmp_path_factory):
    big = {f"d{d}/f{j}": "x" for d in range(20) for j in range(26)}
    path, _ = make_repo(tmp_path_factory.mktemp("folders"), [{"a": "1"}, {"src/x.c": "1"}, big])
    write_graph(path)
    return path


@needs_git
def test_a_repository_opens_from_the_folder_button_with_gits_reasons_under_the_lookup(qtbot, repo):
    view = ForeignView(dialogs=FolderDialogs(repo))
    qtbot.addWidget(view)
    assert view.open_folder_dialog()
    assert view.current.format == "git" and len(view.filters) == 3
    reasons = view.why_label.text()
    assert "Why the rate can be higher than configured" in reasons
    assert "10 bits per key" in reasons and "more than 512 paths and leading directories" in reasons
    assert "Why the rate" not in view.numbers.text()      # the lookup field stays right under the numbers


@needs_git
def test_file_open_and_the_command_line_take_a_repository_but_not_any_folder(qtbot, repo, tmp_path):
    window, files = _window_with_files(qtbot, tmp_path)
    before = window.wb.filter
    assert files.open_path(str(repo), ask=False)
    assert window.foreign.current.format == "git" and window.wb.filter is before
    assert parse_args(["--open", str(repo)]).open == str(repo)
    plain = tmp_path / "plain"
    plain.mkdir()
    with pytest.raises(Exception, match="is a directory"):
        parse_args(["--open", str(plain)])


def test_a_damaged_file_of_a_known_format_is_refused_in_its_own_words(qtbot, tmp_path):
    cut = tmp_path / "md-1-big-Filter.db"
    cut.write_bytes(b"\x00\x00\x00\x05\x40\x00\x00\x00" + b"\x00" * 64)     # 2^30 words promised, 64 bytes held
    window, files = _window_with_files(qtbot, tmp_path)
    files.dialogs = dialogs = FolderDialogs(tmp_path)
    assert not files.open_path(str(cut), ask=False)
    assert len(dialogs.errors) == 1
    assert "named like a Cassandra filter" in dialogs.errors[0] and "word count 1,073,741,824" in dialogs.errors[0]


def test_the_numbers_are_never_cut_by_the_reasons_or_a_long_class_name(qtbot):
    from world_fixtures import fixture
    view = ForeignView()
    qtbot.addWidget(view)
    view.resize(1100, 560)
    view.show()
    assert view.open_path(str(fixture("cassandra-3.11-iot", "md-2-big-Filter.db")))
    assert view.why_label.text() and "\u200b" in view.numbers.text()    # the Java class names may wrap
    label = view.numbers
    qtbot.waitUntil(lambda: label.width() > 0 and label.height() >= label.heightForWidth(label.width()))
    from PySide6 import QtGui
    doc = QtGui.QTextDocument()
    doc.setDefaultFont(label.font())
    doc.setHtml(label.text())
    doc.setTextWidth(label.width())
    assert doc.idealWidth() <= label.width() + 1         # the table wraps inside the label, not past its edge

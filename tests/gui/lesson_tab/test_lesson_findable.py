"""Lessons a teacher finds in the first minute (issue 26): ``bloomviz lesson 1`` opens the window on the lesson
(presenting with --present, at --step N), the Lesson tab sits beside Start where the tab bar shows it, the Start
page and F1 lead to lessons, presenter mode and Find a false positive and list their keys, and presenter mode
has a step counter, jumps to a typed step and resumes where the lesson was left."""

from __future__ import annotations

import pytest
from PySide6 import QtCore

from bloomviz.commands import common
from bloomviz import cli
from bloomviz.gui import app
from bloomviz.gui.extensions import install_all
from window_helpers import new_window
from bloomviz.gui.scenarios_tab.controller import StartPage
from bloomviz.gui.window import help_pages


pytestmark = pytest.mark.window(probes=200, parts=True, size=(1024, 768))


def test_lesson_with_no_action_opens_the_window_on_it(monkeypatch):
    opened = []
    monkeypatch.setattr(common, "open_window", lambda argv: opened.append(argv) or 0)
    assert cli.main(["lesson", "1", "--present", "--step", "3"]) == 0
    assert cli.main(["lesson", "2"]) == 0
    assert opened == [["--lesson", "1", "--present", "--step", "3"], ["--lesson", "2"]]


def test_the_window_refuses_a_bad_lesson_or_step_in_one_line(capsys):
    assert app.main(["--lesson", "99"]) == 2
    assert "no built-in lesson '99'" in capsys.readouterr().err
    assert app.main(["--lesson", "1", "--step", "50"]) == 2
    assert "has 6 steps, got 50" in capsys.readouterr().err
    assert app.main(["--present"]) == 2
    assert "--present goes with --lesson" in capsys.readouterr().err


def test_help_names_every_view_and_the_first_steps():
    assert set(cli.TAB_NAMES) == set(app.TABS)
    text = cli.build_parser().format_help()
    for tab in app.TABS:
        assert tab in text.split("--tab VIEW", 2)[-1].split("--open")[0]
    assert "bloomviz lesson 1 --present" in text


def test_the_window_opens_on_the_lesson_presenting_at_its_step(window, qtbot):
    args = app.parse_args(["--lesson", "1", "--step", "2", "--present"])
    app._open_lesson(window, args)
    view = window.lesson_view
    assert window.current_tab() == "lesson" and window.presenter.active
    assert view.runner.position == 2 and view.counter.isVisible() and view.counter.text() == "2 / 6"


def test_the_lesson_tab_is_beside_start_and_fully_in_the_tab_bar(window):
    bar = window.tabs.tabBar()
    index = window.tab_index("lesson")
    assert index == window.tab_index("start") + 1
    assert bar.rect().contains(bar.tabRect(index)), (bar.rect(), bar.tabRect(index))


def test_the_start_page_leads_to_lessons_presenting_and_the_hunt(window, qtbot):
    page = window.scenarios.start_page
    window.show_tab("start")
    keys = page.shortcuts_label.text()
    for key in ("F5", "Ctrl+Shift+F", "Ctrl+Alt+I", "Ctrl+E", "Alt+L", "F1"):
        assert f"<b>{key}</b>" in keys, key
    assert keys.index("F5") < keys.index("Ctrl+Z")     # what a newcomer looks for first comes first
    page.present_button.click()
    assert window.presenter.active and window.current_tab() == "lesson"
    window.presenter.leave()
    page.find_button.click()
    dialog = window.findChild(QtCore.QObject, "findFalsePositiveDialog")
    assert window.current_tab() == "filter" and dialog.isVisible()
    dialog.close()
    assert isinstance(page, StartPage)


def test_f1_leads_to_lessons_presenter_mode_and_the_hunt():
    for words in ("Lesson", "F5", "Find a false positive", "Ctrl+Shift+F", "bloomviz lesson 1 --present",
                  "slow motion"):
        assert words in help_pages.PRIMER, words


def test_presenter_counts_jumps_to_a_typed_step_and_resumes(window, qtbot, tmp_path):
    view, presenter = window.lesson_view, window.presenter
    view.present_button.click()
    assert presenter.active and view.counter.text() == "0 / 6"
    qtbot.keyClick(window, QtCore.Qt.Key.Key_4)
    assert view.counter.text() == "go to 4"
    qtbot.keyClick(window, QtCore.Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: view.runner.position == 4)
    assert view.counter.text() == "4 / 6"
    qtbot.keyClick(window, QtCore.Qt.Key.Key_9)          # no step 9: nothing moves
    qtbot.keyClick(window, QtCore.Qt.Key.Key_Return)
    assert view.runner.position == 4 and view.counter.text() == "4 / 6"
    qtbot.keyClick(window, QtCore.Qt.Key.Key_End)
    assert view.runner.position == 6
    qtbot.keyClick(window, QtCore.Qt.Key.Key_PageUp)
    assert view.runner.position == 5
    presenter.leave()
    # the next lecture: a new window on the same settings offers to resume at step 5
    again = new_window(qtbot, tmp_path, probes=200)
    install_all(again)
    assert again.lesson_view.resume_button.isVisibleTo(again.lesson_view)
    assert again.lesson_view.resume_button.text() == "Resume at step 5"
    again.lesson_view.resume_button.click()
    assert again.lesson_view.runner.position == 5 and not again.lesson_view.resume_button.isVisibleTo(
        again.lesson_view)
    again.file_actions.discard_changes()


def test_the_lesson_combo_names_the_lesson_opened_from_the_command_line(window, tmp_path):
    from bloomviz import lessons
    view = window.lesson_view
    names = lessons.builtin_lessons()
    for number in range(len(names), 0, -1):            # lesson 9 and above first: the combo began on lesson 1
        app._open_lesson(window, app.parse_args(["--lesson", str(number), "--step", "1"]))
        assert view.choice.currentData() == names[number - 1] and view.runner.position == 1
    own = tmp_path / "own.md"
    own.write_text("# Own\n## One\n```bloomviz\nfilter m=8 k=1\n```\n", encoding="utf-8")
    view.load(lessons.find(str(own)))
    assert view.choice.currentIndex() == -1            # a file is none of the built-ins


def test_view_lessons_says_how_many_lessons_there_are(window):
    from bloomviz import lessons
    action = next(a for a in window.actions() if a.text() == "Lessons")
    count = len(lessons.builtin_lessons())
    assert f"The Lesson tab: {count} lessons, step by step" in action.statusTip()

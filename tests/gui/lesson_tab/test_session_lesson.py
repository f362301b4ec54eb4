"""Saving a session in the middle of a lesson saves the lesson, its step and the class's votes, and opening the
session puts the Lesson tab back there. A session saved with no lesson under way is written as before, and a
reader from before the addition refuses one that has it with its usual one-line message."""

from __future__ import annotations

import json

import pytest

from bloomviz.files import session as sessions
from window_helpers import FakeDialogs, new_window


@pytest.fixture
def make_window(qtbot, tmp_path):
    made = []

    def make():
        win = new_window(qtbot, tmp_path)
        win.install_parts()
        win.file_actions.dialogs = FakeDialogs(unsaved_answer="discard")
        made.append(win)
        return win
    yield make
    for win in made:
        win.file_actions.discard_changes()
        win.wb.cancel()


def walk_to_a_question(view):
    assert view.load_builtin("01-what-is-a-bloom-filter")
    while view.question() is None:
        assert view.next()
    return view.runner.position


def test_a_session_saved_mid_lesson_reopens_at_the_step_with_the_votes(make_window, tmp_path):
    win = make_window()
    win.wb.insert("apple")
    view = win.lesson_view
    step = walk_to_a_question(view)
    for choice in (0, 1, 1, 2, 1):
        assert view.vote(choice)
    counts = list(view.tallies[step].votes)
    path = tmp_path / "class.bloomviz"
    assert win.file_actions.write_session(str(path))
    saved = json.loads(path.read_text())
    assert saved["lesson"]["source"] == "builtin:01-what-is-a-bloom-filter" and saved["lesson"]["step"] == step
    assert saved["lesson"]["votes"][str(step)] == {"counts": counts, "revealed": False}

    other = make_window()
    assert other.lesson_view.runner.position == 0
    assert other.file_actions.open_path(str(path), ask=False)
    back = other.lesson_view
    assert back.lesson.path == "builtin:01-what-is-a-bloom-filter" and back.runner.position == step
    assert list(back.tallies[step].votes) == counts and back.predict.tally is back.tallies[step]
    assert other.wb.is_member("apple")


def test_a_session_with_no_lesson_under_way_has_no_lesson_key(make_window, tmp_path):
    win = make_window()
    win.wb.insert("pear")
    path = tmp_path / "plain.bloomviz"
    assert win.file_actions.write_session(str(path))
    assert "lesson" not in json.loads(path.read_text())


def test_a_reader_without_the_lesson_key_refuses_it_cleanly_and_bad_places_are_refused(tmp_path, monkeypatch):
    data = json.loads(sessions.dumps(sessions.Session(m=64, k=3)))
    data["lesson"] = {"source": "builtin:01-what-is-a-bloom-filter", "step": 2,
                      "votes": {"2": {"counts": [1, 4], "revealed": True}}}
    assert sessions.from_dict(data).lesson.votes == {2: ((1, 4), True)}
    old_reader = sessions._obj
    monkeypatch.setattr(sessions, "_obj", lambda value, where, required, optional=(): old_reader(
        value, where, required, tuple(o for o in optional if o != "lesson")))
    with pytest.raises(sessions.SessionFormatError, match="unknown key 'lesson'"):
        sessions.from_dict(data)
    monkeypatch.undo()
    for bad, words in (({"source": "", "step": 1}, "lesson.source"), ({"source": "x", "step": -1}, "lesson.step"),
                       ({"source": "x", "votes": {"1": {"counts": [10 ** 9], "revealed": False}}}, "counts"),
                       ({"source": "x", "votes": {"١": {"counts": [1], "revealed": False}}}, "votes key")):
        data["lesson"] = bad
        with pytest.raises(sessions.SessionFormatError, match=words):
            sessions.from_dict(data)


def test_a_lesson_file_is_reopened_at_its_step_once_checked(make_window, tmp_path):
    lesson = tmp_path / "mine.md"
    lesson.write_text("# Mine\n\nIntro.\n\n## One\n\nFirst.\n\n```bloomviz\nfilter m=64 k=3\ninsert a\n```\n\n"
                      "## Two\n\nSecond.\n\n```bloomviz\ninsert b\n```\n", encoding="utf-8")
    win = make_window()
    view = win.lesson_view
    assert view.open_path(str(lesson)) and view.opening.wait(60)
    assert view.next() and view.next()
    path = tmp_path / "mine.bloomviz"
    assert win.file_actions.write_session(str(path))
    other = make_window()
    assert other.file_actions.open_path(str(path), ask=False)
    assert other.lesson_view.opening.wait(60)
    assert other.lesson_view.lesson.path == str(lesson) and other.lesson_view.runner.position == 2

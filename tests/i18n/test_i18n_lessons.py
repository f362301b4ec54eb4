"""Every built-in lesson in Croatian beside the English one: the same steps and actions, every expect line passing
on the core, the same numbers in its prose (written with Croatian marks), chosen by the window's language (or
``bloomviz lesson N --language hr``), English otherwise."""

from __future__ import annotations

import re

import pytest

from bloomviz import i18n, lessons
from bloomviz.commands import lesson as lesson_command



@pytest.fixture(autouse=True)
def english_after():
    yield
    i18n.use("en")


def actions(lesson) -> list[list[tuple]]:
    """Every action as (name, arguments, options), a question's words and its choices' labels left out: those
    are what a class reads, translated; the choices' values and everything else are the English file's."""
    def options(action) -> dict:
        kept = {key: value for key, value in action.options.items() if key != "question"}
        if "choices" in kept:
            kept["choices"] = tuple(value for value, _label in kept["choices"])
        return kept
    return [[(a.name, a.args, options(a)) for a in step.actions] for step in lesson.steps]


@pytest.mark.parametrize("number", [name.split("-", 1)[0] for name in lessons.builtin_lessons()])
def test_croatian_lessons_run_the_english_steps_and_pass_their_checks(number):
    english, croatian = lessons.load_builtin(number, "en"), lessons.load_builtin(number, "hr")
    assert croatian.title != english.title and croatian.path == english.path     # builtin:NAME in both
    assert len(croatian.steps) == len(english.steps)
    assert actions(croatian) == actions(english)
    def asked(lesson) -> list[tuple]:
        return [{text for text in (a.options["question"], *(label for _v, label in a.options["choices"]))
                 if re.search(r"[^\W\d]", text)} for s in lesson.steps for a in s.actions if a.name == "predict"]
    # every question and worded choice a class reads is the translator's, none the English (or its default)
    assert all(not hr & en for hr, en in zip(asked(croatian), asked(english)))
    reports = lessons.check(croatian)          # raises on the first expect line that fails
    assert [r["step"] for r in reports] == list(range(1, len(english.steps) + 1))


def test_the_language_chooses_the_file_and_english_is_the_fallback():
    assert lessons.load_builtin("1").title.startswith("What a Bloom filter is")      # the command line: English
    i18n.use("hr")
    assert lessons.load_builtin("1").title.startswith("Što je Bloomov filtar")
    assert lessons.find("2").title.startswith("Zašto nastaje lažno pozitivan")
    assert lessons.load_builtin("1", "en").title.startswith("What a Bloom filter is")
    assert lessons.load_builtin("1", "xx").title == lessons.load_builtin("1", "en").title  # no such language


def test_every_built_in_lesson_has_a_croatian_file():
    from importlib import resources
    folder = resources.files("bloomviz.lessons") / "builtin" / "hr"
    assert sorted(p.name[:-3] for p in folder.iterdir() if p.name.endswith(".md")) == lessons.builtin_lessons()


NUMBER = re.compile(r"\d+(?:[.,]\d+)*")


def unmatched(croatian: str, english: str) -> tuple[list, list]:
    """The numbers one text states that the other does not, a Croatian 9.585.059 or 0,1719 read with its own marks
    (as 9,585,059 and 0.1719). A number written alike in both (§12.5, bitarray 2.9.0, h₁, SHA-256) matches as it
    is."""
    left = NUMBER.findall(english)
    extra = []
    for number in NUMBER.findall(croatian):
        english_way = number.translate({ord("."): ",", ord(","): "."})
        match = english_way if english_way in left else number if number in left else None
        if match is None:
            extra.append(number)
        else:
            left.remove(match)
    return extra, left


def step_prose(lesson) -> list[str]:
    return [lesson.intro] + [f"{s.title}\n{s.narration}\n{s.after_reveal}" for s in lesson.steps]


@pytest.mark.parametrize("name", lessons.builtin_lessons())
def test_a_croatian_lesson_states_the_english_numbers_step_by_step(name):
    """The English prose's numbers are recomputed by tests/project/test_prose_numbers.py; the Croatian prose must
    state the same ones in each step, so a number mistyped in translation (or an English 9,585,059 left in a
    Croatian sentence, read back as 9.585059) fails here."""
    english, croatian = lessons.load_builtin(name, "en"), lessons.load_builtin(name, "hr")
    for en, hr in zip(step_prose(english), step_prose(croatian)):
        extra, missing = unmatched(hr, en)
        assert not extra and not missing, f"{hr[:60]!r}: not in the English {extra}, not in the Croatian {missing}"


def test_the_command_checks_a_croatian_lesson(capsys):
    parser = lesson_command.add_parser(__import__("argparse").ArgumentParser().add_subparsers())
    assert lesson_command.run(parser.parse_args(["2", "--check", "--language", "hr"])) == 0
    out = capsys.readouterr().out
    assert "Stvarno negativan" in out and "goran@acme.com: definitely not in (true negative)" in out
    assert lesson_command.run(parser.parse_args(["2", "--check"])) == 0
    assert "step 2 of 4: A true negative" in capsys.readouterr().out


def test_a_lesson_named_on_the_command_line_opens_in_the_windows_language(qtbot, tmp_path, monkeypatch):
    from PySide6 import QtCore
    from bloomviz.gui import app
    from bloomviz.gui.extensions import install_all
    from bloomviz.gui.main_window import MainWindow
    args = app.parse_args(["--lesson", "1", "--step", "2"])        # read while the language is still English
    assert args.lesson_loaded.title == lessons.load_builtin("1", "en").title
    monkeypatch.setenv("BLOOMVIZ_LANG", "hr")
    window = MainWindow(settings=QtCore.QSettings(str(tmp_path / "s.ini"), QtCore.QSettings.Format.IniFormat))
    qtbot.addWidget(window)
    install_all(window)
    app._open_lesson(window, args)
    view = window.lesson_view
    assert view.lesson.title == lessons.load_builtin("1", "hr").title and view.runner.position == 2
    window.file_actions.discard_changes()

"""Lessons: plain-text files (Markdown with ```bloomviz action blocks) that a teacher writes, and a runner that
plays them on a workbench of their own (the window's model), step by step with Back, or headless
(``bloomviz lesson FILE --check / --report``).

- ``lesson.py``: the records (``Lesson``, ``LessonStep``, ``LessonAction``, ``LessonError``);
- ``format.py``: the file format and its strict parser (``parse_file``, ``parse_text``);
- ``spec.py`` and ``actions/``: the actions as a registry, one declaration each (options, check, run, cost, what
  the window shows);
- ``state.py``: the lesson's state on its ``Workbench``, and what a report reads from it;
- ``predict.py``: the predict block (question, choices, answer kind) and the answer computed from the filter;
- ``runner.py``: ``LessonRunner`` (next, back, a snapshot per step), ``check`` (run every step);
- ``builtin/``: the lessons shipped with bloomviz, from the seed documents (``builtin_lessons``).

No Qt here: the window drives a ``LessonRunner`` like the command line does.
"""

from __future__ import annotations

import os
from importlib import resources

from bloomviz import i18n
from bloomviz.lessons.format import Lesson, LessonAction, LessonError, LessonStep, parse_file, parse_text
from bloomviz.lessons.runner import LessonRunner, check

__all__ = ["Lesson", "LessonAction", "LessonError", "LessonRunner", "LessonStep", "builtin_lessons", "check", "find",
           "load_builtin", "parse_file", "parse_text"]


def builtin_lessons() -> list[str]:
    """The names of the built-in lessons (file names without .md), in teaching order."""
    folder = resources.files("bloomviz.lessons") / "builtin"
    return sorted(p.name[:-3] for p in folder.iterdir() if p.name.endswith(".md"))


def load_builtin(name: str, language: str | None = None) -> Lesson:
    """A built-in lesson by name (``01-what-is-a-bloom-filter``) or by its number (``1``), in ``language``
    (default: the window's, ``i18n.language()``; the command line's is English) where ``builtin/<language>/``
    has it under the same name, else in English. A translation keeps the English file's steps and actions, so a
    session's place in a lesson (``builtin:NAME`` and a step) holds in either language."""
    names = builtin_lessons()
    match = [n for n in names if n == name or n.split("-", 1)[0].lstrip("0") == str(name).lstrip("0")]
    if len(match) != 1:
        raise LessonError(str(name), 0, "no built-in lesson {name}; built-in lessons: {names}", name=repr(name),
                          names=", ".join(names))
    folder = resources.files("bloomviz.lessons") / "builtin"
    language = i18n.normalise(language) or i18n.language()
    translated = folder / language / f"{match[0]}.md"
    path = translated if language != i18n.ENGLISH and translated.is_file() else folder / f"{match[0]}.md"
    return parse_text(path.read_text(encoding="utf-8"), f"builtin:{match[0]}")


def find(name: str, language: str | None = None) -> Lesson:
    """A lesson file, or a built-in lesson by name or number (``bloomviz lesson 1`` and the window's --lesson):
    a name that exists as a path, holds a separator or ends in .md is a file."""
    if os.path.exists(name) or os.sep in name or name.endswith(".md"):
        return parse_file(name)
    return load_builtin(name, language)

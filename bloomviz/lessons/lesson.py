"""A lesson as data: its steps, their narration and ``LessonAction`` records, and ``LessonError``.

Plain frozen records with no behaviour beyond printing, at the bottom of the lessons package: the parser
(``format.py``) makes them, the action registry (``actions/``) checks them, the runner plays them and the
window shows them, and none of those needs another to name them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field


def _short(reason: str) -> str:
    # a reason quotes what the file holds: a 5,000-digit "number" is shown by its start
    return re.sub(r"\S{61,}", lambda m: m.group(0)[:40] + "…", reason)


class LessonError(ValueError):
    """A lesson refused: ``path:line: reason`` (line 0 when the fault is the whole file).

    ``reason`` is English; given ``values`` it is their template ("more than {most} steps: split the lesson"), and
    ``said()`` is the refusal in the window's language (the command line, which never switches language, prints
    the English ``str``). A count is written with the language's marks."""

    def __init__(self, path: str, line: int, reason: str, **values):
        self.path, self.line, self.template, self.values = path, line, reason, values
        self.reason = _short(reason.format(**{k: f"{v:,}" if _count(v) else v for k, v in values.items()})
                             if values else reason)
        super().__init__(self._at(self.reason))

    def _at(self, reason: str) -> str:
        return f"{self.path}:{self.line}: {reason}" if self.line else f"{self.path}: {reason}"

    def said(self) -> str:
        from bloomviz.formats.reasons import render
        from bloomviz.i18n import marks, number, tr
        words = tr(self.template)
        if self.values:      # a value with parts (a budget's refusal) is a sentence of its own: said the same way
            words = words.format(**{k: number(v) if _count(v) else render(v, tr, number, marks)
                                    if getattr(v, "parts", None) is not None else v for k, v in self.values.items()})
        return self._at(_short(words))


def _count(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


@dataclass(frozen=True)
class LessonAction:
    """One action line: its name, its positional arguments and its options (already type-checked)."""

    name: str
    args: tuple
    options: dict
    line: int

    def as_dict(self) -> dict:
        return {"action": self.name, "args": list(self.args), "options": dict(self.options), "line": self.line}


@dataclass(frozen=True)
class LessonStep:
    title: str
    narration: str
    actions: tuple[LessonAction, ...]
    line: int
    after_reveal: str = ""      # narration written below a predict block: shown once the answer is revealed


@dataclass(frozen=True)
class Lesson:
    title: str
    intro: str
    steps: tuple[LessonStep, ...]
    path: str = "<lesson>"
    meta: dict = field(default_factory=dict)

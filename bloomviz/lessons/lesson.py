"""A lesson as data: its steps, their narration and ``LessonAction`` records, and ``LessonError``.

Plain frozen records with no behaviour beyond printing, at the bottom of the lessons package: the parser
(``format.py``) makes them, the action registry (``actions/``) checks them, the runner plays them and the
window shows them, and none of those needs another to name them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field


class LessonError(ValueError):
    """A lesson refused: ``path:line: reason`` (line 0 when the fault is the whole file)."""

    def __init__(self, path: str, line: int, reason: str):
        # a reason quotes what the file holds: a 5,000-digit "number" is shown by its start
        reason = re.sub(r"\S{61,}", lambda m: m.group(0)[:40] + "…", reason)
        self.path, self.line, self.reason = path, line, reason
        super().__init__(f"{path}:{line}: {reason}" if line else f"{path}: {reason}")


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

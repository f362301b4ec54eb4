"""What a lesson action declaration holds, and the readers its checks share.

One ``ActionSpec`` per action (MNELAB's ``pipeline.REGISTRY`` habit): the options it takes and whether its
positional arguments are items (the parser needs them), ``check`` (strings in, typed values out, or ValueError),
``run`` (the action on the lesson's state), ``cost`` (its work estimated before it starts, ``budget.py``), and
what it shows: ``about`` (``"new filter"``: it makes an empty filter; ``"filter"``: it changes, reads or points
at the lesson's filter; ``"theory"``: numbers about filters other than the one shown), ``animates`` (what the window plays on the grid after Next)
and ``marks`` (the cells its window record lights). Adding an action is one declaration in ``actions/`` and its
tests; the parser, the runner, the budget and the window read the declaration.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from bloomviz.lessons import budget as B
from bloomviz.theory import units
from bloomviz.theory.limits import LESSON_MAX_M  # noqa: F401 (the lessons' filter size)
from bloomviz.theory.limits import LESSON_MAX_PROBES as MAX_PROBES  # noqa: F401 (the lessons' probe limit)

THEORY_MAX_M = 1 << 48          # ``rates`` computes formulas only, so Brainflayer's 2^32 bits are fine
MAX_RANDOM = 2_000_000          # items one insert-random adds
MAX_ENSEMBLE_WORK = 4_000_000   # filters x inserts of one ensemble


def whole(text: str, what: str, low: int = 0, high: int | None = None) -> int:
    """A whole number as everywhere (``units.parse_whole``: 1000, 1,000, 1_000, 1e3, 10^6), within [low, high]."""
    return units.parse_whole(text, what, low, high)


def fraction(text: str, what: str, low: float = 0.0, high: float = 1.0, open_low: bool = True) -> float:
    """A number within its range, read as rates are everywhere (``units.parse_rate``: 0.01, 1%, 1/1000)."""
    return units.parse_rate(text, what, low, high, open_low=open_low)


def yes(text: str, what: str) -> bool:
    if text not in ("yes", "no"):
        raise ValueError(f"{what} must be yes or no, got {text!r}")
    return text == "yes"


def as_written(args: list, options: dict) -> tuple[list, dict]:
    return args, options


def no_run(state, action, window: list) -> None:
    """An action that only the window acts on, or that nothing after parsing acts on."""


def base_cost(state, action) -> tuple[float, str]:
    return B.ACTION_BASE, action.name


def no_marks(record: dict, values, revealed: bool) -> tuple[list, list]:
    return [], []


@dataclass(frozen=True)
class ActionSpec:
    name: str
    summary: str
    options: tuple[str, ...] = ()
    items: bool = False          # positional arguments are items (quoted when they hold spaces)
    min_args: int = 0
    max_args: int | None = 0
    check: Callable[[list, dict], tuple[list, dict]] = as_written
    run: Callable[[object, object, list], None] = no_run
    cost: Callable[[object, object], tuple[float, str]] = base_cost
    about: str = ""              # "new filter", "filter" or "theory" (the module's docstring), "" for none
    # what the window plays on the grid after Next for this action line ("slow", "autoplay" or "")
    animates: Callable[[object], str] = lambda action: ""
    marks: Callable[[dict, object, bool], tuple[list, list]] = no_marks

    def checked(self, args: list, options: dict) -> tuple[list, dict]:
        """Typed (args, options) for one line of this action, or ValueError naming the bad argument."""
        if len(args) < self.min_args:
            raise ValueError(f"needs at least {self.min_args} argument{'s' if self.min_args > 1 else ''}: "
                             f"{self.summary}")
        if self.max_args is not None and len(args) > self.max_args:
            raise ValueError(f"takes {self.max_args or 'no'} positional argument{'s' if self.max_args != 1 else ''}"
                             f", got {' '.join(args)!r}: {self.summary}")
        return self.check(args, dict(options))

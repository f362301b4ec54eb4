"""A reason in words and numbers: the English text ``inspect`` prints, made of parts that keep their template and
values, so that the window writes it in its own language (``render(reason, tr, number, marks)`` with the window's
gettext and number writers). The rules (``why_rules``, ``why_lsm``) write numbers, not translated words, as the
theory's engine notes do; formats stay free of Qt and of the window's language."""

from __future__ import annotations

from typing import Callable, NamedTuple

from bloomviz.theory.units import percent_text


def rate_in_sentence(p: float) -> str:
    """A rate for a sentence, always a percentage (``units.percent_text``: "1.25 %", "3.4 × 10⁻⁵ %"): the
    sentences say "passes {rate} of the time", where "1 in 830,000", as tiny rates were written, read badly."""
    return percent_text(max(p, 0.0))


class Percent(float):
    """A rate inside a sentence, always a percentage (``units.percent_text``: "1.25 %", "3.4 × 10⁻⁵ %")."""


class Marked(str):
    """A number already written the English way ("0.12 s", "2.5"), shown with the language's marks."""


class Word(str):
    """Words a rule chooses as a value (a writer's name, how a number was had), translated where shown."""


class Part(NamedTuple):
    """One piece of a reason: its English template and the values it is filled with. A value is an int
    (thousands grouped), a float (%g), (number, decimals), a ``Percent``, a ``Word`` or a string shown as it is."""

    template: str
    values: dict


def say(template: str, **values) -> Part:
    return Part(template, values)


def _english(value) -> str:
    if isinstance(value, Percent):
        return rate_in_sentence(float(value))
    if isinstance(value, tuple):
        return f"{value[0]:,.{value[1]}f}"
    if isinstance(value, str):
        return str(value)
    if isinstance(value, int) and not isinstance(value, bool):
        return f"{value:,}"
    return f"{value:g}"


def _fill(part: Part, words: Callable[[str], str], shown: Callable[[object], str]) -> str:
    return words(part.template).format(**{key: shown(v) for key, v in part.values.items()})


class Reason(str):
    """A reason's English text, keeping its parts (see the module's docstring)."""

    parts: tuple[Part, ...]

    def __new__(cls, *parts: Part):
        reason = super().__new__(cls, "".join(_fill(p, str, _english) for p in parts))
        reason.parts = parts
        return reason


def render(reason: str, tr: Callable[[str], str], number: Callable, marks: Callable[[str], str]) -> str:
    """``reason`` in a language: its templates and ``Word`` values through ``tr``, its numbers through
    ``number(value, decimals=None)``, its rates' marks through ``marks`` (a plain str is shown as it is)."""
    parts = getattr(reason, "parts", None)
    if parts is None:
        return str(reason)

    def shown(value) -> str:
        if isinstance(value, Percent):
            return marks(rate_in_sentence(float(value)))
        if isinstance(value, Word):
            return tr(value)
        if isinstance(value, Marked):
            return marks(value)
        if getattr(value, "parts", None) is not None:      # a reason inside a reason: what a refused action does
            return render(value, tr, number, marks)
        if isinstance(value, tuple):
            return number(value[0], value[1])
        if isinstance(value, str):
            return value
        return number(value)
    return "".join(_fill(p, tr, shown) for p in parts)

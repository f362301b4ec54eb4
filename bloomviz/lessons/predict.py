"""Predict, then reveal: the ``predict`` block of a lesson, its check, and the answer computed from the filter.

A predict block is a ``predict`` line, then optionally one ``ask`` line and ``choice`` lines, inside a
```bloomviz block::

    predict verdict k1                  the answer kind and what it is about
    ask Will the filter say k1 is in the set?
    choice no    Definitely not in the set
    choice maybe Probably in the set

The answer comes from a fixed set of kinds, each computed by the app from the lesson's filter (nothing in the
file is executed):

    verdict ITEM              what a lookup of ITEM says: conditions ``no`` and ``maybe``
    bits-set [after ITEM …]   bits set now, or after inserting the items (inserted on a copy: the filter is
                              unchanged, so the next step can insert them for real)
    new-bits ITEM             how many bits an insert of ITEM would turn from 0 to 1
    measured-rate             the share of the lesson's non-member probes the filter calls present
    exact-rate                the exact false-positive rate E[(X/m)^k] of the filter as it is

A choice's condition is one word: ``no`` or ``maybe`` for a verdict; for a number ``9`` (equal), ``7..8``
(inclusive), ``<X``, ``<=X``, ``>X``, ``>=X``, where X may end in ``%``. Exactly one choice must hold for the
answer: the lesson's dry run refuses a question with no right choice or two. ``predict ITEM`` alone is a verdict
question with the two usual choices. After a predict only ``expect`` lines may follow in its step, so that no
action shows the answer before the teacher reveals it.
"""

from __future__ import annotations

import math
import re

from bloomviz.formats.reasons import Reason, say
from bloomviz.lessons.spec import MAX_RANDOM, fraction, whole

KINDS = ("verdict", "bits-set", "new-bits", "measured-rate", "exact-rate")
VERDICT_CHOICES = (("no", "Definitely not in the set"), ("maybe", "Probably in the set"))
MAX_CHOICES = 9                  # presenter mode adds a vote with the keys 1…9
CONTINUATIONS = ("ask", "choice")
_COMPARE = re.compile(r"^(<=|>=|<|>)(.+)$")


class PredictSyntaxError(ValueError):
    """A malformed predict block: the reason, and the line it is on."""

    def __init__(self, line: int, reason: str):
        self.line = line
        super().__init__(reason)


def _number(text: str, kind: str) -> float:
    """A bound: a whole number for counts, a rate (0…1, or with % 0…100) for rates."""
    if kind.endswith("-rate"):
        return fraction(text, "a rate", 0.0, 1.0, open_low=False)     # 0.01, 1%, 1/100 as everywhere
    return whole(text, "a count")


def parse_condition(text: str, kind: str) -> tuple:
    """One choice's condition as data: ("is", "maybe"), ("eq", 9), ("range", 7, 8) or ("<=", 0.01)."""
    if kind == "verdict":
        if text not in ("no", "maybe"):
            raise ValueError(Reason(say("a verdict choice is 'no' or 'maybe', got {text}", text=repr(text))))
        return ("is", text)
    compare = _COMPARE.match(text)
    if compare:
        return (compare.group(1), _number(compare.group(2), kind))
    if ".." in text:
        low, high = (_number(part, kind) for part in text.split("..", 1))
        if low > high:
            raise ValueError(Reason(say("the range {text} is empty (its low end is above its high end)", text=text)))
        return ("range", low, high)
    if kind.endswith("-rate"):
        raise ValueError(Reason(say("a rate choice is a comparison (<1%, >=0.05) or a range (1%..2%), got {text}",
                                    text=repr(text))))
    return ("eq", _number(text, kind))


def holds(condition: tuple, answer) -> bool:
    op, *values = condition
    if op == "is":
        return answer == values[0]
    if op == "range":
        return values[0] <= answer <= values[1]
    return {"eq": answer == values[0], "<": answer < values[0], "<=": answer <= values[0],
            ">": answer > values[0], ">=": answer >= values[0]}[op]


def _subject(words: list[str]) -> tuple[str, tuple]:
    """(kind, items) from the predict line's words after ``predict``."""
    if not words:
        raise ValueError(Reason(say("say what to predict: predict KIND …, with KIND one of {kinds}",
                                    kinds=", ".join(KINDS))))
    kind, rest = words[0], words[1:]
    if kind not in KINDS:
        if len(words) == 1:          # predict ITEM: the verdict question, as lessons wrote it first
            return "verdict", (kind,)
        raise ValueError(Reason(say("unknown answer kind {kind}; kinds: {kinds}", kind=repr(kind),
                                    kinds=", ".join(KINDS))))
    if kind in ("verdict", "new-bits"):
        if len(rest) != 1:
            raise ValueError(Reason(say("predict {kind} takes one item, got {count}", kind=kind, count=str(len(rest)))))
        return kind, tuple(rest)
    if kind == "bits-set":
        if rest and (rest[0] != "after" or len(rest) < 2):
            raise ValueError(Reason(say("write predict bits-set, or predict bits-set after ITEM …")))
        if len(rest) - 1 > MAX_RANDOM:
            raise ValueError(Reason(say("more than {most} items after 'after'", most=MAX_RANDOM)))
        return kind, tuple(rest[1:])
    if rest:
        raise ValueError(Reason(say("predict {kind} takes nothing more, got {rest}", kind=kind,
                                    rest=repr(" ".join(rest)))))
    return kind, ()


def default_question(kind: str, items: tuple) -> str:
    if kind == "verdict":
        return f"Will a lookup of “{items[0]}” say it is in the set?"
    if kind == "bits-set":
        return f"How many bits will be set after inserting {', '.join(items)}?" if items else \
            "How many bits are set?"
    if kind == "new-bits":
        return f"How many bits will inserting “{items[0]}” turn from 0 to 1?"
    if kind == "measured-rate":
        return "What share of strangers will the filter call present?"
    return "What is the exact false-positive rate now?"


class PredictBlock:
    """Collects a predict line and its ``ask`` and ``choice`` lines; ``action_parts`` checks the whole."""

    def __init__(self, words: list[str], line: int):
        self.line = line
        try:
            self.kind, self.items = _subject(words)
        except ValueError as exc:
            raise PredictSyntaxError(line, exc.args[0]) from None
        self.question: str | None = None
        self.choices: list[tuple[tuple, str]] = []

    def add(self, body: str, line: int) -> None:
        """One ``ask TEXT`` or ``choice CONDITION LABEL`` line, read as written (no quoting: apostrophes are
        text)."""
        word, _, rest = body.partition(" ")
        rest = rest.strip()
        if word == "ask":
            if self.question is not None:
                raise PredictSyntaxError(line, Reason(say("a second ask line: a predict asks one question")))
            if not rest:
                raise PredictSyntaxError(line, Reason(say("ask needs the question: ask Will k1 be found?")))
            self.question = rest
            return
        condition, _, label = rest.partition(" ")
        label = label.strip()
        if not condition or not label:
            raise PredictSyntaxError(line, Reason(say("write choice CONDITION LABEL, e.g. choice maybe Probably in the "
                                                      "set")))
        if len(self.choices) == MAX_CHOICES:
            raise PredictSyntaxError(line, Reason(say("more than {most} choices (the keys 1…9 vote for them)",
                                                      most=MAX_CHOICES)))
        try:
            parsed = parse_condition(condition, self.kind)
        except ValueError as exc:
            raise PredictSyntaxError(line, Reason(say("choice: {why}", why=exc.args[0] if exc.args else str(exc)))) from None
        if any(parsed == c for c, _label in self.choices):
            raise PredictSyntaxError(line, Reason(say("choice: the condition {condition} is given twice",
                                                      condition=condition)))
        self.choices.append((parsed, label))

    def action_parts(self) -> tuple[tuple, dict]:
        """(args, options) of the predict LessonAction: args the kind and its items; options the question and the
        choices (each a (condition, label) pair)."""
        choices = self.choices
        if not choices:
            if self.kind != "verdict":
                raise PredictSyntaxError(self.line, Reason(say("predict {kind} needs choice lines (at least two): "
                                                               "choice CONDITION LABEL", kind=self.kind)))
            choices = [(("is", value), label) for value, label in VERDICT_CHOICES]
        if len(choices) < 2:
            raise PredictSyntaxError(self.line, Reason(say("a prediction needs at least two choices")))
        return (self.kind, *self.items), {"question": self.question or default_question(self.kind, self.items),
                                          "choices": tuple(choices)}


def start(body: str, line: int, tokens) -> PredictBlock:
    """A PredictBlock from a ``predict …`` line (``tokens`` splits it as every action line is split)."""
    return PredictBlock(tokens(body)[1:], line)


# --- the answer, computed from the lesson's state ----------------------------------------------------------

def _copy_with(flt, items: tuple):
    trial = flt.copy()
    positions = []
    for item in items:
        positions.extend(int(p) for p in trial.add(item).positions)
    return trial, positions


def answer(state, kind: str, items: tuple) -> tuple[object, dict]:
    """(the answer, what the window lights on Reveal) for the state as it is; the state is not changed except
    that a verdict question's lookup becomes the last operation (as ``lookup`` would)."""
    from bloomviz.lessons.state import lookup_record, measured_rate
    flt = state.filter
    if flt is None:
        raise ValueError("there is no filter yet: start with a filter action")
    if kind == "verdict":
        state.last = lookup_record(state, "predict", items[0])
        return state.last["verdict"], {"positions": list(state.last["positions"])}
    if kind in ("bits-set", "new-bits"):
        trial, positions = _copy_with(flt, items)
        value = trial.bits_set if kind == "bits-set" else trial.bits_set - flt.bits_set
        return int(value), {"positions": positions}
    if kind == "measured-rate":
        value = measured_rate(state)
        if value is None:
            raise ValueError("nothing can be measured here (hand-set positions hash no stranger): ask for "
                             "exact-rate")
        return value, {"probes": state.probes}
    return flt.theory_fp(), {}


def _condition_text(condition: tuple, kind: str) -> str:
    op, *values = condition
    shown = [f"{v:.4g}" if kind.endswith("-rate") else f"{int(v):,}" for v in values]
    if op == "is":
        return values[0]
    if op == "range":
        return f"{shown[0]}..{shown[1]}"
    return ("" if op == "eq" else op) + shown[0]


def run(state, action, window: list) -> None:
    """Compute the answer, find the one choice that holds, and record the question for the window."""
    kind, items = action.args[0], tuple(action.args[1:])
    choices = action.options["choices"]
    value, shown = answer(state, kind, items)
    right = [i for i, (condition, _label) in enumerate(choices) if holds(condition, value)]
    if len(right) != 1:
        said = answer_text(kind, items, value, shown.get("probes"))
        if not right:
            raise ValueError(f"no choice holds for the answer ({said}); the choices are "
                             f"{', '.join(_condition_text(c, kind) for c, _l in choices)}")
        raise ValueError(f"choices {' and '.join(str(i + 1) for i in right)} both hold for the answer ({said}): "
                         f"exactly one must")
    numbers = {"predict.choice": right[0] + 1}
    if kind != "verdict":
        numbers["predict.answer"] = value
    state.put(numbers)
    window.append({"action": "predict", "kind": kind, "items": list(items), "question": action.options["question"],
                   "choices": [label for _condition, label in choices], "right": right[0], "answer": value,
                   "answer_text": answer_text(kind, items, value, shown.get("probes")), **shown})


def answer_text(kind: str, items: tuple, value, probes: int | None = None) -> str:
    """The answer in words, for the reveal (in the window's language) and the command line (English)."""
    from bloomviz.i18n import marks, ntr, number, tr
    from bloomviz.theory.units import one_in, percent_text
    if kind == "verdict":
        return tr("the lookup of “{item}” says {verdict}").format(item=items[0], verdict=tr(
            "probably in the set" if value == "maybe" else "definitely not in the set"))
    if kind == "bits-set":
        return ntr("{count} bit set", "{count} bits set", value).format(count=number(value)) + (
            tr(" after inserting {items}").format(items=", ".join(items)) if items else "")
    if kind == "new-bits":
        return ntr("inserting “{item}” turns {count} bit from 0 to 1", "inserting “{item}” turns {count} bits from 0 "
                   "to 1", value).format(item=items[0], count=number(value))
    if kind == "measured-rate":
        over = tr(" of {count} strangers").format(count=number(probes)) if probes else ""
        return tr("the filter calls {percent}{over} present").format(percent=marks(percent_text(value)), over=over)
    if not math.isfinite(value):
        return tr("the exact rate is undefined")
    chance = one_in(value)
    chance = tr("1 in {count}").format(count=marks(chance[len("1 in "):])) if chance.startswith("1 in ") else tr(chance)
    return tr("the exact rate is {percent} ({chance})").format(percent=marks(percent_text(value)), chance=chance)


def hidden_until_reveal(kind: str, items: tuple) -> set[str]:
    """The report's fields the window keeps hidden until Reveal, since they would give the answer away."""
    if kind == "verdict":
        return {"last"}
    if kind == "bits-set" and not items:
        return {"bits_set"}
    if kind.endswith("-rate"):
        return {"measured_rate", "exact_rate", "classic_rate"}
    return set()


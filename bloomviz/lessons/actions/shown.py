"""The actions a class sees or a teacher checks, not the filter's work: ``highlight``, ``show``, ``expect``, and
``predict``'s declaration (its block and answer are ``predict.py``'s)."""

from __future__ import annotations

from bloomviz.lessons import costs, predict
from bloomviz.lessons.spec import ActionSpec, as_written, whole
from bloomviz.lessons.state import need_filter, snapshot
from bloomviz.measure.verdicts import LESSON_WORDS
from bloomviz.vocabulary import Verdict
from bloomviz.theory import units

# the filter's answer, or the four-way verdict against what was inserted and removed
VERDICTS = ("maybe", "no") + tuple(LESSON_WORDS.values())
WINDOW_TABS = ("filter", "start", "explorer", "compare", "setops", "foreign", "lesson")   # = bloomviz.gui.app.TABS (a test compares)


def check_highlight(args: list, o: dict) -> tuple[list, dict]:
    return [whole(p, "a position") for p in args], {}


def run_highlight(state, action, window: list) -> None:
    flt = need_filter(state)
    bad = [p for p in action.args if p >= flt.m]
    if bad:
        raise ValueError(f"position {bad[0]} is outside 0…{flt.m - 1}")
    window.append({"action": "highlight", "positions": list(action.args)})


def highlight_marks(record: dict, values, revealed: bool) -> tuple[list, list]:
    """A ``highlight`` points at bits by their value (diamond 0, triangle 1), never with the false positive's
    star."""
    positions = record["positions"]
    return positions, ["one" if values[p] else "zero" for p in positions]


def check_show(args: list, o: dict) -> tuple[list, dict]:
    if len(o) != 1:
        raise ValueError("show takes one of tab=NAME or scenario=NAME")
    from bloomviz.scenarios.stories import SCENARIOS
    known = WINDOW_TABS if "tab" in o else tuple(SCENARIOS)
    value = o.get("tab", o.get("scenario"))
    if value not in known:
        raise ValueError(f"unknown {'tab' if 'tab' in o else 'scenario'} {value!r}; known: {', '.join(known)}")
    return [], o


def run_show(state, action, window: list) -> None:
    window.append({"action": "show", **action.options})


def check_expect(args: list, options: dict) -> tuple[list, dict]:
    checks: dict = {}
    for key, value in options.items():
        if key in ("m", "k", "n", "bits_set"):
            checks[key] = whole(value, key)
        elif key == "verdict":
            if value not in VERDICTS:
                raise ValueError(f"verdict must be one of {', '.join(VERDICTS)}, got {value!r}")
            checks[key] = value
        elif key == "positions":
            checks[key] = tuple(whole(p, "a position") for p in value.split(","))
        else:
            checks[key] = value
    approx = []
    for word in args:        # numbers.NAME~VALUE: equal to VALUE to the digits written
        name, tilde, value = word.partition("~")
        if not tilde or not name.startswith("numbers.") or len(name) <= len("numbers."):
            raise ValueError(f"expected key=value or numbers.NAME~VALUE, got {word!r}")
        if units.real_number(value) is None:
            raise ValueError(f"{name} must be compared with a decimal number such as 0.0214 or 1.2e-5, got "
                             f"{units.shown(value)}")
        approx.append((name[len("numbers."):], value))
    if not checks and not approx:
        raise ValueError("expect needs at least one key=value")
    return approx, checks


def _got(snap: dict, key: str):
    last = snap["last"]
    if key == "verdict" and last:
        return last["verdict"]
    if key == "positions" and last:
        return tuple(last["positions"])
    return snap.get(key)


def run_expect(state, action, window: list) -> None:
    flt, snap = state.filter, snapshot(state)
    for key, want in action.options.items():
        if key == "verdict" and want in LESSON_WORDS.values():   # the four-way verdict, not the filter's answer
            last = snap["last"] or {}
            got = LESSON_WORDS.get(Verdict(last["class"])) if "class" in last else None
            if got != want:
                raise ValueError(f"expected verdict = {want}, the lesson has {got or 'no lookup'}")
            continue
        if flt is None and key != "verdict":
            raise ValueError(f"expected {key} = {want}, but there is no filter yet")
        got = _got(snap, key)
        if got != want:
            raise ValueError(f"expected {key} = {want}, the lesson has {got}")
    for name, text in action.args:
        if name not in state.numbers:
            raise ValueError(f"expected numbers.{name}, but no step computed it (known: "
                             f"{', '.join(sorted(state.numbers)) or 'none'})")
        got, want = float(state.numbers[name]), float(text)
        digits = text.lower().split("e")[0].lstrip("-").replace(".", "").lstrip("0") or "0"
        tol = abs(want) * 0.5 * 10.0 ** (1 - len(digits)) if want else 0.0
        if abs(got - want) > tol:
            raise ValueError(f"expected numbers.{name} ≈ {text}, the lesson has {got:.6g}")


def predict_marks(record: dict, values, revealed: bool) -> tuple[list, list]:
    """A revealed number question lights the bits the items would set: new where they are 0 now, old where
    already 1 (a verdict question's lookup is the step's last operation and lit as that)."""
    if record["kind"] == "verdict" or not revealed or not record.get("positions"):
        return [], []
    would = [p for p in dict.fromkeys(record["positions"]) if 0 <= p < len(values)]
    return would, ["old" if values[p] else "new" for p in would]


PREDICT = ActionSpec("predict", "predict KIND … with ask and choice lines: the class votes, then the answer "
                                "the filter gives is revealed (predict.py)",
                     items=True, min_args=1, max_args=1, check=as_written, run=predict.run,
                     cost=costs.predict_cost, about="filter", marks=predict_marks)

SPECS = (
    ActionSpec("highlight", "highlight P …: light these bits (the window)", min_args=1, max_args=None,
               check=check_highlight, run=run_highlight, about="filter", marks=highlight_marks),
    ActionSpec("show", "show tab=NAME or scenario=NAME (the window)", options=("tab", "scenario"),
               check=check_show, run=run_show),
    ActionSpec("expect", "expect key=value … or numbers.NAME~VALUE: stop the lesson if the state differs",
               options=("m", "k", "n", "bits_set", "verdict", "positions", "scheme", "variant"), max_args=None,
               check=check_expect, run=run_expect, cost=costs.expect_cost),
)

"""Run a lesson on the core (no Qt): step by step with Back, or all at once for ``--check`` and ``--report``.

``LessonRunner(lesson)`` keeps the steps taken as operations: ``back()`` rebuilds the state before the current
step by replaying the lesson's actions from the nearest kept state (a copy is kept after a step only while the
copies stay small, ``CHECKPOINT_BYTES``), so a lesson at m = 2^28 with 100 steps holds one filter, not 100
(3.2 GB before). ``next()`` runs one step and returns its report. Every action's work is estimated and checked
before it starts, and the sum over the lesson (``budget.py``, ``costs.py``). A window drives the same object:
the step list is ``lesson.steps``, the progress ``runner.position`` of ``len(lesson.steps)``, the actions are
``Action`` records it can also animate.

A step's report: the filter (m, k, scheme, variant, n = inserts, bits set), the last verdict with its positions,
the measured rate over the lesson's non-member probes (None for hand-set positions, which cannot hash a probe)
and the exact rate E[(X/m)^k] (the variant's own formula), plus the numbers the step computed.

Any failure while running is a ``LessonError`` naming the file and the action's line; ``check`` runs the whole
lesson first, so a lesson that would fail half-way is refused before a class sees step one. A failed or
cancelled step leaves the state as it was before the step.
"""

from __future__ import annotations

from typing import Callable

from bloomviz.theory import rates as theory
from bloomviz.items.encoding import random_items
from bloomviz.lessons import budget as B
from bloomviz.lessons.actions import LESSON_MAX_M, MAX_ENSEMBLE_WORK
from bloomviz.lessons.costs import action_cost, check_new_filter_spec, report_cost
from bloomviz.lessons.lesson import Action, Lesson, LessonError
from bloomviz.lessons.state import LessonState, lookup_record, need_filter, snapshot
from bloomviz.measure.verdicts import LESSON_WORDS, ForcedRemoval, Verdict

CHECKPOINT_BYTES = 1 << 20     # a step's state is copied for Back only while its filter is this small
CHECKPOINTS_TOTAL = 32 << 20   # and all the copies together this small; past that, Back replays


def _make_filter(state: LessonState, o: dict):
    from bloomviz.theory.calculator import textbook_design
    from bloomviz.hashing.seed_schemes import HAND_SET_ID, hand_set
    from bloomviz.filters.registry import VARIANTS, make_filter
    scheme = o.get("scheme")
    if scheme == HAND_SET_ID:
        if not state.hand_set:
            raise ValueError("scheme=hand-set needs positions lines (positions ITEM = P …) before the filter")
        scheme = hand_set(state.hand_set)
    variant = o["variant"]
    # the variant's declared parameters, each from its lesson option (None: the default); the options of other
    # variants are not its business
    params = {param.name: o.get(param.key) for param in VARIANTS[variant].parameters}
    if VARIANTS[variant].capabilities.sized and (params["m"] is None or params["k"] is None):
        params["m"], params["k"], _notes = textbook_design(o["n"], o["p"], max_m=LESSON_MAX_M)
    check_new_filter_spec(VARIANTS[variant], params)
    flt = make_filter(variant, scheme=scheme, **params)
    # built, nothing used yet (counters are zeroed lazily by the system): refused here before a bit is touched
    B.check_filter_bytes(flt.nbytes(), f"a {variant} filter of m = {flt.m:,} bits")
    return flt


def _ensemble(state: LessonState, o: dict) -> dict:
    from bloomviz.measure.ensemble import run_ensemble
    flt = need_filter(state)
    from bloomviz.filters.registry import is_standard
    if not is_standard(flt) or flt.scheme == "hand-set":
        raise ValueError("an ensemble draws random standard filters: use it with a standard filter and a real "
                         "hash scheme")
    n = o.get("n", len(flt))
    if n < 1:
        raise ValueError("the filter is empty: insert items first or give n=")
    if o["filters"] * n > MAX_ENSEMBLE_WORK:
        raise ValueError(f"filters × n = {o['filters'] * n:,} inserts is more than {MAX_ENSEMBLE_WORK:,}")
    res = run_ensemble(flt.m, flt.k, n, o["filters"], scheme=flt.scheme, probes=o["probes"], seed=o["seed"])
    at = n - 1
    return {"ensemble.filters": o["filters"], "ensemble.n": n, "ensemble.mean": float(res.mean[at]),
            "ensemble.low": float(res.low[at]), "ensemble.high": float(res.high[at]),
            "ensemble.exact": float(res.fp_exact[at]), "ensemble.classic": float(res.fp_classic[at])}


def _design(o: dict) -> dict:
    n, p = o["n"], o["p"]
    k, m = theory.optimal_params(n, p)
    return {"design.n": n, "design.p": p, "design.k": k, "design.m": m, "design.bits_per_item": m / n,
            "design.lower_bound_bits_per_item": theory.lower_bound_bits_per_element(p),
            "design.optimal_k": theory.optimal_k(m, n), "design.exact": theory.fp_exact(m, k, n),
            "design.classic": theory.fp_classic(m, k, n)}


def _rates(o: dict) -> dict:
    m, k, out = o["m"], o["k"], {"rates.m": o["m"], "rates.k": o["k"]}
    for n in o["n"]:
        out[f"rates.{n}.classic"] = theory.fp_classic(m, k, n)
        out[f"rates.{n}.approx"] = theory.fp_approx(m, k, n)
        if m <= 1 << 34:
            out[f"rates.{n}.exact"] = theory.fp_exact(m, k, n)
    return out


def _expect(state: LessonState, action: Action) -> None:
    flt, snap = state.filter, snapshot(state)
    for key, want in action.options.items():
        if key == "verdict" and want in LESSON_WORDS.values():   # the four-way verdict, not the filter's answer
            last = snap["last"] or {}
            got = LESSON_WORDS.get(Verdict(last["class"])) if "class" in last else None
            if got != want:
                raise ValueError(f"expected verdict = {want}, the lesson has {got or 'no lookup'}")
            continue
        got = snap["last"]["verdict"] if key == "verdict" and snap["last"] else \
            tuple(snap["last"]["positions"]) if key == "positions" and snap["last"] else snap.get(key)
        if flt is None and key != "verdict":
            raise ValueError(f"expected {key} = {want}, but there is no filter yet")
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


def apply(state: LessonState, action: Action, window: list) -> None:
    """Run one action on ``state`` (in place). ValueError/TypeError say what went wrong."""
    name, a, o = action.name, action.args, action.options
    if name == "positions":
        state.hand_set[a[0]] = list(a[1:])
    elif name == "filter":
        state.filter, state.named, state.randoms, state.last = _make_filter(state, o), [], 0, None
        state.removed, state.forced, state.distorted = {}, [], False
    elif name == "insert":
        flt = need_filter(state)
        for item in a:
            ins = flt.add(item)
            state.named.append(item)
            state.last = {"action": "insert", "item": item, "positions": list(ins.positions),
                          "newly_set": [bool(x) for x in ins.newly_set]}
        if "slow" in o:
            window.append({"action": "slow", "seconds_per_hash": o["slow"]})
    elif name == "lookup":
        flt = need_filter(state)
        for item in a:
            state.last = lookup_record(state, name, item, flt.lookup(item))
        if "slow" in o:
            window.append({"action": "slow", "seconds_per_hash": o["slow"]})
    elif name == "predict":
        from bloomviz.lessons import predict
        predict.run(state, action, window)
    elif name == "remove":
        flt = need_filter(state)
        if not flt.capabilities.removable:
            from bloomviz.filters.registry import VARIANTS
            removable = " or ".join(f"variant={vid}" for vid, cls in VARIANTS.items() if cls.capabilities.removable)
            raise ValueError(f"a {flt.variant} filter cannot remove items: use {removable}")
        for item in a:
            # as in the window: removing a member is a removal, whatever force says; only a non-member's is forced
            member = item in state.named
            rem = flt.remove(item, force=o["force"] and not member)
            if member:
                state.named.remove(item)
                state.removed[item] = state.removed.get(item, 0) + 1
            else:
                state.forced.append(ForcedRemoval(action.line, item, rem.cleared))
            state.distorted = state.distorted or bool(rem.stuck) or not member
            state.last = {"action": "remove", "item": item, "positions": list(rem.positions),
                          "counters_before": list(rem.before), "counters_after": list(rem.after), "forced": o["force"] and not member}
    elif name in ("insert-random", "autoplay"):
        flt = need_filter(state)
        flt.update(random_items(a[0], seed=o["seed"]))
        state.randoms += a[0]
        if name == "autoplay":
            window.append({"action": "autoplay", "items": a[0], **({"speed": o["speed"]} if "speed" in o else {})})
    elif name == "measure":
        state.probes, state.probe_seed = o["probes"], o["seed"]
    elif name == "ensemble":
        state.put(_ensemble(state, o))
    elif name == "design":
        state.put(_design(o))
    elif name == "rates":
        state.put(_rates(o))
    elif name == "kedmi":
        from bloomviz.scenarios import kedmi_toy
        flt, res = kedmi_toy.replay(o["density"], seed=o["seed"])
        state.kedmi_seeds.add(o["seed"])
        state.filter, state.named, state.randoms, state.last = flt, [], res.n, None
        state.removed, state.forced, state.distorted = {}, [], False
        state.put({f"kedmi.{key}": value for key, value in res.as_dict().items()})
    elif name == "git-history":
        from bloomviz.lessons import wild
        state.put(wild.git_history(o["commits"], o["seed"]))
    elif name == "ethereum-block":
        from bloomviz.lessons import wild
        state.put(wild.ethereum_block())
    elif name == "highlight":
        flt = need_filter(state)
        bad = [p for p in a if p >= flt.m]
        if bad:
            raise ValueError(f"position {bad[0]} is outside 0…{flt.m - 1}")
        window.append({"action": "highlight", "positions": list(a)})
    elif name == "show":
        window.append({"action": "show", **o})
    elif name == "expect":
        _expect(state, action)


class LessonRunner:
    def __init__(self, lesson: Lesson):
        self.lesson = lesson
        self.reports: list[dict] = []
        self.budget = B.Budget()
        self._state = LessonState()
        self._kept: dict[int, LessonState] = {0: LessonState()}   # steps taken -> a copy of the state then

    @property
    def position(self) -> int:
        """Steps taken so far (the window shows "step position of len(steps)")."""
        return len(self.reports)

    @property
    def state(self) -> LessonState:
        return self._state

    @property
    def finished(self) -> bool:
        return self.position >= len(self.lesson.steps)

    def next(self, before_action: Callable[[int, int], None] | None = None) -> dict:
        """Run the next step; ``before_action(step_index, action_index)`` is called before each action starts
        (a job's progress and cancel: whatever it raises leaves the state as it was before the step)."""
        if self.finished:
            raise IndexError("the lesson has no more steps")
        step = self.lesson.steps[self.position]
        state, window, line = self._state, [], step.line
        state.touched = set()
        try:
            for index, action in enumerate(step.actions):
                if before_action is not None:
                    before_action(self.position, index)
                line = action.line
                seconds, what = action_cost(state, action)
                self.budget.charge(seconds, what)
                apply(state, action, window)
            line = step.line
            self.budget.charge(B.ACTION_BASE + report_cost(state), "this step's report (its measured rate)")
            report = {"step": self.position + 1, "title": step.title, "line": step.line, **snapshot(state),
                      "numbers": {k: v for k, v in state.numbers.items() if k in state.touched}, "window": window}
        except BaseException as exc:
            self.budget.abandon_step()
            self._state = self._rebuild(self.position)
            if isinstance(exc, (ValueError, TypeError, OverflowError, MemoryError)):
                name = action.name if line != step.line else "step"
                raise LessonError(self.lesson.path, line, f"{name}: {exc}") from None
            raise
        self.budget.end_step()
        self.reports.append(report)
        self._keep(state)
        return report

    def _keep(self, state: LessonState) -> None:
        flt = state.filter
        size = (flt.nbytes() if flt is not None else 0) + 64 * len(state.named)
        held = sum(s.filter.nbytes() for s in self._kept.values() if s.filter is not None)
        if size <= CHECKPOINT_BYTES and held + size <= CHECKPOINTS_TOTAL:
            self._kept[self.position] = state.copy()

    def _rebuild(self, position: int) -> LessonState:
        """The state after ``position`` steps: the nearest kept copy, then the steps after it replayed (their
        work was checked when they were first taken)."""
        start = max(p for p in self._kept if p <= position)
        state = self._kept[start].copy()
        for step in self.lesson.steps[start:position]:
            for action in step.actions:
                apply(state, action, [])
        return state

    def state_within(self, action_index: int) -> LessonState:
        """The current step's state just before its action ``action_index``: the state before the step
        rebuilt and the step's earlier actions replayed (what a window animates from: a slow insert, an
        autoplay)."""
        if self.position == 0:
            raise IndexError("no step taken yet")
        state = self._rebuild(self.position - 1)
        for action in self.lesson.steps[self.position - 1].actions[:action_index]:
            apply(state, action, [])
        return state

    def back(self) -> LessonState:
        """Undo the last step: the state before it, rebuilt exactly."""
        if self.position == 0:
            raise IndexError("already at the start of the lesson")
        self.reports.pop()
        self.budget.back()
        for position in [p for p in self._kept if p > self.position]:
            del self._kept[position]
        self._state = self._rebuild(self.position)
        return self.state

    def run_all(self, before_action: Callable[[int, int], None] | None = None) -> list[dict]:
        while not self.finished:
            self.next(before_action)
        return self.reports


def check(lesson: Lesson, before_action: Callable[[int, int], None] | None = None) -> list[dict]:
    """Run every step on the core; the reports, or the first LessonError (file, line, reason)."""
    return LessonRunner(lesson).run_all(before_action)

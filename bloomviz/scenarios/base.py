"""What every scenario shares: the verdict of a new item, a measured rate, the numbers in words, and the
``Scenario`` base class (how to size the filter, which items go in, the story, the check)."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Iterable, Sequence

import numpy as np

from bloomviz.hashing import schemes as hashing

from bloomviz.theory import rates as theory
from bloomviz.items.encoding import to_bytes
from bloomviz.theory.limits import MAX_K
from bloomviz.scenarios.datasets import read_lines
from bloomviz.theory.units import human_bytes, percent_text
from bloomviz.vocabulary import Verdict
from bloomviz.i18n import marks, number, tr





# --- small records ------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class ScenarioDesign:
    m: int
    k: int
    capacity: int
    p: float | None = None               # the target rate, when the design came from one
    scheme: str = hashing.DEFAULT_SCHEME


@dataclass(frozen=True)
class Judged:
    """One item judged: what the filter says and what is true."""
    item: str
    member: bool            # really in the set
    passes: bool            # the filter says "probably in the set"

    @property
    def kind(self) -> Verdict:
        if not self.passes:
            return Verdict.TRUE_NEGATIVE
        return Verdict.TRUE_POSITIVE if self.member else Verdict.FALSE_POSITIVE

    @property
    def false_positive(self) -> bool:
        return self.passes and not self.member


@dataclass(frozen=True)
class Rate:
    """A false-positive rate measured on ``trials`` non-members, with its 95% Wilson interval."""
    hits: int
    trials: int

    @property
    def rate(self) -> float:
        return self.hits / self.trials if self.trials else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        return theory.wilson_interval(self.hits, self.trials)


def measure(flt, non_members: Sequence[str]) -> Rate:
    """How many of ``non_members`` (items known not to be in the filter) pass it."""
    return Rate(int(np.count_nonzero(flt.contains_many(list(non_members)))), len(non_members))


def judge(items: Iterable[str], flt, truth: set[bytes]) -> list[Judged]:
    """Each item looked up in ``flt`` and compared with ``truth`` (the inserted items' bytes)."""
    items = list(items)
    if not items:
        return []
    passes = flt.contains_many(items)
    return [Judged(item, to_bytes(item) in truth, bool(ok)) for item, ok in zip(items, passes)]


def pct(x: float) -> str:
    """A rate as a percentage, with the window's decimal mark (the stories are the window's words)."""
    return marks(percent_text(x))


def kib(nbytes: float) -> str:
    return marks(human_bytes(nbytes))


def list_bytes(items: Iterable[str]) -> int:
    """The size of the items stored plainly: their UTF-8 bytes plus one newline each."""
    return sum(len(to_bytes(x)) + 1 for x in items)


def rate_text(r: Rate) -> str:
    low, high = r.interval
    return tr("{hits} of {trials} = {rate} (95% interval {low} – {high})").format(
        hits=number(r.hits), trials=number(r.trials), rate=pct(r.rate), low=pct(low), high=pct(high))


def expected_fp(flt) -> float:
    return theory.fp_exact(flt.m, flt.k, len(flt))


# --- the scenarios ------------------------------------------------------------------------------------------
class Scenario:
    """A story: parameters, data, a check. Subclasses fill in the class attributes and methods."""

    key = ""
    title = ""
    tagline = ""             # one line for the start page
    datasets: tuple[str, ...] = ()
    check_label = "Check"     # the interactive step's button
    check_hint = ""           # what to type
    P: float | None = None    # the rate the filter is designed for (the default design reads it)
    # The check's answer in the scenario's own words, one for each verdict: "{item}" is the item checked;
    # other fields come from verdict_fields.
    says_absent = says_present = says_false_positive = ""

    def load(self) -> list[str]:
        """The items to insert, in order: by default the lines of the first data set the scenario names."""
        return read_lines(self.datasets[0])

    @cached_property
    def items(self) -> list[str]:
        return self.load()

    @cached_property
    def truth(self) -> set[bytes]:
        return {to_bytes(x) for x in self.items}

    def design(self) -> ScenarioDesign:
        """The textbook m and k for the loaded items at rate ``P``."""
        if self.P is None:
            raise NotImplementedError(f"{type(self).__name__} sets no rate P: it must say its own design")
        return _designed(len(self.items), self.P)

    def story(self, flt) -> list[str]:
        """Paragraphs of plain text with the numbers of ``flt`` (the filter after loading) plugged in, in the
        window's language (``tr``, numbers by ``i18n.number`` and the helpers here)."""
        raise NotImplementedError

    def check(self, item: str, flt) -> Judged:
        return judge([item], flt, self.truth)[0]

    def verdict_text(self, v: Judged) -> str:
        words = {Verdict.TRUE_NEGATIVE: self.says_absent, Verdict.TRUE_POSITIVE: self.says_present}.get(v.kind,
                                                                                     self.says_false_positive)
        return tr(words).format(item=v.item, **self.verdict_fields(v))

    def verdict_fields(self, v: Judged) -> dict[str, object]:
        """Fields beyond {item} that this scenario's verdict words name."""
        return {}

    def examples(self, flt) -> list[str]:
        """A few items worth trying in the interactive step (at least one false positive when one is found)."""
        return []


def _designed(n: int, p: float) -> ScenarioDesign:
    k, m = theory.optimal_params(n, p)
    return ScenarioDesign(m=m, k=min(k, MAX_K), capacity=n, p=p)


def _find_false_positives(candidates: Iterable[str], flt, truth: set[bytes], limit: int) -> list[str]:
    candidates = [c for c in candidates if to_bytes(c) not in truth]
    hits = np.flatnonzero(flt.contains_many(candidates)) if candidates else []
    return [candidates[i] for i in hits[:limit]]

"""What a lesson may cost: every action's work estimated and checked before it starts, and the sum over a lesson.

A lesson is a file someone sent (a colleague's, a download), so its numbers are untrusted: before this, five
``insert-random`` lines at m = 2^28 froze the window for 907 s, twenty steps of a counting filter kept 5.8 GB of
copies, and a 2,000-lookup line with 1,000 named members spent 9 s naming culprits. Each action's cost is
estimated from what it will do (items hashed, probes measured, filters × cells of an ensemble, culprits searched,
a Kedmi replay) in seconds of CPU on the machine the coefficients were measured on (``benchmarks/lesson_work.py``
prints measured time against these estimates; the estimates are set above the measurements). One action may
take ``ACTION_SECONDS`` (a Next in the window stays short), a whole lesson ``LESSON_SECONDS`` (its dry run,
``lesson --check``, stays under 5 s of CPU with Python's start-up); a lesson's filter may hold ``FILTER_BYTES``.

A refusal is a ``LessonError`` naming the file, the action's line and what the action would cost, against
what a lesson allows. The numbers are estimates and are said to be.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from bloomviz.formats.reasons import Marked, Reason, say
from bloomviz.theory.limits import LESSON_GROWING_MAX_M

ACTION_SECONDS = 2.0          # one action (one Next in the window runs a step's actions on its thread)
LESSON_SECONDS = 3.5          # every step of a lesson: the dry run before a class sees step one
FILTER_BYTES = 64 << 20       # a lesson's filter in memory (bits, counters, stages): m = 2^28 plain bits fits
# what a lesson's workbench keeps besides (the truth: each insert's positions and item; the measured rows), as the
# window keeps it: 2,000,000 generated items at k = 7 keep about 300 MB
KEPT_BYTES = 384 << 20
KEPT_PER_ITEM = 112           # a generated item's string, its place in the item list and its measured row
KEPT_PER_POSITION = 4         # and each of its k positions
GROWING_MAX_M = LESSON_GROWING_MAX_M   # a growing (scalable) filter's bits over all its stages, as in the window
MAX_STEP_TEXT = 20_000        # characters of narration in one step: pages, where a projector shows a paragraph
MAX_WORD = 1_000              # characters without a space (a word, an item, a URL): one longer hangs the layout
MAX_ACTION_LINE = 20_000      # characters in one action line (the tokenizer reads them one by one)
MAX_STEPS = 1_000             # steps in one lesson (the step list, and a class's patience)

# Seconds of CPU, measured on the project's 2-core machine and rounded up (benchmarks/lesson_work.py).
# A named item is one operation of the lesson's workbench (the window's model: its record, truth, measurement and
# numbers), 0.2-0.3 ms where the bare filter took 12 µs (0.3-0.5 ms while every record computed its theory and
# Wilson interval, now computed when first read); a generated item is one of a workbench batch (its truth row and
# the measurement's row), about three times a bare insert.
ITEM_SCALAR = 400e-6          # one named item inserted, looked up or removed (a workbench operation)
ITEM_SCALAR_PER_HASH = 0.8e-6
ITEM_BATCH = 0.35e-6          # one probe, or one item of an ensemble's filters (the bare batch path)
ITEM_BATCH_PER_HASH = 0.03e-6
WORKBENCH_ITEM = 0.15e-6      # one generated item inserted into the lesson's workbench (a batch)
WORKBENCH_ITEM_PER_HASH = 0.12e-6
GROWING_ITEM = 2e-6           # and more for a growing filter, measured stage by stage after every insert
CULPRIT_PER_MEMBER = 3e-6     # naming who set a looked-up item's bits: each named member hashed again
CULPRIT_PER_HASH = 0.25e-6
CELL = 1e-9                   # one cell of an ensemble's first-set table (int64)
BIT = 0.25e-9                 # one bit of the lesson's filter counted for a report, or copied
ACTION_BASE = 20e-6           # any action line: parsing done, the record, the state
KEDMI_FIRST = 1.6             # Kedmi's replay: 32,768 keys and 10,000 random strings × 10 SHA-256 (upper bounds:
KEDMI_AGAIN = 0.9             # kedmi_toy keeps the last design's positions, so a replay that finds them is ~0 s)
GIT_BASE = 0.1                # a small file read, or git started
GIT_COMMIT = 2e-3             # one commit of a git-history step (built, then its filter measured)
FORMULA = 2e-3                # one closed form (design, one n of rates, an exact rate)


def items_cost(count: int, k: int, scalar: bool, stages: int = 1, per_hash: float = 0.0) -> float:
    """Seconds to hash ``count`` items (``per_hash``: a slow scheme's own cost per position, if higher)."""
    per = (ITEM_SCALAR + max(ITEM_SCALAR_PER_HASH, per_hash) * k) if scalar else \
        (ITEM_BATCH + max(ITEM_BATCH_PER_HASH, per_hash) * k)
    return count * per * max(1, stages)


def workbench_items_cost(count: int, k: int, stages: int = 1, per_hash: float = 0.0, growing: bool = False) -> float:
    """Seconds to insert ``count`` generated items into the lesson's workbench as one batch."""
    per = WORKBENCH_ITEM + max(WORKBENCH_ITEM_PER_HASH, per_hash) * k + (GROWING_ITEM if growing else 0.0)
    return count * per * max(1, stages)


def seconds_text(seconds: float) -> str:
    return f"{seconds:.2g} s" if seconds < 10 else f"{seconds:,.0f} s"


def _seconds(seconds: float) -> Marked:
    """Seconds for a refusal's sentence, written as ``seconds_text`` writes them (marks the window's own)."""
    return Marked(seconds_text(seconds))


class BudgetError(ValueError):
    """An action whose estimated work or memory is over what a lesson allows (the runner adds file and line)."""


@dataclass
class Budget:
    """The work a lesson has spent so far, by step taken (Back gives a step's work back)."""

    steps: list = field(default_factory=list)     # seconds spent by each step taken
    current: float = 0.0                          # the step being run

    @property
    def spent(self) -> float:
        return sum(self.steps) + self.current

    def charge(self, seconds: float, what: str) -> None:
        """Refuse (BudgetError) an action estimated over its own limit or over what is left of the lesson's."""
        if seconds > ACTION_SECONDS:
            raise BudgetError(Reason(say("{what} is about {seconds} of work (estimated), more than the {most} one "
                                         "lesson action may take; use fewer items, probes or filters, or a smaller m",
                                         what=what, seconds=_seconds(seconds), most=_seconds(ACTION_SECONDS))))
        if self.spent + seconds > LESSON_SECONDS:
            raise BudgetError(Reason(say("{what} is about {seconds} of work (estimated) after {spent} spent by the "
                                         "steps before it: over the {most} a whole lesson may take; split the lesson "
                                         "or use fewer items, probes or filters", what=what,
                                         seconds=_seconds(seconds), spent=_seconds(self.spent),
                                         most=_seconds(LESSON_SECONDS))))
        self.current += seconds

    def end_step(self) -> None:
        self.steps.append(self.current)
        self.current = 0.0

    def abandon_step(self) -> None:
        self.current = 0.0

    def back(self) -> None:
        if self.steps:
            self.steps.pop()


def check_kept(held: int, count: int, k: int, what: str) -> None:
    """Refuse inserts that would take what the lesson's workbench keeps past ``KEPT_BYTES``."""
    more = count * (KEPT_PER_ITEM + KEPT_PER_POSITION * k)
    if held + more > KEPT_BYTES:
        raise BudgetError(Reason(say("{what} would keep about {bytes} bytes (the items, their positions and the "
                                     "measured rows), more than a lesson may ({most}); use fewer items",
                                     what=what, bytes=held + more, most=KEPT_BYTES)))


def check_filter_bytes(nbytes: int, what: str) -> None:
    if nbytes > FILTER_BYTES:
        raise BudgetError(Reason(say("{what} takes {bytes} bytes of memory, more than a lesson's filter may "
                                     "({most}); use a smaller m or fewer counter bits", what=what, bytes=nbytes,
                                     most=FILTER_BYTES)))


def check_text(text: str, what: str) -> str | None:
    """Why narration or a title is too long to show (None when it is fine)."""
    if len(text) > MAX_STEP_TEXT:
        return f"{what} is {len(text):,} characters, more than the {MAX_STEP_TEXT:,} one step may show"
    longest = max((len(word) for word in text.split()), default=0)
    if longest > MAX_WORD:
        return (f"{what} holds a word of {longest:,} characters without a space, more than {MAX_WORD:,}: it "
                f"cannot be laid out on a screen")
    return None

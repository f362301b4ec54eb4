"""Everything the window knows about the filter it shows, as one object per filter.

A new filter gets a new ``State``. What is kept of one to go back to (a ``Checkpoint``, a ``Snapshot``) is
undo.py's.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from bloomviz.measure.pipeline import MeasuredSeries
from bloomviz.workbench.limits import KEPT_PER_OPERATION
from bloomviz.workbench.measurement import ProbeSet
from bloomviz.vocabulary import LOOKUP_VERDICTS
from bloomviz.workbench.records import HistoryEntry
from bloomviz.workbench.truth import Truth


@dataclass
class State:
    flt: object
    capacity: int | None
    truth: Truth
    measure: ProbeSet
    series: MeasuredSeries     # the plot's rows, which the measurement writes (``ProbeSet.series``: the same)
    history: list[HistoryEntry] = field(default_factory=list)
    counts: dict = field(default_factory=lambda: dict.fromkeys(LOOKUP_VERDICTS, 0))
    lookups: int = 0
    last: object = None          # the last Operation or StateNote, to explain again after a restore
    last_positions: tuple = ()   # the last single operation's positions (a blocked filter outlines their block)
    # what the window keeps for it, in bytes: ``nbytes`` when last counted whole plus what each insert allowed
    # since adds (operations.py); None: to be counted (a new state, or one cut back)
    kept: int | None = None


def nbytes(s: State) -> int:
    """About what a whole state holds in memory: its filter, truth and plot rows."""
    return int(s.flt.nbytes()) + s.truth.nbytes() + s.series.nbytes + KEPT_PER_OPERATION * len(s.history)

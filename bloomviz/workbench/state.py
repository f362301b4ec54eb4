"""Everything the window knows about the filter it shows, as one object per filter.

A new filter gets a new ``State``; the model never touches an old one again. So keeping a filter aside while
another is shown (a scenario's Cancel, a long Open that is cancelled) is keeping its ``State`` (``Snapshot``),
and going back a few operations after a failed job is cutting one back to the lengths in a ``Checkpoint``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from bloomviz.measure.experiment import Series
from bloomviz.workbench.measurement import Measurement
from bloomviz.workbench.records import COUNTED, HistoryEntry
from bloomviz.workbench.truth import Truth


@dataclass
class State:
    flt: object
    capacity: int | None
    truth: Truth
    measure: Measurement
    series: Series = field(default_factory=Series)
    history: list[HistoryEntry] = field(default_factory=list)
    counts: dict = field(default_factory=lambda: dict.fromkeys(COUNTED, 0))
    lookups: int = 0
    last: object = None          # the last Operation or StateNote, to explain again after a restore
    last_positions: tuple = ()   # the last single operation's positions (a blocked filter outlines their block)


@dataclass(frozen=True)
class Checkpoint:
    """The lengths of a ``State`` and a copy of its filter: ``Workbench.rollback`` cuts the state back to them."""
    state: State
    flt: object
    capacity: int | None
    items: int
    positions: int
    removed: dict
    series: int
    history: int
    counts: dict
    lookups: int
    probes: list
    probe_keys: set
    seed: int
    last: object

    @property
    def inserts(self) -> int:
        return len(self.flt)


def checkpoint(s: State) -> Checkpoint:
    t, mm = s.truth, s.measure
    return Checkpoint(state=s, flt=s.flt.copy(), capacity=s.capacity, items=len(t.items),
                      positions=len(t.rows) if t.rows is not None else 0,
                      removed=dict(t.removed),
                      series=len(s.series), history=len(s.history), counts=dict(s.counts), lookups=s.lookups,
                      probes=mm.probes, probe_keys=mm.keys, seed=mm.seed, last=s.last)


def cut_back(s: State, cp: Checkpoint) -> None:
    """Put ``s`` back as it was at ``cp`` (the filter becomes a copy of the checkpoint's)."""
    s.flt = cp.flt.copy()
    s.capacity = cp.capacity
    s.truth.flt = s.flt
    s.truth.cut(cp.items, cp.positions, cp.removed)
    s.series.truncate(cp.series)
    del s.history[cp.history:]
    s.counts = dict(cp.counts)
    s.lookups = cp.lookups
    s.measure.probes, s.measure.keys, s.measure.seed = cp.probes, cp.probe_keys, cp.seed
    s.measure.attach(s.flt)
    s.last = cp.last


@dataclass(frozen=True)
class Snapshot:
    """A whole state kept aside while another filter is shown (only the filter is copied: ``reset`` clears a
    filter in place before showing it again)."""
    state: State
    flt: object
    undo_depth: int = 0    # the undo steps that belong to the states before this one

    @property
    def inserts(self) -> int:
        return len(self.flt)


def nbytes(s: State) -> int:
    """About what a whole state holds in memory: its filter, truth and plot rows."""
    series = sum(s.series.column(c).nbytes for c in s.series.COLUMNS) if len(s.series) else 0
    return int(s.flt.nbytes()) + s.truth.nbytes() + series + 200 * len(s.history)


def snapshot(s: State, undo_depth: int = 0) -> Snapshot:
    return Snapshot(state=s, flt=s.flt.copy(), undo_depth=undo_depth)


def revive(snap: Snapshot) -> State:
    """The snapshot's state, live again (a snapshot is restored at most once: its objects become live)."""
    s = snap.state
    s.flt = snap.flt
    s.truth.flt = s.flt
    s.measure.attach(s.flt)
    return s

"""Everything the window knows about the filter it shows, as one object per filter.

A new filter gets a new ``State``. Keeping a filter aside while another is shown (a scenario's Cancel, a long
Open that is cancelled, undo of a replacement) is keeping its ``State`` with a copy of its filter and the
measurement's settings by value (``Snapshot``: the probe count or seed may be changed just before the filter is
replaced); going back a few operations (undo, a failed job) is cutting a state back to the lengths in a
``Checkpoint``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from bloomviz.measure.series import MeasuredSeries
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
    series: MeasuredSeries = field(default_factory=MeasuredSeries)
    history: list[HistoryEntry] = field(default_factory=list)
    counts: dict = field(default_factory=lambda: dict.fromkeys(LOOKUP_VERDICTS, 0))
    lookups: int = 0
    last: object = None          # the last Operation or StateNote, to explain again after a restore
    last_positions: tuple = ()   # the last single operation's positions (a blocked filter outlines their block)
    # what the window keeps for it, in bytes: ``nbytes`` when last counted whole plus what each insert allowed
    # since adds (operations.py); None: to be counted (a new state, or one cut back)
    kept: int | None = None


@dataclass(frozen=True)
class Checkpoint:
    """The lengths of a ``State`` and a copy of its filter: ``Workbench.rollback`` cuts the state back to them."""
    state: State
    flt: object
    capacity: int | None
    items: int
    positions: int
    removed: dict
    forced: int
    distorting: int
    series: int
    history: int
    counts: dict
    lookups: int
    probes: list
    probe_keys: set
    seed: int
    last: object


def checkpoint(s: State, copy_filter: bool = True) -> Checkpoint:
    """``copy_filter=False`` for an operation that leaves the filter as it is (a lookup): undo is last in, first
    out, so when it is undone the filter is again the one it saw, and no copy is needed."""
    t, mm = s.truth, s.measure
    items = len(t.items)
    return Checkpoint(state=s, flt=s.flt.copy() if copy_filter else None, capacity=s.capacity, items=items,
                      positions=items if t.rows is not None else 0,     # (a row per insert)
                      removed=dict(t.removed), forced=len(t.forced), distorting=t.distorting,
                      series=len(s.series), history=len(s.history), counts=dict(s.counts), lookups=s.lookups,
                      probes=mm.probes, probe_keys=mm.keys, seed=mm.seed, last=s.last)


def cut_back(s: State, cp: Checkpoint) -> None:
    """Put ``s`` back as it was at ``cp`` (the filter becomes a copy of the checkpoint's, when it kept one)."""
    if cp.flt is not None:
        s.flt = cp.flt.copy()
    s.capacity = cp.capacity
    s.truth.flt = s.flt
    s.truth.cut(cp.items, cp.positions, cp.removed, cp.forced, cp.distorting)
    s.series.truncate(cp.series)
    del s.history[cp.history:]
    s.counts = dict(cp.counts)
    s.lookups = cp.lookups
    if len(cp.probes) == s.measure.count:   # (a probe count changed since is a setting, not undone here)
        s.measure.probes, s.measure.keys, s.measure.seed = cp.probes, cp.probe_keys, cp.seed
    s.measure.attach(s.flt)
    s.last = cp.last
    s.kept = None


@dataclass(frozen=True)
class Snapshot:
    """A whole state kept aside while another filter is shown (only the filter is copied: ``reset`` clears a
    filter in place before showing it again)."""
    state: State
    flt: object
    probes: list
    probe_keys: set
    probe_count: int
    seed: int
    undo_serial: int = 0   # the undo steps taken before it have lower serial numbers (undo.UndoStack)

    @property
    def inserts(self) -> int:
        return len(self.flt)


def nbytes(s: State) -> int:
    """About what a whole state holds in memory: its filter, truth and plot rows."""
    return int(s.flt.nbytes()) + s.truth.nbytes() + s.series.nbytes + KEPT_PER_OPERATION * len(s.history)


def snapshot(s: State, undo_serial: int = 0) -> Snapshot:
    mm = s.measure
    return Snapshot(state=s, flt=s.flt.copy(), probes=mm.probes, probe_keys=mm.keys, probe_count=mm.count,
                    seed=mm.seed, undo_serial=undo_serial)


def revive(snap: Snapshot) -> State:
    """The snapshot's state, live again, measured on its own probes (its filter object becomes live: restore a
    snapshot once)."""
    s = snap.state
    s.flt = snap.flt
    s.truth.flt = s.flt
    mm = s.measure
    mm.probes, mm.keys, mm.count, mm.seed = snap.probes, snap.probe_keys, snap.probe_count, snap.seed
    mm.attach(s.flt)
    return s

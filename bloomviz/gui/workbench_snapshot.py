"""A whole workbench state, kept aside while another filter is shown, and put back exactly.

``Checkpoint`` (in ``workbench``) remembers lengths and rolls one filter back after a failed job; it cannot bring
back a filter that was *replaced* (a scenario's Cancel used to claim it did and lost the user's items). A
``Snapshot`` keeps the state objects themselves: the workbench builds fresh ones for a new filter and never
touches the old ones again, so holding on to them costs nothing. Only the filter is copied, because ``reset``
clears a filter in place before it installs it again.
"""

from __future__ import annotations

from dataclasses import dataclass

# Everything ``Workbench._install`` (and the operations after it) set for one filter. The tracker is not kept:
# it is rebuilt from the restored filter and probes, as ``rollback`` does.
STATE = ("_flt", "_variant", "_capacity", "_fixed_k", "_positions", "_items", "_truth", "_series", "_history",
         "_counts", "_lookups", "_last", "_truth_known", "_removed", "_last_block", "_stage_rows", "_probes",
         "_probe_keys", "_probe_count", "_seed", "_fp_now")


@dataclass(frozen=True)
class Snapshot:
    state: dict

    @property
    def inserts(self) -> int:
        return len(self.state["_flt"])


def take(wb) -> Snapshot:
    """The workbench's state as it is now (call when no bulk job is running)."""
    state = {name: getattr(wb, name) for name in STATE}
    state["_flt"] = state["_flt"].copy()
    return Snapshot(state)


def restore(wb, snap: Snapshot) -> None:
    """Put ``snap`` back: filter, truth, measurement, plot rows, history and the last explanation."""
    wb.cancel()
    wb.aboutToReset.emit()
    for name, value in snap.state.items():   # a snapshot is restored at most once: its objects become live
        setattr(wb, name, value)
    wb._tracker = wb._make_tracker(wb._flt, wb._probes)
    wb._fp_now = wb._brute_fp() if wb._tracker is None else wb._tracker.fp_count
    wb.filterReset.emit()
    if wb._last is not None:
        wb.operationExplained.emit(wb._last)

"""The window walk's invariants (``window_walk.py``): the window against its filter after every action, and the
save targets against what a save may change."""

from __future__ import annotations

import hashlib
import os
import re

import numpy as np


def fingerprint(wb) -> tuple:
    flt = wb.filter
    counters = getattr(flt, "counters", None)
    bits = getattr(flt, "bits", None) if counters is None else None
    # the packed bits or the counters: unpacking 10^7 bits for every action would make the walk slow
    raw = (np.ascontiguousarray(counters).tobytes() if counters is not None else
           bits.tobytes() if bits is not None and hasattr(bits, "tobytes") else wb.grid_values().tobytes())
    return (wb.variant, flt.m, len(flt), hashlib.sha1(raw).hexdigest(), len(wb.history), len(wb.items))


def check(win, wb, index: int, rng) -> str | None:
    """What is wrong with the window now (None: nothing), while no bulk job runs."""
    if wb.busy:
        return None
    # the views as the next turn of the event loop draws them: an operation of the last turn (an auto-play tick
    # at a set rate) reaches them in the turn after it, which the walk's last pump may not have run yet
    wb.flush()
    flt = wb.filter
    if win.grid.m != flt.m:
        return f"the grid shows {win.grid.m} cells for a filter of {flt.m}"
    # the whole picture against the filter: every action on small filters, every tenth on large ones
    if (flt.m <= 200_000 or index % 10 == 0) and \
            not np.array_equal(win.grid.picture.reshape(-1)[:flt.m], wb.grid_values()):
        return "the grid's picture differs from the filter"
    if win.history_panel.model().rowCount() != len(wb.history):
        return f"history rows {win.history_panel.model().rowCount()} != operations {len(wb.history)}"
    n = len(flt)
    if wb.history and wb.history[-1].n != n:
        return f"history says n = {wb.history[-1].n}, the filter {n}"
    if len(wb.series) and int(wb.series.column("n")[-1]) != n:
        return f"the plot's series ends at n = {wb.series.column('n')[-1]}, the filter has {n}"
    if win.status_line.pending:
        win.update_status()
    shown = re.search(r"n = ([\d,]+)", win.status_label.text())
    if not shown or int(shown.group(1).replace(",", "")) != n:
        return f"status bar {win.status_label.text()!r} but n = {n}"
    if win.plot.series is not wb.series:
        return "the plot draws another series than the workbench's"
    if wb.truth_known:
        lost = {x for e in wb.history for x in e.false_negatives}
        items = wb.items
        sample = items[-5:] + rng.sample(items, min(5, len(items)))
        for x in sample:
            if x not in lost and wb.is_member(x) and x not in flt:
                return f"false negative: {x!r} was inserted and tests negative"
    return None


class FileWatch:
    """The save targets before an action, and what the action may have changed: only the real file behind a
    target a save dialog returned, and only where such a save may succeed; a refused save said so."""

    def __init__(self, targets):
        self.targets = targets
        self.refused = self.written = 0

    def before(self) -> dict:
        return self.targets.state()

    def after(self, before: dict, offered: list[str], said: list[str]) -> str | None:
        targets = self.targets
        now = targets.state()
        allowed = {os.path.realpath(p) for p in offered if p and not targets.must_refuse(p)}
        changed = sorted(p for p in before.keys() | now.keys() if before.get(p) != now.get(p))
        left = [p for p in now if ".bloomviz-" in os.path.basename(p) and p.endswith(".tmp")]
        if left:
            return f"a temporary file was left behind: {left}"
        wrong = [p for p in changed if p not in allowed or before.get(p, ("file",))[0] != "file"
                 or now.get(p, ("",))[0] != "file"]
        if wrong:
            was = {p: before.get(p, ("absent",))[:2] for p in wrong}
            return f"a save changed what it must not (offered {offered}): {was} -> " \
                   f"{ {p: now.get(p, ('absent',))[:2] for p in wrong} }"
        for p in changed:
            if p in before and before[p][1] != now[p][1]:
                return f"a save changed {p}'s permissions from {before[p][1]:o} to {now[p][1]:o}"
        refused = [p for p in offered if p and targets.must_refuse(p)]   # (the session's own path is never one)
        if refused and not said:
            return f"a save to {refused} was refused without a word (or did it write somewhere?)"
        self.refused += len(refused)
        self.written += len(changed)
        return None

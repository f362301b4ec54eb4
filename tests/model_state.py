"""What a user can observe of the window's model, as one comparable value: the filter's cells, its counts, the
truth, the plot's rows, the probes, the history and the undo steps (and the running byte count the memory
budget reads). A refused operation must leave it identical."""

from __future__ import annotations

import numpy as np


def observable(wb) -> dict:
    s = wb.state
    flt = wb.filter
    series = wb.series
    return {
        # (a counting filter's grid shows its counters: its "counter > 0" bits, which lookups read, are compared too)
        "filter": (flt.variant, flt.m, flt.k, flt.scheme, len(flt), flt.bits_set,
                   np.asarray(wb.grid_values()).tobytes(), flt.bits.tobytes() if flt.capabilities.counting else b""),
        "counts": (dict(s.counts), s.lookups),
        "truth": (list(wb.items), dict(s.truth.removed), len(s.truth.forced), s.truth.distorting,
                  s.truth.known),
        "series": [np.asarray(series.column(name)).tobytes() for name in ("n", "fp_measured", "fill")],
        "probes": (list(wb.probes), wb.probe_seed, s.measure.fp_count),
        "history": [(e.op, e.verdict, e.n, e.count, e.first) for e in wb.history],
        "undo": (len(wb.undo_stack), wb.undo_what, [step.label for step in wb.undo_stack._steps]),
        "kept": s.kept,
        "last": s.last,
    }


def differences(before: dict, after: dict, fresh_kept: int | None = None) -> list[str]:
    """The names of the parts that differ (an empty list: nothing changed). ``fresh_kept``: the state's bytes
    counted whole now. The running byte count may have been brought up to it by a refusal's check, or let go
    (None: counted whole at the next insert, as after a job rolled back): neither can leave it stale, as a
    count raised past the truth would."""
    return [name for name in before if before[name] != after[name]
            and not (name == "kept" and (after[name] is None or after[name] == fresh_kept))]

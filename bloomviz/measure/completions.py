"""The exact tracker's bookkeeping for a batch by hash halves: the probes the batch completed, then the rows
of their bits alone.

A probe becomes a false positive at the insert that turns the last of its bits still 0. The bookkeeping after
a flip pass (``first_flips.account_turned``) takes the row of every probe bit the batch turned; but only the
probes whose last zero the batch turned need a row, and only their bits that turned in it: after a batch of
2^16 items into a filter of 9.6 x 10^6 bits, k = 7 with 10^4 probes, ~3,000 probe bits had turned and a few
probes had completed (about 100 over a whole run of 10^6 items). So ``complete`` takes the turned bits off the
probes' zero counts first and names the probes left with none and their bits that turned (``wanted``); the
rows are found for those bits alone (``first_flips.ProbeBits.rows_of``: a scan of the batch's turned positions
with almost nothing to look up); ``completion_rows`` then counts each probe at its latest such row.
"""

from __future__ import annotations

import numpy as np

from bloomviz.hashing.lazy_jit import njit


@njit(cache=True, nogil=True)
def by_probe(slot_start, entry_probe, probe_start, out):
    """Each probe's slots (probe bits), probe p's at ``out[probe_start[p]:probe_start[p + 1]]``, from the
    entries sorted by slot (slot s's are ``slot_start[s]`` to ``slot_start[s + 1]``). ``probe_start``: the
    running counts of each probe's entries, from 0. A counting sort: one pass."""
    fill = probe_start[:-1].copy()
    for s in range(slot_start.size - 1):
        for e in range(slot_start[s], slot_start[s + 1]):
            p = entry_probe[e]
            out[fill[p]] = s
            fill[p] += 1


@njit(cache=True, nogil=True)
def complete(turned, slot_start, entry_probe, live, zeros, probe_start, probe_slots, mark, completed, wanted):
    """Take each followed (``live``) slot of ``turned`` off the zero counts of the probes on it, and follow it
    no more. Returns (how many probes were left with no zero, how many of their slots turned here): those
    probes in ``completed``, those slots in ``wanted`` (each once). ``mark``: a zero byte per slot, left so."""
    done = 0
    for s in turned:
        if not live[s]:
            continue
        live[s] = False
        mark[s] = 1
        for e in range(slot_start[s], slot_start[s + 1]):
            probe = entry_probe[e]
            zeros[probe] -= 1
            if zeros[probe] == 0:
                completed[done] = probe
                done += 1
    count = 0
    for j in range(done):
        probe = completed[j]
        for q in range(probe_start[probe], probe_start[probe + 1]):
            s = probe_slots[q]
            if mark[s] == 1:
                mark[s] = 2
                wanted[count] = s
                count += 1
    for s in turned:
        mark[s] = 0
    return done, count


@njit(cache=True, nogil=True)
def completion_rows(completed, probe_start, probe_slots, bit_time, per_row):
    """Count each of ``completed`` in ``per_row`` at the latest row among its slots' ``bit_time`` (-1 for a
    slot that did not turn in this batch)."""
    for probe in completed:
        latest = -1
        for q in range(probe_start[probe], probe_start[probe + 1]):
            t = bit_time[probe_slots[q]]
            if t > latest:
                latest = t
        per_row[latest] += 1

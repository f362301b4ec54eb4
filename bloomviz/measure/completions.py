"""The exact tracker's bookkeeping for a batch by hash halves: the probes the batch completed, then the rows
of their bits alone.

A probe becomes a false positive at the insert that turns the last of its bits still 0. The bookkeeping after
a flip pass (``first_flips.account_turned``) takes the row of every probe bit the batch turned; but only the
probes whose last zero the batch turned need a row, and only their bits that turned in it: after a batch of
2^16 items into a filter of 9.6 x 10^6 bits, k = 7 with 10^4 probes, ~3,000 probe bits had turned and a few
probes had completed (about 100 over a whole run of 10^6 items). So ``complete`` takes the turned bits off the
probes' zero counts first and names the probes left with none and their bits that turned (``wanted``); the
rows are found for those bits alone (``first_flips.ProbeBits.rows_of``: a scan of the batch's turned positions
with almost nothing to look up); ``completion_rows`` then places each probe at its latest such row, and
``running_counts`` writes the bits set and the false positives after every row.
"""

from __future__ import annotations


from bloomviz.hashing.intrinsics import prefetch
from bloomviz.hashing.lazy_jit import njit

_AHEAD = 16      # turned slots whose data is asked for ahead


@njit(cache=True, nogil=True)
def by_probe(slot_start, entry_probe, fill, out):
    """Each probe's slots (probe bits), probe p's at ``out[start[p]:start[p + 1]]``, from the entries sorted by
    slot (slot s's are ``slot_start[s]`` to ``slot_start[s + 1]``). ``fill``: ``start[:-1]`` (the running
    counts of each probe's entries, from 0), a copy this advances. A counting sort: one pass. (Arrays are made
    by the caller: one made inside a kernel needs numba's runtime, which the native kernel cache cannot call.)"""
    for s in range(slot_start.size - 1):
        for e in range(slot_start[s], slot_start[s + 1]):
            p = entry_probe[e]
            out[fill[p]] = s
            fill[p] += 1


@njit(cache=True, nogil=True)
def complete(turned, slot_start, entry_probe, live, zeros, probe_start, probe_slots, mark, completed, wanted,
             counts):
    """Take each followed (``live``) slot of ``turned`` off the zero counts of the probes on it, and follow it
    no more. ``counts`` gets (how many probes were left with no zero, how many of their slots turned here):
    those probes in ``completed``, those slots in ``wanted`` (each once). ``mark``: a zero byte per slot, left
    so. (Two numbers out through an array: a kernel of the native kernel cache returns at most one.)"""
    done = 0
    last = turned.size - _AHEAD
    for j in range(turned.size):
        # each slot's entries and its probes' counts are misses of their own (the slots are sparse): asked for
        # ahead, the start a slot earlier than the entries it points to
        if j < last:
            prefetch(slot_start, turned[j + _AHEAD])
            prefetch(entry_probe, slot_start[turned[j + _AHEAD // 2]])
        s = turned[j]
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
    counts[0] = done
    counts[1] = count


@njit(cache=True, nogil=True)
def completion_rows(completed, probe_start, probe_slots, bit_time, rows):
    """The row at which each of ``completed`` completed, into ``rows``: the latest among its slots' ``bit_time``
    (-1 for a slot that did not turn in this batch)."""
    for j in range(completed.size):
        probe = completed[j]
        latest = -1
        for q in range(probe_start[probe], probe_start[probe + 1]):
            t = bit_time[probe_slots[q]]
            if t > latest:
                latest = t
        rows[j] = latest


@njit(cache=True, nogil=True)
def running_counts(new_per_row, bits_before, rows, fp_before, fp_after):
    """In one pass: ``new_per_row`` (each row's new bits) becomes the bits set after each row, in place, and
    ``fp_after`` the false positives after each row, ``fp_before`` plus the completions at or before it
    (``rows``: their rows, sorted). Two cumulative sums and a zeroed array of rows cost ~3 ns an item."""
    bits = bits_before
    fp = fp_before
    j = 0
    for r in range(new_per_row.size):
        bits += new_per_row[r]
        new_per_row[r] = bits
        while j < rows.size and rows[j] == r:
            fp += 1
            j += 1
        fp_after[r] = fp

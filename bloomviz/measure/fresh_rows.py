"""The row at which each probe bit a batch turned was turned, found among the positions the batch turned.

The exact tracker's pass from hash halves (``first_flips.ProbeBits.flip_halves``) sets a batch's bits and
writes, in insertion order, each position whose bit it turned (``fresh``) and each row's count of them. The
probe bits that turned are then known (``_turned``: those of the probe bits still 0 before the batch that are
1 now); each appears in ``fresh`` exactly once (a bit turns once), and its row is the row of that entry.

``fresh_rows`` finds them in one scan of ``fresh`` against a bitmap of the turned bits' low bits, sized to
hold them at a fill of ~1/256 so it stays in the second-level cache: the branch on it is almost never taken.
An entry whose bit is marked is looked up in a hashed table of the turned bits (open addressing, load <= 1/4)
and, when it is one, its row is found by walking the rows' counts forward (the entries come in order). For a
filter of 9.6 x 10^6 bits, k = 7, a step of 2^16 items into the empty filter (~3,200 turned probe bits among
~4.5 x 10^5 fresh positions) took ~11 ns an item, against ~40 for ``first_flips``'s ``_first_fresh``, whose
2^16-bit map (made for the few bits that turn a step in a filter of 2^32 bits) was ~5 % full, so most of its
blocks were read twice, and each hit paid two binary searches, a mispredicted branch a step. The scan alone is
~4 ns of it: the exact tracker asks only for the bits of the probes a step completed (completions.py), a few.
"""

from __future__ import annotations

import numpy as np

from bloomviz.hashing.lazy_jit import njit

MAP_MIN_BITS = 16        # the bitmap: 2^(bits of the turned count + 8) bits, within these bounds
MAP_MAX_BITS = 21        # (256 KiB: in the second-level cache beside the array being scanned)
# An odd 64-bit multiplier (splitmix64's golden ratio), as a signed int64: slot = (bit * C) >> shift, masked.
_MULTIPLIER = np.int64(0x9E3779B97F4A7C15 - (1 << 64))


def map_bits(turned: int) -> int:
    """The bitmap's size (in bits, as a power of two) for ``turned`` probe bits."""
    return min(MAP_MAX_BITS, max(MAP_MIN_BITS, int(turned).bit_length() + 8))


def table_size(turned: int) -> int:
    """The hashed table's slots for ``turned`` probe bits: a power of two, at least 4 x as many."""
    return 1 << max(4, int(turned).bit_length() + 2)


@njit(cache=True, nogil=True)
def fresh_rows(fresh, new_per_row, turned_bits, turned_slots, bit_time, bitmap, bits, keys, values):
    """For each of ``turned_bits`` (distinct; each once in ``fresh``, whose first ``new_per_row[0]`` entries
    are row 0's, the next row 1's, ...) write its row to ``bit_time[turned_slots[j]]``. Scratch, found and left
    as: ``bitmap``, at least 2^bits / 8 zero bytes; ``keys``, ``table_size(turned_bits.size)`` or more slots
    (a power of two) of -1; ``values`` as many. Returns how many were found."""
    size = turned_bits.size
    if size == 0:
        return 0
    low = (1 << bits) - 1
    t_mask = keys.size - 1
    t_shift = 64
    while (1 << (64 - t_shift)) < keys.size:
        t_shift -= 1
    for j in range(size):
        b = turned_bits[j]
        h = b & low
        bitmap[h >> 3] |= np.uint8(1 << (h & 7))
        slot = ((b * _MULTIPLIER) >> t_shift) & t_mask
        while keys[slot] >= 0:
            slot = (slot + 1) & t_mask
        keys[slot] = b
        values[slot] = turned_slots[j]
    total = 0
    for r in range(new_per_row.size):
        total += new_per_row[r]
    found = 0
    row = 0
    end = new_per_row[0] if new_per_row.size else 0     # the fresh entries of rows 0 .. ``row``
    for i in range(total):
        p = fresh[i]
        h = p & low
        if (bitmap[h >> 3] >> (h & 7)) & 1:
            slot = ((p * _MULTIPLIER) >> t_shift) & t_mask
            while keys[slot] >= 0:
                if keys[slot] == p:
                    while end <= i:
                        row += 1
                        end += new_per_row[row]
                    bit_time[values[slot]] = row
                    found += 1
                    break
                slot = (slot + 1) & t_mask
            if found == size:
                break
    for j in range(size):
        b = turned_bits[j]
        bitmap[(b & low) >> 3] = 0
        slot = ((b * _MULTIPLIER) >> t_shift) & t_mask
        while keys[slot] >= 0:
            keys[slot] = -1
            slot = (slot + 1) & t_mask
    return found

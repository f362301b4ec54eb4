"""A list of items given to a measurement (``Simulation(items=...)``), hashed once for both things it needs.

A run given its items draws probes that are none of them, and inserts them. Both went through the items one
by one: the probes' draw put the items in a set (or looked the probes up among them: ~60 ns an item for 10^6
str items, their Python hash computed on the way), and each step hashed its slice again. A list of str, or of
bytes-like items, is hashed here once, in one compiled pass (hashing/list_kernel.py: MurmurHash3-128 of each
item's bytes, ~25 ns an item): the probes are checked against those hashes (``HashedMembers``, one compiled
pass), and a filter whose positions are a function of the halves (murmur3-mix, murmur3-km) gets its rows from
them (``GivenItems.positions``) as generated items do; a plain murmur3-mix filter's exact tracker takes the halves
themselves (``halves_for``) and computes each position in the pass that sets its bit (no n x k array, no
probe map read at each position: fp_tracker.insert_halves, fresh_rows.py). Any other list takes the general
paths, which check it.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from bloomviz.filters.generated_positions import has_positions_of_halves, positions_of_halves, takes_halves
from bloomviz.hashing import schemes as hashing
from bloomviz.hashing.lazy_jit import njit

_MURMUR = hashing.get_scheme("murmur3-mix")     # its ``text_halves``: MurmurHash3-128 of each item's bytes
_CHUNK = 1 << 16                                # items tested against the probes' table at once (in cache)


def murmur_halves(items: list) -> tuple[np.ndarray, np.ndarray] | None:
    """(h1, h2 forced odd) of every item of a non-empty list of str, or of bytes-like items, else None."""
    if not items:
        return None
    try:    # (hashing is the type check: a list of mixed kinds is refused, before anything is hashed)
        return _MURMUR.text_halves(items)
    except TypeError:      # the general paths check the list and name its items
        return None


@njit(cache=True, nogil=True)
def _h1_among(h1, table, bits, ordered, out):
    """The indices of the items whose h1 is one of ``ordered`` (sorted), written to ``out`` as far as it goes;
    returns how many there are. ``table``: 2^bits zero bits, set here at the low bits of each of ``ordered``. One
    compiled pass: the numpy one (the table read at every item's low bits, in slices, then a sorted search of
    the few hits) took ~7 ms for 10^6 items, ~7 ns an item of a given list's run."""
    mask = np.uint64((1 << bits) - 1)
    for h in ordered:
        t = h & mask
        table[t >> np.uint64(3)] |= np.uint8(1) << np.uint8(t & np.uint64(7))
    found = 0
    for i in range(h1.size):
        h = h1[i]
        t = h & mask
        if (table[t >> np.uint64(3)] >> (t & np.uint64(7))) & np.uint8(1):
            lo = 0
            span = ordered.size
            while span > 1:
                half = span >> 1
                if ordered[lo + half] <= h:
                    lo += half
                span -= half
            if ordered[lo] == h:
                if found < out.size:
                    out[found] = i
                found += 1
    return found


class HashedMembers:
    """The items a probe draw must avoid, asked which of a few candidates (str) they hold, by their hashes: a
    candidate whose MurmurHash3-128 h1 is no item's cannot equal one (equal items have equal bytes, so equal
    hashes); the few whose h1 matches are compared exactly. The same answer as ``encoding._Members``."""

    def __init__(self, items: list, h1: np.ndarray):
        self._items = items
        self._h1 = h1

    def __bool__(self) -> bool:
        return len(self._items) > 0

    def among(self, candidates: Sequence[str]) -> set[str]:
        """The candidates that are items."""
        if not self._items or not candidates:
            return set()
        c_h1 = _MURMUR.text_halves(list(candidates))[0]
        ordered = np.sort(c_h1)
        # a table of the candidates' low bits (~1/64 full): an item whose bits miss it is no candidate
        bits = max(12, (64 * len(candidates)).bit_length())
        table = np.zeros(1 << (bits - 3), dtype=np.uint8)      # a bit each: 128 KiB for 10^4 candidates
        h1 = self._h1
        maybe = np.empty(max(16, len(candidates)), dtype=np.int64)
        count = _h1_among(h1, table, bits, ordered, maybe)
        if count > maybe.size:     # (more items than candidates share a candidate's h1: repeated items)
            maybe = np.empty(count, dtype=np.int64)
            _h1_among(h1, table, bits, ordered, maybe)       # (setting the same bits again)
        maybe = maybe[:count]
        if not maybe.size:
            return set()
        wanted = set(h1[maybe].tolist())    # an item whose h1 is a candidate's (normally none): compared exactly
        by_hash: dict[int, list[str]] = {}
        for c, h in zip(candidates, c_h1.tolist()):
            if h in wanted:
                by_hash.setdefault(h, []).append(c)
        found = set()
        for i, h in zip(maybe.tolist(), h1[maybe].tolist()):
            item = self._items[i]
            for c in by_hash[h]:
                # (a list that has halves holds str alone or bytes-like items alone: murmur_halves)
                if item == c if isinstance(item, str) else bytes(item) == c.encode("utf-8", "surrogatepass"):
                    found.add(c)
        return found


class GivenItems(Sequence):
    """A list of given items with their hash halves (None when the list is not one of exactly str or bytes);
    as a sequence, the items, as many as when they were hashed.

    A list is held as given, not copied: a copy touched every item once more (~12 ns an item of 10^6 str, a
    third of a bare insert of them). A run that reads only the halves (``serves``) reads nothing of the list
    after the probes are drawn, so a change to it afterwards changes nothing of the run; one that reads the
    items themselves takes a copy first (``hold_copy``)."""

    def __init__(self, items):
        self.items = items if type(items) is list else list(items)
        self._count = len(self.items)
        self.halves = murmur_halves(self.items)

    def __len__(self) -> int:
        return self._count

    def __getitem__(self, key):
        return self.items[key]

    def serves(self, flt) -> bool:
        """Whether ``flt``'s rows (or its exact tracker's halves) come from the halves alone."""
        return self.halves is not None and has_positions_of_halves(flt)

    def hold_copy(self) -> None:
        """Hold a copy of the items (for a run that reads them): the list as it is now."""
        self.items = list(self.items[:self._count])

    def exclusion(self):
        """What ``random_items(exclude=...)`` takes to draw probes that are none of the items."""
        return self.items if self.halves is None else HashedMembers(self.items, self.halves[0])

    def halves_for(self, flt, start: int, stop: int) -> tuple[np.ndarray, np.ndarray] | None:
        """Items start…stop-1's (h1, h2 forced odd) when ``flt`` places them by murmur3-mix in a plain bit array
        (its exact tracker then computes the positions in the pass that sets them), else None."""
        if self.halves is None or not takes_halves(flt):
            return None
        h1, h2 = self.halves
        return h1[start:stop], h2[start:stop]

    def positions(self, flt, start: int, stop: int) -> np.ndarray | None:
        """``flt.positions_many(items[start:stop])`` from the halves, or None when ``flt`` places items
        otherwise (its own path then hashes them)."""
        if self.halves is None:
            return None
        h1, h2 = self.halves
        return positions_of_halves(flt, h1[start:stop], h2[start:stop])

"""A list of items given to a measurement (``Simulation(items=...)``), hashed once for both things it needs.

A run given its items draws probes that are none of them, and inserts them. Both went through the items one
by one: the probes' draw put the items in a set (or looked the probes up among them: ~60 ns an item for 10^6
str items, their Python hash computed on the way), and each step hashed its slice again. A list of str, or of
bytes-like items, is hashed here once, in one compiled pass (hashing/list_kernel.py: MurmurHash3-128 of each
item's bytes, ~25 ns an item): the probes are checked against those hashes (``HashedMembers``), and a filter
whose positions are a function of the halves (murmur3-mix, murmur3-km) gets its rows from them
(``GivenItems.positions``) as generated items do. Any other list takes the general paths, which check it.
"""

from __future__ import annotations

from typing import Sequence

import numpy as np

from bloomviz.filters.generated_positions import positions_of_halves
from bloomviz.hashing import schemes as hashing

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
        # a table of the candidates' low bits (~1/64 full): an item whose bits miss it is no candidate
        bits = max(12, (64 * len(candidates)).bit_length())
        mask = np.uint64((1 << bits) - 1)
        table = np.zeros(1 << bits, dtype=bool)
        table[c_h1 & mask] = True
        h1 = self._h1
        maybe = [np.flatnonzero(table[h1[s:s + _CHUNK] & mask]) + s for s in range(0, h1.size, _CHUNK)]
        maybe = np.concatenate(maybe)
        ordered = np.sort(c_h1)     # (np.isin hashed the candidates again: ~1 ms a draw)
        at = np.minimum(np.searchsorted(ordered, h1[maybe]), ordered.size - 1)
        maybe = maybe[ordered[at] == h1[maybe]]
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


class GivenItems:
    """A list of given items with their hash halves (None when the list is not one of exactly str or bytes)."""

    def __init__(self, items: list):
        self.items = items
        self.halves = murmur_halves(items)

    def exclusion(self):
        """What ``random_items(exclude=...)`` takes to draw probes that are none of the items."""
        return self.items if self.halves is None else HashedMembers(self.items, self.halves[0])

    def positions(self, flt, start: int, stop: int) -> np.ndarray | None:
        """``flt.positions_many(items[start:stop])`` from the halves, or None when ``flt`` places items
        otherwise (its own path then hashes them)."""
        if self.halves is None:
            return None
        h1, h2 = self.halves
        return positions_of_halves(flt, h1[start:stop], h2[start:stop])

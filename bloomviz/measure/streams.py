"""The items and probes of a seeded run: one place for the probe seed, two numpy-made item streams.

A run seeded ``seed`` draws its items from ``seed`` with prefix ``i`` and its probes from ``seed +
PROBE_SEED_OFFSET`` with prefix ``p``: a probe can never equal an item. Two streams spell the items:

- ``item_stream`` / ``probe_items``: ``GeneratedItems`` (fmix64 of a counter; nothing held, any n).
  ``bloomviz simulate`` uses them;
- ``drawn_items`` / ``drawn_probes``: exactly the strings ``random_items(count, seed, prefix=...)`` returns
  (8 random bytes each, in hex), held as one uint64 per item (8 bytes, where a Python string costs about 70)
  and hashed from numpy words like ``GeneratedItems``. The Compare tab and the explorer measure these, so a
  seed gives the numbers it gave before either was made in numpy (the README's Compare preset and explore
  example are measured on them).

Both are ``GeneratedItems``, so ``filters.generated_positions.positions`` hashes them without making a string.

A measurement's step takes its items as a ``Chunk``: a stretch of such a stream kept as numbers, or a list of
items, or only their rows of positions, handed to the tracker in the form it wants (items, positions, or a big
filter's hash halves).
"""

from __future__ import annotations

from typing import Sequence

import numpy as np

from bloomviz.filters.generated_positions import halves as generated_halves
from bloomviz.filters.generated_positions import positions as generated_positions
from bloomviz.filters.generated_positions import positions_of_halves
from bloomviz.items.encoding import random_items
from bloomviz.items.generated import GeneratedItems
from bloomviz.measure.counter_halves import CounterHalves, halves_sizes

__all__ = ["PROBE_SEED_OFFSET", "ITEM_PREFIX", "PROBE_PREFIX", "item_stream", "probe_items", "DrawnItems",
           "drawn_items", "drawn_probes", "Chunk"]

PROBE_SEED_OFFSET = 1_000_003   # probes come from another seeded stream than the items of the same run
ITEM_PREFIX = "i"
PROBE_PREFIX = "p"


def item_stream(count: int, seed: int) -> GeneratedItems:
    """The ``count`` items of a run seeded ``seed``: distinct, made and hashed in numpy on demand."""
    return GeneratedItems(count, seed=seed, prefix=ITEM_PREFIX)


def probe_items(count: int, seed: int, exclude: Sequence[object] | None = None) -> list:
    """The probes of a run seeded ``seed``. Generated items never equal them (another prefix); items given by
    the user (``exclude``) might, so then the probes are drawn at random and checked against them."""
    if exclude is None:
        return GeneratedItems(count, seed=seed + PROBE_SEED_OFFSET, prefix=PROBE_PREFIX).texts(0, count)
    return random_items(count, seed=seed + PROBE_SEED_OFFSET, prefix=PROBE_PREFIX, exclude=exclude)


class DrawnItems(GeneratedItems):
    """``random_items(count, seed, prefix=prefix)``, item for item, kept as the 64-bit values its hex spells.

    random_items takes 8 bytes per item from ``default_rng(seed).bytes`` and writes them in hex, so the value
    is the bytes read big-endian. A repeated value (about count²/2^65: once in 3e5 runs of 10^7 items) is
    dropped and more are drawn from the same generator, as random_items does, so the two never differ."""

    def __init__(self, count: int, seed=0, prefix: str = ITEM_PREFIX):
        super().__init__(count, seed=seed, prefix=prefix)        # checks count and prefix
        rng = np.random.default_rng(seed)
        values = np.frombuffer(rng.bytes(8 * self.count), dtype=">u8").astype(np.uint64)
        ordered = np.sort(values)
        if np.any(ordered[1:] == ordered[:-1]):
            values = self._redraw(values, rng)
        self._values = values
        self._last_texts: tuple[tuple[int, int], list[str]] | None = None

    def _redraw(self, values: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        kept: list[int] = []
        seen: set[int] = set()
        batch = values.tolist()
        while True:
            for v in batch:
                if v not in seen:
                    seen.add(v)
                    kept.append(v)
            if len(kept) >= self.count:
                return np.array(kept[:self.count], dtype=np.uint64)
            need = self.count - len(kept)
            batch = np.frombuffer(rng.bytes(8 * need), dtype=">u8").astype(np.uint64).tolist()

    def values(self, start: int, stop: int) -> np.ndarray:
        start, stop = self._range(start, stop)
        return self._values[start:stop].copy()

    def values_at(self, indices: np.ndarray) -> np.ndarray:
        return self._values[indices]

    def _value(self, index: int) -> int:
        return int(self._values[index])

    def texts(self, start: int, stop: int) -> list[str]:
        # The lanes of a comparison take the same range in turn, and a lane whose scheme has no numpy path
        # needs it as text: the last range's strings are kept, so they are made once per step, not per lane.
        if self._last_texts is not None and self._last_texts[0] == (start, stop):
            return self._last_texts[1]
        texts = super().texts(start, stop)
        self._last_texts = ((start, stop), texts)
        return texts

    def __repr__(self) -> str:
        return f"DrawnItems({self.count}, seed={self.seed!r}, prefix={self.prefix!r})"


def drawn_items(count: int, seed: int) -> DrawnItems:
    """``random_items(count, seed, prefix="i")`` as a numpy-hashed stream."""
    return DrawnItems(count, seed=seed, prefix=ITEM_PREFIX)


def drawn_probes(count: int, seed: int) -> list[str]:
    """``random_items(count, seed + PROBE_SEED_OFFSET, prefix="p")``: the probes beside ``drawn_items``."""
    return DrawnItems(count, seed=seed + PROBE_SEED_OFFSET, prefix=PROBE_PREFIX).texts(0, count)


class Chunk:
    """Items start…stop-1 of a generated source (kept as numbers), or a list of items, or (``items`` None) only
    their rows of ``positions``, or their murmur3-mix ``halves`` (h1, h2 forced odd) for a filter that places
    them so, when the caller hashed them already."""

    def __init__(self, items, start: int = 0, stop: int | None = None, positions: np.ndarray | None = None,
                 halves: tuple[np.ndarray, np.ndarray] | None = None):
        self._given = positions
        self.given_halves = halves
        self._generated = isinstance(items, GeneratedItems)
        if self._generated:
            self._source, self._start, self._stop = items, start, stop
        else:
            self._list = None if items is None else items if isinstance(items, list) else list(items)

    @classmethod
    def of_halves(cls, halves, count: int) -> "Chunk":
        """A chunk of ``count`` items given by their ``halves`` (h1 and h2 arrays, or CounterHalves); refused
        when they are for another number of items."""
        sizes = halves_sizes(halves)
        if sizes != (count, count):
            raise ValueError(f"{sizes[0]} and {sizes[1]} hash halves for {count} items")
        return cls(None, halves=halves)

    def __len__(self) -> int:
        if self._generated:
            return self._stop - self._start
        if isinstance(self.given_halves, CounterHalves):
            return self.given_halves.count
        if self.given_halves is not None:
            return len(self.given_halves[0])
        return len(self._given) if self._list is None else len(self._list)

    def items(self) -> list:
        if self._generated:
            return self._source.texts(self._start, self._stop)
        if self._list is None:
            raise ValueError("this batch was given as positions or hashes alone")
        return self._list

    def halves(self, flt) -> tuple[np.ndarray, np.ndarray] | CounterHalves | None:
        """The items' (h1, h2) when ``flt`` places them by murmur3-mix in a plain bit array, else None; for plain
        generated items, their CounterHalves (hashed in the tracker's setting pass)."""
        if self.given_halves is not None:
            return self.given_halves
        if self._given is not None or not self._generated:
            return None
        counter = CounterHalves.of(flt, self._source, self._start, self._stop)
        return generated_halves(flt, self._source, self._start, self._stop) if counter is None else counter

    def positions(self, flt) -> np.ndarray:
        if self._given is not None:
            return self._given
        if self.given_halves is not None:
            return positions_of_halves(flt, *self.given_halves)
        if self._generated:
            return generated_positions(flt, self._source, self._start, self._stop)
        return flt.positions_many(self._list)

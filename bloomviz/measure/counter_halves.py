"""Plain generated items' hash halves, not yet computed: the exact tracker's setting pass hashes each item in the
loop that sets its bits (counter_flips.py). Kept apart from the kernel so that naming it loads no compiled code.
"""

from __future__ import annotations

import numpy as np

_U64 = np.uint64


class CounterHalves:
    """The (h1, h2 forced odd) of plain GeneratedItems start…stop-1 (whose values are fmix64 of a counter), not
    yet computed: the exact tracker's setting pass hashes each item itself (``set_counter``). Unpacked or
    indexed, the two arrays (computed once), for every other reader."""

    def __init__(self, flt, items, start: int, stop: int):
        self.count = max(0, stop - start)
        self.first = _U64((start + items.key) % (1 << 64))
        self.prefix = _U64(ord(items.prefix))
        self._flt, self._items, self._start, self._stop = flt, items, start, stop
        self._arrays = None

    def arrays(self) -> tuple[np.ndarray, np.ndarray]:
        if self._arrays is None:
            from bloomviz.filters.generated_positions import halves
            self._arrays = halves(self._flt, self._items, self._start, self._stop)
        return self._arrays

    @staticmethod
    def of(flt, items, start: int, stop: int):
        """CounterHalves of items start…stop-1 when they are plain GeneratedItems and ``flt`` takes halves
        (generated_positions.takes_halves); None otherwise."""
        from bloomviz.filters.generated_positions import takes_halves
        from bloomviz.items.generated import GeneratedItems
        if not isinstance(items, GeneratedItems) or type(items).values is not GeneratedItems.values \
                or not takes_halves(flt):
            return None
        return CounterHalves(flt, items, max(0, start), min(len(items), stop))

    def __iter__(self):
        return iter(self.arrays())

    def __getitem__(self, index):
        return self.arrays()[index]


def halves_sizes(halves) -> tuple[int, int]:
    """How many items each of ``halves`` (h1, h2 arrays, or CounterHalves) is for, without computing any."""
    if isinstance(halves, CounterHalves):
        return halves.count, halves.count
    return len(halves[0]), len(halves[1])

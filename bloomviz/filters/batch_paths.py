"""How a list of items becomes positions or bits in a plain filter's batch paths (``BloomFilter.update``,
``contains_many``, ``positions_many``): functions handed the scheme, m, k and the bits they act on, so the
filter class keeps its set-like API and these paths can be read (and measured) on their own.

Every path hashes, and so checks, every item before a bit is set: a bad item changes nothing.
"""

from __future__ import annotations

from typing import Iterable, Iterator, Sequence

import numpy as np

from bloomviz.filters import bitstore
from bloomviz.items.encoding import prepare_items

# Items per step of update and contains_many, which work on one column of positions at a time: their few
# n-long temporaries then stay in the CPU cache (measured 1.2x-1.4x faster than 65536 x k matrices).
COLUMN_BATCH = 1 << 14


def chunks(seq: Sequence, size: int):
    """``seq`` a slice of ``size`` at a time (bounding the temporaries a step makes)."""
    for start in range(0, len(seq), size):
        yield seq[start:start + size]


def chunk_positions(scheme, m: int, k: int, chunk: Sequence, text: bool) -> np.ndarray:
    """The chunk's n x k positions (``text``: the chunk is str, hashed by its UTF-8 bytes)."""
    if text:
        return scheme.positions_many_text(chunk, m, k)
    return scheme.positions_many(chunk, m, k)


def text_halves(scheme, items, reuse: bool = False) -> tuple[np.ndarray, np.ndarray] | None:
    """For a list of str (or of bytes) and a scheme that places items from their hash halves: the halves
    (h1, h2) of every item, or None (another list: the checked path). Hashing is the type check, so there
    is no separate pass over the items, and all are hashed before any bit is set. ``reuse``: for a caller done
    with the halves before its next batch (list_kernel.list_halves)."""
    if not isinstance(items, list) or not hasattr(scheme, "text_halves"):
        return None
    try:
        return scheme.text_halves(items, reuse)
    except TypeError:
        return None


def fused_halves(scheme, m: int, k: int, bits, items, name: str):
    """For a scheme that sets or tests a plain filter's bits in the loop that computes the positions
    (``set_from_halves`` / ``test_from_halves``): its answer for the whole list, every item hashed (so
    checked) before any bit is set; None when the scheme has no such loop or cannot run it now."""
    fused = getattr(scheme, name, None)
    if fused is None or not items:     # no such loop, or an empty list: the general path
        return None
    halves = text_halves(scheme, items, reuse=True)      # done with when the loop returns
    if halves is None:                 # not a list this can hash
        return None
    return fused(*halves, m, k, bitstore.byte_view(bits))


def column_batches(scheme, m: int, k: int, items) -> Iterator[tuple[int, Iterable[np.ndarray]]]:
    """Each chunk's size and its columns of positions (column i: position i of every item). Every item
    is checked, or hashed, which checks it, before this returns: a caller that sets bits as it goes
    changes nothing on a bad item."""
    halves = text_halves(scheme, items)
    if halves is not None:
        h1, h2 = halves
        return ((h1[s:s + COLUMN_BATCH].size,
                 scheme.columns_of_halves(h1[s:s + COLUMN_BATCH], h2[s:s + COLUMN_BATCH], m, k))
                for s in range(0, h1.size, COLUMN_BATCH))
    datas, text = prepare_items(items)
    return ((len(chunk), scheme.position_columns(chunk, m, k, text)) for chunk in chunks(datas, COLUMN_BATCH))

"""A filter's positions for a range of generated items, hashed from their values: no str, no bytes object per item.

``positions(flt, items, start, stop)`` is ``flt.positions_many(items[start:stop])``, the same n x k array.
For the schemes whose positions are a function of the item's one MurmurHash3-128 (h1, h2) it hashes the
items from their values (generated_kernel, compiled; or, while the window cannot run compiled code, their
little-endian words with ``murmur_np``: both equal to mmh3 bit for bit) and applies the scheme's own batch
arithmetic; other schemes, and filters that remap positions, hash the texts. It lives with the filters
because it must know which filter classes keep the standard positions (items rank below hashing and filters
in the house's layering, so the generator itself cannot call them).
"""

from __future__ import annotations

import numpy as np

from bloomviz.filters import capabilities
from bloomviz.filters.standard import BloomFilter
from bloomviz.hashing import cold_paths, native_kernels
from bloomviz.hashing import schemes as hashing
from bloomviz.hashing.murmur_np import hash128_words
from bloomviz.items.generated import LENGTH, GeneratedItems

_U64 = np.uint64
_DOUBLE_HASHERS = {"murmur3-mix": hashing._mixed_many, "murmur3-km": hashing._double_hash_many}


def hash128(items: GeneratedItems, start: int, stop: int) -> tuple[np.ndarray, np.ndarray]:
    """MurmurHash3_x64_128 (h1, h2) of items start…stop-1, as mmh3 gives it for their UTF-8 text, in numpy."""
    return hash128_words(items.words(start, stop), LENGTH)


def _hashed(items: GeneratedItems, start: int, stop: int) -> tuple[np.ndarray, np.ndarray]:
    """``hash128``'s values, compiled (generated_kernel: 8 against 27-53 ns an item) when the native kernel
    cache serves it or the window is neither building itself nor loading numba (cold_paths); ``hash128``
    otherwise, whatever the batch's size (a first launch, with no cache, loads numba beside the first batches:
    those large enough for the compiled positions would also have waited for this kernel's load)."""
    if not native_kernels.ready(*native_kernels.GENERATED_HALVES) and cold_paths.use_cold_path(0):
        return hash128(items, start, stop)
    from bloomviz.hashing.generated_kernel import hash128_generated      # compiled: imported when first needed
    return hash128_generated(items, start, stop)


def positions(flt, items: GeneratedItems, start: int, stop: int) -> np.ndarray:
    """``flt.positions_many(items[start:stop])``, the same n x k array, from the numpy hash when it can."""
    if _hasher(flt) is None:
        return flt.positions_many(items.texts(start, stop))
    h1, h2 = _hashed(items, start, stop)
    return positions_of_halves(flt, h1, h2 | _U64(1))


def _hasher(flt):
    hasher = _DOUBLE_HASHERS.get(getattr(flt, "scheme", None))
    return None if type(flt).positions_many is not BloomFilter.positions_many else hasher


def positions_of_halves(flt, h1: np.ndarray, h2: np.ndarray) -> np.ndarray | None:
    """``flt.positions_many`` of the items whose MurmurHash3-128 halves are (h1, h2 forced odd), when the
    filter's positions are a function of them; None otherwise."""
    hasher = _hasher(flt)
    return None if hasher is None else hasher(h1, h2, flt.m, flt.k)


def has_positions_of_halves(flt) -> bool:
    """Whether ``positions_of_halves`` gives ``flt``'s positions (it gives None otherwise)."""
    return _hasher(flt) is not None


def takes_halves(flt) -> bool:
    """Whether ``flt`` is a plain bit array placing items by murmur3-mix: ``halves`` gives their (h1, h2)."""
    caps = capabilities.of(flt)
    return (getattr(flt, "scheme", None) == "murmur3-mix" and type(flt).positions_many is BloomFilter.positions_many
            and not caps.counting and caps.plain_bits)


def halves(flt, items: GeneratedItems, start: int, stop: int) -> tuple[np.ndarray, np.ndarray] | None:
    """(h1, h2 forced odd) of items start…stop-1 when ``flt`` is a plain bit array placing them by murmur3-mix
    (the exact tracker then computes the positions in the pass that sets them); None otherwise."""
    if not takes_halves(flt):
        return None
    h1, h2 = _hashed(items, start, stop)
    return h1, h2 | _U64(1)

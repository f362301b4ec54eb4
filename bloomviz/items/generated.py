"""Seeded items made and hashed as numpy arrays: no Python object per item, distinct by construction.

Item i of ``GeneratedItems(count, seed, prefix)`` is the text ``prefix + 16 lowercase hex digits of
fmix64(i + key)``, where ``key`` is 64 bits drawn from ``numpy.random.default_rng(seed)``. fmix64
(MurmurHash3's finaliser) is a bijection on 64-bit integers, so the items of one generator are all distinct
and no set of them is ever kept; two generators with different prefixes can never share an item. That is the
ground truth of a simulation: the probes (prefix ``p``) are non-members of the inserted items (prefix ``i``)
by construction, for a thousand items or for 440 million; and ``index_of`` (or ``in``) answers whether a text is
one of them by reading its digits back and undoing fmix64, so membership needs no set either.

The items look like ``random_items``' (a prefix and 16 hex digits: 17 bytes with a one-letter prefix) but are
not the same strings for the same seed: ``random_items`` draws 8 random bytes per item and must check and
redraw duplicates, which needs every item held at once. A simulation with a seed therefore measures other
items than it did before this generator existed (its numbers are as exact, just of other items).

The bytes are built as little-endian uint64 words (hex digits by SWAR arithmetic, eight at a time), which
``filters.generated_positions`` hashes with ``murmur_np.hash128_words`` (equal bit for bit to mmh3 on the same
text): its ``positions`` gives exactly what ``BloomFilter.positions_many(items.texts(...))`` gives, several
times faster.
"""

from __future__ import annotations

from typing import Iterator, Sequence

import numpy as np

_U64 = np.uint64
LENGTH = 17                  # bytes of an item: a one-byte prefix and 16 hex digits
CHUNK = 1 << 16              # items made per numpy step when iterating


def _fmix64(x: np.ndarray) -> np.ndarray:
    with np.errstate(over="ignore"):
        x ^= x >> _U64(33)
        x *= _U64(0xFF51AFD7ED558CCD)
        x ^= x >> _U64(33)
        x *= _U64(0xC4CEB9FE1A85EC53)
        x ^= x >> _U64(33)
    return x


_C1_INVERSE = pow(0xFF51AFD7ED558CCD, -1, 1 << 64)
_C2_INVERSE = pow(0xC4CEB9FE1A85EC53, -1, 1 << 64)
_MASK64 = (1 << 64) - 1
_HEX = frozenset("0123456789abcdef")


def _fmix64_int(x: int) -> int:
    """fmix64 of one value in Python's integers: one item's text without a dozen numpy calls on arrays of one
    (~130 us: a batch's history label named its first item, a tenth of a small auto-play chunk's own cost)."""
    x ^= x >> 33
    x = (x * 0xFF51AFD7ED558CCD) & _MASK64
    x ^= x >> 33
    x = (x * 0xC4CEB9FE1A85EC53) & _MASK64
    return x ^ (x >> 33)


def _unfmix64(x: int) -> int:
    """The inverse of fmix64 (x ^= x >> 33 undoes itself, since 2 * 33 >= 64; the multipliers are odd)."""
    x ^= x >> 33
    x = (x * _C2_INVERSE) & _MASK64
    x ^= x >> 33
    x = (x * _C1_INVERSE) & _MASK64
    return x ^ (x >> 33)


def _hex_word(v: np.ndarray) -> np.ndarray:
    """Eight ASCII hex digits of the 32-bit values ``v`` (most significant first), as uint64 little-endian
    words: the nibbles are spread one per byte, turned into '0'-'9'/'a'-'f' without a table, byte-reversed."""
    v = v.copy()
    v |= v << _U64(16)
    v &= _U64(0x0000FFFF0000FFFF)
    v |= v << _U64(8)
    v &= _U64(0x00FF00FF00FF00FF)
    v |= v << _U64(4)
    v &= _U64(0x0F0F0F0F0F0F0F0F)                       # nibble i (least significant first) in byte i
    letters = (v + _U64(0x0606060606060606)) >> _U64(4)
    letters &= _U64(0x0101010101010101)                 # 1 in the bytes whose digit is 10-15
    letters *= _U64(39)                                  # 'a' - '0' - 10
    v += _U64(0x3030303030303030)
    v += letters
    return v.byteswap()


class GeneratedItems(Sequence):
    """``count`` distinct seeded items (see the module's note), made on demand in any range."""

    def __init__(self, count: int, seed=0, prefix: str = "i"):
        if isinstance(count, bool) or not isinstance(count, (int, np.integer)) or not 0 <= count < 2 ** 63:
            raise ValueError(f"count must be an integer in [0, 2**63), got {count!r}")
        if len(prefix) != 1 or not prefix.isascii() or not prefix.isprintable():
            raise ValueError(f"prefix must be one printable ASCII character, got {prefix!r}")
        self.count = int(count)
        self.prefix = prefix
        self.seed = seed
        self._key = int.from_bytes(np.random.default_rng(seed).bytes(8), "little")

    def __len__(self) -> int:
        return self.count

    @property
    def key(self) -> int:
        """The 64-bit key drawn from the seed: item i spells fmix64(i + key) (mod 2^64)."""
        return self._key

    def _range(self, start: int, stop: int) -> tuple[int, int]:
        start, stop = max(0, int(start)), min(self.count, int(stop))
        return start, max(start, stop)

    def values(self, start: int, stop: int) -> np.ndarray:
        """The 64-bit values whose hex digits items start…stop-1 spell."""
        start, stop = self._range(start, stop)
        with np.errstate(over="ignore"):
            x = np.arange(start, stop, dtype=_U64) + _U64(self._key)
        return _fmix64(x)

    def words(self, start: int, stop: int) -> np.ndarray:
        """Items start…stop-1 as a (3, n) uint64 array of little-endian words (bytes 0-7, 8-15, 16)."""
        return self._words_of(self.values(start, stop))

    def _words_of(self, x: np.ndarray) -> np.ndarray:
        high = _hex_word(x >> _U64(32))                       # digits 0-7
        low = _hex_word(x & _U64(0xFFFFFFFF))                 # digits 8-15
        out = np.empty((3, x.size), dtype=_U64)
        np.left_shift(high, _U64(8), out=out[0])
        out[0] |= _U64(ord(self.prefix))
        np.right_shift(high, _U64(56), out=out[1])
        out[1] |= low << _U64(8)
        np.right_shift(low, _U64(56), out=out[2])
        return out

    def texts(self, start: int, stop: int) -> list[str]:
        return self._texts_of(self.words(start, stop))

    def texts_at(self, indices) -> list[str]:
        """The items at ``indices`` (any order, repeats allowed; each in [0, count)), in that order."""
        idx = np.asarray(indices, dtype=np.int64).ravel()
        if idx.size and (idx.min() < 0 or idx.max() >= self.count):
            raise IndexError(f"item indices must be in [0, {self.count}), got {idx.min()}…{idx.max()}")
        return self._texts_of(self._words_of(self.values_at(idx)))

    def values_at(self, indices: np.ndarray) -> np.ndarray:
        """The 64-bit values of the items at ``indices`` (int64, checked by the caller)."""
        with np.errstate(over="ignore"):
            x = indices.astype(_U64) + _U64(self._key)
        return _fmix64(x)

    @staticmethod
    def _texts_of(words: np.ndarray) -> list[str]:
        rows = np.ascontiguousarray(words.T).view(np.uint8)[:, :LENGTH]
        text = rows.tobytes().decode("ascii")
        return [text[i:i + LENGTH] for i in range(0, len(text), LENGTH)]

    def __getitem__(self, index):
        if isinstance(index, slice):
            start, stop, step = index.indices(self.count)
            items = self.texts(start, stop) if step > 0 else self.texts(stop + 1, start + 1)[::-1]
            return items[::step] if step > 0 else items[::-step]
        index = int(index)
        if index < 0:
            index += self.count
        if not 0 <= index < self.count:
            raise IndexError(f"item {index} of {self.count}")
        return self.item(index)

    def item(self, index: int) -> str:
        """Item ``index`` (in [0, count), checked by the caller): the text ``texts(index, index + 1)`` makes."""
        return f"{self.prefix}{self._value(index):016x}"

    def _value(self, index: int) -> int:
        """``values(index, index + 1)[0]`` as a Python int (a subclass with other values answers both)."""
        return _fmix64_int((index + self._key) & _MASK64)

    def index_of(self, item) -> int | None:
        """The index of ``item`` among these items, or None: the ground truth without a set of the items.
        Reads the 16 hex digits back to the 64-bit value and undoes fmix64 (a bijection) to the index."""
        if isinstance(item, (bytes, bytearray)):
            try:
                item = bytes(item).decode("ascii")
            except UnicodeDecodeError:
                return None
        if not isinstance(item, str) or len(item) != LENGTH or item[0] != self.prefix or \
                not _HEX.issuperset(item[1:]):
            return None
        index = (_unfmix64(int(item[1:], 16)) - self._key) & _MASK64
        return index if index < self.count else None

    def __contains__(self, item) -> bool:
        # Sequence's own __contains__ would walk every item (440 million of them in the largest run).
        return self.index_of(item) is not None

    def __iter__(self) -> Iterator[str]:
        for start in range(0, self.count, CHUNK):
            yield from self.texts(start, start + CHUNK)

    def __repr__(self) -> str:
        return f"GeneratedItems({self.count}, seed={self.seed!r}, prefix={self.prefix!r})"


class GeneratedRun(Sequence):
    """Items start…stop-1 of one ``GeneratedItems``, as a sequence that makes a string only when one is read.

    A bulk insert hands a run to the window's model instead of a list of strings: the model hashes the run's
    numpy words (``filters.generated_positions``) and remembers the run as (generator, start, stop), so ten
    million auto-played items cost no Python object each. Reading it (``run[i]``, a slice, iteration) gives the
    same strings ``items.texts(start, stop)`` would.
    """

    def __init__(self, items: GeneratedItems, start: int, stop: int):
        if not isinstance(items, GeneratedItems):
            raise TypeError(f"a run is a range of GeneratedItems, got {type(items).__name__}")
        self.items = items
        self.start, self.stop = items._range(start, stop)

    def __len__(self) -> int:
        return self.stop - self.start

    def __getitem__(self, index):
        if isinstance(index, slice):
            start, stop, step = index.indices(len(self))
            if step == 1:
                return self.items.texts(self.start + start, self.start + max(start, stop))
            return self.items.texts_at(np.arange(start, stop, step, dtype=np.int64) + self.start)
        index = int(index)
        if index < 0:
            index += len(self)
        if not 0 <= index < len(self):
            raise IndexError(f"item {index} of a run of {len(self)}")
        return self.items.item(self.start + index)

    def texts(self) -> list[str]:
        return self.items.texts(self.start, self.stop)

    def texts_at(self, offsets) -> list[str]:
        """The items at ``offsets`` into the run (each in [0, len))."""
        return self.items.texts_at(np.asarray(offsets, dtype=np.int64) + self.start)

    def follows(self, other: "GeneratedRun") -> bool:
        """Whether this run starts where ``other`` ends, in the same generator (the two read as one run)."""
        return other.items is self.items and other.stop == self.start

    def __iter__(self) -> Iterator[str]:
        for start in range(self.start, self.stop, CHUNK):
            yield from self.items.texts(start, min(start + CHUNK, self.stop))

    def __repr__(self) -> str:
        return f"GeneratedRun({self.items!r}, {self.start}, {self.stop})"

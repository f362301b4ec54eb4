"""The standard Bloom filter over a bitarray, with a set-like API.

``add`` and ``lookup`` return what they did (positions, which bits were new or set) so that a window can
highlight and explain them; ``update`` and ``contains_many`` are the vectorised batch paths.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from itertools import compress
from typing import Iterable

import numpy as np
from bitarray import bitarray

from bloomviz.filters import batch_paths, bitstore

from bloomviz.hashing import schemes as hashing
from bloomviz.items.encoding import prepare_items, to_bytes
from bloomviz.filters.capabilities import Capabilities
from bloomviz.filters.notebook import RichDisplay
from bloomviz.theory.validate import check_k, check_m, check_n, check_p

BATCH = 1 << 16  # items hashed per numpy step: bounds temporary memory (BATCH x k x 8 bytes)


@dataclass(frozen=True)
class Insertion:
    item: object
    positions: tuple[int, ...]
    newly_set: tuple[bool, ...]

    @property
    def changed(self) -> bool:
        return any(self.newly_set)


@dataclass(frozen=True)
class Lookup:
    item: object
    positions: tuple[int, ...]
    bits: tuple[int, ...]

    @property
    def maybe_present(self) -> bool:
        return all(self.bits)

    @property
    def zero_positions(self) -> tuple[int, ...]:
        return tuple(p for p, b in zip(self.positions, self.bits) if not b)


def unwrite(flt, pos, newly, count: int, bits_set: int) -> None:
    """An insert taken back, or an ``add`` stopped part way: the bits it turned on (or was to) are 0 again, the
    counts ``count`` and ``bits_set``."""
    for p in compress(pos, newly):
        flt._bits[p] = 0
    flt._count, flt._bits_set = count, bits_set


def one_or_many(curve, n, samples: int):
    """``curve`` (float array of n -> rates) at a single n as a float, or at an array of n as an array."""
    if np.ndim(n) == 0:
        return float(curve(np.array([n], dtype=float), samples)[0])
    return curve(np.atleast_1d(np.asarray(n, dtype=float)), samples)


class BloomFilter(RichDisplay):
    """m bits, k hash positions per item. ``len()`` counts inserts (adds and update items), not distinct items."""

    variant = "standard"
    # what it can do (capabilities.py): a subclass declares its own
    capabilities = Capabilities(takes_back_inserts=True, logs_batches=True)
    # --- variant facts: what the variant is, read by views and files instead of comparing its name ---------
    # (a subclass states only what differs; its words are its describer's, in bloomviz.explain.describers)
    # What a .bloom file stores besides m, k and the scheme (bloomviz.files.storage): each parameter's name and
    # number type, and ``_payload_size``, the payload's (lowest, highest) size in bytes that m and they imply.
    _stored_params: dict[str, type] = {}

    @classmethod
    def _payload_size(cls, m: int, params: dict) -> tuple[int, int]:
        n = (m + 7) // 8
        return n, n

    def __init__(self, m: int, k: int, scheme: str = hashing.DEFAULT_SCHEME):
        self._m = check_m(m)
        self._k = check_k(k)
        self._scheme = hashing.get_scheme(scheme)
        self._bits = bitstore.new_bits(self._m)
        self._count = 0
        self._bits_set = 0

    @classmethod
    def for_capacity(cls, n: int, p: float, scheme: str = hashing.DEFAULT_SCHEME) -> "BloomFilter":
        """The textbook design for n items at rate p. A p so small that it asks for more than 64 positions gets
        k = 64 and a UserWarning saying so (calculator.textbook_design's note), never a silent cap."""
        import warnings
        from bloomviz.theory.calculator import textbook_design
        m, k, notes = textbook_design(check_n(n, allow_zero=False), check_p(p))
        for note in notes:
            warnings.warn(note, UserWarning, stacklevel=2)
        return cls(m, k, scheme=scheme)

    # --- description -------------------------------------------------------------------------------------
    m = property(lambda self: self._m)
    k = property(lambda self: self._k)
    scheme = property(lambda self: self._scheme.id, doc="the hash scheme's stable id")

    @property
    def bits(self) -> bitarray:
        """The bit array itself. Read it; mutate the filter only through its methods."""
        return self._bits

    def __len__(self) -> int:
        return self._count

    @property
    def bits_set(self) -> int:
        return self._bits_set

    @property
    def estimated_count(self) -> float:
        if self._bits_set >= self._m:
            return math.inf
        return -(self._m / self._k) * math.log1p(-self._bits_set / self._m)

    @property
    def expected_fp(self) -> float:
        """The false-positive rate for a fresh item given the bits set now: (X/m)^k."""
        return (self._bits_set / self._m) ** self._k

    def nbytes(self) -> int:
        return self._bits.nbytes

    def __repr__(self) -> str:
        return (f"{type(self).__name__}(m={self._m}, k={self._k}, scheme={self.scheme!r}, "
                f"n={self._count}, bits_set={self._bits_set})")

    # --- single items ------------------------------------------------------------------------------------
    def positions(self, item: object) -> tuple[int, ...]:
        # bytes pass through (the encoding's rule, items/encoding.py): an item its caller encoded goes on as it is
        return self._scheme.positions(item if type(item) is bytes else to_bytes(item), self._m, self._k)

    def add(self, item: object) -> Insertion:
        # all or nothing (Ctrl-C between two bit writes): the bits it turns on, read first (a position repeated
        # turns on once), are cleared again on the way out; its answer is made before, where no write is lost
        pos, bits, count, bits_set = self.positions(item), self._bits, self._count, self._bits_set
        ins = Insertion(item, pos, tuple(not bits[p] and p not in pos[:i] for i, p in enumerate(pos)))
        try:
            for p in compress(pos, ins.newly_set):
                bits[p] = 1
            self._bits_set, self._count = bits_set + sum(ins.newly_set), count + 1
        except BaseException:
            unwrite(self, pos, ins.newly_set, count, bits_set)
            raise
        return ins

    def _take_back(self, ins: Insertion) -> None:
        """Undo ``ins``, the last insert (a later one may have needed its bits): the bits it turned on are 0."""
        unwrite(self, ins.positions, ins.newly_set, self._count - 1, self._bits_set - sum(ins.newly_set))

    def lookup(self, item: object) -> Lookup:
        pos = self.positions(item)
        return Lookup(item, pos, tuple(self._bits[p] for p in pos))

    def __contains__(self, item: object) -> bool:
        bits = self._bits
        return all(bits[p] for p in self.positions(item))

    # --- batches (batch_paths.py: how a list of items becomes positions or bits) --------------------------
    def positions_many(self, items: Iterable[object]) -> np.ndarray:
        """An n x k int64 array: row i holds the positions of item i, in insertion order."""
        scheme, m, k, parts = self._scheme, self._m, self._k, None
        if isinstance(items, list) and items:
            try:    # a list of str: the hashing checks the types, no separate pass (see batch_paths.text_halves)
                parts = [batch_paths.chunk_positions(scheme, m, k, c, True) for c in batch_paths.chunks(items, BATCH)]
            except TypeError:
                parts = None
        if parts is None:
            datas, text = prepare_items(items)
            if not datas:
                return np.empty((0, self._k), dtype=np.int64)
            parts = [batch_paths.chunk_positions(scheme, m, k, c, text) for c in batch_paths.chunks(datas, BATCH)]
        return parts[0] if len(parts) == 1 else np.concatenate(parts)

    # --- whole rows of positions (filters/rows.py: the measurement's batch paths) -----------------------------
    def _insert_rows(self, positions: np.ndarray) -> int:
        """Insert items given by their rows of positions (from ``positions_many``); returns bits newly set."""
        positions = np.asarray(positions, dtype=np.int64)
        if positions.ndim != 2 or positions.shape[1] != self._k:
            raise ValueError(f"positions must be an n x {self._k} array, got shape {positions.shape}")
        fresh = bitstore.set_bits(self._bits, positions)     # checks the range before any write
        self._bits_set += fresh
        self._count += positions.shape[0]
        return fresh

    def _count_fresh(self, new_bits: int, rows: int) -> None:
        """Record ``rows`` inserts that the exact tracker has just written into the bits, turning ``new_bits``
        bits from 0 to 1 (its flip pass counts them): no recount of the array (130 ms at m = 2^32)."""
        self._bits_set += int(new_bits)
        self._count += int(rows)

    def _test_rows(self, positions: np.ndarray) -> np.ndarray:
        """Bool per row: are all the row's bits set?"""
        positions = np.asarray(positions, dtype=np.int64)
        if positions.shape[0] == 0:
            return np.zeros(0, dtype=bool)
        return bitstore.all_set(self._bits, positions)

    def update(self, items: Iterable[object]) -> int:
        """Insert every item (vectorised). All items are checked first, so a bad one changes nothing.

        Returns the number of bits that went from 0 to 1.
        """
        fresh = batch_paths.fused_halves(self._scheme, self._m, self._k, self._bits, items, "set_from_halves")
        if fresh is not None:
            self._bits_set += fresh
            self._count += len(items)
            return fresh
        setter = bitstore.BitSetter(self._bits)
        count = 0
        for size, columns in batch_paths.column_batches(self._scheme, self._m, self._k, items):
            for column in columns:
                setter.add(column)
            count += size
        self._bits_set += setter.fresh
        self._count += count
        return setter.fresh

    def contains_many(self, items: Iterable[object]) -> np.ndarray:
        if type(self)._test_rows is not BloomFilter._test_rows:
            # A subclass decides membership its own way: give it whole rows of positions.
            datas, text = prepare_items(items)
            out = np.empty(len(datas), dtype=bool)
            for start in range(0, len(datas), BATCH):
                chunk = datas[start:start + BATCH]
                out[start:start + len(chunk)] = self._test_rows(
                    batch_paths.chunk_positions(self._scheme, self._m, self._k, chunk, text))
            return out
        found = batch_paths.fused_halves(self._scheme, self._m, self._k, self._bits, items, "test_from_halves")
        if found is not None:
            return found
        # An item is in iff all its bits are set: AND the bits of each column of positions in turn.
        parts = []
        for size, columns in batch_paths.column_batches(self._scheme, self._m, self._k, items):
            found = np.ones(size, dtype=bool)
            for column in columns:
                bitstore.and_bits(self._bits, column, found)
            parts.append(found)
        return np.concatenate(parts) if parts else np.zeros(0, dtype=bool)

    # --- set algebra and copies --------------------------------------------------------------------------
    def _check_compatible(self, other: object, op: str) -> "BloomFilter":
        if not isinstance(other, BloomFilter):
            raise TypeError(f"{op} needs two Bloom filters, got {type(other).__name__}")
        if type(other) is not type(self):
            raise ValueError(f"{op}: cannot combine a {self.variant} filter with a {other.variant} filter")
        for name in ("m", "k", "scheme"):
            a, b = getattr(self, name), getattr(other, name)
            if a != b:
                raise ValueError(f"{op}: the filters differ in {name} ({a!r} vs {b!r}); "
                                 "only filters with the same m, k and scheme can be combined")
        return other

    def _combined(self, other: "BloomFilter", bits: bitarray, count: int) -> "BloomFilter":
        out = self.copy()
        out._bits = bits
        out._bits_set = bits.count()
        out._count = count
        return out

    def __or__(self, other: "BloomFilter") -> "BloomFilter":
        other = self._check_compatible(other, "union (|)")
        # len() of a union counts the inserts of both: an upper bound on the distinct items it holds.
        return self._combined(other, self._bits | other._bits, self._count + other._count)

    def __and__(self, other: "BloomFilter") -> "BloomFilter":
        other = self._check_compatible(other, "intersection (&)")
        # Insert count of an intersection is unknowable; min() is an upper bound on true |A ∩ B|.
        return self._combined(other, self._bits & other._bits, min(self._count, other._count))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, BloomFilter) or type(other) is not type(self):
            return NotImplemented
        return (self._m, self._k, self.scheme, self._count) == (other._m, other._k, other.scheme, other._count) \
            and self._bits == other._bits

    __hash__ = None  # mutable

    def copy(self) -> "BloomFilter":
        out = type(self).__new__(type(self))
        out.__dict__.update(self.__dict__)
        out._bits = self._bits.copy()
        return out

    # --- persistence hooks (the file format lives in storage.py) -----------------------------------------
    def _state_params(self) -> dict[str, int | float]:
        """The variant's parameters besides m, k and scheme, as plain numbers (none for the standard filter)."""
        return {}

    def _state_payload(self) -> bytes:
        return self._bits.tobytes()

    @classmethod
    def _from_state(cls, m: int, k: int, scheme: str, count: int, params: dict, payload: bytes) -> "BloomFilter":
        out = cls(m, k, scheme=scheme)
        expected = (m + 7) // 8
        if len(payload) != expected:
            raise ValueError(f"payload is {len(payload)} bytes, a {m}-bit filter needs {expected}")
        bits = bitarray(endian="little")
        bits.frombytes(payload)
        if bits.count(1, m, len(bits)):
            raise ValueError(f"padding bits after bit {m} are set")
        del bits[m:]
        out._bits = bits
        out._bits_set = bits.count()
        out._count = count
        return out

    def clear(self) -> None:
        self._bits.setall(0)
        self._bits_set = 0
        self._count = 0

    # --- the theory: one name, at one n or at many --------------------------------------------------------------
    def theory_fp(self, n=None, samples: int = 64):
        """The variant's own theoretical false-positive rate after n inserts (default: its insert count): a
        float for one n, an array for an array of n. ``samples`` bounds the exact points of a curve that
        interpolates (a blocked filter's)."""
        return one_or_many(self._theory_curve, len(self) if n is None else n, samples)

    def _theory_curve(self, n: np.ndarray, samples: int) -> np.ndarray:
        # exact after each n of the float array (a counting filter's too: a counter above 0 is a set bit)
        from bloomviz.theory.curves import theory_many
        return theory_many(self._m, self._k, n)["fp_exact"]

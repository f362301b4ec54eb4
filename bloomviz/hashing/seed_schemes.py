"""The seeds' own hash schemes, replayed bit for bit, so a lesson can redo their worked examples exactly.

- ``kedmi-sha256``: Sagi Kedmi's toy, h_i(s) = SHA256(i ‖ s) mod m with i as ONE byte (his ``bytes([i]) + s``)
  and the whole 256-bit digest read as a big-endian integer (his ``int(sha256(...).hexdigest(), 16)``). It
  differs from ``sha256-salted`` (i as 4 bytes, first 8 bytes of the digest), so it gets its own id.
- ``seminar-cpp``: the Croatian seminar's C++ program: h = ``std::hash<std::string>`` as libstdc++ computes it on
  64-bit Linux (``std::_Hash_bytes(ptr, len, 0xc70f6907)``, MurmurHash2-64A with an unaligned tail), and the
  positions h, h >> 16, h >> 32, each mod m. The seminar has k = 3; for larger k position i is h >> 16·i with the
  shift count taken mod 64, as x86-64's SHR does with a run-time count (C++ leaves shifts >= 64 undefined), so
  positions 4, 5, ... repeat 0, 1, ...: a weak scheme, which is what lesson 5 shows.
- ``hand-set``: positions typed per item, for textbook figures (Roughgarden's k1 with bits 23, 17 and 5). It
  carries data, so it is not one registry entry: ``hand_set({...})`` makes a scheme object that a filter takes
  as its ``scheme``. An item without positions is refused by name. A filter with it cannot be saved as a
  ``.bloom`` file (storage refuses unregistered schemes: the positions would be lost).

The two registered ids are in ``schemes.SCHEMES`` after the general ones, in a fixed order (``SEED_SCHEMES``).
Never rename them.
"""

from __future__ import annotations

import hashlib
from typing import Mapping, Sequence

import numpy as np

from bloomviz.hashing.base import MASK64, HashScheme
from bloomviz.items.encoding import to_bytes

_U64 = np.uint64

# --- Kedmi ---------------------------------------------------------------------------------------------------


def kedmi_value(data: bytes, i: int) -> int:
    """Kedmi's SHA256(bytes([i]) + s) as one 256-bit integer (before ``mod m``)."""
    return int.from_bytes(hashlib.sha256(bytes([i]) + data).digest(), "big")


class KedmiSha256(HashScheme):
    def positions(self, data, m, k):
        return tuple(kedmi_value(data, i) % m for i in range(k))

    def positions_many(self, datas, m, k):
        # SHA-256 has no vectorised form; the scheme exists to replay an article. Each i's one-byte prefix is
        # hashed once and copied per item (the same digests as kedmi_value, in half the time: a lesson's Kedmi
        # replay hashes 755,360 of them)
        prefixes = [hashlib.sha256(bytes([i])) for i in range(k)]
        from_bytes, vals = int.from_bytes, []
        for d in datas:
            for prefix in prefixes:
                h = prefix.copy()
                h.update(d)
                vals.append(from_bytes(h.digest(), "big") % m)
        return np.array(vals, dtype=np.int64).reshape(len(datas), k)

    def explain(self, data, m, k):
        return [("H(i) = SHA-256(i as ONE byte ‖ item), all 256 bits, big-endian", f"{kedmi_value(data, 0)} (i = 0)"),
                ("Kedmi's h_i(s)", "int(sha256(bytes([i]) + s).hexdigest(), 16) % m"),
                ("position i", f"H(i) mod {m}")]


# --- the seminar's std::hash ---------------------------------------------------------------------------------

STD_HASH_SEED = 0xC70F6907          # libstdc++'s default seed for std::hash<std::string> (functional_hash.h)
_MUL = (0xC6A4A793 << 32) + 0x5BD1E995  # MurmurHash64A's multiplier, as hash_bytes.cc builds it


def _shift_mix(v: int) -> int:
    return v ^ (v >> 47)


def std_hash(data: bytes, seed: int = STD_HASH_SEED) -> int:
    """libstdc++'s ``_Hash_bytes`` for 64-bit size_t, step for step (libsupc++/hash_bytes.cc)."""
    n = len(data)
    aligned = n & ~7
    h = (seed ^ (n * _MUL)) & MASK64
    for p in range(0, aligned, 8):
        word = int.from_bytes(data[p:p + 8], "little")          # unaligned_load on a little-endian machine
        h ^= (_shift_mix((word * _MUL) & MASK64) * _MUL) & MASK64
        h = (h * _MUL) & MASK64
    if n & 7:
        h ^= int.from_bytes(data[aligned:], "little")            # load_bytes: byte n-1 is the most significant
        h = (h * _MUL) & MASK64
    h = (_shift_mix(h) * _MUL) & MASK64
    return _shift_mix(h)


def _std_hash_block(datas: Sequence[bytes], seed: int) -> np.ndarray:
    """``std_hash`` of items of similar length at once: the words are a padded (n, w) matrix and each column
    is one step of the loop, applied only to the items that still have a full word (or their tail) there."""
    n = len(datas)
    lens = np.fromiter(map(len, datas), dtype=np.int64, count=n)
    words = int(-(-lens.max() // 8)) if n else 0
    mat = np.frombuffer(b"".join(d.ljust(8 * words, b"\0") for d in datas), dtype="<u8").reshape(n, words)
    full, tail = lens // 8, (lens & 7) != 0
    mul, s47 = _U64(_MUL), _U64(47)
    with np.errstate(over="ignore"):
        h = _U64(seed) ^ (lens.astype(_U64) * mul)
        for j in range(words):
            w = mat[:, j].astype(_U64)
            mixed = w * mul
            mixed = (mixed ^ (mixed >> s47)) * mul
            step = np.where(full > j, mixed, np.where((full == j) & tail, w, _U64(0)))
            touched = (full > j) | ((full == j) & tail)
            h = np.where(touched, (h ^ step) * mul, h)
        h = (h ^ (h >> s47)) * mul
        return h ^ (h >> s47)


def std_hash_many(datas: Sequence[bytes], seed: int = STD_HASH_SEED) -> np.ndarray:
    """``std_hash`` of every item as uint64; long items (which would pad a matrix) are hashed one by one."""
    out = np.empty(len(datas), dtype=_U64)
    short = [i for i, d in enumerate(datas) if len(d) <= 256]
    long_ = [i for i, d in enumerate(datas) if len(d) > 256]
    for start in range(0, len(short), 1 << 14):
        idx = short[start:start + (1 << 14)]
        out[idx] = _std_hash_block([datas[i] for i in idx], seed)
    for i in long_:
        out[i] = std_hash(datas[i], seed)
    return out


def seminar_positions_of(h: int, m: int, k: int) -> tuple[int, ...]:
    return tuple((h >> ((16 * i) % 64)) % m for i in range(k))


class SeminarCpp(HashScheme):
    def positions(self, data, m, k):
        return seminar_positions_of(std_hash(data), m, k)

    def positions_many(self, datas, m, k):
        h = std_hash_many(datas)
        out = np.empty((len(datas), k), dtype=np.int64)
        for i in range(k):
            out[:, i] = ((h >> _U64((16 * i) % 64)) % _U64(m)).astype(np.int64)
        return out

    def explain(self, data, m, k):
        return [("h = std::hash<std::string> (libstdc++ _Hash_bytes, seed 0xc70f6907)", f"{std_hash(data)}"),
                ("h, h>>16, h>>32", "the seminar's hashes (past i = 3 the shift is taken mod 64)"),
                ("position i", f"(h >> 16·i) mod {m}")]


SEED_SCHEMES: tuple[HashScheme, ...] = (
    KedmiSha256("kedmi-sha256", "SHA-256 with one-byte i (Kedmi's toy)",
                "Kedmi's article: h_i(s) = SHA256(i ‖ s) mod m with i as one byte and the whole 256-bit digest "
                "as the number. Replays his toy filter bit for bit; slow, clear."),
    SeminarCpp("seminar-cpp", "C++ std::hash shifted by 16 (the seminar's)",
               "The seminar's C++ program: one std::hash<std::string> (libstdc++, 64-bit) and the positions h, "
               "h >> 16, h >> 32 mod m. The shifted values share bits, and past k = 4 they repeat: a weak "
               "scheme worth comparing with the default.", good=False),
)


# --- hand-set positions --------------------------------------------------------------------------------------

HAND_SET_ID = "hand-set"


class HandSetScheme(HashScheme):
    """Positions looked up in a table: item bytes -> positions. Built by ``hand_set``."""

    def __init__(self, table: Mapping[bytes, tuple[int, ...]]):
        super().__init__(HAND_SET_ID, "Hand-set positions (for textbook figures)",
                         "Each item's positions are typed in, as in a textbook figure; any other item is refused.",
                         good=False)
        object.__setattr__(self, "table", dict(table))

    # two hand-set schemes are the same only with the same table (a filter union must not mix figures)
    def __eq__(self, other):
        return isinstance(other, HandSetScheme) and other.table == self.table

    def __hash__(self):
        return hash(tuple(sorted(self.table.items())))

    def _row(self, data: bytes, m: int, k: int) -> tuple[int, ...]:
        row = self.table.get(bytes(data))
        if row is None:
            shown = data.decode("utf-8", "backslashreplace")
            known = ", ".join(repr(b.decode("utf-8", "backslashreplace")) for b in list(self.table)[:8])
            raise ValueError(f"hand-set scheme: no positions were given for item {shown!r} "
                             f"(items with positions: {known or 'none'})")
        if len(row) != k:
            raise ValueError(f"hand-set scheme: item {data.decode('utf-8', 'backslashreplace')!r} has "
                             f"{len(row)} positions, but the filter has k = {k}")
        bad = [p for p in row if not 0 <= p < m]
        if bad:
            raise ValueError(f"hand-set scheme: item {data.decode('utf-8', 'backslashreplace')!r} has position "
                             f"{bad[0]} outside 0..{m - 1} (m = {m})")
        return row

    def positions(self, data, m, k):
        return self._row(data, m, k)

    def positions_many(self, datas, m, k):
        return np.array([self._row(d, m, k) for d in datas], dtype=np.int64).reshape(len(datas), k)

    def explain(self, data, m, k):
        return [("positions given by hand", ", ".join(map(str, self._row(data, m, k))))]


def hand_set(positions: Mapping[object, Sequence[int]]) -> HandSetScheme:
    """A hand-set scheme from {item: positions}; items are encoded as everywhere (``items.to_bytes``).

    Positions must be whole numbers >= 0 and every item must have the same count (the filter's k); the range
    against m is checked when the filter uses them, since the table does not know m.
    """
    if not isinstance(positions, Mapping) or not positions:
        raise ValueError("hand-set positions must be a non-empty mapping of item -> positions")
    table: dict[bytes, tuple[int, ...]] = {}
    for item, row in positions.items():
        if isinstance(row, (str, bytes)) or not isinstance(row, Sequence) or not row:
            raise ValueError(f"hand-set positions for {item!r} must be a non-empty list of bit indices, got {row!r}")
        if any(isinstance(p, bool) or not isinstance(p, int) or p < 0 for p in row):
            raise ValueError(f"hand-set positions for {item!r} must be whole numbers >= 0, got {list(row)!r}")
        table[to_bytes(item)] = tuple(int(p) for p in row)
    sizes = {len(r) for r in table.values()}
    if len(sizes) > 1:
        raise ValueError(f"hand-set positions must all have the same count (the filter's k); got counts "
                         f"{sorted(sizes)}")
    return HandSetScheme(table)

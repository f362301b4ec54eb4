"""Hash schemes: bytes -> k positions in [0, m).

Each scheme has a stable id that is written into saved filters: never rename or reorder one, add a new id
for new behaviour. Every scheme has a scalar path (one item, used to highlight and explain) and a batch path
(many items -> an n x k array, vectorised with numpy) and the two agree exactly (tests check it).

All arithmetic is unsigned 64-bit, wrapping modulo 2**64 exactly as numpy's uint64 does, and the final
reduction is ``% m`` on the 64-bit value: no 32-bit truncation, so no modulo bias worth the name for m <= 2**34.
"""

from __future__ import annotations

import functools
import hashlib
from typing import Iterator, Sequence

import mmh3
import numpy as np

from bloomviz.hashing import cold_paths, native_kernels
from bloomviz.hashing.base import MASK64, HashScheme
from bloomviz.hashing.git_scheme import GIT_SCHEMES
from bloomviz.hashing.murmur_batches import _murmur_halves_many, _murmur_halves_many_text
from bloomviz.hashing.seed_schemes import SEED_SCHEMES

FNV64_OFFSET = 0xCBF29CE484222325
FNV64_PRIME = 0x100000001B3
_U64 = np.uint64


def _murmur_halves(data: bytes, seed: int = 0) -> tuple[int, int]:
    """MurmurHash3-128 of one item as two 64-bit halves. The last few items' halves are kept: one operation in
    the window asks for its item's positions from the filter (from every stage of a growing one) and for the
    arithmetic the explain panel shows, and MurmurHash runs once for all of them."""
    if type(data) is bytes:
        return _murmur_halves_kept(data, seed)
    return _murmur_halves_of(data, seed)


def _murmur_halves_of(data, seed: int) -> tuple[int, int]:
    raw = mmh3.hash_bytes(data, seed)
    return int.from_bytes(raw[:8], "little"), int.from_bytes(raw[8:], "little")


_murmur_halves_kept = functools.lru_cache(maxsize=16)(_murmur_halves_of)


def fnv1a64(data: bytes) -> int:
    h = FNV64_OFFSET
    for byte in data:
        h = ((h ^ byte) * FNV64_PRIME) & MASK64
    return h


_FNV_BLOCK = 1 << 22  # cells of the padded byte matrix per block: bounds memory for long items


def fnv1a64_many(datas: Sequence[bytes]) -> np.ndarray:
    """FNV-1a of every item, vectorised across items (the byte loop is inherently sequential per item)."""
    n = len(datas)
    out = np.full(n, FNV64_OFFSET, dtype=_U64)
    if n == 0:
        return out
    lens = np.fromiter((len(d) for d in datas), dtype=np.int64, count=n)
    order = np.argsort(-lens, kind="stable")
    prime = _U64(FNV64_PRIME)
    start = 0
    while start < n:
        longest = int(lens[order[start]])
        if longest > 4096:
            # A single very long item: a padded matrix would be mostly padding; hash it on its own.
            out[order[start]] = fnv1a64(datas[order[start]])
            start += 1
            continue
        rows = max(1, min(n - start, _FNV_BLOCK // max(longest, 1)))
        idx = order[start:start + rows]
        if longest:
            mat = np.frombuffer(b"".join(datas[i].ljust(longest, b"\0") for i in idx),
                                dtype=np.uint8).reshape(rows, longest)
            h = out[idx]
            block_lens = lens[idx]
            active = rows
            with np.errstate(over="ignore"):
                for j in range(longest):
                    while active and block_lens[active - 1] <= j:
                        active -= 1
                    h[:active] = (h[:active] ^ mat[:active, j].astype(_U64)) * prime
            out[idx] = h
        start += rows
    return out


def _rotl64(x: int, r: int) -> int:
    r %= 64
    return ((x << r) | (x >> (64 - r))) & MASK64 if r else x


def _rotl64_many(x: np.ndarray, r: int) -> np.ndarray:
    r %= 64
    if r == 0:
        return x.copy()
    return (x << _U64(r)) | (x >> _U64(64 - r))


def _double_hash_scalar(h1: int, h2: int, m: int, k: int) -> tuple[int, ...]:
    return tuple(((h1 + i * h2) & MASK64) % m for i in range(k))


def _double_hash_many(h1: np.ndarray, h2: np.ndarray, m: int, k: int) -> np.ndarray:
    # Column i is h1 + i*h2 mod 2**64, built by repeated wrapping addition (no multiply, no temporaries),
    # reduced in place; every value is < m <= 2**34, so the uint64 result reads the same as int64.
    pos = np.empty((h1.size, k), dtype=_U64)
    acc = h1.astype(_U64, copy=True)
    pos[:, 0] = acc
    for i in range(1, k):
        acc += h2
        pos[:, i] = acc
    pos %= _U64(m)
    return pos.view(np.int64)


def _double_hash_columns(h1: np.ndarray, h2: np.ndarray, m: int, k: int) -> Iterator[np.ndarray]:
    """The columns of ``_double_hash_many``, one at a time (same arithmetic)."""
    acc = h1.astype(_U64, copy=True)
    modulus = _U64(m)
    for i in range(k):
        if i:
            acc += h2
        yield (acc % modulus).view(np.int64)


class _MurmurOddStep(HashScheme):
    """MurmurHash3-128's halves as h1 and a step h2 forced odd, combined into k positions by a subclass's three
    functions: one item (``_scalar``), a batch as an n x k array (``_many``), a batch a column at a time
    (``_columns``); the three agree exactly. ``_position_rule(m, k)`` says the combination in words."""

    def positions(self, data, m, k):
        h1, h2 = _murmur_halves(data)
        return self._scalar(h1, h2 | 1, m, k)

    def positions_many(self, datas, m, k):
        h1, h2 = _murmur_halves_many(datas)
        return self._many(h1, h2 | _U64(1), m, k)

    def positions_many_text(self, texts, m, k):
        h1, h2 = _murmur_halves_many_text(texts)
        return self._many(h1, h2 | _U64(1), m, k)

    def position_columns(self, datas, m, k, text=False):
        h1, h2 = _murmur_halves_many_text(datas) if text else _murmur_halves_many(datas)
        return self._columns(h1, h2 | _U64(1), m, k)

    def text_halves(self, texts, reuse=False):
        """(h1, h2 forced odd) of a batch of str; TypeError (before anything else) if one is not a str.
        ``reuse``: the arrays may be reused by the next batch (a caller done with them before it)."""
        h1, h2 = _murmur_halves_many_text(texts, reuse)
        # a fresh array, or this thread's reused one (list_kernel._arrays, a view): forced odd in place
        if h2.flags.writeable and (h2.flags.owndata or reuse):
            h2 |= _U64(1)
            return h1, h2
        return h1, h2 | _U64(1)

    def columns_of_halves(self, h1, h2, m, k):
        """``position_columns`` from ``text_halves``."""
        return self._columns(h1, h2, m, k)

    def explain(self, data, m, k):
        h1, h2 = _murmur_halves(data)
        return [("h1 = MurmurHash3-128 low 64 bits", f"{h1}"),
                ("h2 = high 64 bits, forced odd", f"{h2 | 1}"),
                ("position i", self._position_rule(m, k))]


class Murmur3KM(_MurmurOddStep):
    _scalar = staticmethod(_double_hash_scalar)
    _many = staticmethod(_double_hash_many)
    _columns = staticmethod(_double_hash_columns)

    def _position_rule(self, m, k):
        return f"(h1 + i·h2) mod 2^64 mod {m},  i = 0…{k - 1}"


_FMIX_C1 = 0xFF51AFD7ED558CCD
_FMIX_C2 = 0xC4CEB9FE1A85EC53


def fmix64(x: int) -> int:
    """MurmurHash3's 64-bit finaliser: a bijection on 64 bits in which every input bit flips each output bit
    with probability ~1/2."""
    x ^= x >> 33
    x = (x * _FMIX_C1) & MASK64
    x ^= x >> 33
    x = (x * _FMIX_C2) & MASK64
    return x ^ (x >> 33)


def _reduce(z: int, m: int) -> int:
    """A 64-bit value to [0, m): floor(z·m / 2^64) (Lemire's multiply-high) for m < 2^32, z mod m above."""
    return (z * m) >> 64 if m < _LEMIRE_LIMIT else z % m


_LEMIRE_LIMIT = 1 << 32


def _mixed_scalar(h1: int, h2: int, m: int, k: int) -> tuple[int, ...]:
    # fmix64 and _reduce written out in the loop: one typed item made 2k calls of them (14 of an insert's
    # calls at k = 7); the values are theirs exactly (tests compare with the compiled batch paths)
    out = []
    lemire = m < _LEMIRE_LIMIT
    for i in range(k):
        x = (h1 + i * h2) & MASK64
        x ^= x >> 33
        x = (x * _FMIX_C1) & MASK64
        x ^= x >> 33
        x = (x * _FMIX_C2) & MASK64
        x ^= x >> 33
        out.append((x * m) >> 64 if lemire else x % m)
    return tuple(out)


# The batch paths are compiled (mixed_kernel.py, numba, imported when first needed); _mixed_scalar above is
# the reference they are tested against.
def _mixed_columns(h1: np.ndarray, h2: np.ndarray, m: int, k: int) -> Iterator[np.ndarray]:
    if cold_paths.use_cold_path(h1.size, native_kernels.MIX):
        yield from cold_paths.mixed_rows(h1, h2, m, k).T
        return
    from bloomviz.hashing.mixed_kernel import mixed_columns
    yield from mixed_columns(h1, h2, m, k)


def _mixed_many(h1: np.ndarray, h2: np.ndarray, m: int, k: int) -> np.ndarray:
    if cold_paths.use_cold_path(h1.size, native_kernels.MIX):
        return cold_paths.mixed_rows(h1, h2, m, k)
    from bloomviz.hashing.mixed_kernel import mixed_rows
    return mixed_rows(h1, h2, m, k)


class Murmur3Mix(_MurmurOddStep):
    # Double hashing's h1 + i·h2 is fine as a 64-bit sequence; what breaks at small m is reducing it mod m
    # directly (for m = 2^p the positions are an arithmetic progression mod m: m·m/2 patterns instead of m^k).
    # Passing each 64-bit value through a full-avalanche bijection first makes the k positions behave as
    # independent uniform ones at every m, for the cost of a few multiplies. The mixed value is scaled to
    # [0, m) by a multiply-high (cheaper than a 64-bit division, bias below m/2^64) while m < 2^32, and
    # reduced mod m above (bias below m/2^64 too).
    _scalar = staticmethod(_mixed_scalar)
    _many = staticmethod(_mixed_many)
    _columns = staticmethod(_mixed_columns)

    def set_from_halves(self, h1, h2, m, k, view) -> int | None:
        """Set the bits of a batch given by ``text_halves`` in a plain filter's bytes, positions computed in
        the same compiled loop; None (nothing done) while the window builds itself (cold_paths)."""
        if cold_paths.use_cold_path(0, *native_kernels.SET_HALVES):     # the same answer for every chunk
            return None
        from bloomviz.hashing.mixed_kernel import set_from_halves
        return set_from_halves(h1, h2, m, k, view)

    def test_from_halves(self, h1, h2, m, k, view):
        """Bool per item of a batch given by ``text_halves``: all its bits set? None while the window builds."""
        if cold_paths.use_cold_path(0, *native_kernels.TEST_HALVES):    # the same answer for every chunk
            return None
        from bloomviz.hashing.mixed_kernel import test_from_halves
        return test_from_halves(h1, h2, m, k, view)

    def explain(self, data, m, k):
        # the words in a row of their own (translated where shown), the formula in its value
        rows = super().explain(data, m, k)
        return rows[:-1] + [("fmix64", "MurmurHash3's finaliser: the k positions behave as independent")] + rows[-1:]

    def _position_rule(self, m, k):
        if m < _LEMIRE_LIMIT:
            return f"⌊fmix64((h1 + i·h2) mod 2^64) · {m} / 2^64⌋,  i = 0…{k - 1}"
        return f"fmix64((h1 + i·h2) mod 2^64) mod {m},  i = 0…{k - 1}"


def _cubic(i: int) -> int:
    return (i * i * i - i) // 6


class Murmur3Enhanced(HashScheme):
    # Closed form of the loop  x += y; y += i  (Dillinger & Manolios): x_i = h1 + i*h2 + (i^3 - i)/6.
    def positions(self, data, m, k):
        h1, h2 = _murmur_halves(data)
        return tuple(((h1 + i * h2 + _cubic(i)) & MASK64) % m for i in range(k))

    def positions_many(self, datas, m, k):
        h1, h2 = _murmur_halves_many(datas)
        i = np.arange(k, dtype=_U64)
        cubic = np.array([_cubic(j) for j in range(k)], dtype=_U64)
        with np.errstate(over="ignore"):
            pos = (h1[:, None] + i[None, :] * h2[:, None] + cubic[None, :]) % _U64(m)
        return pos.astype(np.int64)

    def explain(self, data, m, k):
        h1, h2 = _murmur_halves(data)
        return [("h1 = MurmurHash3-128 low 64 bits", f"{h1}"),
                ("h2 = high 64 bits", f"{h2}"),
                ("position i", f"(h1 + i·h2 + (i³ − i)/6) mod 2^64 mod {m}")]


class Murmur3Seeded(HashScheme):
    def positions(self, data, m, k):
        return tuple(_murmur_halves(data, i)[0] % m for i in range(k))

    def positions_many(self, datas, m, k):
        out = np.empty((len(datas), k), dtype=np.int64)
        for i in range(k):
            out[:, i] = (_murmur_halves_many(datas, i)[0] % _U64(m)).astype(np.int64)
        return out

    def explain(self, data, m, k):
        hs = [_murmur_halves(data, i)[0] for i in range(min(k, 4))]
        shown = ", ".join(str(h) for h in hs) + (", …" if k > 4 else "")
        return [("H(i) = MurmurHash3 with seed i, low 64 bits", shown),
                ("position i", f"H(i) mod {m}")]


def _sha_value(data: bytes, i: int) -> int:
    return int.from_bytes(hashlib.sha256(i.to_bytes(4, "big") + data).digest()[:8], "big")


class Sha256Salted(HashScheme):
    def positions(self, data, m, k):
        return tuple(_sha_value(data, i) % m for i in range(k))

    def positions_many(self, datas, m, k):
        # No vectorised SHA-256 exists; this scheme is here to be clear, not fast.
        vals = [[_sha_value(d, i) % m for i in range(k)] for d in datas]
        return np.array(vals, dtype=np.int64).reshape(len(datas), k)

    def explain(self, data, m, k):
        return [("H(i) = first 8 bytes of SHA-256(i as 4 bytes ‖ item)", f"{_sha_value(data, 0)} (i = 0)"),
                ("position i", f"H(i) mod {m}")]


class MurmurFnv(HashScheme):
    def positions(self, data, m, k):
        return _double_hash_scalar(_murmur_halves(data)[0], fnv1a64(data) | 1, m, k)

    def positions_many(self, datas, m, k):
        h1 = _murmur_halves_many(datas)[0]
        return _double_hash_many(h1, fnv1a64_many(datas) | _U64(1), m, k)

    def explain(self, data, m, k):
        return [("h1 = MurmurHash3-128 low 64 bits", f"{_murmur_halves(data)[0]}"),
                ("h2 = FNV-1a 64, forced odd", f"{fnv1a64(data) | 1}"),
                ("position i", f"(h1 + i·h2) mod 2^64 mod {m}")]


class WeakShift(HashScheme):
    # One hash rotated by 16 bits per function: after 4 rotations it is back where it started, so for k > 4
    # the "independent" hashes repeat and a filter behaves as if k were at most 4 while theory assumes k.
    def positions(self, data, m, k):
        h = _murmur_halves(data)[0]
        return tuple(_rotl64(h, 16 * i) % m for i in range(k))

    def positions_many(self, datas, m, k):
        h = _murmur_halves_many(datas)[0]
        out = np.empty((len(datas), k), dtype=np.int64)
        for i in range(k):
            out[:, i] = (_rotl64_many(h, 16 * i) % _U64(m)).astype(np.int64)
        return out

    def explain(self, data, m, k):
        return [("h = MurmurHash3-128 low 64 bits", f"{_murmur_halves(data)[0]}"),
                ("rotate-left(h, 64) = h", "the positions repeat every 4 functions"),
                ("position i", f"rotate-left(h, 16·i) mod {m}")]


SCHEMES: dict[str, HashScheme] = {s.id: s for s in (
    Murmur3KM("murmur3-km", "MurmurHash3, Kirsch–Mitzenmacher double hashing",
              "One 128-bit MurmurHash3 split into h1, h2; position i = (h1 + i·h2) mod m (h2 odd). As good as k "
              "independent hashes only as m grows: averaged over many filters it measures about 1.09× the exact "
              "rate at m = 64, k = 4, n = 12 (lesson 5), 1.59× at m = 64, k = 8, n = 8 and 2.3× at m = 256, "
              "k = 8, n = 20 (for m a power "
              "of two the positions are an arithmetic progression, m²/2 patterns instead of m^k). A teaching "
              "scheme: compare it with the default."),
    Murmur3Enhanced("murmur3-enhanced", "MurmurHash3, enhanced double hashing",
                    "Dillinger & Manolios: adds a cubic term (i³ − i)/6 to h1 + i·h2. It does not keep the "
                    "positions distinct: at m = 64, k = 8 about 45 % of items repeat a position (37 % would with "
                    "independent positions), and it measures about 4 % above the exact rate there."),
    Murmur3Seeded("murmur3-seeded", "MurmurHash3 with k seeds",
                  "k separate MurmurHash3 calls with seeds 0…k−1: the textbook 'family of hash functions'."),
    Sha256Salted("sha256-salted", "SHA-256 salted with i",
                 "SHA-256(i ‖ item) for each i: the classic teaching construction; slow but transparent."),
    MurmurFnv("murmur-fnv", "MurmurHash3 + FNV-1a double hashing",
              "Two different hash functions combined by double hashing."),
    WeakShift("weak-shift", "Weak: one hash rotated by 16·i (bad on purpose)",
              "A single 64-bit hash rotated by 16 bits per function. Past k = 4 the positions repeat, so the "
              "measured false-positive rate climbs above theory: hashing matters.", good=False),
    Murmur3Mix("murmur3-mix", "MurmurHash3, mixed double hashing (default)",
               "One 128-bit MurmurHash3; position i = fmix64(h1 + i·h2) scaled to [0, m). The mixer makes the k "
               "positions "
               "behave as independent uniform ones at every m, so the measured rate matches the exact theory "
               "even on a 64-bit classroom filter."),
    *SEED_SCHEMES,      # the seeds' own (kedmi-sha256, seminar-cpp), after the general ids
    *GIT_SCHEMES,       # git's changed-path hashing, versions 2 and 1 (git_scheme.py)
)}

# New filters, the CLI and the window use this; saved filters keep the scheme they were made with.
DEFAULT_SCHEME = "murmur3-mix"


def get_scheme(scheme_id: object) -> HashScheme:
    if isinstance(scheme_id, HashScheme):
        return scheme_id
    if not isinstance(scheme_id, str) or scheme_id not in SCHEMES:
        raise ValueError(f"unknown hash scheme {scheme_id!r}; known schemes: {', '.join(SCHEMES)}")
    return SCHEMES[scheme_id]

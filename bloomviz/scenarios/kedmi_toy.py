"""Kedmi's toy filter replayed, and why it measured 0.0213 where it was designed for 0.001.

His test_bloom.py builds ``bloom_filter(m, k)`` over the 32,768 Debian weak DSA-1024 keys with
k, m = optimal_km(32768, 0.001) = (10, 471125), then counts false positives over 10 x 1000 random 30-letter
strings. His filter's store is ``bitarray(m)``, never cleared. bitarray's change log says that only since
version 2.9.0 (2023-12-17, issue #212) does ``bitarray(n)`` "always return a bitarray of length n with all items
initialized to 0"; in 2017 (bitarray 0.8) the buffer was whatever the allocator returned. A filter that starts
with a fraction d of its bits already 1 has fill 1 - (1 - d)(1 - 1/m)^{kn} after n inserts, so its rate is
(that fill)^k: d ≈ 0.36 turns the designed 0.001 into 0.0213. That is an inference, not a measurement of his
machine: the article does not print his bitarray version or the state of his memory.

The keys are synthetic (the article does not list them): 32,768 base64 strings of 580 characters, the average
length his printed total implies (19,004,952 bytes / 32,768 keys). Only their count matters to the rate.
"""

from __future__ import annotations

import base64
import functools
import math
import random
from dataclasses import asdict, dataclass
from string import ascii_letters

import numpy as np

from bloomviz.filters import persist, rows
from bloomviz.theory import rates as theory
from bloomviz.filters.standard import BloomFilter

SCHEME = "kedmi-sha256"
KEYS = 32_768                 # one key per 15-bit process id
KEY_CHARS = 580               # 19,004,952 bytes of base64 over 32,768 keys, rounded
DESIGN_P = 0.001
REPORTED_RATE = 0.0213        # his printed result
BITARRAY_ZEROES_FROM = "2.9.0"  # bitarray's CHANGE_LOG, 2023-12-17: bitarray(n) initialised to 0 (#212)


def optimal_km(n: int, p: float) -> tuple[int, int]:
    """Kedmi's optimal_km: k = ceil(-ln p / ln 2), m = ceil(-n ln p / (ln 2)^2), as his article computes them."""
    ln2, lnp = math.log(2), math.log(p)
    return int(math.ceil(-lnp / ln2)), int(math.ceil(-n * lnp / ln2 ** 2))


def synthetic_keys(count: int = KEYS, seed: int = 2008) -> list[bytes]:
    """``count`` distinct base64 strings shaped like his DSA public keys (the second field of a .pub file)."""
    rng = np.random.default_rng(seed)
    raw = rng.bytes(count * (KEY_CHARS * 3 // 4))
    step = KEY_CHARS * 3 // 4
    return [base64.b64encode(raw[i:i + step]) for i in range(0, len(raw), step)]


def random_strings(tests: int, per_test: int, seed: int) -> list[list[bytes]]:
    """His probes: ``tests`` rounds of ``per_test`` strings of 30 random ASCII letters, as bytes."""
    return [list(round_) for round_ in _random_strings(tests, per_test, seed)]


@functools.lru_cache(maxsize=4)
def _random_strings(tests: int, per_test: int, seed: int) -> tuple[tuple[bytes, ...], ...]:
    # drawn one letter at a time by random.Random, as his script does (1.4 s): a lesson replays the same draw
    # for each density it shows, and Back replays it again, so it is drawn once per seed
    rng = random.Random(seed)
    return tuple(tuple("".join(rng.choice(ascii_letters) for _ in range(30)).encode() for _ in range(per_test))
                 for _ in range(tests))


# The positions depend on the keys, m and k, never on the garbage a replay starts from: a lesson replays the
# same keys at each density it shows, and again on Back, so each design's SHA-256 digests are taken once (327,680
# for the keys, which the insert and the membership check share, and 100,000 for the probes: 0.7 s a replay
# before). The keys' rows take 26 MB; one design is kept.
@functools.lru_cache(maxsize=1)
def _key_rows(keys: int, m: int, k: int) -> np.ndarray:
    return _read_only(BloomFilter(m, k, SCHEME).positions_many(synthetic_keys(keys)))


@functools.lru_cache(maxsize=2)
def _probe_rows(tests: int, per_test: int, seed: int, m: int, k: int) -> np.ndarray:
    probes = [s for round_ in _random_strings(tests, per_test, seed) for s in round_]
    return _read_only(BloomFilter(m, k, SCHEME).positions_many(probes))


def _read_only(array: np.ndarray) -> np.ndarray:
    array.setflags(write=False)       # shared by every replay: none may change it
    return array


def garbage_bits(m: int, density: float, seed: int) -> bytes:
    """A filter payload (little-endian bytes, padding bits clear) with each bit 1 with probability ``density``:
    a stand-in for memory that was never cleared."""
    if not 0.0 <= density < 1.0:
        raise ValueError(f"initial density must be in [0, 1), got {density!r}")
    ones = np.random.default_rng(seed).random(m) < density
    return np.packbits(ones, bitorder="little").tobytes()


def expected_rate(m: int, k: int, n: int, density: float) -> float:
    """(1 - (1 - d)(1 - 1/m)^{kn})^k: Bloom's formula with a fraction d of bits set before the first insert."""
    zero_after = math.exp(k * n * math.log1p(-1.0 / m))
    return (1.0 - (1.0 - density) * zero_after) ** k


def density_for_rate(rate: float, m: int, k: int, n: int) -> float:
    """The initial density d at which ``expected_rate`` equals ``rate`` (0 if the rate needs none)."""
    zero_after = math.exp(k * n * math.log1p(-1.0 / m))
    return max(0.0, 1.0 - (1.0 - rate ** (1.0 / k)) / zero_after)


@dataclass(frozen=True)
class ToyResult:
    m: int
    k: int
    n: int
    initial_density: float
    initial_bits_set: int
    bits_set: int
    all_members_found: bool
    false_positives: int
    probes: int
    measured_rate: float
    expected_rate: float
    exact_rate_zeroed: float

    def as_dict(self) -> dict:
        return asdict(self)


def replay(initial_density: float = 0.0, keys: int = KEYS, p: float = DESIGN_P, tests: int = 10,
           per_test: int = 1000, seed: int = 2017) -> tuple[BloomFilter, ToyResult]:
    """His test_bloom.py on his scheme: design, insert every key, check they are all found, then count false
    positives over ``tests`` x ``per_test`` random strings. ``initial_density`` > 0 starts from garbage."""
    k, m = optimal_km(keys, p)
    flt = persist.from_state(BloomFilter, m, k, SCHEME, 0, {}, garbage_bits(m, initial_density, seed))
    initial = flt.bits_set
    key_rows = _key_rows(keys, m, k)
    rows.insert_rows(flt, key_rows)
    found = bool(np.all(rows.test_rows(flt, key_rows)))
    hits = int(np.count_nonzero(rows.test_rows(flt, _probe_rows(tests, per_test, seed + 1, m, k))))
    probes = tests * per_test
    return flt, ToyResult(m=m, k=k, n=keys, initial_density=initial_density, initial_bits_set=initial,
                          bits_set=flt.bits_set, all_members_found=found, false_positives=hits, probes=probes,
                          measured_rate=hits / probes, expected_rate=expected_rate(m, k, keys, initial_density),
                          exact_rate_zeroed=theory.fp_exact(m, k, keys))

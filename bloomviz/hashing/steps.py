"""How each of an item's k positions is computed, one line per position with the numbers filled in.

Slow motion (the window) and lessons reveal an insert one hash at a time; each line here is what a teacher would
write on the board for position i: the scheme's intermediate values and the reduction to [0, m). The values are
recomputed from the item's bytes with the scheme's own functions, and the position at the end of each line is
checked against ``scheme.positions`` (a mismatch would be a bug: the tests compare them for every scheme).

``position_steps(scheme, data, m, k)`` returns k strings; a scheme without an entry here gets "hash i → p".
Each entry belongs to one scheme id (the registry pattern of ``hashing.SCHEMES``), so adding a scheme means
adding its line here, nothing else.
"""

from __future__ import annotations

import hashlib
from typing import Callable

from bloomviz.hashing import schemes as hashing
from bloomviz.hashing.git_scheme import step_lines as _git_steps

MASK64 = hashing.MASK64


def _halves(data: bytes) -> tuple[int, int]:
    return hashing._murmur_halves(data)


def _double(h1: int, h2: int, name: str, m: int, k: int) -> list[str]:
    return [f"h1 + {i}·{name} = {(h1 + i * h2) & MASK64:,} (mod 2^64);  mod {m:,} = {((h1 + i * h2) & MASK64) % m:,}"
            for i in range(k)]


def _km(data: bytes, m: int, k: int) -> list[str]:
    h1, h2 = _halves(data)
    return _double(h1, h2 | 1, "h2", m, k)


def _mix(data: bytes, m: int, k: int) -> list[str]:
    h1, h2 = _halves(data)
    h2 |= 1
    out = []
    for i in range(k):
        x = (h1 + i * h2) & MASK64
        z = hashing.fmix64(x)
        if m < 1 << 32:
            out.append(f"x = h1 + {i}·h2 = {x:,};  fmix64(x) = {z:,};  ⌊{z:,}·{m:,} / 2^64⌋ = {(z * m) >> 64:,}")
        else:
            out.append(f"x = h1 + {i}·h2 = {x:,};  fmix64(x) = {z:,};  mod {m:,} = {z % m:,}")
    return out


def _enhanced(data: bytes, m: int, k: int) -> list[str]:
    h1, h2 = _halves(data)
    out = []
    for i in range(k):
        cubic = (i ** 3 - i) // 6
        x = (h1 + i * h2 + cubic) & MASK64
        out.append(f"h1 + {i}·h2 + {cubic} = {x:,} (mod 2^64);  mod {m:,} = {x % m:,}")
    return out


def _seeded(data: bytes, m: int, k: int) -> list[str]:
    return [f"MurmurHash3(item, seed {i}) = {hashing._murmur_halves(data, i)[0]:,};  "
            f"mod {m:,} = {hashing._murmur_halves(data, i)[0] % m:,}" for i in range(k)]


def _sha(data: bytes, m: int, k: int) -> list[str]:
    out = []
    for i in range(k):
        value = int.from_bytes(hashlib.sha256(i.to_bytes(4, "big") + data).digest()[:8], "big")
        out.append(f"SHA-256({i} ‖ item), first 8 bytes = {value:,};  mod {m:,} = {value % m:,}")
    return out


def _fnv(data: bytes, m: int, k: int) -> list[str]:
    return _double(_halves(data)[0], hashing.fnv1a64(data) | 1, "FNV", m, k)


def _weak(data: bytes, m: int, k: int) -> list[str]:
    h = _halves(data)[0]
    return [f"rotate(h, {16 * i % 64}) = {hashing._rotl64(h, 16 * i):,};  mod {m:,} = {hashing._rotl64(h, 16 * i) % m:,}"
            + ("  (the same as hash " + str(i % 4) + ")" if i >= 4 else "") for i in range(k)]


def _kedmi(data: bytes, m: int, k: int) -> list[str]:
    from bloomviz.hashing.seed_schemes import kedmi_value
    return [f"SHA-256(byte {i} ‖ item) = {kedmi_value(data, i):,};  mod {m:,} = {kedmi_value(data, i) % m:,}"
            for i in range(k)]


def _seminar(data: bytes, m: int, k: int) -> list[str]:
    from bloomviz.hashing.seed_schemes import std_hash
    h = std_hash(data)
    return [f"std::hash = {h:,};  >> {16 * i % 64} = {h >> (16 * i % 64):,};  mod {m:,} = {(h >> (16 * i % 64)) % m:,}"
            for i in range(k)]


STEPS: dict[str, Callable[[bytes, int, int], list[str]]] = {
    "murmur3-km": _km, "murmur3-mix": _mix, "murmur3-enhanced": _enhanced, "murmur3-seeded": _seeded,
    "sha256-salted": _sha, "murmur-fnv": _fnv, "weak-shift": _weak, "kedmi-sha256": _kedmi,
    "seminar-cpp": _seminar,
    "git-changed-paths": lambda data, m, k: _git_steps(data, m, k, 2),
    "git-changed-paths-v1": lambda data, m, k: _git_steps(data, m, k, 1),
}


def position_steps(scheme: str, data: bytes, m: int, k: int, positions=None) -> list[str]:
    """One line per position i; ``positions`` (the filter's own, e.g. remapped into a block or a slice) are
    used instead of the scheme's when given, with a generic line, since the arithmetic above is the scheme's."""
    if positions is not None:
        return [f"hash {i} → position {int(p):,}" for i, p in enumerate(positions)]
    steps = STEPS.get(scheme)
    if steps is None:
        return [f"hash {i} → position {p:,}" for i, p in enumerate(hashing.get_scheme(scheme).positions(data, m, k))]
    return steps(data, m, k)

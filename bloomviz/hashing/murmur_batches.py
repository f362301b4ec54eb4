"""MurmurHash3-128 halves (h1, h2) of a batch of items, as uint64 arrays: the batch paths of the murmur schemes.

Which loop hashes a batch depends on what it is: a list of exactly str or exactly bytes is read in place
(list_kernel); other sequences are joined into one buffer a piece at a time (murmur_kernel); inside the
window's first paint, mmh3 item by item (cold_paths). The compiled modules are imported when first needed.
Same digests every way (tests/hashing/test_murmur_kernel.py, tests/hashing/test_list_kernel.py).
"""

from __future__ import annotations

from typing import Sequence

import mmh3
import numpy as np

from bloomviz.hashing import cold_paths, native_kernels
from bloomviz.items.encoding import encode_texts

_U64 = np.uint64


def _murmur_halves_many(datas: Sequence[bytes], seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    if cold_paths.use_cold_path(len(datas)):
        return _halves(b"".join(mmh3.hash_bytes(data, seed) for data in datas))
    from bloomviz.hashing.murmur_kernel import hash128_many    # compiled (numba): imported when first needed
    return hash128_many(datas, seed)


def _murmur_halves_many_text(texts: Sequence[str], reuse: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """``_murmur_halves_many(encode_texts(texts))``, the encoding fused into the hashing; a list that starts
    with a bytes-like item is hashed as bytes. TypeError, before anything is hashed, for an item of another
    type than the first's kind: the caller's checked path takes mixed lists.

    A list of exactly str or exactly bytes is hashed item by item where the items lie (list_kernel); other
    sequences, and lists holding other kinds (bytearray, subclasses), are hashed joined, a piece at a time
    (``_joined_halves``). Same digests every way. ``reuse``: see ``list_kernel.list_halves``.
    """
    # (a list of str or bytes is hashed by a kernel the native cache serves: no numba needed)
    first = type(texts[0]) if isinstance(texts, list) and texts else None
    native = (native_kernels.TEXT_HALVES,) if first is str else (native_kernels.BYTES_HALVES,) if first is bytes else ()
    if isinstance(texts, list) and texts and not cold_paths.use_cold_path(len(texts), *native):
        # a list of exactly str, or exactly bytes: each item hashed where it lies, its type checked on the way
        from bloomviz.hashing.list_kernel import list_halves
        halves = list_halves(texts, type(texts[0]) is not str, reuse)
        if halves is not None:
            return halves
    if len(texts) <= _JOINED_PIECE:
        return _joined_halves(texts)
    pieces = [_joined_halves(texts[s:s + _JOINED_PIECE]) for s in range(0, len(texts), _JOINED_PIECE)]
    return np.concatenate([h1 for h1, _ in pieces]), np.concatenate([h2 for _, h2 in pieces])


_JOINED_PIECE = 1 << 14     # items joined at once: the joined buffer stays in the CPU's cache


def _joined_halves(texts: Sequence[str]) -> tuple[np.ndarray, np.ndarray]:
    """The halves of a batch joined into one buffer and hashed in one compiled loop (murmur_kernel); a
    non-ASCII batch in which an item holds a NUL goes item by item with mmh3, which only ever sees bytes
    (``str.encode`` runs first): a lone surrogate makes strict UTF-8 fail, and then the policy's surrogatepass
    bytes are hashed instead."""
    if texts and type(texts[0]) is not str:
        # the policy's bytes-like kinds only (a join would take any buffer, an array.array too): one C-level
        # pass over the types, ~10 ns an item
        if not set(map(type, texts)) <= _BYTES_KINDS:
            raise TypeError("not a list of bytes: the checked path names the item")
        if cold_paths.use_cold_path(len(texts)):
            return _murmur_halves_many(_bytes_only(texts))
        from bloomviz.hashing.murmur_kernel import hash128_buffers
        return hash128_buffers(texts)
    if not cold_paths.use_cold_path(len(texts)):
        from bloomviz.hashing.murmur_kernel import hash128_texts
        joined = hash128_texts(texts)
        if joined is not None:
            return joined
    try:
        digests = b"".join(map(mmh3.hash_bytes, map(str.encode, texts)))
    except UnicodeEncodeError:
        digests = b"".join(map(mmh3.hash_bytes, encode_texts(texts)))
    return _halves(digests)


_BYTES_KINDS = frozenset((bytes, bytearray, memoryview))


def _bytes_only(datas: Sequence) -> list[bytes]:
    try:
        b"".join(datas)             # the types checked as the compiled path checks them
    except TypeError as exc:
        raise TypeError(str(exc)) from None
    return [bytes(d) for d in datas]


def _halves(joined: bytes) -> tuple[np.ndarray, np.ndarray]:
    # Read-only strided views of the digests: no copy on a little-endian machine.
    both = np.frombuffer(joined, dtype="<u8").astype(_U64, copy=False).reshape(-1, 2)
    return both[:, 0], both[:, 1]

"""What every foreign-format reader shares: the one exception, bounded reading, the bit normaliser, the record.

Bit order. Every library examined stores bit i of its array as bit (i mod w) of word (i div w), counted from
the least significant bit, once the w-bit word is read in the library's own byte order (64-bit big-endian
words in Guava; little-endian bytes or words elsewhere). ``bits_from_words`` turns any such payload into one
little-endian ``bitarray`` where bit i is the library's bit i, so grids, counts and lookups need no per-format
code after the header.

Safety. ``open_regular`` refuses anything but a regular file *before* opening it (a FIFO would block, a
device could be endless), then checks again on the open descriptor so a file swapped in between is caught.
``Source.read_at`` reads only byte ranges that the header has already shown to lie inside the file, so a
hostile header costs at most the file's own size. Readers never evaluate or unpickle anything.
"""

from __future__ import annotations

import math
import os
import stat
from dataclasses import dataclass, field
from typing import Callable

import numpy as np
from bitarray import bitarray

from bloomviz.filters.notebook import RichDisplay
from bloomviz.theory.validate import MAX_M

MAX_K = 255               # no format examined allows more (Guava and others store k in one byte)
SMALL_READ = 1 << 20      # headers and footers are read in one piece only below this size


class ForeignFormatError(ValueError):
    """A file is not a valid file of the named format; the message names the file, the format and the fault."""

    def __init__(self, fmt: str, reason: str, path: object = None):
        self.format, self.reason = fmt, reason
        self.path = None if path is None else os.fsdecode(path)
        where = "" if path is None else f"{self.path}: "
        super().__init__(f"{where}{fmt}: {reason}")


_KINDS = ((stat.S_ISDIR, "a directory"), (stat.S_ISFIFO, "a FIFO (named pipe)"), (stat.S_ISCHR, "a character device"),
          (stat.S_ISBLK, "a block device"), (stat.S_ISSOCK, "a socket"))


def file_kind(mode: int) -> str:
    """What a file that is not a regular one is, in words ("a FIFO (named pipe)", "a directory" ...)."""
    return next((name for test, name in _KINDS if test(mode)), "not a regular file")


class Source:
    """A regular file opened for bounded, positioned reads. Use as a context manager."""

    def __init__(self, path, fmt: str):
        self.path, self.format = path, fmt
        st = os.stat(path)  # OSError (missing, no permission) passes through unchanged
        if not stat.S_ISREG(st.st_mode):
            raise ForeignFormatError(fmt, f"is {file_kind(st.st_mode)}, not a regular file", path)
        # O_NONBLOCK: if a FIFO was swapped in after the stat, opening it must not wait for a writer
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
        try:
            st = os.fstat(fd)
            if not stat.S_ISREG(st.st_mode):
                raise ForeignFormatError(fmt, f"is {file_kind(st.st_mode)}, not a regular file", path)
        except BaseException:
            os.close(fd)
            raise
        self.fd, self.size = fd, st.st_size

    def __enter__(self) -> "Source":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def close(self) -> None:
        if self.fd >= 0:
            os.close(self.fd)
            self.fd = -1

    def fail(self, reason: str) -> ForeignFormatError:
        return ForeignFormatError(self.format, reason, self.path)

    def read_at(self, offset: int, length: int, what: str) -> bytes:
        """Exactly ``length`` bytes at ``offset``, or a format error naming ``what`` if the file is shorter."""
        if offset < 0 or length < 0 or offset + length > self.size:
            raise self.fail(f"truncated: {what} needs bytes {offset:,}..{offset + length:,} but the file has "
                            f"{self.size:,} bytes")
        pieces, got = [], 0
        while got < length:
            chunk = os.pread(self.fd, min(length - got, 1 << 24), offset + got)
            if not chunk:
                raise self.fail(f"truncated while reading {what} (the file shrank)")
            pieces.append(chunk)
            got += len(chunk)
        return b"".join(pieces)

    def head(self, n: int) -> bytes:
        return os.pread(self.fd, min(n, self.size), 0)

    def tail(self, n: int) -> bytes:
        n = min(n, self.size)
        return os.pread(self.fd, n, self.size - n)


def hex_prefixed(text: str) -> bytes | None:
    """The bytes an item written ``0x…`` spells (the formats that key on bytes take such an item as its raw
    bytes); None when the text has no 0x prefix; ValueError naming it when the rest is not hex bytes."""
    if text[:2] not in ("0x", "0X"):
        return None
    try:
        return bytes.fromhex(text[2:])
    except ValueError:
        raise ValueError(f"{text!r} starts with 0x but is not hex bytes") from None


def check_m(fmt: str, m: int, path=None) -> int:
    if not 1 <= m <= MAX_M:
        raise ForeignFormatError(fmt, f"m = {m:,} bits is outside 1..2**34", path)
    return m


def check_k(fmt: str, k: int, path=None) -> int:
    if not 1 <= k <= MAX_K:
        raise ForeignFormatError(fmt, f"k = {k} hash functions is outside 1..{MAX_K}", path)
    return k


def bits_from_words(raw: bytes, word_bytes: int, byteorder: str, m: int) -> bitarray:
    """The library's bits 0..m-1 as a little-endian bitarray (see the module docstring for the rule).

    ``raw`` must hold whole words covering m bits; big-endian words are byte-reversed into little-endian
    order first, after which bit i is bit (i mod 8) of byte (i div 8) whatever the word size.
    """
    if byteorder not in ("little", "big"):
        raise ValueError(f"byteorder must be 'little' or 'big', got {byteorder!r}")
    if len(raw) % word_bytes or len(raw) * 8 < m:
        raise ValueError(f"{len(raw)} bytes are not whole {word_bytes}-byte words covering {m} bits")
    data = np.frombuffer(raw, dtype=np.uint8)
    if byteorder == "big" and word_bytes > 1:
        data = data.reshape(-1, word_bytes)[:, ::-1].ravel()
    bits = bitarray(endian="little")
    bits.frombytes(data.tobytes())
    del bits[m:]
    return bits


def bits_at(bits: bitarray, positions) -> tuple[int, ...]:
    return tuple(int(bits[p]) for p in positions)


@dataclass(frozen=True)
class Option:
    """A command-line option a format declares (``CLI_OPTIONS = (Option(...),)`` in its module); ``inspect``,
    ``check`` and the window offer it for that format without knowing the format.

    With ``select`` None the value goes to the module's ``read(path, **options)`` under ``dest``; otherwise it
    is a selector: ``select(filters, value)`` returns the filters to use, or raises ValueError naming the
    value when none matches (git's ``--commit OID`` picks one commit's filter this way)."""

    flag: str
    help: str
    metavar: str = "VALUE"
    type: Callable[[str], object] = str
    select: Callable[[list, object], list] | None = None

    @property
    def dest(self) -> str:
        return self.flag.lstrip("-").replace("-", "_")


@dataclass(frozen=True)
class ForeignLookup:
    """A lookup's answer: the positions the library's hashing names (indices into ``ForeignFilter.bits``)
    and their bits. ``groups`` splits positions into the parts that must all be set together (one per link of
    a scalable filter; a single group otherwise): the item is present if any group is all ones."""

    item: object
    positions: tuple[int, ...]
    bits: tuple[int, ...]
    groups: tuple[int, ...] = ()   # the size of each group, in order; empty means one group

    def _split(self):
        sizes = self.groups or (len(self.positions),)
        start = 0
        for size in sizes:
            yield self.positions[start:start + size], self.bits[start:start + size]
            start += size

    @property
    def maybe_present(self) -> bool:
        return any(all(b) for _, b in self._split())

    @property
    def zero_positions(self) -> tuple[int, ...]:
        return tuple(p for p, b in zip(self.positions, self.bits) if not b)


@dataclass
class ForeignFilter(RichDisplay):
    """A filter read from another library's file, as the library stored it.

    ``bits`` holds bit i of the library's array at index i (see ``bits_from_words``). ``layout`` is one of
    ``{"kind": "flat"}``, ``{"kind": "blocks", "block_bits": 256, "word_bits": 32}`` (an insert picks one block
    and sets ``bits_per_word`` bits, default 1, in each of its words: Parquet's 8 words of 32 bits set one bit
    each, RocksDB's 512-bit cache lines are one word with k bits), ``{"kind": "slices", "slices": k,
    "slice_bits": b}``, ``{"kind": "links", "links": [(offset, m, k, slice_bits), ...]}`` or ``{"kind":
    "ribbon", "slots": s}`` (a Ribbon filter: a solved linear system, not a Bloom filter; its fill says
    nothing of its entries, and it answers false positives at 2**-(m/s) whatever its load). ``fields`` are the header's values as stored; ``hashing`` says how membership is
    reproduced, and ``positions`` (None when it cannot be) maps an item to a ``ForeignLookup``.
    """

    format: str
    m: int
    k: int
    bits: bitarray
    layout: dict
    hashing: str
    positions: Callable[[object], ForeignLookup] | None = None
    label: str = ""
    fields: dict = field(default_factory=dict)
    notes: list = field(default_factory=list)
    # what the writer aimed for, when its file or settings say: the false-positive rate it was sized for and
    # the number of entries it was sized to hold (the atlas counts the filters past either)
    design_fp: float | None = None
    design_n: float | None = None
    # (past its design load, why) when the file itself says, so no estimate from the fill is needed: git sizes
    # each filter for exactly the paths it holds, and the estimate of a 24-bit filter's few keys is noise
    past_design: tuple[bool, str] | None = None
    # what the design numbers rest on when the file does not say it (Parquet's fpp: assumed, or given)
    design_basis: str | None = None

    @property
    def bits_set(self) -> int:
        return self.bits.count(1)

    @property
    def fill_ratio(self) -> float:
        return self.bits_set / self.m

    def lookup(self, item: object) -> ForeignLookup:
        if self.positions is None:
            raise ValueError(f"{self.format}: membership cannot be reproduced for this filter ({self.hashing})")
        return self.positions(item)

    def __contains__(self, item: object) -> bool:
        return self.lookup(item).maybe_present

    @property
    def estimated_count(self) -> float:
        """Items most likely inserted, from the bits set, by the layout's own occupancy rule."""
        return _estimate(self.bits, self.m, self.k, self.layout)

    @property
    def expected_fp(self) -> float:
        """The chance that a never-inserted item's k positions are all set, given the bits as they are now."""
        return _expected_fp(self.bits, self.m, self.k, self.layout)

    def summary(self) -> dict:
        est = self.estimated_count
        return {"format": self.format, "label": self.label, "m": self.m, "k": self.k,
                "layout": self.layout["kind"], "bits_set": self.bits_set, "fill": self.fill_ratio,
                "estimated_n": est if math.isfinite(est) else None, "expected_fp": self.expected_fp,
                "hashing": self.hashing, "membership": self.positions is not None,
                "fields": dict(self.fields), "notes": list(self.notes),
                **({"design_fp": self.design_fp} if self.design_fp is not None else {}),
                **({"design_n": self.design_n} if self.design_n is not None else {}),
                **({"past_design_known": list(self.past_design)} if self.past_design is not None else {}),
                **({"design_basis": self.design_basis} if self.design_basis is not None else {})}


def _occupancy(cell_bits: int, set_bits: np.ndarray) -> np.ndarray:
    """Inserts that most likely set ``set_bits`` of ``cell_bits`` bits when each insert sets one bit at random."""
    x = np.asarray(set_bits, dtype=float)
    with np.errstate(divide="ignore"):
        return np.where(x >= cell_bits, np.inf, -cell_bits * np.log1p(-x / cell_bits))


def _estimate(bits: bitarray, m: int, k: int, layout: dict) -> float:
    kind = layout["kind"]
    if kind == "blocks":
        w, per_word, block = layout["word_bits"], layout.get("bits_per_word", 1), layout["block_bits"]
        # every insert sets bits_per_word bits (drawn with replacement) in each word of one block, so after j
        # inserts a block expects block·(1 − (1 − 1/w)^(bits_per_word·j)) bits set: j from the block's count,
        # pooled over its words (one full 32-bit word no longer makes the estimate infinite, only a full block;
        # word by word, the mean of the words' logs also read 2.5 % high on pyarrow's own filters)
        step = per_word * math.log1p(-1 / w)
        total = 0.0
        for c in _block_counts(bits, m, layout):
            x = c.sum(axis=1, dtype=np.int64).astype(float)
            if (x >= block).any():
                return math.inf
            total += float((np.log1p(-x / block) / step).sum())
        return total
    if kind == "ribbon":
        return math.nan
    if kind == "slices":
        b = layout["slice_bits"]
        counts = np.array([bits[i * b:(i + 1) * b].count(1) for i in range(layout["slices"])])
        return float(_occupancy(b, counts).mean())
    if kind == "links":
        return float(sum(_estimate(bits[off:off + lm], lm, lk,
                                   {"kind": "slices", "slices": lk, "slice_bits": sb} if sb else {"kind": "flat"})
                         for off, lm, lk, sb in layout["links"]))
    x = bits.count(1)
    return math.inf if x == m else -(m / k) * math.log1p(-x / m)


def _expected_fp(bits: bitarray, m: int, k: int, layout: dict) -> float:
    kind = layout["kind"]
    if kind == "blocks":
        w, per_word = layout["word_bits"], layout.get("bits_per_word", 1)
        total = sum(float(np.prod((c / w) ** per_word, axis=1).sum()) for c in _block_counts(bits, m, layout))
        return total / (m // layout["block_bits"])
    if kind == "ribbon":
        # RocksDB's interleaved solution gives each block floor(c) or ceil(c) columns, c = m / slots, so that
        # they average c; a key's row is one block's, and a non-member matches each column with chance 1/2
        c = m / layout["slots"]
        upper = math.ceil(c)
        share = c - (upper - 1)
        return share * 2.0 ** -upper + (1 - share) * 2.0 ** -(upper - 1)
    if kind == "slices":
        b = layout["slice_bits"]
        return float(np.prod([bits[i * b:(i + 1) * b].count(1) / b for i in range(layout["slices"])]))
    if kind == "links":
        miss = 1.0
        for off, lm, lk, sb in layout["links"]:
            sub = {"kind": "slices", "slices": lk, "slice_bits": sb} if sb else {"kind": "flat"}
            miss *= 1.0 - _expected_fp(bits[off:off + lm], lm, lk, sub)
        return 1.0 - miss
    return (bits.count(1) / m) ** k


def _block_counts(bits: bitarray, m: int, layout: dict, chunk_bytes: int = 1 << 20):
    """Bits set in each word, as (blocks, words per block) arrays over successive pieces of the array, so a
    2**30-bit filter costs a few MiB of temporaries rather than gigabytes."""
    block_bytes, word_bytes = layout["block_bits"] // 8, layout["word_bits"] // 8
    raw = np.frombuffer(bits, dtype=np.uint8)[: m // 8]
    step = max(block_bytes, chunk_bytes // block_bytes * block_bytes)
    for start in range(0, raw.size, step):
        piece = np.bitwise_count(raw[start:start + step])
        yield piece.reshape(-1, block_bytes // word_bytes, word_bytes).sum(axis=2, dtype=np.int16)

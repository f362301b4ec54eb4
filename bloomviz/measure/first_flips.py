"""The bits a batch of inserts flips, each once at the insert that flips it, for the exact tracker.

``flip_pass`` (a standard filter's batch) sets the bits block by block in insertion order, so one random read
per position finds the flips, and one plain scatter sets them (``_block_flips``: a contest for the slots of a
table keyed by byte); ``FirstIndex`` finds first occurrences where the bits cannot be read that way
(variants whose insert is not a bit write, and the rare leftovers of a block's contest); ``set_fresh_bits`` (from
bitstore) is the scatter with read-back that bitstore.set_bits uses for large filters; ``times_of`` gives the probe bits'
flip times.

``FirstIndex`` replaces both an m-sized scratch array (one int32 per bit: 38 MB at m = 9.6e6, more than the
32 MiB L3 shared here, so every access missed) and a sort of the batch: it needs a table about twice the
*batch's* size, whatever m is, so it works the same at m = 2^32. Each round writes every unresolved index into
``table[hash(value)]`` in reverse order (so the earliest index is written last) and reads it back:

- the slot holds an index with the same value: the value is resolved, the index read back is its first
  occurrence. Every occurrence of a value hashes to the same slot, so a value is resolved all at once;
- the slot holds another value: all occurrences of this value lost the slot and try again in the next round
  with another multiplier (about a third at load 1/2; rounds shrink geometrically).

NumPy does not promise that the last of repeated fancy writes wins, so every resolved index is checked to come
at or after the one read back; should that ever fail (or rounds stop shrinking), a stable sort answers instead.
A lookup of other values (a probe's bits) walks the rounds' tables the same way.
"""

from __future__ import annotations

import numpy as np

# set_fresh_bits lives with the other bit operations (a filter sets bits without measuring) and is named here
# too, where the flip pass uses it.
from bloomviz.filters.bitstore import _BIT, SET_BLOCK, _set_blocks, set_fresh_bits  # noqa: F401

_U64 = np.uint64
# Odd 64-bit multipliers (from splitmix64 and MurmurHash3's finaliser): slot = (value * C) >> (64 - bits).
_MULTIPLIERS = (0x9E3779B97F4A7C15, 0xBF58476D1CE4E5B9, 0x94D049BB133111EB, 0xFF51AFD7ED558CCD,
                0xC4CEB9FE1A85EC53, 0xD6E8FEB86659FD93, 0xA0761D6478BD642F, 0xE7037ED1A0B428DB)


def _new_table(size: int) -> np.ndarray:
    """A table of ``size`` int32 slots (a function so tests can substitute one that breaks write order)."""
    return np.empty(size, dtype=np.int32)


def _table(workspace: dict | None, round_no: int, size: int) -> np.ndarray:
    # Reusing a caller's tables halves the cost at a million positions: a new 4 MiB table page-faults on
    # every first touch of the random scatter. One per round and size: a lookup reads every round's table.
    if workspace is None:
        return _new_table(size)
    table = workspace.get((round_no, size))
    if table is None:
        table = workspace[(round_no, size)] = _new_table(size)
    return table


def _slots(values: np.ndarray, multiplier: int, bits: int) -> np.ndarray:
    with np.errstate(over="ignore"):
        h = values.view(_U64) * _U64(multiplier)
    h >>= _U64(64 - bits)
    return h.view(np.int64)


class FirstIndex:
    """First occurrences of the values of ``values`` (int64, non-negative, in insertion order).

    ``workspace``: a dict the caller keeps between batches, in which the tables are reused (they stay in use
    until the next FirstIndex built on the same workspace, so ``lookup`` must come before that)."""

    def __init__(self, values: np.ndarray, workspace: dict | None = None):
        self.values = values = np.ascontiguousarray(values, dtype=np.int64)
        size = values.size
        self.rep = np.empty(size, dtype=np.int64)     # index of the first occurrence of each entry's value
        self._rounds: list[tuple[int, int, np.ndarray]] = []
        self.sorted = False
        if size == 0:
            self.first = np.zeros(0, dtype=bool)
            return
        # Round one covers every index (no gathers of a pending list); boolean compressions are avoided
        # where a whole-array operation does (they cost several times a gather here).
        index = np.arange(size, dtype=np.int32)
        bits = max(4, size.bit_length() + 1)                           # load at most 1/2
        table = _table(workspace, 0, 1 << bits)
        slot = _slots(values, _MULTIPLIERS[0], bits)
        table[slot[::-1]] = index[::-1]
        got = table[slot]
        same = values[got] == values
        if np.any((got > index) & same):
            self._sort_fallback()
            return
        self.rep[:] = got
        self._rounds.append((_MULTIPLIERS[0], bits, table))
        pending = np.flatnonzero(~same)
        for round_no, multiplier in enumerate(_MULTIPLIERS[1:], 1):
            if pending.size == 0:
                break
            bits = max(4, int(pending.size).bit_length() + 3)        # load at most 1/8: few rounds
            table = _table(workspace, round_no, 1 << bits)
            slot = _slots(values[pending], multiplier, bits)
            table[slot[::-1]] = pending[::-1]
            got = table[slot].astype(np.int64)
            same = values[got] == values[pending]
            if np.any((got > pending) & same):
                self._sort_fallback()
                return
            self.rep[pending[same]] = got[same]
            self._rounds.append((multiplier, bits, table))
            before = pending.size
            pending = pending[~same]
            if pending.size * 4 > before * 3:                        # not shrinking: a pathological batch
                break
        if pending.size:
            self._sort_fallback()
            return
        self.first = self.rep == np.arange(size)

    def _sort_fallback(self) -> None:
        values = self.values
        order = np.argsort(values, kind="stable")
        ordered = values[order]
        lead = np.empty(values.size, dtype=bool)
        lead[0] = True
        np.not_equal(ordered[1:], ordered[:-1], out=lead[1:])
        group_first = order[np.flatnonzero(lead)]
        self.rep[order] = np.repeat(group_first, np.diff(np.append(np.flatnonzero(lead), values.size)))
        self.first = self.rep == np.arange(values.size)
        self._order, self._ordered = order, ordered
        self._rounds = []
        self.sorted = True

    def lookup(self, queries: np.ndarray) -> np.ndarray:
        """For each query value, the index of its first occurrence in ``values``, or -1 if it does not occur."""
        queries = np.asarray(queries, dtype=np.int64)
        out = np.full(queries.size, -1, dtype=np.int64)
        if queries.size == 0 or self.values.size == 0:
            return out
        if self.sorted:
            slot = np.searchsorted(self._ordered, queries)
            ok = slot < self._ordered.size
            ok[ok] = self._ordered[slot[ok]] == queries[ok]
            out[ok] = self.rep[self._order[slot[ok]]]
            return out
        open_ = np.arange(queries.size)
        for multiplier, bits, table in self._rounds:
            got = table[_slots(queries[open_], multiplier, bits)].astype(np.int64)
            # an unwritten slot holds whatever np.empty left: harmless, since any in-range index j with
            # values[j] == query names an occurrence of the query, and rep[j] is its first one
            valid = (got >= 0) & (got < self.values.size)
            hit = np.zeros(open_.size, dtype=bool)
            hit[valid] = self.values[got[valid]] == queries[open_[valid]]
            out[open_[hit]] = self.rep[got[hit]]
            open_ = open_[~hit]
            if open_.size == 0:
                break
        return out


# A byte array this small stays in the cache whole: larger blocks then only save per-call overhead.
_CACHED_VIEW = 4 << 20
_BIG_BLOCK = 1 << 16


def flip_pass(view: np.ndarray, flat: np.ndarray, workspace: dict | None = None) -> np.ndarray:
    """Set the bits at ``flat`` (positions in insertion order) in a little-endian byte array and return, in
    order, the indices into ``flat`` of the positions that turned a bit from 0 to 1 (each such bit once).

    Block by block in insertion order: a position is a flip if its bit is still 0 when its block is read and
    it is the first such occurrence of its bit within the block. Bits flipped by earlier blocks already read
    1, so the whole batch needs one random read per position from memory, and the block's write hits the lines
    that read brought into the cache (see ``_block_flips``).

    One thread: the array's two halves done at once in two threads (a bit lies in one half, so each half's
    flips are its own) measured slower on this two-core machine even when idle, 50-59 against 38-40 ns a
    position at m = 2^32 (the split's gathers and merge cost more than the second core gave)."""
    return _flip_blocks(view, flat, {} if workspace is None else workspace)


def _flip_blocks(view: np.ndarray, flat: np.ndarray, workspace: dict) -> np.ndarray:
    out = []
    step = _BIG_BLOCK if view.nbytes <= _CACHED_VIEW else SET_BLOCK
    for lo in range(0, flat.size, step):
        block = flat[lo:lo + step]
        byte = block >> 3
        old = view.take(byte)
        new = old | _BIT.take(block & 7)
        fresh = np.flatnonzero(new != old)
        if fresh.size:
            out.append(_block_flips(view, block, byte, new, fresh, workspace) + lo)
    return np.concatenate(out) if out else np.zeros(0, dtype=np.int64)


def _block_flips(view, block, byte, new, fresh, workspace) -> np.ndarray:
    """The flips among a block's ``fresh`` positions (bit 0 when read), their bits set; ``new`` is each
    position's byte as read with its bit set.

    Round one is a contest for the slots of a hashed table keyed by each position's *byte*: the winner of a
    slot is its earliest position, so winners have distinct bytes and each is the first of its bit, a flip.
    Every byte is written once with ``new`` of its winner (losers write their winner's byte and value),
    so one plain scatter is exact with no read-back and in any write order. A loser with its winner's bit is a
    repeat; the others (another byte in the slot, or another bit of the winner's byte) hold every occurrence
    of their bits, so further rounds keyed by bit find the first of each among them (set with read-back)."""
    size = fresh.size
    fb = byte.take(fresh)
    lose, winner = _contest(fb, workspace, 0)
    if lose is None:
        return _block_flips_checked(view, block, fresh, workspace)
    value = new.take(fresh)
    if lose.size == 0:
        view[fb] = value
        return fresh
    at = block.take(fresh)
    repeat = at.take(lose) == at.take(winner)
    fb[lose] = fb.take(winner)
    value[lose] = value.take(winner)
    view[fb] = value
    keep = np.ones(size, dtype=bool)
    keep[lose] = False
    undecided = lose[~repeat]
    for round_no in range(1, len(_MULTIPLIERS)):
        if undecided.size == 0:
            return fresh[keep]
        keys = at.take(undecided)
        lose, winner = _contest(keys, workspace, round_no)
        if lose is None or lose.size * 4 > keys.size * 3:      # not shrinking, or writes out of order
            break
        won = np.ones(keys.size, dtype=bool)
        won[lose] = False
        keep[undecided[won]] = True
        _set_blocks(view, keys[won])
        undecided = undecided[lose[keys.take(lose) != keys.take(winner)]]
    first = undecided[FirstIndex(at.take(undecided), workspace).first]
    keep[first] = True
    _set_blocks(view, at.take(first))
    return fresh[keep]


_LOAD_BITS = 2      # a contest's table has 4-8 slots per key: 6-12 % of keys lose (more rounds cost more)
_DESCENDING = np.arange(_BIG_BLOCK - 1, -1, -1, dtype=np.int32)
_DESCENDING.flags.writeable = False


def _contest(keys: np.ndarray, workspace: dict | None, round_no: int):
    """Indices of the keys that lost their slot to an earlier key, and of the earliest key in that slot
    (the winner); (None, None) if numpy's writes did not leave the earliest key in some slot.

    The keys are written in reverse order, as a contiguous copy with a descending index (a negative-stride
    fancy write costs half again as much), so the last write to a slot, the earliest key, wins."""
    size = keys.size
    bits = max(4, size.bit_length() + _LOAD_BITS)
    table = _table(workspace, -1 - round_no, 1 << bits)
    slot = _slots(keys[::-1], _MULTIPLIERS[round_no], bits)
    rindex = _DESCENDING[_DESCENDING.size - size:] if size <= _DESCENDING.size else \
        np.arange(size - 1, -1, -1, dtype=np.int32)
    table[slot] = rindex
    got = table.take(slot)
    lost = np.flatnonzero(got != rindex)[::-1]
    lose = (size - 1) - lost
    winner = got.take(lost).astype(np.int64)            # the table holds original indices
    if np.any(winner > lose):
        return None, None
    return lose, winner


def _block_flips_checked(view, block, fresh, workspace) -> np.ndarray:
    """``_block_flips`` without assuming numpy's write order: FirstIndex checks it and sorts if it must."""
    first = FirstIndex(block[fresh], workspace).first
    flips = fresh[first]
    _set_blocks(view, block[flips])
    return flips


def times_of(queries: np.ndarray, keys: np.ndarray, key_times: np.ndarray) -> np.ndarray:
    """For each query value, ``key_times`` at the key equal to it (keys are distinct), or -1.

    Built for few queries (a probe set's bits that a batch flipped) against many keys (all bits it flipped):
    an occupancy map of the queries' hashes, 64 slots per query, passes about 1.5 % of the keys that are not
    queries; only the candidates are sorted and searched."""
    queries = np.asarray(queries, dtype=np.int64)
    out = np.full(queries.size, -1, dtype=np.int64)
    if queries.size == 0 or keys.size == 0:
        return out
    bits = max(10, int(queries.size).bit_length() + 6)
    occupied = np.zeros(1 << bits, dtype=bool)
    occupied[_slots(queries, _MULTIPLIERS[0], bits)] = True
    candidates = np.flatnonzero(occupied.take(_slots(np.ascontiguousarray(keys, dtype=np.int64),
                                                     _MULTIPLIERS[0], bits)))
    if candidates.size == 0:
        return out
    ordered_at = candidates[np.argsort(keys[candidates], kind="stable")]
    ordered = keys[ordered_at]
    slot = np.minimum(np.searchsorted(ordered, queries), ordered.size - 1)
    match = ordered[slot] == queries
    out[match] = key_times[ordered_at[slot[match]]]
    return out

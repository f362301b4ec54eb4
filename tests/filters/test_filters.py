"""The standard BloomFilter: no false negatives, the measured rate, batch = scalar, set algebra, bad input."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bloomviz.filters import persist
from bloomviz.filters import rows as filter_rows
from bloomviz.filters import batch_paths, bitstore

from bloomviz.hashing import schemes as hashing
from bloomviz.filters.standard import BloomFilter
from bloomviz.hashing.schemes import SCHEMES
from bloomviz.items.encoding import random_items

SCHEME_IDS = sorted(SCHEMES)
SPECIAL = ["", "\x00", "a\x00b", "😀", "\ud800", "x\udfffy", b"", b"\x00", b"\xff\xfe", "héllo"]
item_values = st.one_of(st.text(), st.binary(), st.sampled_from(SPECIAL))


# --- no false negatives -----------------------------------------------------------------------------------
@pytest.mark.parametrize("scheme", SCHEME_IDS)
@given(values=st.lists(item_values, min_size=1, max_size=25), m=st.integers(1, 5000), k=st.integers(1, 12))
@settings(max_examples=25, deadline=None)
def test_no_false_negatives_add_and_update(scheme, values, m, k):
    one = BloomFilter(m, k, scheme=scheme)
    for v in values:
        one.add(v)
    batch = BloomFilter(m, k, scheme=scheme)
    batch.update(values)
    for flt in (one, batch):
        assert all(v in flt for v in values)
        assert all(flt.lookup(v).maybe_present for v in values)
        assert flt.contains_many(values).all()
    assert one == batch
    assert len(one) == len(batch) == len(values)


@pytest.mark.parametrize("scheme", SCHEME_IDS)
def test_no_false_negatives_special_items(scheme):
    flt = BloomFilter(4096, 5, scheme=scheme)
    flt.update(SPECIAL)
    assert flt.contains_many(SPECIAL).all()
    assert all(x in flt for x in SPECIAL)
    # str and its UTF-8 bytes are the same item.
    assert "héllo".encode() in flt and "\ud800".encode("utf-8", "surrogatepass") in flt


# --- measured rate against theory -------------------------------------------------------------------------
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_default_scheme_rate_within_5_sigma_of_binomial(seed):
    m, k, n, probes = 30_000, 5, 3_000, 40_000
    flt = BloomFilter(m, k)
    flt.update(random_items(n, seed=seed, prefix="in"))
    q = (flt.bits_set / flt.m) ** k  # a fresh item's chance of k set bits, given the fill
    hits = int(flt.contains_many(random_items(probes, seed=seed, prefix="out")).sum())
    sd = math.sqrt(probes * q * (1 - q))
    assert abs(hits - probes * q) <= 5 * sd, (hits, probes * q, sd)
    assert flt.expected_fp == pytest.approx(q)


# --- scalar and batch paths agree -------------------------------------------------------------------------
@pytest.mark.parametrize("scheme", SCHEME_IDS)
@given(values=st.lists(item_values, max_size=20), m=st.integers(1, 2 ** 22), k=st.integers(1, 64))
@settings(max_examples=20, deadline=None)
def test_positions_many_rows_are_positions(scheme, values, m, k):
    # (m up to 2**34 is covered scheme by scheme in test_hashing without allocating the bits.)
    flt = BloomFilter(m, k, scheme=scheme)
    rows = flt.positions_many(values)
    assert rows.shape == (len(values), k) and rows.dtype == np.int64
    for v, row in zip(values, rows):
        assert tuple(row) == flt.positions(v)
        assert all(0 <= p < m for p in row)


@pytest.mark.parametrize("scheme", SCHEME_IDS)
def test_contains_many_equals_in_for_members_and_strangers(scheme):
    flt = BloomFilter(3000, 4, scheme=scheme)
    flt.update(random_items(500, seed=5))
    probe = random_items(2000, seed=6) + SPECIAL + [b"bytes", "mixed"]
    assert list(flt.contains_many(probe)) == [x in flt for x in probe]
    assert list(flt.contains_many(probe[:40])) == [x in flt for x in probe[:40]]  # str-only batch


def test_update_returns_bits_newly_set_and_insert_reports_them():
    flt = BloomFilter(1000, 6)
    ins = flt.add("a")
    assert len(ins.positions) == 6 and len(ins.newly_set) == 6
    assert sum(ins.newly_set) == len(set(ins.positions)) == flt.bits_set
    again = flt.add("a")
    assert not again.changed and len(flt) == 2
    before = flt.bits_set
    newly = flt.update(["b", "c", "d"])
    assert newly == flt.bits_set - before
    assert flt.bits_set == flt.bits.count()


def test_lookup_reports_bits_and_zero_positions():
    flt = BloomFilter(100_000, 4)
    flt.add("x")
    look = flt.lookup("never-inserted")
    assert look.bits == tuple(flt.bits[p] for p in look.positions)
    assert set(look.zero_positions) == {p for p, b in zip(look.positions, look.bits) if b == 0}
    assert not look.maybe_present and look.zero_positions
    hit = flt.lookup("x")
    assert hit.maybe_present and hit.zero_positions == ()


@pytest.mark.parametrize("m, n", [(1 << 20, 50), (1 << 20, 200_000), (3000, 10), (13, 40)])
def test_batch_bit_setting_sets_exactly_the_positions_and_counts_them(m, n):
    # (the one compiled pass replaced a dense mask for large batches and a scatter with read-back for small)
    values = random_items(n, seed=n)
    batch = BloomFilter(m, 3)
    batch.update(values)
    rows = batch.positions_many(values)
    expect = np.zeros(m, dtype=np.uint8)
    expect[rows.ravel()] = 1
    np.testing.assert_array_equal(bitstore.unpack(batch.bits), expect)
    assert batch.bits_set == int(expect.sum())


def test_insert_positions_and_test_positions():
    flt = BloomFilter(500, 3)
    rows = flt.positions_many(["a", "b"])
    assert filter_rows.insert_rows(flt, rows) == len(set(rows.ravel()))
    assert len(flt) == 2 and filter_rows.test_rows(flt, rows).all()
    with pytest.raises(ValueError, match="n x 3"):
        filter_rows.insert_rows(flt, np.zeros((2, 4), dtype=np.int64))
    with pytest.raises(ValueError, match=r"\[0, 500\)"):
        filter_rows.insert_rows(flt, np.array([[0, 1, 500]]))
    assert filter_rows.test_rows(flt, np.empty((0, 3), dtype=np.int64)).shape == (0,)


def test_empty_batches():
    flt = BloomFilter(64, 2)
    assert flt.update([]) == 0 and len(flt) == 0
    assert flt.contains_many([]).shape == (0,)
    assert flt.positions_many([]).shape == (0, 2)


# --- derived quantities -----------------------------------------------------------------------------------
def test_estimated_count_is_inf_when_full_and_close_at_moderate_fill():
    full = BloomFilter(64, 3)
    full.update(random_items(2000, seed=1))
    assert full.bits_set == 64
    assert full.estimated_count == math.inf
    assert (full.bits_set / full.m) == 1.0 and full.expected_fp == 1.0

    flt = BloomFilter(200_000, 5)
    flt.update(random_items(20_000, seed=2))
    assert flt.estimated_count == pytest.approx(20_000, rel=0.05)
    assert BloomFilter(10, 2).estimated_count == 0.0


def test_for_capacity_uses_the_textbook_design():
    flt = BloomFilter.for_capacity(1_000_000, 0.01)
    assert (flt.k, flt.m) == (7, math.ceil(-1_000_000 * math.log(0.01) / math.log(2) ** 2))
    assert flt.scheme == hashing.DEFAULT_SCHEME
    assert BloomFilter.for_capacity(100, 0.1, scheme="murmur-fnv").scheme == "murmur-fnv"


def test_memory_is_m_over_8_bytes():
    flt = BloomFilter(9_585_059, 7)
    assert flt.nbytes() == math.ceil(9_585_059 / 8)
    assert len(flt.bits) == 9_585_059


# --- bad arguments ----------------------------------------------------------------------------------------
# The documented kinds (bloomviz.theory.validate): a value of the right kind out of range is a ValueError; a
# value of the wrong kind (bool, str, None, any float where an integer is needed) is a TypeError.
@pytest.mark.parametrize("m, error", [(0, ValueError), (-1, ValueError), (2 ** 34 + 1, ValueError),
                                      (1.5, TypeError), (True, TypeError), ("x", TypeError),
                                      (float("nan"), TypeError), (None, TypeError), (float("inf"), TypeError),
                                      (100.0, TypeError)])
def test_bad_m_is_refused_naming_the_value(m, error):
    with pytest.raises(error, match="m must be") as err:
        BloomFilter(m, 3)
    assert _names(m, str(err.value))


@pytest.mark.parametrize("k, error", [(0, ValueError), (65, ValueError), (-3, ValueError), (2.5, TypeError),
                                      (False, TypeError), ("7", TypeError), (None, TypeError)])
def test_bad_k_is_refused_naming_the_value(k, error):
    with pytest.raises(error, match="k must be") as err:
        BloomFilter(100, k)
    assert _names(k, str(err.value))


def _names(value, message: str) -> bool:
    return repr(value) in message or str(value) in message


def test_limits_are_accepted():
    assert BloomFilter(1, 1).m == 1
    assert BloomFilter(100, 64).k == 64
    assert BloomFilter(np.int64(100), np.int32(3)).m == 100


def test_unknown_scheme_is_refused():
    with pytest.raises(ValueError, match="nope"):
        BloomFilter(100, 3, scheme="nope")


@pytest.mark.parametrize("bad", [1, 2.5, None, ("a",), object()])
def test_non_items_raise_type_error_and_change_nothing(bad):
    flt = BloomFilter(1000, 3)
    flt.add("kept")
    snapshot = flt.copy()
    for op in (flt.add, flt.lookup, flt.positions, flt.__contains__):
        with pytest.raises(TypeError):
            op(bad)
    for op in (flt.update, flt.contains_many, flt.positions_many):
        with pytest.raises(TypeError):
            op(["fine", bad])
    with pytest.raises(TypeError):
        flt.update("a single string")
    assert flt == snapshot and len(flt) == 1


# --- set algebra, copies, persistence hooks ---------------------------------------------------------------
def test_union_equals_the_filter_of_all_items():
    a_items, b_items = random_items(300, seed=1), random_items(400, seed=2)
    a, b, both = BloomFilter(5000, 4), BloomFilter(5000, 4), BloomFilter(5000, 4)
    a.update(a_items)
    b.update(b_items)
    both.update(a_items + b_items)
    union = a | b
    assert union.bits == both.bits and union.bits_set == both.bits_set
    assert len(union) == len(a) + len(b)
    assert union.contains_many(a_items + b_items).all()


def test_intersection_is_the_and_of_bits_and_covers_the_common_items():
    common = random_items(100, seed=3)
    a, b, only = BloomFilter(8000, 4), BloomFilter(8000, 4), BloomFilter(8000, 4)
    a.update(common + random_items(200, seed=4))
    b.update(common + random_items(200, seed=5))
    only.update(common)
    inter = a & b
    assert inter.bits == (a.bits & b.bits)
    assert (inter.bits | only.bits) == inter.bits  # every bit of the common items survives
    assert inter.contains_many(common).all()
    assert a.bits_set == a.bits.count()  # operands untouched


@pytest.mark.parametrize("other, name", [(BloomFilter(101, 3), "m"), (BloomFilter(100, 4), "k"),
                                         (BloomFilter(100, 3, scheme="weak-shift"), "scheme")])
def test_union_and_intersection_refuse_different_parameters_naming_which(other, name):
    base = BloomFilter(100, 3)
    for op in (base.__or__, base.__and__):
        with pytest.raises(ValueError, match=f"differ in {name}"):
            op(other)


def test_combining_with_a_non_filter_is_a_type_error():
    with pytest.raises(TypeError):
        BloomFilter(100, 3) | {"a"}


def test_copy_is_independent_and_clear_empties():
    flt = BloomFilter(500, 3)
    flt.update(["a", "b"])
    dup = flt.copy()
    assert dup == flt and dup.bits is not flt.bits
    dup.add("c")
    assert dup != flt and len(flt) == 2 and len(dup) == 3
    flt.clear()
    assert len(flt) == 0 and flt.bits_set == 0 and flt.bits.count() == 0
    assert dup.contains_many(["a", "b", "c"]).all()


def test_state_round_trip_and_refusals():
    flt = BloomFilter(1001, 4, scheme="murmur-fnv")
    flt.update(random_items(100, seed=8))
    back = persist.from_state(BloomFilter, flt.m, flt.k, flt.scheme, len(flt), persist.params_of(flt),
                              persist.payload_of(flt))
    assert back == flt and back.bits_set == flt.bits_set
    assert persist.params_of(flt) == {}
    with pytest.raises(ValueError, match="bytes"):
        persist.from_state(BloomFilter, 1001, 4, "murmur-fnv", 0, {}, b"\x00" * 10)
    padded = bytearray(persist.payload_of(flt))
    padded[-1] |= 0x80  # bit 1007 lies past m = 1001
    with pytest.raises(ValueError, match="padding"):
        persist.from_state(BloomFilter, 1001, 4, "murmur-fnv", 0, {}, bytes(padded))


@pytest.mark.parametrize("scheme", ["murmur3-mix", "murmur3-km", "sha256-salted"])   # the last: no halves
def test_a_batch_of_str_is_hashed_whole_before_any_bit_and_a_bad_item_late_changes_nothing(scheme):
    # str batches skip the separate type pass (hashing checks the types): a bad item in the last of several
    # chunks must still leave the filter as it was, and mixed str/bytes batches take the checked path
    from bloomviz.filters import standard
    from bloomviz.items.encoding import random_items
    items = random_items(batch_paths.COLUMN_BATCH * 2 + 5, seed=3, prefix="i")
    flt = BloomFilter(50_000, 5, scheme=scheme)
    flt.update(items[:10])
    before = flt.copy()
    with pytest.raises(TypeError, match="int"):
        flt.update(items + [7])
    assert flt == before and len(flt) == 10 and flt.bits_set == flt.bits.count()
    one_by_one = BloomFilter(50_000, 5, scheme=scheme)
    for item in items[:300]:
        one_by_one.add(item)
    batch = BloomFilter(50_000, 5, scheme=scheme)
    assert batch.update(items[:300]) == one_by_one.bits_set == batch.bits_set
    assert batch == one_by_one
    assert batch.contains_many(items[:300] + ["never", b"never"]).tolist()[:300] == [True] * 300
    mixed = items[:100] + [item.encode() for item in items[100:300]]
    other = BloomFilter(50_000, 5, scheme=scheme)
    other.update(mixed)
    assert other == one_by_one and other.contains_many(mixed).all()


def test_positions_of_a_str_list_equal_the_checked_paths_and_a_bad_item_names_itself():
    from bloomviz.items.encoding import random_items
    flt = BloomFilter(10_007, 6)
    items = random_items(500, seed=8, prefix="i")
    rows = flt.positions_many(items)
    assert rows.tolist() == [list(flt.positions(x)) for x in items]
    assert np.array_equal(flt.positions_many(tuple(items)), rows)                 # not a list: checked path
    assert np.array_equal(flt.positions_many(items[:3] + [items[3].encode()]), rows[:4])
    with pytest.raises(TypeError, match="must be str or bytes"):
        flt.positions_many(items + [None])

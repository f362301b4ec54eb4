"""What every Bloom filter variant shares (no false negatives, batches, state, copies, set algebra, bad
items), the registry and its messages; each variant's own rules are in test_variant_rules.py."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bloomviz.filters import persist
from bloomviz.filters import rows as filter_rows
from bloomviz.hashing import schemes as hashing

from bloomviz.theory import rates as theory
from bloomviz.explain import variants as variant_words
from bloomviz.items.encoding import random_items, to_bytes
from bloomviz.filters.capabilities import grid_values
from bloomviz.filters.registry import PARAMETERS, REQUIRED, VARIANTS, make_filter
from bloomviz.filters.blocked import BlockedBloomFilter, blocked_fp
from bloomviz.filters.counting import CountingBloomFilter
from bloomviz.filters.partitioned import PartitionedBloomFilter, partitioned_fp
from bloomviz.filters.scalable import ScalableBloomFilter
from bloomviz.filters.scalable_stages import scalable_fp

SCHEMES = sorted(hashing.SCHEMES)

SMALL = {
    "standard": dict(m=2000, k=5),
    "counting": dict(m=2000, k=5),
    "scalable": dict(initial_capacity=40, p=0.05),
    "partitioned": dict(m=2000, k=7),
    "blocked": dict(m=2048, k=5),
}

items_strategy = st.lists(st.one_of(st.text(max_size=20), st.binary(max_size=20)), max_size=40)
few = settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])


# --- every variant ------------------------------------------------------------------------------------------

@pytest.mark.parametrize("variant", list(VARIANTS))
@few
@given(items=items_strategy, scheme=st.sampled_from(SCHEMES))
def test_no_false_negatives(variant, items, scheme):
    flt = make_filter(variant, scheme=scheme, **SMALL[variant])
    half = len(items) // 2
    for it in items[:half]:
        flt.add(it)
    flt.update(items[half:])
    assert len(flt) == len(items)
    assert all(it in flt for it in items)
    assert all(flt.lookup(it).maybe_present for it in items)
    assert flt.contains_many(items).all()


@pytest.mark.parametrize("variant", list(VARIANTS))
@pytest.mark.parametrize("scheme", SCHEMES)
def test_scalar_and_batch_positions_agree_and_lie_in_grid(variant, scheme):
    flt = make_filter(variant, scheme=scheme, **SMALL[variant])
    flt.update(random_items(200, seed=3))  # a scalable filter then has several stages
    probe = random_items(50, seed=4) + ["", "\0", "😀", "\ud800", b"\xff"]
    batch = flt.positions_many(probe)
    assert batch.dtype == np.int64
    for row, it in zip(batch, probe):
        assert tuple(int(x) for x in row) == flt.positions(it) == flt.lookup(it).positions
    assert batch.min() >= 0 and batch.max() < flt.m
    assert list(filter_rows.test_rows(flt, batch)) == [it in flt for it in probe] == list(flt.contains_many(probe))


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_update_equals_add_loop(variant):
    items = random_items(300, seed=11)
    a, b = make_filter(variant, **SMALL[variant]), make_filter(variant, **SMALL[variant])
    for it in items:
        a.add(it)
    b.update(items)
    assert a == b
    assert a.bits_set == b.bits_set


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_state_round_trip(variant):
    flt = make_filter(variant, **SMALL[variant])
    flt.update(random_items(250, seed=5))
    params = persist.params_of(flt)
    assert all(type(v) in (int, float) for v in params.values())
    back = persist.from_state(VARIANTS[variant], flt.m, flt.k, flt.scheme, len(flt), params, persist.payload_of(flt))
    assert back == flt
    assert back.variant == flt.variant == variant
    np.testing.assert_array_equal(grid_values(back), grid_values(flt))


@pytest.mark.parametrize("variant", [v for v in VARIANTS if v != "standard"])
def test_state_refuses_wrong_payload_length(variant):
    flt = make_filter(variant, **SMALL[variant])
    flt.update(random_items(100, seed=5))
    payload = persist.payload_of(flt)
    for bad in (payload[:-1], payload + b"\0"):
        with pytest.raises(ValueError, match="payload"):
            persist.from_state(VARIANTS[variant], flt.m, flt.k, flt.scheme, len(flt), persist.params_of(flt), bad)


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_grid_values_match_membership(variant):
    flt = make_filter(variant, **SMALL[variant])
    items = random_items(150, seed=8)
    flt.update(items)
    values = grid_values(flt)
    assert values.dtype == np.uint8 and values.shape == (flt.m,)
    assert int(np.count_nonzero(values)) == flt.bits_set
    for it in items[:20]:
        assert all(values[p] > 0 for p in (flt.lookup(it).stage_positions(flt.lookup(it).stage)
                                           if variant == "scalable" else flt.positions(it)))


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_copy_and_clear(variant):
    flt = make_filter(variant, **SMALL[variant])
    flt.update(random_items(120, seed=1))
    dup = flt.copy()
    assert dup == flt
    dup.add("one more")
    assert dup != flt and len(flt) == 120
    flt.clear()
    assert len(flt) == 0 and flt.bits_set == 0
    assert not flt.contains_many(random_items(50, seed=1)).any()
    assert flt == make_filter(variant, **SMALL[variant])


@pytest.mark.parametrize("variant", [v for v in VARIANTS if v != "scalable"])
def test_union_equals_filter_of_union(variant):
    items_a = random_items(150, seed=21)
    items_b = random_items(150, seed=22) + items_a[:40]  # overlapping sets
    a, b = make_filter(variant, **SMALL[variant]), make_filter(variant, **SMALL[variant])
    a.update(items_a)
    b.update(items_b)
    union = a | b
    built = make_filter(variant, **SMALL[variant])
    if variant == "counting":
        built.update(items_a + items_b)  # counters of both insert streams: the multiset union
        np.testing.assert_array_equal(union.counters, built.counters)
    else:
        built.update(sorted(set(items_a) | set(items_b)))
    assert union.bits == built.bits
    assert union.bits == (a.bits | b.bits)
    assert len(union) == len(a) + len(b)
    inter = a & b
    assert inter.bits == (a.bits & b.bits)
    assert all(x in inter for x in items_a[:40])  # common items survive an intersection


def test_scalable_refuses_set_algebra():
    a, b = make_filter("scalable", **SMALL["scalable"]), make_filter("scalable", **SMALL["scalable"])
    with pytest.raises(TypeError, match="not defined for scalable"):
        a | b
    with pytest.raises(TypeError, match="not defined for scalable"):
        a & b


@pytest.mark.parametrize("variant, other", [
    ("counting", dict(m=2000, k=5, counter_bits=3)),
    ("blocked", dict(m=2048, k=5, block_bits=256)),
    ("partitioned", dict(m=2100, k=7)),
    ("partitioned", dict(m=2000, k=7, scheme="murmur-fnv")),
])
def test_union_refuses_mismatched_parameters(variant, other):
    a, b = make_filter(variant, **SMALL[variant]), make_filter(variant, **other)
    with pytest.raises(ValueError, match="differ in"):
        a | b
    with pytest.raises(ValueError, match=f"cannot combine a {variant} filter with a standard"):
        a | make_filter("standard", m=a.m, k=a.k)


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_bad_items_change_nothing(variant):
    flt = make_filter(variant, **SMALL[variant])
    flt.update(random_items(60, seed=2))
    before = flt.copy()
    with pytest.raises(TypeError, match="str or bytes"):
        flt.update(["fine"] * 10_000 + [3])  # enough items to open stages of a scalable filter
    with pytest.raises(TypeError, match="str or bytes"):
        flt.add(4.5)
    assert flt == before


# --- the registry -------------------------------------------------------------------------------------------

@pytest.mark.parametrize("variant", list(VARIANTS))
def test_make_filter_builds_each_variant(variant):
    flt = make_filter(variant, scheme="murmur3-enhanced", **SMALL[variant])
    assert type(flt) is VARIANTS[variant] and flt.variant == variant
    assert flt.scheme == "murmur3-enhanced"
    # None stands for "use the default", as a command line without the option gives it.
    optional = {name: None for name, d in PARAMETERS[variant].items() if d is not REQUIRED}
    assert make_filter(variant, **SMALL[variant], **optional) == make_filter(variant, **SMALL[variant])


def test_make_filter_messages():
    with pytest.raises(ValueError, match="'bogus'.*known variants: standard, counting"):
        make_filter("bogus", m=10, k=2)
    with pytest.raises(ValueError, match="unknown parameter 'counter_bits' for a standard filter"):
        make_filter("standard", m=100, k=3, counter_bits=4)
    with pytest.raises(ValueError, match="a scalable filter needs p"):
        make_filter("scalable", initial_capacity=100)
    with pytest.raises(ValueError, match="growth must be 2 or 4, got 3"):
        make_filter("scalable", initial_capacity=100, p=0.01, growth=3)
    assert make_filter("counting", m=100, k=3, counter_bits=2).max_counter == 3


def test_one_theory_name_at_one_n_or_many():
    n = 300
    assert make_filter("standard", m=2000, k=5).theory_fp(n) == pytest.approx(theory.fp_exact(2000, 5, n))
    assert make_filter("partitioned", m=2000, k=5).theory_fp(n) == pytest.approx(partitioned_fp(2000, 5, n))
    assert make_filter("blocked", m=2048, k=5).theory_fp(n) == pytest.approx(blocked_fp(2048, 5, n))
    assert make_filter("scalable", initial_capacity=40, p=0.05).theory_fp(n) == \
        pytest.approx(scalable_fp(40, 0.05, n))
    for vid in VARIANTS:
        flt = make_filter(vid, **SMALL[vid])
        flt.update(random_items(20, seed=1))
        one, many = flt.theory_fp(), flt.theory_fp(np.array([0.0, len(flt)]))
        assert isinstance(one, float) and many.shape == (2,) and many[1] == pytest.approx(one) and many[0] == 0
        assert not any(hasattr(flt, name) for name in ("theory_at", "theory_curve"))


# --- bad arguments ------------------------------------------------------------------------------------------

@pytest.mark.parametrize("make, shown", [
    (lambda: CountingBloomFilter(100, 3, counter_bits=0), "got 0"),
    (lambda: CountingBloomFilter(100, 3, counter_bits=9), "got 9"),
    (lambda: CountingBloomFilter(100, 3, counter_bits=True), "got True"),
    (lambda: CountingBloomFilter(100, 3, counter_bits=4.0), "got 4.0"),
    (lambda: CountingBloomFilter(2 ** 32, 3), "m=4294967296"),
    (lambda: ScalableBloomFilter(100, 0.01, growth=3), "got 3"),
    (lambda: ScalableBloomFilter(100, 0.01, growth="2"), "got '2'"),
    (lambda: ScalableBloomFilter(100, 0.01, tightening=0.4), "got 0.4"),
    (lambda: ScalableBloomFilter(100, 0.01, tightening=0.96), "got 0.96"),
    (lambda: ScalableBloomFilter(100, 0.01, tightening=float("nan")), "got nan"),
    (lambda: ScalableBloomFilter(100, 0.01, tightening=True), "got True"),
    (lambda: ScalableBloomFilter(0, 0.01), "0"),
    (lambda: ScalableBloomFilter(100, 1.5), "1.5"),
    (lambda: ScalableBloomFilter(10 ** 10, 1e-9), "needs m="),
    (lambda: PartitionedBloomFilter(5, 7), "m=5 is smaller than k=7"),
    (lambda: PartitionedBloomFilter(0, 2), "0"),
    (lambda: BlockedBloomFilter(1024, 3, block_bits=500), "got 500"),
    (lambda: BlockedBloomFilter(1024, 3, block_bits=32), "got 32"),
    (lambda: BlockedBloomFilter(1024, 65), "65"),
    (lambda: BlockedBloomFilter(1024, 3, scheme="nope"), "'nope'"),
])
def test_bad_arguments_name_the_value(make, shown):
    with pytest.raises(ValueError) as info:
        make()
    assert shown in str(info.value)


@pytest.mark.parametrize("variant, word", [("scalable", "stage 1"), ("partitioned", "slice"), ("blocked", "block")])
def test_explain_states_the_variant_rule(variant, word):
    flt = make_filter(variant, **SMALL[variant])
    flt.update(random_items(60, seed=3))
    rows = variant_words.hash_rows(flt, to_bytes("hello"))
    assert all(isinstance(a, str) and isinstance(b, str) for a, b in rows)
    assert any(word in label for label, _ in rows)
    if variant == "scalable":
        assert len(rows) == 1 + len(flt.stages)
        assert rows[-1][1] == ", ".join(map(str, flt.lookup("hello").stage_positions(len(flt.stages) - 1)))
    if variant == "blocked":
        assert str(flt.block_of("hello")) in " ".join(v for _, v in rows)

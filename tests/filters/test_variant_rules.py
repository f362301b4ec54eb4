"""Each variant's own rules: counting (saturation, removal, false negatives, packing), scalable (stages,
capacity, rate under p), partitioned (slices) and blocked (blocks), against their closed forms and measurements.
(What every variant shares, and the registry, are in test_variants.py.)"""

from __future__ import annotations

import math
from collections import Counter

import numpy as np
import pytest

from bloomviz.filters import persist
from bloomviz.hashing import schemes as hashing

from bloomviz.theory import rates as theory
from bloomviz.items.encoding import random_items
from bloomviz.filters.blocked import BlockedBloomFilter, blocked_fp, blocked_fp_curve
from bloomviz.filters.counting import CountingBloomFilter
from bloomviz.filters.partitioned import PartitionedBloomFilter, partitioned_fp
from bloomviz.filters.scalable import ScalableBloomFilter, ScalableLookup
from bloomviz.filters.scalable_stages import scalable_fp

SCHEMES = sorted(hashing.SCHEMES)


def five_sd(measured_hits: int, probes: int, p: float) -> float:
    """How many standard deviations a hit count lies from Binomial(probes, p)."""
    sd = math.sqrt(probes * p * (1 - p))
    return abs(measured_hits - probes * p) / sd


# --- counting -----------------------------------------------------------------------------------------------

def test_counting_counters_saturate_and_stay_saturated():
    flt = CountingBloomFilter(500, 4, counter_bits=2)
    item = "popular"
    occurrences = Counter(flt.positions(item))
    for _ in range(10):
        flt.add(item)
    assert flt.max_counter == 3
    for p in occurrences:
        assert flt.counter(p) == 3
    assert flt.saturated_count == len(occurrences) and flt.highest_counter == 3
    for _ in range(10):
        removal = flt.remove(item)
        assert removal.after == removal.before == (3,) * len(removal.positions)
        assert set(removal.stuck) == set(occurrences) and removal.cleared == () and not removal.changed
    assert item in flt and all(flt.counter(p) == 3 for p in occurrences)


def test_counting_saturation_batch_equals_scalar():
    items = random_items(600, seed=9)
    a = CountingBloomFilter(64, 3, counter_bits=3)   # heavily overloaded: many counters saturate
    b = CountingBloomFilter(64, 3, counter_bits=3)
    for it in items:
        a.add(it)
    b.update(items)
    assert a.saturated_count > 10
    np.testing.assert_array_equal(a.counters, b.counters)
    # Brute force: each counter is min(number of hash hits, 7).
    hits = Counter(p for it in items for p in a.positions(it))
    expected = np.array([min(hits.get(i, 0), 7) for i in range(64)], dtype=np.uint8)
    np.testing.assert_array_equal(a.counters, expected)


def test_counting_add_then_remove_everything_restores_empty():
    items = random_items(200, seed=12)
    flt = CountingBloomFilter(3000, 5, counter_bits=8)
    flt.update(items)
    assert flt.highest_counter < 255
    for it in items:
        removal = flt.remove(it)
        assert all(a <= b for a, b in zip(removal.after, removal.before))
    assert flt == CountingBloomFilter(3000, 5, counter_bits=8)
    assert flt.bits_set == 0 and not flt.bits.any()


def test_counting_remove_refuses_definitely_absent_and_changes_nothing():
    flt = CountingBloomFilter(1000, 4)
    flt.update(random_items(30, seed=1))
    before = flt.copy()
    absent = next(x for x in random_items(500, seed=2) if x not in flt)
    for force in (False, True):
        with pytest.raises(ValueError, match=f"cannot remove '{absent}'.*definitely not in the filter"):
            flt.remove(absent, force=force)
    assert flt == before


def test_counting_remove_records_positions_and_cleared_bits():
    flt = CountingBloomFilter(1000, 4)
    flt.add("alpha")
    flt.add("beta")
    removal = flt.remove("alpha")
    assert removal.item == "alpha" and removal.positions == flt.positions("alpha") and not removal.forced
    assert removal.before == tuple(Counter(flt.positions("alpha") + flt.positions("beta"))[p]
                                   for p in removal.positions)
    assert set(removal.cleared) == {p for p in removal.positions if p not in flt.positions("beta")}
    assert all(not flt.bits[p] and flt.counter(p) == 0 for p in removal.cleared)
    assert "beta" in flt and len(flt) == 1


def test_counting_forced_removal_of_a_false_positive_causes_a_false_negative():
    members = random_items(12, seed=31)
    flt = CountingBloomFilter(48, 3)
    flt.update(members)
    # A never-inserted item that passes the lookup and shares a counter of 1 with exactly one member.
    ghost = next(x for x in random_items(20_000, seed=32, exclude=members)
                 if x in flt and any(flt.counter(p) == 1 for p in flt.positions(x)))
    removal = flt.remove(ghost, force=True)
    assert removal.forced and removal.cleared
    victims = [x for x in members if x not in flt]
    assert victims, "removing a false positive must knock out a real member"
    for x in victims:
        assert set(flt.lookup(x).zero_positions) & set(removal.cleared)
    assert len(flt) == 12      # the ghost was never one of the 12 held items: a forced removal keeps the count
    flt.remove(members[0])
    assert len(flt) == 11


def test_counting_counters_are_read_only_and_indices_checked():
    flt = CountingBloomFilter(100, 3)
    flt.add("x")
    with pytest.raises(ValueError):
        flt.counters[0] = 9
    with pytest.raises(ValueError, match="got 100"):
        flt.counter(100)
    with pytest.raises(ValueError, match="got -1"):
        flt.counter(-1)
    look = flt.lookup("x")
    assert look.counters == tuple(flt.counter(p) for p in look.positions) and look.maybe_present


@pytest.mark.parametrize("counter_bits", range(1, 9))
def test_counting_payload_packs_counters(counter_bits):
    flt = CountingBloomFilter(1001, 3, counter_bits=counter_bits)
    flt.update(random_items(900, seed=counter_bits))
    payload = persist.payload_of(flt)
    assert len(payload) == (1001 * counter_bits + 7) // 8
    back = persist.from_state(CountingBloomFilter, 1001, 3, flt.scheme, len(flt), {"counter_bits": counter_bits},
                              payload)
    np.testing.assert_array_equal(back.counters, flt.counters)
    assert back.bits == flt.bits and back == flt
    if (1001 * counter_bits) % 8:
        bad = payload[:-1] + bytes([payload[-1] | 0x80])
        with pytest.raises(ValueError, match="padding"):
            persist.from_state(CountingBloomFilter, 1001, 3, flt.scheme, len(flt), {"counter_bits": counter_bits}, bad)


def test_counting_from_state_checks_params():
    flt = CountingBloomFilter(100, 3)
    for params, msg in (({}, "lack counter_bits"), ({"counter_bits": 4, "x": 1}, "unknown names"),
                        ({"counter_bits": 12}, "got 12")):
        with pytest.raises(ValueError, match=msg):
            persist.from_state(CountingBloomFilter, 100, 3, flt.scheme, 0, params, persist.payload_of(flt))


def test_counting_union_saturates_and_intersection_takes_min():
    a, b = CountingBloomFilter(40, 3, counter_bits=2), CountingBloomFilter(40, 3, counter_bits=2)
    a.update(random_items(30, seed=1))
    b.update(random_items(30, seed=2))
    np.testing.assert_array_equal((a | b).counters,
                                  np.minimum(a.counters.astype(int) + b.counters, 3))
    np.testing.assert_array_equal((a & b).counters, np.minimum(a.counters, b.counters))


# --- scalable -----------------------------------------------------------------------------------------------

@pytest.mark.parametrize("growth, tightening", [(2, 0.9), (4, 0.5), (2, 0.8)])
def test_scalable_stages_grow_as_specified(growth, tightening):
    initial, p = 100, 0.01
    flt = ScalableBloomFilter(initial, p, growth=growth, tightening=tightening)
    stages_wanted = 4
    total = sum(initial * growth ** i for i in range(stages_wanted - 1))
    flt.update(random_items(total, seed=1))
    assert len(flt.stages) == stages_wanted - 1
    assert flt.add("first of the next stage").new_stage
    assert len(flt.stages) == stages_wanted
    offsets = flt.stages.offsets
    for i, (stage, spec) in enumerate(zip(flt.stages, flt.stages.specs)):
        assert spec.capacity == initial * growth ** i
        assert spec.error == pytest.approx(p * (1 - tightening) * tightening ** i)
        k_opt, m_opt = theory.optimal_params(spec.capacity, spec.error)
        assert stage.k == spec.k == k_opt
        assert m_opt <= stage.m == spec.m <= m_opt * 1.01
        assert theory.fp_exact(stage.m, stage.k, spec.capacity) <= spec.error
        assert offsets[i] == sum(s.m for s in flt.stages[:i])
        assert len(stage) == (spec.capacity if i < stages_wanted - 1 else 1)
    assert flt.m == sum(s.m for s in flt.stages)
    assert flt.k == flt.stages[-1].k and flt.stages.ks == tuple(s.k for s in flt.stages)
    assert sum(s.error for s in flt.stages.specs) < p
    assert theory.scalable_fp_bound(flt.stages.specs[0].error, tightening) == pytest.approx(p, rel=1e-12)


def test_scalable_opens_a_stage_exactly_at_capacity():
    flt = ScalableBloomFilter(5, 0.01)
    inserted = [flt.add(f"item{i}") for i in range(5 + 10 + 1)]
    assert [ins.stage for ins in inserted] == [0] * 5 + [1] * 10 + [2]
    assert [i for i, ins in enumerate(inserted) if ins.new_stage] == [5, 15]
    for ins in inserted:
        off = flt.stages.offsets[ins.stage]
        assert ins.offset == off and ins.positions == tuple(off + p for p in ins.local_positions)
        assert all(off <= p < off + flt.stages[ins.stage].m for p in ins.positions)


@pytest.mark.parametrize("tightening, seed", [(0.9, 1), (0.5, 2), (0.8, 3)])
def test_scalable_measured_rate_stays_under_p(tightening, seed):
    initial, p = 400, 0.02
    flt = ScalableBloomFilter(initial, p, tightening=tightening)
    items = random_items(initial * (1 + 2 + 4 + 8) + 700, seed=seed)
    probes = random_items(20_000, seed=seed + 100, exclude=items)
    start = 0
    for stop in (initial, initial * 3, initial * 7, initial * 15, len(items)):
        flt.update(items[start:stop])
        start = stop
        hits = int(flt.contains_many(probes).sum())
        assert hits / len(probes) < p
        expected = scalable_fp(initial, p, len(flt), tightening=tightening)
        assert five_sd(hits, len(probes), expected) < 5
    assert len(flt.stages) == 5


def test_scalable_lookup_reports_every_stage():
    flt = ScalableBloomFilter(20, 0.05)
    items = random_items(100, seed=4)
    flt.update(items)
    offsets = flt.stages.offsets
    for it in items[:30] + random_items(30, seed=5):
        look = flt.lookup(it)
        assert isinstance(look, ScalableLookup)
        assert look.maybe_present == (it in flt)
        assert len(look.positions) == len(look.bits) == len(look.stage_of) == sum(flt.stages.ks)
        values = flt.values_for_grid()
        assert look.bits == tuple(int(values[p]) for p in look.positions)
        for i, stage in enumerate(flt.stages):
            assert look.stage_positions(i) == tuple(offsets[i] + p for p in stage.positions(it))
            assert (i in look.hit_stages) == (it in stage)
        assert set(look.zero_positions) == {p for p, b in zip(look.positions, look.bits) if not b}
    member = items[50]
    assert flt.lookup(member).stage is not None


def test_scalable_from_state_rejects_inconsistent_tables():
    flt = ScalableBloomFilter(20, 0.05)
    flt.update(random_items(70, seed=4))
    args = (flt.m, flt.k, flt.scheme, len(flt), persist.params_of(flt), persist.payload_of(flt))
    assert persist.from_state(ScalableBloomFilter, *args) == flt
    with pytest.raises(ValueError, match="not count=71"):
        persist.from_state(ScalableBloomFilter, args[0], args[1], args[2], 71, args[4], args[5])
    with pytest.raises(ValueError, match="not m="):
        persist.from_state(ScalableBloomFilter, args[0] + 1, *args[1:])
    with pytest.raises(ValueError, match="stages must be"):
        persist.from_state(ScalableBloomFilter, *args[:4], dict(args[4], stages=0), args[5])
    with pytest.raises(ValueError, match="too short"):
        persist.from_state(ScalableBloomFilter, *args[:5], args[5][:10])
    with pytest.raises(ValueError, match="tightening"):
        persist.from_state(ScalableBloomFilter, *args[:4], dict(args[4], tightening=2), args[5])


# --- partitioned --------------------------------------------------------------------------------------------

def test_partitioned_rounds_m_down_to_a_multiple_of_k():
    flt = PartitionedBloomFilter(1000, 7)
    assert flt.m == 994 and flt.slice_bits == 142
    assert flt.slice_offsets() == tuple(142 * i for i in range(7))
    assert PartitionedBloomFilter(7, 7).m == 7
    with pytest.raises(ValueError, match="multiple of k"):
        persist.from_state(PartitionedBloomFilter, 1000, 7, "murmur3-km", 0, {}, bytes(125))


@pytest.mark.parametrize("scheme", SCHEMES)
def test_partitioned_one_position_per_slice(scheme):
    flt = PartitionedBloomFilter(999, 9, scheme=scheme)
    rows = flt.positions_many(random_items(300, seed=6))
    np.testing.assert_array_equal(rows // flt.slice_bits, np.broadcast_to(np.arange(9), rows.shape))


def test_partitioned_fp_by_enumeration():
    # Tiny case counted exactly: slices of s bits, n items each pick one bit per slice uniformly.
    m, k, n = 6, 2, 2
    s = m // k
    set_prob = 1 - ((s - 1) / s) ** n  # P(a fixed bit of a slice is hit by at least one of n items)
    assert partitioned_fp(m, k, n) == pytest.approx(set_prob ** k, rel=1e-12)
    assert partitioned_fp(1000, 5, 0) == 0.0
    assert partitioned_fp(5, 5, 3) == 1.0
    assert partitioned_fp(2 ** 32, 20, 4.4e8) > theory.fp_exact(2 ** 32, 20, 4.4e8)


def test_partitioned_measured_rate_matches_its_theory():
    flt = PartitionedBloomFilter(30_000, 6)
    items = random_items(4000, seed=41)
    probes = random_items(20_000, seed=42, exclude=items)
    flt.update(items)
    hits = int(flt.contains_many(probes).sum())
    assert five_sd(hits, len(probes), partitioned_fp(flt.m, flt.k, len(items))) < 5
    assert flt.estimated_count == pytest.approx(len(items), rel=0.05)
    assert flt.expected_fp == pytest.approx(partitioned_fp(flt.m, flt.k, len(items)), rel=0.15)


# --- blocked ------------------------------------------------------------------------------------------------

def test_blocked_rounds_m_up_to_whole_blocks():
    assert BlockedBloomFilter(1000, 4).m == 1024
    assert BlockedBloomFilter(1024, 4).m == 1024
    assert BlockedBloomFilter(100, 4, block_bits=64).m == 128
    with pytest.raises(ValueError, match="multiple of block_bits=512"):
        persist.from_state(BlockedBloomFilter, 1000, 4, "murmur3-km", 0, {"block_bits": 512}, bytes(125))


@pytest.mark.parametrize("scheme", SCHEMES)
def test_blocked_positions_share_one_block(scheme):
    flt = BlockedBloomFilter(8192, 7, scheme=scheme)
    items = random_items(300, seed=7)
    rows = flt.positions_many(items)
    blocks = rows // 512
    assert (blocks == blocks[:, :1]).all()
    assert [flt.block_of(it) for it in items[:50]] == list(blocks[:50, 0])
    assert len(set(blocks[:, 0])) == flt.blocks  # every block gets used


def _two_probe_rate(bits: int, positions: int) -> float:
    """P(2 independent uniform probe positions are both set) after ``positions`` uniform throws into ``bits``
    bits, from the first two factorial moments of the number X of set bits: E[X(X − 1) + X] / B²."""
    b, n = bits, positions
    ex = b * (1 - (1 - 1 / b) ** n)
    exx = b * (b - 1) * (1 - 2 * (1 - 1 / b) ** n + (1 - 2 / b) ** n)
    return (exx + ex) / b ** 2


def test_blocked_fp_against_closed_forms():
    # One block is a B-bit filter; with k = 1 the classic formula is exact.
    assert blocked_fp(512, 1, 300) == pytest.approx(1 - (1 - 1 / 512) ** 300, rel=1e-12)
    # With k = 2 the exact rate follows from the moments of the occupancy, and exceeds the classic formula.
    assert blocked_fp(512, 2, 60) == pytest.approx(_two_probe_rate(512, 120), rel=1e-9)
    assert blocked_fp(512, 2, 60) == pytest.approx(theory.fp_exact(512, 2, 60), rel=1e-12)  # one block
    assert blocked_fp(512, 2, 60) > theory.fp_classic(512, 2, 60)
    # Two blocks, by hand: load ~ Binomial(3, 1/2).
    by_hand = sum(math.comb(3, i) / 8 * _two_probe_rate(64, 2 * i) for i in range(4))
    assert blocked_fp(128, 2, 3, block_bits=64) == pytest.approx(by_hand, rel=1e-9)
    # Uneven block loads cost rate: above the standard filter at the same m, k, n (Jensen).
    assert blocked_fp(2 ** 20, 7, 100_000) > theory.fp_exact(2 ** 20, 7, 100_000) * 1.05
    # Many blocks: the Binomial load is Poisson (Putze et al.'s form).
    assert blocked_fp(2 ** 24, 7, 10 ** 6, poisson=True) == pytest.approx(blocked_fp(2 ** 24, 7, 10 ** 6),
                                                                           rel=1e-3)
    # Huge loads fall back to the classic form, still finite and ordered.
    assert 0 < blocked_fp(2 ** 34, 20, 4.4e8) < blocked_fp(2 ** 34, 20, 8.8e8) < 1
    assert blocked_fp(1024, 3, 0) == 0.0


def test_blocked_fp_curve_matches_pointwise_values():
    n = np.arange(0, 5001, 50)
    curve = blocked_fp_curve(2 ** 15, 7, n)
    np.testing.assert_allclose(curve, [blocked_fp(2 ** 15, 7, x) for x in n], rtol=1e-12)
    dense = blocked_fp_curve(2 ** 15, 7, np.arange(5001), samples=200)  # interpolated between 200 samples
    np.testing.assert_allclose(dense[n], curve, rtol=2e-3, atol=1e-9)
    assert (np.diff(dense) >= 0).all()


@pytest.mark.parametrize("block_bits", [512, 64])
def test_blocked_measured_rate_matches_its_theory(block_bits):
    flt = BlockedBloomFilter(2 ** 14, 6, block_bits=block_bits)
    items = random_items(2000, seed=51)
    probes = random_items(20_000, seed=52, exclude=items)
    flt.update(items)
    hits = int(flt.contains_many(probes).sum())
    assert five_sd(hits, len(probes), blocked_fp(flt.m, flt.k, len(items), block_bits)) < 5
    if block_bits == 64:  # small blocks: the uneven load costs far more than the noise
        assert five_sd(hits, len(probes), theory.fp_exact(flt.m, flt.k, len(items))) > 5
    assert flt.block_counts().sum() == flt.bits_set
    assert flt.estimated_count == pytest.approx(len(items), rel=0.05)

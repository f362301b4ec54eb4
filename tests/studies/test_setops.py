"""Set operations core: OR is the filter of the union, AND is a superset of the filter of the intersection."""

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from bloomviz.theory import rates as theory
from bloomviz.filters.standard import BloomFilter
from bloomviz.studies.setops import build, combine, compare_sets, distinct, parse_items, rates, sample_sets


def test_parse_items_strips_skips_blanks_and_dedupes():
    assert parse_items("apple\r\n  pear \n\n\t\napple\nfig") == ["apple", "pear", "fig"]
    assert parse_items("") == []
    with pytest.raises(TypeError, match="bytes"):
        parse_items(b"apple")


def test_sample_sets_have_the_requested_sizes_and_overlap():
    a, b = sample_sets(300, 200, 80, seed=4)
    assert len(set(a)) == 300 and len(set(b)) == 200
    assert len(set(a) & set(b)) == 80
    assert sample_sets(300, 200, 80, seed=4) == (a, b)
    assert sample_sets(300, 200, 80, seed=5) != (a, b)
    with pytest.raises(ValueError, match="overlap must be at most min.* = 200, got 201"):
        sample_sets(300, 200, 201)
    with pytest.raises(ValueError, match="count_a .* got -1"):
        sample_sets(-1, 2, 0)


@settings(max_examples=25, deadline=None)
@given(st.lists(st.text(max_size=6), max_size=40), st.lists(st.text(max_size=6), max_size=40),
       st.sampled_from(["murmur3-km", "murmur3-seeded", "weak-shift"]))
def test_union_equals_the_filter_built_from_the_union(a, b, scheme):
    fa, fb = build(a, 256, 3, scheme), build(b, 256, 3, scheme)
    union, inter = combine(fa, fb)
    assert union.bits == build(list(a) + list(b), 256, 3, scheme).bits
    both = distinct(x for x in a if x in set(b))
    # AND keeps every bit of the filter of the intersection (so no member of A ∩ B is ever rejected).
    assert (build(both, 256, 3, scheme).bits & ~inter.bits).count() == 0
    assert inter.contains_many(both).all()


def test_report_on_random_sets():
    a, b = sample_sets(1500, 1000, 400, seed=2)
    r = compare_sets(a, b, 8192, 4, probes=5000, seed=3)
    assert (r.true.a, r.true.b, r.true.union, r.true.intersection) == (1500, 1000, 2100, 400)
    assert r.union_matches and r.and_contains_true
    assert r.extra_and_bits > 0
    assert r.intersection.bits_set == r.intersection_of_items.bits_set + r.extra_and_bits
    assert r.estimated_from_and > r.true.intersection  # the AND's own bits overcount
    assert r.one_sided == 1500 + 1000 - 2 * 400
    assert r.outside_probes == 5000
    # brute force: the counts are lookups of exactly those items
    only = [x for x in a if x not in set(b)] + [x for x in b if x not in set(a)]
    assert r.fp_and_one_sided == int(np.count_nonzero(r.intersection.contains_many(only)))
    assert r.fp_true_one_sided == int(np.count_nonzero(r.intersection_of_items.contains_many(only)))
    rt = rates(r)
    # An item of exactly one set has all its bits in that set's filter: the AND accepts it far more often.
    assert rt["and_one_sided"] > 3 * rt["true_one_sided"]
    assert rt["and_expected"] > rt["true_expected"]
    assert rt["and_expected"] == pytest.approx((r.intersection.bits_set / r.intersection.m) ** 4)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_size_estimates_within_5_percent_at_moderate_fill(seed):
    a, b = sample_sets(4000, 3000, 1500, seed=seed)
    m, k = 65536, 5
    r = compare_sets(a, b, m, k, probes=0, seed=seed)
    assert 0.25 < (r.union.bits_set / r.union.m) < 0.5  # moderate fill
    for est, true in ((r.estimated.a, 4000), (r.estimated.b, 3000), (r.estimated.union, 5500),
                      (r.estimated.intersection, 1500)):
        assert abs(est - true) <= 0.05 * true, (est, true)
    assert r.estimated.intersection == pytest.approx(
        theory.estimate_intersection_from_bits(m, k, r.a.bits_set, r.b.bits_set, r.union.bits_set))


@pytest.mark.parametrize("kwargs, message", [
    ({"m_b": 1000}, r"differ in m \(1024 vs 1000\)"),
    ({"k_b": 4}, r"differ in k \(3 vs 4\)"),
    ({"scheme_b": "weak-shift"}, r"differ in scheme \('murmur3-mix' vs 'weak-shift'\)"),
])
def test_filters_with_different_parameters_are_refused(kwargs, message):
    with pytest.raises(ValueError, match=message):
        compare_sets(["x"], ["y"], 1024, 3, **kwargs)


def test_bad_arguments_are_named():
    with pytest.raises(ValueError, match="probes .* got -5"):
        compare_sets(["x"], ["y"], 1024, 3, probes=-5)
    with pytest.raises(ValueError, match="m must be"):
        compare_sets(["x"], ["y"], 0, 3)
    with pytest.raises(TypeError):
        compare_sets([1.5], ["y"], 1024, 3)


def test_empty_sides():
    r = compare_sets([], ["y", "z"], 512, 3, probes=100)
    assert r.true.intersection == 0 and r.intersection.bits_set == 0
    assert r.estimated.a == 0 and r.estimated.intersection == 0
    assert r.fp_and_outside == 0
    assert isinstance(r.a, BloomFilter) and len(r.a) == 0

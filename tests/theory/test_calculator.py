"""The calculator: every solved case, round trips n, p -> m, k -> p' <= p, and messages for bad input."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bloomviz.theory import rates as theory
from bloomviz.theory.calculator import CalcError, memory_units, one_in, solve

ns = st.integers(min_value=1, max_value=10 ** 9)
ps = st.floats(min_value=1e-12, max_value=0.5, allow_nan=False)


@settings(max_examples=40)
@given(ns, ps)
def test_round_trip_n_p_gives_a_rate_at_most_p(n, p):
    d = solve(n=n, p=p)
    assert d.fp == theory.fp_exact(d.m, d.k, n)
    assert d.fp <= p
    # and m is the smallest meeting p at that k (or the textbook m, when that already meets p)
    textbook_k, textbook_m = theory.optimal_params(n, p)
    assert d.k == textbook_k
    assert d.m >= textbook_m
    if d.m > textbook_m:
        assert theory.fp_exact(d.m - 1, d.k, n) > p


@settings(max_examples=25)
@given(ns, ps, st.integers(min_value=1, max_value=20))
def test_round_trip_n_p_k_gives_the_smallest_m(n, p, k):
    try:
        d = solve(n=n, p=p, k=k)
    except CalcError as exc:   # a k far from optimal may need more than 2**34 bits: said so
        assert "2**34" in str(exc)
        return
    assert d.k == k and d.fp <= p
    assert d.m == 1 or theory.fp_exact(d.m - 1, k, n) > p


@settings(max_examples=25)
@given(st.integers(min_value=64, max_value=2 ** 30), st.floats(min_value=1e-9, max_value=0.3))
def test_round_trip_m_p_gives_the_largest_n(m, p):
    try:
        d = solve(m=m, p=p)
    except CalcError as exc:
        assert "make m larger" in str(exc)
        return
    assert d.fp <= p
    assert theory.fp_exact(m, d.k, d.n + 1) > p


def test_textbook_design_that_misses_p_is_raised_and_noted():
    d = solve(n=1_000_000, p=0.01)
    textbook = math.ceil(-1_000_000 * math.log(0.01) / math.log(2) ** 2)
    assert theory.fp_exact(textbook, 7, 1_000_000) > 0.01   # the reason for the raise
    assert d.k == 7 and d.m > textbook and d.fp <= 0.01
    assert theory.fp_exact(d.m - 1, 7, 1_000_000) > 0.01
    text = " ".join(d.notes)
    assert f"{textbook:,}" in text and f"{d.m:,}" in text


def test_m_n_gives_the_best_integer_k_and_its_neighbours():
    d = solve(m=20_000, n=2_000)
    assert d.k == theory.optimal_k_int(20_000, 2_000)
    assert d.k_real == pytest.approx(10 * math.log(2))
    assert (d.k_floor, d.k_ceil) == (6, 7)
    assert d.fp_floor == theory.fp_exact(20_000, 6, 2_000)
    assert d.fp_ceil == theory.fp_exact(20_000, 7, 2_000)
    assert d.fp == min(d.fp_floor, d.fp_ceil)


def test_m_n_k_gives_the_rates_and_the_derived_figures():
    d = solve(m=9_585_059, n=1_000_000, k=7)
    assert d.fp == theory.fp_exact(9_585_059, 7, 1_000_000)
    assert d.fp_approx == theory.fp_approx(9_585_059, 7, 1_000_000)
    assert d.fp_bound == theory.fp_bound(9_585_059, 7, 1_000_000)
    assert d.bits_per_item == pytest.approx(9.585059)
    assert d.lower_bound_bits == pytest.approx(math.log2(1 / d.fp))
    assert d.overhead == pytest.approx(d.bits_per_item / d.lower_bound_bits)
    assert d.fill_at_capacity == pytest.approx(theory.fill_expected(9_585_059, 7, 1_000_000))
    assert d.memory_bytes == math.ceil(9_585_059 / 8)
    units = d.memory_units
    assert units["B"] == d.memory_bytes and units["KiB"] == pytest.approx(d.memory_bytes / 1024)
    assert units["MiB"] == pytest.approx(d.memory_bytes / 2 ** 20)
    assert units["GiB"] == pytest.approx(d.memory_bytes / 2 ** 30)
    assert d.one_in.startswith("1 in ") and d.as_dict()["one_in"] == d.one_in


def test_m_k_p_gives_capacity():
    d = solve(m=100_000, k=5, p=0.02)
    assert d.n == theory.capacity_for(100_000, 5, 0.02)
    assert d.fp <= 0.02


def test_all_four_consistent_is_accepted_and_inconsistent_refused():
    d = solve(n=1000, p=0.01, m=20_000, k=7)
    assert d.fp <= 0.01
    with pytest.raises(CalcError, match="inconsistent"):
        solve(n=1000, p=0.001, m=5_000, k=3)


@pytest.mark.parametrize("kw, words", [
    ({"n": 0, "p": 0.01}, "n"),
    ({"n": -5, "p": 0.01}, "-5"),
    ({"n": 100, "p": 1.5}, "1.5"),
    ({"n": 100, "p": 0.0}, "p"),
    ({"m": 0, "n": 10}, "m"),
    ({"m": 2 ** 40, "n": 10}, "m"),
    ({"m": 100, "n": 10, "k": 65}, "65"),
    ({"k": 3}, "not enough"),
    ({"p": 0.1, "k": 3}, "not enough"),
    ({}, "nothing"),
    ({"m": 8, "p": 1e-9}, "make m larger"),
    ({"n": 10 ** 12, "p": 1e-12}, "2**34"),
])
def test_bad_input_gets_a_message_naming_it(kw, words):
    with pytest.raises(CalcError) as info:
        solve(**kw)
    assert words in str(info.value)


def test_helpers():
    assert memory_units(8 * 1024)["KiB"] == 1.0
    assert one_in(0.01) == "1 in 100"
    assert one_in(0.0) == "never"

"""Kedmi's toy replayed: his design numbers, ~0.001 from a zeroed array, his 0.0213 from uncleared memory."""

from __future__ import annotations

import pytest

from bloomviz.scenarios import kedmi_toy

from bloomviz.theory import rates as theory


def test_his_design_numbers():
    assert kedmi_toy.optimal_km(32768, 0.001) == (10, 471125)
    assert kedmi_toy.optimal_km(10 ** 6, 0.01) == (7, 9585059)
    keys = kedmi_toy.synthetic_keys(50)
    assert len(set(keys)) == 50 and {len(k) for k in keys} == {580}


@pytest.fixture(scope="module")
def zeroed():
    return kedmi_toy.replay(0.0)[1]


@pytest.fixture(scope="module")
def garbage():
    d = kedmi_toy.density_for_rate(kedmi_toy.REPORTED_RATE, 471125, 10, 32768)
    return kedmi_toy.replay(round(d, 2))[1]


def test_a_zeroed_array_measures_the_designed_rate(zeroed):
    assert zeroed.initial_bits_set == 0 and zeroed.all_members_found
    low, high = theory.wilson_interval(zeroed.false_positives, zeroed.probes, z=3.29)
    assert low <= zeroed.exact_rate_zeroed <= high
    assert zeroed.measured_rate < 0.005          # nowhere near his 0.0213


def test_uncleared_memory_explains_his_0_0213(garbage, zeroed):
    assert garbage.initial_density == 0.36
    assert abs(garbage.initial_bits_set / garbage.m - 0.36) < 0.005
    assert garbage.all_members_found          # garbage never causes a false negative
    low, high = theory.wilson_interval(garbage.false_positives, garbage.probes, z=3.29)
    assert low <= kedmi_toy.REPORTED_RATE <= high and low <= garbage.expected_rate <= high
    assert low > 10 * zeroed.exact_rate_zeroed


def test_density_for_rate_inverts_expected_rate():
    d = kedmi_toy.density_for_rate(0.0213, 471125, 10, 32768)
    assert 0.35 < d < 0.37
    assert kedmi_toy.expected_rate(471125, 10, 32768, d) == pytest.approx(0.0213, rel=1e-9)
    assert kedmi_toy.density_for_rate(1e-6, 471125, 10, 32768) == 0.0


@pytest.mark.parametrize("bad", [-0.1, 1.0, 2])
def test_a_density_outside_0_1_is_refused(bad):
    with pytest.raises(ValueError, match="initial density must be in"):
        kedmi_toy.garbage_bits(100, bad, 1)

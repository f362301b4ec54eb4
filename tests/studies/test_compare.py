"""The comparison core: the weak scheme's lesson, exact measurement, validation, stepping."""

import math

import numpy as np
import pytest

from bloomviz.theory import rates as theory
from bloomviz.studies.compare import (Comparison, Config, LaneSummary, build_filter, check_configs, lesson_configs,
                                   lesson_design)
from bloomviz.measure.experiment import Cancelled
from bloomviz.theory.curves import theory_many
from bloomviz.filters.standard import BloomFilter


def test_lesson_design_is_the_p_0001_design():
    m, k, n = lesson_design()
    assert k == 10
    assert 14.3 < m / n < 14.5


def test_weak_shift_stands_above_theory_while_good_schemes_stay_in_their_band():
    m, k, n = lesson_design()
    configs = [Config("standard", s) for s in ("murmur3-km", "murmur3-enhanced", "murmur3-seeded",
                                               "murmur-fnv")]
    good = Comparison(configs, m, k, n, probes=50_000, seed=7).run()
    weak = Comparison([Config("standard", "murmur3-km"), Config("standard", "weak-shift")], m, k, n,
                      probes=50_000, seed=7).run()
    for s in good.summaries():
        assert abs(s.z) < 5, (s.label, s.measured, s.theory, s.z)
    weak_summary = weak.summaries()[1]
    assert weak_summary.label == "weak-shift"
    assert weak_summary.measured > 2 * weak_summary.theory, weak_summary
    assert weak_summary.theory == pytest.approx(theory.fp_exact(m, k, n))


def test_measurement_is_exact_against_brute_force_lookup():
    m, k = 4000, 5
    cmp = Comparison([Config("standard", "murmur3-km"), Config("partitioned", "murmur3-seeded"),
                      Config("standard", "weak-shift")], m, k, 600, probes=2000, seed=3)
    while cmp.done < 300:
        cmp.step(100)
    mid = [int(np.count_nonzero(lane.filter.contains_many(cmp.probes))) for lane in cmp.lanes]
    cmp.run(chunk=77)
    for lane, fp_mid in zip(cmp.lanes, mid):
        rows = lane.rows()
        assert rows["n"][0] == 0 and rows["n"][-1] == 600
        assert np.array_equal(rows["n"], np.arange(601))  # exact: one row per insert
        assert rows["fp"][300] == fp_mid
        assert rows["fp"][-1] == int(np.count_nonzero(lane.filter.contains_many(cmp.probes)))
        assert rows["bits_set"][-1] == lane.filter.bits_set
        assert len(lane.filter) == 600


def test_every_lane_sees_the_same_items():
    m, k, n = 3000, 4, 400
    cmp = Comparison([Config("standard", "murmur3-km"), Config("counting", "murmur3-km")], m, k, n,
                     probes=500, seed=11).run(chunk=64)
    reference = BloomFilter(m, k, "murmur3-km")
    reference.update(cmp.items)
    for lane in cmp.lanes:
        assert lane.filter.bits == reference.bits
    assert not set(cmp.items) & set(cmp.probes)


def test_scalable_lane_is_measured_exactly_after_every_insert():
    cmp = Comparison([Config("scalable", "murmur3-km"), Config("standard", "murmur3-km")], 2000, 4, 900,
                     probes=1000, seed=1, p=0.01)
    cmp.run(chunk=300)
    lane = cmp.lanes[0]
    assert lane.exact and cmp.lanes[1].exact
    rows = lane.rows()
    assert list(rows["n"]) == list(range(901))
    assert lane.filter.initial_capacity == 225 and len(lane.filter.stages) == 3  # 225 + 450 < 900 items
    # the oracle: a scalable filter built from the first n items, every probe tested
    for n in (1, 224, 225, 226, 500, 675, 676, 900):
        fresh = build_filter(Config("scalable", "murmur3-km"), 2000, 4, 900, p=0.01)
        fresh.update(cmp.items[:n])
        assert rows["fp"][n] == int(np.count_nonzero(fresh.contains_many(cmp.probes))), n
        assert rows["bits_set"][n] == fresh.bits_set, n


def test_curve_is_thinned_and_carries_the_filters_own_theory():
    m, k, n = 5000, 3, 2000
    cmp = Comparison([Config("standard", "murmur3-km"), Config("blocked", "murmur3-km")], m, k, n, probes=1000,
                     seed=2).run(chunk=500)
    curve = cmp.lanes[0].curve(max_points=100)
    assert 2 <= curve["n"].size <= 100
    assert curve["n"][-1] == n
    np.testing.assert_allclose(curve["theory"], theory_many(m, k, curve["n"])["fp_exact"], rtol=2e-3, atol=1e-9)
    assert np.all(curve["low"] <= curve["measured"]) and np.all(curve["measured"] <= curve["high"])
    blocked = cmp.lanes[1]
    assert blocked.filter.m % 512 == 0
    assert blocked.summary().theory == pytest.approx(blocked.filter.theory_fp(n))


def test_step_reports_when_done_and_run_can_be_cancelled():
    cmp = Comparison(lesson_configs()[:2], 1000, 3, 50, probes=100)
    steps = 0
    while cmp.step(20):
        steps += 1
    assert cmp.finished and cmp.done == 50
    assert steps == 2 + 2  # two preparations, then 20 + 20 + 10 items (the last step reports done)
    again = Comparison(lesson_configs()[:2], 1000, 3, 50, probes=100)
    calls = []
    with pytest.raises(Cancelled):
        again.run(chunk=10, cancel=lambda: len(calls) > 2, progress=lambda d, t: calls.append(d))
    assert again.done < 50


@pytest.mark.parametrize("configs, message", [
    ([Config()], "2 to 4"),
    ([Config(), Config("standard", "weak-shift")] * 2 + [Config("counting")], "2 to 4"),
    ([Config(), Config()], "repeats configuration 1"),
    ([Config(), "murmur3-km"], "must be a Config"),
])
def test_bad_configuration_lists_are_refused(configs, message):
    with pytest.raises((ValueError, TypeError), match=message):
        check_configs(configs)


def test_bad_config_ids_and_counts_are_refused():
    with pytest.raises(ValueError, match="unknown hash scheme 'md5'"):
        Config("standard", "md5")
    with pytest.raises(ValueError, match="unknown filter variant 'cuckoo'"):
        Config("cuckoo")
    pair = lesson_configs()[:2]
    with pytest.raises(ValueError, match="item count .* got 0"):
        Comparison(pair, 1000, 3, 0)
    with pytest.raises(ValueError, match="probe count"):
        Comparison(pair, 1000, 3, 10, probes=5)
    with pytest.raises(ValueError, match="k must be"):
        Comparison(pair, 1000, 65, 10)


def test_build_filter_gives_each_variant_its_equivalent():
    assert build_filter(Config("partitioned"), 1001, 10, 50).m == 1000
    scal = build_filter(Config("scalable"), 1000, 5, 50, p=0.02)
    assert scal.initial_capacity == 12 and scal.p == 0.02


def test_summary_statistics():
    s = LaneSummary("x", 100, 1000, 5, fp_count=30, probes=10_000, measured=0.003, low=0.002, high=0.004,
                    theory=0.001, bits_set=400)
    assert s.ratio == pytest.approx(3.0)
    assert s.z == pytest.approx((0.003 - 0.001) / math.sqrt(0.001 * 0.999 / 10_000))
    empty = LaneSummary("x", 0, 1000, 5, 0, 100, 0.0, 0.0, 0.03, 0.0, 0)
    assert math.isnan(empty.ratio) and empty.z == 0.0

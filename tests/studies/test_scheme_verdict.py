"""Compare's verdict on a hash scheme, over many seeds: a scheme with independent positions is called dependent in
at most 5 % of lanes (the nominal rate; the test is one-sided at 0.5 %), while schemes that are truly off are
caught; a lane that misses the formula only because of its own fill is called luck, not the scheme."""

from __future__ import annotations

import math

import pytest

from bloomviz.studies import scheme_verdict
from bloomviz.studies.compare import Comparison, Config, lesson_configs, lesson_design
from bloomviz.theory.binomial_tails import binomial_tails, bits_set_spread

INDEPENDENT = ("murmur3-mix", "murmur3-seeded", "sha256-salted", "kedmi-sha256")
SEEDS = 40


def _verdicts(configs, m, k, n, probes, seeds=SEEDS):
    out = []
    for seed in range(seeds):
        out += Comparison(configs, m, k, n, probes=probes, seed=seed).run().verdicts()
    return out


def test_binomial_tails_are_exact():
    # Binomial(10, 1/2): P[H >= 8] = (45 + 10 + 1) / 1024, P[H <= 8] = 1 - (10 + 1) / 1024
    above, below = binomial_tails(8, 10, 0.5)
    assert math.isclose(above, 56 / 1024, rel_tol=1e-12) and math.isclose(below, 1013 / 1024, rel_tol=1e-12)
    assert binomial_tails(0, 5, 0.0) == (1.0, 1.0) and binomial_tails(5, 5, 1.0) == (1.0, 1.0)
    with pytest.raises(ValueError, match="hits must lie"):
        binomial_tails(6, 5, 0.5)


def test_bits_set_spread_is_the_occupancy_of_kn_positions():
    # m = 2, one position: X = 1 always; two positions: X = 1 or 2 with probability 1/2 each
    assert bits_set_spread(2, 1, 1) == pytest.approx((1.0, 0.0))
    assert bits_set_spread(2, 2, 1) == pytest.approx((1.5, 0.5))


def test_good_schemes_at_m_128_are_not_accused_and_their_luck_is_named():
    verdicts = _verdicts([Config("standard", s) for s in INDEPENDENT], 128, 4, 20, probes=2_000)
    assert len(verdicts) == 4 * SEEDS
    accused = sum(v.kind == scheme_verdict.DEPENDENT for v in verdicts)
    assert accused <= 0.05 * len(verdicts)
    # the formula is missed often at this size (one filter's X is not the average) and that is called luck
    missed = [v for v in verdicts if v.formula_missed and v.kind != scheme_verdict.BELOW]
    assert len(missed) >= 0.25 * len(verdicts) and all(v.kind == scheme_verdict.LUCK for v in missed)
    words = scheme_verdict.text(missed[0])
    assert "luck" in words and "not independent" not in words and "sd" in words


def test_the_lesson_preset_accuses_weak_shift_alone():
    m, k, n = lesson_design()
    verdicts = _verdicts(lesson_configs(), m, k, n, probes=2_000)
    good = [v for v in verdicts if v.label != "weak-shift"]
    weak = [v for v in verdicts if v.label == "weak-shift"]
    assert sum(v.kind == scheme_verdict.DEPENDENT for v in good) <= 0.05 * len(good)
    assert len(weak) == SEEDS and all(v.kind == scheme_verdict.DEPENDENT for v in weak)
    assert "not independent" in scheme_verdict.text(weak[0])


def test_double_hashing_is_caught_where_it_is_truly_off():
    # m = 256, k = 8: murmur3-km passes about twice what its fill explains
    verdicts = _verdicts([Config("standard", "murmur3-km"), Config("standard", "murmur3-mix")], 256, 8, 20,
                         probes=20_000, seeds=10)
    km = [v for v in verdicts if v.label == "murmur3-km"]
    mix = [v for v in verdicts if v.label == "murmur3-mix"]
    assert sum(v.kind == scheme_verdict.DEPENDENT for v in km) >= 9
    assert min(v.ratio_to_fill for v in km) > 1.2
    assert not any(v.kind == scheme_verdict.DEPENDENT for v in mix)


def test_summary_is_plain_text_naming_the_label_as_typed():
    # the Compare tab's message bar draws plain text: markup in the summary was shown as its tags
    v = scheme_verdict.SchemeVerdict(
        label="weak-shift <&>", kind=scheme_verdict.DEPENDENT, fill_rate=0.01, measured=0.05, fp_count=500,
        probes=10_000, p_above=1e-9, p_below=1.0, formula=0.01, formula_missed=True, bits_set=100,
        bits_mean=100.0, bits_sd=5.0)
    words = scheme_verdict.summary_text([v])
    assert words.startswith("done: weak-shift <&>: ") and "<b>" not in words and "&amp;" not in words


def test_summary_is_in_the_windows_language():
    from bloomviz import i18n
    v = scheme_verdict.SchemeVerdict(
        label="weak-shift", kind=scheme_verdict.DEPENDENT, fill_rate=0.0125, measured=0.05, fp_count=5_000,
        probes=100_000, p_above=1e-9, p_below=1.0, formula=0.01, formula_missed=True, bits_set=12_345,
        bits_mean=12_000.5, bits_sd=5.0)
    english = scheme_verdict.summary_text([v])
    assert english == ("done: weak-shift: its 12,345 bits set explain 0.0125 for independent positions, and 5,000 "
                       "of 100,000 probes passed (0.05), 4.00× that — more than chance allows (p < 10⁻⁶): its hash "
                       "positions are not independent.")
    was = i18n.language()
    try:
        i18n.use("hr")
        croatian = scheme_verdict.summary_text([v])
    finally:
        i18n.use(was)
    assert croatian.startswith("gotovo: weak-shift: njegovih 12.345 postavljenih bitova objašnjava 0,0125 ")
    assert "4,00×" in croatian and "nisu nezavisne" in croatian

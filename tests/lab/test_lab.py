"""The lab on its three worked examples and on filters broken on purpose; its statistics against brute force."""

from __future__ import annotations

import math
import random
from fractions import Fraction
from itertools import product
from pathlib import Path

import numpy as np
import pytest

from bloomviz import lab
from bloomviz.lab import grid as lab_grid
from bloomviz.lab import report, stats, student
from bloomviz.theory.rates import fp_exact

EXAMPLES = Path(lab.__file__).parent / "examples"
GRID = lab.Grid(ms=(32, 64, 1024), ks=(2, 4, 8), ns=(4, 16, 64), probes=4000)


@pytest.fixture(scope="module")
def reports():
    return {name: lab.run_file(f"{EXAMPLES / name}.py:make_filter", GRID)
            for name in ("good_filter", "double_hashing", "weak_hash")}


def test_good_filter_is_consistent_at_every_point(reports):
    rep = reports["good_filter"]
    assert rep.form == "filter object with positions"
    assert rep.threshold == GRID.alpha / (GRID.points * 6)   # six judgements a point: positions and bits seen
    assert len(rep.points) == GRID.points
    assert rep.consistent, report.text(rep)
    for p in rep.points:
        assert p.bits_set is not None   # its bits were read, so the exact test given the fill was made
        assert p.low <= p.measured <= p.high
        assert p.exact == fp_exact(p.m, p.k, p.n)
    assert "Consistent with independent positions at every one of the 27 points" in report.text(rep)


def test_double_hashing_coincides_where_it_shows(reports):
    rep = reports["double_hashing"]
    coincide = {(p.m, p.k) for p in rep.where(lab.grid.COINCIDE)}
    # positions h1 + i·h2: for k >= 4 an h2 of 0 mod m makes all k one bit (1 item in m); at k = 2 the two
    # positions coincide exactly as often as independent ones (h2 = 0 mod m against h1 = h2'), so nothing shows
    assert coincide == {(m, k) for m in GRID.ms for k in (4, 8)}
    assert not rep.where(lab.grid.BIASED)   # each position alone is uniform
    rate = rep.where(lab.grid.RATE)
    assert rate and all(p.m <= 64 for p in rate)   # the rate gives it away at small m only
    text = report.text(rep)
    assert "all 4 positions are one bit" in text and "RATE OUTSIDE WHAT LUCK EXPLAINS" in text


def test_weak_hash_is_biased_everywhere_and_its_rate_shows(reports):
    rep = reports["weak_hash"]
    assert {(p.m, p.k, p.n) for p in rep.where(lab.grid.BIASED)} == set(product(GRID.ms, GRID.ks, GRID.ns))
    assert rep.where(lab.grid.RATE)
    first = next(f for f in rep.where(lab.grid.BIASED)[0].findings if f.kind == lab.grid.BIASED)
    assert "chi-square" in first.text and first.p < rep.threshold


def test_report_svg_and_csv(reports):
    rep = reports["weak_hash"]
    svg = report.svg(rep)
    assert svg.startswith("<svg") and svg.count("<circle") == GRID.points
    assert svg.count(f'fill="{report.BAD}"') == sum(not p.consistent for p in rep.points) > 0
    assert report.svg(reports["good_filter"]).count(f'fill="{report.BAD}"') == 0
    rows = report.csv_text(rep).splitlines()
    assert rows[0].split(",")[:3] == ["m", "k", "n"] and len(rows) == GRID.points + 1
    shown = rep._repr_html_()
    assert svg in shown and "BIASED POSITION" in shown and "<pre>" in shown


# --- filters broken on purpose -------------------------------------------------------------------------------
class Forgetful:
    """Keeps the bits of its last 3 items only: older members test negative."""

    def __init__(self, m, k):
        self.m, self.k, self.recent = m, k, []

    def add(self, item):
        self.recent = (self.recent + [item])[-3:]

    def __contains__(self, item):
        return item in self.recent


def test_false_negatives_are_named():
    rep = lab.run(lambda m, k: Forgetful(m, k), lab.Grid(ms=(64,), ks=(3,), ns=(2, 10), probes=200))
    assert [p.n for p in rep.where(lab.grid.FALSE_NEGATIVES)] == [10]
    assert "7 of 10 inserted items test negative" in rep.points[1].findings[0].text
    assert any("no bit array" in note for note in rep.notes)
    assert rep.threshold == rep.grid.alpha / rep.grid.points   # one judgement a point: the rate against the formula


def test_positions_that_change_between_calls_are_false_negatives():
    rng = random.Random(5)
    rep = lab.run(lambda m, k: (lambda item: [rng.randrange(m) for _ in range(k)]),
                  lab.Grid(ms=(4096,), ks=(3,), ns=(50,), probes=100))
    assert rep.where(lab.grid.FALSE_NEGATIVES)


@pytest.mark.parametrize("make, words", [
    (lambda m, k: (lambda item: [m] * k), "outside [0, m = 16)"),
    (lambda m, k: (lambda item: [0] * (k + 1)), "got 3 positions, expected k = 2"),
    (lambda m, k: (lambda item: [0.5] * k), "not a whole number"),
    (lambda m, k: 1 / 0, "make_filter(16, 2) raised ZeroDivisionError"),
    (lambda m, k: 42, "neither a function of an item nor an object"),
])
def test_a_broken_contract_is_reported_not_raised(make, words):
    rep = lab.run(make, lab.Grid(ms=(16,), ks=(2,), ns=(3,), probes=10))
    (finding,) = rep.points[0].findings
    assert finding.kind == lab.grid.BROKEN and words in finding.text


def test_loading_names_what_is_wrong(tmp_path):
    good = tmp_path / "s.py"
    good.write_text("def make_filter(m, k):\n    return lambda item: [0] * k\n")
    assert callable(student.load(f"{good}:make_filter"))
    raising = tmp_path / "r.py"
    raising.write_text("raise RuntimeError('boom')\n")
    for spec, words in [(str(good), "expected FILE.py:NAME"), (f"{tmp_path}/none.py:f", "no such file"),
                        (f"{good}:other", "has no function 'other' (it has: make_filter)"),
                        (f"{raising}:f", "failed while it was loaded: RuntimeError: boom")]:
        with pytest.raises(ValueError) as refused:
            student.load(spec)
        assert words in str(refused.value)


def test_bit_arrays_of_several_kinds_are_read():
    for raw in ([0, 1, 1, 0], bytearray(b"\x00\x01\x01\x00"), np.array([0, 1, 1, 0])):
        obj = type("F", (), {"bits": raw})()
        assert student.bit_array(obj, 4).tolist() == [False, True, True, False]
    with pytest.raises(student.StudentError, match="holds 4 values, expected m = 5"):
        student.bit_array(type("F", (), {"bit_array": [0] * 4})(), 5)


def test_grid_sizes_are_checked_before_any_run():
    for kwargs, words in [({"ms": (2 ** 21,)}, "above the lab's limit"), ({"ks": (0,)}, "k"),
                          ({"probes": 0}, "probes"), ({"ns": ()}, "at least one n"),
                          ({"alpha": 1.5}, "alpha")]:
        with pytest.raises(ValueError, match=words):
            lab.Grid(**kwargs)


def test_only_the_lab_loads_student_code():
    root = Path(lab.__file__).parent.parent
    users = sorted(str(p.relative_to(root)) for p in root.rglob("*.py")
                   if "student.load(" in p.read_text(encoding="utf-8") and "lab" not in p.parts)
    assert users == ["commands/lab.py"]


# --- the statistics against brute force -------------------------------------------------------------------------
def test_binomial_p_is_the_exact_two_sided_test():
    trials, q = 12, Fraction(1, 5)
    pmf = [math.comb(trials, i) * q ** i * (1 - q) ** (trials - i) for i in range(trials + 1)]
    for hits in range(trials + 1):
        want = sum(p for p in pmf if p <= pmf[hits])
        assert stats.binomial_p(hits, trials, float(q)) == pytest.approx(float(want), rel=1e-9)


def test_fill_moments_and_rate_moments_by_enumeration():
    m, k, n = 5, 2, 2
    total = k * n
    xs = [len(set(ps)) for ps in product(range(m), repeat=total)]
    mean = Fraction(sum(xs), len(xs))
    var = Fraction(sum(x * x for x in xs), len(xs)) - mean ** 2
    got_mean, got_var = stats.fill_moments(m, total)
    assert got_mean == pytest.approx(float(mean)) and got_var == pytest.approx(float(var))
    eq = Fraction(sum(Fraction(x, m) ** k for x in xs), len(xs))
    eq2 = Fraction(sum(Fraction(x, m) ** (2 * k) for x in xs), len(xs))
    assert stats.rate_moments(m, k, n) == pytest.approx((float(eq), float(eq2)), rel=1e-12)


def test_occupancy_and_the_ensemble_are_exact():
    m, k, n, trials = 4, 2, 2, 3
    xs = [len(set(ps)) for ps in product(range(m), repeat=k * n)]
    pmf = stats.occupancy_pmf(m, k * n)
    assert pmf.tolist() == pytest.approx([xs.count(x) / len(xs) for x in range(pmf.size)], abs=1e-15)
    # the count of false positives among 3 strangers, averaged over every filter
    counts = [Fraction(0)] * (trials + 1)
    for x in xs:
        q = Fraction(x, m) ** k
        for c in range(trials + 1):
            counts[c] += math.comb(trials, c) * q ** c * (1 - q) ** (trials - c) / len(xs)
    for c in range(trials + 1):
        want = min(1, 2 * min(sum(counts[: c + 1]), sum(counts[c:])))
        p, how = stats.ensemble_p(c, trials, m, k, n)
        assert how == "exact" and p == pytest.approx(float(want), rel=1e-12)
    assert stats.fill_p(1, m, k * n) == (pytest.approx(2 * xs.count(1) / len(xs)), "exact")


def test_one_hit_where_a_twentieth_is_expected_is_luck():
    # a perfect hash once had this point flagged by a normal approximation (+4.3 sd, p = 2e-5): 1 false positive
    # among 4,000 strangers at a rate of 1.25e-5 happens about one time in twenty
    p, how = stats.ensemble_p(1, 4000, 1024, 3, 8)
    assert how == "exact" and 0.05 < p < 0.2
    assert stats.ensemble_z(1, 4000, 1024, 3, 8) > 4


def test_too_much_work_falls_back_to_a_bound_that_never_overstates(monkeypatch):
    exact_p, _ = stats.ensemble_p(30, 4000, 1024, 3, 64)
    monkeypatch.setattr(stats, "MAX_WORK", 10)
    bound, how = stats.ensemble_p(30, 4000, 1024, 3, 64)
    assert how == "Chebyshev bound" and bound >= exact_p
    mean, var = stats.fill_moments(1024, 192)
    assert stats.fill_p(int(mean - 3 * math.sqrt(var)), 1024, 192) == (pytest.approx(1 / 9, rel=0.05),
                                                                          "Chebyshev bound")


def test_chi_square_tail_is_close_to_the_table():
    # chi-square with 10 degrees of freedom: P(> 18.307) = 0.05, P(> 23.209) = 0.01 (statistical tables)
    for stat, p in [(18.307, 0.05), (23.209, 0.01)]:
        counts = np.full(11, 100.0)
        counts[0] += math.sqrt(stat * 100 * 10 / 11)
        counts[1:] -= math.sqrt(stat * 100 * 10 / 11) / 10
        got_stat, got_p = stats.chi_square_p(counts)
        assert got_stat == pytest.approx(stat, rel=1e-6) and got_p == pytest.approx(p, rel=0.05)



# --- the command ------------------------------------------------------------------------------------------------
def test_command_reports_writes_the_plot_and_exits_by_the_verdict(tmp_path, capsys):
    from bloomviz.cli import main
    svg, csv = tmp_path / "lab.svg", tmp_path / "lab.csv"
    args = ["--m", "32,1024", "--k", "4", "--n", "4,64", "--probes", "2000"]
    assert main(["lab", f"{EXAMPLES / 'weak_hash.py'}:make_filter", *args, "--svg", str(svg),
                 "--csv", str(csv)]) == 1
    out = capsys.readouterr().out
    assert "NOT consistent with independent positions at 4 of 4 points" in out and "BIASED POSITION" in out
    assert svg.read_text().startswith("<svg") and len(csv.read_text().splitlines()) == 5
    assert main(["lab", f"{EXAMPLES / 'good_filter.py'}:make_filter", *args]) == 0
    assert "Consistent with independent positions at every one of the 4 points" in capsys.readouterr().out


@pytest.mark.parametrize("argv, words", [
    (["lab", "nofile.py:make_filter"], "no such file: 'nofile.py'"),
    (["lab", "x.py"], "expected FILE.py:NAME"),
    (["lab", "x.py:f", "--m", "64,x"], "argument --m"),
    (["lab", "x.py:f", "--m", "4194304"], "above the lab's limit"),
])
def test_command_refuses_in_one_line(argv, words, capsys):
    from bloomviz.cli import main
    assert main(argv) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("bloomviz lab: error:") and words in err[0]

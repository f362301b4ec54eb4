"""The explorer's best k agrees with brute force at small m: for every m <= 256 and n <= m/2 the integer k that
the calculator and the explorer show is the k in 1…64 with the lowest exact rate, even where (m/n) ln 2 points
elsewhere; the rows and the note say so.

The brute force is computed here by its own method (no code of the app's exact rate): P_j(N), the chance that j
given bits are all hit by N uniform positions, obeys P_j(N) = (j/m) P_{j-1}(N-1) + (1 - j/m) P_j(N-1) (sums of
positive terms only), and a probe's k positions hit j distinct bits with probability w_j (the same recurrence
over its own k positions); FP(m, k, n) = Σ_j w_j P_j(kn). Every m is stepped at once, N = 1 … 64·128.

The app's search is asked (one exact rate per k it tries, ~0.5 ms a pair) for every pair with m <= 128, for
every pair up to 256 where the best k is not the rounded classic optimum it starts from (where its walk has to
move, and could stop wrong), and for n = 1 and n = m/2 at every m: 6,109 of the 16,384 pairs; the brute force
covers them all, and the rows and notes are checked on every pair of the second kind.
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest

from bloomviz.theory import rates as theory
from bloomviz.theory.calculator import solve

M_MAX, K_MAX = 256, 64


def _brute_rates() -> np.ndarray:
    """rates[m, k, n] = FP(m, k, n) for 2 <= m <= M_MAX, 1 <= k <= K_MAX, 1 <= n <= m/2 (nan elsewhere)."""
    ms = np.arange(2, M_MAX + 1, dtype=np.float64)[:, None]            # (M, 1)
    j = np.arange(K_MAX + 1, dtype=np.float64)[None, :]                 # (1, J)
    hit, stay = np.minimum(j / ms, 1.0), np.maximum(1.0 - j / ms, 0.0)
    # w[m, k, j]: a probe of k uniform positions hits j distinct bits
    w = np.zeros((len(ms), K_MAX + 1, K_MAX + 1))
    dist = np.zeros((len(ms), K_MAX + 1))
    dist[:, 0] = 1.0
    for k in range(1, K_MAX + 1):
        new = dist * (j / ms)                                           # the k-th position repeats one of j
        new[:, 1:] += dist[:, :-1] * np.maximum(1.0 - (j[:, :-1]) / ms, 0.0)   # or is new
        dist = new
        w[:, k] = dist
    rates = np.full((M_MAX + 1, K_MAX + 1, M_MAX // 2 + 1), np.nan)
    p = np.zeros((len(ms), K_MAX + 1))
    p[:, 0] = 1.0
    for total in range(1, K_MAX * (M_MAX // 2) + 1):
        nxt = p * stay
        nxt[:, 1:] += p[:, :-1] * hit[:, 1:]
        p = nxt
        for k in range(1, K_MAX + 1):
            if total % k == 0:
                n = total // k
                if n <= M_MAX // 2:
                    rates[2:, k, n] = np.einsum("mj,mj->m", w[:, k], p)
    for m in range(2, M_MAX + 1):
        rates[m, :, m // 2 + 1:] = np.nan
    return rates


@pytest.fixture(scope="module")
def brute() -> np.ndarray:
    return _brute_rates()


def _classic(m: int, n: int) -> int:
    """Where the app's search starts: the classic optimum ln 2 / (-n ln(1 - 1/m)), rounded, in 1…64."""
    return min(64, max(1, round(math.log(2) / (-n * math.log1p(-1 / m)))))


@pytest.fixture(scope="module")
def best(brute) -> dict[tuple[int, int], int]:
    """The brute force's best k (the smallest on a tie) for every m <= M_MAX, n <= m/2."""
    return {(m, n): int(np.nanargmin(brute[m, 1:, n])) + 1 for m in range(2, M_MAX + 1) for n in range(1, m // 2 + 1)}


@pytest.fixture(scope="module")
def app_best(best) -> dict[tuple[int, int], int]:
    asked = [(m, n) for (m, n), k in best.items() if m <= M_MAX // 2 or k != _classic(m, n) or n in (1, m // 2)]
    return {(m, n): theory.optimal_k_int(m, n) for m, n in asked}


def test_best_integer_k_agrees_with_brute_force_for_every_small_m(app_best, best, brute):
    rates = brute
    wrong = [(m, n, k, best[(m, n)]) for (m, n), k in app_best.items()
             if rates[m, k, n] > np.nanmin(rates[m, 1:, n]) * (1 + 1e-9)]   # a k whose rate is not the lowest
    moved = sum(k != _classic(m, n) for (m, n), k in best.items())
    assert len(best) == sum(m // 2 for m in range(2, M_MAX + 1)) and moved > 2_500
    assert len(app_best) == 6_109 and not wrong, wrong[:5]


def test_rows_and_note_show_the_best_k_where_the_approximation_points_elsewhere(best, brute):
    # every pair where the best k is not next to (m/n) ln 2 (where rows and note used to disagree), and n = 1
    elsewhere = [(m, n) for (m, n), k in best.items()
                 if k not in (min(64, max(1, math.floor(m / n * math.log(2)))),
                              min(64, max(1, math.ceil(m / n * math.log(2))))) or n == 1]
    assert len(elsewhere) > 300
    for m, n in elsewhere:
        d = solve(m=m, n=n)
        assert d.k == d.k_best and d.fp_best == theory.fp_exact(m, d.k, n)
        assert brute[m, d.k, n] <= brute[m, best[(m, n)], n] * (1 + 1e-9)   # a lowest rate (a tie may differ)
        assert d.notes[0].startswith(f"k = {d.k}: the integer with the lowest exact rate")
    d = solve(m=32, n=2)
    assert (d.k, d.k_best, d.k_floor, d.k_ceil) == (9, 9, 11, 12)
    assert "points too high" in d.notes[0] and "k = 11 would cost" in d.notes[0]
    d = solve(m=64, n=1)
    assert d.k_best == 34 and "k = 44 would cost +97%" in d.notes[0]


def test_what_the_classic_optimum_costs_as_the_readme_and_rates_say(brute):
    worse, worst, above = 0, (0.0, 0, 0), 0
    for m in range(2, M_MAX + 1):
        for n in range(1, m // 2 + 1):
            column = brute[m, 1:, n]
            k_real = math.log(2) / (-n * math.log1p(-1 / m))
            classic = min(64, max(1, round(k_real)))
            cost = column[classic - 1] / np.nanmin(column) - 1
            worse += cost > 1e-9
            worst = max(worst, (cost, m, n))
            above += int(np.nanargmin(column)) + 1 > math.ceil(k_real)
    assert above == 0     # the best k is never above the classic optimum rounded up: the search may start there
    readme = " ".join((Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8").split())
    pairs = sum(m // 2 for m in range(2, M_MAX + 1))
    assert (f"picks a worse k for {worse:,} of the {pairs:,} pairs with m ≤ 256 and n ≤ m/2, costing up to "
            f"+{worst[0]:.0%}".replace("%", " %")) in readme
    assert " ".join(theory.optimal_k_int.__doc__.split()).count(
        f"{worse:,} of those {pairs:,} pairs, costing up to +{worst[0]:.0%}".replace("%", " %")
        + f" in rate at m = {worst[1]}, n = {worst[2]}") == 1

"""Numbers the README, Help, the lessons and the descriptions state in sentences, recomputed by the app.

Each test builds the sentence's fragment from numbers the app computes now, formatted to the digits the text
writes, and asks that the text holds it: a number that drifts (a formula changed, a rounding disagreed: 322×
where the app shows 323×) fails here. Lesson steps that compute their numbers check them with ``expect`` lines;
this file covers the prose around them and the pages without steps.
"""

from __future__ import annotations

import math
import re
from pathlib import Path

import numpy as np

from bloomviz import lessons
from bloomviz.explain.describers.blocked import BlockedWords
from bloomviz.filters.blocked import blocked_fp
from bloomviz.gui.window import help_pages
from bloomviz.hashing import schemes as hashing
from bloomviz.items.encoding import random_items, to_bytes
from bloomviz.measure.ensemble import run_ensemble
from bloomviz.scenarios.weak_keys import PUBLIC_KEY_LIST_BYTES
from bloomviz.theory import rates as theory
from bloomviz.theory.units import human_bytes

ROOT = Path(__file__).resolve().parents[2]
LESSONS = ROOT / "bloomviz" / "lessons" / "builtin"


def _flat(text: str) -> str:
    """The text with line breaks and runs of spaces as one space (prose wraps anywhere)."""
    return re.sub(r"\s+", " ", text)


def _holds(text: str, fragment: str) -> None:
    assert _flat(fragment) in _flat(text), f"not found: {fragment!r}"


README = (ROOT / "README.md").read_text(encoding="utf-8")


def _gap(m: int, k: int, n: int) -> float:
    """How far Bloom's formula is below the exact rate, relative to the exact rate."""
    exact = theory.fp_exact(m, k, n)
    return (exact - theory.fp_classic(m, k, n)) / exact


def _half_full(m: int, k: int) -> int:
    return int(m * math.log(2) / k)


def test_readme_and_help_numbers_of_blooms_formula():
    m, k, n = 32, 4, 5
    _holds(README, f"by {_gap(m, k, n):.0%}".replace("%", " %") + f" at m = 32, k = 4, n = 5 "
           f"({theory.fp_classic(m, k, n):.4f} against {theory.fp_exact(m, k, n):.4f})")
    _holds(README, f"by {_gap(16, 8, 1):.0%}".replace("%", " %") + " at m = 16, k = 8, n = 1")
    small, large = _gap(10**6, 7, _half_full(10**6, 7)), _gap(10**6, 64, _half_full(10**6, 64))
    _holds(README, f"{small:.1e}".replace("e-0", "e-") + " at m = 10^6, k = 7, but "
           + f"{large:.1e}".replace("e-0", "e-") + " at m = 10^6, k = 64")
    low, high = sorted(g * 10**6 / k ** 2 for g, k in ((small, 7), (large, 64)))
    _holds(README, f"by about {low:.2f}–{high:.2f}·k²/m")
    _holds(help_pages.PRIMER, f"{_gap(32, 4, 5):.0%}".replace("%", " %") + " at m = 32, k = 4, n = 5")
    assert 1e-6 < small < 1e-5   # Help: "a few in a million at m = 10^6, k = 7"
    _holds(help_pages.PRIMER, "a few in a million at m = 10<sup>6</sup>, k = 7")


def test_the_bound_is_stated_once_with_its_source():
    seed = (ROOT.parent / "shared" / "seeds" / "wikipedia-bloom-filter-excerpt.txt")
    if seed.exists():
        assert "Goel & Gupta (2010)" in seed.read_text(encoding="utf-8")
    assert "Goel and Gupta 2010" in theory.BOUND_TEXT
    _holds(README, "(Goel and Gupta 2010, as Wikipedia's Bloom filter article cites it)")
    assert "not a proven bound" not in README and "for every m" not in theory.BOUND_TEXT


def test_the_compare_preset_numbers():
    k, m = theory.optimal_params(2_000, 0.001)
    weak, own = theory.fp_exact(m, 4, 2_000), theory.fp_exact(m, k, 2_000)
    _holds(README, f"expected at {weak / own:.1f}× its theory (the rate of k = 4, {weak:.5f} against {own:.5f})")


def test_blocked_filters_number_against_a_standard_one():
    ratios = []
    for p in (0.01, 1e-4, 1e-6):
        k, m = theory.optimal_params(10_000, p)
        m = -(-m // 512) * 512
        ratios.append(blocked_fp(m, k, 10_000) / theory.fp_exact(m, k, 10_000))
    _holds(BlockedWords.description, f"{ratios[0]:.2f}× at a design for 1 %, {ratios[1]:.1f}× at 0.01 %, "
                                      f"{ratios[2]:.0f}× at 10⁻⁶")


def test_double_hashing_descriptions():
    # each ratio stated lies within the 95 % interval of an ensemble of filters like it
    text = _flat(hashing.SCHEMES["murmur3-km"].summary)
    for m, k, n, stated in ((64, 4, 12, "1.09"), (64, 8, 8, "1.59"), (256, 8, 20, "2.3")):
        r = run_ensemble(m, k, n, 3000, scheme="murmur3-km", probes=32, seed=1)
        exact = float(r.fp_exact[n - 1])
        assert r.low[n - 1] <= float(stated) * exact <= r.high[n - 1], (m, k, n, r.mean[n - 1] / exact)
        assert f"{stated}× the exact rate at m = {m}, k = {k}, n = {n}" in text or \
            f"{stated}× at m = {m}, k = {k}, n = {n}" in text
    _holds(README, "at m = 64, k = 8, n = 8 it measures 1.59× the exact rate")
    lesson5 = lessons.check(lessons.load_builtin("5"))[0]["numbers"]
    assert f"{lesson5['ensemble.mean'] / lesson5['ensemble.exact']:.2f}" == "1.09"
    datas = [to_bytes(x) for x in random_items(100_000, seed=1)]
    rows = hashing.SCHEMES["murmur3-enhanced"].positions_many(datas, 64, 8)
    repeats = float((np.diff(np.sort(rows, axis=1), axis=1) == 0).any(axis=1).mean())
    independent = 1 - math.prod((64 - i) / 64 for i in range(8))
    _holds(hashing.SCHEMES["murmur3-enhanced"].summary,
           f"about {repeats:.0%} of items repeat a position ({independent:.0%} would".replace("%", " %"))


def test_lesson_prose_numbers():
    four = (LESSONS / "04-choosing-m-and-k.md").read_text(encoding="utf-8")
    k, m = theory.optimal_params(10**6, 0.01)
    _holds(four, f"{k} hash functions and {m:,} bits, about {human_bytes(math.ceil(m / 8))}")
    bound = theory.lower_bound_bits_per_element(0.01)
    _holds(four, f"about {m / 10**6:.2f} bits per item")
    _holds(four, f"log₂(1/p) ≈ {bound:.2f} bits per item: a Bloom filter pays about {m / 10**6 / bound:.2f}× that")
    _holds(four, f"(m/n) ln 2 ≈ {m / 10**6 * math.log(2):.2f}")
    eight = (LESSONS / "08-the-real-world.md").read_text(encoding="utf-8")
    k, m = theory.optimal_params(32_768, 0.001)
    filter_bytes = math.ceil(m / 8)
    _holds(eight, f"k = ⌈log₂ 1000⌉ = {k} and m = {m:,} bits ({human_bytes(filter_bytes)})")
    _holds(eight, f"take {human_bytes(PUBLIC_KEY_LIST_BYTES)} of base64: the filter is "
                  f"{PUBLIC_KEY_LIST_BYTES / filter_bytes:.0f} times smaller")
    rate = theory.fp_exact(512 * 2**20 * 8, 20, 440_000_000)
    _holds(eight, f"at 440 million the rate is {rate:.0%}".replace("%", " %"))


def test_small_lessons_prose_numbers():
    two = (LESSONS / "02-why-a-false-positive-happens.md").read_text(encoding="utf-8")
    step = lessons.check(lessons.load_builtin("2"))[-1]
    x, m, k = step["bits_set"], step["m"], step["k"]
    _holds(two, f"With {x} of {m} bits set, the chance of this for any stranger is about ({x}/{m})³ ≈ "
                f"{(x / m) ** k:.3f}")
    three = (LESSONS / "03-the-math.md").read_text(encoding="utf-8")
    _holds(three, f"Bloom's formula says {theory.fp_classic(16, 4, 4):.4f}; the exact rate, averaged over every "
                  f"way the bits can fill, is {theory.fp_exact(16, 4, 4):.4f}")
    seven = (LESSONS / "07-growing-scalable-filters.md").read_text(encoding="utf-8")
    k, _m = theory.optimal_params(100, 0.01)
    _holds(seven, f"almost every stranger finds its {k} bits at 1")


def test_help_primer_constants():
    from bloomviz.workbench.measurement import DEFAULT_PROBES
    text = _flat(help_pages.PRIMER)
    assert f"{0.5 ** math.log(2):.4f}" == "0.6185" and "0.6185<sup>m/n</sup>" in text   # (1/2)^k at k = (m/n) ln 2
    assert f"about {1 / math.log(2):.2f}·log<sub>2</sub>(1/p) bits per item" in text
    assert f"{DEFAULT_PROBES:,} by default" in text

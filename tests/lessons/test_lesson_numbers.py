"""The numbers and claims the built-in lessons' narration states, recomputed from the lessons' own runs (a
sibling of ``test_prose_numbers.py``; the steps' ``expect`` lines pin what the steps compute, this file what the
sentences around them say: "above the exact rate", "about 16 %", "B's counters go from 2 back to 1" …).

Each lesson runs once (``lessons.check``, as ``bloomviz lesson N --check`` does) and its report is shared.
"""

from __future__ import annotations

import functools
import re
import shutil
from pathlib import Path

import pytest

from bloomviz import lessons
from bloomviz.hashing import schemes as hashing
from bloomviz.items.encoding import to_bytes
from bloomviz.lessons.runner import LessonRunner
from bloomviz.theory.intervals import wilson_interval as wilson
from bloomviz.theory import engines
from bloomviz.theory import rates as theory

ROOT = Path(__file__).resolve().parents[2]
LESSONS = ROOT / "bloomviz" / "lessons" / "builtin"
README = re.sub(r"\s+", " ", (ROOT / "README.md").read_text(encoding="utf-8"))


@functools.lru_cache(maxsize=None)
def report(number: str) -> list[dict]:
    return lessons.check(lessons.load_builtin(number))


def text(number: str) -> str:
    path = next(LESSONS.glob(f"0{number}-*.md"))
    return re.sub(r"\s+", " ", path.read_text(encoding="utf-8"))


def _holds(number: str, fragment: str) -> None:
    assert fragment in text(number), f"lesson {number} does not say: {fragment!r}"


def _ensemble(step: dict) -> tuple[float, float, float, float]:
    n = step["numbers"]
    return n["ensemble.low"], n["ensemble.mean"], n["ensemble.high"], n["ensemble.exact"]


def test_lesson_2_the_address_book():
    book, negative, _, culprits = report("2")
    _holds("2", f"{book['m']} bits, k = {book['k']}")
    assert book["n"] == 6 and "Six contacts go in" in text("2")
    assert negative["last"]["bits"].count(0) == 1 and "One of his three bits is 0" in text("2")
    lana = lessons.load_builtin("2").steps[3].actions
    highlight = next(a for a in lana if a.name == "highlight")
    assert sorted(highlight.args) == sorted(culprits["last"]["positions"])     # the highlight is lana's bits


def test_lesson_3_the_ensemble_lands_on_the_exact_rate_and_large_m_closes_the_gap():
    _, ensemble, large = report("3")
    low, _mean, high, exact = _ensemble(ensemble)
    assert low <= exact <= high and ensemble["numbers"]["ensemble.classic"] < low   # "clearly above Bloom's"
    _holds("3", "the mean lands on the exact rate, clearly above Bloom's formula")
    n = large["numbers"]
    assert (n["rates.m"], n["rates.k"]) == theory.optimal_params(10**6, 0.01)[::-1]
    gap = (n["rates.1000000.exact"] - n["rates.1000000.classic"]) / n["rates.1000000.exact"]
    assert gap < 1e-5                                                   # "the two agree to many digits"
    _holds("3", f"For m = {n['rates.m']:,} and a million items the two agree to many digits")


def test_lesson_4_measured_near_the_design_and_past_it():
    measured, past = report("4")[2:]
    assert f"{measured['measured_rate']:.0%}" == "1%" and measured["n"] == 20_000
    _holds("4", "the measured rate sits near 1 %")
    _holds("4", f"About {past['numbers']['predict.answer']:.0%}: at twice its design capacity".replace("%", " %"))
    assert past["n"] == 2 * measured["n"]


def test_lesson_5_each_scheme_where_the_text_puts_it():
    km, mixed, weak, cpp, cpp6 = report("5")
    low, mean, _high, exact = _ensemble(km)
    assert low > exact and "measures it above the exact rate" in text("5")
    low, _mean, high, exact = _ensemble(mixed)
    assert low <= exact <= high and "the same ensemble now matches the exact rate" in text("5")
    low, mean, _high, exact = _ensemble(weak)
    assert low > 1.25 * exact and "the filter measures well above theory" in text("5")
    rows = hashing.SCHEMES["weak-shift"].positions_many([to_bytes(f"w{i}") for i in range(200)], 1024, 8)
    assert {len(set(r)) for r in rows.tolist()} <= {1, 2, 3, 4} and max(len(set(r)) for r in rows.tolist()) == 4
    _holds("5", 'with k = 8 the "eight" positions are four')
    rows = hashing.SCHEMES["seminar-cpp"].positions_many([to_bytes(f"s{i}") for i in range(200)], 1000, 6)
    assert all(r[4] == r[0] and r[5] == r[1] for r in rows.tolist())
    _holds("5", "positions 4 and 5 repeat positions 0 and 1")
    low, _mean, _high, exact = _ensemble(cpp6)
    assert low > exact and "the measured rate rises above theory" in text("5")


def test_lesson_6_counters():
    runner = LessonRunner(lessons.load_builtin("6"))
    runner.next()
    flt = runner.state.filter
    assert flt.max_counter == 3 and "with 2 bits they stop at 3" in text("6")
    runner.next()
    counters = runner.state.filter.counters
    assert [int(counters[p]) for p in (4, 5)] == [1, 1]
    _holds("6", "its counters go from 2 back to 1, and B is still found")


def test_lesson_7_the_scalable_filters_parameters():
    runner = LessonRunner(lessons.load_builtin("7"))
    runner.next()
    runner.next()
    flt = runner.state.filter
    _holds("7", f"Capacity {flt.initial_capacity} and p = {flt.p:.0%}, growth {flt.growth}, tightening "
                f"{flt.tightening}".replace("%", " %"))
    assert flt.growth == 2 and "each new stage is twice as large" in text("7")


def test_lesson_8_kedmis_numbers():
    design, zeroed, garbage, brainflayer = report("8")
    assert zeroed["numbers"]["kedmi.probes"] == 10 * 1000
    _holds("8", "10 rounds of 1,000 random 30-letter strings")
    z = zeroed["numbers"]
    low, high = wilson(z["kedmi.false_positives"], z["kedmi.probes"])
    assert low <= 0.001 <= high and "the measured rate is about the designed 0.001" in text("8")
    g = garbage["numbers"]
    assert g["kedmi.initial_density"] == 0.36
    _holds("8", f"d ≈ 0.36 gives {g['kedmi.expected_rate']:.4f}, and his filter measured "
                f"{g['kedmi.measured_rate']:.4f} here")
    # the README says the same of the toy, in one sentence
    assert (f"a filter that starts with about 36 % of its bits set expects {g['kedmi.expected_rate']:.4f} and "
            f"measures {g['kedmi.measured_rate']:.4f} on his {g['kedmi.probes']:,} strings") in README
    assert g["kedmi.measured_rate"] <= 0.0213 <= g["kedmi.expected_rate"]
    assert brainflayer["numbers"]["rates.80000000.classic"] < 1e-9 and "Fine for the 80 million" in text("8")
    from bloomviz.scenarios import kedmi_toy
    keys = kedmi_toy.KEYS             # the keys the lesson's Kedmi steps build his filter over
    assert keys == 2 ** 15            # one per 15-bit process ID
    _holds("8", f"{keys:,} weak Debian SSH keys (one per 15-bit process ID")


def test_lesson_9_git_and_ethereum():
    built, asked, ensemble, history, block, sizes = report("9")
    git = engines.git(2)
    assert (git.m, git.k) == (built["m"], built["k"]) == (24, 7)
    _holds("9", f"20 bits, so {git.m // 8} bytes, m = {git.m}")
    assert built["bits_set"] * 2 == built["m"] and "Half the bits are set" in text("9")
    assert 0.5 ** 7 < 0.01 and "(1/2)⁷, under 1 %" in text("9")
    p = asked["last"]["positions"]
    assert abs(p[1] - p[0]) == 12 and len(set(p)) == 2 and "h₁ mod 24 is 12" in text("9")
    _low, mean, _high, exact = _ensemble(ensemble)
    _holds("9", f"they measure about {mean:.0%}, {WORDS[round(mean / exact)]} times the exact rate".replace("%", " %"))
    e = block["numbers"]
    _holds("9", f"has {e['eth.bits_set']} of them set: about {round(e['eth.estimated_n'], -2):.0f} entries, and a "
                f"wallet asking \"did my address log here?\" hears \"maybe\" {e['eth.expected_fp']:.1%} of the time"
                .replace("%", " %"))
    r = sizes["numbers"]
    _holds("9", f"Bloom's formula for {r['rates.m']} bits and k = {r['rates.k']} at 50, 200 and 400 distinct "
                f"entries: {r['rates.50.classic']:.3%}, {r['rates.200.classic']:.1%} and "
                f"{r['rates.400.classic']:.1%}".replace("%", " %"))
    if shutil.which("git") is None:
        pytest.skip("git is absent: the history step did not run")
    g = history["numbers"]
    _holds("9", f"asks each of its {g['git.commits']} commits with a parent about every path the history touched")
    assert g["git.predicted"] < 0.01 and round(g["git.measured"] * 100) == 2 and round(g["git.distinct"] * 100) == 2
    _holds("9", "about 2 % of the lookups, against under 1 % that each filter's own fill predicts")


WORDS = {5: "five", 6: "six", 7: "seven"}


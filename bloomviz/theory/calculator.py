"""The parameter calculator: give any consistent subset of n, p, m, k and get the rest.

Solved cases (anything else gets a message saying what to add or remove):
  n, p        -> k = ceil(log2(1/p)), m = ceil(-n ln p / (ln 2)^2)          (the textbook design), then m
                 raised to the smallest m with fp_exact(m, k, n) <= p when the textbook m misses p (it
                 usually does, slightly: n = 1e6, p = 0.01 gives 1.0039%); a note shows both m
  n, p, k     -> the smallest m with fp_exact(m, k, n) <= p
  m, n        -> k = the integer near (m/n) ln 2 with the lower rate; p = fp_exact
  m, n, k     -> p = fp_exact(m, k, n)
  m, p        -> n = the largest n with fp_exact(m, k, n) <= p at k = ceil(log2(1/p))
  m, k, p     -> n = the largest n with fp_exact(m, k, n) <= p
  n, p, m (k) -> checked: the rate reached at the best k (or the given k) must not exceed p
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from bloomviz.theory import rates as theory
from bloomviz.theory.units import human_bytes, one_in
from bloomviz.theory.validate import check_k, check_m, check_n, check_p
from bloomviz.theory.limits import MAX_K, MAX_M

LN2 = math.log(2)


MEMORY_UNITS = (("B", 1), ("KiB", 1 << 10), ("MiB", 1 << 20), ("GiB", 1 << 30))


def memory_units(m: int) -> dict[str, float]:
    """The size of m bits in bytes (whole bytes, rounded up) and in KiB, MiB and GiB."""
    nbytes = math.ceil(m / 8)
    return {unit: nbytes / size for unit, size in MEMORY_UNITS}


@dataclass
class Design:
    n: int
    m: int
    k: int
    p_target: float | None
    fp: float                         # fp_exact at (m, k, n)
    fp_approx: float
    fp_bound: float
    k_real: float                     # (m/n) ln 2
    k_floor: int
    k_ceil: int
    fp_floor: float
    fp_ceil: float
    bits_per_item: float
    lower_bound_bits: float           # log2(1/fp): no structure answering with rate fp can use fewer
    overhead: float                   # bits_per_item / lower_bound_bits
    fill_at_capacity: float
    memory: str
    notes: list[str] = field(default_factory=list)
    fp_classic: float = math.nan      # Bloom's formula (1 − (1 − 1/m)^{kn})^k, below fp for k ≥ 2
    # The integer k with the lowest exact rate (brute force agrees for every m <= 256, n <= m/2): at small m it
    # can lie below both integers next to (m/n) ln 2 (m = 32, n = 2: 9, not 11 or 12).
    k_best: int = 0
    fp_best: float = math.nan

    @property
    def one_in(self) -> str:
        return one_in(self.fp)

    @property
    def memory_bytes(self) -> int:
        return math.ceil(self.m / 8)

    @property
    def memory_units(self) -> dict[str, float]:
        return memory_units(self.m)

    def as_dict(self) -> dict:
        d = {k: v for k, v in self.__dict__.items() if k != "notes"}
        d["one_in"] = self.one_in
        d["memory_bytes"] = self.memory_bytes
        d["notes"] = list(self.notes)
        return d


class CalcError(ValueError):
    """The inputs are out of range or do not determine a design."""


def _clamp_k(k: float) -> int:
    return int(min(MAX_K, max(1, k)))


def _describe(n: int, m: int, k: int, p_target: float | None, notes: list[str], k_best: int | None = None) -> Design:
    fp = theory.fp_exact(m, k, n)
    k_real = (m / n) * LN2
    kf, kc = _clamp_k(math.floor(k_real)), _clamp_k(math.ceil(k_real))
    kb = theory.optimal_k_int(m, n) if k_best is None else k_best
    lb = math.log2(1 / fp) if 0 < fp < 1 else 0.0
    bpi = m / n
    return Design(n=n, m=m, k=k, p_target=p_target, fp=fp, fp_approx=theory.fp_approx(m, k, n),
                  fp_bound=theory.fp_bound(m, k, n), k_real=k_real, k_floor=kf, k_ceil=kc,
                  fp_floor=theory.fp_exact(m, kf, n), fp_ceil=theory.fp_exact(m, kc, n),
                  bits_per_item=bpi, lower_bound_bits=lb, overhead=(bpi / lb) if lb else math.inf,
                  fill_at_capacity=theory.fill_expected(m, k, n), memory=human_bytes(math.ceil(m / 8)),
                  fp_classic=theory.fp_classic(m, k, n), k_best=kb, fp_best=theory.fp_exact(m, kb, n),
                  notes=notes)


def _smallest_m(n: int, k: int, p: float) -> int:
    m = theory.smallest_m(k, n, p)
    if m is None:
        raise CalcError(f"no m up to 2**34 bits reaches p = {p:g} with k = {k} for n = {n:,}")
    return m


def _largest_n(m: int, k: int, p: float) -> int:
    if theory.fp_exact(m, k, 1) > p:
        raise CalcError(f"even one item gives a rate of {theory.fp_exact(m, k, 1):.3g} > p = {p:g} "
                        f"with m = {m:,} and k = {k}: make m larger")
    lo, hi = 1, 1
    while theory.fp_exact(m, k, hi * 2) <= p:
        hi *= 2
    hi *= 2
    return theory.first_true(lo, hi, lambda n: theory.fp_exact(m, k, n) > p) - 1   # fp(lo) <= p < fp(hi)


def best_k_note(m: int, n: int, k: int) -> str:
    """Why k is the best integer k: next to (m/n) ln 2, or (at small m) below it."""
    k_real = (m / n) * LN2
    near = (_clamp_k(math.floor(k_real)), _clamp_k(math.ceil(k_real)))
    if k in near:
        return (f"k = {k}: the integer with the lowest exact rate, next to (m/n)·ln 2 = {k_real:.3f}")
    rounded = _clamp_k(round(k_real))
    cost = theory.fp_exact(m, rounded, n) / theory.fp_exact(m, k, n) - 1
    return (f"k = {k}: the integer with the lowest exact rate; (m/n)·ln 2 = {k_real:.3f} is the optimum of the "
            f"approximation, which at this small m points too high (k = {rounded} would cost {cost:+.0%} in "
            "false positives)")


def solve(n: int | None = None, p: float | None = None, m: int | None = None,
          k: int | None = None) -> Design:
    try:
        n = None if n is None else check_n(n, allow_zero=False)
        p = None if p is None else check_p(p)
        m = None if m is None else check_m(m)
        k = None if k is None else check_k(k)
    except (TypeError, ValueError) as exc:
        raise CalcError(str(exc)) from None
    notes: list[str] = []
    given = {name for name, v in (("n", n), ("p", p), ("m", m), ("k", k)) if v is not None}
    if given >= {"n", "m"}:
        if k is None:
            k = theory.optimal_k_int(m, n)
            notes.append(best_k_note(m, n, k))
            d = _describe(n, m, k, p, notes, k_best=k)
        else:
            d = _describe(n, m, k, p, notes)
        if p is not None and d.fp > p * (1 + 1e-12):
            raise CalcError(f"inconsistent: m = {m:,}, n = {n:,}, k = {k} give a rate of {d.fp:.4g}, "
                            f"above the target p = {p:g}; drop one of the four or enlarge m")
        return d
    if given >= {"n", "p"}:
        if k is None:
            k, m = theory.optimal_params(n, p)
            if k > MAX_K:
                raise CalcError(f"p = {p:g} needs k = {k} > {MAX_K} hash functions; choose a larger p")
            notes.append(f"k = ceil(log2(1/p)) = {k}; m = ceil(−n·ln p / (ln 2)²) = {m:,}")
            if m <= MAX_M and theory.fp_exact(m, k, n) > p:
                # The textbook m assumes the real optimum k; with k rounded up (and the exact formula) it
                # lands a little above p. The smallest m that meets p is a few bits more.
                textbook, rate = m, theory.fp_exact(m, k, n)
                m = _smallest_m(n, k, p)
                notes.append(f"the textbook m = {textbook:,} gives a rate of {rate:.6g} > p = {p:g} at k = {k}; "
                             f"m raised by {m - textbook:,} bits to {m:,}, the smallest m with rate ≤ p")
        else:
            m = _smallest_m(n, k, p)
            notes.append(f"m = {m:,}: the smallest m with rate ≤ p at k = {k}")
        if m > MAX_M:
            raise CalcError(f"the design needs m = {m:,} bits, above the 2**34 limit")
        return _describe(n, m, k, p, notes)
    if given >= {"m", "p"}:
        if k is None:
            k = math.ceil(-math.log2(p))
            if k > MAX_K:
                raise CalcError(f"p = {p:g} needs k = {k} > {MAX_K} hash functions; choose a larger p")
            notes.append(f"k = ceil(log2(1/p)) = {k}")
        n = _largest_n(m, k, p)
        notes.append(f"n = {n:,}: the most items for which the rate stays ≤ p")
        return _describe(n, m, k, p, notes)
    missing = "; ".join(["n and p", "m and n", "m and p"])
    raise CalcError(f"not enough to solve from {', '.join(sorted(given)) or 'nothing'}: give at least {missing}")


def smallest_exact_design(n: int, p: float, max_m: int = MAX_M) -> tuple[int, int]:
    """(m_min, k_min): the fewest bits with which some k meets p in exact terms after n items, and that k.

    The textbook design is sized for the classic formula at the real optimum k; rounded to an integer k and
    by the exact rate it usually lands a little above p (n = 10^6, p = 0.01: 1.0039 %), and at small n by more
    (n = 5: 1.073 p). The best rate over k falls as m grows, so m_min is found by bisection; k_min is
    theory.optimal_k_int there. Raises CalcError when no m up to ``max_m`` meets p."""
    n, p = check_n(n, allow_zero=False), check_p(p)

    def meets(m: int) -> bool:
        return theory.log_fp_exact(m, theory.optimal_k_int(m, n), n) <= math.log(p)

    hi = max(1, theory.optimal_params(n, p)[1])
    while not meets(min(hi, max_m)):
        if hi >= max_m:
            raise CalcError(f"no m up to {max_m:,} bits meets p = {p:g} for n = {n:,} items")
        hi *= 2
    hi = min(hi, max_m)
    m_min = theory.first_true(0, hi, meets)   # meets(0) counts as false; meets(hi) is true
    return m_min, theory.optimal_k_int(m_min, n)


def textbook_design(n: int, p: float, max_m: int = MAX_M) -> tuple[int, int, list[str]]:
    """(m, k, notes): the textbook design for n items at rate p, within what a filter can hold.

    The one place a design's k is capped: p below about 5e-20 asks for k > 64 and filters take at most 64, so
    k = 64 is used and a note says so (the command line prints it, the window shows it beside the design); a
    silent cap would leave the user believing the design they asked for. An m above ``max_m`` (2**34 for
    filters, less in the window) is refused with a ValueError saying why."""
    k, m = theory.optimal_params(n, p)
    if m > max_m:
        raise ValueError(f"n = {n:,} items at p = {p:g} need m = {m:,} bits ({human_bytes(math.ceil(m / 8))}), "
                         f"more than the {'2**34' if max_m == MAX_M else f'{max_m:,}'} bits a filter can have "
                         "here; lower n or raise p")
    notes = []
    if k > MAX_K:
        notes.append(f"the design asks for k = {k}; filters allow at most {MAX_K}, so k = {MAX_K} is used")
        k = MAX_K
    return m, k, notes

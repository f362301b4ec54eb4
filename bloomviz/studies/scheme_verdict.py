"""Compare's verdict on a lane: is its hash scheme at fault, or is it this one filter's luck?

A measurement that misses the formula's rate does not by itself accuse the scheme. The formula, E[(X/m)^k],
averages over how many bits X the n items happen to set; one filter has one X. Given its X (its own bits: the
filter's ``expected_fp``, (X/m)^k for a standard filter, the product of slice fills for a partitioned one, and so
on), a scheme with independent uniform positions passes each probe with exactly that probability, so the passes
over P probes are Binomial(P, q). Two questions, answered separately:

- **the scheme**: is the count of passes above what its fill explains, beyond chance (one-sided exact binomial
  tail below ``ALPHA``)? Only then are its positions called dependent. Measured with 20,000 probes over 40 seeds:
  at m = 128, k = 4, n = 20 the four independent schemes (default, seeded, SHA-256 salted, Kedmi's SHA-256)
  were accused in 0 of 160 lanes, where the old test (the 95 % interval against the formula) accused 119; at the
  lesson preset the three good schemes in 0 of 120 (the old test: 6), ``weak-shift`` in 40 of 40; and
  ``murmur3-km`` at m = 256, k = 8, n = 20 (about 2× what its fill explains) in 39 of 40
  (tests/studies/test_scheme_verdict.py runs the seeds, with fewer probes).
- **the luck**: when the scheme is not at fault but the measured interval misses the formula, the gap is this
  filter's X: set ``bits_z`` standard deviations from the mean of all filters like it (for a filter the
  standard formulas describe), so its own rate (X/m)^k differs from the average.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from bloomviz.filters import capabilities
from bloomviz.i18n import marks, number, tr
from bloomviz.theory.binomial_tails import binomial_tails, bits_set_spread

ALPHA = 0.005   # one-sided: a scheme with independent positions is accused in at most 1 lane of 200

DEPENDENT, BELOW, LUCK, WITHIN = "dependent", "below its fill", "luck", "within"


@dataclass(frozen=True)
class SchemeVerdict:
    label: str
    kind: str                 # DEPENDENT, BELOW, LUCK or WITHIN
    fill_rate: float          # what the filter's own bits explain for an independent scheme
    measured: float
    fp_count: int
    probes: int
    p_above: float            # P[passes >= measured] for Binomial(probes, fill_rate)
    p_below: float
    formula: float            # the variant's own theory (the average over filters)
    formula_missed: bool      # the measurement's 95 % interval misses the formula
    bits_set: int
    bits_mean: float          # all filters like it (nan where the standard formulas do not describe it)
    bits_sd: float

    @property
    def ratio_to_fill(self) -> float:
        if self.fill_rate > 0:
            return self.measured / self.fill_rate
        return math.inf if self.measured > 0 else math.nan

    @property
    def bits_z(self) -> float:
        return (self.bits_set - self.bits_mean) / self.bits_sd if self.bits_sd > 0 else math.nan


def judge(summary, flt) -> SchemeVerdict:
    """The verdict for a lane's ``LaneSummary`` and its filter (as it is after the summary's n inserts)."""
    s = summary
    fill_rate = min(max(float(flt.expected_fp), 0.0), 1.0)
    p_above, p_below = binomial_tails(s.fp_count, s.probes, fill_rate) if s.probes else (1.0, 1.0)
    mean = sd = math.nan
    if capabilities.of(flt).standard_formulas and s.n:
        mean, sd = bits_set_spread(s.m, s.k, s.n)
    missed = s.theory > 0 and (s.low > s.theory or s.high < s.theory)
    if p_above < ALPHA:
        kind = DEPENDENT
    elif p_below < ALPHA:
        kind = BELOW
    elif missed:
        kind = LUCK
    else:
        kind = WITHIN
    return SchemeVerdict(s.label, kind, fill_rate, s.measured, s.fp_count, s.probes, p_above, p_below, s.theory,
                         missed, s.bits_set, mean, sd)


def _rate(x: float) -> str:
    return marks(f"{x:.3g}")


def times(ratio: float) -> str:
    """A ratio as a class reads it: 1.09×, 5,615×."""
    return marks(f"{ratio:.2f}×" if ratio < 10 else f"{ratio:,.0f}×")


def _chance(p: float) -> str:
    return marks(f"p = {p:.1g}") if p >= 1e-6 else "p < 10⁻⁶"


def text(v: SchemeVerdict) -> str:
    """One lane's verdict in words, plain text in the window's language: the Compare tab's message bar shows it
    as typed (a label in markup was shown as its tags)."""
    fill = tr("its {bits} bits set explain {explained} for independent positions, and {passed} of {probes} probes "
              "passed ({measured})").format(bits=number(v.bits_set), explained=_rate(v.fill_rate),
                                             passed=number(v.fp_count), probes=number(v.probes),
                                             measured=_rate(v.measured))
    if v.kind == DEPENDENT:
        return tr("{name}: {fill}, {times} that — more than chance allows ({chance}): its hash positions are not "
                  "independent").format(name=v.label, fill=fill, times=times(v.ratio_to_fill),
                                        chance=_chance(v.p_above))
    if v.kind == BELOW:
        return tr("{name}: {fill}, {times} that — fewer than chance allows ({chance}): its positions avoid each "
                  "other more than independent ones would").format(name=v.label, fill=fill,
                                                                   times=times(v.ratio_to_fill),
                                                                   chance=_chance(v.p_below))
    if v.kind == LUCK:
        spread = (tr("; filters like it set {mean} ± {sd} bits, this one is {z} sd").format(
            mean=number(v.bits_mean, 1), sd=number(v.bits_sd, 1), z=marks(f"{v.bits_z:+.1f}"))
            if math.isfinite(v.bits_z) else "")
        template = (tr("{name} is above the formula ({formula}, the average over all filters like it), but {fill}: "
                       "its scheme is fine; what separates it from the formula is this filter's luck in how many "
                       "bits its items set{spread}") if v.measured > v.formula else
                    tr("{name} is below the formula ({formula}, the average over all filters like it), but {fill}: "
                       "its scheme is fine; what separates it from the formula is this filter's luck in how many "
                       "bits its items set{spread}"))
        return template.format(name=v.label, formula=_rate(v.formula), fill=fill, spread=spread)
    return tr("{name}: within its interval of the formula ({formula}); {fill}").format(
        name=v.label, formula=_rate(v.formula), fill=fill)


def summary_text(verdicts: list[SchemeVerdict]) -> str:
    """The comparison's verdict: every lane whose scheme is at fault or whose luck shows, then the rest."""
    notable = [text(v) for v in verdicts if v.kind != WITHIN]
    if not notable:
        return tr("done: every configuration is within its interval of the formula, and within chance of what its "
                  "own bits explain.")
    if len(notable) == len(verdicts):
        return tr("done: {verdicts}.").format(verdicts="; ".join(notable))
    return tr("done: {verdicts}. The others are within their intervals.").format(verdicts="; ".join(notable))

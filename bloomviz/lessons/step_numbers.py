"""The numbers a lesson step computed (``design``, ``rates``, ``ensemble``, ``kedmi``, ``git-history``,
``ethereum-block``), in words
for the window.

A step's report carries them as flat keys (``design.k``, ``rates.440000000.classic``, …); the Lesson tab shows
one line per group under the filter's own line, so that a step whose point is a number (the design for 10⁶ items,
Brainflayer's rates, an ensemble's mean) shows that number and not only the filter left from an earlier step.
Plain text, no Qt: the command line can print the same lines.
"""

from __future__ import annotations

from bloomviz.lessons.actions import REGISTRY
from bloomviz.vocabulary import Verdict
from bloomviz.theory.units import human_bytes, percent_text, rate_text
from bloomviz.i18n import marks, number, tr



def _design(n: dict) -> str:
    return (f"Design for n = {n['design.n']:,} at p = {percent_text(n['design.p'])}: k = {n['design.k']}, "
            f"m = {n['design.m']:,} bits, {n['design.bits_per_item']:.2f} bits per item (the lower bound "
            f"log₂(1/p) is {n['design.lower_bound_bits_per_item']:.2f}; the best k, (m/n) ln 2, is "
            f"{n['design.optimal_k']:.2f}); exact rate {rate_text(n['design.exact'])}, Bloom's formula "
            f"{rate_text(n['design.classic'])}")


def _rates(n: dict) -> list[str]:
    counts = sorted({int(key.split(".")[1]) for key in n if key.count(".") == 2 and key.startswith("rates.")},
                    reverse=True)
    size = n["rates.m"]
    head = f"Formulas for m = {size:,} bits ({human_bytes(size / 8)}), k = {n['rates.k']}"

    def rates(count: int) -> str:
        exact = n.get(f"rates.{count}.exact")
        return (f"n = {count:,}: Bloom's formula {rate_text(n[f'rates.{count}.classic'])}"
                + (f", exact {rate_text(exact)}" if exact is not None else ""))
    if len(counts) == 1:
        return [f"{head}, {rates(counts[0])}"]
    return [f"{head}:", *(rates(count) for count in counts)]


def _ensemble(n: dict, report: dict) -> str:
    return (f"{n['ensemble.filters']:,} random filters of m = {report['m']:,}, k = {report['k']} ({report['scheme']}), "
            f"n = {n['ensemble.n']:,} each: mean measured rate {rate_text(n['ensemble.mean'])} (95 % interval "
            f"{rate_text(n['ensemble.low'])}–{rate_text(n['ensemble.high'])}); exact {rate_text(n['ensemble.exact'])}, "
            f"Bloom's formula {rate_text(n['ensemble.classic'])}")


def _kedmi(n: dict) -> str:
    start = ("all bits 0 at the start" if not n["kedmi.initial_bits_set"] else
             f"{n['kedmi.initial_bits_set']:,} bits ({percent_text(n['kedmi.initial_density'])}) set before any key")
    return (f"Kedmi's toy, {start}: his test found {n['kedmi.false_positives']:,} of {n['kedmi.probes']:,} random "
            f"strings ({rate_text(n['kedmi.measured_rate'])}); expected from the bits set "
            f"{rate_text(n['kedmi.expected_rate'])}; a zeroed array gives {rate_text(n['kedmi.exact_rate_zeroed'])}")


def _git(n: dict) -> str:
    return (f"git's filters for {n['git.commits']:,} commits (median {n['git.median_bits']:g} bits): "
            f"{n['git.false_positives']:,} false positives in {n['git.lookups']:,} lookups of paths a commit did not "
            f"change, {rate_text(n['git.measured'])} measured; the fill predicts {rate_text(n['git.predicted'])} "
            f"(fill^k), {rate_text(n['git.distinct'])} counting only distinct positions "
            f"({percent_text(n['git.coinciding'])} of the lookups had coinciding positions); textbook "
            f"{rate_text(n['git.textbook'])}; false negatives {n['git.false_negatives']:,}")


def _eth(n: dict) -> str:
    return (f"An Ethereum mainnet block of 2024: {n['eth.bits_set']:,} of {n['eth.m']:,} bits set "
            f"({percent_text(n['eth.fill'])}), about {n['eth.estimated_n']:,.0f} entries estimated from them; a "
            f"never-logged address or topic passes with chance (fill)^{n['eth.k']} = {rate_text(n['eth.expected_fp'])}")


def computed_lines(report: dict) -> list[str]:
    """One line per group of numbers the step computed (none for a step that computed nothing)."""
    n = report.get("numbers") or {}
    lines: list[str] = []
    if "design.k" in n:
        lines.append(_design(n))
    if "rates.m" in n:
        lines.extend(_rates(n))
    if "ensemble.mean" in n and report.get("m") is not None:
        lines.append(_ensemble(n, report))
    if "kedmi.measured_rate" in n:
        lines.append(_kedmi(n))
    if "git.measured" in n:
        lines.append(_git(n))
    if "eth.bits_set" in n:
        lines.append(_eth(n))
    return lines


def theory_only(step) -> bool:
    """A step that computes numbers about other filters (a design, formulas, an ensemble) and does nothing to the
    lesson's filter beyond making it: the window shows those numbers, not the filter left from before."""
    about = {REGISTRY[a.name].about for a in step.actions}   # what each action's declaration says it is about
    return "theory" in about and "filter" not in about


def starts_from_garbage(report: dict) -> bool:
    """Kedmi's toy started with bits set: the exact rate for n inserts from zero does not describe it."""
    return bool((report.get("numbers") or {}).get("kedmi.initial_bits_set"))


def verdict_class_text(last: dict) -> str:
    """The four-way verdict of a lookup record, with what caused an error: a false negative's zero counters and
    the forced removal that cleared them; an item inserted and removed as often that still tests present."""
    kind = last.get("class")
    if kind in (None, Verdict.MAYBE_PRESENT):
        return ""
    if kind == Verdict.FALSE_NEGATIVE:
        cause = last.get("caused_by")
        by = f", cleared by the forced removal of “{cause['item']}”" if cause else ""
        zeros = last.get("zeros", ())
        cells = f"counter{'s' if len(zeros) > 1 else ''} {', '.join(str(p) for p in zeros)}"
        return f" (a FALSE NEGATIVE: it is in the set; {cells} at 0{by})"
    if kind == Verdict.FALSE_POSITIVE and last.get("inserted"):
        stuck = ", ".join(str(p) for p in last.get("stuck", ()))
        held = f"; counters {stuck} stuck at their top" if stuck else ""
        return (f" (a false positive: inserted {last['inserted']}×, removed {last['removed']}×, "
                f"not in the set{held})")
    return f" ({kind})"


def filter_line(r: dict, standard_formulas: bool, counters: dict | None = None) -> list[str]:
    """The lesson filter's line: m, k, scheme, n, bits set, the rates and the last operation, each part left out
    when ``r`` has it as None (the window keeps back what a question's answer would give away). ``counters``
    (position -> value) are shown for a counting filter's lit positions."""
    if r.get("m") is None:
        return []
    parts = [tr("m = {m} bits").format(m=number(r["m"])), f"k = {r['k']}", f"{r['scheme']}", f"n = {number(r['n'])}"]
    if r.get("bits_set") is not None:
        parts.append(tr("bits set {count}").format(count=number(r["bits_set"])))
    if r.get("measured_rate") is not None:
        parts.append(tr("measured {rate}").format(rate=marks(rate_text(r["measured_rate"]))))
    if r.get("exact_rate") is not None:
        # Kedmi's toy with garbage bits: the formula for n inserts into zeroed bits is not this filter's rate
        label = "exact for a zeroed start" if starts_from_garbage(r) else \
            "exact for n inserts without removals" if r.get("counters_rate") is not None else "exact"
        parts.append(f"{tr(label)} {marks(rate_text(r['exact_rate']))}")
    if r.get("counters_rate") is not None and r.get("exact_rate") is not None:
        parts.append(tr("its counters give {rate}").format(rate=marks(rate_text(r["counters_rate"]))))
    if r.get("classic_rate") is not None and standard_formulas and not starts_from_garbage(r):
        parts.append(tr("Bloom's formula {rate}").format(rate=marks(rate_text(r["classic_rate"]))))
    last = r.get("last") or {}
    if last.get("action"):
        verdict = {"maybe": "probably in the set", "no": "definitely not in the set"}.get(last.get("verdict"))
        parts.append(tr("last: {action} “{item}”").format(action=tr(last["action"]), item=last.get("item", ""))
                     + (f" → {tr(verdict)}" if verdict else "") + verdict_class_text(last))
        culprits = last.get("culprits") or {}
        # named only when every bit has a named setter: a bit set by generated items or by the item itself (a
        # counter stuck at its top) has no one to name
        if last.get("verdict") == "maybe" and not last.get("member") and culprits and all(culprits.values()):
            parts.append(tr("its bits set by: ") + "; ".join(f"{p} ← {', '.join(who) or '?'}"
                                                             for p, who in culprits.items()))
    if counters:
        parts.append(tr("counters: ") + ", ".join(f"[{p}] = {v}" for p, v in counters.items()))
    return parts

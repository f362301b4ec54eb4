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
from bloomviz.i18n import marks, ntr, number, tr



def _rate(x: float) -> str:
    return marks(rate_text(x))


def _percent(x: float) -> str:
    return marks(percent_text(x))


def _design(n: dict) -> str:
    return tr("Design for n = {n} at p = {p}: k = {k}, m = {m} bits, {per} bits per item (the lower bound "
              "log₂(1/p) is {bound}; the best k, (m/n) ln 2, is {best}); exact rate {exact}, Bloom's formula "
              "{classic}").format(n=number(n["design.n"]), p=_percent(n["design.p"]), k=n["design.k"],
                                  m=number(n["design.m"]), per=number(n["design.bits_per_item"], 2),
                                  bound=number(n["design.lower_bound_bits_per_item"], 2),
                                  best=number(n["design.optimal_k"], 2), exact=_rate(n["design.exact"]),
                                  classic=_rate(n["design.classic"]))


def _rates(n: dict) -> list[str]:
    counts = sorted({int(key.split(".")[1]) for key in n if key.count(".") == 2 and key.startswith("rates.")},
                    reverse=True)
    size = n["rates.m"]
    head = tr("Formulas for m = {m} bits ({size}), k = {k}").format(m=number(size), size=marks(human_bytes(size / 8)),
                                                                  k=n["rates.k"])

    def rates(count: int) -> str:
        exact = n.get(f"rates.{count}.exact")
        return (tr("n = {n}: Bloom's formula {rate}").format(n=number(count), rate=_rate(n[f"rates.{count}.classic"]))
                + (tr(", exact {rate}").format(rate=_rate(exact)) if exact is not None else ""))
    if len(counts) == 1:
        return [f"{head}, {rates(counts[0])}"]
    return [f"{head}:", *(rates(count) for count in counts)]


def _ensemble(n: dict, report: dict) -> str:
    filters = n["ensemble.filters"]
    return ntr("{filters} random filter of m = {m}, k = {k} ({scheme}), n = {n} each: mean measured rate {mean} "
               "(95 % interval {low}–{high}); exact {exact}, Bloom's formula {classic}",
               "{filters} random filters of m = {m}, k = {k} ({scheme}), n = {n} each: mean measured rate {mean} "
               "(95 % interval {low}–{high}); exact {exact}, Bloom's formula {classic}", filters).format(
        filters=number(filters), m=number(report["m"]), k=report["k"], scheme=report["scheme"],
        n=number(n["ensemble.n"]), mean=_rate(n["ensemble.mean"]), low=_rate(n["ensemble.low"]),
        high=_rate(n["ensemble.high"]), exact=_rate(n["ensemble.exact"]), classic=_rate(n["ensemble.classic"]))


def _kedmi(n: dict) -> str:
    start = (tr("all bits 0 at the start") if not n["kedmi.initial_bits_set"] else
             tr("{bits} bits ({percent}) set before any key").format(bits=number(n["kedmi.initial_bits_set"]),
                                                                     percent=_percent(n["kedmi.initial_density"])))
    return tr("Kedmi's toy, {start}: his test found {found} of {probes} random strings ({measured}); expected from "
              "the bits set {expected}; a zeroed array gives {zeroed}").format(
        start=start, found=number(n["kedmi.false_positives"]), probes=number(n["kedmi.probes"]),
        measured=_rate(n["kedmi.measured_rate"]), expected=_rate(n["kedmi.expected_rate"]),
        zeroed=_rate(n["kedmi.exact_rate_zeroed"]))


def _git(n: dict) -> str:
    return tr("git's filters for {commits} commits (median {median} bits): {found} false positives in {lookups} "
              "lookups of paths a commit did not change, {measured} measured; the fill predicts {predicted} "
              "(fill^k), {distinct} counting only distinct positions ({coinciding} of the lookups had coinciding "
              "positions); textbook {textbook}; false negatives {missed}").format(
        commits=number(n["git.commits"]), median=number(n["git.median_bits"]), found=number(n["git.false_positives"]),
        lookups=number(n["git.lookups"]), measured=_rate(n["git.measured"]), predicted=_rate(n["git.predicted"]),
        distinct=_rate(n["git.distinct"]), coinciding=_percent(n["git.coinciding"]),
        textbook=_rate(n["git.textbook"]), missed=number(n["git.false_negatives"]))


def _eth(n: dict) -> str:
    return tr("An Ethereum mainnet block of 2024: {bits} of {m} bits set ({fill}), about {entries} entries "
              "estimated from them; a never-logged address or topic passes with chance (fill)^{k} = {rate}").format(
        bits=number(n["eth.bits_set"]), m=number(n["eth.m"]), fill=_percent(n["eth.fill"]),
        entries=number(n["eth.estimated_n"], 0), k=n["eth.k"], rate=_rate(n["eth.expected_fp"]))


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
        by = tr(", cleared by the forced removal of “{item}”").format(item=cause["item"]) if cause else ""
        zeros = last.get("zeros", ())
        return ntr(" (a FALSE NEGATIVE: it is in the set; counter {cells} at 0{by})",
                   " (a FALSE NEGATIVE: it is in the set; counters {cells} at 0{by})", len(zeros)).format(
            cells=", ".join(str(p) for p in zeros), by=by)
    if kind == Verdict.FALSE_POSITIVE and last.get("inserted"):
        stuck = last.get("stuck", ())
        held = ntr("; counter {cells} stuck at its top", "; counters {cells} stuck at their top", len(stuck)).format(
            cells=", ".join(str(p) for p in stuck)) if stuck else ""
        return tr(" (a false positive: inserted {inserted}×, removed {removed}×, not in the set{held})").format(
            inserted=last["inserted"], removed=last["removed"], held=held)
    return f" ({tr(f'{kind}')})"


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

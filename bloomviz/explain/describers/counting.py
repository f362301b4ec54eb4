"""The counting filter's words: counters, their saturation, and Fan et al.'s bound on a counter sticking."""

from __future__ import annotations

import math

from bloomviz.explain.describers.standard import Row, StandardWords
from bloomviz.i18n import marks, ntr, number, tr


class CountingWords(StandardWords):
    title = "Counting (c-bit counters, supports removal)"
    short_title = "Counting"
    choice_label = "Counting (remove items)"
    description = "a small counter per position, so items can be removed."
    unit = "counters"
    theory_name = "theory (counting)"
    theory_label = "theory: exact (a counter > 0 is a set bit)"

    def kind_phrase(self) -> str:
        return tr("counting filter ({bits}-bit counters)").format(bits=self.flt.counter_bits)

    def size_text(self) -> str:
        return tr("{m} counters of {bits} bits").format(m=number(self.flt.m), bits=self.flt.counter_bits)

    def stored_bits(self) -> int:
        return self.flt.m * self.flt.counter_bits

    def describe_bit(self, index: int) -> str:
        top = self.flt.max_counter
        if self.flt.counter(index) == top:
            return tr("of at most {top}: saturated, never decremented").format(top=top)
        return tr("of at most {top}").format(top=top)

    def insert_note(self, insertion) -> str:
        top = self.flt.max_counter
        stuck = sorted({p for p, c in zip(insertion.positions, insertion.counters) if c == top})
        if not stuck:
            return ""
        return ntr(" Counter {cells} is saturated at {top}: never counted further, never decremented.",
                   " Counters {cells} are saturated at {top}: never counted further, never decremented.",
                   len(stuck)).format(cells=", ".join(number(p) for p in stuck), top=top)

    def operation_rows(self, op: str, result) -> tuple[Row, ...]:
        c, top = self.flt.counter_bits, self.flt.max_counter
        return ((tr("counters at the k positions") + (tr(" (after +1)") if op == "insert" else ""),
                 ", ".join(f"{number(p)}: {v}" for p, v in zip(result.positions, result.counters))),
                (tr("saturation"), tr("c = {c} bits per counter: at most 2^{c} − 1 = {top}; {count} counters are "
                                      "saturated now").format(c=c, top=top, count=number(self.flt.saturated_count))))

    def theory_rows(self) -> tuple[Row, ...]:
        flt = self.flt
        m, k, j, n = flt.m, flt.k, flt.max_counter, len(flt)
        # A counter sticks at its top value 2^c − 1 (15 for 4 bits): that, not 2^c, is the value whose
        # probability matters here, so Fan et al.'s bound P(count ≥ j) ≤ (e·k·n/(j·m))^j is taken at it.
        stuck = min(1.0, (math.e * k * n / (j * m)) ** j) if n else 0.0
        return ((tr("theory, exact (a counter above 0 is a set bit)"),
                 f"E[(X/m)^k] = {marks(f'{flt.theory_fp(n):.4g}')}"),
                (tr("P(a given counter reaches 2^c − 1 = {j} and sticks)").format(j=j),
                 f"≤ (e·k·n / (j·m))^j = (e·{k}·{number(n)} / ({j}·{number(m)}))^{j} = {marks(f'{stuck:.3g}')}"),
                (tr("counters now"), tr("highest {highest}, saturated {saturated}").format(
                    highest=flt.highest_counter, saturated=number(flt.saturated_count))))

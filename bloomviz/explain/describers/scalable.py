"""The scalable filter's words: its stages as grid bands, its compound bound as a line on the plot, and the
sentences and rows that explain an insert (which stage; a stage that opened) or a lookup (every stage's answer).
"""

from __future__ import annotations

from typing import Sequence

from bloomviz.filters.rows import scheme_of
from bloomviz.explain.describers.standard import Band, Row, StandardWords
from bloomviz.i18n import marks, ntr, number, tr


def _first_error(flt) -> float:
    """p₀ = p·(1 − r), the error of stage 0."""
    return flt.stages.specs[0].error


class ScalableWords(StandardWords):
    title = "Scalable (grows in stages, rate kept under p)"
    short_title = "Scalable"
    choice_label = "Scalable (grows, rate under p)"
    description = "grows in stages as items arrive, keeping the rate under p."
    theory_name = "theory (scalable)"
    theory_label = "theory: 1 − Π(1 − FP of stage i)"

    @property
    def bands_text(self) -> str:
        return tr("outlined: the stages, oldest first (inserts go to the newest)")

    def kind_phrase(self) -> str:
        return "scalable filter"

    def describe_new(self, capacity: int | None = None) -> str:
        # its capacity is its own initial capacity: a design's n would say nothing more
        flt = self.flt
        return (f"A new empty scalable filter: stage 0 of m = {flt.m:,} bits, k = {flt.k}, holding "
                f"{flt.initial_capacity:,} items; the rate stays under p = {flt.p:g} as stages are added "
                f"(growth {flt.growth}, tightening {flt.tightening:g}); scheme {scheme_of(flt).title}.")

    def size_text(self) -> str:
        return tr("m = {m} bits in {stages} stages").format(m=number(self.flt.m), stages=len(self.flt.stages))

    def summary_text(self, capacity: int | None = None) -> str:
        stages = len(self.flt.stages)
        return ntr("Now: scalable, {stages} stage, m = {m} bits in all, rate bound p = {p}.",
                   "Now: scalable, {stages} stages, m = {m} bits in all, rate bound p = {p}.", stages).format(
            stages=stages, m=number(self.flt.m), p=marks(f"{self.flt.p:g}"))

    def grid_bands(self, recent: Sequence[int] = ()) -> list[Band]:
        flt = self.flt
        return [(off, off + st.m,
                 tr("stage {stage}: {count}/{capacity} items, fill {percent}%").format(
                     stage=i, count=number(len(st)), capacity=number(spec.capacity),
                     percent=f"{st.bits_set / st.m * 100:.0f}"))
                for i, (st, spec, off) in enumerate(zip(flt.stages, flt.stages.specs, flt.stages.offsets))]

    def describe_bit(self, index: int) -> str:
        stages = self.flt.stages
        i = stages.of_bit(index)
        return tr("stage {stage}, its bit {bit}").format(stage=i, bit=number(index - stages.offsets[i]))

    def bound_line(self) -> tuple[float, str] | None:
        flt = self.flt
        return flt.p, f"bound p₀/(1 − r) = {_first_error(flt):.3g}/(1 − {flt.tightening:g}) = {flt.p:g}"

    def insert_note(self, insertion) -> str:
        if not insertion.new_stage:
            return ""
        st = self.flt.stages[insertion.stage]
        return (f" Stage {insertion.stage - 1} was full, so this insert opened stage {insertion.stage} "
                f"(m = {st.m:,} bits, k = {st.k}): the grid grew.")

    def operation_rows(self, op: str, result) -> tuple[Row, ...]:
        flt = self.flt
        if op == "insert":
            st, spec = flt.stages[result.stage], flt.stages.specs[result.stage]
            return (("stage chosen", f"stage {result.stage}, the newest (inserts always go there): "
                                     f"{len(st):,} of {spec.capacity:,} items, bits "
                                     f"{result.offset:,}…{result.offset + st.m - 1:,}"),
                    ("grid position = stage start + position in the stage",
                     ", ".join(f"{result.offset:,} + {p:,}" for p in result.local_positions)))
        rows = []
        for i, look in enumerate(result.stages):
            verdict = "all bits set" if look.maybe_present else \
                f"bit {result.offsets[i] + look.zero_positions[0]:,} is 0"
            rows.append((f"stage {i} (k = {len(look.positions)})", verdict))
        return tuple(rows)

    def theory_rows(self) -> tuple[Row, ...]:
        flt = self.flt
        stages = flt.stages
        specs, p0 = stages.specs, _first_error(flt)
        n = len(flt)
        rows = [("stages", f"{len(specs)}; stage i holds n₀·s^i = {flt.initial_capacity:,}·{flt.growth}^i "
                           f"items at error p₀·r^i = {p0:.3g}·{flt.tightening:g}^i"),
                ("compound bound", f"Σ p_i = p₀/(1 − r) = {p0:.3g}/(1 − {flt.tightening:g}) "
                                   f"= {flt.p:g}"),
                ("theory now", f"1 − Π_i (1 − FP_i) = {flt.theory_fp(n):.4g}")]
        first = max(0, len(specs) - 6)   # the newest six stages: older ones are full and change no more
        for i, (st, spec) in enumerate(list(zip(stages, specs))[-6:], start=first):
            rows.append((f"stage {i}", f"m = {st.m:,}, k = {st.k}, {len(st):,}/{spec.capacity:,} items, "
                                       f"fill {st.bits_set / st.m * 100:.1f}%, error ≤ {spec.error:.3g}"))
        return tuple(rows)

    def hash_rows(self, data: bytes) -> list[Row]:
        """Each stage's size and the item's positions in it (grid coordinates)."""
        flt = self.flt
        rows = [("stages", tr("{count}; stage i holds {capacity}·{growth}^i items at error {error}·{tightening}^i "
                              "(sum < p = {p})").format(
            count=len(flt.stages), capacity=flt.initial_capacity, growth=flt.growth, error=marks(f"{_first_error(flt):.3g}"),
            tightening=marks(f"{flt.tightening}"), p=marks(f"{flt.p}")))]
        for i, (s, spec, off) in enumerate(zip(flt.stages, flt.stages.specs, flt.stages.offsets)):
            pos = ", ".join(str(off + p) for p in s.positions(data))
            rows.append((tr("stage {stage}: m={m}, k={k}, {count}/{capacity} items, bits {first}…{last}").format(
                stage=i, m=s.m, k=s.k, count=len(s), capacity=spec.capacity, first=off, last=off + s.m - 1), pos))
        return rows

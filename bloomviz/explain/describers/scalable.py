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
        return tr("scalable filter")

    def describe_new(self, capacity: int | None = None) -> str:
        # its capacity is its own initial capacity: a design's n would say nothing more
        flt = self.flt
        return tr("A new empty scalable filter: stage 0 of m = {m} bits, k = {k}, holding {capacity} items; the rate "
                  "stays under p = {p} as stages are added (growth {growth}, tightening {tightening}); scheme "
                  "{scheme}.").format(m=number(flt.m), k=flt.k, capacity=number(flt.initial_capacity),
                                      p=marks(f"{flt.p:g}"), growth=marks(f"{flt.growth}"),
                                      tightening=marks(f"{flt.tightening:g}"), scheme=tr(scheme_of(flt).title))

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
        return flt.p, tr("bound p₀/(1 − r) = {first}/(1 − {tightening}) = {p}").format(
            first=marks(f"{_first_error(flt):.3g}"), tightening=marks(f"{flt.tightening:g}"), p=marks(f"{flt.p:g}"))

    def insert_note(self, insertion) -> str:
        if not insertion.new_stage:
            return ""
        st = self.flt.stages[insertion.stage]
        return tr(" Stage {full} was full, so this insert opened stage {stage} (m = {m} bits, k = {k}): the grid "
                  "grew.").format(full=insertion.stage - 1, stage=insertion.stage, m=number(st.m), k=st.k)

    def operation_rows(self, op: str, result) -> tuple[Row, ...]:
        flt = self.flt
        if op == "insert":
            st, spec = flt.stages[result.stage], flt.stages.specs[result.stage]
            return ((tr("stage chosen"), tr("stage {stage}, the newest (inserts always go there): {count} of "
                                            "{capacity} items, bits {first}…{last}").format(
                        stage=result.stage, count=number(len(st)), capacity=number(spec.capacity),
                        first=number(result.offset), last=number(result.offset + st.m - 1))),
                    (tr("grid position = stage start + position in the stage"),
                     ", ".join(f"{number(result.offset)} + {number(p)}" for p in result.local_positions)))
        rows = []
        for i, look in enumerate(result.stages):
            verdict = tr("all bits set") if look.maybe_present else \
                tr("bit {bit} is 0").format(bit=number(result.offsets[i] + look.zero_positions[0]))
            rows.append((tr("stage {stage} (k = {k})").format(stage=i, k=len(look.positions)), verdict))
        return tuple(rows)

    def theory_rows(self) -> tuple[Row, ...]:
        flt = self.flt
        stages = flt.stages
        specs, p0 = stages.specs, _first_error(flt)
        n = len(flt)
        t, p0_text = marks(f"{flt.tightening:g}"), marks(f"{p0:.3g}")
        rows = [(tr("stages"), tr("{count}; stage i holds n₀·s^i = {capacity}·{growth}^i items at error p₀·r^i = "
                                  "{error}·{tightening}^i").format(count=len(specs),
                                                                   capacity=number(flt.initial_capacity),
                                                                   growth=marks(f"{flt.growth}"), error=p0_text,
                                                                   tightening=t)),
                (tr("compound bound"), f"Σ p_i = p₀/(1 − r) = {p0_text}/(1 − {t}) = {marks(f'{flt.p:g}')}"),
                (tr("theory now"), f"1 − Π_i (1 − FP_i) = {marks(f'{flt.theory_fp(n):.4g}')}")]
        first = max(0, len(specs) - 6)   # the newest six stages: older ones are full and change no more
        for i, (st, spec) in enumerate(list(zip(stages, specs))[-6:], start=first):
            rows.append((tr("stage {stage}").format(stage=i), tr(
                "m = {m}, k = {k}, {count}/{capacity} items, fill {fill}%, error ≤ {error}").format(
                m=number(st.m), k=st.k, count=number(len(st)), capacity=number(spec.capacity),
                fill=number(st.bits_set / st.m * 100, 1), error=marks(f"{spec.error:.3g}"))))
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

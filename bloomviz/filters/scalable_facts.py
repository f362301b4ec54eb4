"""What a scalable filter is and what the window says about it: its declared parameters, its stages as grid
bands, its compound bound as a line on the plot, and the sentences and rows that explain an insert or a lookup.

``ScalableFacts`` is a mixin of ``ScalableBloomFilter`` (scalable.py holds the filter itself and is long enough
already); it answers the same questions as the "variant facts" and "variant words" blocks of ``BloomFilter``.
"""

from __future__ import annotations

from typing import Sequence

import numpy as np

from bloomviz.filters.params import GROWTH, INITIAL_CAPACITY, RATE_BOUND, TIGHTENING
from bloomviz.filters.scalable_stages import STAGE_RECORD, scalable_fp


class ScalableFacts:
    # --- variant facts (see BloomFilter's) -----------------------------------------------------------------------
    sized = False                 # grows from a capacity: m and k are the stages' outcome, not its parameters
    theory_name = "theory (scalable)"
    parameters = (INITIAL_CAPACITY, RATE_BOUND, GROWTH, TIGHTENING)
    title = "Scalable (grows in stages, rate kept under p)"
    short_title = "Scalable"
    choice_label = "Scalable (grows, rate under p)"
    description = "grows in stages as items arrive, keeping the rate under p."
    unit = "bits"
    can_remove = False
    theory_label = "theory: 1 − Π(1 − FP of stage i)"
    bands_text = "outlined: the stages, oldest first (inserts go to the newest)"
    stored_params = {"initial_capacity": int, "p": float, "growth": int, "tightening": float, "stages": int}

    @classmethod
    def payload_size(cls, m: int, params: dict) -> tuple[int, int]:
        # Each stage stores ceil(m_i/8) bytes and the m_i sum to m, so the bit bytes lie in [ceil(m/8),
        # (m+7S)/8]; the stage table (checked by from_state) fixes the exact size.
        stages = params["stages"]
        if not 1 <= stages <= 64:
            raise ValueError(f"stages={stages} is out of range 1..64")
        table = STAGE_RECORD.size * stages
        return table + (m + 7) // 8, table + (m + 7 * stages) // 8

    def theory_at(self, n: float) -> float:
        """Its theoretical rate after n inserts (``theory_curve`` at one point)."""
        return float(self.theory_curve(np.array([n], dtype=float))[0])

    def theory_curve(self, n, samples: int = 64):
        """1 − Π_i (1 − FP_i(n)) at every n (see scalable_stages.scalable_fp)."""
        return np.atleast_1d(scalable_fp(self.initial_capacity, self.p, n, self.growth, self.tightening))

    # --- variant words (see BloomFilter's) -----------------------------------------------------------------------
    def kind_phrase(self) -> str:
        return "scalable filter"

    def describe_new(self, capacity: int | None = None) -> str:
        # its capacity is its own initial capacity: a design's n would say nothing more
        return (f"A new empty scalable filter: stage 0 of m = {self.m:,} bits, k = {self.k}, holding "
                f"{self.initial_capacity:,} items; the rate stays under p = {self.p:g} as stages are added "
                f"(growth {self.growth}, tightening {self.tightening:g}); scheme {self.scheme_obj.title}.")

    def size_text(self) -> str:
        return f"m = {self.m:,} bits in {len(self.stages)} stages"

    @property
    def stored_bits(self) -> int:
        return self.m

    def summary_text(self, capacity: int | None = None) -> str:
        stages = len(self.stages)
        return (f"Now: scalable, {stages} stage{'s' if stages > 1 else ''}, m = {self.m:,} bits in all, rate bound "
                f"p = {self.p:g}.")

    def grid_bands(self, recent: Sequence[int] = ()) -> list[tuple[int, int, str]]:
        return [(off, off + st.m, f"stage {i}: {len(st):,}/{spec.capacity:,} items, fill {st.fill_ratio * 100:.0f}%")
                for i, (st, spec, off) in enumerate(zip(self.stages, self.stage_specs(), self.stage_offsets()))]

    def describe_bit(self, index: int) -> str:
        i = self.stage_of_bit(index)
        return f"stage {i}, its bit {index - self.stage_offsets()[i]:,}"

    def bound_line(self) -> tuple[float, str] | None:
        return self.p, f"bound p₀/(1 − r) = {self.first_error:.3g}/(1 − {self.tightening:g}) = {self.p:g}"

    def positions_added(self, item: object) -> tuple[int, ...]:
        # an insert goes to the newest stage only: its k positions are the last of ``positions``
        return self.positions(item)[-self.k:]

    def insert_note(self, insertion) -> str:
        if not insertion.new_stage:
            return ""
        st = self.stages[insertion.stage]
        return (f" Stage {insertion.stage - 1} was full, so this insert opened stage {insertion.stage} "
                f"(m = {st.m:,} bits, k = {st.k}): the grid grew.")

    def operation_rows(self, op: str, result) -> tuple[tuple[str, str], ...]:
        if op == "insert":
            st, spec = self.stages[result.stage], self.stage_specs()[result.stage]
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

    def theory_rows(self) -> tuple[tuple[str, str], ...]:
        specs = self.stage_specs()
        n = len(self)
        rows = [("stages", f"{len(specs)}; stage i holds n₀·s^i = {self.initial_capacity:,}·{self.growth}^i "
                           f"items at error p₀·r^i = {self.first_error:.3g}·{self.tightening:g}^i"),
                ("compound bound", f"Σ p_i = p₀/(1 − r) = {self.first_error:.3g}/(1 − {self.tightening:g}) "
                                   f"= {self.p:g}"),
                ("theory now", f"1 − Π_i (1 − FP_i) = {self.theory_at(n):.4g}")]
        first = max(0, len(specs) - 6)   # the newest six stages: older ones are full and change no more
        for i, (st, spec) in enumerate(list(zip(self.stages, specs))[-6:], start=first):
            rows.append((f"stage {i}", f"m = {st.m:,}, k = {st.k}, {len(st):,}/{spec.capacity:,} items, "
                                       f"fill {st.fill_ratio * 100:.1f}%, error ≤ {spec.error:.3g}"))
        return tuple(rows)

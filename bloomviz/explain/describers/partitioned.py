"""The partitioned filter's words: k slices, one position in each, and its own theory beside the standard."""

from __future__ import annotations

from typing import Sequence

import numpy as np

from bloomviz.filters.rows import scheme_of
from bloomviz.explain.describers.standard import Band, Row, StandardWords
from bloomviz.filters.common import RAW_MODULUS, hash_values
from bloomviz.theory.exact_rate import fp_exact_at
from bloomviz.i18n import marks, number, tr


class PartitionedWords(StandardWords):
    title = "Partitioned (k slices, one position each)"
    short_title = "Partitioned"
    choice_label = "Partitioned (k slices)"
    description = "k slices of m/k bits, one position in each."
    theory_name = "theory (partitioned)"
    theory_label = "theory: partitioned (1 − (1 − k/m)^n)^k, exact"

    @property
    def bands_text(self) -> str:
        return tr("outlined: the k slices; hash i sets one bit in slice i")

    def kind_phrase(self) -> str:
        return tr("partitioned filter ({k} slices)").format(k=self.flt.k)

    def size_text(self) -> str:
        return tr("m = {m} bits in {k} slices").format(m=number(self.flt.m), k=self.flt.k)

    def grid_bands(self, recent: Sequence[int] = ()) -> list[Band]:
        s = self.flt.slice_bits
        fills = self.flt.slice_fills()
        return [(i * s, (i + 1) * s, tr("slice {slice}: {percent}%").format(slice=i, percent=f"{fills[i] * 100:.0f}"))
                for i in range(self.flt.k)]

    def describe_bit(self, index: int) -> str:
        return tr("slice {slice}").format(slice=number(index // self.flt.slice_bits))

    def operation_rows(self, op: str, result) -> tuple[Row, ...]:
        s = self.flt.slice_bits
        return ((tr("slice i = [i·{s}, (i+1)·{s}): one position each").format(s=number(s)),
                 ", ".join(tr("slice {slice}: {position}").format(slice=p // s, position=number(p))
                           for p in result.positions)),)

    def theory_rows(self) -> tuple[Row, ...]:
        flt = self.flt
        m, k, n = flt.m, flt.k, len(flt)
        standard = float(fp_exact_at(m, k, np.array([n], dtype=float))[0])
        return ((tr("slices"), tr("k = {k} slices of s = m/k = {m}/{k} = {s} bits").format(
                    k=k, m=number(m), s=number(flt.slice_bits))),
                (tr("theory"), f"(1 − (1 − k/m)^n)^k = (1 − (1 − {k}/{number(m)})^{number(n)})^{k} = "
                               f"{marks(f'{flt.theory_fp(n):.4g}')}"),
                (tr("standard filter, same m and k"), marks(f"{standard:.4g}")))

    def hash_rows(self, data: bytes) -> list[Row]:
        flt = self.flt
        m, k, s = flt.m, flt.k, flt.slice_bits
        shown = ", ".join(str(h) for h in hash_values(scheme_of(flt), data, min(k, 3)))
        return scheme_of(flt).explain(data, RAW_MODULUS, k) + [
            ("slice size s = m/k", f"{m}/{k} = {s}"),
            ("h_i = scheme value i, scrambled (SplitMix64)", shown + (", …" if k > 3 else "")),
            ("position i (slice i)", f"i·{s} + (h_i mod {s})")]

"""The blocked filter's words: the block an item's k positions share, and the theory over blocks' loads."""

from __future__ import annotations

from typing import Sequence

import numpy as np

from bloomviz.filters.rows import scheme_of
from bloomviz.explain.describers.standard import Band, Row, StandardWords
from bloomviz.filters.common import RAW_MODULUS, hash_values
from bloomviz.theory.exact_rate import fp_exact_at
from bloomviz.i18n import marks, number, tr

BANDS_SHOWN = 16   # up to this many blocks the grid outlines them all; past it, the last operation's only


class BlockedWords(StandardWords):
    title = "Blocked (all k positions in one 512-bit block)"
    short_title = "Blocked"
    choice_label = "Blocked (512-bit blocks)"
    # (the ratios are recomputed by tests/project/test_prose_numbers.py: textbook design for n = 10^4 at p, m rounded up)
    description = ("all k positions inside one 512-bit block (one cache line), faster, at a higher rate than a "
                   "standard filter of the same m and k: 1.17× at a design for 1 %, 3.2× at 0.01 %, 21× at 10⁻⁶.")
    theory_name = "theory (blocked)"
    theory_label = "theory: blocked, Σ P(load)·FP(block)"

    @property
    def bands_text(self) -> str:
        return tr("outlined: {bits}-bit blocks; an item's k bits all lie in one").format(bits=self.flt.block_bits)

    def kind_phrase(self) -> str:
        return tr("blocked filter ({blocks} blocks of {bits} bits)").format(blocks=number(self.flt.blocks),
                                                                            bits=self.flt.block_bits)

    def size_text(self) -> str:
        return tr("m = {m} bits in {blocks} blocks").format(m=number(self.flt.m), blocks=number(self.flt.blocks))

    def grid_bands(self, recent: Sequence[int] = ()) -> list[Band]:
        b, blocks = self.flt.block_bits, self.flt.blocks
        if blocks <= BANDS_SHOWN:
            counts = self.flt.block_counts()
            return [(i * b, (i + 1) * b, tr("block {block}: {percent}%").format(block=i, percent=f"{counts[i] / b * 100:.0f}"))
                    for i in range(blocks)]
        if len(recent):
            block = int(recent[0]) // b
            if block < blocks:
                return [(block * b, (block + 1) * b, tr("block {block} of {blocks}").format(
                    block=number(block), blocks=number(blocks)))]
        return []

    def describe_bit(self, index: int) -> str:
        return tr("block {block}").format(block=number(index // self.flt.block_bits))

    def operation_rows(self, op: str, result) -> tuple[Row, ...]:
        b = self.flt.block_bits
        block = int(result.positions[0]) // b
        return ((tr("block chosen (h_0 mod b)"), tr("block {block} of {blocks}: bits {first}…{last}").format(
                    block=number(block), blocks=number(self.flt.blocks), first=number(block * b),
                    last=number(block * b + b - 1))),
                (tr("offsets inside the block (h_i mod B)"), ", ".join(f"{p - block * b}" for p in result.positions)))

    def theory_rows(self) -> tuple[Row, ...]:
        flt = self.flt
        m, k, b, n = flt.m, flt.k, flt.block_bits, len(flt)
        standard = float(fp_exact_at(m, k, np.array([n], dtype=float))[0])
        return ((tr("blocks"), tr("b = m/B = {m}/{b} = {blocks} blocks of B = {b} bits (one cache line at "
                                  "512)").format(m=number(m), b=b, blocks=number(flt.blocks))),
                (tr("load of a block"), tr("Binomial(n, B/m): mean n·B/m = {mean} items").format(
                    mean=number(n * b / m, 2))),
                (tr("theory"), tr("Σ_i P(load i)·f(B, k, i) = {rate}").format(rate=marks(f"{flt.theory_fp(n):.4g}"))),
                (tr("standard filter, same m and k"), marks(f"{standard:.4g}")))

    def hash_rows(self, data: bytes) -> list[Row]:
        flt = self.flt
        b, k = flt.block_bits, flt.k
        h = hash_values(scheme_of(flt), data, min(k + 1, 4))
        block = h[0] % flt.blocks
        return scheme_of(flt).explain(data, RAW_MODULUS, k + 1) + [
            ("h_i = scheme value i, scrambled (SplitMix64)", ", ".join(map(str, h)) + (", …" if k > 3 else "")),
            ("block = h_0 mod b", tr("{block} of b = {blocks} (bits {first}…{last})").format(
                block=block, blocks=flt.blocks, first=block * b, last=block * b + b - 1)),
            ("position i (i = 1…k)", f"{block}·{b} + (h_i mod {b})")]

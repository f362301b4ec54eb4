"""What every hash scheme is: an id written into saved filters, a title, a summary, and the positions of an item
(one at a time and in batches), with the arithmetic behind them for the explain panel.

The schemes themselves are in ``schemes`` (the general ones) and ``seed_schemes`` (the seeds' own).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterator, Sequence

import numpy as np

from bloomviz.items.encoding import encode_texts

MASK64 = (1 << 64) - 1


@dataclass(frozen=True)
class HashScheme:
    """Base of every scheme. Subclasses give ``positions`` and ``positions_many``."""

    id: str
    title: str
    summary: str
    good: bool = True

    def positions(self, data: bytes, m: int, k: int) -> tuple[int, ...]:
        raise NotImplementedError

    def positions_many(self, datas: Sequence[bytes], m: int, k: int) -> np.ndarray:
        raise NotImplementedError

    def positions_many_text(self, texts: Sequence[str], m: int, k: int) -> np.ndarray:
        """``positions_many`` of the items' bytes (``items.to_bytes``) for a list of str; schemes built on one
        MurmurHash3 call per item override it to encode and hash in one pass."""
        return self.positions_many(encode_texts(texts), m, k)

    def position_columns(self, datas: Sequence, m: int, k: int, text: bool = False) -> Iterator[np.ndarray]:
        """Column i of ``positions_many`` (or ``positions_many_text`` when ``text``) for i = 0 … k-1, each an
        int64 array of length n. A batch lookup tests bits column by column and never needs the n x k matrix;
        double-hashing schemes override this to compute one column at a time."""
        pos = self.positions_many_text(datas, m, k) if text else self.positions_many(datas, m, k)
        for i in range(k):
            yield pos[:, i]

    def explain(self, data: bytes, m: int, k: int) -> list[tuple[str, str]]:
        """Named intermediate values and the rule that turns them into positions, for the explain panel."""
        raise NotImplementedError

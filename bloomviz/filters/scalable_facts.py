"""What a scalable filter is and what the window says about it: its declared parameters, its stages as grid
bands, its compound bound as a line on the plot, and the sentences and rows that explain an insert or a lookup.

``ScalableFacts`` is a mixin of ``ScalableBloomFilter`` (scalable.py holds the filter itself and is long enough
already); it answers the same questions as the "variant facts" and "variant words" blocks of ``BloomFilter``.
"""

from __future__ import annotations


import numpy as np

from bloomviz.filters.capabilities import Capabilities
from bloomviz.filters.params import GROWTH, INITIAL_CAPACITY, RATE_BOUND, TIGHTENING
from bloomviz.filters.scalable_stages import STAGE_RECORD, scalable_fp
from bloomviz.filters.standard import one_or_many


class ScalableFacts:
    # --- variant facts (see BloomFilter's) -----------------------------------------------------------------------
    # grows from a capacity (m and k are the stages' outcome), in stages, by its own theory
    capabilities = Capabilities(parameters=(INITIAL_CAPACITY, RATE_BOUND, GROWTH, TIGHTENING), staged=True,
                                plain_bits=False, standard_formulas=False)
    _stored_params = {"initial_capacity": int, "p": float, "growth": int, "tightening": float, "stages": int}

    @classmethod
    def _payload_size(cls, m: int, params: dict) -> tuple[int, int]:
        # Each stage stores ceil(m_i/8) bytes and the m_i sum to m, so the bit bytes lie in [ceil(m/8),
        # (m+7S)/8]; the stage table (checked by from_state) fixes the exact size.
        stages = params["stages"]
        if not 1 <= stages <= 64:
            raise ValueError(f"stages={stages} is out of range 1..64")
        table = STAGE_RECORD.size * stages
        return table + (m + 7) // 8, table + (m + 7 * stages) // 8

    def theory_fp(self, n=None, samples: int = 64):
        """Its theoretical rate after n inserts (default: its insert count), 1 − Π_i (1 − FP_i(n))
        (scalable_stages.scalable_fp): a float for one n, an array for an array of n."""
        return one_or_many(self._theory_curve, len(self) if n is None else n, samples)

    def _theory_curve(self, n: np.ndarray, samples: int) -> np.ndarray:
        return np.atleast_1d(scalable_fp(self.initial_capacity, self.p, n, self.growth, self.tightening))

"""Reference implementations the optimised probe draws are checked against (tests only)."""

from __future__ import annotations

import numpy as np

from bloomviz.items.encoding import to_bytes


def random_items_with_a_set_of_all(count, seed, exclude, prefix):
    """random_items as it was: every excluded item's bytes in a set, each candidate looked up in it."""
    rng = np.random.default_rng(seed)
    banned = {to_bytes(x) for x in exclude}
    out, seen = [], set()
    while len(out) < count:
        text = rng.bytes(8 * (count - len(out))).hex()
        for s in (prefix + text[i:i + 16] for i in range(0, len(text), 16)):
            if s not in seen and s.encode("utf-8", "surrogatepass") not in banned:
                seen.add(s)
                out.append(s)
    return out

"""``bloomviz.core.BloomFilter`` keeps a small, set-like public API (issue 22 item 2; rbloom's whole API fits on a
page): at most 20 public names. The window's words are the describers' (explain/), the batch rows, the saved
state and the scheme object are functions of filters/ (rows.py, persist.py), capabilities and parameters are one
declaration. A name added here is a decision: this list changes with it.
"""

from __future__ import annotations

from bloomviz.core import BloomFilter

PUBLIC = {
    "add", "update", "lookup", "contains_many", "positions", "positions_many", "copy", "clear",   # the set's work
    "m", "k", "scheme", "variant", "capabilities", "bits", "bits_set", "nbytes", "for_capacity",  # what it is
    "estimated_count", "expected_fp", "theory_fp",                                               # its numbers
}


def test_the_public_api_is_small_and_set_like():
    names = {name for name in dir(BloomFilter) if not name.startswith("_")}
    assert names == PUBLIC and len(names) <= 20
    # the set's own operators work as they do on a set
    a, b = BloomFilter(256, 3), BloomFilter(256, 3)
    a.update(["x", "y"])
    b.add("z")
    assert "x" in a and "z" in (a | b) and "z" not in (a & b) and len(a.copy()) == 2

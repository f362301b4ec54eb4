"""Slow motion's arithmetic: each line ends with the position the scheme really gives."""

from __future__ import annotations

import pytest

from bloomviz.hashing import schemes as hashing
from bloomviz.hashing.steps import position_steps


@pytest.mark.parametrize("scheme", sorted(hashing.SCHEMES))
@pytest.mark.parametrize("m", [64, 1000, 2 ** 33 + 7])
def test_every_line_ends_with_the_scheme_s_position(scheme, m):
    data, k = b"bloom filter", 9
    lines = position_steps(scheme, data, m, k)
    positions = hashing.SCHEMES[scheme].positions(data, m, k)
    assert len(lines) == k
    for line, p in zip(lines, positions):
        assert line.rstrip().split("= ")[-1].split(" ")[0].replace(",", "") == str(p) or \
            line.endswith(f"position {p:,}")


def test_given_positions_are_shown_as_they_are():
    assert position_steps("murmur3-mix", b"x", 64, 2, positions=(5, 17)) == ["hash 0 → position 5",
                                                                              "hash 1 → position 17"]

"""A weak hash: the sum of the item's character codes, as a first attempt often is, stepped by a prime for the
k positions. Items that differ only in their digits (user17@…, user71@…) sum alike, so a few bits take most
of the positions and the rest are never chosen.

    bloomviz lab bloomviz/lab/examples/weak_hash.py:make_filter
"""


def make_filter(m, k):
    def positions(item):
        h = sum(ord(c) for c in item)
        return [(h + 31 * i) % m for i in range(k)]
    return positions

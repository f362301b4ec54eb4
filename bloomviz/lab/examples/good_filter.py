"""A good student filter: k independent hashes (BLAKE2b salted with the hash's number), an object with add and
in, its bit array shown as ``bits`` and its positions as ``positions(item)`` (so the lab checks them too).

    bloomviz lab bloomviz/lab/examples/good_filter.py:make_filter
"""

import hashlib


class BloomFilter:
    def __init__(self, m, k):
        self.m, self.k = m, k
        self.bits = bytearray(m)   # one byte per bit: clear before fast

    def positions(self, item):
        data = item.encode("utf-8")
        # 8 bytes of a keyed hash per position: the modulo's bias is below 2^-50 for any m the lab uses
        return [int.from_bytes(hashlib.blake2b(data, digest_size=8, salt=i.to_bytes(16, "little")).digest(),
                               "little") % self.m for i in range(self.k)]

    def add(self, item):
        for p in self.positions(item):
            self.bits[p] = 1

    def __contains__(self, item):
        return all(self.bits[p] for p in self.positions(item))


def make_filter(m, k):
    return BloomFilter(m, k)

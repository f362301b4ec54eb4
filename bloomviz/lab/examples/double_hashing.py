"""Plain double hashing, as many course labs write it: two 32-bit halves of one MD5, positions h1 + i·h2 mod m.

Nothing keeps h2 mod m away from 0 or from m's factors: when m is a power of two and h2 mod m is 0, all k
positions are one bit, and when it is m/2 they are two. At large m that happens too rarely to see; at m = 64 it
is 1 item in 64 (and 1 in 32), which independent positions would almost never do.

    bloomviz lab bloomviz/lab/examples/double_hashing.py:make_filter --m 32,64,1024 --k 4,8
"""

import hashlib


def make_filter(m, k):
    def positions(item):
        digest = hashlib.md5(item.encode("utf-8")).digest()
        h1 = int.from_bytes(digest[:4], "little")
        h2 = int.from_bytes(digest[4:8], "little")
        return [(h1 + i * h2) % m for i in range(k)]
    return positions

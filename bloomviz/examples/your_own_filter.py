"""Your own Bloom filter, measured against the truth: a function from an item to its k positions (here plain
double hashing, h1 + i·h2 mod m, the textbook's shortcut) run by ``bloomviz.lab`` over a small grid of m, k
and n, and judged against the exact rate of independent positions. At small m the lab names what is wrong."""

import hashlib

from bloomviz import lab


def make_filter(m: int, k: int):
    def positions(item: str) -> list[int]:
        digest = hashlib.sha256(item.encode()).digest()
        h1, h2 = int.from_bytes(digest[:8], "little"), int.from_bytes(digest[8:16], "little")
        return [(h1 + i * h2) % m for i in range(k)]
    return positions


def main() -> str:
    report = lab.run(make_filter, lab.Grid(ms=(64, 1024), ks=(4,), ns=(8, 64), probes=4_000))
    return lab.text(report)


if __name__ == "__main__":
    print(main())

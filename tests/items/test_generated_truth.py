"""Generated items answer membership from the text alone (the inverse of their mixing), so a simulation of
hundreds of millions of items needs no set of them; and an endless stream of them stays cheap."""

from __future__ import annotations

import numpy as np

from bloomviz.items.generated import GeneratedItems, GeneratedRun, _fmix64, _unfmix64


def test_unfmix64_inverts_fmix64():
    x = np.random.default_rng(1).integers(0, 2 ** 63, 1000, dtype=np.int64).view(np.uint64) * np.uint64(2)
    x[:3] = [0, 1, 2 ** 64 - 1]
    mixed = _fmix64(x.copy())
    assert [_unfmix64(int(v)) for v in mixed] == [int(v) for v in x]


def test_index_of_names_each_item_and_nothing_else():
    items = GeneratedItems(5_000, seed=7, prefix="i")
    texts = items.texts(0, 5_000)
    assert [items.index_of(t) for t in texts[::97]] == list(range(0, 5_000, 97))
    assert items.index_of(texts[123].encode()) == 123 and texts[4_999] in items
    beyond = GeneratedItems(5_001, seed=7, prefix="i")[5_000]     # the next item: not among the first 5,000
    others = [beyond, GeneratedItems(10, seed=8)[0], "p" + texts[0][1:], texts[0].upper(), texts[0][:-1],
              texts[0] + "0", "i" + "g" * 16, "", b"\xff" * 17, 42, None]
    assert [x in items for x in others] == [False] * len(others)
    probes = GeneratedItems(5_000, seed=7, prefix="p").texts(0, 5_000)
    assert not any(p in items for p in probes)


def test_membership_in_a_huge_range_costs_no_walk():
    items = GeneratedItems(440_000_000, seed=0)
    assert items[439_999_999] in items and items.index_of(items[12_345_678]) == 12_345_678


def test_one_item_is_the_text_the_batch_makes():
    # one item is made in Python's integers (a batch's label reads its first): the same text as the numpy batch
    items = GeneratedItems(2 ** 63 - 1, seed=11, prefix="q")
    at = [0, 1, 2, 12_345, 2 ** 40 + 3, 2 ** 63 - 2] + list(range(2 ** 62 - 5, 2 ** 62 + 5))
    assert [items[i] for i in at] == [items.texts(i, i + 1)[0] for i in at]
    wraps = next(g for g in (GeneratedItems(2 ** 63 - 1, seed=s) for s in range(50)) if g.key > 2 ** 63 + 16)
    edge = 2 ** 64 - wraps.key          # from this index on, index + key passes 2^64 (taken modulo it)
    assert [wraps[i] for i in range(edge - 3, edge + 3)] == wraps.texts(edge - 3, edge + 3)
    run = GeneratedRun(items, 2 ** 62 - 7, 2 ** 62 + 9)
    assert [run[i] for i in range(len(run))] == run.texts() and run[-1] == run.texts()[-1]

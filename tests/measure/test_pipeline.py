"""The one measurement pipeline: exact counts against a brute-force oracle for every variant, checkpoint
policies, the three ways in (a count from the source, items, one add), and refusals."""

import numpy as np
import pytest

from bloomviz.filters.registry import make_filter
from bloomviz.items.generated import GeneratedItems
from bloomviz.measure.pipeline import PROBE_SEED_OFFSET, Measurement, item_stream, probe_items
from bloomviz.theory.intervals import wilson_interval

FILTERS = {
    "standard": dict(m=1500, k=4),
    "counting": dict(m=1500, k=4, counter_bits=3),
    "partitioned": dict(m=1500, k=4),
    "blocked": dict(m=2048, k=4, block_bits=256),
    "scalable": dict(initial_capacity=60, p=0.02),
}


def _oracle(variant: str, items, n: int, probes, params=None) -> tuple[int, int]:
    """(false positives, bits set) of a filter built afresh from the first n items, every probe tested."""
    flt = make_filter(variant, **(params or FILTERS[variant]))
    flt.update(list(items[:n]))
    return int(np.count_nonzero(flt.contains_many(probes))), flt.bits_set


@pytest.mark.parametrize("variant", sorted(FILTERS))
def test_every_insert_is_counted_exactly_for_every_variant(variant):
    items, probes = item_stream(400, seed=5), probe_items(600, seed=5)
    run = Measurement(make_filter(variant, **FILTERS[variant]), probes, items, every=1, initial=True)
    for size in (1, 57, 200, 1000):
        record = run.step(size)
        assert record.exact and list(record.n) == list(range(record.n[0], record.n[0] + len(record.n)))
    rows = run.checkpoints
    assert list(rows["n"]) == list(range(401)) and run.remaining == 0
    for n in (0, 1, 58, 61, 180, 258, 399, 400):
        assert (rows["fp"][n], rows["bits_set"][n]) == _oracle(variant, items, n, probes), n
    assert run.fp_count == rows["fp"][-1]
    passing = run.false_positive_probes()
    assert len(passing) == run.fp_count and all(run.filter.contains_many(passing))


def test_items_given_and_single_adds_agree_with_the_source():
    items, probes = item_stream(300, seed=2), probe_items(500, seed=2)
    from_source = Measurement(make_filter("standard", m=900, k=3), probes, items)
    from_source.step(300)
    given = Measurement(make_filter("standard", m=900, k=3), probes)
    given.step(items[:150])
    for item in items[150:]:
        record = given.add(item)
        assert record.insertion is not None and record.n[0] == given.n
    assert np.array_equal(from_source.checkpoints["fp"], given.checkpoints["fp"])
    assert np.array_equal(from_source.checkpoints["bits_set"], given.checkpoints["bits_set"])
    assert given.interval() == wilson_interval(given.fp_count, 500)


@pytest.mark.parametrize("variant", ["standard", "counting", "scalable"])
def test_positions_alone_measure_as_the_items_do_where_the_tracker_allows(variant):
    items, probes = item_stream(300, seed=4), probe_items(400, seed=4)
    from_items = Measurement(make_filter(variant, **FILTERS[variant]), probes, items)
    from_items.step(300)
    alone = Measurement(make_filter(variant, **FILTERS[variant]), probes)
    if variant == "scalable":       # a new stage hashes the items again: positions are not enough
        assert not alone.takes_positions
        with pytest.raises(ValueError, match="needs the items themselves"):
            alone.step_positions(alone.filter.positions_many(items[:10]))
        assert alone.n == 0 and alone.filter.bits_set == 0
        return
    assert alone.takes_positions
    for lo, hi in ((0, 120), (120, 300)):
        alone.step_positions(alone.filter.positions_many(items[lo:hi]))
    assert np.array_equal(from_items.checkpoints["fp"], alone.checkpoints["fp"])
    assert np.array_equal(from_items.checkpoints["bits_set"], alone.checkpoints["bits_set"])
    assert alone.filter == from_items.filter


def test_checkpoint_policies():
    items, probes = item_stream(103, seed=1), probe_items(100, seed=1)
    every = Measurement(make_filter("standard", m=500, k=2), probes, items, every=25)
    kept = [every.step(40).checkpoints()[0] for _ in range(3)]
    assert [list(n) for n in kept] == [[25], [50, 75], [100, 103]]
    assert list(every.checkpoints["n"]) == [25, 50, 75, 100, 103]
    at = Measurement(make_filter("standard", m=500, k=2), probes, items, every=None, at=[0, 7, 103, 500])
    at.step(103)
    assert list(at.checkpoints["n"]) == [0, 7, 103]
    loose = Measurement(make_filter("standard", m=500, k=2), probes, items, store=False)
    assert loose.step(10).kept.size == 10 and loose.checkpoints["n"].size == 0
    loose.every = 5
    assert list(loose.step(10).checkpoints()[0]) == [15, 20]


OPAQUE = dict(m=700, k=3)


class _Opaque:
    """A filter the table knows nothing about: measured by testing every probe after each step."""

    def __init__(self):
        self.inner = make_filter("standard", **OPAQUE)

    def __len__(self):
        return len(self.inner)

    bits_set = property(lambda self: self.inner.bits_set)

    def update(self, items):
        return self.inner.update(items)

    def add(self, item):
        return self.inner.add(item)

    def contains_many(self, items):
        return self.inner.contains_many(items)


def test_a_filter_without_a_tracker_is_probed_after_each_step():
    items, probes = item_stream(200, seed=3), probe_items(400, seed=3)
    run = Measurement(_Opaque(), probes, items)
    assert not run.exact and run.tracker is None
    record = run.step(120)
    assert list(record.n) == [120]
    assert (record.fp[0], record.bits_set[0]) == _oracle("standard", items, 120, probes, OPAQUE)
    run.add(items[120])
    assert run.fp_count == _oracle("standard", items, 121, probes, OPAQUE)[0] == len(run.false_positive_probes())


def test_rebuild_after_a_removal_reads_the_bits_again():
    items, probes = item_stream(300, seed=4), probe_items(800, seed=4)
    flt = make_filter("counting", m=800, k=3)
    run = Measurement(flt, probes, items)
    run.step(300)
    for item in items[:150]:
        flt.remove(item)
    assert run.rebuild() == int(np.count_nonzero(flt.contains_many(probes)))
    assert run.n == len(flt)


def test_probes_are_never_generated_items_and_use_the_offset_seed():
    probes = probe_items(1000, seed=9)
    assert probes == GeneratedItems(1000, seed=9 + PROBE_SEED_OFFSET, prefix="p").texts(0, 1000)
    assert not set(probes) & set(item_stream(1000, seed=9))
    given = ["p" + "0" * 16, "x"]
    assert not set(probe_items(200, seed=0, exclude=given)) & set(given)


def test_refusals_name_the_bad_value():
    flt = make_filter("standard", m=100, k=2)
    with pytest.raises(ValueError, match="every must be a whole number >= 1, got 0"):
        Measurement(flt, ["p1"], every=0)
    with pytest.raises(ValueError, match="n must be a whole number >= 0, got -1"):
        Measurement(flt, ["p1"], at=[-1])
    with pytest.raises(ValueError, match="no item source"):
        Measurement(flt, ["p1"]).step(5)
    with pytest.raises(ValueError, match="item count must be a whole number >= 0, got -2"):
        Measurement(flt, ["p1"], items=["a"]).step(-2)


@pytest.mark.parametrize("variant", sorted(FILTERS))
def test_measured_after_each_step_only_the_counts_are_the_same(variant):
    items, probes = item_stream(300, seed=6), probe_items(500, seed=6)
    run = Measurement(make_filter(variant, **FILTERS[variant]), probes, items, every=None, per_insert=False)
    assert not run.exact
    for size in (70, 70, 500):
        record = run.step(size)
        assert list(record.n) == [run.n] and record.kept.size == 0
        assert (record.fp[0], record.bits_set[0]) == _oracle(variant, items, run.n, probes), run.n

"""A simulation's given items hashed once: the probes checked against the hashes, the rows made from them."""

import numpy as np
import pytest

from bloomviz.filters.registry import make_filter
from bloomviz.items.encoding import random_items, to_bytes
from bloomviz.measure.experiment import Simulation
from bloomviz.measure.given_items import GivenItems, HashedMembers, murmur_halves
from bloomviz.measure.fp_tracker import FpTracker
from bloomviz.measure.pipeline import Measurement
from reference_draws import random_items_with_a_set_of_all


@pytest.mark.parametrize("prefix", ["p", "é-", "\ud800"])
@pytest.mark.parametrize("kind", ["str", "bytes", "bytearray"])
def test_the_hashed_exclusion_draws_what_a_set_of_all_the_items_draws(prefix, kind):
    first = random_items(500, seed=4, prefix=prefix)
    texts = random_items(3000, seed=8, prefix=prefix) + first[::7] + [first[3]] * 2 + ["\ud800x", "žir"]
    items = {"str": texts, "bytes": [to_bytes(t) for t in texts],
             "bytearray": [bytearray(to_bytes(t)) for t in texts]}[kind]
    given = GivenItems(items)
    assert isinstance(given.exclusion(), HashedMembers)      # hashed, not the general path
    got = random_items(500, seed=4, prefix=prefix, exclude=given.exclusion())
    assert got == random_items_with_a_set_of_all(500, 4, items, prefix)
    assert not set(got) & set(first[::7]) and len(set(got)) == 500


def test_a_list_the_hashing_refuses_takes_the_general_paths():
    for items in (["a", b"b"], [b"a", "b"], [1, 2], []):
        assert murmur_halves(items) is None and GivenItems(items).exclusion() is items


@pytest.mark.parametrize("variant, scheme", [("standard", "murmur3-mix"), ("standard", "murmur3-km"),
                                             ("standard", "murmur-fnv"), ("counting", "murmur3-mix"),
                                             ("blocked", "murmur3-mix")])
def test_a_simulation_given_items_counts_what_the_items_own_hashing_counts(variant, scheme):
    items = random_items(3000, seed=2, prefix="w") + ["čaj", "\ud800", "čaj"] + random_items(40, seed=3 + 1_000_003,
                                                                                             prefix="p")
    sim = Simulation(m=9000, k=4, items=items, probes=700, seed=3, variant=variant, scheme=scheme)
    series = sim.run(every=5, chunk=333)
    # the same run through the filter's own hashing of each step's items
    flt = make_filter(variant, m=9000, k=4, scheme=scheme)
    plain = Measurement(flt, sim.measurement.probes, list(items), every=5)
    while plain.remaining:
        plain.step(333)
    kept = plain.checkpoints
    assert not set(sim.measurement.probes) & set(items)
    np.testing.assert_array_equal(series.column("n"), kept["n"])
    np.testing.assert_array_equal(series.column("fp_measured"), kept["fp"] / 700)
    np.testing.assert_array_equal(np.rint(series.column("fill") * flt.m), kept["bits_set"])
    assert np.array_equal(sim.filter.bits, flt.bits) and len(sim.filter) == len(items)


def test_a_step_given_rows_of_positions_for_the_source_checks_their_count():
    flt = make_filter("standard", m=500, k=3)
    measurement = Measurement(flt, ["p1", "p2"], ["a", "b", "c"])
    with pytest.raises(ValueError, match="2 rows of positions for 3 items"):
        measurement.step(3, positions=flt.positions_many(["a", "b"]))
    assert measurement.taken == 0 and len(flt) == 0
    record = measurement.step(5, positions=flt.positions_many(["a", "b", "c"]))
    assert list(record.n) == [1, 2, 3] and "b" in flt and measurement.remaining == 0


@pytest.mark.parametrize("m, k", [(1, 1), (64, 7), (9000, 1), (9000, 4), (1 << 26, 3), ((1 << 26) + 9, 5)])
def test_a_simulation_given_str_items_takes_their_halves_and_counts_what_rows_count(m, k, monkeypatch):
    probes = random_items(600, seed=5 + 1_000_003, prefix="p")      # what the draw would give first
    items = random_items(2500, seed=1, prefix="w")
    items[10::30] = [items[4]] * len(items[10::30])          # repeated items
    items[13::90] = probes[: len(items[13::90])]             # items equal to candidates of the probe draw
    taken = []
    halves_pass = FpTracker.insert_halves
    monkeypatch.setattr(FpTracker, "insert_halves", lambda self, *a: taken.append(1) or halves_pass(self, *a))
    sim = Simulation(m=m, k=k, items=items, probes=600, seed=5)
    series = sim.run(every=3, chunk=700)
    assert len(taken) == 4                 # every step by the items' halves (the fused pass)
    flt = make_filter("standard", m=m, k=k)
    plain = Measurement(flt, sim.measurement.probes, list(items), every=3)
    while plain.remaining:
        plain.step(700)
    kept = plain.checkpoints
    assert not set(sim.measurement.probes) & set(items) and len(sim.measurement.probes) == 600
    np.testing.assert_array_equal(series.column("n"), kept["n"])
    np.testing.assert_array_equal(series.column("fp_measured"), kept["fp"] / 600)
    np.testing.assert_array_equal(np.rint(series.column("fill") * m), kept["bits_set"])
    assert sim.filter.bits == flt.bits and sim.measurement.fp_count == plain.fp_count


@pytest.mark.parametrize("scheme", ["murmur3-mix", "murmur-fnv"])
def test_a_given_list_changed_after_the_simulation_is_made_changes_nothing_of_its_run(scheme):
    items = random_items(3000, seed=6, prefix="w")
    untouched = Simulation(m=20_000, k=5, items=list(items), probes=400, seed=2, scheme=scheme).run(every=7)
    changed = list(items)
    sim = Simulation(m=20_000, k=5, items=changed, probes=400, seed=2, scheme=scheme)
    changed[:100] = ["x"] * 100
    del changed[1000:]
    changed.append("y")
    series = sim.run(every=7)
    assert len(sim.filter) == 3000
    for column in ("n", "fp_measured", "fill"):
        np.testing.assert_array_equal(series.column(column), untouched.column(column))


def test_items_repeating_a_candidate_more_often_than_there_are_candidates_are_all_found():
    candidates = random_items(5, seed=3, prefix="p")
    items = random_items(200, seed=9, prefix="w") + [candidates[1]] * 40 + [candidates[4]] * 3
    members = GivenItems(items).exclusion()
    assert isinstance(members, HashedMembers)
    assert members.among(candidates) == {candidates[1], candidates[4]}
    assert members.among(candidates[:1] + candidates[2:4]) == set()

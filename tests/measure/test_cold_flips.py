"""While the window's warm-up thread loads the compiled code, the window's own batches take numpy paths
(hashing/cold_paths.py, measure/cold_flips.py) instead of waiting for it: the same bits, counts and rows.

Each test gets a warm-up state of its own (``cold_paths._warming``), so a window's warm-up thread running in the
same process neither sets nor clears it under the test.
"""

import threading

import numpy as np
import pytest

from bloomviz.filters.generated_positions import halves as generated_halves
from bloomviz.filters.generated_positions import positions as generated_positions
from bloomviz.filters.standard import BloomFilter
from bloomviz.hashing import cold_paths
from bloomviz.items.generated import GeneratedItems, GeneratedRun
from bloomviz.measure import cold_flips, first_flips
from bloomviz.measure.fp_tracker import FpTracker
from bloomviz.workbench.model import Workbench


@pytest.fixture
def warming(monkeypatch):
    """A warm-up scheduled and not finished: what the window's thread sees in its first second."""
    state = threading.Event()
    monkeypatch.setattr(cold_paths, "_warming", state)
    cold_paths.warm_up_scheduled()
    return state


def refuse_compiled(monkeypatch):
    """The compiled passes refuse to run from here on: what passes took the numpy ones."""
    def refuse(*args, **kwargs):
        raise AssertionError("a compiled flip pass ran while the warm-up was loading it")
    monkeypatch.setattr(first_flips.ProbeBits, "flip_rows", refuse)
    monkeypatch.setattr(first_flips.ProbeBits, "flip_halves", refuse)
    monkeypatch.setattr(first_flips, "account_turned", refuse)


def test_only_the_warm_up_thread_takes_the_compiled_paths_while_it_loads(warming):
    assert cold_paths.use_cold_path(cold_paths.COLD_LIMIT) and not cold_paths.use_cold_path(cold_paths.COLD_LIMIT + 1)
    seen = []
    with cold_paths.warm_up_thread():
        seen.append(cold_paths.use_cold_path(1))
    assert seen == [False] and not cold_paths.use_cold_path(1), "the load is done: compiled everywhere"


@pytest.mark.parametrize("m", [1_000, 9_585_059, first_flips.EXACT_MAX_M + 8])
def test_the_flip_pass_in_numpy_equals_the_compiled_pass(m):
    rng = np.random.default_rng(m)
    view = np.zeros((m + 7) // 8, dtype=np.uint8)
    view[rng.integers(0, view.size, view.size // 3)] = rng.integers(0, 256, view.size // 3, dtype=np.uint8)
    rows = rng.integers(0, m, (3_000, 7), dtype=np.int64)
    rows[10] = rows[4]                                     # a repeat turns nothing
    probe_bits = np.unique(np.concatenate([rng.integers(0, m, 400), rows[[4, 100, 2_999], 2]]))
    before = view.copy()
    cold_view, warm_view = view.copy(), view.copy()
    cold_new, cold_time = cold_flips.flip_rows(cold_view, rows, m, probe_bits)
    warm_new, warm_time = first_flips.ProbeBits(probe_bits, m).flip_rows(warm_view, rows, m)
    assert np.array_equal(cold_view, warm_view) and np.array_equal(cold_new, warm_new)
    was_zero = ((before[probe_bits >> 3] >> (probe_bits & 7)) & 1) == 0   # the only bits a tracker asks about
    assert np.array_equal(cold_time[was_zero], warm_time[was_zero]) and (cold_time[was_zero] >= 0).any()
    with pytest.raises(ValueError, match="positions must lie in"):
        cold_flips.flip_rows(cold_view, np.array([[0, m]]), m, probe_bits)


def _tracked(flt, probes, batches, halves: bool):
    tracker = FpTracker(flt, probes)
    if halves:
        out = [tracker.insert_halves(*generated_halves(flt, items, a, b), flt) for items, a, b in batches]
    else:
        out = [tracker.insert_batch(generated_positions(flt, items, a, b), flt) for items, a, b in batches]
    return np.concatenate([fp for fp, _ in out]), np.concatenate([bits for _, bits in out]), flt.bits.tobytes()


@pytest.mark.parametrize("m, halves", [(20_000, False), (FpTracker.HALVES_MIN_M + 5, True)])
def test_the_tracker_counts_the_same_while_the_compiled_code_loads(monkeypatch, m, halves):
    items = GeneratedItems(6_000, seed=3)
    probes = GeneratedItems(2_000, seed=4, prefix="p").texts(0, 2_000)
    batches = [(items, a, a + 1_500) for a in range(0, 6_000, 1_500)]
    k = 5 if m < 10 ** 6 else 30                          # the big filter gets a few false positives too
    warm = _tracked(BloomFilter(m, k), probes, batches, halves)
    monkeypatch.setattr(cold_paths, "_warming", threading.Event())
    cold_paths.warm_up_scheduled()
    refuse_compiled(monkeypatch)
    cold = _tracked(BloomFilter(m, k), probes, batches, halves)
    assert all(np.array_equal(a, b) for a, b in zip(cold, warm))
    assert warm[0][-1] > 0 or m > 10 ** 6


def test_a_first_auto_play_before_the_warm_up_ends_gives_the_same_filter(monkeypatch):
    def auto_play(wb: Workbench) -> Workbench:
        wb.configure(250_000, 7, capacity=40_000)
        source, at = GeneratedItems(2 ** 63 - 1, seed=5, prefix="i"), [0]

        def take(count: int) -> GeneratedRun:
            run = GeneratedRun(source, at[0], at[0] + count)
            at[0] = run.stop
            return run

        wb.run_job(take, 40_000, "auto-play items")
        wb.run_to_end()
        return wb

    warm = auto_play(Workbench(probes=2_000))
    monkeypatch.setattr(cold_paths, "_warming", threading.Event())
    cold_paths.warm_up_scheduled()
    refuse_compiled(monkeypatch)
    cold = auto_play(Workbench(probes=2_000))
    assert cold.filter.bits == warm.filter.bits and cold.tracker.fp_count == warm.tracker.fp_count > 0
    for column in ("n", "fp_measured", "fill"):
        assert np.array_equal(cold.series.column(column), warm.series.column(column))
    truth_cold, truth_warm = cold.state.truth, warm.state.truth
    assert np.array_equal(truth_cold.rows.view(), truth_warm.rows.view())
    probe = warm.items[12_345]
    assert cold.is_member(probe) and cold.lookup(probe).maybe_present


@pytest.mark.parametrize("m, halves", [(20_000, False), (FpTracker.HALVES_MIN_M + 5, True)])
def test_a_tracker_that_starts_cold_and_ends_warm_counts_what_brute_force_counts(warming, m, halves):
    # the first batches of a first auto-play go through numpy, the rest through the compiled passes, with a
    # single insert between them: one tracker, the bits it follows handed from one path to the other
    items, k = GeneratedItems(6_000, seed=8), (5 if m < 10 ** 6 else 30)
    probes = GeneratedItems(2_000, seed=9, prefix="p").texts(0, 2_000)
    flt = BloomFilter(m, k)
    tracker = FpTracker(flt, probes)
    for a in range(0, 6_000, 1_000):
        if a == 3_000:
            warming.clear()                                  # the load is done: compiled from here
            ins = flt.add("one typed between the batches")
            tracker.on_insert([p for p, fresh in zip(ins.positions, ins.newly_set) if fresh])
        if halves:
            fp, _ = tracker.insert_halves(*generated_halves(flt, items, a, a + 1_000), flt)
        else:
            fp, _ = tracker.insert_batch(generated_positions(flt, items, a, a + 1_000), flt)
        assert fp[-1] == tracker.fp_count == int(np.count_nonzero(flt.contains_many(probes)))
    assert tracker.fp_count > 0 or m > 10 ** 6

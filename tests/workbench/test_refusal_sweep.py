"""Every refusal of the window's model, from states reached by random operations on each variant: the model's
observable state (the filter's cells, counts, truth, plot rows, probes, history, undo steps) is identical after
the refusal, and a message says what was wrong (tests/model_state.py holds the snapshot).

Property-style: each prior state is made by a seeded random run of valid operations (inserts, batches, lookups,
removals where the variant has them, an undo), so the refusals are tried against filters with and without
repeats, false positives, removals and undo steps, not only against a fresh one."""

from __future__ import annotations

import random
import re

import pytest

from bloomviz.theory import limits as window_limits
from bloomviz.workbench import limits
from bloomviz.workbench.model import Workbench
from bloomviz.workbench.state import nbytes
from model_state import differences, observable

DESIGNS = {
    "standard": dict(m=512, k=3),
    "counting": dict(m=512, k=3, counter_bits=4),
    "partitioned": dict(m=513, k=3),
    "blocked": dict(m=1024, k=3),
    "scalable": dict(initial_capacity=40, p=0.05),
}


def reached(variant: str, seed: int) -> Workbench:
    """A workbench on ``variant`` after a random run of valid operations drawn from ``seed``."""
    rng = random.Random(seed)
    wb = Workbench(probes=64)
    assert wb.configure(variant=variant, **DESIGNS[variant])
    words = [f"w{rng.randrange(60)}" for _ in range(40)]
    for _ in range(rng.randrange(5, 25)):
        roll = rng.random()
        if roll < 0.45:
            wb.insert(rng.choice(words))
        elif roll < 0.6:
            wb.insert_batch(rng.sample(words, rng.randrange(2, 12)))
        elif roll < 0.8:
            wb.lookup(rng.choice(words + ["stranger", "x"]))
        elif roll < 0.9 and wb.can_remove() and len(wb.items):
            wb.remove(rng.choice(list(wb.items)))
        else:
            wb.undo()
    return wb


def _job_with_bad_item_later(wb):
    items = [f"job {i}" for i in range(600)] + [""]
    pos = [0]

    def source(count):
        chunk = items[pos[0]:pos[0] + count]
        pos[0] += len(chunk)
        return chunk
    assert wb.run_job(source, len(items), "lines of a file", atomic=True)
    wb.run_to_end()


def _job_whose_file_fails(wb):
    calls = [0]

    def source(count):
        calls[0] += 1
        if calls[0] > 1:
            raise OSError("the file was removed while it was read")
        return [f"line {i}" for i in range(count)]
    assert wb.run_job(source, 10_000, "lines of a file", atomic=True)
    wb.run_to_end()


def _import_cancelled(wb):
    assert wb.run_job(lambda count: [f"line {i}" for i in range(count)], 100_000, "lines of a file", atomic=True)
    wb.step_job()
    wb.cancel()


def _second_job(wb):
    """A bulk insert asked for while another runs: refused (the running one then cancelled, all or nothing)."""
    assert wb.run_job(lambda count: [f"a {i}" for i in range(count)], 10_000, "items", atomic=True)
    said = []
    wb.events.error.connect(said.append)
    assert not wb.insert_many(["b"])
    assert said == ["Another bulk insert is running; cancel it first."]
    wb.cancel()


def _over_the_memory_budget(wb, monkeypatch):
    monkeypatch.setattr(window_limits, "WINDOW_KEPT_BYTES", nbytes(wb.state) + 100)
    assert wb.insert_batch([f"many {i}" for i in range(50)]) == 0


# (name, the refused operation, what its message must say: a pattern naming what was wrong)
REFUSALS = [
    ("empty item", lambda wb: wb.insert(""), r"the item is empty.*Nothing was changed"),
    ("oversized item", lambda wb: wb.insert("x" * (limits.MAX_ITEM_BYTES + 1)), r"65,537 bytes.*over the limit"),
    ("item of no text", lambda wb: wb.insert(3.5), r"float"),
    ("lookup of an empty item", lambda wb: wb.lookup(""), r"the item is empty"),
    ("batch with an empty item", lambda wb: wb.insert_batch(["fine", "also fine", ""]),
     r"item 3: the item is empty.*Nothing from this batch"),
    ("batch with a number", lambda wb: wb.insert_batch(["fine", 7]), r"int"),
    ("removal of an item never inserted", lambda wb: wb.remove("never inserted, never"),
     r"cannot remove|never inserted|definitely not in the set"),
    ("m of 0", lambda wb: wb.configure(0, 3), r"m \(bits\).*got 0"),
    ("m past the window", lambda wb: wb.configure(limits.MAX_M + 1, 3), r"m \(bits\).*100,000,001"),
    ("k of 0", lambda wb: wb.configure(512, 0), r"k \(hash functions\).*got 0"),
    ("k past the limit", lambda wb: wb.configure(512, 65), r"k \(hash functions\).*got 65"),
    ("unknown scheme", lambda wb: wb.configure(512, 3, scheme="md4-of-course"), r"md4-of-course"),
    ("unknown variant", lambda wb: wb.configure(512, 3, variant="cuckoo"), r"cuckoo"),
    ("design of no items", lambda wb: wb.design(0, 0.01), r"n \(items to hold\).*got 0"),
    ("design with p of 1.5", lambda wb: wb.design(100, 1.5), r"p \(false-positive rate\).*got 1.5"),
    ("design past the window", lambda wb: wb.design(10 ** 9, 1e-9), r"more than the window"),
    ("no probes", lambda wb: wb.set_probe_count(0), r"probes must be.*got 0"),
    ("probes past the limit", lambda wb: wb.set_probe_count(10 ** 7), r"probes must be.*got 10000000"),
    ("a filter loaded with items of no text", lambda wb: wb.install_filter(wb.filter.copy(), items=[1.5]),
     r"float"),
    ("an import with a bad line further on", _job_with_bad_item_later, r"item \d+: the item is empty"),
    ("an import whose file fails", _job_whose_file_fails, r"stopped: the file was removed"),
    ("an import cancelled", _import_cancelled, r"put back as it was"),
    ("a second bulk insert", _second_job, r"put back as it was"),
]


@pytest.mark.parametrize("seed", [1, 2])
@pytest.mark.parametrize("variant", list(DESIGNS))
def test_every_refusal_leaves_the_model_as_it_was_and_says_what_was_wrong(variant, seed, monkeypatch):
    wb = reached(variant, seed)
    said: list[str] = []
    wb.events.error.connect(said.append)
    wb.events.notice.connect(said.append)
    failures = []
    for name, refused, pattern in REFUSALS + [("over the memory budget",
                                               lambda wb: _over_the_memory_budget(wb, monkeypatch),
                                               r"past its budget")]:
        before = observable(wb)
        del said[:]
        refused(wb)
        changed = differences(before, observable(wb), fresh_kept=nbytes(wb.state))
        monkeypatch.undo()
        if changed:
            failures.append(f"{name}: changed {changed}")
        if not any(re.search(pattern, text, re.S) for text in said):
            failures.append(f"{name}: no message matching {pattern!r} in {said}")
    assert not failures, "\n".join(failures)


@pytest.mark.parametrize("variant", list(DESIGNS))
def test_an_undo_past_the_start_changes_nothing_and_says_so(variant):
    wb = reached(variant, 3)
    while wb.undo():
        pass
    said: list[str] = []
    wb.events.notice.connect(said.append)
    wb.events.error.connect(said.append)
    before = observable(wb)
    assert not wb.undo()
    assert differences(before, observable(wb)) == []
    assert said == ["Nothing to undo."]


@pytest.mark.parametrize("other", list(DESIGNS))
@pytest.mark.parametrize("variant", list(DESIGNS))
def test_a_union_or_intersection_of_filters_that_differ_is_refused_and_changes_neither(variant, other):
    """What the set-operations tab combines: filters that differ in variant, m, k or scheme are refused with a
    message naming the difference, and neither operand is changed."""
    from bloomviz.filters import capabilities
    from bloomviz.workbench.building import build_filter

    def made(name, **change):
        flt = build_filter(name, {"scheme": "murmur3-km", **DESIGNS[name],
                                  **(change if "m" in DESIGNS[name] else {})})
        flt.update([f"{name} {i}" for i in range(30)])
        return flt

    a = made(variant)
    for change, word in (({}, None), ({"k": 4}, r"\bk\b"),
                         ({"scheme": "weak-shift"}, r"scheme"), ({"m": 2048}, r"\bm\b|blocks")):
        b = made(other, **change)
        if variant == other and not change or (not change and "m" not in DESIGNS[other]):
            continue         # the same filter's design: combined (a scalable one refuses every combination)
        before = [(len(f), capabilities.grid_values(f).tobytes()) for f in (a, b)]
        for combine in (lambda: a | b, lambda: a & b):
            # the first difference is named: the variant, else the parameter changed
            named = (r"(?i)scalable" if "scalable" in (variant, other) else
                     r"standard|counting|partitioned|blocked" if variant != other else word)
            try:
                combine()
            except (ValueError, TypeError) as exc:
                assert re.search(named, str(exc)), (change, str(exc))
            else:
                raise AssertionError(f"{variant} and {other} with {change} were combined")
        assert [(len(f), capabilities.grid_values(f).tobytes()) for f in (a, b)] == before


# --- failures part way: an exception no check could foresee, injected where the work changes things ----------
# Each injection lets the real code run and then raises (so the filter, the tracker or the rows have already
# changed when it comes), or raises where a scalable filter allocates a new stage. Every insert entry of the
# model must put everything back and say what failed; an interruption is put back and raised again.
from bloomviz.filters import scalable as scalable_module                    # noqa: E402
from bloomviz.items.generated import GeneratedItems, GeneratedRun          # noqa: E402
from bloomviz.measure import pipeline as pipeline_module                   # noqa: E402
from bloomviz.measure.fp_tracker import FpTracker                          # noqa: E402
from bloomviz.workbench.truth import Truth                                  # noqa: E402


def _raised(exc: type) -> BaseException:
    return MemoryError() if exc is MemoryError else exc("injected")


def _after(monkeypatch, owner, name: str, exc: type, on_call: int, fired: list | None = None) -> list:
    """``owner.name`` runs, then raises on its ``on_call``-th call; returns the list its failures are noted in."""
    real = getattr(owner, name)
    calls, fired = [0], [] if fired is None else fired

    def failing(*args, **kwargs):
        out = real(*args, **kwargs)
        calls[0] += 1
        if calls[0] >= on_call:
            fired.append(name)
            raise _raised(exc)
        return out
    monkeypatch.setattr(owner, name, failing)
    return fired


def _after_either(monkeypatch, owner, names: tuple, exc: type, on_call: int) -> list:
    """``_after`` for each of ``names`` (a tracker's batch by rows or by hash halves), noted in one list."""
    fired: list = []
    for name in names:
        _after(monkeypatch, owner, name, exc, on_call, fired)
    return fired


def _before(monkeypatch, owner, name: str, exc: type, on_call: int) -> list:
    """``owner.name`` raises before it runs: a variant's ``add`` changes nothing when it raises (it hashes before
    it writes), which the model relies on for the variants whose typed inserts keep no copy."""
    fired = []

    def failing(*args, **kwargs):
        fired.append(name)
        raise _raised(exc)
    monkeypatch.setattr(owner, name, failing)
    return fired


def _no_stage(monkeypatch, owner, name, exc, on_call) -> list:
    """A scalable filter's next stage cannot be allocated (its bits: a MemoryError from bitarray)."""
    fired = []

    def no_memory(*args, **kwargs):
        fired.append("stage")
        raise _raised(exc)
    monkeypatch.setattr(scalable_module, "BloomFilter", no_memory)
    return fired


# (name, how it is injected, where): each raises after the real code has run, or instead of a stage's bits
INJECTIONS = [
    ("the filter's add", _before, (lambda wb: type_of_add(wb), "add")),
    ("a tracker's single-insert pass", _after, (lambda wb: FpTracker, "on_insert")),
    ("a tracker's batch kernel", _after_either, (lambda wb: FpTracker, ("insert_batch", "insert_halves"))),
    ("the curve's rows", _after, (lambda wb: pipeline_module.MeasuredSeries, "add")),
    ("the truth", _after, (lambda wb: Truth, "remember")),
    ("a new stage's bits", _no_stage, (lambda wb: None, None)),
]


def type_of_add(wb):
    from bloomviz.filters.standard import BloomFilter
    return BloomFilter if wb.filter.capabilities.staged else type(wb.filter)   # (a stage is a BloomFilter)


def _fill_newest_stage(wb) -> None:
    """A scalable filter's newest stage made full, so that the next insert opens a stage."""
    flt = wb.filter
    if flt.capabilities.staged:
        room = flt.stages.specs[-1].capacity - len(flt.stages[-1])
        if room:
            assert wb.insert_batch([f"fill {i}" for i in range(room)]) == room


def _generated(count: int, at: int = 0) -> GeneratedRun:
    return GeneratedRun(GeneratedItems(at + count, seed=11), at, at + count)


def _job(wb, total: int, atomic: bool) -> None:
    at = [0]

    def source(count):
        run = _generated(min(count, total - at[0]), at[0])
        at[0] = run.stop
        return run if len(run) else []
    assert wb.run_job(source, total, "auto-play items", atomic=atomic)
    wb.run_to_end()


def _logged(action):
    """``action`` with every batch kept as a log of what it changes, not a copy of the filter, whatever the sizes
    (as for a filter past the undo budget, where a copy of 512 MiB is what the log spares)."""
    from unittest import mock

    from bloomviz.filters import rollback

    def run(wb):
        with mock.patch.object(rollback, "log_bytes", lambda flt, n: 0 if flt.capabilities.logs_batches else None):
            action(wb)
    return run


# (entry, what it does, the call of the injected code that fails: a job's second chunk comes after one committed)
ENTRIES = [
    ("typed insert", lambda wb: wb.insert("a fresh typed item"), 1),
    ("pasted batch", lambda wb: wb.insert_batch([f"pasted {i}" for i in range(150)]), 1),
    ("auto-play batch", lambda wb: wb.insert_batch(_generated(150)), 1),
    ("pasted batch, no copy", _logged(lambda wb: wb.insert_batch([f"pasted {i}" for i in range(150)])), 1),
    ("auto-play batch, no copy", _logged(lambda wb: wb.insert_batch(_generated(150))), 1),
    ("file import (all or nothing)", lambda wb: _job(wb, 9_000, atomic=True), 2),
    ("auto-play job", lambda wb: _job(wb, 9_000, atomic=False), 2),
]


def _injected(variant, entry, injection, exc, monkeypatch):
    name, inject, (owner, method) = injection
    wb = next(wb for wb in (reached(variant, seed) for seed in range(4, 40)) if wb.variant == variant)
    if inject is _no_stage:
        _fill_newest_stage(wb)
    said: list[str] = []
    wb.events.error.connect(said.append)
    before = observable(wb)
    fired = inject(monkeypatch, owner(wb), method, exc, entry[2])
    return wb, said, before, fired


@pytest.mark.parametrize("exc", [MemoryError, RuntimeError])
@pytest.mark.parametrize("variant", list(DESIGNS))
def test_a_failure_part_way_puts_everything_back_and_says_what_failed(variant, exc, monkeypatch):
    failures, tried = [], set()
    for injection in INJECTIONS:
        for entry in ENTRIES:
            wb, said, before, fired = _injected(variant, entry, injection, exc, monkeypatch)
            entry[1](wb)
            monkeypatch.undo()
            if not fired:       # this entry never reaches that code (a batch calls no add)
                continue
            tried.add((injection[0], entry[0]))
            where = f"{injection[0]} in a {entry[0]}"
            changed = differences(before, observable(wb), fresh_kept=nbytes(wb.state))
            if changed:
                failures.append(f"{where}: changed {changed}")
            pattern = (r"not enough memory to insert .*\d (B|KiB|MiB)" if exc is MemoryError
                       else r"could not insert .*RuntimeError: injected")
            if not any(re.search(pattern, text) for text in said):
                failures.append(f"{where}: no message matching {pattern!r} in {said}")
            # and the model goes on: the same entry works once nothing fails
            entry[1](wb)
            if len(wb.history) <= len(before["history"]):
                failures.append(f"{where}: the model took nothing afterwards")
    assert not failures, "\n".join(failures)
    # every injection was met by some entry, and every entry met several
    assert {name for name, _ in tried} >= {i[0] for i in INJECTIONS if variant == "scalable" or "stage" not in i[0]}
    assert all(sum(e == entry[0] for _, e in tried) >= 3 for entry in ENTRIES), sorted(tried)


@pytest.mark.parametrize("entry", ENTRIES, ids=[e[0] for e in ENTRIES])
@pytest.mark.parametrize("variant", ["standard", "counting", "scalable"])
def test_an_interruption_part_way_is_put_back_and_raised_again(variant, entry, monkeypatch):
    injection = INJECTIONS[1] if entry[0] == "typed insert" else INJECTIONS[2]
    wb, said, before, fired = _injected(variant, entry, injection, KeyboardInterrupt, monkeypatch)
    with pytest.raises(KeyboardInterrupt):
        entry[1](wb)
    monkeypatch.undo()
    assert fired
    assert differences(before, observable(wb), fresh_kept=nbytes(wb.state)) == []
    assert not wb.busy
    assert any("interrupted" in text for text in said), said

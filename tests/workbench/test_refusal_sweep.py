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

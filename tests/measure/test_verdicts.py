"""Four-way verdicts: one decision (``measure.verdicts.classify``) for the window's model and the lesson runner,
with removals part of what the truth knows: an item inserted 4× and removed 4× whose saturated counters keep it
is a false positive that says so (not "never inserted"), and a member that a forced removal took out is a FALSE
NEGATIVE naming its zero counters and that removal."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

from bloomviz import lessons
from bloomviz.explain.operations import explain
from bloomviz.measure.verdicts import classify
from bloomviz.workbench.model import Workbench
from bloomviz.vocabulary import Verdict


@pytest.mark.parametrize("present, inserted, removed, known, want", [
    (True, 1, 0, True, Verdict.TRUE_POSITIVE), (True, 0, 0, True, Verdict.FALSE_POSITIVE),
    (True, 4, 4, True, Verdict.FALSE_POSITIVE), (True, 4, 3, True, Verdict.TRUE_POSITIVE),
    (False, 0, 0, True, Verdict.TRUE_NEGATIVE), (False, 2, 2, True, Verdict.TRUE_NEGATIVE),
    (False, 1, 0, True, Verdict.FALSE_NEGATIVE), (True, 0, 0, False, Verdict.MAYBE_PRESENT),
    (False, 0, 0, False, Verdict.TRUE_NEGATIVE), (True, 1, 0, False, Verdict.TRUE_POSITIVE),
    (False, 1, 0, False, Verdict.FALSE_NEGATIVE)])
def test_classify_is_four_way(present, inserted, removed, known, want):
    assert classify(present, inserted, removed, known) is want


def _said(wb):
    return wb.history[-1], explain(wb.state.last, wb.state)


def test_inserted_four_times_and_removed_four_times_is_not_never_inserted():
    wb = Workbench(probes=100)
    assert wb.configure(variant="counting", m=16, k=3, counter_bits=2)   # lesson 6's counters
    for _ in range(4):
        wb.insert("S")
    for _ in range(4):
        assert wb.remove("S") is not None
    wb.lookup("S")
    entry, words = _said(wb)
    assert entry.verdict == Verdict.FALSE_POSITIVE and wb.state.last.inserted == 4 and wb.state.last.removed == 4
    assert "never inserted" not in words.verdict_text and "no recorded item" not in words.verdict_text
    assert "inserted 4× and removed 4×" in words.verdict_text and "saturated at 3" in words.verdict_text


def _a_forced_removal_that_loses_a_member(wb, members):
    for i in range(1, 500):
        x = f"x{i}"
        if x in wb.filter and not wb.is_member(x):
            assert wb.remove(x, force=True) is not None and wb.history[-1].verdict == Verdict.FORCED_REMOVAL
            if wb.history[-1].false_negatives:
                return x, wb.history[-1].index
    raise AssertionError("no forced removal lost a member")


def test_a_member_lost_to_a_forced_removal_is_a_false_negative_everywhere():
    wb = Workbench(probes=100)
    assert wb.configure(variant="counting", m=24, k=3, counter_bits=4)
    members = [f"m{i}" for i in range(5)]
    for x in members:
        wb.insert(x)
    wb.lookup(members[1])
    assert wb.history[-1].verdict == Verdict.TRUE_POSITIVE
    forced, at = _a_forced_removal_that_loses_a_member(wb, members)
    lost = wb.history[-1].false_negatives[0]
    wb.lookup(lost)
    entry, words = _said(wb)
    assert entry.verdict == Verdict.FALSE_NEGATIVE and entry.false_negative_lookups == 1
    assert entry.true_negatives == 0 and wb.status()["false_negatives"] == 1
    zeros = [p for p in wb.filter.positions(lost) if wb.filter.counter(p) == 0]
    assert zeros and wb.state.last.caused_by.item == forced and wb.state.last.caused_by.index == at
    assert words.headline == "FALSE NEGATIVE" and f"“{forced}”" in words.verdict_text
    assert all(f"{p:,}" in words.verdict_text for p in zeros)
    assert "definitely not in the set" not in words.verdict_text
    # undo the lookup and the forced removal: the member is found again, a true positive
    wb.undo()
    wb.undo()
    wb.lookup(lost)
    assert wb.history[-1].verdict == Verdict.TRUE_POSITIVE and not wb.state.truth.forced


def test_lesson_6_names_its_false_negative_and_its_stuck_false_positive():
    reports = lessons.check(lessons.load_builtin("6"))
    phantom, kept, forced, stuck = (r["last"] for r in reports)
    assert (phantom["verdict"], phantom["class"]) == ("maybe", "false positive")
    assert (kept["verdict"], kept["class"]) == ("maybe", "true positive")
    assert (forced["item"], forced["verdict"], forced["class"]) == ("A", "no", "false negative")
    assert forced["zeros"] == [2, 3] and forced["caused_by"]["item"] == "X"
    assert (stuck["item"], stuck["class"], stuck["inserted"], stuck["removed"]) == ("S", "false positive", 4, 4)
    assert stuck["stuck"] == [10, 11, 12]


def test_lesson_6_names_every_member_its_forced_removal_lost():
    from bloomviz.lessons.runner import LessonRunner
    from bloomviz.lessons.state import lookup_verdict
    lesson = lessons.load_builtin("6")
    runner = LessonRunner(lesson)
    for _ in range(3):
        runner.next()
    lost = [x for x in ("A", "B", "X", "S") if lookup_verdict(runner.state, x) == "false negative"]
    assert lost == ["A", "B"]
    told = lesson.steps[2].after_reveal
    for item in lost:   # each lost member is named as "definitely not in"
        assert re.search(rf"\b{item}\b[^.]*definitely not in", told), item
    assert "two members" in told and len(lost) == 2


def test_a_lesson_expects_the_four_way_verdict():
    text = ("# T\n## S\n```bloomviz\npositions A = 1 2 3\npositions X = 3 2 1\n"
            "filter m=8 k=3 variant=counting counter_bits=2 scheme=hand-set\ninsert A\nlookup X\n"
            "expect verdict=maybe\nexpect verdict={}\n```\n")
    assert lessons.check(lessons.parse_text(text.format("false-positive")))[0]["last"]["class"] == "false positive"
    with pytest.raises(lessons.LessonError, match="expected verdict = true-positive, the lesson has false-positive"):
        lessons.check(lessons.parse_text(text.format("true-positive")))


def test_the_lesson_command_says_false_negative():
    out = subprocess.run([sys.executable, "-m", "bloomviz", "lesson", "6", "--check"], capture_output=True,
                         text=True, check=True).stdout
    line = [x for x in out.splitlines() if x.startswith("step 3")][0]
    assert "FALSE NEGATIVE" in line and "“X”" in line and "counters 2, 3 at 0" in line


def test_a_session_replays_its_false_negative_with_its_verdict():
    from bloomviz.files import session as sessions
    from bloomviz.workbench.replay import Stepper
    wb = Workbench(probes=100)
    assert wb.configure(variant="counting", m=24, k=3, counter_bits=4)
    members = [f"m{i}" for i in range(5)]
    for x in members:
        wb.insert(x)
    forced, _ = _a_forced_removal_that_loses_a_member(wb, members)
    lost = wb.history[-1].false_negatives[0]
    wb.lookup(lost)
    ops = [sessions.SavedOperation(e.op, item=e.item, verdict=str(e.verdict)) for e in wb.history]
    saved = sessions.Session(variant="counting", m=24, k=3, params={"counter_bits": 4}, operations=ops)
    again = sessions.loads(sessions.dumps(saved))
    assert again.operations[-1].verdict == "false negative"
    other = Workbench(probes=100)
    assert other.configure(variant="counting", m=24, k=3, counter_bits=4)
    assert Stepper(other, again.operations).run_all() == 0     # every verdict as recorded
    assert other.history[-1].verdict == Verdict.FALSE_NEGATIVE and other.state.last.caused_by.item == forced


def test_a_slow_lookup_in_a_lesson_names_its_false_negative():
    from bloomviz.gui.widgets.step_reveal import verdict_line
    from bloomviz.lessons.runner import LessonRunner
    from bloomviz.lessons.state import lookup_verdict
    runner = LessonRunner(lessons.load_builtin("6"))
    for _ in range(3):
        runner.next()
    state = runner.state
    assert [lookup_verdict(state, x) for x in "ABS"] == ["false negative", "false negative", "true negative"]
    look = state.filter.lookup("A")
    line = verdict_line("lookup", look.positions, look.bits, lookup_verdict(state, "A"))
    assert "FALSE NEGATIVE" in line and "would have set it" not in line
    assert "would have set it" in verdict_line("lookup", look.positions, look.bits, "true negative")

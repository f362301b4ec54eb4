"""Tools ▸ Find a false positive: finds one, never changes the filter, refuses hopeless searches."""

import pytest

from bloomviz.gui.filter_tab import find_fp
from bloomviz.gui.filter_tab.find_fp import FOUND, CANCELLED, EMPTY, UNLIKELY, FalsePositiveHunt, FindFalsePositiveDialog
from bloomviz.vocabulary import Verdict


pytestmark = pytest.mark.window(probes=None)


def _fill(window, m, k, n):
    window.wb.configure(m=m, k=k)
    assert window.wb.insert_batch([f"word{i}" for i in range(n)]) == n


def test_action_is_in_the_tools_menu_with_its_shortcut(window):
    action = find_fp.install(window)
    assert action in window.menu("Tools").actions()
    assert action.shortcut().toString() == "Ctrl+Shift+F"


def test_finds_a_false_positive_and_looks_it_up(window, qtbot):
    _fill(window, 512, 3, 120)  # fill ≈ 0.5: one try in ~8 passes
    action = find_fp.install(window)
    hunt = window.findChild(FalsePositiveHunt, "findFalsePositiveHunt")
    bits = window.wb.filter.bits.copy()
    count = len(window.wb.filter)
    with qtbot.waitSignal(hunt.finished, timeout=10_000) as blocker:
        action.trigger()
    result = blocker.args[0]
    assert result.outcome == FOUND
    assert not window.wb.is_member(result.item)
    assert result.item in window.wb.filter
    assert result.tries >= 1
    assert result.fp == pytest.approx((window.wb.filter.bits_set / window.wb.filter.m) ** 3)
    assert result.expected_tries == pytest.approx(1 / result.fp)
    assert f"{result.tries:,} tries" in result.message
    # the workbench looked it up: the history's last entry is that false positive, with its culprits explained
    last = window.wb.history[-1]
    assert last.verdict == Verdict.FALSE_POSITIVE and last.op == "lookup"
    expl = window.wb.last_explanation
    assert expl.verdict == Verdict.FALSE_POSITIVE and expl.headline == "FALSE POSITIVE"
    assert expl.culprits and all(total > 0 for _items, total in expl.culprits.values())
    # nothing was changed
    assert window.wb.filter.bits == bits and len(window.wb.filter) == count
    dialog = window.findChild(FindFalsePositiveDialog, "findFalsePositiveDialog")
    assert "Found a false positive" in dialog.label.text()
    assert window.statusBar().currentMessage().startswith("Found a false positive")


def test_tries_skip_candidates_that_were_inserted(window, qtbot):
    # Insert the very candidates the search will draw first: they pass, but as true positives.
    from bloomviz.items.encoding import random_items
    window.wb.configure(m=4096, k=2)
    hunt = FalsePositiveHunt(window.wb, seed=0)
    first = random_items(50, seed=[1, 0], prefix=find_fp.CANDIDATE_PREFIX)
    window.wb.insert_batch(first)
    with qtbot.waitSignal(hunt.finished, timeout=10_000) as blocker:
        assert hunt.start()
    result = blocker.args[0]
    assert result.outcome == FOUND
    assert result.item not in first and not window.wb.is_member(result.item)


def test_empty_filter_is_refused_at_once(window):
    hunt = FalsePositiveHunt(window.wb)
    results = []
    hunt.finished.connect(results.append)
    assert not hunt.start()
    assert results[0].outcome == EMPTY and "no bit set" in results[0].message
    assert not hunt.running


def test_tiny_rate_is_refused_saying_how_many_tries_it_would_take(window):
    _fill(window, 100_000, 10, 50)
    hunt = FalsePositiveHunt(window.wb)
    results = []
    hunt.finished.connect(results.append)
    assert not hunt.start()
    r = results[0]
    assert r.outcome == UNLIKELY
    assert r.expected_tries > find_fp.MAX_TRIES
    assert f"{r.expected_tries:,.0f} tries" in r.message and "cap" in r.message


def test_cap_and_cancel(window, qtbot):
    _fill(window, 4096, 4, 300)  # FP ≈ (0.25)^4 ≈ 0.004: ~250 tries on average
    capped = FalsePositiveHunt(window.wb, cap=3)
    with qtbot.waitSignal(capped.finished, timeout=5_000) as blocker:
        assert not capped.start()  # 1/FP > 3: refused up front
    assert blocker.args[0].outcome == UNLIKELY
    _fill(window, 100_000, 3, 2000)  # FP ≈ 2e-4: thousands of tries, several timer turns
    hunt = FalsePositiveHunt(window.wb)
    assert hunt.start() and hunt.running
    hunt.cancel()
    assert not hunt.running and hunt.result.outcome == CANCELLED
    assert window.wb.history[-1].op != "lookup"  # nothing looked up


def test_replacing_the_filter_stops_the_search(window):
    _fill(window, 100_000, 3, 2000)
    hunt = FalsePositiveHunt(window.wb)
    assert hunt.start()
    window.wb.configure(m=1000, k=3)
    assert not hunt.running and hunt.result.outcome == CANCELLED

"""The fill gauge: amber at the design capacity, words past it, the fill without a design."""

from __future__ import annotations

from bloomviz.theory import rates as theory
from bloomviz.gui.widgets import fill_gauge
from bloomviz.gui.theme import GAUGE_COLOURS
from bloomviz.gui.widgets.fill_gauge import gauge_state

AMBER, RED = GAUGE_COLOURS["near"], GAUGE_COLOURS["past"]
from window_helpers import new_window


def test_states_below_at_and_past_capacity():
    below = gauge_state(50, 100, 300, 959, 7, True)
    assert below["colour"] == "" and below["value"] == 500 and below["text"] == "50 of 100 items"
    at = gauge_state(100, 100, 480, 959, 7, True)
    assert at["colour"] == AMBER and "past capacity" not in at["text"]
    past = gauge_state(130, 100, 600, 959, 7, True)
    ratio = theory.fp_exact(959, 7, 130) / theory.fp_exact(959, 7, 100)
    assert past["colour"] == AMBER and f"{ratio:.1f}× the design's" in past["text"] and past["value"] == 1000
    assert gauge_state(200, 100, 800, 959, 7, True)["colour"] == RED
    plain = gauge_state(10, None, 32, 64, 3, True)
    assert plain["text"] == "fill 50 %" and plain["value"] == 500


def test_the_gauge_follows_the_window_s_filter(qtbot, tmp_path):
    w = new_window(qtbot, tmp_path, probes=200)
    gauge = fill_gauge.install(w)
    w.wb.configure(959, 7, capacity=100)
    w.wb.insert_batch([f"i{j}" for j in range(120)])
    qtbot.waitUntil(lambda: gauge.state["text"].startswith("120 of 100 items"), timeout=3000)
    assert gauge.state["colour"] == AMBER and "past capacity" in gauge.format()


def test_past_capacity_after_a_forced_removal_the_rate_is_the_counters(qtbot, tmp_path):
    after = gauge_state(130, 100, 600, 959, 7, True, after_removals=True)
    counters = (600 / 959) ** 7
    assert f"{counters / theory.fp_exact(959, 7, 100):.1f}× the design's" in after["text"]
    assert "counters give" in after["tip"] and "Its exact" not in after["tip"]
    w = new_window(qtbot, tmp_path, probes=200)
    gauge = fill_gauge.install(w)
    assert w.wb.configure(959, 7, variant="counting", capacity=100)
    w.wb.insert_batch([f"i{j}" for j in range(120)])
    stranger = next(x for x in (f"s{i}" for i in range(100_000)) if x in w.wb.filter and not w.wb.is_member(x))
    assert w.wb.remove(stranger, force=True) is not None
    gauge.refresh()
    assert "counters give" in gauge.toolTip()
    w.wb.undo()
    gauge.refresh()
    assert "Its exact false-positive rate" in gauge.toolTip()

"""Scenarios end to end in the window: parameters, data in, story told, the check's verdicts right."""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import numpy as np
import pytest
from PySide6 import QtCore

from bloomviz.scenarios import base, spelling, stories, weak_keys
from bloomviz.filters.standard import BloomFilter
from bloomviz.items.encoding import to_bytes
from bloomviz.vocabulary import Verdict
from bloomviz.gui.scenarios_tab.controller import SCENARIOS, install


pytestmark = pytest.mark.window(probes=2_000, confirm=True)


@pytest.fixture
def window(window):
    """The shared window (tests/conftest.py), its scenarios asking the test: ``asked`` holds the questions and
    ``answer`` is the reply."""
    window.asked = []
    window.answer = True
    window.scenarios = install(window, ask=lambda title, question: (window.asked.append(question), window.answer)[1])
    return window


def run(qtbot, win, key: str):
    ctl = win.scenarios
    with qtbot.waitSignal(ctl.runner.finished, timeout=60_000) as blocker:
        ctl.actions[key].trigger()
    assert blocker.args == [key]
    return ctl.runner.get(key)


def truth_of(win) -> set[bytes]:
    return {to_bytes(x) for x in win.wb.items}


def check_story_shown(win, sc):
    expl = win.wb.last_explanation
    assert expl.op == f"Scenario: {sc.title}"
    flt = win.wb.filter
    assert f"m = {flt.m:,}" in expl.verdict_text and f"k = {flt.k}" in expl.verdict_text
    assert win.scenarios.panel.story.toPlainText().startswith(sc.title)


@pytest.mark.parametrize("key", ["passwords", "ssh", "urls"])
def test_line_scenarios_end_to_end(qtbot, window, key):
    sc = run(qtbot, window, key)
    design = sc.design()
    flt = window.wb.filter
    assert (flt.m, flt.k, flt.scheme) == (design.m, design.k, design.scheme)
    assert window.wb.capacity == len(sc.items) == len(flt)
    assert truth_of(window) == sc.truth
    check_story_shown(window, sc)
    panel = window.scenarios.panel
    examples = [panel.examples.itemText(i) for i in range(1, panel.examples.count())]
    assert examples
    seen = set()
    for i, item in enumerate(examples, start=1):
        panel._use_example(i)
        v = panel.last_verdicts[0]
        member = to_bytes(item) in sc.truth
        passes = bool(flt.contains_many([item])[0])
        assert (v.member, v.passes) == (member, passes), item
        assert window.wb.history[-1].verdict == v.kind
        assert sc.verdict_text(v).split()[0] in panel.result.toPlainText()
        seen.add(v.kind)
    # every scenario offers a member, a non-member, and (found at run time) a false positive
    assert seen == {Verdict.TRUE_POSITIVE, Verdict.TRUE_NEGATIVE, Verdict.FALSE_POSITIVE}


def test_spell_checker_flags_misspellings_and_names_the_accepted_ones(qtbot, window):
    sc = run(qtbot, window, "spell")
    assert isinstance(sc, spelling.SpellChecker)
    flt = window.wb.filter
    assert len(flt) == len(sc.items) > 50_000
    check_story_shown(window, sc)
    panel = window.scenarios.panel
    assert panel.text.toPlainText() == sc.paragraph
    qtbot.mouseClick(panel.text_button, QtCore.Qt.MouseButton.LeftButton)
    verdicts = panel.last_verdicts
    words = list(dict.fromkeys(spelling.words_of(sc.paragraph)))
    assert [v.item for v in verdicts] == words
    dictionary = sc.truth
    found = flt.contains_many(words)
    for v, passes in zip(verdicts, found):
        assert v.member == (to_bytes(v.item) in dictionary)
        assert v.passes == bool(passes)
        assert not (v.member and not v.passes)            # no false negatives
    fps = [v.item for v in verdicts if v.false_positive]
    flagged = [v.item for v in verdicts if v.kind == Verdict.TRUE_NEGATIVE]
    assert flagged and fps, "the paragraph is meant to show both"
    shown = panel.result.toPlainText()
    for w in fps + flagged:
        assert w in shown
    # the last lookup is a false positive, so the grid and the explain panel show who set its bits
    last = window.wb.last_explanation
    assert last.verdict == Verdict.FALSE_POSITIVE and last.label == fps[0] and last.culprits


def test_spell_checker_reports_an_edited_text(qtbot, window):
    sc = run(qtbot, window, "spell")
    panel = window.scenarios.panel
    panel.text.setPlainText("The quick brown foxx")
    verdicts = panel.check_paragraph()
    assert [(v.item, v.kind) for v in verdicts][:3] == [("the", Verdict.TRUE_POSITIVE),
                                                       ("quick", Verdict.TRUE_POSITIVE),
                                                       ("brown", Verdict.TRUE_POSITIVE)]
    assert verdicts[3].item == "foxx" and not verdicts[3].member


def test_contacts_every_collision_and_save_prompt(qtbot, window):
    sc = run(qtbot, window, "contacts")
    flt = window.wb.filter
    assert (flt.m, flt.k) == (sc.M, sc.K) == (192, 3)
    # one insert per contact, in the history
    inserts = [e for e in window.wb.history if e.op == "insert"]
    assert [e.item for e in inserts] == sc.items
    check_story_shown(window, sc)
    shared = sc.collisions(flt, sc.items)
    pos = flt.positions_many(sc.items)
    counts = np.bincount(np.concatenate([np.unique(r) for r in pos]), minlength=flt.m)
    assert set(shared) == set(np.flatnonzero(counts > 1).tolist())
    assert f"{len(shared)} bits were set by two or more" in window.wb.last_explanation.verdict_text

    panel = window.scenarios.panel
    new = next(a for a in sc.new_addresses if not flt.contains_many([a])[0])
    window.answer = True
    panel.line.setText(new)
    v = panel.check_line()
    assert v.kind == Verdict.TRUE_NEGATIVE and window.asked and new in window.asked[-1]
    assert window.wb.is_member(new) and window.wb.history[-1].op == "insert"
    # saved: sending to it again is a known contact, no question
    asked = len(window.asked)
    panel.line.setText(new)
    assert panel.check_line().kind == Verdict.TRUE_POSITIVE and len(window.asked) == asked

    other = next(a for a in sc.new_addresses if not window.wb.filter.contains_many([a])[0])
    window.answer = False
    n = len(window.wb.filter)
    panel.line.setText(other)
    assert panel.check_line().kind == Verdict.TRUE_NEGATIVE
    assert len(window.wb.filter) == n and not window.wb.is_member(other)

    fps = [a for a in sc.new_addresses if window.wb.filter.contains_many([a])[0] and not window.wb.is_member(a)]
    if fps:
        asked = len(window.asked)
        panel.line.setText(fps[0])
        v = panel.check_line()
        assert v.false_positive and len(window.asked) == asked   # the prompt is wrongly skipped
        assert "false positive" in panel.result.toPlainText().lower()


def test_ssh_story_states_the_bytes_saved_and_the_measured_rate(qtbot, window):
    sc = run(qtbot, window, "ssh")
    flt = window.wb.filter
    assert len(sc.items) == 32_768 == len(set(sc.items))
    assert sc.design().p == 0.001
    text = window.wb.last_explanation.verdict_text
    filter_bytes = -(-flt.m // 8)
    assert f"{filter_bytes:,} bytes" in text
    assert f"saves {32_768 * 32 - filter_bytes:,} bytes" in text
    r = base.measure(flt, weak_keys.fresh_key_fingerprints(sc.PROBES))
    assert f"{r.hits:,} of {r.trials:,}" in text
    low, high = r.interval
    assert low <= 0.001 * 3 and high >= 0.001 / 3      # a measured rate near the design, not a typed one


def test_scenario_start_page_runs_a_scenario(qtbot, window):
    page = window.scenarios.start_page
    assert set(page.run_buttons) == set(SCENARIOS)
    window.show_tab("start")
    with qtbot.waitSignal(window.scenarios.runner.finished, timeout=60_000):
        qtbot.mouseClick(page.run_buttons["contacts"], QtCore.Qt.MouseButton.LeftButton)
    assert window.current_tab() == "filter"
    assert len(window.wb.filter) == 32
    keys = page.shortcuts_label.text()
    assert "Ctrl+L" in keys and "Alt+1" in keys


def test_cancelling_a_chunked_scenario_leaves_the_filter_as_it_was(qtbot, window):
    window.wb.insert("kept")
    before = (window.wb.filter.m, window.wb.filter.k, len(window.wb.filter))
    ctl = window.scenarios
    failures = []
    ctl.runner.failed.connect(lambda k, m: failures.append(m))
    assert ctl.run("urls")
    assert window.wb.busy
    window.wb.cancel()
    assert failures and "put back" in failures[-1]
    assert (window.wb.filter.m, window.wb.filter.k, len(window.wb.filter)) == before   # the user's filter, back
    assert window.wb.is_member("kept") and not ctl.runner.running


def test_missing_data_is_reported_and_changes_nothing(qtbot, window, tmp_path, monkeypatch):
    from bloomviz.scenarios import datasets
    monkeypatch.setattr(datasets, "_checkout_root", lambda: None)
    monkeypatch.setattr(datasets, "INSTALLED_SUBDIR", tmp_path / "nothing")
    monkeypatch.setenv(datasets.ENV_VAR, str(tmp_path))
    window.wb.insert("kept")
    before = (window.wb.filter.m, len(window.wb.filter))
    with qtbot.waitSignal(window.scenarios.runner.failed) as blocker:
        window.scenarios.run("passwords")
    assert "common-passwords.txt.gz" in blocker.args[1]
    assert (window.wb.filter.m, len(window.wb.filter)) == before
    assert "common-passwords" in window.scenarios.panel.message.text()


def test_pure_judge_matches_a_filter_built_by_hand():
    sc = stories.get_scenario("urls")
    d = sc.design()
    flt = BloomFilter(d.m, d.k)
    flt.update(sc.items)
    probe = sc.items[:50] + sc.browsing[:2_000]
    verdicts = base.judge(probe, flt, sc.truth)
    assert all(v.kind == Verdict.TRUE_POSITIVE for v in verdicts[:50])
    fps = [v for v in verdicts[50:] if v.passes]
    assert all(v.kind == Verdict.FALSE_POSITIVE for v in fps)
    assert len(fps) == int(np.count_nonzero(flt.contains_many(sc.browsing[:2_000])))


def test_unknown_scenario_is_refused():
    with pytest.raises(ValueError, match="unknown scenario 'x'.*spell"):
        stories.get_scenario("x")


def test_synthetic_keys_are_deterministic_and_distinct():
    a, b = weak_keys.weak_key_fingerprints(), weak_keys.weak_key_fingerprints()
    assert a == b and len(set(a)) == weak_keys.PID_SPACE
    assert all(f.startswith("SHA256:") and len(f) == 50 for f in a[:10])
    assert not set(weak_keys.fresh_key_fingerprints(1000)) & set(a)


def test_shipped_blocklist_is_what_the_build_script_makes():
    import importlib.util
    from pathlib import Path
    path = Path(__file__).resolve().parents[3] / "assets" / "datasets" / "build_datasets.py"
    spec = importlib.util.spec_from_file_location("build_datasets", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    from bloomviz.scenarios.datasets import read_lines
    assert read_lines("url-blocklist") == mod.synthesise_blocklist()
    assert all(u.split("/")[2].endswith(".test") for u in read_lines("url-blocklist"))

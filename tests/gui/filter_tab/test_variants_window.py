"""The variants through the window's model (Workbench), the item and parameter panels, and simulate --variant."""

from __future__ import annotations

import csv
import io
import math

import numpy as np
import pytest

from bloomviz import cli
from bloomviz.items.encoding import random_items
from bloomviz.gui.workbench import QtWorkbench
from bloomviz.vocabulary import Verdict

VARIANTS = [
    ("standard", {"m": 3000, "k": 4}),
    ("counting", {"m": 3000, "k": 4, "counter_bits": 2}),
    ("scalable", {"initial_capacity": 60, "p": 0.02, "growth": 2, "tightening": 0.8}),
    ("partitioned", {"m": 3000, "k": 4}),
    ("blocked", {"m": 4096, "k": 4}),
]


@pytest.fixture
def wb(qtbot):
    bench = QtWorkbench(probes=3_000)
    yield bench
    bench.cancel()


@pytest.mark.parametrize("variant, params", VARIANTS)
def test_no_false_negatives_and_exact_measurement_for_every_variant(wb, variant, params):
    assert wb.configure(variant=variant, **params)
    items = random_items(400, seed=11)
    assert wb.insert_batch(items[:300]) == 300
    for item in items[300:]:
        assert wb.insert(item) is not None
    assert wb.filter.contains_many(items).all()
    for item in items[::37]:
        wb.lookup(item)
        assert wb.history[-1].verdict == "true positive"
    # the exact measurement equals testing every probe
    brute = int(np.count_nonzero(wb.filter.contains_many(wb.probes)))
    assert wb.status()["fp_measured"] * len(wb.probes) == pytest.approx(brute)
    assert wb.series.column("fp_measured")[-1] * len(wb.probes) == pytest.approx(brute)
    assert len(wb.series) == 400


def test_counters_saturate_and_stay_through_the_workbench(wb):
    assert wb.configure(variant="counting", m=64, k=2, counter_bits=2)
    for _ in range(5):
        wb.insert("same")
    flt = wb.filter
    pos = flt.positions("same")
    assert all(flt.counter(p) == 3 for p in pos)
    assert "saturated" in wb.last_explanation.verdict_text
    for _ in range(4):
        assert wb.remove("same") is not None
    assert all(flt.counter(p) == 3 for p in pos)   # never decremented
    assert "saturated at 3 and never decremented" in wb.last_explanation.verdict_text
    assert "saturated" in wb.hover_text(pos[0])
    assert "counter" in wb.hover_text(pos[0])


def _false_positive(wb, prefix="x"):
    for i in range(200_000):
        cand = f"{prefix}{i}"
        if cand in wb.filter and not wb.is_member(cand):
            return cand
    raise AssertionError("no false positive found")


def test_refused_removal_changes_nothing(wb, qtbot):
    assert wb.configure(variant="counting", m=200, k=3)
    wb.insert_batch(random_items(60, seed=3))
    before = (wb.filter.counters.copy(), len(wb.history), len(wb.series), len(wb.filter), wb.tracker.fp_count)
    fp = _false_positive(wb)
    assert wb.removal_question(fp) is not None
    with qtbot.waitSignal(wb.error) as blocker:
        assert wb.remove(fp) is None
    assert "never inserted" in blocker.args[0]
    with qtbot.waitSignal(wb.error):
        assert wb.remove(next(x for x in (f"z{i}" for i in range(1000)) if x not in wb.filter), force=True) is None
    after = (wb.filter.counters, len(wb.history), len(wb.series), len(wb.filter), wb.tracker.fp_count)
    assert np.array_equal(before[0], after[0]) and before[1:] == after[1:]
    assert wb.configure(variant="standard", m=200, k=3)
    with qtbot.waitSignal(wb.error) as blocker:
        assert wb.remove("anything") is None
    assert "counting" in blocker.args[0]


def test_forced_removal_reports_the_false_negatives_it_causes(wb):
    assert wb.configure(variant="counting", m=96, k=3, counter_bits=4)
    items = random_items(40, seed=5)
    wb.insert_batch(items)
    # force removals of false positives until one makes a member test negative
    lost = ()
    for i in range(50):
        fp = _false_positive(wb, prefix=f"f{i}_")
        assert wb.remove(fp, force=True) is not None
        entry = wb.history[-1]
        assert entry.op == "remove" and entry.verdict == Verdict.FORCED_REMOVAL
        truly_lost = [x for x in items if x not in wb.filter]
        assert sorted(entry.false_negatives) == sorted(set(truly_lost) - set(sum((list(e.false_negatives)
                                                                                for e in wb.history[:-1]), [])))
        if entry.false_negatives:
            lost = entry.false_negatives
            break
    assert lost, "no forced removal caused a false negative"
    assert "FALSE NEGATIVE" in entry.note and all(x in entry.note for x in lost[:3])
    assert "FALSE NEGATIVE" in wb.last_explanation.verdict_text
    # the measurement was rebuilt from the counters that fell to 0
    assert wb.tracker.fp_count == int(np.count_nonzero(wb.filter.contains_many(wb.probes)))


def test_removing_a_member_takes_it_out_of_the_truth(wb):
    assert wb.configure(variant="counting", m=2000, k=3)
    wb.insert("apple")
    wb.insert("pear")
    assert wb.remove("apple") is not None
    assert wb.history[-1].verdict == Verdict.REMOVED
    assert not wb.is_member("apple") and wb.is_member("pear")
    assert "pear" in wb.filter
    assert len(wb.filter) == 1 and wb.series.column("n")[-1] == 1


def test_scalable_stages_grow_as_specified_and_stay_under_the_bound(wb, qtbot):
    n0, p, s, r = 50, 0.02, 2, 0.8
    assert wb.configure(variant="scalable", initial_capacity=n0, p=p, growth=s, tightening=r)
    resets = []
    wb.filterGrown.connect(lambda: resets.append(wb.filter.m))
    items = random_items(2000, seed=21)
    wb.insert_batch(items[:1000])
    for item in items[1000:1100]:
        wb.insert(item)
    wb.insert_batch(items[1100:])
    wb.flush()
    flt = wb.filter
    caps = [spec.capacity for spec in flt.stages.specs]
    assert caps == [n0 * s ** i for i in range(len(caps))]
    assert sum(caps[:-1]) < 2000 <= sum(caps)
    assert resets and resets[-1] == flt.m     # the grid was told it grew
    bands = wb.grid_bands()
    assert len(bands) == len(caps) and bands[-1][1] == flt.m
    measured = wb.series.column("fp_measured")
    low = wb.series.column("fp_low")
    assert (low <= p).all()          # measured under the bound p = p0/(1 - r), beyond its noise
    assert measured[-1] < p
    assert wb.bound_line()[0] == p
    theory = wb.series.column("fp_exact")
    assert np.allclose(theory, flt.theory_fp(wb.series.column("n")))


@pytest.mark.parametrize("variant, params", [("partitioned", {"m": 6000, "k": 5}),
                                             ("blocked", {"m": 8192, "k": 6})])
def test_partitioned_and_blocked_rates_within_five_sd_of_their_theory(qtbot, variant, params):
    wb = QtWorkbench(probes=20_000)
    assert wb.configure(variant=variant, **params)
    wb.insert_batch(random_items(900, seed=4))
    theory = wb.filter.theory_fp(900)
    measured = wb.series.column("fp_measured")[-1]
    sd = math.sqrt(theory * (1 - theory) / 20_000)
    assert abs(measured - theory) <= 5 * sd
    assert wb.series.column("fp_exact")[-1] == pytest.approx(theory)
    assert wb.last_explanation.variant_rows   # the explanation has the variant's own numbers
    wb.insert("one more")
    text = dict(wb.last_explanation.variant_rows)
    key = "block chosen (h_0 mod b)" if variant == "blocked" else next(k for k in text if k.startswith("slice i"))
    assert key in text


def test_item_panel_remove_asks_before_forcing(wb, qtbot):
    from bloomviz.gui.filter_tab.item_panel import ItemPanel
    panel = ItemPanel(wb)
    qtbot.addWidget(panel)
    assert not panel.remove_button.isEnabled()
    assert wb.configure(variant="counting", m=100, k=3)
    assert panel.remove_button.isEnabled()
    wb.insert_batch(random_items(40, seed=8))
    fp = _false_positive(wb)
    asked = []
    panel.confirm = lambda q: asked.append(q) or False
    panel.line.setText(fp)
    before = wb.filter.counters.copy()
    panel.remove()
    assert asked and np.array_equal(before, wb.filter.counters)
    panel.confirm = lambda q: True
    panel.remove()
    assert wb.history[-1].verdict == Verdict.FORCED_REMOVAL


def test_params_panel_variant_fields_and_validation(wb, qtbot):
    from bloomviz.gui.filter_tab.params_panel import ParamsPanel
    panel = ParamsPanel(wb)
    qtbot.addWidget(panel)
    panel.variant_combo.setCurrentIndex(panel.variant_combo.findData("counting"))
    panel.counter_bits_edit.setText("9")
    assert not panel.apply()
    assert "9" in panel.message.text() and wb.variant == "standard"
    panel.counter_bits_edit.setText("3")
    assert panel.apply() and wb.filter.counter_bits == 3
    panel.variant_combo.setCurrentIndex(panel.variant_combo.findData("scalable"))
    panel.tightening_edit.setText("0.99")
    assert not panel.apply() and wb.variant == "counting"
    assert "0.99" in panel.message.text()
    panel.tightening_edit.setText("0.5")
    panel.growth_combo.setCurrentIndex(panel.growth_combo.findData(4))
    wb.insert("x")
    panel.confirm = lambda q: False         # asks before discarding the inserted item
    assert not panel.apply() and wb.variant == "counting"
    panel.confirm = lambda q: True
    assert panel.apply()
    assert wb.variant == "scalable" and wb.filter.growth == 4 and wb.filter.tightening == 0.5


@pytest.mark.parametrize("args", [
    ["--variant", "counting", "--m", "3000", "--k", "4", "--counter-bits", "3"],
    ["--variant", "partitioned", "--m", "3000", "--k", "4"],
    ["--variant", "blocked", "--m", "4096", "--k", "4"],
    ["--variant", "scalable", "--initial-capacity", "50", "--p", "0.02", "--growth", "4"],
])
def test_simulate_variant_csv(tmp_path, args):
    out = tmp_path / "run.csv"
    assert cli.main(["simulate", "--n", "600", "--every", "100", "--probes", "2000", "--csv", str(out)] + args) == 0
    rows = list(csv.DictReader(io.StringIO(out.read_text())))
    assert [int(r["n"]) for r in rows] == [100, 200, 300, 400, 500, 600]
    assert list(rows[0])[-1] == "fp_variant"
    variant = float(rows[-1]["fp_variant"])
    assert 0 < variant < 1
    measured = float(rows[-1]["fp_measured"])
    assert abs(measured - variant) <= 5 * math.sqrt(variant * (1 - variant) / 2000) + 1e-3


@pytest.mark.parametrize("args, needle", [
    (["--variant", "nope", "--m", "100", "--k", "2"], "unknown filter variant 'nope'"),
    (["--variant", "counting", "--m", "100", "--k", "2", "--counter-bits", "9"], "counter_bits"),
    (["--variant", "counting", "--m", "100", "--k", "2", "--growth", "2"], "--growth"),
    (["--variant", "scalable", "--p", "0.1"], "--initial-capacity"),
])
def test_simulate_bad_variant_is_one_error_line_exit_2(tmp_path, capsys, args, needle):
    code = cli.main(["simulate", "--n", "100", "--csv", str(tmp_path / "x.csv")] + args)
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2 and len(err) == 1 and needle in err[0]
    assert not (tmp_path / "x.csv").exists()


def test_window_shows_bands_bound_and_heat_map_key(qtbot, tmp_path):
    from PySide6 import QtCore
    from bloomviz.gui.main_window import MainWindow
    from bloomviz.gui.filter_tab.variant_view import connect_variant_views
    settings = QtCore.QSettings(str(tmp_path / "s.ini"), QtCore.QSettings.Format.IniFormat)
    win = MainWindow(settings=settings)
    qtbot.addWidget(win)
    views = getattr(win, "variant_views", None) or connect_variant_views(win)
    wb = win.wb
    assert wb.configure(variant="scalable", initial_capacity=30, p=0.05)
    wb.insert_batch(random_items(200, seed=1))
    wb.flush()          # (drawn in the next turn of the event loop)
    assert win.grid.m == wb.filter.m
    assert len(win.grid.bands()) == len(wb.filter.stages) > 1
    assert win.plot.reference[0] == 0.05
    assert "stages" in win.grid_legend.text()
    assert wb.configure(variant="counting", m=400, k=3, counter_bits=2)
    assert win.grid.max_value == 3 and win.grid.bands() == []
    assert win.plot.reference is None
    assert "saturated" in win.grid_legend.text()
    wb.insert("a")
    views.refresh_bands()

"""A seeded random walk through the whole window, checking its invariants after every action (issue 13).

Run as a script (``tests/test_window_monkey.py`` runs it in a subprocess, so a crash is an exit code)::

    BLOOMVIZ_MONKEY_SEED=7 BLOOMVIZ_MONKEY_ACTIONS=20000 python tests/window_monkey.py

Actions: items typed and inserted, looked up, removed (valid and invalid: empty, 70 KB, lone surrogates); the
Filter panel's fields with good and bad values, Apply and Design; auto-play at every rate in short bursts;
every menu action but Quit; scenarios; File → New/Open/Save/Load/Insert from file with good, damaged and
special files; every tab, with random values in its fields and random clicks on its buttons; hovering the grid;
turns of the event loop. Every modal dialog is answered by the walk (QMessageBox, QFileDialog and QInputDialog
statics and ``exec`` are replaced), with Cancel among the answers.

Invariants, after each action (while no bulk job runs): no inserted item tests negative unless a forced removal
named it; n agrees across the filter, the status bar, the plot and the history; the grid's picture equals the
filter's values; the history table has a row per operation; an action that was refused or cancelled changed
nothing. Exit 0 with a JSON summary on stdout (actions, exceptions, worst stall, the slowest actions), 3 on exceptions,
4 on a broken invariant; the last actions are printed to replay a failure. ``BLOOMVIZ_MONKEY_TRACE=1`` prints
the filter and the view every 100 actions.
"""

from __future__ import annotations

import hashlib
import json
import os
import random
import re
import sys
import tempfile
import time
import traceback

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import numpy as np
from PySide6 import QtCore, QtGui, QtWidgets

SEED = int(os.environ.get("BLOOMVIZ_MONKEY_SEED", "1"))
ACTIONS = int(os.environ.get("BLOOMVIZ_MONKEY_ACTIONS", "2000"))
rng = random.Random(SEED)
check_rng = random.Random(SEED + 1)   # the checks' own draws: they do not shift the walk's
answer_rng = random.Random(SEED + 2)  # dialogs' answers: whether a dialog comes up depends on timing
errors: list[str] = []
log: list[str] = []


def excepthook(kind, value, tb):
    errors.append("".join(traceback.format_exception(kind, value, tb)))
    sys.stderr.write(f"EXCEPTION after action {len(log)} ({log[-1] if log else '-'}):\n{errors[-1]}")


sys.excepthook = excepthook
app = QtWidgets.QApplication([])
tmp = tempfile.mkdtemp(prefix="bloomviz-monkey-")
os.environ["BLOOMVIZ_SETTINGS"] = os.path.join(tmp, "settings.ini")

from bloomviz.files import storage  # noqa: E402
from bloomviz.filters.standard import BloomFilter  # noqa: E402
from bloomviz.gui.extensions import install_all  # noqa: E402
from bloomviz.gui.main_window import MainWindow  # noqa: E402
from bloomviz.gui.workbench import Workbench# noqa: E402

# --- files the walk opens: good, damaged, special ----------------------------------------------------------
FILES = {}
FILES["words"] = os.path.join(tmp, "words.txt")
with open(FILES["words"], "w", encoding="utf-8") as fh:
    fh.write("\n".join(f"w{i}" for i in range(300)) + "\n")
FILES["binary"] = os.path.join(tmp, "binary.txt")
with open(FILES["binary"], "wb") as fh:
    fh.write(b"\x00\x01" * 100)
FILES["bloom"] = os.path.join(tmp, "small.bloom")
_flt = BloomFilter(512, 3)
_flt.update([f"b{i}" for i in range(40)])
storage.save(_flt, FILES["bloom"])
FILES["damaged"] = os.path.join(tmp, "damaged.bloom")
with open(FILES["bloom"], "rb") as fh:
    data = bytearray(fh.read())
data[len(data) // 2] ^= 0xFF
with open(FILES["damaged"], "wb") as fh:
    fh.write(bytes(data))
FILES["fifo"] = os.path.join(tmp, "pipe")
os.mkfifo(FILES["fifo"])
FILES["session"] = os.path.join(tmp, "saved.bloomviz")   # written by the walk's own saves
PATHS = list(FILES.values()) + ["/dev/zero", tmp, os.path.join(tmp, "missing.bloomviz"), ""]
SAVE_PATHS = [FILES["session"], os.path.join(tmp, "out.png"), os.path.join(tmp, "out.csv"), "", tmp]

# --- every dialog answered by the walk ----------------------------------------------------------------------
Box = QtWidgets.QMessageBox
answers = {"cancelled": False}


def answer_box(*_args, **_kw):
    choice = answer_rng.choice([Box.StandardButton.Yes, Box.StandardButton.No, Box.StandardButton.Ok,
                                Box.StandardButton.Cancel])
    answers["cancelled"] |= choice in (Box.StandardButton.No, Box.StandardButton.Cancel)
    return choice


def exec_box(box):
    buttons = [b for b in (Box.StandardButton.Save, Box.StandardButton.Discard, Box.StandardButton.Cancel,
                           Box.StandardButton.Ok, Box.StandardButton.Yes, Box.StandardButton.No)
               if box.standardButtons() & b]
    choice = answer_rng.choice(buttons) if buttons else Box.StandardButton.Ok
    answers["cancelled"] |= choice in (Box.StandardButton.Cancel, Box.StandardButton.No)
    return int(choice.value)


for name in ("question", "warning", "information", "critical"):
    setattr(Box, name, staticmethod(answer_box))
Box.about = staticmethod(lambda *a, **k: None)
Box.exec = exec_box
QtWidgets.QFileDialog.getOpenFileName = staticmethod(lambda *a, **k: (answer_rng.choice(PATHS), ""))
QtWidgets.QFileDialog.getSaveFileName = staticmethod(lambda *a, **k: (answer_rng.choice(SAVE_PATHS), ""))


def get_int(parent, title, label, value=0, low=-2 ** 31, high=2 ** 31 - 1, step=1, *rest):
    pick = answer_rng.choice([low, high, value, answer_rng.randint(low, min(high, low + 5000))])
    return pick, answer_rng.random() < 0.8


QtWidgets.QInputDialog.getInt = staticmethod(get_int)
QtWidgets.QInputDialog.getText = staticmethod(lambda *a, **k: (answer_rng.choice(["", "x", "é" * 3]),
                                                                answer_rng.random() < .8))

# --- the window ---------------------------------------------------------------------------------------------
settings = QtCore.QSettings(os.environ["BLOOMVIZ_SETTINGS"], QtCore.QSettings.Format.IniFormat)
win = MainWindow(workbench=Workbench(probes=300), settings=settings)
install_all(win)
win.show()
wb = win.wb
for panel in (win.params_panel, win.item_panel):
    panel.confirm = lambda question: answer_box() in (Box.StandardButton.Yes, Box.StandardButton.Ok)
win.scenarios.panel.ask = lambda title, question: answer_rng.random() < 0.5

ITEMS = ["apple", "pear", "plum", "kiwi", "fig", "lime", "Zoë", "naïve", "東京", "a-b-c", "x y", "\ud800",
         "", "z" * 70_000, "\U0001F600"] + [f"i{i}" for i in range(60)]
# Mostly small sizes, so that the walk stays cheap; the limits and junk come up often enough to be met.
SMALL_VALUES = ["1", "2", "3", "7", "8", "50", "64", "200", "300", "1000", "4096", "0.5", "0.05", "0.01", "0.9"]
EDGE_VALUES = ["", "0", "65", "10000000", "10000001", "-3", "1e9", "nan", "inf", "abc", "1,000", " 12 ", "2**31",
               "9" * 30, "1e-300"]
TEXT_VALUES = SMALL_VALUES * 3 + EDGE_VALUES
QUIT_TEXTS = {"Quit", "Close"}


def fingerprint():
    flt = wb.filter
    counters = getattr(flt, "counters", None)
    bits = getattr(flt, "bits", None) if counters is None else None
    # the packed bits or the counters: unpacking 10^7 bits for every action would make the walk slow
    raw = (np.ascontiguousarray(counters).tobytes() if counters is not None else
           bits.tobytes() if bits is not None and hasattr(bits, "tobytes") else wb.grid_values().tobytes())
    return (wb.variant, flt.m, len(flt), hashlib.sha1(raw).hexdigest(), len(wb.history), len(wb.items))


def pump(ms: float) -> float:
    """Turns of the event loop for about ``ms`` milliseconds; returns the longest single turn (seconds)."""
    worst, end = 0.0, time.perf_counter() + ms / 1000
    while True:
        t = time.perf_counter()
        app.processEvents(QtCore.QEventLoop.ProcessEventsFlag.AllEvents, 5)
        worst = max(worst, time.perf_counter() - t)
        if time.perf_counter() >= end:
            return worst


# --- actions: each returns True when it must have changed nothing (refused or cancelled) --------------------
def act_item():
    item = rng.choice(ITEMS)
    win.item_panel.line.setText(item)
    op = rng.choice(["insert", "insert", "lookup", "remove"])
    getattr(win.item_panel, op)()
    return item == "" or len(item.encode("utf-8", "surrogatepass")) > 65_536   # refused: nothing changes


def act_params():
    panel = win.params_panel
    if rng.random() < 0.3:
        panel.variant_combo.setCurrentIndex(rng.randrange(panel.variant_combo.count()))
    for edit in (panel.m_edit, panel.k_edit, panel.initial_edit, panel.sp_edit, panel.tightening_edit,
                 panel.counter_bits_edit, panel.n_edit, panel.p_edit):
        if rng.random() < 0.4:
            edit.setText(rng.choice(TEXT_VALUES))
    if rng.random() < 0.3:
        panel.design()
    return not panel.apply()   # refused or not confirmed: nothing changes


def act_autoplay():
    ap, panel = win.autoplay, win.autoplay_panel
    choice = rng.random()
    if choice < 0.3:
        panel.rate_combo.setCurrentIndex(rng.randrange(panel.rate_combo.count()))
        panel.count_spin.setValue(rng.choice([1, 5, 50, 300]))
    elif choice < 0.6:
        ap.toggle()
    elif choice < 0.75:
        ap.step()
    elif choice < 0.9:
        ap.cancel()
    else:
        panel.source_combo.setCurrentIndex(rng.randrange(panel.source_combo.count()))
    return False


def menu_actions(menu) -> list:
    out = []
    for a in menu.actions():
        out += menu_actions(a.menu()) if a.menu() is not None else [a]
    return out


def act_menu():
    """An action of the window's menus (pyqtgraph's own context-menu actions are not the window's)."""
    acts = [a for top in win.menuBar().actions() if top.menu() is not None for a in menu_actions(top.menu())
            if a.isEnabled() and not a.isSeparator() and a.text().replace("&", "") not in QUIT_TEXTS]
    act = rng.choice(acts)
    log[-1] += f" [{act.text()}]"
    answers["cancelled"] = False
    act.trigger()
    return False


def act_file():
    files = win.file_actions
    answers["cancelled"] = False
    choice = rng.choice(["open", "open", "load", "import", "save", "new"])
    log[-1] += f" [{choice}]"
    if choice == "open":
        path = rng.choice(PATHS[:-1])
        log[-1] += f" {os.path.basename(path)}"
        ok = files.open_path(path, ask=rng.random() < 0.5)
    elif choice == "load":
        ok = files.load_filter_path(rng.choice([FILES["bloom"], FILES["damaged"], FILES["fifo"]]),
                                    ask=rng.random() < 0.5)
    elif choice == "import":
        ok = files.importer.start(rng.choice([FILES["words"], FILES["binary"], FILES["fifo"], "/dev/zero", tmp]))
    elif choice == "save":
        files.write_session(FILES["session"])
        return True   # saving changes no filter
    else:
        ok = files.new_session()
    return not ok   # refused or cancelled: nothing changes


def act_scenario():
    keys = list(win.scenarios.actions)
    key = rng.choice(["contacts", "contacts", "spell"] + keys)
    log[-1] += f" [{key}]"
    return not win.scenarios.run(key)   # refused, not confirmed or failed (and put back): nothing changes


def act_widget():
    """A random field or button of the current tab or a dock: the tabs' own controls, poked."""
    if rng.random() < 0.25:   # switching tabs relays the docks out: not every time
        win.show_tab(rng.choice(sorted(win._tab_keys)))   # every tab the window has, new ones included
    key = win.current_tab()
    root = win.current_view() if key != "filter" else win
    kinds = (QtWidgets.QLineEdit, QtWidgets.QSpinBox, QtWidgets.QComboBox, QtWidgets.QAbstractButton)
    widgets = [w for kind in kinds for w in root.findChildren(kind) if w.isVisible() and w.isEnabled()]
    if not widgets:
        return False
    w = rng.choice(widgets)
    log[-1] += f" [{type(w).__name__} {w.objectName() or getattr(w, 'text', lambda: '')()}]"
    answers["cancelled"] = False
    if isinstance(w, QtWidgets.QSpinBox):
        low, high = w.minimum(), w.maximum()
        w.setValue(int(min(high, low + int(10 ** rng.uniform(0, 3.5)))))   # small values: a cheap walk
    elif isinstance(w, QtWidgets.QComboBox):
        w.setCurrentIndex(rng.randrange(w.count())) if w.count() else None
    elif isinstance(w, QtWidgets.QLineEdit):
        w.setText(rng.choice(TEXT_VALUES + ITEMS[:12]))
        w.returnPressed.emit()
    elif isinstance(w, QtWidgets.QAbstractButton):
        w.click()
    return False


def act_hover():
    flt = wb.filter
    text = wb.hover_text(rng.randrange(-2, flt.m + 2))
    assert isinstance(text, str)
    return True


def act_wait():
    return False   # the pump after every action does the work; this one lets bursts run longer


ACTIONS_TABLE = [(act_item, 30), (act_params, 8), (act_autoplay, 12), (act_menu, 10), (act_file, 6),
                 (act_scenario, 2), (act_widget, 20), (act_hover, 6), (act_wait, 6)]
FUNCS, WEIGHTS = zip(*ACTIONS_TABLE)


# --- invariants ---------------------------------------------------------------------------------------------
def check(index: int) -> str | None:
    if wb.busy:
        return None
    flt = wb.filter
    if win.grid.m != flt.m:
        return f"the grid shows {win.grid.m} cells for a filter of {flt.m}"
    # the whole picture against the filter: every action on small filters, every tenth on large ones
    if (flt.m <= 200_000 or index % 10 == 0) and \
            not np.array_equal(win.grid.picture.reshape(-1)[:flt.m], wb.grid_values()):
        return "the grid's picture differs from the filter"
    if win.history_panel.model().rowCount() != len(wb.history):
        return f"history rows {win.history_panel.model().rowCount()} != operations {len(wb.history)}"
    n = len(flt)
    if wb.history and wb.history[-1].n != n:
        return f"history says n = {wb.history[-1].n}, the filter {n}"
    if len(wb.series) and int(wb.series.column("n")[-1]) != n:
        return f"the plot's series ends at n = {wb.series.column('n')[-1]}, the filter has {n}"
    if win.status_line.pending:
        win.update_status()
    shown = re.search(r"n = ([\d,]+)", win.status_label.text())
    if not shown or int(shown.group(1).replace(",", "")) != n:
        return f"status bar {win.status_label.text()!r} but n = {n}"
    if win.plot._series is not wb.series:
        return "the plot draws another series than the workbench's"
    if wb.truth_known:
        lost = {x for e in wb.history for x in e.false_negatives}
        sample = wb.items[-5:] + check_rng.sample(wb.items, min(5, len(wb.items)))
        for x in sample:
            if x not in lost and wb.is_member(x) and x not in flt:
                return f"false negative: {x!r} was inserted and tests negative"
    return None


def main() -> int:
    worst, worst_what = 0.0, ""
    started = time.perf_counter()
    cost: dict[str, float] = {}
    slowest: list[tuple[float, str]] = []
    for i in range(ACTIONS):
        func = rng.choices(FUNCS, WEIGHTS)[0]
        log.append(f"{i}: {func.__name__}")
        before = fingerprint()
        t = time.perf_counter()
        try:
            unchanged = bool(func())
        except Exception:
            excepthook(*sys.exc_info())
            unchanged = False
        spent = time.perf_counter() - t
        # checked at once: bulk work and auto-play go on in the turns of the loop that follow
        problem = None
        if unchanged and fingerprint() != before:
            problem = f"a refused or cancelled action changed the filter: {before} -> {fingerprint()}"
        turn = pump(rng.choice([0, 1, 2, 10]) if func is not act_wait else rng.choice([20, 60]))
        if max(spent, turn) > worst:
            worst, worst_what = max(spent, turn), log[-1]
        t_check = time.perf_counter()
        problem = problem or check(i)
        cost["(checks)"] = cost.get("(checks)", 0.0) + time.perf_counter() - t_check
        cost["(event loop)"] = cost.get("(event loop)", 0.0) + t_check - t - spent
        cost[func.__name__] = cost.get(func.__name__, 0.0) + time.perf_counter() - t
        if os.environ.get("BLOOMVIZ_MONKEY_TRACE") and i % 100 == 0:
            print(f"{i} {time.perf_counter() - started:.1f}s m={wb.filter.m} {wb.variant} n={len(wb.filter)} "
                  f"tab={win.current_tab()} font={win.font_scale} dark={win.dark}", file=sys.stderr)
        slowest = sorted(slowest + [(round(time.perf_counter() - t, 3), log[-1])], reverse=True)[:8]
        if problem:
            print(f"INVARIANT BROKEN (seed {SEED}) after {log[-1]}: {problem}", file=sys.stderr)
            print("last actions:\n" + "\n".join(log[-30:]), file=sys.stderr)
            return 4
    win.autoplay.cancel()
    wb.cancel()
    win.file_actions.discard_changes()
    summary = {"seed": SEED, "actions": ACTIONS, "exceptions": len(errors), "worst_stall_s": round(worst, 3),
               "worst_stall_after": worst_what, "seconds": round(time.perf_counter() - started, 1),
               "final_n": len(wb.filter), "operations": len(wb.history),
               "seconds_by_action": {k: round(v, 1) for k, v in sorted(cost.items(), key=lambda kv: -kv[1])},
               "slowest_actions": slowest}
    print(json.dumps(summary), flush=True)
    if errors:   # the first again, at the end, where a failing test's tail shows it
        print(f"{len(errors)} EXCEPTIONS (seed {SEED}); the first:\n{errors[0]}", file=sys.stderr)
    return 3 if errors else 0


if __name__ == "__main__":
    code = main()
    win.close()
    sys.exit(code)

"""A seeded random walk through the whole window, checking its invariants after every action (issues 13 and 27).

Run as a script (``tests/gui/test_window_walk.py`` runs it in a subprocess, so a crash or a hang is an exit code)::

    BLOOMVIZ_WALK_SEED=7 BLOOMVIZ_WALK_STEPS=20000 python tests/window_walk.py

Actions: items typed and inserted, looked up, removed (valid and invalid: empty, 70 KB, lone surrogates); the
Filter panel's fields with good and bad values, Apply and Design; auto-play at every rate in short bursts; every
menu action but Quit (Undo/Redo, Clear, the exports among them); scenarios; every tab, with random values in its
fields and random clicks on its buttons; hovering the grid; and the inputs of ``walk_inputs.py``: foreign files
(real writers' files, whole and damaged), lesson files of the lesson fuzz corpus (opened, stepped, cancelled),
sessions good and damaged, saves of every kind (session, filter, history, grid, plot, window picture) to FIFOs,
read-only files, symlinks and folders; a filter grown past 10^5 items. Every modal dialog is answered by the walk
(QMessageBox, QFileDialog and QInputDialog statics and ``exec`` are replaced), with Cancel among the answers.

Invariants, after each action (``walk_checks.py``): no inserted item tests negative unless a forced removal named
it; n agrees across the filter, the status bar, the plot and the history; the grid's picture equals the filter's
values; a refused or cancelled action changed nothing; no save touched a file but its own target, a FIFO, a
read-only file or a symlink stays as it was, no temporary is left behind. Nothing may block: every action runs
under a guard (faulthandler) that dumps every thread's stack and exits 5 after ``GUARD_SECONDS`` (a FIFO opened for
writing or reading blocks for ever). Exit 0 with a JSON summary on stdout, 3 on exceptions, 4 on a broken
invariant; each action is written to stderr before it runs, so a failure's tail shows the way there.
"""

from __future__ import annotations

import faulthandler
import json
import os
import random
import shutil
import sys
import tempfile
import time
import traceback
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6 import QtCore, QtWidgets  # noqa: E402

SEED = int(os.environ.get("BLOOMVIZ_WALK_SEED", "1"))
STEPS = int(os.environ.get("BLOOMVIZ_WALK_STEPS", "300"))
GUARD_SECONDS = float(os.environ.get("BLOOMVIZ_WALK_GUARD", "60"))
GROW_TO = 100_000
rng = random.Random(SEED)
check_rng = random.Random(SEED + 1)   # the checks' own draws: they do not shift the walk's
answer_rng = random.Random(SEED + 2)  # dialogs' answers: whether a dialog comes up depends on timing
errors: list[str] = []
log: list[str] = []
problems: list[str] = []   # what an action itself found wrong


def excepthook(kind, value, tb):
    errors.append("".join(traceback.format_exception(kind, value, tb)))
    sys.stderr.write(f"EXCEPTION in {log[-1] if log else '-'}:\n{errors[-1]}")


sys.excepthook = excepthook
app = QtWidgets.QApplication([])
tmp = Path(tempfile.mkdtemp(prefix="bloomviz-walk-"))
os.environ["BLOOMVIZ_SETTINGS"] = str(tmp / "settings.ini")

from bloomviz.gui.extensions import install_all  # noqa: E402
from bloomviz.gui.lesson_tab import stepping  # noqa: E402
from bloomviz.gui.main_window import MainWindow  # noqa: E402
from bloomviz.gui.window import exports  # noqa: E402
from bloomviz.gui.workbench import QtWorkbench  # noqa: E402
from walk_checks import FileWatch, check, fingerprint  # noqa: E402
from walk_inputs import SUFFIXES, Inputs  # noqa: E402

inputs = Inputs(tmp, rng)
INLINE_SECONDS = stepping.INLINE_SECONDS
targets = inputs.targets
WORDS = tmp / "words.txt"
WORDS.write_text("\n".join(f"w{i}" for i in range(300)) + "\n", encoding="utf-8")
GROWTH = tmp / "growth.txt"
GROWTH.write_text("\n".join(f"g{i}" for i in range(GROW_TO + 1000)) + "\n", encoding="utf-8")
FIFO = targets.fifos[0]
OPEN_ODD = [str(WORDS), FIFO, targets.links[next(iter(targets.links))], "/dev/zero", str(tmp),
            str(tmp / "missing.bloomviz")]
saved: list[str] = []   # sessions the walk saved (good ones to reopen)

# --- every dialog answered by the walk ----------------------------------------------------------------------
Box = QtWidgets.QMessageBox
said: list[str] = []    # every message and question shown during the current action
offered: list[str] = []  # every path a save dialog returned during the current action
answers = {"cancelled": False, "save": None, "open": None}


def answer_box(_parent=None, _title="", text="", *_args, **_kw):
    said.append(str(text))
    choice = answer_rng.choice([Box.StandardButton.Yes, Box.StandardButton.No, Box.StandardButton.Ok,
                                Box.StandardButton.Cancel])
    answers["cancelled"] |= choice in (Box.StandardButton.No, Box.StandardButton.Cancel)
    return choice


def exec_box(box):
    said.append(box.text())
    buttons = [b for b in (Box.StandardButton.Save, Box.StandardButton.Discard, Box.StandardButton.Cancel,
                           Box.StandardButton.Ok, Box.StandardButton.Yes, Box.StandardButton.No)
               if box.standardButtons() & b]
    choice = answer_rng.choice(buttons) if buttons else Box.StandardButton.Ok
    answers["cancelled"] |= choice in (Box.StandardButton.Cancel, Box.StandardButton.No)
    return int(choice.value)


def save_name(*_a, **_k):
    path, answers["save"] = answers["save"] or (targets.path(answer_rng, answer_rng.choice(SUFFIXES))
                                                if answer_rng.random() < 0.9 else ""), None
    offered.append(path)
    return path, ""


def open_name(*_a, **_k):
    path, answers["open"] = answers["open"] or answer_rng.choice(OPEN_ODD + [""]), None
    return path, ""


for name in ("question", "warning", "information", "critical"):
    setattr(Box, name, staticmethod(answer_box))
Box.about = staticmethod(lambda *a, **k: None)
Box.exec = exec_box
QtWidgets.QFileDialog.getOpenFileName = staticmethod(open_name)
QtWidgets.QFileDialog.getSaveFileName = staticmethod(save_name)
# the Other libraries' filter tab's "Open a folder…": a plain folder, a FIFO, a missing one, or cancelled
QtWidgets.QFileDialog.getExistingDirectory = staticmethod(
    lambda *_a, **_k: answer_rng.choice([str(tmp), FIFO, str(tmp / "missing-folder"), ""]))


QtWidgets.QInputDialog.getInt = staticmethod(lambda parent, title, label, value=0, low=-2 ** 31, high=2 ** 31 - 1, *_: (
    answer_rng.choice([low, high, value, answer_rng.randint(low, min(high, low + 5000))]), answer_rng.random() < 0.8))
QtWidgets.QInputDialog.getText = staticmethod(lambda *a, **k: (answer_rng.choice(["", "x", "é" * 3]),
                                                                answer_rng.random() < .8))

# --- the window ---------------------------------------------------------------------------------------------
settings = QtCore.QSettings(os.environ["BLOOMVIZ_SETTINGS"], QtCore.QSettings.Format.IniFormat)
win = MainWindow(workbench=QtWorkbench(probes=300), settings=settings)
install_all(win)
win.show()
wb = win.wb
files = win.file_actions
for panel in (win.params_panel, win.item_panel):
    panel.confirm = lambda question: answer_box() in (Box.StandardButton.Yes, Box.StandardButton.Ok)
win.scenarios.panel.ask = lambda title, question: answer_rng.random() < 0.5

ITEMS = ["apple", "pear", "plum", "kiwi", "fig", "lime", "Zoë", "naïve", "東京", "a-b-c", "x y", "\ud800",
         "", "z" * 70_000, "\U0001F600", '<img src="/dev/zero">', "l0\nl1\nl2"] + [f"i{i}" for i in range(60)]
# Mostly small sizes, so that the walk stays cheap; the limits and junk come up often enough to be met.
SMALL_VALUES = ["1", "2", "3", "7", "8", "50", "64", "200", "300", "1000", "4096", "0.5", "0.05", "0.01", "0.9"]
EDGE_VALUES = ["", "0", "65", "10000000", "10000001", "-3", "1e9", "nan", "inf", "abc", "1,000", " 12 ", "2**31",
               "9" * 30, "1e-300", "512 MiB", "1 in 1000", "1%"]
TEXT_VALUES = SMALL_VALUES * 3 + EDGE_VALUES
QUIT_TEXTS = {"Quit", "Close"}


def pump(ms: float) -> float:
    """Turns of the event loop for about ``ms`` milliseconds; returns the longest single turn (seconds)."""
    worst, end = 0.0, time.perf_counter() + ms / 1000
    while True:
        t = time.perf_counter()
        app.processEvents(QtCore.QEventLoop.ProcessEventsFlag.AllEvents, 5)
        worst = max(worst, time.perf_counter() - t)
        if time.perf_counter() >= end:
            return worst


settled = {"worst": 0.0}   # the longest turn of the event loop while an action waited for the work it started


def settle() -> None:
    """Until no bulk job, auto-play or lesson opening runs (the guard ends a wait that never ends)."""
    while wb.busy or win.autoplay.state != "idle" or win.lesson_view.opening.running:
        settled["worst"] = max(settled["worst"], pump(10))


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
    idle = not wb.busy
    act.trigger()
    # a long series' CSV is written as a job (its temporary open meanwhile): checked once written, as in act_save
    while act is win.actions_["export_plot"] and idle and wb.busy:
        settled["worst"] = max(settled["worst"], pump(10))
    return False


def act_file():
    choice = rng.choice(["odd", "bloom", "import", "new", "undo", "undo", "clear"])
    log[-1] += f" [{choice}]"
    if choice == "odd":
        path = rng.choice(OPEN_ODD)
        log[-1] += f" {os.path.basename(path)}"
        return not files.open_path(path, ask=rng.random() < 0.5)
    if choice == "bloom":
        return not files.load_filter_path(rng.choice(saved + [FIFO, str(WORDS)]), ask=rng.random() < 0.5)
    if choice == "import":
        return not files.importer.start(rng.choice([str(WORDS), FIFO, "/dev/zero", str(tmp)]))
    if choice == "new":
        return not files.new_session()
    win.actions_[choice].trigger()   # their own entries: the menu draw meets them less often
    return False


def opened(path: str) -> bool:
    """File → Open on ``path``; the file itself must come out of it byte for byte as it went in (unless it is the
    session's own file, which "save your changes first?" may write)."""
    log[-1] += f" {os.path.relpath(path, tmp)}"
    before = Path(path).read_bytes()
    own = files.path is not None and os.path.realpath(files.path) == os.path.realpath(path)
    ok = files.open_path(path, ask=rng.random() < 0.5)
    if not own and Path(path).read_bytes() != before:
        problems.append(f"opening {path} changed the file")
    return ok


def act_foreign():
    opened(inputs.foreign_file())
    return True   # another library's filter opens in its own tab: the window's filter stays


def act_session():
    return not opened(inputs.session_file(saved))


def act_save(kinds=targets.KINDS):
    kind = rng.choice(["session", "session", "filter", "history", "grid", "plot", "window"])
    suffix = {"session": ".bloomviz", "filter": ".bloom", "history": ".csv", "grid": ".png", "window": ".png",
              "plot": rng.choice([".png", ".svg", ".csv"])}[kind]
    answers["save"] = targets.path(rng, suffix if rng.random() < 0.8 else rng.choice(SUFFIXES), kinds)
    log[-1] += f" [{kind}] {os.path.relpath(answers['save'], tmp)}"
    if kind == "session":
        if files.write_session(save_name()[0]) and not targets.must_refuse(offered[-1]):
            saved.append(offered[-1])
    else:
        idle = not wb.busy
        {"filter": files.actions["save_filter"].trigger, "history": files.actions["export_history"].trigger,
         "grid": lambda: exports.export_grid(win), "plot": lambda: exports.export_plot(win),
         "window": lambda: exports.save_window_picture(win)}[kind]()
        while kind == "plot" and idle and wb.busy:   # a long series' CSV is written as a job: checked once written
            settled["worst"] = max(settled["worst"], pump(10))
    answers["save"] = None
    return True   # a save changes no filter


def act_refused_save():
    """A save to a FIFO, a read-only file, a folder or a link to one of those: once in every walk, however short."""
    settle()    # (a save is refused while bulk work runs, before the target is looked at)
    act_save(targets.REFUSED)
    return False   # the auto-play it waited for changed the filter meanwhile; the files are checked all the same


def act_lesson():
    view = win.lesson_view
    choice = rng.choice(["open", "open", "heavy", "next", "next", "back", "jump", "cancel"])
    log[-1] += f" [{choice}]"
    if choice in ("open", "heavy"):
        path = inputs.lesson_file(heavy=choice == "heavy")
        log[-1] += f" {os.path.basename(path)}"
        view.open_path(path)
        if choice == "heavy" and rng.random() < 0.7:   # the costly shapes: most are cancelled on the way
            pump(rng.choice([0, 20, 100]))      # (auto-play may go on meanwhile)
            view.opening.cancel()
            return False
        return True   # a lesson runs on its own filter: the window's stays
    if choice == "cancel":
        view.opening.cancel()
        return True
    # half the moves as jobs however light (the path of a heavy step: the view must not draw the state the worker
    # changes), half as the dry run's measure says; a step's "show scenario=" runs the scenario in the window
    stepping.INLINE_SECONDS = -1.0 if rng.random() < 0.5 else INLINE_SECONDS
    view.next() if choice == "next" else view.back() if choice == "back" else \
        view.go_to(rng.randrange(len(view.lesson.steps) + 1)) if view.lesson is not None else None
    return False


def act_grow():
    """The filter past 10^5 items: an auto-play of random items at full speed, or Insert from file."""
    settle()
    if rng.random() < 0.5:
        ap = win.autoplay
        ap.set_source("random", rng.randrange(100))
        ap.set_rate(0)
        ap.set_count(GROW_TO + 1000)
        ap.start()
    else:
        files.importer.start(str(GROWTH))
    settle()
    return False


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


FUNCS, WEIGHTS = zip((act_item, 30), (act_params, 8), (act_autoplay, 12), (act_menu, 10), (act_file, 6),
                     (act_foreign, 5), (act_session, 5), (act_save, 6), (act_lesson, 6), (act_widget, 20),
                     (act_hover, 6), (act_wait, 6))


def main() -> int:
    worst, worst_what = 0.0, ""
    started = time.perf_counter()
    cost: dict[str, float] = {}
    watch = FileWatch(targets)
    largest = 0
    # once each, in the middle third of the walk
    grow_at, refuse_at = (rng.randrange(STEPS // 3, max(STEPS // 3 + 1, 2 * STEPS // 3)) for _ in range(2))
    refuse_at -= refuse_at == grow_at
    for i in range(STEPS):
        func = act_grow if i == grow_at else act_refused_save if i == refuse_at else rng.choices(FUNCS, WEIGHTS)[0]
        log.append(f"{i}: {func.__name__}")
        said.clear()
        offered.clear()
        answers["cancelled"] = False
        before = fingerprint(wb)
        session_path = files.path or ""    # a save without a dialog writes here (Save, or "save first?")
        files_before = watch.before()
        faulthandler.dump_traceback_later(GUARD_SECONDS, exit=True)
        t = time.perf_counter()
        try:
            unchanged = bool(func())
        except Exception:
            excepthook(*sys.exc_info())
            unchanged = False
        spent = time.perf_counter() - t
        if settled["worst"]:      # it waited, turning the loop: its stall is its longest turn, not its length
            spent, settled["worst"] = settled["worst"], 0.0
        sys.stderr.write(log[-1] + "\n")
        # checked at once: bulk work and auto-play go on in the turns of the loop that follow
        problem = problems.pop() if problems else None
        if unchanged and fingerprint(wb) != before:
            problem = f"a refused or cancelled action changed the filter: {before} -> {fingerprint(wb)}"
        problem = problem or watch.after(files_before, offered + [session_path, files.path or ""], said)
        turn = pump(rng.choice([0, 0, 1, 5]) if func is not act_wait else rng.choice([20, 60]))
        if max(spent, turn) > worst:
            worst, worst_what = max(spent, turn), log[-1]
        problem = problem or check(win, wb, i, check_rng)
        faulthandler.cancel_dump_traceback_later()
        largest = max(largest, len(wb.filter))
        cost[func.__name__] = cost.get(func.__name__, 0.0) + time.perf_counter() - t
        if problem:
            print(f"INVARIANT BROKEN (seed {SEED}) after {log[-1]}: {problem}", file=sys.stderr)
            print("last actions:\n" + "\n".join(log[-30:]), file=sys.stderr)
            return 4
    win.autoplay.cancel()
    wb.cancel()
    win.lesson_view.opening.cancel()
    files.discard_changes()
    summary = {"seed": SEED, "steps": STEPS, "exceptions": len(errors), "worst_stall_s": round(worst, 3),
               "worst_stall_after": worst_what, "seconds": round(time.perf_counter() - started, 1),
               "largest_n": largest, "final_n": len(wb.filter), "operations": len(wb.history),
               "files_written": inputs.count, "saves_refused": watch.refused, "saves_written": watch.written,
               "seconds_by_action": {k: round(v, 1) for k, v in sorted(cost.items(), key=lambda kv: -kv[1])}}
    print(json.dumps(summary), flush=True)
    if errors:   # the first again, at the end, where a failing test's tail shows it
        print(f"{len(errors)} EXCEPTIONS (seed {SEED}); the first:\n{errors[0]}", file=sys.stderr)
    return 3 if errors else 0


if __name__ == "__main__":
    code = main()
    win.lesson_view.opening.wait(GUARD_SECONDS)
    win.close()
    if code == 0:       # a failed walk's files stay for a look
        shutil.rmtree(tmp, ignore_errors=True)
    sys.exit(code)

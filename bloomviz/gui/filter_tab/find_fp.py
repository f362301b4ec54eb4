"""Tools ▸ Find a false positive: draw random items until one that was never inserted passes the filter.

A false positive is rare by design, so finding one by hand is tedious; this draws candidates — first the built-in
word list in a seeded order (a student reads "lemon" more easily than "fp-3a9c…"), then seeded random items — in
batches from a ``timing.ChunkRunner`` (the window stays responsive), tests each batch with the filter's
``contains_many`` (reading only), skips any candidate that really was inserted (``Workbench.is_member``), and
stops at the first one that passes. Then it asks the workbench to look that item up, so the grid marks its k
bits and the explain panel names the inserted items that set them.

The number of tries is compared with what theory expects: each fresh item passes with probability
FP = (X/m)^k for the current fill X/m (the filter's ``expected_fp``), so the tries until the first success
are geometric with mean 1/FP. A filter with nothing set can never produce a false positive, and when 1/FP
exceeds ``MAX_TRIES`` the search is refused up front, saying how many tries it would take; a search that
reaches the cap stops saying so. The filter itself is never changed.

The dialog stands beside the grid's starred bits, never on them (``place_beside``); Esc closes it; a message
about a filter that has since changed says so instead of standing as if it were current.
"""

from __future__ import annotations

import html
import math
import time
from dataclasses import dataclass

import numpy as np
from PySide6 import QtCore, QtGui, QtWidgets

from bloomviz.items.encoding import describe, random_items
from bloomviz.gui import theme
from bloomviz.gui.filter_tab.autoplay import load_words
from bloomviz.gui.timing import ChunkRunner
from bloomviz.i18n import marks, number, tr

SHORTCUT = "Ctrl+Shift+F"
MAX_TRIES = 5_000_000
FIRST_BATCH = 2048
TICK_MS = 25
CANDIDATE_PREFIX = "fp-"

FOUND, CAP, CANCELLED, EMPTY, UNLIKELY, BUSY = "found", "cap", "cancelled", "empty", "unlikely", "busy"


@dataclass(frozen=True)
class HuntResult:
    outcome: str                  # FOUND, CAP, CANCELLED, EMPTY, UNLIKELY or BUSY
    tries: int                    # candidates tested that were not members
    expected_tries: float         # 1/FP at the fill when the search started (inf for an empty filter)
    fp: float                     # (X/m)^k then
    item: object = None           # the false positive found
    message: str = ""


def expected_rate(flt) -> float:
    """The chance that a fresh item passes now: (X/m)^k for a standard filter; each variant's own form."""
    return float(flt.expected_fp)


class FalsePositiveHunt(QtCore.QObject):
    """The search, one batch per turn of the event loop. ``progress(tries, cap)``; ``finished(HuntResult)``."""

    progress = QtCore.Signal(object, object)   # object: Qt's int is 32 bits
    finished = QtCore.Signal(object)

    def __init__(self, workbench, seed: int = 0, cap: int = MAX_TRIES, parent=None):
        super().__init__(parent)
        self.wb = workbench
        self.cap = int(cap)
        self._seed = int(seed)
        self._chunks = ChunkRunner(self._tick, self)
        self._batch = FIRST_BATCH
        self._round = 0
        self._tries = 0
        self._fp = 0.0
        self._last: HuntResult | None = None
        self.wb.filterReset.connect(self._on_filter_reset)

    @property
    def running(self) -> bool:
        return self._chunks.is_running

    @property
    def tries(self) -> int:
        return self._tries

    @property
    def result(self) -> HuntResult | None:
        return self._last

    def start(self) -> bool:
        """Begin a search (each one with fresh candidates). False when refused; ``finished`` says why."""
        if self.running:
            return False
        flt = self.wb.filter
        self._fp = expected_rate(flt)
        self._tries = 0
        self._batch = FIRST_BATCH
        self._seed += 1
        self._round = 0
        if self.wb.busy:
            return self._finish(BUSY, tr("A bulk insert is running; find a false positive when it has finished."))
        if flt.bits_set == 0 or self._fp <= 0.0:
            return self._finish(EMPTY, tr("The filter has no bit set, so every lookup finds a 0 bit: no item can "
                                          "be a false positive. Insert some items first."))
        expected = 1.0 / self._fp
        if expected > self.cap:
            return self._finish(UNLIKELY, tr(
                "Not searching: with fill {fill} and k = {k}, a random item passes with probability (X/m)^k = "
                "{rate}, so finding one would take about {expected} tries on average — more than the cap of {cap}. "
                "Insert more items (or use a smaller filter) to make false positives likelier.").format(
                fill=marks(f"{flt.bits_set / flt.m:.2%}"), k=flt.k, rate=marks(f"{self._fp:.3g}"),
                expected=number(expected, 0), cap=number(self.cap)))
        self.progress.emit(0, self.cap)
        self._chunks.start()
        return True

    def cancel(self) -> None:
        if self.running:
            self._finish(CANCELLED, tr("Cancelled after {tries} tries.").format(tries=number(self._tries)))

    def _on_filter_reset(self) -> None:
        if self.running:
            self._finish(CANCELLED, tr("Stopped after {tries} tries: the filter was replaced.").format(
                tries=number(self._tries)))

    def _tick(self) -> bool:
        """One batch of candidates; False when the search has ended."""
        started = time.perf_counter()
        batch = min(self._batch, self.cap - self._tries)
        if self._round == 0:       # words first, in an order drawn from the seed
            words = load_words()
            order = np.random.default_rng(self._seed).permutation(len(words))[:batch]
            candidates = [words[int(i)] for i in order]
            batch = len(candidates)
        else:
            candidates = random_items(batch, seed=[self._seed, self._round], prefix=CANDIDATE_PREFIX)
        self._round += 1
        passed = np.flatnonzero(self.wb.filter.contains_many(candidates))
        members = 0
        for i in passed:
            item = candidates[int(i)]
            if self.wb.is_member(item):  # a true positive: never a candidate
                members += 1
                continue
            self._tries += int(i) + 1 - members
            self._found(item)
            return False
        self._tries += batch - members
        self.progress.emit(self._tries, self.cap)
        if self._tries >= self.cap:
            self._finish(CAP, tr("No false positive in {tries} tries (the cap); theory expected one in about "
                                 "{expected}.").format(tries=number(self._tries), expected=number(1 / self._fp, 0)))
            return False
        spent = time.perf_counter() - started
        if spent > 0:
            self._batch = int(min(max(batch * TICK_MS / 1000 / spent, self._batch / 4, 256), self._batch * 4,
                                  1 << 20))
        return True

    def _found(self, item) -> None:
        expected = 1.0 / self._fp
        ratio = self._tries / expected
        text = tr("Found a false positive after {tries} tries: “{item}” was never inserted, yet all its bits are "
                  "set. Theory: each try passes with probability (X/m)^k = {rate}, so about 1/FP = {expected} tries "
                  "are expected ({ratio}× that here; the number of tries is geometric, so anything from a tenth to "
                  "three times is common).").format(tries=number(self._tries), item=describe(item, 40),
                                                     rate=marks(f"{self._fp:.3g}"), expected=number(expected, 0),
                                                     ratio=number(ratio, 2))
        # first, and delivered to the views now, so the grid and the explain panel show it when ``finished``
        # arrives (and the dialog does not take this lookup, delivered after the search, for a later change)
        self.wb.lookup(item)
        self.wb.flush()
        self._finish(FOUND, text, item)

    def _finish(self, outcome: str, message: str, item=None) -> bool:
        self._chunks.stop()
        expected = 1.0 / self._fp if self._fp > 0 else math.inf
        self._last = HuntResult(outcome, self._tries, expected, self._fp, item, message)
        self.progress.emit(self._tries, self.cap)
        self.finished.emit(self._last)
        return False


class FindFalsePositiveDialog(QtWidgets.QDialog):
    """A small non-modal window: progress, the outcome in words, Cancel / Search again / Close."""

    def __init__(self, hunt: FalsePositiveHunt, parent=None):
        super().__init__(parent)
        self.setWindowTitle(tr("Find a false positive"))
        self.setModal(False)
        self.hunt = hunt
        self.label = QtWidgets.QLabel()
        self.label.setWordWrap(True)
        self.label.setTextFormat(QtCore.Qt.TextFormat.RichText)
        self.label.setMinimumWidth(420)
        self.bar = QtWidgets.QProgressBar()
        self.bar.setFormat(tr("%v tries"))
        self.cancel_button = QtWidgets.QPushButton(tr("Cancel"))
        self.again_button = QtWidgets.QPushButton(tr("Search again"))
        self.close_button = QtWidgets.QPushButton(tr("Close"))
        self.cancel_button.clicked.connect(hunt.cancel)
        self.again_button.clicked.connect(self.search)
        self.close_button.clicked.connect(self.close)
        buttons = QtWidgets.QHBoxLayout()
        buttons.addStretch(1)
        for b in (self.cancel_button, self.again_button, self.close_button):
            buttons.addWidget(b)
        layout = QtWidgets.QVBoxLayout(self)
        layout.addWidget(self.label)
        layout.addWidget(self.bar)
        layout.addLayout(buttons)
        hunt.progress.connect(self._on_progress)
        hunt.finished.connect(self._on_finished)
        hunt.wb.filterReset.connect(self._stale)
        hunt.wb.operated.connect(lambda *_: self._stale())
        self.grid = None            # the grid whose starred bits the dialog keeps clear of

    def _stale(self) -> None:
        """The filter changed after the message was written: say so rather than keep it as if current."""
        # the hunt's own lookup of what it found comes while it is still running
        if not self.hunt.running and self._outcome_shown:
            self._outcome_shown = False
            self.label.setText(tr("The filter has changed since the last search: Search again looks on it as it is."))

    _outcome_shown = False

    def keyPressEvent(self, event) -> None:
        if event.key() == QtCore.Qt.Key.Key_Escape:     # Esc closes, also while a search runs
            self.close()
            return
        super().keyPressEvent(event)

    def search(self) -> None:
        flt = self.hunt.wb.filter
        fp = expected_rate(flt)
        expect = tr("about {expected} tries expected (1/FP, FP = (X/m)^k = {rate})").format(
            expected=number(1 / fp, 0), rate=marks(f"{fp:.3g}")) if fp > 0 else ""
        self.label.setText(tr("Drawing random items that were never inserted…") + f" {html.escape(expect)}")
        self.adjustSize()
        self.bar.setRange(0, self.hunt.cap)
        self.bar.setValue(0)
        self._busy(True)
        if not self.hunt.start():
            self._busy(False)

    def _busy(self, on: bool) -> None:
        self.cancel_button.setEnabled(on)
        self.again_button.setEnabled(not on)

    def _on_progress(self, tries: int, cap: int) -> None:
        self.bar.setValue(min(tries, cap))

    def _on_finished(self, result: HuntResult) -> None:
        self._busy(False)
        colour = theme.outcome_colour(result.outcome == FOUND)
        self.label.setText(f"<span style='color:{colour}'>{html.escape(result.message, quote=False)}</span>")
        self.adjustSize()  # the outcome is several lines: grow to show all of it
        self._outcome_shown = True
        if self.grid is not None and self.isVisible():
            place_beside(self, starred_points(self.grid))

    def closeEvent(self, event) -> None:
        self.hunt.cancel()
        super().closeEvent(event)


def install(window) -> QtGui.QAction:
    """Add Tools ▸ Find a false positive (Ctrl+Shift+F) to ``window`` (a MainWindow)."""
    hunt = FalsePositiveHunt(window.wb, parent=window)
    hunt.setObjectName("findFalsePositiveHunt")  # scripts and tests find it with findChild
    dialog = FindFalsePositiveDialog(hunt, window)
    dialog.setObjectName("findFalsePositiveDialog")
    action = QtGui.QAction(tr("Find a &false positive"), window)
    action.setShortcut(QtGui.QKeySequence(SHORTCUT))
    action.setStatusTip(tr("Draw random items until one that was never inserted passes the filter; compare the "
                           "tries with 1/FP"))
    action.setToolTip(action.statusTip())

    def run() -> None:
        dialog.show()
        dialog.raise_()
        dialog.search()

    action.triggered.connect(run)
    dialog.grid = window.grid
    hunt.finished.connect(lambda r: window.statusBar().showMessage(r.message, 10_000))
    window.menu("Tools").addAction(action)
    return action


def starred_points(grid) -> list[QtCore.QPoint]:
    """Screen points of the grid's highlight markers: each one's centre and the corners of its cell."""
    xs, ys, _kinds = grid.highlight_points()
    if not len(xs):
        return []
    vb = grid.view_box
    view = vb.scene().views()[0]
    points = []
    for x, y in zip(xs.tolist(), ys.tolist()):
        for dx, dy in ((0, 0), (-0.5, -0.5), (0.5, -0.5), (-0.5, 0.5), (0.5, 0.5)):
            scene = vb.mapViewToScene(QtCore.QPointF(x + dx, y + dy))
            points.append(view.mapToGlobal(view.mapFromScene(scene)))
    return points


def place_beside(dialog: QtWidgets.QWidget, points: list[QtCore.QPoint]) -> None:
    """Move ``dialog`` to the first corner of its parent window where it covers none of ``points``."""
    window = dialog.parentWidget().window() if dialog.parentWidget() is not None else None
    if window is None or not points:
        return
    area = QtCore.QRect(window.mapToGlobal(QtCore.QPoint(0, 0)), window.size())
    size = dialog.frameGeometry().size()
    corners = (area.topRight() - QtCore.QPoint(size.width(), 0), area.bottomRight() - QtCore.QPoint(size.width(),
               size.height()), area.bottomLeft() - QtCore.QPoint(0, size.height()), area.topLeft())
    for corner in corners:
        if not any(QtCore.QRect(corner, size).contains(p) for p in points):
            dialog.move(corner)
            return

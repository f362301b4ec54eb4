"""The auto-play controls: source, seed, rate, how many items; Play/Pause, Step, Cancel, Reset; progress."""

from __future__ import annotations

from PySide6 import QtCore, QtWidgets

from bloomviz.gui.filter_tab.autoplay import MAX_RATE, PAUSED, RATES, RUNNING, SOURCES, AutoPlay
from bloomviz.gui.timing import Throttle
from bloomviz.gui.widgets.progress import show_value
from bloomviz.i18n import number, tr

PROGRESS_INTERVAL_MS = 250  # a progress bar repaints synchronously (~6 ms): four times a second is plenty


def rate_label(rate: int) -> str:
    return tr("as fast as possible") if rate == MAX_RATE else tr("{rate} per second").format(rate=number(rate))


class AutoPlayPanel(QtWidgets.QWidget):
    def __init__(self, autoplay: AutoPlay, parent=None):
        super().__init__(parent)
        self._ap = autoplay
        self.source_combo = QtWidgets.QComboBox()
        for key, title in SOURCES.items():
            self.source_combo.addItem(tr(title), key)
        self.source_combo.setToolTip(tr("Random items are distinct strings drawn from a seed; the word list is "
                                        "5,000 English words (SCOWL) in an order drawn from the seed."))
        self.source_combo.setSizeAdjustPolicy(
            QtWidgets.QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        # a combo box as wide as ten characters at least, not as its longest entry: at 250 % text on a 1280-wide
        # projector the longest entries made the column wider than the window leaves it (the field scrolled)
        self.source_combo.setMinimumContentsLength(10)
        self.seed_spin = QtWidgets.QSpinBox()
        self.seed_spin.setRange(0, 2**31 - 1)
        self.seed_spin.setToolTip(tr("The same seed gives the same items in the same order: runs are repeatable."))
        self.rate_combo = QtWidgets.QComboBox()
        for rate in RATES:
            self.rate_combo.addItem(rate_label(rate), rate)
        self.rate_combo.setCurrentIndex(RATES.index(autoplay.rate))
        self.rate_combo.setSizeAdjustPolicy(
            QtWidgets.QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.rate_combo.setMinimumContentsLength(10)
        self.rate_combo.setToolTip(
            tr("Slow rates insert one item at a time so you can watch its k bits light up; fast rates insert in "
               "batches; 'as fast as possible' inserts a million items in seconds."))
        self.count_spin = QtWidgets.QSpinBox()
        self.count_spin.setRange(1, 10_000_000)
        self.count_spin.setGroupSeparatorShown(True)
        self.count_spin.setValue(autoplay.count)
        self.count_spin.setToolTip(tr("How many items this run inserts."))

        self.play_button = QtWidgets.QPushButton(tr("Play"))
        self.play_button.setToolTip(tr("Start inserting (F7); press again to pause."))
        self.step_button = QtWidgets.QPushButton(tr("Step"))
        self.step_button.setToolTip(tr("Insert just the next item and watch it (F6)."))
        self.cancel_button = QtWidgets.QPushButton(tr("Cancel"))
        self.cancel_button.setToolTip(tr("Stop this run; what was inserted stays (Esc)."))
        self.reset_button = QtWidgets.QPushButton(tr("Reset"))
        self.reset_button.setToolTip(tr("Stop, empty the filter and start the item stream again."))
        self.progress_bar = QtWidgets.QProgressBar()
        self.progress_bar.setRange(0, autoplay.count)
        self.progress_bar.setValue(0)
        self.progress_bar.setFormat(f"0 of {autoplay.count:,}")
        self.status = QtWidgets.QLabel()
        self.status.setWordWrap(True)
        self._latest = (0, autoplay.count)
        self._progress_throttle = Throttle(PROGRESS_INTERVAL_MS, self._show_progress, self)

        form = QtWidgets.QFormLayout()
        form.setFieldGrowthPolicy(QtWidgets.QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
        form.addRow(tr("Items"), self.source_combo)
        # one control a row: at 250 % text on a projector "How many [1,000] seed [0]" was wider than the column
        form.addRow(tr("How many"), self.count_spin)
        form.addRow(tr("Seed"), self.seed_spin)
        form.addRow(tr("Rate"), self.rate_combo)
        self.buttons = buttons = QtWidgets.QGridLayout()
        self._one_row = None
        self._place_buttons(False)
        layout = QtWidgets.QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        layout.addLayout(form)
        layout.addLayout(buttons)
        layout.addWidget(self.progress_bar)
        layout.addWidget(self.status)
        layout.addStretch(1)

        self.play_button.clicked.connect(self.toggle)
        self.step_button.clicked.connect(self.step)
        self.cancel_button.clicked.connect(autoplay.cancel)
        self.reset_button.clicked.connect(autoplay.reset)
        self.rate_combo.currentIndexChanged.connect(lambda _i: autoplay.set_rate(self.rate_combo.currentData()))
        self.count_spin.valueChanged.connect(self._count_changed)
        self.source_combo.currentIndexChanged.connect(self._source_changed)
        self.seed_spin.valueChanged.connect(self._source_changed)
        autoplay.stateChanged.connect(self._state_changed)
        autoplay.progress.connect(self._progress)
        autoplay.message.connect(self.status.setText)
        self._state_changed(autoplay.state)

    def _place_buttons(self, one_row: bool) -> None:
        """Play, Step, Cancel, Reset in one row when the panel is wide enough (a projector's large text needs
        the height), else two by two."""
        if one_row == self._one_row:
            return
        self._one_row = one_row
        for i, button in enumerate((self.play_button, self.step_button, self.cancel_button, self.reset_button)):
            self.buttons.addWidget(button, 0 if one_row else i // 2, i if one_row else i % 2)

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        self._fit_buttons()

    def _fit_buttons(self) -> None:
        """One row or two, by the width the panel is shown in: its scroll area's viewport, not its own width,
        which one row holds at least as wide as the row (back at 100 % after 250 % the row stayed, 350 px in a
        300 px column, and Reset scrolled out of view)."""
        need = sum(b.minimumSizeHint().width() for b in (self.play_button, self.step_button, self.cancel_button,
                                                          self.reset_button)) + 3 * self.buttons.spacing() + 12
        shown_in = self.parentWidget()
        self._place_buttons(min(self.width(), shown_in.width() if shown_in is not None else self.width()) >= need)

    def event(self, event) -> bool:
        if event.type() == QtCore.QEvent.Type.ParentChange and self.parentWidget() is not None:
            self.parentWidget().installEventFilter(self)    # the viewport's resizes, which may not resize this
        return super().event(event)

    def eventFilter(self, obj, event) -> bool:  # noqa: N802 - Qt's name
        if obj is self.parentWidget() and event.type() == QtCore.QEvent.Type.Resize:
            self._fit_buttons()
        return False

    def toggle(self) -> None:
        self._ap.toggle()

    def step(self) -> None:
        self._ap.step()

    def _count_changed(self, value: int) -> None:
        self._ap.set_count(int(value))
        self._latest = (self._ap.done if self._ap.state != "idle" else 0, int(value))
        self._show_progress()

    def _source_changed(self, *_):
        self._ap.set_source(self.source_combo.currentData(), int(self.seed_spin.value()))
        self.progress_bar.setValue(0)

    def _state_changed(self, state: str) -> None:
        if state not in (RUNNING,):
            self._show_progress()
        self.play_button.setText(tr("Pause" if state == RUNNING else ("Resume" if state == PAUSED else "Play")))
        self.cancel_button.setEnabled(state in (RUNNING, PAUSED))
        for w in (self.source_combo, self.seed_spin, self.count_spin):
            w.setEnabled(state not in (RUNNING, PAUSED))

    def _progress(self, done: int, total: int) -> None:
        # A progress bar repaints itself synchronously on every new value: at thousands of updates a second
        # that costs more than the inserts, so show the latest value at most ten times a second.
        self._latest = (done, total)
        self._progress_throttle.request()

    def _show_progress(self) -> None:
        done, total = self._latest
        self.progress_bar.setRange(0, max(total, 1))
        self.progress_bar.setFormat(tr("{done} of {total}").format(done=number(done), total=number(total)))
        show_value(self.progress_bar, min(done, total))

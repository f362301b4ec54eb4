"""The set-operations view: two filters A and B, their OR and AND, and what each tells about the sets.

Items for A and B are typed (one per line) or drawn as overlapping random samples. The view shows the grids of
A, B, A|B, A&B and of the filter built from the true intersection A∩B (with the AND's extra bits marked when
there are few enough to see), the estimated sizes against the true ones, and the false-positive rates of the
AND filter against the filter of the intersection. Filters that differ in m, k or scheme are refused with the
core's message. The computation is ``bloomviz.studies.setops.compare_sets``; this view collects input and draws.
"""

from __future__ import annotations

import html
import math

import numpy as np
from PySide6 import QtCore, QtWidgets

from bloomviz.filters import bitstore

from bloomviz.hashing import schemes as hashing
from bloomviz.gui.messages import Messages, Msg
from bloomviz.gui.widgets.message_bar import MessageBar
from bloomviz.studies.setops import MAX_ITEMS, SetReport, compare_sets, parse_items, rates, sample_sets
from bloomviz.gui.widgets.grid import BitGridWidget
from bloomviz.gui.widgets.side_column import side_column
from bloomviz.gui.timing import Throttle
from bloomviz.i18n import marks, number, tr
from bloomviz.gui.widgets.bounded_text import TOO_LONG, BoundedPlainText
from bloomviz.theory.limits import MAX_K, SET_BOX_CHARS

TAB_KEY = "setops"
TAB_TITLE = "Set operations"
TAB_TIP = ("Two filters A and B: their OR is exactly the filter of A ∪ B, their AND holds more bits than the "
           "filter of A ∩ B — estimate the sizes and see the cost")
DEBOUNCE_MS = 300
PROBES = 20_000
GRIDS = (("a", "A"), ("b", "B"), ("union", "A | B  (OR)"), ("intersection", "A & B  (AND)"),
         ("intersection_of_items", "filter built from A ∩ B"), ("extra", "in A & B only"))


def _params_box(title: str):
    m = QtWidgets.QSpinBox()
    m.setRange(8, 10_000_000)
    m.setGroupSeparatorShown(True)
    k = QtWidgets.QSpinBox()
    k.setRange(1, MAX_K)
    scheme = QtWidgets.QComboBox()
    for sid in hashing.SCHEMES:
        scheme.addItem(sid, sid)
    scheme.setCurrentIndex(scheme.findData(hashing.DEFAULT_SCHEME))
    scheme.setSizeAdjustPolicy(QtWidgets.QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
    scheme.setMinimumContentsLength(8)
    box = QtWidgets.QGroupBox(tr(title))
    form = QtWidgets.QFormLayout(box)
    form.addRow("m", m)
    form.addRow("k", k)
    form.addRow(tr("scheme"), scheme)
    return box, m, k, scheme


class SetOpsView(Messages, QtWidgets.QWidget):
    class Error(Messages.Error):
        refused = Msg("Refused: {problem}")
        too_long = TOO_LONG

    class Information(Messages.Information):
        sizes = Msg("A: {a} items, B: {b} items (at most {most} each).")

    """See the module docstring. ``computed(report)`` after every successful computation."""

    computed = QtCore.Signal(object)

    def __init__(self, parent=None):
        super().__init__(parent)
        self._report: SetReport | None = None
        self.box_b = None
        self._debounce = Throttle(DEBOUNCE_MS, self.compute, self)
        self._build()
        self.m_a.setValue(2048)
        self.k_a.setValue(4)
        self._sync_same(True)
        self.sample()

    # --- construction --------------------------------------------------------------------------------
    def _build(self) -> None:
        box_a, self.m_a, self.k_a, self.scheme_a = _params_box("Filter parameters")
        self.same = QtWidgets.QCheckBox(tr("B uses the same m, k and scheme"))
        self.same.setChecked(True)
        self.same.setToolTip(tr("Untick to give B its own parameters and see why such filters cannot be combined"))
        box_b, self.m_b, self.k_b, self.scheme_b = _params_box("B's parameters")
        self.box_b = box_b
        self.same.toggled.connect(self._sync_same)
        for w in (self.m_a, self.k_a, self.m_b, self.k_b):
            w.valueChanged.connect(self._changed)
        for w in (self.scheme_a, self.scheme_b):
            w.currentIndexChanged.connect(self._changed)

        self.size_a = QtWidgets.QSpinBox()
        self.size_b = QtWidgets.QSpinBox()
        self.overlap = QtWidgets.QSpinBox()
        for w in (self.size_a, self.size_b, self.overlap):
            w.setRange(0, 100_000)
            w.setGroupSeparatorShown(True)
        self.size_a.setValue(250)
        self.size_b.setValue(250)
        self.overlap.setValue(100)
        self.seed = QtWidgets.QSpinBox()
        self.seed.setRange(0, 2 ** 31 - 1)
        self.sample_button = QtWidgets.QPushButton(tr("Random overlapping sample"))
        self.sample_button.setToolTip(tr("Fill both boxes with seeded random items: |A|, |B| items sharing "
                                         "'overlap' of them"))
        self.sample_button.clicked.connect(self.sample)
        sample_box = QtWidgets.QGroupBox(tr("Sample"))
        sf = QtWidgets.QFormLayout(sample_box)
        sf.addRow("|A|", self.size_a)
        sf.addRow("|B|", self.size_b)
        sf.addRow(tr("overlap"), self.overlap)
        sf.addRow(tr("seed"), self.seed)
        sf.addRow(self.sample_button)

        self.text_a = BoundedPlainText(SET_BOX_CHARS)
        self.text_b = BoundedPlainText(SET_BOX_CHARS)
        for name, t in (("A", self.text_a), ("B", self.text_b)):
            t.refused.connect(lambda most: self.show_only(self.Error.too_long, most=number(most)))
            t.setLineWrapMode(QtWidgets.QPlainTextEdit.LineWrapMode.NoWrap)   # one item a line, as it is read
            t.setPlaceholderText(tr("items of {name}, one per line").format(name=name))
            t.setToolTip(tr("The items of set {name}, one per line (spaces around an item are ignored, "
                            "an item given twice counts once)").format(name=name))
            t.textChanged.connect(self._changed)
        texts = QtWidgets.QVBoxLayout()
        for name, t in (("A", self.text_a), ("B", self.text_b)):
            t.setMinimumHeight(90)
            texts.addWidget(QtWidgets.QLabel(tr("Items of {name}").format(name=name)))
            texts.addWidget(t, 1)

        self.message = MessageBar()
        self.bind_messages(self.message)

        scroll = side_column(box_a, self.same, box_b, sample_box, (texts, 1), self.message)

        self.grids: dict[str, BitGridWidget] = {}
        self.grid_titles: dict[str, QtWidgets.QLabel] = {}
        grid_layout = QtWidgets.QGridLayout()
        grid_layout.setSpacing(4)
        for i, (key, title) in enumerate(GRIDS):
            label = QtWidgets.QLabel(f"<b>{html.escape(tr(title))}</b>")
            label.setSizePolicy(QtWidgets.QSizePolicy.Policy.Ignored, QtWidgets.QSizePolicy.Policy.Preferred)
            label.setWordWrap(True)     # at 250 % "A | B (OR) — 1,106 bits (54.0%)" was cut to "A | B (OR) — 1"
            grid = BitGridWidget()
            grid.setMinimumSize(80, 80)
            cell = QtWidgets.QVBoxLayout()
            cell.setSpacing(1)
            cell.addWidget(label)
            cell.addWidget(grid, 1)
            grid_layout.addLayout(cell, i // 3, i % 3)
            self.grids[key] = grid
            self.grid_titles[key] = label
        self.grids["extra"].setToolTip(tr("bits set in A & B that no item of A ∩ B set: the AND's excess"))
        self.grid_note = QtWidgets.QLabel()
        self.grid_note.setWordWrap(True)
        self.grid_note.setSizePolicy(QtWidgets.QSizePolicy.Policy.Ignored, QtWidgets.QSizePolicy.Policy.Preferred)

        self.table = QtWidgets.QTableWidget(5, 4)
        self.table.setHorizontalHeaderLabels([tr("true"), tr("estimated"), tr("error"), tr("estimated from")])
        self.table.setVerticalHeaderLabels(["|A|", "|B|", "|A ∪ B|", "|A ∩ B|", tr("|A ∩ B| (AND's bits)")])
        self.table.setEditTriggers(QtWidgets.QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.horizontalHeader().setStretchLastSection(True)
        self.table.setVerticalScrollBarPolicy(QtCore.Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.table.setToolTip(tr("n ≈ −(m/k)·ln(1 − X/m) from the X bits set; |A ∩ B| ≈ |A| + |B| − |A ∪ B|"))
        self.and_text = QtWidgets.QLabel()
        self.and_text.setWordWrap(True)
        self.and_text.setTextFormat(QtCore.Qt.TextFormat.RichText)
        self.and_text.setSizePolicy(QtWidgets.QSizePolicy.Policy.Ignored, QtWidgets.QSizePolicy.Policy.Preferred)

        right = QtWidgets.QWidget()
        rl = QtWidgets.QVBoxLayout(right)
        rl.setContentsMargins(0, 0, 0, 0)
        rl.addLayout(grid_layout, 3)
        self.grid_note.setTextFormat(QtCore.Qt.TextFormat.RichText)
        rl.addWidget(self.grid_note)
        # Stacked, not side by side: the tab shares the window's width with the docks.
        rl.addWidget(self.table, 2)
        rl.addWidget(self.and_text)
        layout = QtWidgets.QHBoxLayout(self)
        layout.addWidget(scroll)
        layout.addWidget(right, 1)
        self._sync_same(True)

    # --- input ---------------------------------------------------------------------------------------
    def _sync_same(self, same: bool) -> None:
        # Either way B starts from A's values: ticking shows what is used, unticking starts from a valid pair.
        self.box_b.setEnabled(not same)
        self._copy_a_to_b()
        self._changed()

    def _copy_a_to_b(self) -> None:
        for src, dst in ((self.m_a, self.m_b), (self.k_a, self.k_b)):
            dst.blockSignals(True)
            dst.setValue(src.value())
            dst.blockSignals(False)
        self.scheme_b.blockSignals(True)
        self.scheme_b.setCurrentIndex(self.scheme_a.currentIndex())
        self.scheme_b.blockSignals(False)

    def _changed(self) -> None:
        if self.same.isChecked() and self.box_b is not None:
            self._copy_a_to_b()
        self._debounce.restart()

    def sample(self) -> None:
        """Fill both text boxes with an overlapping random sample (sizes from the spin boxes)."""
        try:
            a, b = sample_sets(self.size_a.value(), self.size_b.value(), self.overlap.value(),
                               seed=self.seed.value())
        except ValueError as exc:
            self._refuse(str(exc))
            return
        self.set_items(a, b)

    def set_items(self, a, b) -> None:
        for box, items in ((self.text_a, a), (self.text_b, b)):
            box.blockSignals(True)
            box.setPlainText("\n".join(items))
            box.blockSignals(False)
        self.compute()

    def _refuse(self, text: str) -> None:
        self.show_only(self.Error.refused, problem=text)

    @property
    def report(self) -> SetReport | None:
        return self._report

    def compute(self) -> bool:
        """Build A and B from the boxes and show everything; False (and a message) when refused."""
        self._debounce.cancel()
        same = self.same.isChecked()
        try:
            a = parse_items(self.text_a.toPlainText())
            b = parse_items(self.text_b.toPlainText())
            report = compare_sets(a, b, self.m_a.value(), self.k_a.value(), self.scheme_a.currentData(),
                                  m_b=None if same else self.m_b.value(), k_b=None if same else self.k_b.value(),
                                  scheme_b=None if same else self.scheme_b.currentData(), probes=PROBES,
                                  seed=self.seed.value())
        except (ValueError, TypeError) as exc:
            self._refuse(str(exc))
            return False
        self._report = report
        self.show_only(self.Information.sizes, a=number(report.true.a), b=number(report.true.b), most=number(MAX_ITEMS))
        self._draw(report)
        self.computed.emit(report)
        return True

    # --- drawing -------------------------------------------------------------------------------------
    def _draw(self, r: SetReport) -> None:
        for key, title in GRIDS:
            if key == "extra":
                values = ((bitstore.unpack(r.intersection.bits) == 1)
                          & (bitstore.unpack(r.intersection_of_items.bits) == 0)).astype(np.uint8)
                count = int(values.sum())
            else:
                flt = getattr(r, key)
                values = bitstore.unpack(flt.bits)
                count = flt.bits_set
            self.grids[key].reset(r.a.m, values)
            bits = tr("{count} bits ({percent})").format(count=number(count), percent=marks(f"{count / r.a.m:.1%}"))
            self.grid_titles[key].setText(f"<b>{html.escape(tr(title))}</b> — {html.escape(bits)}")
            self.grid_titles[key].setToolTip(tr("{title}: {count} of {m} bits set").format(
                title=tr(title), count=number(count), m=number(r.a.m)))
        self.grid_note.setText(
            tr("A | B equals the filter of A ∪ B bit for bit: <b>{answer}</b>. A & B has <b>{extra}</b> bits more "
               "than the filter of A ∩ B (last grid): bits set in A by items only in A and in B by items only in "
               "B.").format(answer=tr("yes") if r.union_matches else tr("NO"), extra=f"+{number(r.extra_and_bits)}"))
        self._fill_table(r)
        self._fill_and_text(r)

    def _fill_table(self, r: SetReport) -> None:
        rows = [(r.true.a, r.estimated.a, tr("A's bits")), (r.true.b, r.estimated.b, tr("B's bits")),
                (r.true.union, r.estimated.union, tr("bits of A | B")),
                (r.true.intersection, r.estimated.intersection, "|A| + |B| − |A ∪ B|"),
                (r.true.intersection, r.estimated_from_and, tr("bits of A & B (biased up)"))]
        for i, (true, est, source) in enumerate(rows):
            if math.isnan(est) or math.isinf(est):
                est_text, err = "—", tr("filter full") if math.isinf(est) else "—"
            else:
                est_text = number(est, 1)
                err = marks(f"{(est - true) / true:+.1%}") if true else tr("{count} items").format(
                    count=marks(f"{est - true:+.1f}"))
            for j, text in enumerate((number(true), est_text, err, source)):
                item = QtWidgets.QTableWidgetItem(text)
                if j < 3:
                    item.setTextAlignment(QtCore.Qt.AlignmentFlag.AlignRight | QtCore.Qt.AlignmentFlag.AlignVCenter)
                self.table.setItem(i, j, item)
        self.table.resizeColumnsToContents()

    def _fill_and_text(self, r: SetReport) -> None:
        rt = rates(r)

        def pct(hits: int, trials: int) -> str:
            return tr("{hits} of {trials} ({percent})").format(
                hits=number(hits), trials=number(trials), percent=marks(f"{hits / trials:.3%}")) if trials else "—"

        self.and_text.setText(tr(
            "<b>AND against the filter of the true intersection</b><br>"
            "bits set: A & B {and_bits}, filter of A ∩ B {true_bits} ({extra})<br>"
            "expected FP (X/m)^k: A & B {and_expected}, filter of A ∩ B {true_expected}<br>"
            "random items in neither set accepted: A & B {and_outside}, filter of A ∩ B {true_outside}<br>"
            "items in exactly one set accepted: A & B {and_one_sided}, filter of A ∩ B {true_one_sided} — such an "
            "item already has all its bits in one of the two filters.").format(
            and_bits=number(r.intersection.bits_set), true_bits=number(r.intersection_of_items.bits_set),
            extra=f"+{number(r.extra_and_bits)}", and_expected=marks(f"{rt['and_expected']:.3g}"),
            true_expected=marks(f"{rt['true_expected']:.3g}"), and_outside=pct(r.fp_and_outside, r.outside_probes),
            true_outside=pct(r.fp_true_outside, r.outside_probes), and_one_sided=pct(r.fp_and_one_sided, r.one_sided),
            true_one_sided=pct(r.fp_true_one_sided, r.one_sided)))


def install(window) -> None:
    """Add the set-operations view as a tab of ``window`` (a MainWindow); the view is made on its first
    showing (it builds and compares two sample filters when made)."""
    window.add_tab(TAB_KEY, TAB_TITLE, SetOpsView, TAB_TIP)

"""The parameters panel: m, k and the hash scheme, or a design for n items at rate p.

Values are typed as text and checked when applied, so an out-of-range value gets a message beside the form
(naming the value) instead of being silently clamped by a spin box. Applying makes a new, empty filter through
the workbench; when that would discard inserted items the panel asks first.
"""

from __future__ import annotations

import math
import re
from typing import Callable

from PySide6 import QtCore, QtWidgets

from bloomviz.core import hashing
from bloomviz.gui.workbench import MAX_K, MAX_M, MIN_M, Workbench, design_params

TIPS = {
    "m": ("m: the number of bits in the filter. More bits, fewer false positives: each item sets k of them, "
          f"so the filter fills more slowly. The window shows {MIN_M} to {MAX_M:,} bits."),
    "k": ("k: how many hash functions, i.e. how many bits each item sets (and a lookup tests). Too few and "
          "one lucky bit decides; too many and the filter fills up. The best k is (m/n)·ln 2."),
    "scheme": ("How an item's bytes become k positions. The schemes give the same answers in theory; the weak "
               "one shows what happens when the k hash functions are not independent."),
    "n": "n: how many items the filter should hold (its capacity). A line on the plot marks it.",
    "p": ("p: the false-positive rate you can accept at capacity, e.g. 0.01 (1 in 100) or 1%. "
          "The design gives k = ⌈log2(1/p)⌉ and m = ⌈−n·ln p / (ln 2)²⌉."),
    "apply": "Make a new, empty filter with these m, k and scheme (asks first if it would discard items).",
    "design": "Fill in the optimal k and m for n items at rate p; then Apply makes the filter.",
}


def parse_int(text: str, name: str) -> int:
    """An integer typed by a person: commas, spaces and underscores allowed; 1e6 accepted when whole."""
    raw = re.sub(r"[,_\s]", "", text)
    if not raw:
        raise ValueError(f"{name} is empty: type a whole number")
    try:
        return int(raw)
    except ValueError:
        pass
    try:
        value = float(raw)
    except ValueError:
        raise ValueError(f"{name} must be a whole number, got {text.strip()!r}") from None
    if not math.isfinite(value) or value != int(value):
        raise ValueError(f"{name} must be a whole number, got {text.strip()!r}")
    return int(value)


def parse_rate(text: str, name: str = "p") -> float:
    raw = re.sub(r"[\s_]", "", text)
    if not raw:
        raise ValueError(f"{name} is empty: type a rate such as 0.01 or 1%")
    percent = raw.endswith("%")
    try:
        value = float(raw[:-1] if percent else raw)
    except ValueError:
        raise ValueError(f"{name} must be a number such as 0.01 or 1%, got {text.strip()!r}") from None
    return value / 100 if percent else value


class ParamsPanel(QtWidgets.QWidget):
    """See the module docstring. ``confirm(question) -> bool`` may be replaced (tests, scripted use)."""

    def __init__(self, workbench: Workbench, parent=None):
        super().__init__(parent)
        self._wb = workbench
        self._designed: tuple[int, int, int] | None = None   # (m, k, n) of the last design
        self.confirm: Callable[[str], bool] = self._ask

        self.m_edit = QtWidgets.QLineEdit()
        self.k_edit = QtWidgets.QLineEdit()
        self.scheme_combo = QtWidgets.QComboBox()
        for sid, scheme in hashing.SCHEMES.items():
            self.scheme_combo.addItem(scheme.title, sid)
            self.scheme_combo.setItemData(self.scheme_combo.count() - 1, scheme.summary,
                                          QtCore.Qt.ItemDataRole.ToolTipRole)
        self.scheme_combo.setSizeAdjustPolicy(
            QtWidgets.QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.scheme_combo.setMinimumContentsLength(14)
        self.scheme_combo.currentIndexChanged.connect(self._scheme_tip)
        self.apply_button = QtWidgets.QPushButton("Apply: new empty filter")
        self.apply_button.clicked.connect(self.apply)

        self.n_edit = QtWidgets.QLineEdit()
        self.p_edit = QtWidgets.QLineEdit()
        self.design_button = QtWidgets.QPushButton("Design: fill in m and k")
        self.design_button.clicked.connect(self.design)

        self.message = QtWidgets.QLabel()
        self.message.setWordWrap(True)
        self.message.setTextFormat(QtCore.Qt.TextFormat.PlainText)
        self.message.setObjectName("paramsMessage")
        self.summary = QtWidgets.QLabel()
        self.summary.setWordWrap(True)

        for edit, key in ((self.m_edit, "m"), (self.k_edit, "k"), (self.n_edit, "n"), (self.p_edit, "p")):
            edit.setToolTip(TIPS[key])
            edit.returnPressed.connect(self.apply if key in "mk" else self.design)
        self.scheme_combo.setToolTip(TIPS["scheme"])
        self.apply_button.setToolTip(TIPS["apply"])
        self.design_button.setToolTip(TIPS["design"])
        self.m_edit.setPlaceholderText(f"{MIN_M} … {MAX_M:,}")
        self.k_edit.setPlaceholderText(f"1 … {MAX_K}")
        self.n_edit.setPlaceholderText("e.g. 200")
        self.p_edit.setPlaceholderText("e.g. 0.01 or 1%")

        form = QtWidgets.QFormLayout()
        form.setFieldGrowthPolicy(QtWidgets.QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
        form.addRow(self._label("m (bits)", "m"), self.m_edit)
        form.addRow(self._label("k (hashes)", "k"), self.k_edit)
        form.addRow(self._label("Scheme", "scheme"), self.scheme_combo)
        design = QtWidgets.QHBoxLayout()
        design.addWidget(self._label("n", "n"))
        design.addWidget(self.n_edit, 1)
        design.addWidget(self._label("p", "p"))
        design.addWidget(self.p_edit, 1)

        layout = QtWidgets.QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        layout.addLayout(form)
        layout.addWidget(self.apply_button)
        layout.addLayout(design)
        layout.addWidget(self.design_button)
        layout.addWidget(self.message)
        layout.addWidget(self.summary)
        layout.addStretch(1)

        self.p_edit.setText("0.01")
        workbench.filterReset.connect(self.sync_from_filter)
        self.sync_from_filter()

    @staticmethod
    def _label(text: str, key: str) -> QtWidgets.QLabel:
        label = QtWidgets.QLabel(text)
        label.setToolTip(TIPS[key])
        return label

    def _scheme_tip(self, index: int) -> None:
        summary = self.scheme_combo.itemData(index, QtCore.Qt.ItemDataRole.ToolTipRole) or ""
        self.scheme_combo.setToolTip(f"{TIPS['scheme']}\n\n{summary}")

    def _ask(self, question: str) -> bool:
        answer = QtWidgets.QMessageBox.question(self, "Discard the inserted items?", question)
        return answer == QtWidgets.QMessageBox.StandardButton.Yes

    # --- actions -----------------------------------------------------------------------------------------------
    def show_message(self, text: str, error: bool = True) -> None:
        self.message.setText(text)
        self.message.setStyleSheet("color: #C0392B;" if error and text else "")

    def values(self) -> tuple[int, int, str]:
        """The form's (m, k, scheme), or ValueError naming the bad value."""
        m = parse_int(self.m_edit.text(), "m")
        k = parse_int(self.k_edit.text(), "k")
        scheme = self.scheme_combo.currentData()
        problem = Workbench.validate_config(m, k, scheme)
        if problem:
            raise ValueError(problem)
        return m, k, scheme

    def apply(self) -> bool:
        try:
            m, k, scheme = self.values()
        except ValueError as exc:
            self.show_message(f"{exc}. The filter was not changed.")
            return False
        n_items = len(self._wb.filter)
        if n_items and not self.confirm(f"The filter holds {n_items:,} inserted items. A new filter starts "
                                        "empty: discard them?"):
            self.show_message("Kept the current filter.", error=False)
            return False
        capacity = self._designed[2] if self._designed and self._designed[:2] == (m, k) else None
        if not self._wb.configure(m, k, scheme, capacity=capacity):
            self.show_message("The filter was not changed.")
            return False
        self.show_message("")
        return True

    def design(self) -> bool:
        try:
            n = parse_int(self.n_edit.text(), "n")
            p = parse_rate(self.p_edit.text())
            m, k = design_params(n, p)
        except ValueError as exc:
            self.show_message(f"{exc}. Nothing was changed.")
            return False
        self._designed = (m, k, n)
        self.m_edit.setText(str(m))
        self.k_edit.setText(str(k))
        self.show_message(f"For n = {n:,} at p = {p:g}: k = {k}, m = {m:,} bits ({m / n:.2f} bits per item). "
                          "Apply to make it.", error=False)
        return True

    def sync_from_filter(self) -> None:
        flt = self._wb.filter
        self.m_edit.setText(str(flt.m))
        self.k_edit.setText(str(flt.k))
        index = self.scheme_combo.findData(flt.scheme)
        if index >= 0:
            self.scheme_combo.setCurrentIndex(index)
        cap = self._wb.capacity
        if cap:
            self._designed = (flt.m, flt.k, cap)
            self.n_edit.setText(str(cap))
        cap_text = f", designed for {cap:,} items" if cap else ""
        self.summary.setText(f"Now: m = {flt.m:,} bits ({flt.m / 8 / 1024:,.1f} KiB), k = {flt.k}{cap_text}.")

"""The parameters panel: the variant, m, k and the hash scheme (or a design for n items at rate p), and each
variant's own parameters: a counting filter's counter bits; a scalable filter's initial capacity, target rate p,
growth factor and tightening ratio (instead of m and k, which it chooses stage by stage).

Values are typed as text and checked when applied, so an out-of-range value gets a message beside the form
(naming the value) instead of being silently clamped by a spin box. Applying makes a new, empty filter through
the workbench; when that would discard inserted items the panel asks first.
"""

from __future__ import annotations

import math
import re
from typing import Callable

import numpy as np
from PySide6 import QtCore, QtWidgets

from bloomviz.hashing import schemes as hashing
from bloomviz.theory.units import human_bytes
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
    "variant": ("The kind of Bloom filter. Standard: m bits. Counting: a small counter per position, so items "
                "can be removed. Scalable: grows in stages as items arrive, keeping the rate under p. "
                "Partitioned: k slices of m/k bits, one position in each. Blocked: all k positions inside one "
                "512-bit block (one cache line), faster but a little less accurate."),
    "counter_bits": ("c: bits per counter (1 to 8; 4 is the classic choice). A counter counts up to 2^c − 1 and "
                     "then sticks (saturates): it is never decremented again, because the filter no longer "
                     "knows how many items share it. With 4 bits an overflow is very unlikely."),
    "initial_capacity": ("n₀: how many items the first stage holds. Stage i holds n₀·s^i; when the newest stage "
                         "is full the next insert opens a new, larger one."),
    "sp": ("p: the bound on the false-positive rate however many items arrive. Stage i gets error p₀·r^i with "
           "p₀ = p·(1 − r), and these sum to at most p₀/(1 − r) = p."),
    "growth": ("s: how much larger each stage is than the one before (2 or 4). 4 makes fewer stages (lookups "
               "test fewer) but wastes more memory while a big new stage is empty."),
    "tightening": ("r: each stage's error is r times the one before (0.5 to 0.95). Close to 1 gives the first "
                   "stages a larger share of p (fewer bits early); smaller r makes later stages much stricter."),
}

VARIANT_CHOICES = (
    ("standard", "Standard"),
    ("counting", "Counting (remove items)"),
    ("scalable", "Scalable (grows, rate under p)"),
    ("partitioned", "Partitioned (k slices)"),
    ("blocked", "Blocked (512-bit blocks)"),
)


def design_words(n: int, p: float, m: int, k: int) -> str:
    """The textbook design, its exact rate, and the smallest m that meets p exactly (as `bloomviz calc` says)."""
    from bloomviz.theory import rates as theory
    from bloomviz.theory.calculator import CalcError, smallest_exact_design
    exact = theory.fp_exact(m, k, n)
    words = (f"For n = {n:,} at p = {p:g}: k = {k}, m = {m:,} bits ({m / n:.2f} bits per item); "
             f"exact rate {exact:.4g}" + (" (above p)." if exact > p else "."))
    if k == MAX_K and theory.optimal_params(n, p)[0] > MAX_K:
        words += f" The design asks for k = {theory.optimal_params(n, p)[0]}; filters allow {MAX_K}, so k = {MAX_K}."
    try:
        m_min, k_min = smallest_exact_design(n, p, max_m=MAX_M)
        words += f" Smallest m meeting p exactly: {m_min:,} bits with k = {k_min}."
    except CalcError:
        pass
    return words


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

        self.variant_combo = QtWidgets.QComboBox()
        for vid, title in VARIANT_CHOICES:
            self.variant_combo.addItem(title, vid)
        self.variant_combo.setToolTip(TIPS["variant"])
        self.variant_combo.currentIndexChanged.connect(self._variant_changed)
        self.counter_bits_edit = QtWidgets.QLineEdit("4")
        self.counter_bits_edit.setPlaceholderText("1 … 8")
        self.initial_edit = QtWidgets.QLineEdit("100")
        self.initial_edit.setPlaceholderText("e.g. 100")
        self.sp_edit = QtWidgets.QLineEdit("0.01")
        self.sp_edit.setPlaceholderText("e.g. 0.01 or 1%")
        self.growth_combo = QtWidgets.QComboBox()
        self.growth_combo.addItem("2", 2)
        self.growth_combo.addItem("4", 4)
        self.tightening_edit = QtWidgets.QLineEdit("0.9")
        self.tightening_edit.setPlaceholderText("0.5 … 0.95")
        for widget, key in ((self.counter_bits_edit, "counter_bits"), (self.initial_edit, "initial_capacity"),
                            (self.sp_edit, "sp"), (self.growth_combo, "growth"),
                            (self.tightening_edit, "tightening")):
            widget.setToolTip(TIPS[key])
            if isinstance(widget, QtWidgets.QLineEdit):
                widget.returnPressed.connect(self.apply)

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
        self._form = form
        form.addRow(self._label("Variant", "variant"), self.variant_combo)
        form.addRow(self._label("m (bits)", "m"), self.m_edit)
        form.addRow(self._label("k (hashes)", "k"), self.k_edit)
        form.addRow(self._label("Counter bits c", "counter_bits"), self.counter_bits_edit)
        form.addRow(self._label("Initial capacity n₀", "initial_capacity"), self.initial_edit)
        form.addRow(self._label("Rate bound p", "sp"), self.sp_edit)
        form.addRow(self._label("Growth s", "growth"), self.growth_combo)
        form.addRow(self._label("Tightening r", "tightening"), self.tightening_edit)
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
        self._design_box = QtWidgets.QWidget()
        design_layout = QtWidgets.QVBoxLayout(self._design_box)
        design_layout.setContentsMargins(0, 0, 0, 0)
        design_layout.addLayout(design)
        design_layout.addWidget(self.design_button)
        layout.addWidget(self._design_box)
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

    @property
    def variant(self) -> str:
        return self.variant_combo.currentData()

    def _variant_changed(self, _index: int = 0) -> None:
        v = self.variant
        sized = v != "scalable"
        for widget, show in ((self.m_edit, sized), (self.k_edit, sized),
                             (self.counter_bits_edit, v == "counting"), (self.initial_edit, not sized),
                             (self.sp_edit, not sized), (self.growth_combo, not sized),
                             (self.tightening_edit, not sized)):
            self._form.setRowVisible(widget, show)
        self._design_box.setVisible(sized)
        self.show_message("")

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
        """The form's (m, k, scheme), or ValueError naming the bad value (m and k are None for scalable)."""
        config = self.config()
        return config["m"], config["k"], config["scheme"]

    def config(self) -> dict:
        """Everything ``Workbench.configure`` takes for the chosen variant, or ValueError naming the bad value."""
        v = self.variant
        scheme = self.scheme_combo.currentData()
        params: dict = {"variant": v, "scheme": scheme, "m": None, "k": None}
        if v == "scalable":
            params["initial_capacity"] = parse_int(self.initial_edit.text(), "initial capacity n₀")
            params["p"] = parse_rate(self.sp_edit.text(), "p")
            params["growth"] = self.growth_combo.currentData()
            params["tightening"] = parse_rate(self.tightening_edit.text(), "tightening r")
        else:
            params["m"] = parse_int(self.m_edit.text(), "m")
            params["k"] = parse_int(self.k_edit.text(), "k")
            if v == "counting":
                params["counter_bits"] = parse_int(self.counter_bits_edit.text(), "counter bits c")
        problem = Workbench.validate_config(**params)
        if problem:
            raise ValueError(problem)
        return params

    def apply(self) -> bool:
        try:
            config = self.config()
        except ValueError as exc:
            self.show_message(f"{exc}. The filter was not changed.")
            return False
        m, k = config["m"], config["k"]
        n_items = len(self._wb.filter)
        if n_items and not self.confirm(f"The filter holds {n_items:,} inserted items. A new filter starts "
                                        "empty: discard them?"):
            self.show_message("Kept the current filter.", error=False)
            return False
        capacity = self._designed[2] if m is not None and self._designed and self._designed[:2] == (m, k) else None
        if not self._wb.configure(capacity=capacity, **config):
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
        self.show_message(design_words(n, p, m, k) + " Apply to make it.", error=False)
        return True

    def sync_from_filter(self) -> None:
        flt = self._wb.filter
        v = self._wb.variant
        index = self.variant_combo.findData(v)
        if index >= 0 and index != self.variant_combo.currentIndex():
            self.variant_combo.setCurrentIndex(index)
        elif index >= 0:
            self._variant_changed()
        if v == "scalable":
            self.initial_edit.setText(str(flt.initial_capacity))
            self.sp_edit.setText(f"{flt.p:g}")
            self.growth_combo.setCurrentIndex(self.growth_combo.findData(flt.growth))
            self.tightening_edit.setText(f"{flt.tightening:g}")
            self.summary.setText(f"Now: scalable, {len(flt.stages)} stage{'s' if len(flt.stages) > 1 else ''}, "
                                 f"m = {flt.m:,} bits in all, rate bound p = {flt.p:g}.")
            return
        if v == "counting":
            self.counter_bits_edit.setText(str(flt.counter_bits))
        self.m_edit.setText(str(flt.m))
        self.k_edit.setText(str(flt.k))
        index = self.scheme_combo.findData(flt.scheme)
        if index >= 0:
            self.scheme_combo.setCurrentIndex(index)
        cap = self._wb.capacity
        if cap:
            self._designed = (flt.m, flt.k, cap)
            self.n_edit.setText(str(cap))
            # p follows the filter (a scenario's design, a loaded session), not the last value typed here: the
            # exact rate of this m and k at the designed n.
            from bloomviz.measure.experiment import theory_many
            rate = float(theory_many(flt.m, flt.k, np.array([float(cap)]))["fp_exact"][0])
            self.p_edit.setText(f"{rate:.2g}")
        cap_text = f", designed for {cap:,} items" if cap else ""
        size = flt.m * flt.counter_bits if v == "counting" else flt.m
        what = {"counting": f"{flt.m:,} counters of {getattr(flt, 'counter_bits', 1)} bits",
                "partitioned": f"m = {flt.m:,} bits in {flt.k} slices",
                "blocked": f"m = {flt.m:,} bits in {getattr(flt, 'blocks', 0):,} blocks"}.get(v, f"m = {flt.m:,} bits")
        self.summary.setText(f"Now: {what} ({human_bytes(math.ceil(size / 8))}), k = {flt.k}{cap_text}.")

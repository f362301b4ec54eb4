"""The compare view's settings: the sizing (a design for n items at rate p, or m and k), the items, probes
and seed, and two to four configurations (variant and hash scheme), with the lesson's preset.

``CompareSettings`` is an object ``view.CompareView`` holds: it makes the settings' controls and is the one
that reads and sets them; the view places its layouts and asks it for the design and the configurations.
"""

from __future__ import annotations


from PySide6 import QtCore, QtWidgets

from bloomviz.gui import theme
from bloomviz.gui.messages import Messages, Msg
from bloomviz.gui.widgets.message_bar import MessageBar
from bloomviz.explain.variants import variant_title
from bloomviz.filters.registry import VARIANTS
from bloomviz.hashing import schemes as hashing
from bloomviz.studies.compare import (DEFAULT_PROBES, LESSON_P, MAX_CONFIGS, MAX_ITEMS, MAX_PROBES, Config,
                                      lesson_configs, lesson_design)
from bloomviz.theory import rates as theory
from bloomviz.theory.units import parse_rate
from bloomviz.i18n import number, tr
from bloomviz.theory.limits import MAX_K

LANE_COLOURS = theme.LANE_COLOURS
OFF = "(off)"
MAX_GRID_M = 10_000_000


class DesignWords(Messages):
    """What the sizing fields make: m and k, or why they make nothing (under the fields, on a message bar)."""

    class Error(Messages.Error):
        refused = Msg("{problem}")          # the design's own words for the bad value

    class Information(Messages.Information):
        sizing = Msg("m = {m} bits, k = {k}; {per} bits per item at n = {n}")


def _spin(low: int, high: int, separator: bool = True) -> QtWidgets.QSpinBox:
    spin = QtWidgets.QSpinBox()
    spin.setRange(low, high)
    spin.setGroupSeparatorShown(separator)
    return spin


class ConfigRow(QtWidgets.QWidget):
    def __init__(self, index: int, optional: bool, parent=None):
        super().__init__(parent)
        self.variant = QtWidgets.QComboBox()
        if optional:
            self.variant.addItem(OFF, None)
        for vid in VARIANTS:
            self.variant.addItem(vid, vid)
            self.variant.setItemData(self.variant.count() - 1, tr(variant_title(vid)), QtCore.Qt.ItemDataRole.ToolTipRole)
        self.scheme = QtWidgets.QComboBox()
        for sid, s in hashing.SCHEMES.items():
            self.scheme.addItem(sid, sid)
            self.scheme.setItemData(self.scheme.count() - 1, f"{tr(s.title)}: {tr(s.summary)}",
                                    QtCore.Qt.ItemDataRole.ToolTipRole)
        self.variant.setToolTip(tr("Filter variant of configuration {n}").format(n=index + 1))
        self.scheme.setToolTip(tr("Hash scheme of configuration {n}").format(n=index + 1))
        for combo, chars in ((self.variant, 6), (self.scheme, 8)):
            # Narrow by default (the view shares the window with docks); the popup still shows whole names.
            combo.setSizeAdjustPolicy(QtWidgets.QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
            combo.setMinimumContentsLength(chars)
        swatch = QtWidgets.QLabel("■")
        swatch.setStyleSheet(f"color: {LANE_COLOURS[index]}; font-size: 16px;")
        layout = QtWidgets.QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(swatch)
        layout.addWidget(self.variant, 2)
        layout.addWidget(self.scheme, 3)
        self.variant.currentIndexChanged.connect(self._sync)
        self._sync()

    def _sync(self) -> None:
        self.scheme.setEnabled(self.variant.currentData() is not None)

    def config(self) -> Config | None:
        variant = self.variant.currentData()
        return None if variant is None else Config(variant, self.scheme.currentData())

    def set_config(self, config: Config | None) -> None:
        if config is None:
            self.variant.setCurrentIndex(self.variant.findData(None) if self.variant.findText(OFF) >= 0 else 0)
            return
        self.variant.setCurrentIndex(self.variant.findData(config.variant))
        self.scheme.setCurrentIndex(self.scheme.findData(config.scheme))



class CompareSettings:
    """The settings controls of ``CompareView``: it builds them, reads them and sets them; the view places
    ``form`` and ``configs_layout`` and asks for ``design()`` and ``configs()`` when a run starts."""

    def __init__(self):
        self.by_design = QtWidgets.QRadioButton(tr("design for n items at rate p"))
        self.by_mk = QtWidgets.QRadioButton(tr("m bits and k hashes"))
        self.by_design.setToolTip(tr("m and k chosen by the textbook formulas: k = ⌈log2(1/p)⌉, "
                                     "m = ⌈−n·ln p / (ln 2)²⌉"))
        self.design_n = _spin(1, MAX_ITEMS)
        self.design_p = QtWidgets.QLineEdit()
        self.design_p.setToolTip(tr("target false-positive rate, 0 < p < 1 (e.g. 0.001)"))
        self.m_spin = _spin(8, MAX_GRID_M)
        self.k_spin = _spin(1, MAX_K, separator=False)
        self.k_spin.setToolTip(tr("hash functions per item; weak-shift repeats its positions past k = 4"))
        self.items_spin = _spin(1, MAX_ITEMS)
        self.items_spin.setToolTip(tr("seeded random items inserted into every configuration, in the same order"))
        self.probes_spin = _spin(100, MAX_PROBES)
        self.probes_spin.setToolTip(tr("items never inserted, tested after every insert: more probes, "
                                       "narrower bands"))
        self.seed_spin = _spin(0, 2 ** 31 - 1, separator=False)
        self.design_label = MessageBar()
        self.design_words = DesignWords()
        self.design_words.bind_messages(self.design_label)
        for w in (self.by_design, self.by_mk):
            w.toggled.connect(self._sync_sizing)
        for w in (self.design_n, self.m_spin, self.k_spin):
            w.valueChanged.connect(self._sync_sizing)
        self.design_p.textChanged.connect(self._sync_sizing)

        self.form = form = QtWidgets.QFormLayout()
        form.setFieldGrowthPolicy(QtWidgets.QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
        form.addRow(self.by_design)
        form.addRow("n", self.design_n)
        form.addRow("p", self.design_p)
        form.addRow(self.by_mk)
        form.addRow("m", self.m_spin)
        form.addRow("k", self.k_spin)
        form.addRow(self.design_label)
        form.addRow(tr("items"), self.items_spin)
        form.addRow(tr("probes"), self.probes_spin)
        form.addRow(tr("seed"), self.seed_spin)

        self.rows = [ConfigRow(i, optional=i >= 2) for i in range(MAX_CONFIGS)]
        self.configs_layout = QtWidgets.QVBoxLayout()
        self.configs_layout.setSpacing(2)
        self.configs_layout.addWidget(QtWidgets.QLabel(tr("Configurations (variant, hash scheme):")))
        for row in self.rows:
            self.configs_layout.addWidget(row)

    # --- settings -------------------------------------------------------------------------------------------
    def load_lesson(self) -> None:
        """The preset that shows the lesson: the p = 0.001 design, three good schemes and weak-shift."""
        _, _, n = lesson_design()
        self.design_n.setValue(n)
        self.design_p.setText(repr(LESSON_P))
        self.by_design.setChecked(True)
        self.items_spin.setValue(n)
        self.probes_spin.setValue(DEFAULT_PROBES)
        self.seed_spin.setValue(0)
        self.set_configs(lesson_configs())

    def set_configs(self, configs) -> None:
        configs = list(configs)
        for i, row in enumerate(self.rows):
            row.set_config(configs[i] if i < len(configs) else None)

    def configs(self) -> list[Config]:
        return [c for c in (row.config() for row in self.rows) if c is not None]

    def set_sizing(self, m: int | None = None, k: int | None = None, n: int | None = None,
                   p: float | None = None) -> None:
        """Either m and k, or a design n and p."""
        if n is not None and p is not None:
            self.design_n.setValue(n)
            self.design_p.setText(repr(p))
            self.by_design.setChecked(True)
        else:
            self.by_mk.setChecked(True)  # first: in design mode the spin boxes follow the design
            self.m_spin.setValue(m)
            self.k_spin.setValue(k)

    def design(self) -> tuple[int, int, float | None]:
        """(m, k, p) from the sizing controls; raises ValueError naming a bad p."""
        if self.by_mk.isChecked():
            return self.m_spin.value(), self.k_spin.value(), None
        text = self.design_p.text().strip()
        p = parse_rate(text, "p", open_high=True)     # 0.01, 1%, 1/100, 1 in 100, as everywhere; in (0, 1)
        k, m = theory.optimal_params(self.design_n.value(), p)
        # The same range as the m spin box: a loose p designs m = 1 or 2, which the m/k sizing never offers.
        if k > MAX_K or not self.m_spin.minimum() <= m <= MAX_GRID_M:
            raise ValueError(f"the design for n = {self.design_n.value():,} at p = {text} needs k = {k}, "
                             f"m = {m:,}; this view takes k ≤ {MAX_K} and {self.m_spin.minimum()} ≤ m ≤ "
                             f"{MAX_GRID_M:,}")
        return m, k, p

    def _sync_sizing(self) -> None:
        design = self.by_design.isChecked()
        for w in (self.design_n, self.design_p):
            w.setEnabled(design)
        for w in (self.m_spin, self.k_spin):
            w.setEnabled(not design)
        try:
            m, k, p = self.design()
        except ValueError as exc:
            self.design_words.show_only(self.design_words.Error.refused, problem=exc)
            return
        n = self.items_spin.value() if not design else self.design_n.value()
        self.design_words.show_only(self.design_words.Information.sizing, m=number(m), k=k,
                                    per=number(m / max(n, 1), 1), n=number(n))
        if design:
            self.m_spin.blockSignals(True), self.k_spin.blockSignals(True)
            self.m_spin.setValue(m)
            self.k_spin.setValue(k)
            self.m_spin.blockSignals(False), self.k_spin.blockSignals(False)

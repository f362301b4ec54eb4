"""The parameters panel: the variant, m, k and the hash scheme (or a design for n items at rate p), and each
variant's own parameters: a counting filter's counter bits; a scalable filter's initial capacity, target rate p,
growth factor and tightening ratio (instead of m and k, which it chooses stage by stage).

The fields are made from the variants' declarations (``cls.capabilities.parameters``, see filters/params.py): one
row per declared parameter, shown while a variant that declares it is chosen. A new variant's parameters appear
here without a change to this file.

Values are typed as text and checked when applied, so an out-of-range value gets a message beside the form
(naming the value) instead of being silently clamped by a spin box. Applying makes a new, empty filter through
the workbench; when that would discard inserted items the panel asks first.
"""

from __future__ import annotations

import math
from typing import Callable

import numpy as np
from PySide6 import QtCore, QtWidgets

from bloomviz.explain import param_words, variants as variant_words
from bloomviz.filters.params import K, M, Param
from bloomviz.filters.registry import VARIANTS
from bloomviz.hashing import schemes as hashing
from bloomviz.theory import units
from bloomviz.gui.workbench import QtWorkbench
from bloomviz.workbench.limits import MAX_K, MAX_M, MIN_M, design_params
from bloomviz.gui.messages import Messages, Msg
from bloomviz.gui.plain_text import ask_yes_no
from bloomviz.gui.widgets.message_bar import MessageBar
from bloomviz.i18n import marks, number, tr



def _form_parameters() -> dict[str, Param]:
    """Every declared parameter the form asks for, once, in the order the variants declare them (m and k first)."""
    out: dict[str, Param] = {}
    for cls in VARIANTS.values():
        for param in cls.capabilities.parameters:
            if param.form:
                out.setdefault(param.name, param)
    return out


FORM_PARAMETERS = _form_parameters()

TIPS = {
    "m": param_words.words(M).tip,
    "k": param_words.words(K).tip,
    "scheme": ("How an item's bytes become k positions. The schemes give the same answers in theory; the weak "
               "one shows what happens when the k hash functions are not independent."),
    "n": "n: how many items the filter should hold (its capacity). A line on the plot marks it.",
    "p": ("p: the false-positive rate you can accept at capacity, e.g. 0.01 (1 in 100) or 1%. "
          "The design gives k = ⌈log2(1/p)⌉ and m = ⌈−n·ln p / (ln 2)²⌉."),
    "apply": "Make a new, empty filter with these m, k and scheme (asks first if it would discard items).",
    "design": "Fill in the optimal k and m for n items at rate p; then Apply makes the filter.",
    "variant": variant_words.variant_tip(),
}
# a variant's own parameters are named by the key of their field ("sp": the scalable filter's rate bound, which is
# not the design's p)
FIELD_KEYS = {name: ("sp" if name == "p" else name) for name in FORM_PARAMETERS}
TIPS.update({FIELD_KEYS[name]: param_words.words(param).tip for name, param in FORM_PARAMETERS.items()
             if name not in ("m", "k")})



def tip(key: str) -> str:
    """The tool tip of a field, in the window's language (m's with the window's range of m)."""
    text = tr(TIPS[key])
    if key == "m":
        text += " " + tr("The window shows {low} to {high} bits.").format(low=MIN_M, high=number(MAX_M))
    return text


VARIANT_CHOICES = tuple((vid, variant_words.choice_label(cls)) for vid, cls in VARIANTS.items())


def design_words(n: int, p: float, m: int, k: int) -> str:
    """The textbook design, its exact rate, and the smallest m that meets p exactly (as `bloomviz calc` says)."""
    from bloomviz.theory import rates as theory
    from bloomviz.theory.calculator import CalcError, smallest_exact_design
    exact = theory.fp_exact(m, k, n)
    words = tr("For n = {n} at p = {p}: k = {k}, m = {m} bits ({per} bits per item); exact rate {exact}").format(
        n=number(n), p=marks(f"{p:g}"), k=k, m=number(m), per=number(m / n, 2), exact=marks(f"{exact:.4g}")) + (
        tr(" (above p).") if exact > p else ".")
    if k == MAX_K and theory.optimal_params(n, p)[0] > MAX_K:
        words += " " + tr("The design asks for k = {wanted}; filters allow {most}, so k = {most}.").format(
            wanted=theory.optimal_params(n, p)[0], most=MAX_K)
    try:
        m_min, k_min = smallest_exact_design(n, p, max_m=MAX_M)
        words += " " + tr("Smallest m meeting p exactly: {m} bits with k = {k}.").format(m=number(m_min), k=k_min)
    except CalcError:
        pass
    return words


def parse_int(text: str, name: str) -> int:
    """A whole number as everywhere in bloomviz (``units.parse_whole``: 1000, 1,000, 1_000, 1e3, 10^6)."""
    if not text.strip():
        raise ValueError(f"{name} is empty: type a whole number")
    return units.parse_whole(text, name)


def parse_rate(text: str, name: str = "p") -> float:
    """A rate as everywhere in bloomviz (``units.parse_rate``: 0.01, 1%, 1/1000, 1 in 1000); the range is the
    caller's."""
    if not text.strip():
        raise ValueError(f"{name} is empty: type a rate such as 0.01 or 1%")
    return units.parse_rate(text, name, low=-math.inf, high=math.inf, open_low=False)


class ParamsPanel(Messages, QtWidgets.QWidget):
    class Error(Messages.Error):
        not_applied = Msg("{problem}. The filter was not changed.")
        refused = Msg("The filter was not changed.")          # the workbench said why (its error signal)
        not_designed = Msg("{problem}. Nothing was changed.")

    class Information(Messages.Information):
        kept = Msg("Kept the current filter.")
        designed = Msg("{design} Apply to make it.")

    """See the module docstring. ``confirm(question) -> bool`` may be replaced (tests, scripted use)."""

    def __init__(self, workbench: QtWorkbench, parent=None):
        super().__init__(parent)
        self._wb = workbench
        self._designed: tuple[int, int, int] | None = None   # (m, k, n) of the last design
        self.confirm: Callable[[str], bool] = self._ask

        self.variant_combo = QtWidgets.QComboBox()
        for vid, title in VARIANT_CHOICES:
            self.variant_combo.addItem(tr(title), vid)
        self.variant_combo.setToolTip(tip("variant"))
        self.variant_combo.currentIndexChanged.connect(self._variant_changed)
        self.m_edit = QtWidgets.QLineEdit()
        self.k_edit = QtWidgets.QLineEdit()
        # one field per declared parameter; m and k have their own (a design fills them in)
        self.fields: dict[str, QtWidgets.QWidget] = {"m": self.m_edit, "k": self.k_edit}
        for name, param in FORM_PARAMETERS.items():
            if name not in self.fields:
                self.fields[name] = self._field(param)
        # the fields by the names the tests and scripts know them by
        self.counter_bits_edit = self.fields["counter_bits"]
        self.initial_edit = self.fields["initial_capacity"]
        self.sp_edit = self.fields["p"]
        self.growth_combo = self.fields["growth"]
        self.tightening_edit = self.fields["tightening"]

        self.scheme_combo = QtWidgets.QComboBox()
        for sid, scheme in hashing.SCHEMES.items():
            self.scheme_combo.addItem(tr(scheme.title), sid)
            self.scheme_combo.setItemData(self.scheme_combo.count() - 1, tr(scheme.summary),
                                          QtCore.Qt.ItemDataRole.ToolTipRole)
        self.scheme_combo.setSizeAdjustPolicy(
            QtWidgets.QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.scheme_combo.setMinimumContentsLength(14)
        self.scheme_combo.currentIndexChanged.connect(self._scheme_tip)
        self.apply_button = QtWidgets.QPushButton(tr("Apply: new empty filter"))
        self.apply_button.clicked.connect(self.apply)

        self.n_edit = QtWidgets.QLineEdit()
        self.p_edit = QtWidgets.QLineEdit()
        self.design_button = QtWidgets.QPushButton(tr("Design: fill in m and k"))
        self.design_button.clicked.connect(self.design)

        self.message = MessageBar()
        self.message.setObjectName("paramsMessage")
        self.bind_messages(self.message)
        self.summary = QtWidgets.QLabel()
        self.summary.setWordWrap(True)

        for edit, key in ((self.m_edit, "m"), (self.k_edit, "k"), (self.n_edit, "n"), (self.p_edit, "p")):
            edit.setToolTip(tip(key))
            edit.returnPressed.connect(self.apply if key in "mk" else self.design)
        self.scheme_combo.setToolTip(tip("scheme"))
        self.apply_button.setToolTip(tip("apply"))
        self.design_button.setToolTip(tip("design"))
        self.m_edit.setPlaceholderText(f"{MIN_M} … {MAX_M:,}")
        self.k_edit.setPlaceholderText(f"1 … {MAX_K}")
        self.n_edit.setPlaceholderText(tr("e.g. 200"))
        self.p_edit.setPlaceholderText(tr("e.g. 0.01 or 1%"))

        form = QtWidgets.QFormLayout()
        form.setFieldGrowthPolicy(QtWidgets.QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
        self._form = form
        form.addRow(self._label(tr("Variant"), "variant"), self.variant_combo)
        for name, param in FORM_PARAMETERS.items():
            form.addRow(self._label(tr(param_words.words(param).label), FIELD_KEYS[name]), self.fields[name])
        form.addRow(self._label(tr("Scheme"), "scheme"), self.scheme_combo)
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

    def _field(self, param: Param) -> QtWidgets.QWidget:
        """A field for one declared parameter, holding its default (or a suggestion when it has none)."""
        if param.kind == "choice":
            combo = QtWidgets.QComboBox()
            for value in param.choices:
                combo.addItem(str(value), value)
            combo.setCurrentIndex(max(0, combo.findData(param.default)))
            widget = combo
        else:
            start = param.suggestion if param.required else param.default
            widget = QtWidgets.QLineEdit("" if start is None else f"{start:g}")
            widget.setPlaceholderText(tr(param_words.hint(param)))
            widget.returnPressed.connect(self.apply)
        widget.setToolTip(tr(param_words.words(param).tip))
        return widget

    @staticmethod
    def _label(text: str, key: str) -> QtWidgets.QLabel:
        label = QtWidgets.QLabel(text)
        label.setToolTip(tip(key))
        return label

    @property
    def variant(self) -> str:
        return self.variant_combo.currentData()

    def _variant_changed(self, _index: int = 0) -> None:
        cls = VARIANTS[self.variant]
        declared = {param.name for param in cls.capabilities.parameters}
        for name, widget in self.fields.items():
            self._form.setRowVisible(widget, name in declared)
        self._design_box.setVisible(cls.capabilities.sized)   # a design gives m and k: for a variant built from them
        self.clear_messages()

    def _scheme_tip(self, index: int) -> None:
        summary = self.scheme_combo.itemData(index, QtCore.Qt.ItemDataRole.ToolTipRole) or ""
        self.scheme_combo.setToolTip(f"{tip('scheme')}\n\n{summary}")

    def _ask(self, question: str) -> bool:
        return ask_yes_no(self, tr("Discard the inserted items?"), question)

    # --- actions -----------------------------------------------------------------------------------------------
    def values(self) -> tuple[int, int, str]:
        """The form's (m, k, scheme), or ValueError naming the bad value (m and k are None for scalable)."""
        config = self.config()
        return config["m"], config["k"], config["scheme"]

    def config(self) -> dict:
        """Everything ``QtWorkbench.configure`` takes for the chosen variant, or ValueError naming the bad value."""
        v = self.variant
        scheme = self.scheme_combo.currentData()
        params: dict = {"variant": v, "scheme": scheme, "m": None, "k": None}
        for param in VARIANTS[v].capabilities.parameters:
            if param.form:
                params[param.name] = self._read(param)
        problem = QtWorkbench.validate_config(**params)
        if problem:
            raise ValueError(problem)
        return params

    def _read(self, param: Param):
        widget = self.fields[param.name]
        if param.kind == "choice":
            return widget.currentData()
        if param.kind == "rate":
            return parse_rate(widget.text(), param_words.spoken(param))
        return parse_int(widget.text(), param_words.spoken(param))

    def _show(self, param: Param, value) -> None:
        widget = self.fields[param.name]
        if param.kind == "choice":
            widget.setCurrentIndex(widget.findData(value))
        else:
            widget.setText(f"{value:g}" if param.kind == "rate" else str(value))

    def apply(self) -> bool:
        try:
            config = self.config()
        except ValueError as exc:
            self.show_only(self.Error.not_applied, problem=exc)
            return False
        m, k = config["m"], config["k"]
        n_items = len(self._wb.filter)
        if n_items and not self.confirm(tr("The filter holds {count} inserted items. A new filter starts "
                                           "empty: discard them?").format(count=number(n_items))):
            self.show_only(self.Information.kept)
            return False
        capacity = self._designed[2] if m is not None and self._designed and self._designed[:2] == (m, k) else None
        if not self._wb.configure(capacity=capacity, **config):
            self.show_only(self.Error.refused)
            return False
        self.clear_messages()
        return True

    def design(self) -> bool:
        try:
            n = parse_int(self.n_edit.text(), "n")
            p = parse_rate(self.p_edit.text())
            m, k = design_params(n, p)
        except ValueError as exc:
            self.show_only(self.Error.not_designed, problem=exc)
            return False
        self._designed = (m, k, n)
        self.m_edit.setText(str(m))
        self.k_edit.setText(str(k))
        self.show_only(self.Information.designed, design=design_words(n, p, m, k))
        return True

    def sync_from_filter(self) -> None:
        flt = self._wb.filter
        v = self._wb.variant
        index = self.variant_combo.findData(v)
        if index >= 0 and index != self.variant_combo.currentIndex():
            self.variant_combo.setCurrentIndex(index)
        elif index >= 0:
            self._variant_changed()
        for param in type(flt).capabilities.parameters:
            if param.form:
                self._show(param, param.value(flt))
        index = self.scheme_combo.findData(flt.scheme)
        if index >= 0:
            self.scheme_combo.setCurrentIndex(index)
        cap = self._wb.capacity
        if cap and type(flt).capabilities.sized:
            self._designed = (flt.m, flt.k, cap)
            self.n_edit.setText(str(cap))
            # p follows the filter (a scenario's design, a loaded session), not the last value typed here: the
            # exact rate of this m and k at the designed n.
            from bloomviz.theory.curves import theory_many
            rate = float(theory_many(flt.m, flt.k, np.array([float(cap)]))["fp_exact"][0])
            self.p_edit.setText(f"{rate:.2g}")
        self.summary.setText(variant_words.summary_text(flt, cap))

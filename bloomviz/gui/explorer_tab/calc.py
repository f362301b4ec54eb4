"""The explorer's calculator: type what you know of n, p, m and k, read the rest.

Empty fields are the unknowns. The figures are solved by ``bloomviz.theory.calculator.solve`` as you type (after
a short pause) and shown as a table; anything inconsistent or out of range becomes a message under the
fields, never an exception. "Use these parameters" sends m, k, the scheme and the capacity n to the window's
filter through the workbench, asking first when that would discard inserted items.
"""

from __future__ import annotations

import html
import math
from typing import Callable

from PySide6 import QtCore, QtWidgets

from bloomviz.hashing import schemes as hashing
from bloomviz.theory.calculator import CalcError, Design, solve
from bloomviz.theory.rates import BOUND_TEXT
from bloomviz.theory import units
from bloomviz.theory.units import human_bytes, percent_text, rate_text
from bloomviz.gui.explorer_tab.engine_preset import EnginePresetRow
from bloomviz.gui.filter_tab.params_panel import parse_int, parse_rate
from bloomviz.gui.timing import Throttle
from bloomviz.gui.workbench import QtWorkbench
from bloomviz.gui.messages import Messages, Msg
from bloomviz.gui.plain_text import ask_yes_no
from bloomviz.gui.widgets.message_bar import MessageBar
from bloomviz.i18n import marks, number, tr

SOLVE_DELAY_MS = 250
TIPS = {
    "n": "n: how many items the filter must hold.",
    "p": "p: the false-positive rate you accept at n items, e.g. 0.01, 1% or 1e-6.",
    "m": "m: the number of bits. 1e6 and 1,000,000 are accepted.",
    "k": "k: the number of hash functions (bits set per item), 1 to 64. Leave empty for the best k.",
}
EXAMPLES = (("n, p", {"n": "1000000", "p": "0.01"}), ("m, n", {"m": "20000", "n": "2000"}),
            ("m, n, k", {"m": "20000", "n": "2000", "k": "3"}), ("m, p", {"m": "8388608", "p": "0.001"}))


def _row(label: str, value: str, tip: str = "") -> str:
    title = f' title="{html.escape(tr(tip))}"' if tip else ""
    return f"<tr><td{title}>{html.escape(tr(label))}</td><td><b>{value}</b></td></tr>"


def _rate(p: float) -> str:
    """A rate, with its percentage when readable so, in the language's number marks."""
    return marks(rate_text(p) if p < 1e-4 else f"{rate_text(p)} ({percent_text(p)})")


def _one_in(text: str) -> str:
    """units.one_in's "1 in 19" (or "never") in the window's language."""
    if not text.startswith("1 in "):
        return tr("never") if text == "never" else text
    return tr("1 in {count}").format(count=marks(text[len("1 in "):]))


def design_html(d: Design) -> str:
    nbytes = d.memory_units["B"]
    memory = marks(human_bytes(nbytes)) if nbytes < 1024 else tr("{size} ({count} bytes)").format(
        size=marks(human_bytes(nbytes)), count=number(round(nbytes)))
    rows = [
        _row("n (items)", number(d.n)),
        _row("m (bits)", number(d.m)),
        _row("memory", memory),
        _row("k used", f"{d.k}"),
        _row("best integer k (lowest exact rate)", f"{d.k_best} — {_rate(d.fp_best)}",
             "every integer k from 1 to 64 compared by the exact rate"),
        _row("(m/n)·ln 2 (the approximation's optimum)", marks(f"{d.k_real:.3f}"),
             "the real k that minimises (1 − e^(−kn/m))^k; at small m the best integer k can lie below it"),
        _row(tr("rate at k = {k}").format(k=d.k_floor), _rate(d.fp_floor)),
        _row(tr("rate at k = {k}").format(k=d.k_ceil), _rate(d.fp_ceil)),
        _row("false-positive rate (exact)", f"{_rate(d.fp)} — {html.escape(_one_in(d.one_in))}",
             "E[(X/m)^k] over the number X of bits set: independent, uniform hash positions"),
        _row("Bloom's formula (classic)", _rate(d.fp_classic),
             "(1 − (1 − 1/m)^(kn))^k: treats the bits as independent, so it is below the exact rate"),
        _row("approximation", _rate(d.fp_approx), "(1 − e^(−kn/m))^k"),
        _row("bound", _rate(d.fp_bound), BOUND_TEXT),
        _row("bits per item", marks(f"{d.bits_per_item:.3f}")),
        _row("lower bound log2(1/rate)",
             tr("{bits} bits per item").format(bits=marks(f"{d.lower_bound_bits:.3f}")),
             "no structure answering with this false-positive rate can use fewer bits per item"),
        _row("overhead over the lower bound",
             marks(f"{d.overhead:.3f}× (+{(d.overhead - 1):.1%})") if math.isfinite(d.overhead) else "—"),
        _row("fill at capacity", tr("{fill} of bits set").format(fill=marks(f"{d.fill_at_capacity:.1%}"))),
    ]
    if d.p_target is not None:
        rows.insert(8, _row("target p", marks(f"{d.p_target:g}")))
    notes = "".join(f"<li>{html.escape(n)}</li>" for n in d.notes)
    return (f"<table cellspacing='0' cellpadding='2'>{''.join(rows)}</table>"
            + (f"<ul style='margin-left:-20px'>{notes}</ul>" if notes else ""))


class UseMessages(Messages):
    """What "Use these parameters" answers, under its button."""

    class Error(Messages.Error):
        nothing_solved = Msg("Nothing solved yet: enter n and p, or m and n.")
        nothing_to_use = Msg("Nothing to use: {why}.")
        cannot_take = Msg("The window's filter cannot take this design: {problem}. The filter was not changed.")
        refused = Msg("The filter was not changed.")

    class Information(Messages.Information):
        kept = Msg("Kept the current filter.")
        used = Msg("The filter now has m = {m} bits and k = {k} ({scheme}), designed for n = {n} items.")


class CalculatorPanel(Messages, QtWidgets.QWidget):
    """See the module docstring. ``confirm(question) -> bool`` may be replaced (tests, scripted use)."""

    class Error(Messages.Error):
        unsolved = Msg("{problem}")      # the calculator's own words for what is inconsistent or out of range
        zero_items = Msg("n = 0: with nothing inserted every k gives a false-positive rate of 0, so there is "
                         "no optimal k and nothing to design. Enter n ≥ 1.")

    designChanged = QtCore.Signal(object)     # a Design
    # object, not int: Qt's int is 32 bits and m or n >= 2^31 overflowed the signal
    zeroItems = QtCore.Signal(object, object)  # m, k: n = 0 was asked for (no design, but a picture of why)
    parametersUsed = QtCore.Signal(object, object, str, object)

    def __init__(self, workbench: QtWorkbench, parent=None):
        super().__init__(parent)
        self._wb = workbench
        self.design: Design | None = None
        self._refused = ""                       # why the fields were refused, for "Use these parameters"
        self.wait_for_views: Callable[[], None] | None = None    # set_inputs waits for the plots (the view's)
        self.confirm: Callable[[str], bool] = self._ask
        self.edits: dict[str, QtWidgets.QLineEdit] = {}
        form = QtWidgets.QFormLayout()
        labels = {"n": tr("n (items)"), "p": tr("p (FP rate)"), "m": tr("m (bits)"), "k": tr("k (hashes)")}
        for key in ("n", "p", "m", "k"):
            edit = QtWidgets.QLineEdit()
            edit.setPlaceholderText(tr("empty: solve for it"))
            edit.setToolTip(TIPS[key])
            edit.setClearButtonEnabled(True)
            edit.textEdited.connect(self._schedule)
            edit.returnPressed.connect(self.solve)
            label = QtWidgets.QLabel(labels[key])
            label.setToolTip(TIPS[key])
            form.addRow(label, edit)
            self.edits[key] = edit
        examples = QtWidgets.QHBoxLayout()
        examples.addWidget(QtWidgets.QLabel(tr("Try:")))
        for title, values in EXAMPLES:
            button = QtWidgets.QToolButton()
            button.setText(title)
            button.setToolTip("Fill in " + ", ".join(f"{k} = {v}" for k, v in values.items()))
            button.clicked.connect(lambda _=False, v=values: self.set_inputs(**v))
            examples.addWidget(button)
        examples.addStretch(1)
        self.message = MessageBar()
        self.message.setObjectName("calcMessage")
        self.bind_messages(self.message)
        self.result = QtWidgets.QLabel()
        self.result.setTextFormat(QtCore.Qt.TextFormat.RichText)
        self.result.setWordWrap(True)
        self.result.setTextInteractionFlags(QtCore.Qt.TextInteractionFlag.TextSelectableByMouse)
        self.result.setAlignment(QtCore.Qt.AlignmentFlag.AlignTop | QtCore.Qt.AlignmentFlag.AlignLeft)

        self.scheme_combo = QtWidgets.QComboBox()
        for sid, scheme in hashing.SCHEMES.items():
            self.scheme_combo.addItem(tr(scheme.title), sid)
        self.scheme_combo.setCurrentIndex(max(0, self.scheme_combo.findData(hashing.DEFAULT_SCHEME)))
        self.scheme_combo.setToolTip(tr("The hash scheme of the filter made by Use these parameters."))
        self.use_button = QtWidgets.QPushButton(tr("Use these parameters"))
        self.use_button.setToolTip(tr("Make the window's filter a new, empty one with this m, k and scheme, "
                                      "designed for n items (asks before discarding inserted items)."))
        self.use_button.clicked.connect(self.use_parameters)
        self.use_message = MessageBar()
        self.use_messages = UseMessages()
        self.use_messages.bind_messages(self.use_message)
        use_row = QtWidgets.QVBoxLayout()
        use_row.addWidget(self.scheme_combo)
        use_row.addWidget(self.use_button)

        layout = QtWidgets.QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        intro = QtWidgets.QLabel(tr("Type what you know; leave the rest empty."))
        intro.setWordWrap(True)
        layout.addWidget(intro)
        layout.addLayout(form)
        layout.addLayout(examples)
        self.presets = EnginePresetRow(self)   # what Cassandra, RocksDB, Parquet ... build for this n
        layout.addWidget(self.presets)
        layout.addWidget(self.message)
        layout.addWidget(self.result)
        layout.addLayout(use_row)
        layout.addWidget(self.use_message)
        layout.addStretch(1)

        self._debounce = Throttle(SOLVE_DELAY_MS, self.solve, self)

    # --- solving -------------------------------------------------------------------------------------------
    def set_inputs(self, **values: str) -> Design | None:
        """Set the four fields (missing ones emptied), solve at once and wait until the views have drawn it."""
        for key, edit in self.edits.items():
            edit.setText(str(values.get(key, "")))
        design = self.solve()
        if self.wait_for_views is not None:
            self.wait_for_views()
        return design

    def _schedule(self, *_args) -> None:
        self._debounce.restart()

    def _parsed(self) -> dict:
        out = {}
        for key, edit in self.edits.items():
            text = edit.text().strip()
            if not text:
                continue
            # units as people write them: 512 MiB, 8 KiB; 1 in 1000, 1/1000, 1% (theory.units, as everywhere)
            out[key] = parse_rate(text, "p") if key == "p" else \
                units.parse_bits(text, "m") if key == "m" else parse_int(text, key)
        return out

    def solve(self) -> Design | None:
        """Solve from the fields; on bad input show why and keep the last good design on the plots."""
        self._debounce.cancel()
        try:
            values = self._parsed()
            if values.get("n") == 0 and "m" in values:
                self._zero_items(values)
                return None
            design = solve(**values)
        except (CalcError, ValueError, TypeError) as exc:
            self.show_only(self.Error.unsolved, problem=tr(str(exc)))
            self._unsolved(str(exc))
            return None
        self.clear_messages()
        self._refused = ""
        self.result.setEnabled(True)
        self.use_button.setEnabled(True)
        self.design = design
        self.result.setText(design_html(design))
        self.designChanged.emit(design)
        return design

    def _unsolved(self, why: str) -> None:
        # The previous design's table goes: numbers beside a refused input would read as its answer. The plots
        # keep the last good design until a new one is solved; nothing can be used or measured from it.
        self.design, self._refused = None, why
        self.result.setText("")
        self.result.setEnabled(False)
        self.use_button.setEnabled(False)

    def _zero_items(self, values: dict) -> None:
        m, k = values["m"], values.get("k", 1)
        try:
            solve(m=m, n=1, k=k)   # the same range checks as a real design
        except CalcError as exc:
            raise CalcError(str(exc).replace("n = 1", "n")) from None
        self.show_only(self.Error.zero_items)
        self._unsolved("n = 0 has nothing to design")
        self.zeroItems.emit(m, k)

    # --- use ---------------------------------------------------------------------------------------------
    def _ask(self, question: str) -> bool:
        return ask_yes_no(self, tr("Discard the inserted items?"), question)

    def use_parameters(self) -> bool:
        d, say = self.design, self.use_messages
        if d is None:
            if self._refused:
                say.show_only(say.Error.nothing_to_use, why=self._refused)
            else:
                say.show_only(say.Error.nothing_solved)
            return False
        scheme = self.scheme_combo.currentData()
        problem = QtWorkbench.validate_config(d.m, d.k, scheme)
        if problem:
            say.show_only(say.Error.cannot_take, problem=problem)
            return False
        held = len(self._wb.filter)
        if held and not self.confirm(f"The filter holds {held:,} inserted items. A new filter starts empty: "
                                     "discard them?"):
            say.show_only(say.Information.kept)
            return False
        if not self._wb.configure(d.m, d.k, scheme, capacity=d.n):
            say.show_only(say.Error.refused)
            return False
        say.show_only(say.Information.used, m=number(d.m), k=d.k, scheme=scheme, n=number(d.n))
        self.parametersUsed.emit(d.m, d.k, scheme, d.n)
        return True

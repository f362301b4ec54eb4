"""The calculator's engine presets: pick a system (Cassandra, RocksDB, a Parquet writer, ClickHouse, Redis, git,
Ethereum, Spark, ORC, Hudi), give its own setting, and the calculator gets the m and k that system really
allocates for the n typed (``bloomviz.theory.engines``), with what the system does on the way (rounding to
words, cache lines or powers of two, its minimum or its cap) said beneath.

The calculator then solves for that m, k and n as for any filter: its rates are a flat filter's. For the
blocked layouts (Parquet's 256-bit blocks, RocksDB's cache lines) the engine's own rate is given beside it.
"""

from __future__ import annotations

import html
import inspect

from PySide6 import QtWidgets

from bloomviz.gui.messages import Messages, Msg
from bloomviz.gui.widgets.message_bar import MessageBar
from bloomviz.theory.engines import ENGINES
from bloomviz.theory.units import parse_setting, parse_whole, rate_text
from bloomviz.i18n import SEPARATORS, language, marks, number, tr

DEFAULT_N = 1000
# Each engine's setting in words (its name in the engine's own configuration follows in brackets): the field's
# placeholder said "fp_chance = 0.01", a keyword and an English decimal point, in Croatian too
SETTING_WORDS = {
    "fp_chance": "false-positive chance",
    "bits_per_key": "bits per key",
    "fpp": "false-positive probability",
    "false_positive": "false-positive rate",
    "error_rate": "error rate",
}


def setting_of(name: str) -> tuple[str, object] | None:
    """The engine's main setting (its first keyword) and its default, or None (git, Ethereum)."""
    params = [p for p in inspect.signature(ENGINES[name]).parameters.values() if p.name != "n"]
    return (params[0].name, params[0].default) if params else None


class EnginePresetRow(Messages, QtWidgets.QWidget):
    class Error(Messages.Error):
        not_applied = Msg("Not applied: {problem}")

    def __init__(self, calculator, parent=None):
        super().__init__(parent)
        self.calculator = calculator
        self.built = None
        self.engine = QtWidgets.QComboBox()
        for name in ENGINES:
            self.engine.addItem(name, name)
        self.engine.setToolTip(tr("What this system allocates for the n typed above, from its own setting"))
        self.setting = QtWidgets.QLineEdit()
        self.setting.setToolTip(tr("The engine's own setting (its default is shown when empty)"))
        self.apply_button = QtWidgets.QPushButton(tr("Fill m and k"))
        self.notes = QtWidgets.QLabel()
        self.notes.setWordWrap(True)
        self.message = MessageBar()
        self.bind_messages(self.message)
        # two short lines: the calculator's column is narrow
        grid = QtWidgets.QGridLayout()
        grid.addWidget(QtWidgets.QLabel(tr("As built by")), 0, 0)
        grid.addWidget(self.engine, 0, 1)
        grid.addWidget(self.setting, 1, 0)
        grid.addWidget(self.apply_button, 1, 1)
        grid.setColumnStretch(0, 1)
        grid.setColumnStretch(1, 1)
        layout = QtWidgets.QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(grid)
        layout.addWidget(self.message)
        layout.addWidget(self.notes)
        self.engine.currentIndexChanged.connect(self._placeholder)
        self.apply_button.clicked.connect(self.apply)
        self.setting.returnPressed.connect(self.apply)
        self._placeholder()

    def _placeholder(self, *_args) -> None:
        found = setting_of(self.engine.currentData())
        self.setting.setEnabled(found is not None)
        self.setting.setText("")
        self.setting.setPlaceholderText(tr("no setting") if found is None else setting_placeholder(*found))
        self.setting.setToolTip(tr("The engine's own setting (its default is shown when empty)") + (
            "" if found is None else f" — {found[0]}"))

    def apply(self) -> bool:
        """Build with the engine's rule for the calculator's n and put its m and k in the calculator."""
        name = self.engine.currentData()
        text = self.calculator.edits["n"].text().strip()
        try:
            n = parse_whole(text, "n", low=1) if text else DEFAULT_N     # as the calculator reads its n
            kwargs = {}
            found = setting_of(name)
            if found is not None and self.setting.text().strip():
                key, default = found
                raw = typed_number(self.setting.text().strip())
                kwargs[key] = (raw.lower() in ("1", "true", "yes")) if isinstance(default, bool) else \
                    type(default)(parse_setting(raw, key)) if isinstance(default, (int, float)) else raw
            built = ENGINES[name](n, **kwargs)
        except (ValueError, TypeError) as exc:
            self.notes.clear()      # the last engine's notes would read as this one's
            self.show_only(self.Error.not_applied, problem=exc)
            return False
        self.clear_messages()
        self.built = built
        self.calculator.set_inputs(n=str(n), m=str(built.m), k=str(built.k))
        layout = "" if built.layout == "flat" else " " + tr(
            "Its {layout} layout gives {rate} at n (the table below is a flat filter's).").format(
            layout=built.layout, rate=marks(rate_text(built.rate)))
        notes = "".join(f"<li>{html.escape(note_text(x))}</li>" for x in built.notes)
        self.notes.setText(f"{html.escape(name)}: m = {number(built.m)}, k = {built.k}.{html.escape(layout)}"
                           f"<ul style='margin-left:-20px'>{notes}</ul><i>{html.escape(built.source)}</i>")
        return True


def note_text(note) -> str:
    """An engine's note in the window's language: its template translated, its numbers written by
    ``i18n.number`` (a (number, decimals) pair to that many places, a string as it is)."""
    template, values = getattr(note, "template", None), getattr(note, "values", {})
    if template is None:
        return str(note)

    def shown(value) -> str:
        if isinstance(value, tuple):
            return number(value[0], value[1])
        return value if isinstance(value, str) else number(value)
    return tr(template).format(**{key: shown(v) for key, v in values.items()})


def setting_placeholder(key: str, default) -> str:
    """The setting field's placeholder: the setting in the window's language and its default (the engine's own
    name for it is in the field's tooltip)."""
    value = marks(f"{default:g}") if isinstance(default, float) else str(default)
    return tr("{setting}: {value}").format(setting=tr(SETTING_WORDS.get(key, key)), value=value)


def typed_number(text: str) -> str:
    """A setting as typed, with the window's decimal mark read as a point (0,01 in Croatian)."""
    return text.replace(",", ".") if SEPARATORS.get(language(), (",", "."))[1] == "," else text

"""One owner for messages (issue 22 item 7, after Orange's declared messages): a widget declares its errors,
warnings and information (``gui/messages.py``) and the message bar (``gui/widgets/message_bar.py``) draws them.

The scan: outside the owner, no code asks for a message colour (``theme.colour("error")`` or ``"warning"``), and
every ``message``/``*_message`` attribute a widget makes is a ``MessageBar`` that nothing else writes or styles
(``x.message.setText``/``setStyleSheet``). A verdict or an outcome keeps its own colour (``verdict_colour``,
``outcome_colour``): it is an answer, drawn where the answer is, not a message.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from PySide6 import QtWidgets

from bloomviz.gui import theme
from bloomviz.gui.messages import Messages, Msg, Severity
from bloomviz.gui.widgets.message_bar import MessageBar

ROOT = Path(__file__).resolve().parents[2] / "bloomviz"
OWNERS = ("gui/widgets/message_bar.py", "gui/messages.py", "gui/theme.py")
SEVERITY_COLOURS = {"error", "warning"}
WRITES = {"setText", "setStyleSheet", "setPalette", "clear"}


def _message_name(name: str | None) -> bool:
    return bool(name) and (name == "message" or name.endswith("_message"))


def own_messages(source: str) -> list[tuple[int, str]]:
    """(line, code) of every place ``source`` colours, writes or makes a message without the owner."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Call):
            func = node.func
            name = getattr(func, "attr", None) or getattr(func, "id", None)
            if name == "colour" and node.args and isinstance(node.args[0], ast.Constant) \
                    and node.args[0].value in SEVERITY_COLOURS:
                found.append((node.lineno, ast.unparse(node)))
            elif isinstance(func, ast.Attribute) and func.attr in WRITES and isinstance(func.value, ast.Attribute) \
                    and _message_name(func.value.attr):
                found.append((node.lineno, ast.unparse(node)))
        elif isinstance(node, ast.Assign):
            for target in node.targets:
                if isinstance(target, ast.Attribute) and _message_name(target.attr):
                    made = node.value.func if isinstance(node.value, ast.Call) else None
                    if (getattr(made, "id", None) or getattr(made, "attr", None)) != "MessageBar":
                        found.append((node.lineno, ast.unparse(node)[:70]))
    return found


def test_the_scan_finds_a_widget_that_shows_a_message_itself():
    source = ("self.message = QtWidgets.QLabel()\n"
              "self.message.setStyleSheet(f\"color: {theme.colour('error')};\")\n"
              "view.use_message.setText('Refused')\n"
              "self.message = MessageBar()\n"
              "colour = theme.verdict_colour(v)\n"
              "self.verdict.setStyleSheet(f\"color: {theme.colour('warning')};\")\n")
    assert sorted(line for line, _ in own_messages(source)) == [1, 2, 2, 3, 6]


def test_no_widget_outside_the_owner_shows_a_message_itself():
    found = [f"{path.relative_to(ROOT).as_posix()}:{line}: {code}"
             for path in sorted(ROOT.rglob("*.py")) if path.relative_to(ROOT).as_posix() not in OWNERS
             for line, code in own_messages(path.read_text(encoding="utf-8"))]
    assert not found, "declare the message (gui/messages.py) and show it on a MessageBar:\n" + "\n".join(found)


class _Panel(Messages, QtWidgets.QWidget):
    class Error(Messages.Error):
        too_big = Msg("m = {m} is more than {limit} bits")

    class Warning(Messages.Warning):
        slow = Msg("This takes a while")

    class Information(Messages.Information):
        done = Msg("Done")

    def __init__(self):
        super().__init__()
        self.message = MessageBar(self)
        self.bind_messages(self.message)


@pytest.fixture
def panel(qtbot):
    widget = _Panel()
    qtbot.addWidget(widget)
    yield widget
    theme.set_dark(False)


def test_a_declared_message_shows_with_its_fields_and_clears(panel):
    assert panel.message.text() == "" and panel.Error.active() == []
    panel.Error.too_big(m="10^12", limit="2^40")
    assert panel.message.text() == "m = 10^12 is more than 2^40 bits"
    assert panel.Error.too_big.is_shown() and panel.Error.active() == ["too_big"]
    assert panel.message.accessibleDescription() == "Error: m = 10^12 is more than 2^40 bits"
    assert theme.colour("error") in panel.message.styleSheet()
    panel.Error.too_big(m="5", limit="4")                  # shown again: the new words replace the old
    assert panel.message.text() == "m = 5 is more than 4 bits"
    panel.Error.too_big.clear()
    assert panel.message.text() == "" and panel.message.styleSheet() == "" and not panel.Error.too_big.is_shown()
    assert panel.message.accessibleDescription() == ""


def test_the_most_severe_message_comes_first_and_sets_the_colour(panel):
    panel.Information.done()
    assert panel.message.severity() == Severity.INFORMATION and panel.message.styleSheet() == ""
    panel.Warning.slow()
    assert panel.message.text() == "This takes a while\nDone"
    assert theme.colour("warning") in panel.message.styleSheet()
    panel.Error.too_big(m=1, limit=0)
    assert panel.message.text().splitlines() == ["m = 1 is more than 0 bits", "This takes a while", "Done"]
    assert panel.message.accessibleDescription().splitlines()[1] == "Warning: This takes a while"
    panel.Error.clear()                                    # one group: the others stay
    assert panel.message.text() == "This takes a while\nDone"
    panel.show_only(panel.Information.done)                # the answer to the last action alone
    assert panel.message.text() == "Done" and panel.Warning.active() == []
    panel.clear_messages()
    assert panel.message.text() == "" and panel.message.severity() is None


def test_the_bar_follows_the_theme(panel):
    panel.Error.too_big(m=1, limit=0)
    theme.set_dark(True)
    assert theme.colour("error", dark=True) in panel.message.styleSheet()
    theme.set_dark(False)
    assert theme.colour("error", dark=False) in panel.message.styleSheet()


def test_two_widgets_of_one_class_keep_their_own_messages(qtbot):
    first, second = _Panel(), _Panel()
    qtbot.addWidget(first)
    qtbot.addWidget(second)
    first.Error.too_big(m=2, limit=1)
    assert first.Error.too_big.is_shown() and not second.Error.too_big.is_shown() and second.message.text() == ""


@pytest.fixture
def wb(qtbot):
    from bloomviz.gui.workbench import QtWorkbench

    bench = QtWorkbench(probes=3_000)     # outlives the panel the test makes (qtbot closes it first)
    yield bench
    bench.cancel()


def test_a_panel_declares_its_refusal_and_clears_it_when_the_filter_is_made(wb, qtbot):
    from bloomviz.gui.filter_tab.params_panel import ParamsPanel

    panel = ParamsPanel(wb)
    qtbot.addWidget(panel)
    panel.fields["m"].setText("-5")
    assert not panel.apply()
    assert panel.Error.not_applied.is_shown() and panel.message.text().endswith("The filter was not changed.")
    assert theme.colour("error") in panel.message.styleSheet()
    panel.fields["m"].setText("128")
    assert panel.apply() and wb.filter.m == 128
    assert panel.message.text() == "" and panel.Error.active() == []

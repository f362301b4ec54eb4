"""The Qt adapter's door to the model is declared (gui/workbench.py's MODEL_API): every declared name is the
model's and reaches it, every public member of the model is either declared or deliberately left out, and a
name outside the door is not reachable from a view."""

from __future__ import annotations

import pytest

from bloomviz.gui.workbench import MODEL_API, NOT_FORWARDED, QtWorkbench
from bloomviz.workbench.model import Workbench as Model


def test_every_public_member_of_the_model_is_declared_or_left_out():
    model = Model(probes=16)
    public = {name for name in dir(model) if not name.startswith("_")}
    assert set(MODEL_API) <= public, set(MODEL_API) - public
    assert public - set(MODEL_API) - set(NOT_FORWARDED) == set(), "declare it in MODEL_API or NOT_FORWARDED"
    assert not set(MODEL_API) & set(NOT_FORWARDED)


def test_the_declared_members_reach_the_model_and_nothing_else_does(qtbot):
    wb = QtWorkbench(probes=16)
    assert wb.insert("apple") is not None and wb.is_member("apple")
    assert wb.filter is wb.model.filter and len(wb.history) == 1
    assert wb.insert.__doc__ == Model.insert.__doc__          # a reader sees the model's words
    with wb.quiet():                                           # a context manager of the model's, forwarded
        wb.lookup("pear")
    assert len(wb.history) == 2 and wb.undo_what == ("insert", "apple")
    assert wb.undo() and len(wb.history) == 0 and wb.undo_stack is wb.model.undo_stack
    with pytest.raises(AttributeError):
        wb.removal_needs_force                                 # asked in words: wb.removal_question
    with pytest.raises(AttributeError):
        wb._ops                                                # the model's parts are its own


def test_an_operation_is_explained_only_when_a_view_shows_it(qtbot, monkeypatch):
    from bloomviz.gui import workbench as adapter
    from bloomviz.gui.filter_tab.explain_panel import ExplainPanel

    built = []
    explain = adapter.words.explain
    monkeypatch.setattr(adapter.words, "explain", lambda *a: built.append(a[0]) or explain(*a))
    wb = QtWorkbench(probes=16)
    panel = ExplainPanel(wb)
    qtbot.addWidget(panel)
    wb.insert_batch([f"item {i}" for i in range(50)])     # an auto-play chunk, the panel hidden
    wb.lookup("item 3")
    wb.flush()                                             # both delivered to the hidden panel
    assert built == []
    panel.show()
    qtbot.waitExposed(panel)
    qtbot.waitUntil(lambda: "item 3" in panel.toPlainText())
    assert built == [wb.last_record]                       # the latest, once, when the panel showed
    assert wb.last_explanation is wb.explanation(wb.last_record) and len(built) == 1

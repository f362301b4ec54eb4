"""Edit → Undo (Ctrl+Z): the model keeps the states before the last operations (``bloomviz.workbench.undo``);
this keeps the action's text ("Undo insert “apple”") and its enabled state in step with it."""

from __future__ import annotations

from PySide6 import QtGui

from bloomviz.explain.operations import undo_text


def install(window) -> None:
    action: QtGui.QAction = window.actions_["undo"]
    wb = window.wb

    def refresh(*_args) -> None:
        what = wb.undo_what
        action.setText(undo_text(what))
        action.setEnabled(what is not None and not wb.busy)

    for signal in (wb.operated, wb.filterReset, wb.busyChanged, wb.jobFinished):
        signal.connect(refresh)
    refresh()

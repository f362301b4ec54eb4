"""The whole window as the app builds it: every extension installed together."""

from __future__ import annotations

import pytest
from PySide6 import QtGui

from bloomviz.gui.extensions import MODULES, install_all
from bloomviz.gui.main_window import MainWindow
from window_helpers import new_window


@pytest.fixture
def window(qtbot, tmp_path):
    w = new_window(qtbot, tmp_path, probes=500)
    installed = install_all(w)
    assert set(installed) == set(MODULES)
    yield w
    w.file_actions.discard_changes()
    w.wb.cancel()


def all_actions(window):
    seen, stack = [], list(window.actions()) + list(window.menuBar().actions())
    while stack:
        act = stack.pop()
        if act in seen:
            continue
        seen.append(act)
        if act.menu() is not None:
            stack.extend(act.menu().actions())
    return seen


def test_no_shortcut_is_claimed_twice(window):
    owners: dict[str, str] = {}
    for act in all_actions(window):
        for seq in act.shortcuts():
            key = seq.toString(QtGui.QKeySequence.SequenceFormat.PortableText)
            if not key:
                continue
            assert key not in owners or owners[key] == act.text(), \
                f"{key} is both {owners[key]!r} and {act.text()!r}"
            owners[key] = act.text()
    assert len(owners) > 30


def test_every_view_has_a_tab_and_the_docks_follow_the_filter_tab(window, qtbot):
    window.show()
    qtbot.waitExposed(window)
    for key in ("filter", "start", "explorer", "compare", "setops"):
        assert window.tab_view(key) is not None
    assert window.docks["plot"].isVisible()
    window.docks["history"].hide()                 # a person closed one dock
    window.show_tab("explorer")
    assert not any(d.isVisible() for d in window.docks.values())
    window.show_tab("setops")
    window.show_tab("filter")
    assert window.docks["plot"].isVisible() and not window.docks["history"].isVisible()


def test_menus_are_in_order(window):
    titles = [a.text().replace("&", "") for a in window.menuBar().actions()]
    assert titles == ["File", "Edit", "View", "Scenarios", "Tools", "Help"]


def test_the_parts_are_imported_by_name_and_kept_where_the_window_declares_them(window):
    import ast
    import inspect

    from bloomviz.gui import extensions
    tree = ast.parse(inspect.getsource(extensions))
    imported = {f"{node.module}.{alias.name}" for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)
                for alias in node.names}
    assert set(MODULES) <= imported                      # the import graph shows every part
    assert not any(isinstance(node, ast.Import) and any(a.name == "importlib" for a in node.names)
                   for node in ast.walk(tree))
    for name in ("file_actions", "scenarios", "foreign", "slow_motion", "lesson_view", "fill_gauge"):
        assert name in vars(MainWindow), f"MainWindow does not declare {name}"
        assert getattr(window, name) is not None, f"{name} was not installed"


def test_views_the_first_screen_does_not_show_are_made_on_their_first_showing(window, qtbot):
    from PySide6 import QtWidgets
    from bloomviz.gui.compare_tab.view import CompareView
    from bloomviz.gui.explorer_tab.view import ExplorerWidget
    from bloomviz.gui.setops_tab.view import SetOpsView
    kinds = {"explorer": ExplorerWidget, "compare": CompareView, "setops": SetOpsView}
    holders = {key: window.findChild(QtWidgets.QScrollArea, f"tab_{key}") for key in kinds}
    assert all(holder.widget() is None for holder in holders.values()), "made before anyone looked"
    explorer_action = next(a for a in window.menu("&View").actions() if a.shortcut().toString() == "Ctrl+E")
    explorer_action.trigger()
    assert isinstance(holders["explorer"].widget(), ExplorerWidget)
    assert window.current_view() is holders["explorer"].widget()
    assert holders["compare"].widget() is None and holders["setops"].widget() is None
    for key, kind in kinds.items():
        assert isinstance(window.tab_view(key), kind)
        assert window.tab_view(key) is holders[key].widget(), "made once"

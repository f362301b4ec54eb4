"""Accessible names for every control of a widget tree, derived from what a sighted user reads beside it.

Naming each of the window's few hundred controls where it is made would touch dozens of files for words the
screen already shows; ``name_tree(root)`` instead gives each interactive widget without a name the words a
sighted user reads for it: its own text (buttons, check boxes), the label that is its buddy or stands before it
in its layout (fields, combo boxes, spin boxes), else the first sentence of its tooltip; the whole tooltip
becomes its description. A widget named where it is made keeps its name. Qt's own inner parts (a combo box's
popup list, a spin box's line edit) are left to Qt, which names them from their owner.
"""

from __future__ import annotations

import html
import re

from PySide6 import QtWidgets

# The kinds of widget a user operates; ``unnamed`` reports those of them without an accessible name.
INTERACTIVE = (QtWidgets.QAbstractButton, QtWidgets.QLineEdit, QtWidgets.QComboBox, QtWidgets.QAbstractSpinBox,
               QtWidgets.QTabBar, QtWidgets.QAbstractItemView, QtWidgets.QAbstractSlider,
               QtWidgets.QTextEdit, QtWidgets.QPlainTextEdit, QtWidgets.QGraphicsView)
NAME_MAX = 80
LABEL_MAX = 40
_TAG = re.compile(r"<[^>]+>")
_ENTITY = re.compile(r"&(#\d+|#x[0-9a-fA-F]+|[a-zA-Z]+);")
_BREAK = re.compile(r"<(br|p|div|li|tr)\b[^>]*>", re.IGNORECASE)
_SENTENCE_END = re.compile(r"(?<=[.!?:;])\s|\s[—–]\s|\s\(")


def plain(text: str) -> str:
    """``text`` as it is read: rich text without its tags and entities, plain text without its mnemonic '&';
    one line."""
    text = text or ""
    if _TAG.search(text) or _ENTITY.search(text):
        text = html.unescape(_TAG.sub("", _BREAK.sub(" ", text)))
    else:
        text = text.replace("&&", "\0").replace("&", "").replace("\0", "&")
    return " ".join(text.split())


def first_sentence(text: str) -> str:
    """The first sentence (or clause) of ``text``, at most ``NAME_MAX`` characters, cut at a word."""
    text = plain(text)
    cut = _SENTENCE_END.search(text)
    head = text[:cut.start()] if cut else text
    head = head.rstrip(" .:;")
    if len(head) > NAME_MAX:
        head = head[:NAME_MAX].rsplit(" ", 1)[0] + "…"
    return head


def qt_internal(widget: QtWidgets.QWidget) -> bool:
    """A part Qt makes inside another widget and names from it: a spin box's or a combo box's editor, a combo
    box's popup list, a line edit's clear button, an item view's headers."""
    parent = widget.parentWidget()
    if widget.objectName().startswith("qt_") and not isinstance(widget, QtWidgets.QTabBar):
        return True
    if isinstance(widget, QtWidgets.QHeaderView):
        return True
    if parent is not None and parent.metaObject().className() == "QComboBoxPrivateContainer":
        return True
    if isinstance(parent, (QtWidgets.QComboBox, QtWidgets.QAbstractSpinBox, QtWidgets.QLineEdit)):
        return True
    return False


def unnamed(root: QtWidgets.QWidget) -> list[QtWidgets.QWidget]:
    """The interactive widgets under ``root`` (itself included) that a screen reader could not name."""
    found = []
    for widget in [root, *root.findChildren(QtWidgets.QWidget)]:
        if isinstance(widget, INTERACTIVE) and not qt_internal(widget) and not widget.accessibleName().strip():
            found.append(widget)
    return found


def _buddies(root: QtWidgets.QWidget) -> dict:
    return {id(label.buddy()): label for label in root.findChildren(QtWidgets.QLabel) if label.buddy() is not None}


def _label_before(widget: QtWidgets.QWidget) -> str:
    """The text of the QLabel just before ``widget`` in its parent's layout (its form row, grid cell or box)."""
    parent = widget.parentWidget()
    for layout in ([parent.layout()] + parent.layout().findChildren(QtWidgets.QLayout)
                   if parent is not None and parent.layout() is not None else []):
        if isinstance(layout, QtWidgets.QFormLayout):
            label = layout.labelForField(widget)
            if isinstance(label, QtWidgets.QLabel):
                return plain(label.text())
        index = layout.indexOf(widget)
        if index < 0:
            continue
        if isinstance(layout, QtWidgets.QGridLayout):
            row, col, _rs, _cs = layout.getItemPosition(index)
            item = layout.itemAtPosition(row, col - 1) if col > 0 else None
        else:
            item = layout.itemAt(index - 1) if index > 0 else None
        label = item.widget() if item is not None else None
        if isinstance(label, QtWidgets.QLabel) and _label_like(plain(label.text())):
            return plain(label.text()).rstrip(" :")
    return ""


def _label_like(text: str) -> bool:
    """A caption rather than a swatch ('■') or a paragraph of results."""
    return any(ch.isalnum() for ch in text) and len(text) <= LABEL_MAX


def _tab_bar_name(bar: QtWidgets.QTabBar) -> str:
    titles = [plain(bar.tabText(i)) for i in range(bar.count()) if plain(bar.tabText(i))]
    return "Tabs: " + ", ".join(titles) if titles else ""


def _graphics_name(view: QtWidgets.QGraphicsView) -> str:
    """A plot's title (else its axes) or the name of the widget that holds the view (the bit grid's)."""
    plot_item = getattr(view, "getPlotItem", None)
    if callable(plot_item):
        item = plot_item()
        title = plain(item.titleLabel.text) if item.titleLabel.isVisible() or item.titleLabel.text else ""
        if title:
            return "Plot: " + title
        left, bottom = (plain(item.getAxis(side).labelText) for side in ("left", "bottom"))
        if left or bottom:
            return f"Plot of {left or 'values'} against {bottom or 'x'}"
    holder = view.parentWidget()
    while holder is not None:
        if holder.accessibleName():
            return holder.accessibleName()
        if hasattr(holder, "TITLE"):
            return "Plot: " + plain(holder.TITLE)
        if type(holder).__name__ == "BitGridWidget":
            return "Bit grid"
        holder = holder.parentWidget()
    return ""


def derived_name(widget: QtWidgets.QWidget, buddies: dict) -> str:
    """What a sighted user reads for ``widget``; "" when nothing is shown for it."""
    if isinstance(widget, QtWidgets.QGraphicsView):
        name = _graphics_name(widget)
        if name:
            return name
    if isinstance(widget, QtWidgets.QTabBar):
        return _tab_bar_name(widget)
    if isinstance(widget, QtWidgets.QScrollBar):
        horizontal = widget.orientation().name == "Horizontal"
        return "Horizontal scroll bar" if horizontal else "Vertical scroll bar"
    if isinstance(widget, QtWidgets.QAbstractButton):
        action = widget.defaultAction() if isinstance(widget, QtWidgets.QToolButton) else None
        text = plain(action.text()) if action is not None else plain(widget.text())
        if text:
            return text
    label = buddies.get(id(widget))
    if label is not None and plain(label.text()):
        return plain(label.text()).rstrip(" :")
    before = _label_before(widget)
    if before:
        return before
    if widget.toolTip():
        return first_sentence(widget.toolTip())
    placeholder = getattr(widget, "placeholderText", None)
    if callable(placeholder) and plain(placeholder()):
        return plain(placeholder())
    return ""


def name_tree(root: QtWidgets.QWidget) -> int:
    """Name every unnamed interactive widget under ``root`` from its text, label or tooltip, and describe it
    with its whole tooltip where that says more; returns how many were named."""
    buddies = _buddies(root)
    named = 0
    for widget in unnamed(root):
        name = derived_name(widget, buddies)
        if not name:
            continue
        widget.setAccessibleName(name)
        named += 1
        tip = plain(widget.toolTip())
        if tip and tip != name and not widget.accessibleDescription():
            widget.setAccessibleDescription(tip)
    return named

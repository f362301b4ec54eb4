"""An item is text, never markup: the one way the window shows a string that came from a user's file.

Qt guesses whether a QLabel's, a QMessageBox's or a tooltip's text is rich text (``Qt::mightBeRichText``: a tag
near the start is enough). Rich text can name images, and Qt loads them from any local path while laying the
text out: an item ``<img src="/dev/zero">`` in a session or an item list someone sent made the window read
/dev/zero until it was killed (or wait for ever on a FIFO) on a mouse hover. So wherever an item, a lesson's
line or a file's name can appear:

- a widget that shows plain text says so (``plain_label``, ``ask_yes_no``: ``Qt.TextFormat.PlainText``), and
- rich text that embeds one escapes it first (``item_html``), as does a tooltip (``tooltip``: tooltips have no
  text format of their own, Qt always guesses).

``tests/gui/test_items_are_plain_text.py`` feeds such an item to every place that shows one.
"""

from __future__ import annotations

import html

from PySide6 import QtCore, QtWidgets

PLAIN = QtCore.Qt.TextFormat.PlainText


def item_html(item: object) -> str:
    """``item`` as text inside rich text: every ``<``, ``>``, ``&`` and quote escaped."""
    return html.escape(str(item), quote=True)


def plain_label(label: QtWidgets.QLabel) -> QtWidgets.QLabel:
    """``label`` set to show its text as written, whatever it holds; returned for chaining."""
    label.setTextFormat(PLAIN)
    return label


def tooltip(text: str) -> str:
    """A tooltip that shows ``text`` as written (line breaks kept)."""
    return "<p style='white-space:pre-wrap'>" + html.escape(text, quote=False) + "</p>"


def ask_yes_no(parent: QtWidgets.QWidget | None, title: str, question: str) -> bool:
    """A Yes/No question shown as plain text (``QMessageBox.question`` guesses the format); True for Yes."""
    box = QtWidgets.QMessageBox(QtWidgets.QMessageBox.Icon.Question, title, "",
                                QtWidgets.QMessageBox.StandardButton.Yes | QtWidgets.QMessageBox.StandardButton.No,
                                parent)
    box.setTextFormat(PLAIN)
    box.setText(question)
    return box.exec() == QtWidgets.QMessageBox.StandardButton.Yes

"""An item is text everywhere in the window: ``<img src=/dev/zero>`` as an item is shown as those characters,
never as an image Qt would load (from /dev/zero: until the process is killed; from a FIFO: for ever).

The item goes through every path that shows one (item box, lookup, explanation, history, status, the grid's
hover label, the counting filter's "remove an item never inserted?" question, slow motion, a session saved and
opened again, a lookup in another library's file, a lesson's step, the contacts scenario's "save contact?" question), then
every label, text
view, tooltip and item-view tooltip of the window, and every question asked, is checked: a text Qt would read
as rich text must hold no image. The check parses rich text in a document whose resource loader only records
the names asked for, so the check itself never reads a file.

A harmless image name goes first (on code that renders it, the test fails without reading anything), then
the real ``/dev/zero``.
"""

from __future__ import annotations

from typing import NamedTuple

import pytest
from PySide6 import QtCore, QtGui, QtWidgets

from bloomviz.gui.plain_text import ask_yes_no, item_html, tooltip

HARMLESS = "<img src=never.png>"   # short: shown whole, not shortened
DEVICE = "<img src=/dev/zero>"


class Asked(NamedTuple):
    title: str
    text: str
    format: QtCore.Qt.TextFormat


def images_in(document: QtGui.QTextDocument) -> list[str]:
    names = []
    block = document.begin()
    while block.isValid():
        it = block.begin()
        while not it.atEnd():
            fmt = it.fragment().charFormat()
            if fmt.isImageFormat():
                names.append(fmt.toImageFormat().name())
            it += 1
        block = block.next()
    return names


class RecordingDocument(QtGui.QTextDocument):
    def __init__(self):
        super().__init__()
        self.asked = []

    def loadResource(self, kind, name):   # noqa: N802 - Qt's name
        self.asked.append(name.toString())
        return None


def images_in_rich_text(text: str) -> list[str]:
    doc = RecordingDocument()
    doc.setHtml(text)
    doc.setTextWidth(400)
    doc.size()
    return images_in(doc) + doc.asked


def shown_as_rich(text: str, fmt) -> bool:
    if fmt == QtCore.Qt.TextFormat.PlainText:
        return False
    return fmt == QtCore.Qt.TextFormat.RichText or QtGui.Qt.mightBeRichText(text)


def problems_in(widgets, asked) -> list[str]:
    found = []

    def check(where, text, fmt=QtCore.Qt.TextFormat.AutoText):
        if text and "img" in text and shown_as_rich(text, fmt) and images_in_rich_text(text):
            found.append(f"{where}: {text[:120]!r}")

    for w in widgets:
        name = f"{type(w).__name__} {w.objectName()!r}"
        if isinstance(w, QtWidgets.QLabel):
            check(name, w.text(), w.textFormat())
        if isinstance(w, QtWidgets.QTextEdit) and images_in(w.document()):
            found.append(f"{name}: document holds an image")
        check(f"{name} tooltip", w.toolTip())
        if isinstance(w, QtWidgets.QAbstractItemView) and w.model() is not None:
            model = w.model()
            try:
                columns = model.columnCount(QtCore.QModelIndex())
            except TypeError:   # a list model's columnCount is private: one column
                columns = 1
            for row in range(min(model.rowCount(QtCore.QModelIndex()), 500)):
                for col in range(columns):
                    tip = model.data(model.index(row, col), QtCore.Qt.ItemDataRole.ToolTipRole)
                    check(f"{name} row {row} tooltip", tip if isinstance(tip, str) else "")
    for box in asked:
        check(f"question {box.title!r}", box.text, box.format)
    return found


pytestmark = pytest.mark.window(parts=True, shown=False)


@pytest.fixture
def window(window):
    """The shared window (tests/conftest.py), every part installed. Any question, however it is asked (a
    static QMessageBox.question too), is recorded and answered No by a timer: on code that asks in a way a test
    cannot replace, the test still ends."""
    asked = []

    def answer():
        box = QtWidgets.QApplication.activeModalWidget()
        if isinstance(box, QtWidgets.QMessageBox):
            asked.append(Asked(box.windowTitle(), box.text(), box.textFormat()))
            box.done(QtWidgets.QMessageBox.StandardButton.No)

    timer = QtCore.QTimer()
    timer.timeout.connect(answer)
    timer.start(20)
    window.params_panel.confirm = lambda question: True
    window.asked = asked
    yield window
    timer.stop()


def feed_everywhere(qtbot, win, item):
    wb = win.wb
    assert wb.configure(variant="counting", m=32, k=2)
    for i in range(80):   # every counter above 0: a never-inserted item is a false positive, so removing it asks
        wb.insert(f"filler {i}")
    panel = win.item_panel
    panel.line.setText(item)
    panel.insert()
    panel.lookup()
    assert wb.is_member(item)
    # the grid's hover label over one of the item's bits
    bit = int(wb.filter.positions(item)[0])
    cols = win.grid.cols
    assert win.grid.hover_at_view(bit % cols + 0.5, bit // cols + 0.5) == bit
    # long items are shortened; a provider measured slow (a loaded machine's stall) answers when the cursor rests
    qtbot.waitUntil(lambda: item[:10] in win.grid.hover_label.text())
    # removing an item never inserted asks first
    panel.line.setText(item + " again")
    panel.remove()
    assert any(item[:10] in box.text for box in win.asked)
    slow = win.slow_motion
    if slow is not None:
        slow.start("lookup", item)
        for _ in range(8):
            slow.next()
    # a session someone sent: saved with the item in it, opened again (the history is rebuilt from it)
    path = str(win.settings.fileName()).replace("settings.ini", "sent.bloomviz")
    assert win.file_actions.write_session(path)
    assert win.file_actions.open_path(path, ask=False)
    assert wb.is_member(item)
    # another library's file, the item looked up in the Other libraries' filter tab
    from bloomviz.filters.standard import BloomFilter
    from bloomviz.formats import bitset_text
    seminar = BloomFilter(1000, 3, scheme="seminar-cpp")
    seminar.update([item, "other"])
    bloom_txt = path.replace("sent.bloomviz", "bloom.txt")
    bitset_text.write_filter(seminar, bloom_txt)
    assert win.foreign.open_path(bloom_txt)
    win.foreign.item.setText(item)
    assert win.foreign.lookup()
    # a lesson someone sent, whose step inserts and looks up the item and names it in its words
    lesson = path.replace("sent.bloomviz", "lesson.md")
    with open(lesson, "w", encoding="utf-8") as f:
        f.write(f"# Items\n\nIntro {item}.\n\n## Step {item}\n\nThe item {item} goes in.\n\n```bloomviz\n"
                f"filter m=64 k=3\ninsert '{item}'\nlookup '{item}'\n```\n")
    win.lesson_view.opening.wait(60)   # one still being opened (the previous pass's) ends first
    assert win.lesson_view.open_path(lesson) and win.lesson_view.opening.wait(60), win.lesson_view.message.text()
    assert win.lesson_view.next()
    # the contacts scenario offers to save an unknown address
    win.file_actions.discard_changes()   # no "save your items?" before the scenario replaces the filter
    with qtbot.waitSignal(win.scenarios.runner.finished, timeout=60_000):
        assert win.scenarios.run("contacts")
    before = len(win.asked)
    win.scenarios.panel.line.setText(item + "@example.org")
    win.scenarios.panel.check_line()
    assert len(win.asked) == before + 1 and item[:10] in win.asked[-1].text


def all_widgets(win):
    return [win, *win.findChildren(QtWidgets.QWidget)]


def test_an_item_that_is_markup_is_shown_as_text_everywhere(qtbot, window):
    for item in (HARMLESS, DEVICE):
        feed_everywhere(qtbot, window, item)
        problems = problems_in(all_widgets(window), window.asked)
        assert problems == [], "\n".join(problems)


def test_the_helpers_keep_markup_as_text(qtbot, monkeypatch):
    assert images_in_rich_text(f"<p>{item_html(DEVICE)}</p>") == []
    assert images_in_rich_text(tooltip(DEVICE)) == []
    assert images_in_rich_text(DEVICE) != []     # the check does see an image where there is one
    seen = []
    monkeypatch.setattr(QtWidgets.QMessageBox, "exec",
                        lambda box: seen.append((box.text(), box.textFormat())) or
                        QtWidgets.QMessageBox.StandardButton.Yes)
    assert ask_yes_no(None, "Save contact?", f"{DEVICE} is new") is True
    assert seen == [(f"{DEVICE} is new", QtCore.Qt.TextFormat.PlainText)]

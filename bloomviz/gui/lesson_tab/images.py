"""The Lesson tab's text view: a QTextBrowser that loads a lesson's images only through ``lessons.images``
(files beside the lesson, bounded; never a device, a FIFO, ``file://`` or ``..``). Qt's own loader reads any
local path a Markdown image names."""

from __future__ import annotations

from typing import Callable

from PySide6 import QtGui, QtWidgets

from bloomviz.lessons import images


def _nothing() -> QtGui.QImage:
    # Not None: given nothing, QTextDocument falls back to reading a local path itself (an absolute one
    # loaded whatever we said); a 1x1 transparent image is an answer it keeps.
    image = QtGui.QImage(1, 1, QtGui.QImage.Format.Format_ARGB32)
    image.fill(0)
    return image


class LessonTextBrowser(QtWidgets.QTextBrowser):
    def __init__(self, lesson_path: Callable[[], str | None], parent=None):
        super().__init__(parent)
        self._lesson_path = lesson_path
        self.refused: list[str] = []     # the references not loaded (for tests and a curious author)

    def loadResource(self, kind, url):   # noqa: N802 - Qt's name
        reference = url.toString()
        if kind != QtGui.QTextDocument.ResourceType.ImageResource.value and \
                kind != QtGui.QTextDocument.ResourceType.ImageResource:
            self.refused.append(reference)
            return _nothing()
        data = images.load(images.folder_of(self._lesson_path()), reference)
        if data is None:
            self.refused.append(reference)
            return _nothing()
        image = QtGui.QImage.fromData(data)
        return _nothing() if image.isNull() else image

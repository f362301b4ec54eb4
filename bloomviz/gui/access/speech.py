"""What a screen reader says: a grid cell in words, a verdict as it changes, a plot as a sentence.

Qt passes an announcement (``QAccessibleAnnouncementEvent``, Qt >= 6.8) to the platform's screen reader (AT-SPI,
UI Automation, NSAccessibility); a widget's accessible description is read when it gets focus. Every
announcement is also kept in ``Speaker.spoken`` so the words can be checked without a screen reader.
"""

from __future__ import annotations

from PySide6 import QtCore, QtGui, QtWidgets

from bloomviz.explain import variants
from bloomviz.gui.access.names import plain
from bloomviz.i18n import number, tr
from bloomviz.items.encoding import describe

NAMED_ITEMS = 3   # items named per cell; the rest are counted


def cell_words(wb, index: int) -> str:
    """Cell ``index`` of the workbench's filter as it is spoken: "bit 13, set, by ana@acme.com"."""
    flt = wb.filter
    if not 0 <= index < flt.m:
        return ""
    value = int(wb.model.cell_values([index])[0])
    if variants.cell_name(flt) == "bit":
        state = tr("set") if value else tr("not set")
    else:
        state = tr("value {value}").format(value=value)
    items, total = wb.model.items_at_bit(index, NAMED_ITEMS)
    if not total:
        by = tr("no inserted item maps here")
    else:
        shown = ", ".join(describe(x, 30) for x in items)
        more = tr(" and {count} more").format(count=number(total - len(items))) if total > len(items) else ""
        by = tr("by {items}{more}").format(items=shown, more=more)
    return f"{variants.cell_word(flt)} {index}, {state}, {by}"


class Speaker(QtCore.QObject):
    """Sends announcements to the screen reader and keeps them (``spoken``, the latest last)."""

    KEEP = 50

    def __init__(self, parent=None):
        super().__init__(parent)
        self.spoken: list[str] = []

    def say(self, widget: QtWidgets.QWidget, text: str, urgent: bool = False) -> None:
        text = plain(text)
        if not text:
            return
        self.spoken = (self.spoken + [text])[-self.KEEP:]
        event = QtGui.QAccessibleAnnouncementEvent(widget, text)
        event.setPoliteness(QtGui.QAccessible.AnnouncementPoliteness.Assertive if urgent
                            else QtGui.QAccessible.AnnouncementPoliteness.Polite)
        QtGui.QAccessible.updateAccessibility(event)


def describe_widget(widget: QtWidgets.QWidget, text: str) -> None:
    """Set ``widget``'s accessible description and tell the screen reader it changed."""
    if widget.accessibleDescription() != text:
        widget.setAccessibleDescription(text)
        QtGui.QAccessible.updateAccessibility(
            QtGui.QAccessibleEvent(widget, QtGui.QAccessible.Event.DescriptionChanged))


class VerdictVoice(QtCore.QObject):
    """Announces the item panel's verdict when it changes (after the panel has written it: connected later)."""

    def __init__(self, wb, item_panel, speaker: Speaker):
        super().__init__(item_panel)
        self._panel, self._speaker, self._last = item_panel, speaker, item_panel.verdict_text
        for signal in (wb.operated, wb.error, wb.filterReset):
            signal.connect(self.check)

    def check(self, *_args) -> None:
        text = self._panel.verdict_text
        if text != self._last:
            self._last = text
            describe_widget(self._panel.verdict, text)
            if text:
                self._speaker.say(self._panel.verdict, text)


def plot_summary(title: str, readout: str) -> str:
    """The plot in one sentence: its title and the values of every curve its readout shows."""
    values = " ".join(readout.replace("■", "").replace("\xa0", " ").split()).replace(" · ", "; ")
    return f"{title}. {values}" if values else f"{title}. No items inserted yet."

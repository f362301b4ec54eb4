"""Declared messages, after Orange's widget messages: a widget says what it can tell the user, by severity, as class
attributes, and one owner (``widgets.message_bar.MessageBar``) shows them.

    class ParamsPanel(Messages, QtWidgets.QWidget):
        class Error(Messages.Error):
            refused = Msg("{problem}. The filter was not changed.")

        def __init__(self):
            ...
            self.message = MessageBar()
            self.bind_messages(self.message)

        def apply(self):
            self.Error.refused(problem=exc)      # shown, in the error colour, "Error: ..." to a screen reader
            self.Error.refused.clear()           # gone; self.Error.clear() clears the group, clear_messages() all
            self.show_only(self.Information.kept)   # the answer to the last action alone (the others cleared)

A template's ``{name}`` fields are filled when it is shown; its English text is the catalogue key, translated
when shown (``tr(template).format(**fields)``), so ``hr.po`` holds each template once, fields unfilled
(``tests/i18n/test_i18n_catalogue.py`` reads ``Msg("...")`` literals as it reads ``tr("...")``).

Why declared, and why one owner: a widget that set a label red itself wrote the colour, the words and the
accessible text its own way (eight widgets did); a declaration lists every message a widget can show in one
place, and the bar draws all of them the same way and follows the theme (``tests/gui/test_message_owner.py``).
"""

from __future__ import annotations

import enum

from bloomviz.i18n import tr


class Severity(enum.IntEnum):
    INFORMATION = 1
    WARNING = 2
    ERROR = 3


def severity_word(severity: Severity) -> str:
    """What a screen reader says before a message: the colour says it to the eye alone."""
    return {Severity.ERROR: tr("Error"), Severity.WARNING: tr("Warning"),
            Severity.INFORMATION: tr("Information")}[Severity(severity)]


class Msg:
    """A message a widget can show: a template with ``{name}`` fields. Read from a bound group it is a
    ``BoundMsg`` (call it to show, ``.clear()`` to take it away)."""

    def __init__(self, template: str):
        self.template = template
        self.name = ""

    def __set_name__(self, owner, name: str) -> None:
        self.name = name

    def __get__(self, group, owner=None):
        if group is None:
            return self
        return BoundMsg(group, self)

    def text(self, **fields) -> str:
        return tr(self.template).format(**fields) if fields else tr(self.template)


class BoundMsg:
    def __init__(self, group: "MessageGroup", msg: Msg):
        self.group, self.msg = group, msg
        self.key = (group.severity, msg.name)

    def __call__(self, **fields) -> None:
        """Show the message with ``fields`` filled (replacing its earlier text, if shown)."""
        self.group.bar.show_message(self.key, self.group.severity, self.msg.text(**fields))

    def clear(self) -> None:
        self.group.bar.hide_message(self.key)

    def is_shown(self) -> bool:
        return self.group.bar.shown(self.key)


class MessageGroup:
    """The messages of one severity a widget declares (a subclass lists them as ``Msg`` attributes)."""

    severity = Severity.INFORMATION

    def __init__(self, bar):
        self.bar = bar

    @classmethod
    def declared(cls) -> dict[str, Msg]:
        found: dict[str, Msg] = {}
        for klass in reversed(cls.__mro__):
            found.update({k: v for k, v in vars(klass).items() if isinstance(v, Msg)})
        return found

    def clear(self) -> None:
        for name in self.declared():
            self.bar.hide_message((self.severity, name))

    def active(self) -> list[str]:
        """The names of this group's messages now shown."""
        return [name for name in self.declared() if self.bar.shown((self.severity, name))]


class ErrorGroup(MessageGroup):
    severity = Severity.ERROR


class WarningGroup(MessageGroup):
    severity = Severity.WARNING


class InformationGroup(MessageGroup):
    severity = Severity.INFORMATION


class Messages:
    """Mixin of a widget that declares messages: subclass ``Error``, ``Warning``, ``Information`` in the class
    body, then ``bind_messages(bar)`` once the bar exists (each group is then an object on the instance)."""

    Error = ErrorGroup
    Warning = WarningGroup
    Information = InformationGroup

    def bind_messages(self, bar) -> None:
        cls = type(self)
        self.Error, self.Warning, self.Information = cls.Error(bar), cls.Warning(bar), cls.Information(bar)

    def clear_messages(self) -> None:
        for group in (self.Error, self.Warning, self.Information):
            group.clear()

    def show_only(self, message: BoundMsg, **fields) -> None:
        """``message`` alone: the answer to the user's last action replaces the answers to earlier ones."""
        self.clear_messages()
        message(**fields)

"""A listener list: how the model tells whoever listens what happened, without Qt; and the model's own list.

The window's Qt adapter (``bloomviz.gui.workbench``) is the one listener in the app; a test or a script can
listen too. Listeners are called in the order they connected, synchronously, in the model's turn.
"""

from __future__ import annotations

from typing import Callable


class Event:
    """``connect(fn)`` / ``disconnect(fn)`` / ``emit(*args)``: the shape of a Qt signal, without Qt."""

    __slots__ = ("_listeners", "_events")

    def __init__(self, events: "Events | None" = None) -> None:
        self._listeners: list[Callable] = []
        self._events = events      # the list it belongs to, whose ``blocked`` silences it

    def connect(self, listener: Callable) -> None:
        self._listeners.append(listener)

    def disconnect(self, listener: Callable) -> None:
        self._listeners.remove(listener)

    def emit(self, *args) -> None:
        if self._events is not None and self._events.blocked:
            return
        for listener in tuple(self._listeners):
            listener(*args)


class Events:
    """The model's events, one ``Event`` each (``bloomviz.workbench.model``'s docstring says what each carries)."""

    NAMES = ("operated", "about_to_reset", "reset", "noted", "busy_changed", "progress",
             "frame", "job_finished", "error", "notice")

    def __init__(self) -> None:
        # above 0, no event is emitted (the model works quietly: a session's replay, ``Workbench.quiet``), as
        # Qt's ``blockSignals``: whoever emits need not ask first
        self.blocked = 0
        for name in self.NAMES:
            setattr(self, name, Event(self))

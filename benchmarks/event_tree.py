"""What ran in a turn of the event loop, for bench_stalls.py ``--events``: every event the GUI thread delivers
(a timer's tick, a queued call, a window's paint and each widget painted in it ...) timed in this thread's CPU,
as a tree (a window's UpdateRequest holds the Paint events of the widgets it paints), kept per turn.

The application is made as ``TimedApplication``, whose ``notify`` (Qt calls it for every event sent or posted in
the main thread, paint events included) times each delivery around ``QApplication.notify``. A Python call per
event: diagnosis only, its cost adds to the turns it measures (a few microseconds an event).
"""

from __future__ import annotations

import collections
import time

from PySide6 import QtCore, QtWidgets

KEEP_S = 0.0002     # a nested event shorter than this is left out of the tree (its time stays in its parent's)


class Node:
    __slots__ = ("label", "took", "children")

    def __init__(self, label: str):
        self.label, self.took, self.children = label, 0.0, []

    def own(self) -> float:
        return self.took - sum(c.took for c in self.children)

    def text(self, depth: int = 3, at_least: float = 0.0005) -> str:
        """``label 12.3 [child 7.1 [...], child 2.0, own 1.2]`` (ms of CPU), children of ``at_least`` seconds."""
        out = f"{self.label} {self.took * 1e3:.1f}"
        shown = sorted((c for c in self.children if c.took >= at_least), key=lambda c: -c.took)
        if depth > 0 and shown:
            inner = [c.text(depth - 1, at_least) for c in shown[:6]]
            if len(shown) > 6:
                inner.append(f"{len(shown) - 6} more {sum(c.took for c in shown[6:]) * 1e3:.1f}")
            inner.append(f"own {self.own() * 1e3:.1f}")
            out += " [" + ", ".join(inner) + "]"
        return out


def label_of(obj, event) -> str:
    """The event's type and its receiver: the receiver's class, and for a Qt class without a meaning of its own
    (a timer, a viewport, a window) the first of the window's classes above it."""
    try:
        kind = event.type().name
    except AttributeError:
        kind = str(int(event.type()))
    name = type(obj).__name__
    if not type(obj).__module__.startswith("bloomviz"):
        owner = obj.parent() if isinstance(obj, QtCore.QObject) else None
        hops = 0
        while owner is not None and hops < 6 and not type(owner).__module__.startswith("bloomviz"):
            owner = owner.parent()
            hops += 1
        if owner is not None:
            name += f"<{type(owner).__name__}"
    return f"{kind} {name}"


class EventTree:
    """The events of each turn (``clock.turn_start``) as trees of ``Node``."""

    def __init__(self, clock):
        self._clock = clock
        self.on = False
        self._stack: list[Node] = []
        self.in_turn: dict[float, list[Node]] = collections.defaultdict(list)

    def begin(self) -> None:
        self.in_turn, self._stack, self.on = collections.defaultdict(list), [], True

    def end(self) -> None:
        self.on = False

    def deliver(self, obj, event, call):
        if not self.on:
            return call()
        node = Node(label_of(obj, event))
        stack = self._stack
        stack.append(node)
        cpu = time.thread_time()
        try:
            return call()
        finally:
            node.took = time.thread_time() - cpu
            stack.pop()
            if stack:
                if node.took >= KEEP_S:
                    stack[-1].children.append(node)
            elif self._clock.turn_start is not None and node.took >= KEEP_S:
                self.in_turn[self._clock.turn_start].append(node)

    def turn_text(self, start: float, limit: int = 4) -> list[str]:
        """A turn's costliest events (most CPU first), each with what ran inside it."""
        nodes = sorted(self.in_turn.get(start, ()), key=lambda n: -n.took)
        return [n.text() for n in nodes[:limit]]

    def totals(self, count: int = 12) -> list[tuple[str, int, float, float]]:
        """The labels (at any depth) that took the most CPU over all turns: (label, deliveries, total s, max s),
        each delivery's own time (without the events inside it)."""
        sums: dict[str, list] = {}
        todo = [n for nodes in self.in_turn.values() for n in nodes]
        while todo:
            node = todo.pop()
            todo.extend(node.children)
            entry = sums.setdefault(node.label, [0, 0.0, 0.0])
            own = node.own()
            entry[0] += 1
            entry[1] += own
            entry[2] = max(entry[2], own)
        ranked = sorted(sums.items(), key=lambda kv: -kv[1][1])[:count]
        return [(label, v[0], v[1], v[2]) for label, v in ranked]


def timed_application(tree_holder: list):
    """A QApplication whose ``notify`` goes through ``tree_holder[0].deliver`` once an EventTree is put there."""

    class TimedApplication(QtWidgets.QApplication):
        def notify(self, obj, event):   # noqa: D401 - Qt's name
            tree = tree_holder[0] if tree_holder else None
            if tree is None or not tree.on:
                return super().notify(obj, event)
            return tree.deliver(obj, event, lambda: super(TimedApplication, self).notify(obj, event))

    return TimedApplication([])

"""An operation that fails part way for a reason no check could foresee: memory running out as a scalable filter
opens a stage or a batch's arrays are made, a compiled kernel raising, Ctrl-C. Everything it changed is put back
(operations.py, from a checkpoint taken before it), and the user is told what failed, in words.

The checks before an operation (limits.py) refuse what they can name: those refusals say "Refused". What comes
here was let through and failed while it ran, so the message says "Stopped", what was being done and why; a
``MemoryError`` carries no text of its own, so the message gives the sizes involved (what the filter takes, what
the window keeps for it, what a new stage would need).

A job's chunk that cannot be put back alone (inside a job no step keeps a copy of the filter per chunk) raises
``ChunkFailed`` to the job, which goes back to where it started (jobs.py). An interruption (``KeyboardInterrupt``,
a ``SystemExit``) is put back the same way and then raised again: it is the user's or the system's, not ours to
swallow.
"""

from __future__ import annotations

from bloomviz.i18n import number, tr
from bloomviz.items.encoding import describe
from bloomviz.theory.units import human_bytes


class ChunkFailed(Exception):
    """A job's chunk failed and its own operation could not put it back: the job goes back to its start.
    ``text``: what to tell the user; ``cause``: the exception, raised again after the job went back when it is
    an interruption."""

    def __init__(self, text: str, cause: BaseException):
        super().__init__(text)
        self.text = text
        self.cause = cause


def interrupted(exc: BaseException) -> bool:
    """Whether ``exc`` is not an error but a stop (Ctrl-C, an exit): put back, then raised again."""
    return not isinstance(exc, Exception)


def inserting(item=None, count: int = 0) -> str:
    """What was being done, for the message: one item's insert or a batch's."""
    if item is not None:
        return tr("insert “{item}”").format(item=describe(item, 30))
    return tr("insert a batch of {count} items").format(count=number(count))


def failure_message(exc: BaseException, what: str, flt=None, kept: int | None = None, new_bits: int = 0) -> str:
    """The message for ``exc``, raised while doing ``what`` (``inserting``'s words) to ``flt``; ``kept``: the bytes
    the window keeps for the filter; ``new_bits``: the bits of the stages the operation would open."""
    if isinstance(exc, MemoryError):
        sizes = []
        if new_bits:
            sizes.append(tr("its new stages need {size}").format(size=human_bytes(-(-new_bits // 8))))
        if flt is not None:
            sizes.append(tr("the filter takes {size}").format(size=human_bytes(flt.nbytes())))
        if kept:
            sizes.append(tr("the window keeps {size} for it").format(size=human_bytes(kept)))
        return tr("Stopped: not enough memory to {what} ({sizes}). Nothing was changed.").format(
            what=what, sizes="; ".join(sizes) or tr("no size known"))
    if interrupted(exc):
        return tr("Stopped: “{what}” was interrupted ({error}). Nothing was changed.").format(
            what=what, error=type(exc).__name__)
    detail = f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__
    return tr("Stopped: could not {what} ({error}). Nothing was changed.").format(what=what, error=detail)

"""An operation that fails part way for a reason no check could foresee: memory running out as a scalable filter
opens a stage or a batch's arrays are made, a compiled kernel raising, Ctrl-C. Everything it changed is put back
(operations.py, from a checkpoint taken before it), and the user is told what failed, in words.

The checks before an operation (limits.py) refuse what they can name: those refusals say "Refused". What comes
here was let through and failed while it ran, so the message says "Stopped", what was being done and why; a
``MemoryError`` carries no text of its own, so the message gives the sizes involved (what the filter takes, what
the window keeps for it, what a new stage would need).

A job's chunk raises ``ChunkFailed`` to the job: put back alone (a job with nothing else to go back to keeps a
log of each chunk's bits), the job ends with the chunks before it; else the job goes back to where it started
(jobs.py). A batch whose filter could be neither copied nor logged within the memory budget is put back but for
the filter, and the message says that it may be partly in it. An interruption (``KeyboardInterrupt``,
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
    an interruption; ``put_back``: the chunk itself was put back exactly (the job keeps the chunks before it)."""

    def __init__(self, text: str, cause: BaseException, put_back: bool = False):
        super().__init__(text)
        self.text = text
        self.cause = cause
        self.put_back = put_back


def interrupted(exc: BaseException) -> bool:
    """Whether ``exc`` is not an error but a stop (Ctrl-C, an exit): put back, then raised again."""
    return not isinstance(exc, Exception)


def inserting(item=None, count: int = 0) -> str:
    """What was being done, for the message: one item's insert or a batch's."""
    if item is not None:
        return tr("insert “{item}”").format(item=describe(item, 30))
    return tr("insert a batch of {count} items").format(count=number(count))


def removing(item) -> str:
    """What was being done, for the message: one item's removal."""
    return tr("remove “{item}”").format(item=describe(item, 30))


def failure_message(exc: BaseException, what: str, flt=None, kept: int | None = None, new_bits: int = 0,
                    partly: bool = False) -> str:
    """The message for ``exc``, raised while doing ``what`` (``inserting``'s words) to ``flt``; ``kept``: the bytes
    the window keeps for the filter; ``new_bits``: the bits of the stages the operation would open; ``partly``:
    the filter could not be put back (the rest was)."""
    if partly:
        return _stopped_partly(exc, what, flt, kept, new_bits)
    if isinstance(exc, MemoryError):
        return tr("Stopped: not enough memory to {what} ({sizes}). Nothing was changed.").format(
            what=what, sizes=_sizes(flt, kept, new_bits))
    if interrupted(exc):
        return tr("Stopped: “{what}” was interrupted ({error}). Nothing was changed.").format(
            what=what, error=type(exc).__name__)
    return tr("Stopped: could not {what} ({error}). Nothing was changed.").format(what=what, error=_detail(exc))


def _stopped_partly(exc: BaseException, what: str, flt, kept: int | None, new_bits: int) -> str:
    if isinstance(exc, MemoryError):
        first = tr("Stopped: not enough memory to {what} ({sizes}).").format(
            what=what, sizes=_sizes(flt, kept, new_bits))
    elif interrupted(exc):
        first = tr("Stopped: “{what}” was interrupted ({error}).").format(what=what, error=type(exc).__name__)
    else:
        first = tr("Stopped: could not {what} ({error}).").format(what=what, error=_detail(exc))
    return first + " " + tr("Part of it may be in the filter (some of its bits, without its items): the filter "
                            "was too big to keep a way back.")


def _detail(exc: BaseException) -> str:
    return f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__


def _sizes(flt, kept: int | None, new_bits: int) -> str:
    sizes = []
    if new_bits:
        sizes.append(tr("its new stages need {size}").format(size=human_bytes(-(-new_bits // 8))))
    if flt is not None:
        sizes.append(tr("the filter takes {size}").format(size=human_bytes(flt.nbytes())))
    if kept:
        sizes.append(tr("the window keeps {size} for it").format(size=human_bytes(kept)))
    return "; ".join(sizes) or tr("no size known")

"""Guards a test puts around a call that must not block: on a FIFO or a device file a read can wait for ever."""

from __future__ import annotations

import contextlib
import signal


@contextlib.contextmanager
def no_hang(seconds: int = 20, who: str = "the call"):
    """Fails with TimeoutError when the block takes longer than ``seconds`` (SIGALRM: the main thread only)."""
    def fail(*_):
        raise TimeoutError(f"{who} blocked on a special file")
    old = signal.signal(signal.SIGALRM, fail)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)

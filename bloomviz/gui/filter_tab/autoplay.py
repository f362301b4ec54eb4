"""Auto-play: insert a stream of items at a chosen rate, with Play, Pause, Step, Cancel and Reset.

Item sources are reproducible: seeded random strings (``i`` + 16 hex digits; item j of seed s is the same
whatever the rate or chunking), or the built-in English word list in a seeded order. The random items are
``items.generated.GeneratedItems`` (distinct by construction, made in numpy), the generator ``simulate`` uses:
since it replaced a per-block draw of random bytes, a seed gives other strings than it did before.

How items go in depends on the rate:

- up to ``SINGLE_MAX_RATE`` a second: one ``QtWorkbench.insert`` per timer tick, so every item lights its k bits
  on the grid and is explained;
- faster: a tick every ``BATCH_TICK_MS`` inserts the items due in that time as one batch;
- ``MAX_RATE`` ("as fast as possible"): the workbench's chunked job, which sizes chunks to keep each event-loop
  turn short; Pause and Cancel stop it between chunks, so the state is always whole chunks.

Batches of random items go to the model as ``GeneratedRun``s (a range of the generator), never as strings:
the model hashes them from numpy words and keeps them as runs, so ten million items cost no Python object each.

Pause keeps the stream's position (Play resumes it); Cancel ends the run (the items already in stay);
Reset cancels, empties the filter and rewinds the stream.
"""

from __future__ import annotations

from importlib import resources

import numpy as np
from PySide6 import QtCore

from bloomviz.gui.timing import ChunkRunner
from bloomviz.gui.workbench import QtWorkbench
from bloomviz.items.generated import GeneratedItems, GeneratedRun
from bloomviz.i18n import number, tr

MAX_RATE = 0            # "as fast as possible"
SINGLE_MAX_RATE = 20    # up to this many a second, each item is inserted (and highlighted) on its own
BATCH_TICK_MS = 50
RATES = (1, 2, 5, 10, 20, 100, 1_000, 10_000, MAX_RATE)
# words first: the default, so a history and a false positive's culprits read as words, not hex strings
SOURCES = {"words": "Words (built-in)", "random": "Random (seeded)"}

IDLE, RUNNING, PAUSED = "idle", "running", "paused"


def load_words() -> list[str]:
    text = resources.files("bloomviz.data").joinpath("words.txt").read_text(encoding="utf-8")
    return [w for w in text.split("\n") if w]


class ItemStream:
    """A reproducible, endless (random) or finite (words) stream of items with a read position."""

    def __init__(self, source: str = "random", seed: int = 0):
        if source not in SOURCES:
            raise ValueError(f"unknown item source {source!r}; known: {', '.join(SOURCES)}")
        self.source = source
        self.seed = int(seed)
        self.position = 0
        if source == "words":
            words = load_words()
            order = np.random.default_rng(self.seed).permutation(len(words))
            self._words = [words[i] for i in order]
            self._random = None
        else:
            self._words = None
            self._random = GeneratedItems(2 ** 63 - 1, seed=self.seed, prefix="i")   # endless in practice

    @property
    def length(self) -> int | None:
        """How many items the stream holds (None: endless)."""
        return None if self._words is None else len(self._words)

    def remaining(self) -> int | None:
        return None if self._words is None else len(self._words) - self.position

    def peek(self, count: int) -> list[str]:
        if self._words is not None:
            return self._words[self.position: self.position + count]
        return self._random.texts(self.position, self.position + count)

    def take(self, count: int) -> list[str]:
        items = self.peek(count)
        self.position += len(items)
        return items

    def take_run(self, count: int) -> list[str] | GeneratedRun:
        """The next ``count`` items as ``take`` gives them, but random items as a ``GeneratedRun``: the model
        hashes and remembers them as numbers, never as ``count`` strings."""
        if self._random is None:
            return self.take(count)
        run = GeneratedRun(self._random, self.position, self.position + count)
        self.position = run.stop
        return run

    def rewind(self) -> None:
        self.position = 0


class AutoPlay(QtCore.QObject):
    stateChanged = QtCore.Signal(str)
    progress = QtCore.Signal(object, object)   # inserted in this run, run length (object: Qt's int is 32-bit)
    message = QtCore.Signal(str)

    def __init__(self, workbench: QtWorkbench, parent=None):
        super().__init__(parent)
        self._wb = workbench
        self._state = IDLE
        self._rate = 10
        self._count = 1_000
        self._stream = ItemStream("words", 0)
        self._done = 0          # inserted in the current run
        self._job_base = 0      # _done when the current workbench job started
        self._ticks = ChunkRunner(self._tick, self)
        self._own_job = False
        workbench.progress.connect(self._on_job_progress)
        workbench.jobFinished.connect(self._on_job_finished)
        workbench.filterReset.connect(self._on_filter_reset)

    # --- settings --------------------------------------------------------------------------------------------
    @property
    def state(self) -> str:
        return self._state

    @property
    def rate(self) -> int:
        return self._rate

    @property
    def count(self) -> int:
        return self._count

    @property
    def stream(self) -> ItemStream:
        return self._stream

    @property
    def done(self) -> int:
        return self._done

    def set_rate(self, rate: int) -> None:
        if rate not in RATES:
            raise ValueError(f"rate must be one of {RATES} (0 = as fast as possible), got {rate!r}")
        running = self._state == RUNNING
        if running:
            self._stop_driving()
        self._rate = rate
        if running:
            self._drive()

    def set_count(self, count: int) -> None:
        if isinstance(count, bool) or not isinstance(count, int) or not 1 <= count <= 100_000_000:
            raise ValueError(f"the number of items must be from 1 to 100,000,000, got {count!r}")
        self._count = count

    def set_source(self, source: str, seed: int = 0) -> None:
        """Choose the item stream (rewinds it). Stops a run in progress."""
        if self._state != IDLE:
            self.cancel()
        self._stream = ItemStream(source, seed)

    # --- control ---------------------------------------------------------------------------------------------
    def start(self) -> None:
        """Play: start a run of ``count`` items, or resume a paused one."""
        if self._state == RUNNING:
            return
        if self._state == IDLE:
            self._done = 0
        self._set_state(RUNNING)
        self._drive()

    def pause(self) -> None:
        if self._state != RUNNING:
            return
        self._stop_driving()
        self._set_state(PAUSED)

    def toggle(self) -> None:
        self.pause() if self._state == RUNNING else self.start()

    def step(self) -> bool:
        """Insert the next item on its own (pausing a run first). False when the stream is exhausted."""
        if self._state == RUNNING:
            self.pause()
        items = self._stream.take(1)
        if not items:
            self.message.emit(tr("The word list is exhausted; Reset starts it again."))
            return False
        if self._wb.insert(items[0]) is None:
            return False
        if self._state == PAUSED:
            self._done += 1
            self.progress.emit(self._done, self._count)
        return True

    def cancel(self) -> None:
        """End the run; the items already inserted stay."""
        if self._state == IDLE:
            return
        self._stop_driving()
        self._set_state(IDLE)
        self.message.emit(tr("Auto-play stopped after {count} items.").format(count=number(self._done)))

    def reset(self) -> None:
        """Cancel, empty the filter and rewind the item stream."""
        self._stop_driving()
        self._set_state(IDLE)
        self._stream.rewind()
        self._done = 0
        self._wb.reset()
        self.progress.emit(0, self._count)

    # --- driving ---------------------------------------------------------------------------------------------
    def _left(self) -> int:
        left = self._count - self._done
        remaining = self._stream.remaining()
        return left if remaining is None else min(left, remaining)

    def _drive(self) -> None:
        if self._left() <= 0:
            self._finish()
            return
        if self._rate == MAX_RATE:
            self._job_base = self._done
            self._own_job = self._wb.run_job(self._stream.take_run, self._left(), "auto-play items")
            if not self._own_job:
                self._set_state(PAUSED)
        elif self._rate <= SINGLE_MAX_RATE:
            self._ticks.start(round(1000 / self._rate))
        else:
            self._ticks.start(BATCH_TICK_MS)

    def _stop_driving(self) -> None:
        self._ticks.stop()
        if self._own_job:
            self._own_job = False
            self._wb.cancel()

    def _tick(self) -> bool:
        """One item (or one batch at the higher rates); False when the run has ended."""
        if self._rate <= SINGLE_MAX_RATE:
            items = self._stream.take(1) if self._left() > 0 else []
            ok = bool(items) and self._wb.insert(items[0]) is not None
            self._done += 1 if ok else 0
        else:
            want = min(self._left(), max(1, round(self._rate * BATCH_TICK_MS / 1000)))
            items = self._stream.take_run(want) if want > 0 else []
            ok = len(items) > 0 and self._wb.insert_batch(items) == len(items)
            self._done += len(items) if ok else 0
        self.progress.emit(self._done, self._count)
        if not ok or self._left() <= 0:
            self._finish()
            return False
        return True

    def _on_job_progress(self, done: int, total: int) -> None:
        if self._own_job:
            self._done = self._job_base + done
            self.progress.emit(self._done, self._count)

    def _on_job_finished(self, done: int, total: int, cancelled: bool) -> None:
        if not self._own_job:
            return
        self._own_job = False
        self._done = self._job_base + done
        self.progress.emit(self._done, self._count)
        if self._state == RUNNING:
            if cancelled:   # cancelled from elsewhere (the status bar's Cancel, a new filter)
                self._set_state(IDLE)
            else:
                self._finish()

    def _on_filter_reset(self) -> None:
        if self._state != IDLE:
            self._stop_driving()
            self._set_state(IDLE)

    def _finish(self) -> None:
        self._ticks.stop()
        self._set_state(IDLE)
        exhausted = self._stream.remaining() == 0
        self.message.emit(tr("Auto-play inserted {count} items — the whole word list." if exhausted
                             else "Auto-play inserted {count} items.").format(count=number(self._done)))

    def _set_state(self, state: str) -> None:
        if state != self._state:
            self._state = state
            self.stateChanged.emit(state)

"""Long work as a steppable object: a job is advanced one chunk per ``step()``, by whoever owns the clock.

The model never waits and owns no timer: the window's adapter calls ``Workbench.step_job()`` from a zero-delay
Qt timer, a test or a script calls it in a loop. Each chunk is committed whole (filter, measurement, series,
truth, history together) or not at all, so a cancel between steps leaves a consistent state.

Work is sized by work, redraws by time: a chunk is sized to take about ``TARGET_TICK_S`` of this thread's CPU
(``time.thread_time``), and every ``FRAME_INTERVAL_S`` of wall time one step is left to the window's redraws,
but never two in a row. Sized by wall time, a busy machine (other processes taking the cores) made every chunk
look slow and shrank it to the minimum, and a redraw slower than the interval made every step a redraw: a
300,000-line import took 565 s at load 15 against 0.66 s idle.

The wall clock still bounds a chunk, within limits: on a loaded machine a chunk of 10 ms of CPU can take 30-60 ms
of wall time (the thread waits for a core between its slices), and the event loop waits with it. So a chunk is
also sized to take about ``WALL_TICK_S`` of wall time at the wall time per item measured on the last chunks, but
never less than ``WALL_FLOOR`` of its CPU-sized length: a machine so busy that every chunk looks slow gets chunks
a quarter as long (a few more steps' overhead, ~0.3 ms each), never the minimum.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Callable, Iterable, Sequence

from bloomviz.i18n import number, ptr, tr
from bloomviz.items.generated import GeneratedRun
from bloomviz.filters.rollback import JobLog
from bloomviz.workbench.failures import ChunkFailed, failure_message, interrupted
from bloomviz.workbench.undo import job_checkpoint

# Qt fires each due timer once per round, a zero-delay step first: two steps can fall between two turns that
# handle input. A step aims at a tenth of the 50 ms a stall may take: on 2 shared cores at load 4-7 the GUI
# thread gets a third of a core, and a turn of 10 ms of CPU took 30-50 ms of wall time (benchmarks/
# bench_stalls.py: chunk turns of 9-17 ms of CPU at 10 ms, 56-59 ms at 20 ms). At 0.15 us an insert (auto-play
# of generated runs) that is still ~30,000 inserts a step, whose fixed cost (~0.4 ms) stays under a tenth.
TARGET_TICK_S = 0.005
# A chunk's wall time, so that a chunk stays within ~20 ms under load. At 10 ms the wall clock could shrink a
# chunk at load 9-10 to a quarter of its CPU-sized length (1.25 ms of CPU, a third of it the chunk's fixed cost):
# auto-plays of 10^7 took 10-22 s there against 6-13 s with 20 ms, and the worst turns were paints, not chunks.
WALL_TICK_S = 0.020
WALL_FLOOR = 0.25        # the wall clock shrinks a chunk to no less than this share of its CPU-sized length
FRAME_INTERVAL_S = 0.100
MIN_CHUNK, MAX_CHUNK = 512, 200_000

# What one step did. PAINT: nothing, the turns after a frame, so that the window paints what the frame redrew in
# turns of their own (Qt paints at the start of the next turn: with the next chunk, auto-play of 10^7 items had
# turns of 54 ms of the GUI thread's CPU, a chunk and a paint). Two of them: a plot's items tell their scene, the
# scene tells its view in a queued call, and the view is painted a turn after that; with one, the plot's axes and
# curves were painted with the next chunk (benchmarks/bench_stalls.py: chunk turns' CPU beside the chunk up to
# 21-26 ms, against 12 ms with two).
FRAME, PAINT, MORE, DONE, FAILED, REFUSED = "frame", "paint", "more", "done", "failed", "refused"
PAINT_TURNS = 2


@dataclass(frozen=True)
class JobStep:
    outcome: str          # FRAME, PAINT, MORE, DONE, FAILED, REFUSED
    message: str = ""     # why it failed
    # a chunk that failed part way and could not be put back alone (failures.ChunkFailed): the job goes back to
    # its start, whether it is all or nothing or not
    whole: bool = False
    cause: BaseException | None = None     # an interruption, raised again once the job went back


class Job:
    def __init__(self, source: Callable[[int], Sequence[object]], total: int, label: str,
                 checkpoint=None, progress_of: Callable[[], tuple[int, int]] | None = None,
                 step: Callable[[int], int] | None = None):
        self.checkpoint = checkpoint  # all-or-nothing jobs go back here on a cancel or a failure
        # A job whose length is not known up front (a file's lines, never counted first) reports its own
        # (done, estimated total); ``total`` is then only an upper bound.
        self.progress_of = progress_of
        # A job of any operations (a session's replay): step(count) makes up to count of them and returns how
        # many it made (0: done). Its operations cost far more than an insert, so it starts with small steps.
        self.step = step
        self.min_chunk = 1 if step is not None else MIN_CHUNK
        self.source = source        # source(count) -> the next items (fewer at the end; empty = done), or a
        #                             GeneratedRun of them
        self.total = int(total)
        self.done = 0
        self.label = job_label(label)
        self.chunk = 8 if step is not None else 4_096   # adapted after every step to stay near TARGET_TICK_S
        self.undo_saved = None      # the undo step kept before the job, if any
        self.per_item: float | None = None          # this thread's CPU per item, smoothed
        self.wall_per_item: float | None = None     # wall time per item, smoothed
        self.started = time.perf_counter()
        self.last_frame = self.started
        self.chunks_since_frame = 0
        self.paint_turns = 0        # steps left to the painting after a frame

    @property
    def progress(self) -> tuple[int, int]:
        return (self.done, self.total) if self.progress_of is None else self.progress_of()

    def advance(self, insert_batch: Callable[[list], int]) -> JobStep:
        """One step: a redraw frame, or one chunk through ``insert_batch`` (or the job's own ``step``)."""
        if self.paint_turns:
            self.paint_turns -= 1
            return JobStep(PAINT)
        started = time.perf_counter()
        if self.chunks_since_frame and started - self.last_frame >= FRAME_INTERVAL_S:
            # Every so often a step goes to the window's redraws instead of to a chunk, so that a chunk and a
            # redraw never add up in one turn of the event loop; a chunk comes between two redraws whatever
            # the redraws take.
            self.last_frame, self.chunks_since_frame, self.paint_turns = started, 0, PAINT_TURNS
            return JobStep(FRAME)
        cpu = time.thread_time()
        want = min(self.chunk, self.total - self.done)
        try:
            if self.step is not None:
                made = self.step(want) if want > 0 else 0
                if not made:
                    return JobStep(DONE)
            else:
                try:
                    items = self.source(want) if want > 0 else []
                    if not isinstance(items, (list, GeneratedRun)):   # (a run stays numbers: no list of strings)
                        items = list(items)
                except (OSError, ValueError) as exc:
                    return JobStep(FAILED, tr("Bulk insert of {label} stopped: {error}").format(label=self.label,
                                                                                               error=exc))
                except BaseException as exc:    # nothing of this chunk was inserted: as a refusal
                    what = tr("read the next {label}").format(label=self.label)
                    return JobStep(FAILED, failure_message(exc, what), cause=exc if interrupted(exc) else None)
                if not items:
                    return JobStep(DONE)
                made = insert_batch(items)
        except ChunkFailed as failed:   # (a chunk put back alone: the job keeps the chunks before it)
            return JobStep(FAILED, failed.text, whole=not failed.put_back,
                           cause=failed.cause if interrupted(failed.cause) else None)
        if made == 0:
            return JobStep(REFUSED)
        self.done += made
        self.chunks_since_frame += 1
        per_item = (time.thread_time() - cpu) / made
        wall_per_item = (time.perf_counter() - started) / made
        # Smooth the estimates (one slow chunk, e.g. a garbage collection, should not halve the next one) and
        # grow the chunk gently, so that no single step runs long.
        self.per_item = per_item if self.per_item is None else 0.6 * self.per_item + 0.4 * per_item
        self.wall_per_item = (wall_per_item if self.wall_per_item is None
                              else 0.6 * self.wall_per_item + 0.4 * wall_per_item)
        by_cpu = TARGET_TICK_S / max(self.per_item, 1e-9)
        by_wall = WALL_TICK_S / max(self.wall_per_item, 1e-9)
        want_next = max(min(by_cpu, by_wall), WALL_FLOOR * by_cpu)
        self.chunk = int(min(MAX_CHUNK, self.chunk * 1.5 + 1, max(self.min_chunk, want_next)))
        return JobStep(MORE)

    def summary(self, cancelled: bool, reason: str, rolled_back: bool) -> str:
        """The status line at a job's end, in the window's language (a label Croatian says as a count's noun,
        "umetnuto elemenata: 1.000 od 10.000", not declined to the count)."""
        elapsed = time.perf_counter() - self.started
        said = dict(stopped=stopped_words(reason), done=number(self.done), label=self.label,
                    of=tr(" of {total}").format(total=number(self.total)) if self.progress_of is None else "")
        if cancelled and rolled_back:
            return tr("{stopped} after {done}{of} {label}; everything was put back as it was before it "
                      "started.").format(**said)
        if cancelled:
            return tr("{stopped} after {done}{of} {label}; the filter, plot and history hold exactly those "
                      "{done}.").format(**said)
        return tr("Inserted {done} {label} in {seconds} s.").format(**said, seconds=number(elapsed, 2))


# A job's end other than done, by the outcome that ended it (a step's outcome is a word of the code, not the
# window's)
STOPPED = {"cancelled": "Bulk insert cancelled", FAILED: "Bulk insert failed", REFUSED: "Bulk insert refused"}


def stopped_words(reason: str) -> str:
    return tr(STOPPED[reason]) if reason in STOPPED else tr("Bulk insert stopped ({reason})").format(reason=reason)


def job_label(label: str) -> str:
    """A job's label in the window's language: "items", "pasted lines" … as a count's noun (context "job"); a
    label made with its own values ("lines of words.txt") is translated by its maker and passes unchanged."""
    return ptr("job", label)


class Jobs:
    """The workbench's one job at a time: starting, stepping, finishing and cancelling it (``Workbench`` holds
    one and forwards its public methods, where their docstrings are). It is handed the workbench, of which it
    uses the public side (``events``, ``checkpoint()``, ``rollback()``, ``reserve()``, ``prepare_measurement()``,
    ``insert_batch()``) and the workbench's ``Undo`` (undo.py), which keeps a bulk insert as one step."""

    def __init__(self, bench, *, undo):
        self._bench, self._undo = bench, undo
        self.job: Job | None = None     # the running job (the workbench's ``busy`` reads it)
        self._prepared = True           # False from a job's start until its first step prepared the measurement

    def insert_many(self, items: Iterable[object], label: str = "items") -> bool:
        items = items if isinstance(items, list) else list(items)
        pos = [0]

        def source(count: int) -> list:
            chunk = items[pos[0]: pos[0] + count]
            pos[0] += len(chunk)
            return chunk

        return self.run_job(source, len(items), label)

    def run_job(self, source: Callable[[int], Sequence[object]], total: int, label: str = "items",
                atomic: bool = False, progress_of: Callable[[], tuple[int, int]] | None = None) -> bool:
        """Insert ``total`` items drawn from ``source(count)`` in chunks, one chunk per ``step()``.

        ``source`` may raise ``OSError``/``ValueError`` (a file gone bad mid-way): the job ends, reported by
        ``error``. With ``atomic`` a cancel, a refusal or such a failure puts everything back as it was before
        the job (an import is all or nothing); without it, the chunks committed so far stay.
        """
        back = None
        if atomic:    # the logs of its chunks when smaller than a copy (an import into a big opened filter)
            back = job_checkpoint(self._bench.state, int(total)) or self._bench.checkpoint()
        return self._start(Job(source, total, label, back, progress_of), reserve=int(total) if progress_of is None
                           else 0)

    def run_steps(self, step: Callable[[int], int], total: int, label: str) -> bool:
        """Run ``step(count)`` until it returns 0: each call makes up to ``count`` operations through the model
        and returns how many it made. Progress, Cancel and ``busy`` as for bulk inserts; what a cancel should
        undo is the caller's (``job_finished`` says it was cancelled)."""
        return self._start(Job(lambda count: (), total, label, step=step), reserve=0)

    def _start(self, job: Job, reserve: int) -> bool:
        if self.job is not None:
            self._bench.events.error.emit(tr("Another bulk insert is running; cancel it first."))
            return False
        if job.step is None:   # undo takes a whole bulk insert back, not one chunk
            job.undo_saved = self._undo.keep_job(job.label, job.checkpoint, job.total)
        self.job = job
        self._prepared = False
        self._undo.in_job = True
        # nothing to go back to (a filter past the undo budget, quiet, not all or nothing): each chunk keeps a
        # log of its own; a replay's steps are put back by their caller
        self._undo.chunks_go_back = job.step is None and job.checkpoint is None and job.undo_saved is None
        back = job.checkpoint if job.checkpoint is not None else job.undo_saved
        self._undo.job_log = back.log if back is not None and isinstance(back.log, JobLog) else None
        self._bench.reserve(reserve)
        self._bench.events.busy_changed.emit(True)
        self._bench.events.progress.emit(*job.progress)
        return True

    def step(self) -> bool:
        job, events = self.job, self._bench.events
        if job is None:
            return False
        if not self._prepared:
            # The measurement's probe-bit map, built in a step of its own: inside the first chunk it made that
            # chunk's turn 11-15 ms of the GUI thread's CPU at 10^4 probes (benchmarks/bench_stalls.py)
            self._prepared = True
            self._bench.prepare_measurement()
            return True
        step = job.advance(self._bench.insert_batch)
        if step.outcome == FRAME:
            events.frame.emit()
        elif step.outcome == PAINT:
            pass
        elif step.outcome == MORE:
            # The end is announced on the next step, not in this one: the redraws it triggers then run in a
            # turn of their own instead of adding to this chunk's.
            events.progress.emit(*job.progress)
        elif step.outcome == DONE:
            self._finish(cancelled=False)
        else:
            if step.message:
                events.error.emit(step.message)
            self._finish(cancelled=True, reason=step.outcome, whole=step.whole)
            if step.cause is not None:
                raise step.cause
        return self.job is not None

    def _finish(self, cancelled: bool, reason: str = "cancelled", whole: bool = False) -> None:
        """``whole``: a chunk failed part way, so the job goes back to its start even if it is not all or nothing
        (to the undo step kept before it, which holds the filter as it was)."""
        job, self.job = self.job, None
        self._undo.in_job = self._undo.chunks_go_back = False
        self._undo.job_log = None
        back_to = job.checkpoint if job.checkpoint is not None or not whole else job.undo_saved
        rolled_back = cancelled and back_to is not None
        if rolled_back:
            self._bench.rollback(back_to)
        if rolled_back or job.done == 0:
            self._undo.drop(job.undo_saved)   # nothing of the job is left to undo
        elif job.undo_saved is not None and job.undo_saved.log is not None:
            self._undo.recount(job.undo_saved)   # its chunks' logs, counted as they are now
        events = self._bench.events
        if whole and not rolled_back:
            # no copy of the filter to go back to (one past the undo budget, or a replay's steps, whose caller
            # puts its own state back): said as it is
            events.notice.emit(tr("{stopped} after {done} {label}; the chunk that failed may be partly in the "
                                  "filter, without its items.").format(stopped=stopped_words(reason),
                                                                       done=number(job.done), label=job.label))
        else:
            events.notice.emit(job.summary(cancelled, reason, rolled_back))
        events.busy_changed.emit(False)
        events.job_finished.emit(job.done, job.total, cancelled)

    def cancel(self) -> None:
        if self.job is not None:
            self._finish(cancelled=True)

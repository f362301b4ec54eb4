"""Bulk work is sized by work and redrawn by time (issue 27 item 10): on a machine so busy that every step looks
slow by the wall clock, chunks keep their size (sized by this thread's CPU time) and a chunk comes between two
redraw frames, instead of chunks shrinking to the minimum and every step becoming a redraw."""

from __future__ import annotations

import itertools

from bloomviz.workbench import jobs


def test_a_busy_wall_clock_neither_shrinks_chunks_nor_starves_them(monkeypatch):
    wall = itertools.count(0, 1.0)          # every look at the clock: one more second gone (a loaded machine)
    monkeypatch.setattr(jobs.time, "perf_counter", lambda: float(next(wall)))
    job = jobs.Job(lambda count: ["x"] * count, total=10_000_000, label="items")
    outcomes = [job.advance(len).outcome for _ in range(40)]
    chunks = outcomes.count(jobs.MORE)
    # frame, paint, paint, chunk, frame, paint, paint, chunk …
    assert outcomes.count(jobs.FRAME) <= chunks and chunks >= 40 // (jobs.PAINT_TURNS + 2)
    assert all(a != b or a != jobs.FRAME for a, b in zip(outcomes, outcomes[1:]))   # never two frames in a row
    # the turns after a frame are left to the painting of what it redrew, never to a chunk
    after = jobs.PAINT_TURNS
    assert all(outcomes[i + 1:i + 1 + after] == [jobs.PAINT] * after
               for i, a in enumerate(outcomes[:-after]) if a == jobs.FRAME)
    assert job.chunk > 10 * jobs.MIN_CHUNK and job.done > 40 * jobs.MIN_CHUNK


def test_an_idle_machine_still_redraws_by_time(monkeypatch):
    wall = itertools.count(0, 0.001)        # 1 ms per look: a redraw frame every 100 ms of work
    monkeypatch.setattr(jobs.time, "perf_counter", lambda: float(next(wall)))
    job = jobs.Job(lambda count: ["x"] * count, total=10_000_000, label="items")
    outcomes = [job.advance(len).outcome for _ in range(300)]
    assert 1 <= outcomes.count(jobs.FRAME) <= 300 // 40


class _Clocks:
    """This thread's CPU and the wall clock, advanced by the work itself: ``wait`` seconds of the wall clock pass
    for each second of CPU (a machine where the thread waits for a core between its slices)."""

    def __init__(self, per_item: float, wait: float):
        self.cpu = self.wall = 0.0
        self.per_item, self.wait = per_item, wait

    def work(self, items) -> int:
        self.cpu += len(items) * self.per_item
        self.wall += len(items) * self.per_item * self.wait
        return len(items)


def _chunks_on(monkeypatch, wait: float) -> jobs.Job:
    clocks = _Clocks(per_item=1e-6, wait=wait)
    monkeypatch.setattr(jobs.time, "perf_counter", lambda: clocks.wall)
    monkeypatch.setattr(jobs.time, "thread_time", lambda: clocks.cpu)
    job = jobs.Job(lambda count: ["x"] * count, total=10 ** 9, label="items")
    for _ in range(60):
        job.advance(clocks.work)
    return job


def test_chunks_keep_to_a_wall_budget_on_a_loaded_machine(monkeypatch):
    by_cpu = jobs.TARGET_TICK_S / 1e-6                      # the chunk an idle machine runs: TARGET_TICK_S of CPU
    assert abs(_chunks_on(monkeypatch, wait=1.0).chunk - by_cpu) <= 1
    # a wall clock per CPU second past WALL_TICK_S / TARGET_TICK_S: a chunk takes WALL_TICK_S of the wall clock
    loaded = 1.5 * jobs.WALL_TICK_S / jobs.TARGET_TICK_S
    assert abs(_chunks_on(monkeypatch, wait=loaded).chunk - jobs.WALL_TICK_S / (loaded * 1e-6)) <= 1
    # a machine so far over that the wall clock would go below the floor: the floor (the steps' own overhead
    # would eat the work)
    over = 2 * jobs.WALL_TICK_S / (jobs.WALL_FLOOR * jobs.TARGET_TICK_S)
    assert abs(_chunks_on(monkeypatch, wait=over).chunk - jobs.WALL_FLOOR * by_cpu) <= 1

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
    assert outcomes.count(jobs.FRAME) <= chunks and chunks >= 13      # frame, paint, chunk, frame, paint, chunk …
    assert all(a != b or a != jobs.FRAME for a, b in zip(outcomes, outcomes[1:]))   # never two frames in a row
    # the turn after a frame is left to the painting of what it redrew, never to a chunk
    assert all(b == jobs.PAINT for a, b in zip(outcomes, outcomes[1:]) if a == jobs.FRAME)
    assert job.chunk > 10 * jobs.MIN_CHUNK and job.done > 40 * jobs.MIN_CHUNK


def test_an_idle_machine_still_redraws_by_time(monkeypatch):
    wall = itertools.count(0, 0.001)        # 1 ms per look: a redraw frame every 100 ms of work
    monkeypatch.setattr(jobs.time, "perf_counter", lambda: float(next(wall)))
    job = jobs.Job(lambda count: ["x"] * count, total=10_000_000, label="items")
    outcomes = [job.advance(len).outcome for _ in range(300)]
    assert 1 <= outcomes.count(jobs.FRAME) <= 300 // 40

"""The window's longest event-loop turns during an auto-play of 10^7 items with the plot in view, against the
same window idle, in one process (issue 23: the auto-play never stalls the event loop over 50 ms).

    python benchmarks/bench_stalls.py [--n 10000000] [--m 95850584] [--k 7] [--rounds 1] [--idle 4]

The main window as ``bloomviz`` opens it (every part installed, 1440 x 900, offscreen, cyclic garbage collected on
a timer of the GUI thread and Qt's fills kept on the GUI thread as gui.app.main does), the Filter tab shown, the
plot dock visible; the warm-up thread finished first (a warm auto-play: the first one is bench_first_paint's).
Each round measures the window idle (no job, ``--idle`` seconds: what the machine's load alone does to the loop),
then an auto-play of N random items "as fast as possible" (the Auto-play panel's own path) and the turns after
it until the truth rows are filled in idle turns and the last redraws are done. Measured in each phase:

- turns: every turn of the GUI thread's event loop, from the dispatcher's ``aboutToBlock`` to its next ``awake``
  (one glib iteration: the timers, posted events and painting that were due, input included), in wall time and
  in this thread's CPU (``time.thread_time``). A turn's wall time includes the wait for its first event (no CPU;
  under 5 ms, the heartbeat's period) and, on a loaded machine, mostly waiting for a core; its CPU is what the
  window itself takes. Turns are also grouped by what the job did in them (a chunk "more", a redraw "frame", a
  "paint" turn left to the painting, "none"), with the CPU outside the job's step.
- gaps: a 5 ms heartbeat timer's ticks; a gap (between two ticks, minus the 5 ms) is how long input would wait.
- events (``--events``, for diagnosis): every event the GUI thread delivers timed in its CPU, as a tree per turn
  (a window's paint holds each widget's paint; a timer's tick the slot it ran), ``event_tree.py``; the longest
  turns are listed with their costliest events, and the events that took the most CPU over the whole run.
- where (``--where``, for diagnosis): a 2 ms interval timer's signal, handled in the GUI thread, notes its Python
  stack while a turn has run over 15 ms; the longest turns are listed with the innermost bloomviz frames seen
  most in them (a signal is handled at the next bytecode: time in Qt's C++ shows in the Python frame after it).

Prints each phase's median, 99th percentile and worst turn and gap (wall and CPU), the job's worst against the
idle baseline, the job's longest turns by wall and by CPU, and ONE JSON line (with the load before and after).
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import json
import os
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6 import QtCore, QtWidgets  # noqa: E402

from event_tree import EventTree, timed_application  # noqa: E402  (beside this script)
from turn_clock import CallTimes, Heartbeat, TurnClock, spread_ms  # noqa: E402

GOAL_MS = 50.0
SCRATCH = tempfile.mkdtemp(prefix="bloomviz-bench-stalls-")   # settings: never the user's own


def summary(turns: list, gaps: list, seconds: float) -> dict:
    by_wall = max(turns, key=lambda t: t[1], default=(0, 0.0, 0.0))
    by_cpu = max(turns, key=lambda t: t[2], default=(0, 0.0, 0.0))
    return {"seconds": round(seconds, 2), "turns": len(turns), "ticks": len(gaps),
            # the longest turn with its CPU, the most CPU a turn took with its wall time (ms)
            "worst_wall_turn": {"wall_ms": round(by_wall[1] * 1e3, 1), "cpu_ms": round(by_wall[2] * 1e3, 1)},
            "worst_cpu_turn": {"wall_ms": round(by_cpu[1] * 1e3, 1), "cpu_ms": round(by_cpu[2] * 1e3, 1)},
            "turn_wall_ms": spread_ms([w for _, w, _ in turns]),
            "turn_cpu_ms": spread_ms([c for _, _, c in turns]),
            "gap_wall_ms": spread_ms([w for w, _ in gaps]),
            "gap_cpu_ms": spread_ms([c for _, c in gaps]),
            "turns_over_goal_wall": sum(w * 1e3 > GOAL_MS for _, w, _ in turns),
            "turns_over_goal_cpu": sum(c * 1e3 > GOAL_MS for _, _, c in turns)}


def longest(clock: TurnClock, calls: CallTimes, t0: float, by: int, count: int = 8,
            events: EventTree | None = None) -> list[dict]:
    """The ``count`` longest turns by wall (``by`` 1) or CPU (2), with where the GUI thread was seen in them and,
    with ``events``, the costliest events delivered in them."""
    out = []
    for start, wall, cpu in sorted(clock.turns, key=lambda t: -t[by])[:count]:
        seen = clock.samples.get(start)
        steps = "+".join(kind for kind, _ in clock.steps.get(start, ())) or "none"
        voluntary, involuntary = clock.switches.get(start, (0, 0))
        pieces = [f"{key} {took * 1e3:.1f}" for key, took in calls.in_turn.get(start, ()) if took >= 0.5e-3]
        out.append({"at_s": round(start - t0, 3), "wall_ms": round(wall * 1e3, 1), "cpu_ms": round(cpu * 1e3, 1),
                    "switches": f"{voluntary}v/{involuntary}i", "steps": steps, "calls": pieces,
                    "where": [f"{n}x {w}" for w, n in seen.most_common(3)] if seen else [],
                    "events": events.turn_text(start) if events is not None else []})
    return out


def run_until(app, done, timeout_s: float) -> None:
    """Turn the event loop (in its own exec, as the application does) until ``done()``."""
    loop = QtCore.QEventLoop()
    poll = QtCore.QTimer()
    poll.setInterval(20)
    poll.timeout.connect(lambda: done() and loop.quit())
    poll.start()
    QtCore.QTimer.singleShot(int(timeout_s * 1e3), loop.quit)
    loop.exec()
    poll.stop()


def make_window(app):
    from bloomviz.gui.main_window import MainWindow
    from bloomviz.gui.workbench import warmed_up
    settings = QtCore.QSettings(os.path.join(SCRATCH, "window.ini"), QtCore.QSettings.Format.IniFormat)
    win = MainWindow(settings=settings)
    win.install_parts()
    win.resize(1440, 900)
    win.show()
    win.show_tab("filter")
    run_until(app, warmed_up, 300)
    run_until(app, lambda: False, 0.5)
    plot = win.plot
    if not plot.isVisible() or plot.visibleRegion().isEmpty():
        raise SystemExit("the plot is not in view: the measurement would leave its redraws out")
    return win


def idle_phase(app, win, clock, beat, seconds: float) -> dict:
    clock.begin()
    beat.start()
    t = time.perf_counter()
    run_until(app, lambda: False, seconds)
    out = summary(clock.turns, beat.gaps, time.perf_counter() - t)
    beat.stop()
    clock.end()
    return out


def job_phase(app, win, clock, beat, calls, n: int, m: int, k: int, seed: int, events: EventTree | None = None,
              top: int = 8) -> dict:
    from bloomviz.gui.filter_tab.autoplay import MAX_RATE
    wb = win.wb
    wb.configure(m, k, capacity=n)
    run_until(app, lambda: False, 0.5)
    ap = win.autoplay
    ap.set_source("random", seed)
    ap.set_rate(MAX_RATE)
    ap.set_count(n)
    ended = []
    wb.jobFinished.connect(lambda *_: ended.append(time.perf_counter()))
    clock.begin()
    beat.start()
    calls.begin()
    if events is not None:
        events.begin()
    t0 = time.perf_counter()
    ap.start()
    run_until(app, lambda: bool(ended), 600)
    if not ended or len(wb.filter) != n:
        raise SystemExit(f"the auto-play did not finish: {len(wb.filter):,} of {n:,} items")
    job_turns = len(clock.turns)
    job_ticks = len(beat.gaps)

    def settled() -> bool:   # the truth rows made in idle turns, the last redraws done
        rows = wb.model.state.truth.rows
        return (rows is None or not rows.deferred_rows) and not win.plot.redraw_pending
    run_until(app, settled, 120)
    run_until(app, lambda: False, 0.5)
    t1 = time.perf_counter()
    beat.stop()
    clock.end()
    out_calls = calls.end()
    turns, gaps = clock.turns, beat.gaps
    out = summary(turns, gaps, t1 - t0)
    if events is not None:
        events.end()
        out["events_cpu"] = [{"event": label, "deliveries": count, "own_ms": round(total * 1e3, 1),
                              "max_own_ms": round(worst * 1e3, 1)} for label, count, total, worst in events.totals()]
    out["job"] = summary(turns[:job_turns], gaps[:job_ticks], ended[0] - t0)
    out["after_job"] = summary(turns[job_turns:], gaps[job_ticks:], t1 - ended[0])
    out["autoplay_s"] = round(ended[0] - t0, 3)
    out["calls_cpu_ms"] = out_calls
    out["longest_wall"] = longest(clock, calls, t0, 1, top, events)
    out["longest_cpu"] = longest(clock, calls, t0, 2, top, events)
    out["by_step"] = {kind: {"turns": len(v), "wall_ms": spread_ms([w for w, _, _ in v]),
                             "cpu_ms": spread_ms([c for _, c, _ in v]), "rest_cpu_ms": spread_ms([r for _, _, r in v])}
                      for kind, v in sorted(clock.kinds().items())}
    for kind, seen in clock.seen.items():
        out["by_step"][kind]["where"] = [f"{n}x {w}" for w, n in seen.most_common(6)]
    return out


def show(name: str, s: dict) -> None:
    tw, tc, gw, gc = s["turn_wall_ms"], s["turn_cpu_ms"], s["gap_wall_ms"], s["gap_cpu_ms"]
    print(f"  {name:<12} {s['seconds']:6.2f} s {s['turns']:6d} turns | turn wall {tw['median']:6.1f} "
          f"{tw['p99']:6.1f} {tw['max']:6.1f} | turn CPU {tc['median']:5.1f} {tc['p99']:5.1f} {tc['max']:5.1f} | "
          f"gap wall {gw['median']:5.1f} {gw['p99']:6.1f} {gw['max']:6.1f} | gap CPU {gc['max']:5.1f}")


def _spread(values: list[float]) -> str:
    values = sorted(values)
    middle = values[len(values) // 2] if len(values) % 2 else 0.5 * sum(values[len(values) // 2 - 1:][:2])
    return f"{middle:.1f} ({values[0]:.1f}-{values[-1]:.1f})" if len(values) > 1 else f"{values[0]:.1f}"


def print_verdicts(rounds: list[dict]) -> None:
    """Each round's worst turns, the auto-play's beside the idle window's of the same round (the machine's own
    noise floor: what its load does to a window that does nothing), then their medians and ranges over the rounds."""
    print("each round's worst turns (ms): auto-play's longest (its CPU) | auto-play's most CPU (its wall) | "
          "idle window's longest (its CPU) | longest heartbeat gap, auto-play / idle")
    rows = []
    for i, rnd in enumerate(rounds):
        job, idle = rnd["autoplay"], rnd["idle"]
        row = (job["worst_wall_turn"]["wall_ms"], job["worst_wall_turn"]["cpu_ms"], job["worst_cpu_turn"]["cpu_ms"],
               job["worst_cpu_turn"]["wall_ms"], idle["worst_wall_turn"]["wall_ms"], idle["worst_wall_turn"]["cpu_ms"],
               job["gap_wall_ms"]["max"], idle["gap_wall_ms"]["max"])
        rows.append(row)
        print(f"  round {i + 1}: {row[0]:6.1f} ({row[1]:4.1f} CPU) | {row[2]:5.1f} CPU ({row[3]:5.1f} wall) | "
              f"{row[4]:6.1f} ({row[5]:4.1f} CPU) | {row[6]:6.1f} / {row[7]:6.1f}")
    if len(rows) > 1:
        cols = list(zip(*rows))
        print(f"  median (range) over {len(rows)} rounds: longest turn {_spread(cols[0])} wall; most CPU in a turn "
              f"{_spread(cols[2])}; idle window's longest turn {_spread(cols[4])} wall; longest gap "
              f"{_spread(cols[6])} (idle {_spread(cols[7])})")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=10_000_000, help="items auto-played (default 10^7)")
    parser.add_argument("--m", type=int, default=95_850_584, help="bits (default: the 1%% design for 10^7)")
    parser.add_argument("--k", type=int, default=7)
    parser.add_argument("--rounds", type=int, default=1, help="idle + auto-play rounds (default 1)")
    parser.add_argument("--idle", type=float, default=4.0, help="seconds of the idle baseline a round")
    parser.add_argument("--where", action="store_true",
                        help="sample where the GUI thread is in long turns (a 2 ms timer signal handled in that "
                             "thread: it adds to the turns it samples; diagnosis only)")
    parser.add_argument("--events", action="store_true",
                        help="time every event the GUI thread delivers, as a tree per turn (event_tree.py), and "
                             "list what ran in the longest turns (diagnosis only: a Python call per event)")
    parser.add_argument("--qt-fill-pool", action="store_true",
                        help="leave Qt's raster fills to its thread pool (as before 2026-11-28; gui.app."
                             "paint_on_gui_thread), for a comparison in the same machine state")
    parser.add_argument("--top", type=int, default=8, help="longest turns listed, by wall and by CPU (default 8)")
    parser.add_argument("--paint-turns", type=int, default=None,
                        help="turns left to the painting after a redraw frame (default: the job's PAINT_TURNS; 1 is "
                             "the job before 2026-11-28)")
    args = parser.parse_args()
    from bloomviz.workbench import jobs
    if args.paint_turns is not None:
        jobs.PAINT_TURNS = max(1, args.paint_turns)
    from bloomviz.workbench.limits import check_k, check_m
    try:
        check_m(args.m)
        check_k(args.k)
    except ValueError as exc:
        parser.error(str(exc))
    if not args.qt_fill_pool:
        from bloomviz.gui.app import paint_on_gui_thread
        paint_on_gui_thread()       # as ``bloomviz`` paints (gui.app.main), before the application is made
    holder: list = []
    app = QtWidgets.QApplication.instance() or (timed_application(holder) if args.events
                                                 else QtWidgets.QApplication([]))
    return measure(app, args, holder)


def collecting_as_the_application():
    """Cyclic garbage collected as ``bloomviz`` collects it around its event loop (gui.app.main), where it does."""
    try:
        from bloomviz.gui.gui_thread_gc import collect_on_gui_thread
    except ImportError:
        return contextlib.nullcontext()
    return collect_on_gui_thread()


def measure(app, args, holder: list) -> int:
    clock = TurnClock(sample=args.where)
    calls = CallTimes(clock)
    if args.events:
        holder.append(EventTree(clock))
    win = make_window(app)
    with collecting_as_the_application():    # as the application: around its event loop, the window built
        return measure_window(app, args, win, clock, calls, holder[0] if holder else None)


def full_collections() -> dict:
    """One collection of each generation now, in this thread's CPU ms (what a collection costs in the window)."""
    out = {}
    for generation in (0, 1, 2):
        cpu = time.thread_time()
        gc.collect(generation)
        out[f"generation {generation}"] = round((time.thread_time() - cpu) * 1e3, 1)
    out["tracked"] = len(gc.get_objects())
    return out


def measure_window(app, args, win, clock, calls, events: EventTree | None) -> int:
    from bloomviz.workbench import jobs
    beat = Heartbeat()
    clock.watch_job_steps()
    rounds = []
    load = [os.getloadavg()]
    for r in range(args.rounds):
        idle = idle_phase(app, win, clock, beat, args.idle)
        played = job_phase(app, win, clock, beat, calls, args.n, args.m, args.k, 1 + r, events, args.top)
        rounds.append({"idle": idle, "autoplay": played})
        load.append(os.getloadavg())
    clock.close()
    collections_ms = full_collections()
    win.hide()     # (closing asks whether to save the auto-played filter)

    paint_turns = getattr(jobs, "PAINT_TURNS", 1)    # (1 in a tree before it was named)
    fills = "in Qt's thread pool" if args.qt_fill_pool else "on the GUI thread"
    print(f"auto-play of {args.n:,} items, m = {args.m:,}, k = {args.k}, plot in view, {paint_turns} paint "
          f"turn(s) after a frame; fills {fills}; {args.rounds} round(s); "
          f"load {' -> '.join(f'{x[0]:.1f}' for x in load)}")
    print(f"  {'':<12} {'':>8} {'':>12} | turn wall med p99 max | turn CPU med p99 max | gap wall med p99 max"
          " | gap CPU max (ms)")
    for i, rnd in enumerate(rounds):
        print(f"round {i + 1}: auto-play {rnd['autoplay']['autoplay_s']:.2f} s")
        show("idle", rnd["idle"])
        show("job", rnd["autoplay"]["job"])
        show("after job", rnd["autoplay"]["after_job"])
        show("job + after", rnd["autoplay"])
        print("  turns by the job's step in them (turns; wall median p99 max; CPU median p99 max; CPU outside the "
              "job's step median p99 max, ms):")
        for kind, v in rnd["autoplay"]["by_step"].items():
            w, c, r = v["wall_ms"], v["cpu_ms"], v["rest_cpu_ms"]
            print(f"    {kind:<16} {v['turns']:5d}; {w['median']:6.1f} {w['p99']:6.1f} {w['max']:6.1f}; "
                  f"{c['median']:5.1f} {c['p99']:5.1f} {c['max']:5.1f}; "
                  f"{r['median']:5.1f} {r['p99']:5.1f} {r['max']:5.1f}")
            for seen in v.get("where", ()):
                print(f"      {seen}")
        print("  the window's pieces of work, job and after (calls; CPU median p99 max, ms):")
        for key, v in rnd["autoplay"]["calls_cpu_ms"].items():
            print(f"    {key:<32} {v['calls']:5d}; {v['median']:5.1f} {v['p99']:5.1f} {v['max']:5.1f}")
        for key in ("longest_wall", "longest_cpu"):
            print(f"  {'longest' if key == 'longest_wall' else 'most CPU'} turns (wall, CPU ms, seconds after the "
                  "start, context switches voluntary/involuntary, the job's steps, pieces of work; --where: stacks):")
            for t in rnd["autoplay"][key]:
                print(f"    {t['wall_ms']:7.1f} {t['cpu_ms']:7.1f}  at {t['at_s']:6.2f} s  {t['switches']:>7} "
                      f"{t['steps']:<10} {', '.join(t['calls'])}{' | ' if t['where'] else ''}{'; '.join(t['where'])}")
                for text in t["events"]:
                    print(f"        {text}")
        if "events_cpu" in rnd["autoplay"]:
            print("  events by their own CPU over the job and after (deliveries; total, worst one, ms):")
            for e in rnd["autoplay"]["events_cpu"]:
                print(f"    {e['event']:<60} {e['deliveries']:6d}; {e['own_ms']:7.1f} {e['max_own_ms']:6.1f}")
    print_verdicts(rounds)
    worst_wall = max(r["autoplay"]["turn_wall_ms"]["max"] for r in rounds)
    worst_cpu = max(r["autoplay"]["turn_cpu_ms"]["max"] for r in rounds)
    idle_wall = max(r["idle"]["turn_wall_ms"]["max"] for r in rounds)
    idle_gap = max(r["idle"]["gap_wall_ms"]["max"] for r in rounds)
    gap = max(r["autoplay"]["gap_wall_ms"]["max"] for r in rounds)
    print(f"worst turn of the auto-play: {worst_wall:.1f} ms wall ({'met' if worst_wall <= GOAL_MS else 'NOT met'}"
          f" <= {GOAL_MS:.0f}), {worst_cpu:.1f} ms of the GUI thread's CPU "
          f"({'met' if worst_cpu <= GOAL_MS else 'NOT met'}); idle baseline's worst turn {idle_wall:.1f} ms wall")
    print(f"worst heartbeat gap: auto-play {gap:.1f} ms, idle {idle_gap:.1f} ms")
    print(f"a garbage collection of each generation after the run (ms of CPU): {collections_ms}")
    print(json.dumps({"n": args.n, "m": args.m, "k": args.k, "paint_turns": paint_turns, "load": load,
                      "qt_fill_pool": args.qt_fill_pool,
                      "rounds": rounds, "collections_ms": collections_ms,
                      "worst_turn_wall_ms": worst_wall, "worst_turn_cpu_ms": worst_cpu,
                      "idle_worst_turn_wall_ms": idle_wall, "worst_gap_ms": gap, "idle_worst_gap_ms": idle_gap}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

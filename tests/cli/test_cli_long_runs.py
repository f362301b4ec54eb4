"""A long command run: it says how far it is even when stderr is a log file, and a run stopped by SIGTERM or
Ctrl-C leaves no ``.NAME.bloomviz-XXXX.tmp`` beside its target (nor a half-written target)."""

from __future__ import annotations

import io
import os
import re
import signal
import subprocess
import sys
import time

import pytest

from bloomviz.commands.common import Progress
from bloomviz.disk import atomic_write

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


class Clock:
    def __init__(self):
        self.now = 0.0

    def __call__(self):
        return self.now


def test_progress_on_a_log_prints_a_plain_line_every_interval():
    log, clock = io.StringIO(), Clock()
    bar = Progress("simulating", stream=log, clock=clock, line_interval=10)
    bar(1_000, 80_000_000)          # a short run prints nothing
    assert log.getvalue() == ""
    clock.now = 10.5
    bar(2_000_000, 80_000_000)
    clock.now = 12
    bar(2_100_000, 80_000_000)      # not again before the next interval
    clock.now = 21
    bar(4_000_000, 80_000_000)
    bar.close()
    lines = log.getvalue().splitlines()
    assert lines == ["simulating: 2,000,000 of 80,000,000 (2.5%)", "simulating: 4,000,000 of 80,000,000 (5.0%)"]
    assert "\r" not in log.getvalue()


def _ctrl_c_heard() -> None:
    # A test run started in the background by a non-interactive shell ignores SIGINT, and so would the command
    # (Python keeps an ignored SIGINT ignored): the command is started as a terminal would start it.
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _start_long_simulate(tmp_path, target):
    env = dict(os.environ, PYTHONPATH=ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""))
    proc = subprocess.Popen([sys.executable, "-m", "bloomviz", "simulate", "--m", "100000000", "--k", "3",
                             "--n", "40000000", "--every", "1000", "--probes", "10", "--csv", str(target)],
                            cwd=tmp_path, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            preexec_fn=_ctrl_c_heard)
    # The CSV's temporary is opened before the run starts: wait for it, then for the run to be under way.
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and proc.poll() is None:
        if any(atomic_write.is_our_temporary(p.name) for p in tmp_path.iterdir()):
            break
        time.sleep(0.05)
    assert proc.poll() is None, proc.communicate()
    return proc


@pytest.mark.skipif(not hasattr(signal, "SIGTERM") or sys.platform.startswith("win"), reason="POSIX signals")
@pytest.mark.parametrize("signum,code", [(signal.SIGTERM, 143), (signal.SIGINT, 130)])
def test_a_stopped_simulate_leaves_no_temporary(tmp_path, signum, code):
    target = tmp_path / "rates.csv"
    proc = _start_long_simulate(tmp_path, target)
    proc.send_signal(signum)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == code, err
    assert "Traceback" not in err
    assert list(tmp_path.iterdir()) == []


def test_a_temporary_of_a_dead_save_goes_at_the_next_save_at_once(tmp_path):
    # kill -9 cannot be caught: the dead writer's lock is gone, so the next save knows its temporary is stale
    # without waiting STALE_AFTER (15 minutes).
    code = ("import os, signal, sys\nfrom bloomviz.disk import atomic_write\n"
            "w = atomic_write.AtomicWriter(sys.argv[1])\nw.write(b'x' * 1000)\n"
            "os.kill(os.getpid(), signal.SIGKILL)\n")
    subprocess.run([sys.executable, "-c", code, str(tmp_path / "a.csv")], timeout=60, cwd=ROOT)
    (left,) = list(tmp_path.iterdir())
    assert atomic_write.is_our_temporary(left.name)
    removed = atomic_write.clean_stale_temporaries(str(tmp_path), now=time.time() + 3)
    assert removed == [str(left)] and list(tmp_path.iterdir()) == []


def test_a_running_save_keeps_its_temporary_however_old(tmp_path):
    writer = atomic_write.AtomicWriter(tmp_path / "b.csv")
    try:
        past = time.time() - 10 * atomic_write.STALE_AFTER
        os.utime(writer.temp, (past, past))
        assert atomic_write.clean_stale_temporaries(str(tmp_path)) == []
    finally:
        writer.discard()


def test_a_stop_before_the_writer_is_guarded_still_leaves_no_temporary(tmp_path, monkeypatch, capsys):
    """Ctrl-C between opening the CSV's temporary and the run (a loaded machine stretches that moment): the
    command line discards the unfinished writer itself."""
    from bloomviz import cli
    from bloomviz.commands import simulate
    real = simulate.open_csv

    def open_then_stop(prog, path):
        real(prog, path)
        raise KeyboardInterrupt

    monkeypatch.setattr(simulate, "open_csv", open_then_stop)
    code = cli.main(["simulate", "--m", "1000", "--k", "3", "--n", "10", "--csv", str(tmp_path / "r.csv")])
    assert code == 130 and "interrupted" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []


def test_running_out_of_memory_says_so_in_one_line_and_leaves_no_temporary(tmp_path, monkeypatch, capsys):
    """A MemoryError in a run (its arrays, with what else the machine holds) was a traceback: one line now, with
    the command and the memory the process had reached, exit 1, no half-written CSV."""
    from bloomviz import cli
    from bloomviz.commands import simulate
    real = simulate.open_csv

    def open_then_no_memory(prog, path):
        real(prog, path)
        raise MemoryError()

    monkeypatch.setattr(simulate, "open_csv", open_then_no_memory)
    code = cli.main(["simulate", "--m", "1000", "--k", "3", "--n", "10", "--csv", str(tmp_path / "r.csv")])
    err = capsys.readouterr().err
    assert code == 1
    assert re.fullmatch(r"bloomviz: not enough memory to finish 'bloomviz simulate' \(the process had used "
                        r"[\d.]+ (MiB|GiB) at most\); .*\n", err), err
    assert list(tmp_path.iterdir()) == []


@pytest.mark.skipif(not hasattr(signal, "SIGTERM") or sys.platform.startswith("win"), reason="POSIX signals")
@pytest.mark.parametrize("signum,stop", [(signal.SIGINT, KeyboardInterrupt), (signal.SIGTERM, "Terminated")])
def test_a_stop_dropped_by_a_finaliser_is_raised_at_the_next_progress_report(signum, stop, monkeypatch):
    # Python prints and drops an exception raised inside __del__: a Ctrl-C whose raise lands there was lost, and
    # the stopped command ran to its end. The command line notes the stop, raises nothing inside the finaliser
    # (a SIGTERM in llvmlite's __del__ printed "Exception ignored in ... Traceback" from simulate), and its next
    # progress report raises it.
    from bloomviz import cli
    dropped: list = []
    monkeypatch.setattr(sys, "unraisablehook", dropped.append)
    stop = getattr(cli, stop) if isinstance(stop, str) else stop

    class StoppedWhileFinalised:
        def __del__(self):
            os.kill(os.getpid(), signum)
            time.sleep(0.5)            # the handler runs here, inside __del__

    before = signal.signal(signal.SIGINT, signal.default_int_handler)   # (ignored in a background test run)
    try:
        with cli._terminate_as_exception():
            StoppedWhileFinalised()
            assert dropped == []           # nothing raised there to be printed and dropped
            with pytest.raises(stop):
                Progress("simulating", stream=io.StringIO())(1, 2)
        Progress("simulating", stream=io.StringIO())(1, 2)       # the stop is forgotten with the command
        assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
    finally:
        signal.signal(signal.SIGINT, before)

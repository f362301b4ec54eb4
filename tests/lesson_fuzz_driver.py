"""Runs ``bloomviz lesson FILE --check`` on every file named on stdin, each in a forked child under resource
limits (RLIMIT_CPU, RLIMIT_AS), and prints one JSON line per file: exit status, the signal that ended it, its
CPU seconds and peak memory (from wait4), and what it wrote to stderr. Used by ``test_lesson_fuzz.py``."""

from __future__ import annotations

import gc
import json
import os
import resource
import sys
import tempfile

from bloomviz import cli

CPU_SECONDS = 5
MEMORY_BYTES = 1 << 30


def run_one(path: str, err_path: str) -> dict:
    pid = os.fork()
    if pid == 0:
        try:
            resource.setrlimit(resource.RLIMIT_CPU, (CPU_SECONDS, CPU_SECONDS + 1))
            resource.setrlimit(resource.RLIMIT_AS, (MEMORY_BYTES, MEMORY_BYTES))
            fd = os.open(err_path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
            os.dup2(fd, 2)
            os.dup2(os.open(os.devnull, os.O_WRONLY), 1)
            code = cli.main(["lesson", path, "--check"])
        except BaseException:
            import traceback
            traceback.print_exc()
            code = 99
        sys.stderr.flush()
        os._exit(code if isinstance(code, int) else 98)
    _pid, status, usage = os.wait4(pid, 0)
    with open(err_path, encoding="utf-8", errors="replace") as f:
        err = f.read()
    return {"path": path, "exit": os.WEXITSTATUS(status) if os.WIFEXITED(status) else None,
            "signal": os.WTERMSIG(status) if os.WIFSIGNALED(status) else None,
            "cpu": usage.ru_utime + usage.ru_stime, "max_rss": usage.ru_maxrss * 1024, "stderr": err[-2000:]}


def warm_up() -> None:
    """Imports and the hashing kernels' first call (half a second) paid once here, not in every child."""
    import contextlib
    import io
    with contextlib.redirect_stdout(io.StringIO()):
        cli.main(["lesson", "2", "--check"])


def main() -> None:
    warm_up()
    # every child is forked from this warmed process: its objects frozen out of the collector's reach, a child's
    # collections no longer write to (and so copy) every page they share with it (a fifth of a small file's CPU)
    gc.freeze()
    err_path = os.path.join(tempfile.mkdtemp(prefix="lesson-fuzz-"), "stderr")
    for line in sys.stdin:
        print(json.dumps(run_one(line.rstrip("\n"), err_path)), flush=True)


if __name__ == "__main__":
    main()

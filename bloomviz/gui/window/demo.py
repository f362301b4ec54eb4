"""The demo the command line's --demo and --screenshot start with: words in, one telling lookup."""

from __future__ import annotations

import numpy as np
from PySide6 import QtCore

from bloomviz.gui.filter_tab.autoplay import ItemStream, load_words

DEMO_RATE = 0.01        # the design rate of a filter sized for the demo's items
BULK_AS_JOB = 200_000   # past this many items the demo inserts as a job, so the window keeps painting


def run_demo(window, n: int, lookup: bool = True, singles: int = 5, fit: bool = False) -> None:
    """Insert n demo items (words, then seeded random items past the word list) and make one lookup.

    With ``fit`` (the command line's --demo N without --m/--k), N items that the filter was not made for get a
    filter designed for N at 1 % first (``--demo 2000`` filled the 200-item default to 99.9 %).

    The last few go in one at a time so the history and the grid show individual inserts; the lookup is a
    word that was not inserted — a false positive if one of the remaining words is one, so the picture
    shows the filter's characteristic mistake and who caused it.
    """
    wb = window.wb
    if fit and n > (wb.capacity or 0):
        wb.design(n, DEMO_RATE)
    words = load_words()
    order = np.random.default_rng(7).permutation(len(words))
    words = [words[i] for i in order]
    items = words[:n]
    if n > len(words):
        items += ItemStream("random", 7).take(n - len(words))
    singles = min(singles, len(items))
    bulk, one_by_one = items[: len(items) - singles], items[len(items) - singles:]
    if len(bulk) > BULK_AS_JOB:
        wb.insert_many(bulk, label="demo items")
        loop = QtCore.QEventLoop()
        wb.jobFinished.connect(loop.quit)
        loop.exec()
    elif bulk:
        wb.insert_batch(bulk)
    for item in one_by_one:
        wb.insert(item)
    if lookup:
        rest = words[n:] or ["bloom"]
        found = wb.filter.contains_many(rest[:5000]) if rest else np.zeros(0, bool)
        hits = np.flatnonzero(found)
        probe = rest[int(hits[0])] if hits.size else rest[0]
        window.item_panel.line.setText(probe)
        wb.lookup(probe)
    wb.flush()      # the views drawn now, not in the next turn of the event loop: the caller shows them
    window.plot.refresh_now()
    window.update_status()

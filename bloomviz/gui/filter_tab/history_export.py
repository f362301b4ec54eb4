"""The history as CSV: one row per operation, with its verdict and the running counts after it.

Columns: index, op, item, verdict, count, n, lookups, true_positives, true_negatives, false_positives, fill,
fp_measured, positions, false_negatives (lookups that found a member absent; last, so that readers of the
older columns read on). ``item`` is the item's text for a single operation (``bytes`` items and text holding a
lone surrogate are written as their escaped form, e.g. ``b'\\x00\\xff'`` or ``a\\ud800``, since a CSV file is
UTF-8 text); for a batch it is empty unless ``batch_items`` asks for them, one row per item after the batch's
row. ``positions`` are the k hashed positions separated by spaces. The file is written by the one atomic writer
(``disk.atomic_write``): a failed export leaves an existing file as it was, a read-only target or a FIFO is
refused, and the target keeps its permission bits.
"""

from __future__ import annotations

import csv
import io
from typing import Iterable, Sequence

from bloomviz.disk.atomic_write import AtomicWriter
from bloomviz.items.encoding import describe

COLUMNS = ("index", "op", "item", "verdict", "count", "n", "lookups", "true_positives", "true_negatives",
           "false_positives", "fill", "fp_measured", "positions", "false_negatives")


def item_text(item: object) -> str:
    """The item as one CSV cell: itself when it is plain text, else its escaped, printable form."""
    if isinstance(item, str):
        try:
            item.encode("utf-8")
            return item
        except UnicodeEncodeError:
            pass
    if item is None:
        return ""
    return describe(item, limit=1 << 30)


def rows(history: Sequence, items: Sequence | None = None, batch_items: bool = False) -> Iterable[list]:
    """The CSV rows (without the header) for ``history`` (a list of HistoryEntry).

    With ``batch_items`` and the workbench's ``items`` list, each batch is followed by one row per item it
    inserted (op ``"batch item"``)."""
    for e in history:
        yield [e.index, e.op, item_text(e.item), e.verdict, e.count, e.n, e.lookups, e.true_positives,
               e.true_negatives, e.false_positives, f"{e.fill:.9g}", f"{e.fp_measured:.9g}",
               " ".join(str(p) for p in e.positions), e.false_negative_lookups]
        if batch_items and items is not None and e.item is None and e.count > 1:
            for x in items[e.n - e.count: e.n]:
                yield ["", "batch item", item_text(x), "", 1, "", "", "", "", "", "", "", "", ""]


def write_csv(history: Sequence, path, items: Sequence | None = None, batch_items: bool = False) -> int:
    """Write the history to ``path`` (UTF-8, atomically). Returns the number of operations written."""
    with AtomicWriter(path, "the history CSV") as target:
        text = io.TextIOWrapper(target.file.file, encoding="utf-8", newline="")
        try:
            writer = csv.writer(text, lineterminator="\n")
            writer.writerow(COLUMNS)
            writer.writerows(rows(history, items, batch_items))
            text.flush()
        finally:
            text.detach()   # the writer closes the file itself, after its fsync
    return len(history)

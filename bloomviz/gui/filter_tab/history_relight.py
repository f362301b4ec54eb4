"""Click a History row to light that operation's bits again and read what it was.

An insert's or a lookup's k positions are lit on the grid as they are now (1 or 0: a counting filter's removal
may have cleared some since), and the explain panel says which operation it was, its verdict then, and what the
bits say now. A batch has no positions of its own: its row only says so. Nothing changes in the filter.
"""

from __future__ import annotations
from bloomviz.i18n import ntr, number, tr


def relight(window, row: int) -> bool:
    """Light the positions of History row ``row``; False when the row is gone or has no positions."""
    panel, wb, grid = window.history_panel, window.wb, window.grid
    wb.flush()      # the grid and the rows read below show every operation made so far, this turn's too
    model = panel.model()
    if not 0 <= row < model.rowCount():
        return False
    entry = model.entry(row)
    if not entry.positions:
        wb.explain_note(f"#{entry.index}: {tr(entry.op)}", ntr(
            "{label}: a batch of {count} item has no positions of its own to light.",
            "{label}: a batch of {count} items has no positions of its own to light.", entry.count).format(
            label=entry.label, count=number(entry.count)))
        return False
    if grid.m != wb.filter.m or max(entry.positions) >= grid.m:
        return False
    values = [grid.value(p) for p in entry.positions]
    grid.highlight(list(entry.positions), ["one" if v else "zero" for v in values])
    zeros = sum(1 for v in values if not v)
    now = tr("all set") if not zeros else tr("{count} of them 0 now").format(count=number(zeros))
    wb.explain_note(tr("#{index}: {op} “{label}”").format(index=entry.index, op=tr(entry.op), label=entry.label),
                    tr("Verdict then: {verdict}. Its positions {positions} are lit on the grid as they are now: "
                       "{now}. (n was {n} after it.)").format(
                        verdict=tr(entry.verdict), positions=", ".join(number(p) for p in entry.positions), now=now,
                        n=number(entry.n)))
    return True


def install(window) -> None:
    window.history_panel.clicked.connect(
        lambda index: relight(window, index.row()) if index.isValid() else None)
    window.history_panel.setToolTip(tr("Click a row to light that operation's bits again and read what it was."))
    window.relight_history_row = lambda row: relight(window, row)

"""The explain panel: what the last operation did, step by step, and the formulas with today's numbers.

For an insert or a lookup: the item's bytes, the scheme's hash values and the k positions (with what each bit
was), the verdict; then, for every operation, the textbook formulas with the current m, k, n and X (bits set)
plugged in, beside the rate measured on the probes. For a variant, a section says what it did with the item
(the counters changed, the stage chosen, the slice or block used) and gives its own theory with the numbers. Bulk work emits an explanation per chunk; the panel
renders at most ten times a second.
"""

from __future__ import annotations

import html
import math

from PySide6 import QtCore, QtWidgets

from bloomviz.theory.units import count_text, percent_text, rate_text
from bloomviz.gui import theme
from bloomviz.gui.theme import verdict_colour
from bloomviz.gui.timing import Throttle
from bloomviz.explain.operations import KIND_WORDS, Explanation
from bloomviz.i18n import marks, number, tr
from bloomviz.gui.workbench import QtWorkbench
from bloomviz.workbench.records import Numbers



def fmt_rate(x: float) -> str:
    """A rate by the one policy (core.units), with its percentage from 0.1 % up."""
    if not math.isfinite(x):
        return str(x)
    return marks(f"{rate_text(x)} ({percent_text(x)})" if x >= 0.001 else rate_text(x))


def fmt_num(x: float) -> str:
    return marks(count_text(x))


def _gap_words(exact: float, classic: float) -> str:
    """How far the classic formula is below the exact rate, in words a student can read."""
    if not exact or not classic:
        return tr("the classic formula is below it")
    gap = exact / classic - 1
    if gap < 1e-6:
        return tr("the classic formula agrees to within a millionth")
    return tr("{gap}% above the classic formula").format(gap=marks(f"{gap * 100:.2g}"))


def formulas_html(nums: Numbers) -> str:
    m, k, n, x = nums.m, nums.k, nums.n, nums.bits_set
    e = html.escape
    rows = [
        ("P(a given bit is still 0)",
         f"(1 − 1/m)<sup>kn</sup> = (1 − 1/{number(m)})<sup>{k}·{number(n)}</sup>", marks(f"{nums.p_zero:.4f}")),
        ("Bloom's formula (classic: treats the bits as independent)",
         f"(1 − (1 − 1/m)<sup>kn</sup>)<sup>k</sup> = (1 − {marks(f'{nums.p_zero:.4f}')})<sup>{k}</sup>",
         fmt_rate(nums.fp_classic)),
        ("exact rate of n inserts into an empty filter (after removals not this filter's: see its counters below)"
         if nums.after_removals else "exact expected rate (averaged over how many bits are set)",
         "E[(X/m)<sup>k</sup>] " + tr("after {count} uniform positions").format(count=f"{k}·{number(n)}")
         + (f" — {_gap_words(nums.fp_exact, nums.fp_classic)}" if nums.n and k > 1 else ""),
         fmt_rate(nums.fp_exact)),
        ("the rate its counters give now (X counters above 0)" if nums.after_removals else "rate from the bits set now",
         f"(X/m)<sup>k</sup> = ({number(x)}/{number(m)})<sup>{k}</sup>", fmt_rate(nums.fp_now)),
        ("measured on the probes",
         tr("{count} of {probes} non-members pass").format(count=number(nums.fp_count), probes=number(nums.probes)),
         f"{fmt_rate(nums.fp_measured)}<br><small>" + tr("95% Wilson interval {low} – {high}").format(
             low=fmt_rate(nums.fp_low), high=fmt_rate(nums.fp_high)) + "</small>"),
        ("estimated n from the bits",
         f"−(m/k)·ln(1 − X/m) = −({number(m)}/{k})·ln(1 − {number(x)}/{number(m)})",
         f"{fmt_num(nums.n_estimated)} <small>" + tr("(true n = {n})").format(n=number(n)) + "</small>"),
    ]
    items = "".join(
        f"<p style='margin:3px 0 0 0'>{e(tr(name))}:<br>&nbsp;&nbsp;{formula} <b>= {value}</b></p>"
        for name, formula, value in rows)
    return ("<p style='margin:2px 0'>" + tr("m = {m} bits, k = {k}, n = {n} inserts, X = {x} bits set (fill {fill}%)")
            .format(m=number(m), k=k, n=number(n), x=number(x), fill=number(nums.fill * 100, 1)) + f"</p>{items}")


def own_rate_html(nums: Numbers) -> str:
    """A filter the standard formulas do not describe (slices, blocks, stages): its own theory, the rate its own
    bits give now and the measurement, with no single m and k where it has none."""
    rows = [(tr("its own theory at n = {n}").format(n=number(nums.n)), fmt_rate(nums.fp_own) if nums.fp_own == nums.fp_own else "—"),
            ("the rate its bits give now (for independent positions)",
             fmt_rate(nums.fp_own_now) if nums.fp_own_now == nums.fp_own_now else "—"),
            ("measured on the probes",
             tr("{count} of {probes} non-members pass").format(count=number(nums.fp_count),
                                                               probes=number(nums.probes))
             + f": {fmt_rate(nums.fp_measured)} <small>("
             + tr("95% Wilson interval {low} – {high}").format(low=fmt_rate(nums.fp_low), high=fmt_rate(nums.fp_high))
             + ")</small>")]
    return "".join(f"<p style='margin:3px 0 0 0'>{html.escape(tr(name))}: <b>{value}</b></p>" for name, value in rows)


def explanation_html(expl: Explanation, dark: bool = False) -> str:
    e = html.escape
    parts = []
    if expl.op in ("insert", "lookup", "remove"):
        colour = verdict_colour(expl.verdict, dark)
        heading = tr(f"{expl.op.capitalize()} “{{label}}”").format(label=expl.label)
        parts.append(f"<h3 style='margin:2px 0'>{e(heading)}</h3>")
        head = expl.headline or tr(expl.verdict.upper())
        text = expl.verdict_text
        parts.append(f"<p style='margin:2px 0; color:{colour}'><b>{e(head)}</b> — {e(text)}</p>")
        parts.append(f"<h4 style='margin:6px 0 2px 0'>{e(tr('1. The item as bytes (UTF-8)'))}</h4>")
        size = tr("{count} bytes").format(count=number(expl.data_len))
        parts.append(f"<p style='margin:2px 0'><code>{e(expl.data_hex)}</code> — {e(size)}</p>")
        hashing = tr("2. Hashing: {scheme}").format(scheme=tr(expl.scheme_title))
        parts.append(f"<h4 style='margin:6px 0 2px 0'>{e(hashing)}</h4>")
        if expl.hash_rows:
            # a value is a number, a formula, or words of the scheme's (translated; the rest is left as it is)
            rows = "".join(f"<tr><td style='padding:1px 8px 1px 0'>{e(tr(a))}</td><td><code>{e(tr(b))}</code></td></tr>"
                           for a, b in expl.hash_rows)
            parts.append(f"<table cellspacing='0'>{rows}</table>")
        pos = ", ".join(f"{number(p)} ({tr(KIND_WORDS.get(kind, kind))})"
                        for p, kind in zip(expl.positions, expl.kinds))
        positions = tr("k = {k} positions: {positions}").format(k=len(expl.positions), positions=pos)
        parts.append(f"<p style='margin:2px 0'>{e(positions)}</p>")
        if expl.culprits:
            lines = []
            for p, (items, total) in expl.culprits.items():
                names = ", ".join(e(tr("“{item}”").format(item=_short(x))) for x in items[:8])
                more = e(tr(" and {count} more").format(count=number(total - min(total, 8)))) if total > 8 else ""
                lines.append(f"<li>{e(tr('bit {bit}:').format(bit=number(p)))} {names}{more}</li>")
            parts.append(f"<p style='margin:2px 0'>{e(tr('Who set the bits of this false positive:'))}</p>"
                         f"<ul style='margin:0'>{''.join(lines)}</ul>")
        step = 3
    else:
        # A state change or a caller's note (a scenario's story): its title, then its paragraphs.
        title = expl.op[:1].upper() + expl.op[1:] if expl.op else ""
        if title:
            parts.append(f"<h3 style='margin:2px 0'>{e(title)}</h3>")
        for para in (p.strip() for p in expl.verdict_text.split("\n\n")):
            if para:
                body = e(para).replace("\n", "<br>")
                parts.append(f"<p style='margin:3px 0'>{body}</p>")
        step = 1
    if expl.variant_rows:
        parts.append(f"<h4 style='margin:6px 0 2px 0'>{step}. {e(tr(expl.variant_title or 'The variant'))}</h4>")
        rows = "".join(f"<tr><td style='padding:1px 8px 1px 0'>{e(a)}</td><td>{e(b)}</td></tr>"
                       for a, b in expl.variant_rows)
        parts.append(f"<table cellspacing='0'>{rows}</table>")
        step += 1
    nums = expl.numbers
    if nums is not None and nums.own_theory:
        heading = tr("{step}. This filter's own rate, with the current numbers").format(step=step)
        parts.append(f"<h4 style='margin:6px 0 2px 0'>{html.escape(heading, quote=False)}</h4>")
        parts.append(own_rate_html(nums))
        step += 1
    if nums is not None and nums.single_mk:
        same = (tr(" (for comparison: a standard filter with the same m and k)")
                if nums.own_theory else "")
        heading = tr("{step}. The formulas, with the current numbers{same}").format(step=step, same=same)
        parts.append(f"<h4 style='margin:6px 0 2px 0'>{html.escape(heading, quote=False)}</h4>")
        parts.append(formulas_html(nums))
    return "".join(parts)


_PERSON = frozenset(("insert", "lookup", "remove"))


def _short(item: object) -> str:
    from bloomviz.items.encoding import describe
    return describe(item, 30)


class ExplainPanel(QtWidgets.QTextBrowser):
    RENDER_INTERVAL_MS = 100

    def __init__(self, workbench: QtWorkbench, parent=None):
        super().__init__(parent)
        self._wb = workbench
        self._pending = None    # the record (Operation or StateNote) to explain when next rendered
        self.setOpenExternalLinks(False)
        self.setToolTip(tr("What the last operation did, and the Bloom filter formulas with today's m, k and n."))
        self._throttle = Throttle(self.RENDER_INTERVAL_MS, self.render_now, self)
        # A person's insert, lookup or removal is explained in the next turn of the event loop (Qt's update()
        # habit): the insert returns and the grid, history and verdict line are drawn first, and several
        # records in one turn (a lesson's steps, a replay) are explained once, the last of them.
        self._soon = QtCore.QTimer(self)
        self._soon.setSingleShot(True)
        self._soon.setInterval(0)
        self._soon.timeout.connect(self.render_now)
        workbench.operated.connect(self._on_record)
        workbench.noted.connect(self._on_record)
        # a new, loaded or rolled-back filter: its last record (a rollback re-explains its last operation)
        workbench.filterReset.connect(lambda: self._on_record(self._wb.last_record))
        self._on_record(workbench.last_record)
        theme.notifier().changed.connect(self._on_theme)

    def _on_theme(self, _dark: bool) -> None:
        self._pending = self._wb.last_record      # the same words in the new colours, at once
        self.render_now()

    def _on_record(self, record) -> None:
        if record is None:
            return
        self._pending = record
        if not self.isVisible():
            return                  # explained when shown (showEvent)
        if record.op in _PERSON:    # a person's action: answered in the next turn
            if not self._soon.isActive():
                self._soon.start()
        else:
            self._throttle.request()

    def showEvent(self, event) -> None:
        super().showEvent(event)
        self.render_now()     # what came while the panel was hidden, explained now

    def render_now(self) -> None:
        """Explain the pending record, if the panel is visible (a hidden panel explains it when shown)."""
        self._throttle.cancel()
        self._soon.stop()
        if self._pending is None or not self.isVisible():
            return
        expl = self._wb.explanation(self._pending)
        self._pending = None
        self.setHtml(explanation_html(expl, theme.is_dark()))

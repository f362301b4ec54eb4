"""Help → the primer (Bloom filters in one page) and About."""

from __future__ import annotations

import html
import re

from PySide6 import QtCore, QtWidgets

from bloomviz import __version__
from bloomviz.i18n import tr

PRIMER = """
<h2>A Bloom filter in one page</h2>
<p><b>Where to start.</b> <i>Learning alone</i>: type a few words on the Filter tab (Enter inserts, Ctrl+L looks
up), then Tools → <b>Find a false positive</b> (Ctrl+Shift+F) finds a word you never typed that the filter
says is there; Tools → <b>Insert in slow motion</b> (Ctrl+Alt+I) shows one hash at a time. <i>Teaching</i>: the
<b>Lesson</b> tab (Alt+L) has nine lessons, step by step, with questions the class votes on; <b>F5</b>
presents one full screen (PageDown next, PageUp back, a number and Enter jump to a step, 1–9 vote, R reveals,
B blanks, Esc leaves), or from a terminal <code>bloomviz lesson 1 --present</code>. The Parameter explorer
(Ctrl+E) picks m and k for a real filter.</p>
<p>A <b>Bloom filter</b> answers "is this item in the set?" using only <b>m bits</b>, far fewer than the items
themselves. Its answers are <i>definitely not</i> or <i>probably yes</i>.</p>
<ul>
<li><b>Insert</b>: k <b>hash functions</b> turn the item into k positions; those k bits are set to 1.</li>
<li><b>Look up</b>: compute the same k positions. If any bit is 0 the item was <b>definitely never
inserted</b> (a true negative). If all are 1 it is <b>probably</b> in the set.</li>
<li>A <b>false positive</b> is an item never inserted whose k bits were all set by <i>other</i> items. There
are <b>no false negatives</b>: an inserted item's bits stay 1 — unless a counting filter is made to remove an
item never inserted (a <i>forced</i> removal): that takes counters from members, and a member whose counter
reaches 0 is then called absent, a <b>false negative</b>.</li>
<li>After n inserts a given bit is still 0 with probability (1 − 1/m)<sup>kn</sup> ≈ e<sup>−kn/m</sup>, so
the false-positive rate is about (1 − e<sup>−kn/m</sup>)<sup>k</sup> (the <i>approximation</i>).</li>
<li><b>Exact, classic, bound.</b> If X bits are set, a never-inserted item passes with probability
(X/m)<sup>k</sup>; the <b>exact</b> rate is its average over how many bits the n items happened to set,
E[(X/m)<sup>k</sup>]. <b>Bloom's formula</b> (1 − (1 − 1/m)<sup>kn</sup>)<sup>k</sup> (the <i>classic</i>
one) treats the bits as independent, which they are not, and is a little <i>below</i> the exact rate: 6 % at
m = 32, k = 4, n = 5, a few in a million at m = 10<sup>6</sup>, k = 7. The <b>bound</b>
(1 − e<sup>−k(n+½)/(m−1)</sup>)<sup>k</sup> is above it (Goel and Gupta 2010). Averaged over many random
filters (Parameter explorer → Ensemble) the measured rate lands on the exact one.</li>
<li>The best number of hash functions is k = (m/n)·ln 2; then half the bits are set and the rate is about
0.6185<sup>m/n</sup>. For a rate p you need about 1.44·log<sub>2</sub>(1/p) bits per item.</li>
<li>The <b>fill ratio</b> X/m (bits set over all bits) also estimates how many items went in:
n ≈ −(m/k)·ln(1 − X/m).</li>
</ul>
<p>In this window: type an item and press <b>Enter</b> to insert it, <b>Ctrl+L</b> to look it up. Orange
squares mark bits an insert set, blue circles bits that were already 1; a lookup marks 0 bits and 1 bits.
The plot measures the false-positive rate after every insert on a fixed sample of items that were never
inserted (the <i>probes</i>: 10,000 by default) and compares it with theory. Its band is the 95 % Wilson
interval of that sample: it says how far the share of probes that pass may stray from <i>this filter's</i> own
rate, (X/m)<sup>k</sup> for the X bits its items happened to set. It does not cover that luck of the filter
itself: the <b>exact</b> curve is the average over all filters of this m, k and n, so on a small classroom
filter the exact curve can lie outside the band while the filter is perfectly normal (Explain shows both
rates; Parameter explorer → Ensemble averages many filters and lands on the exact curve).</p>
"""




def primer_pieces(text: str = PRIMER) -> list[str]:
    """The primer cut at its paragraphs and list items, each a catalogue entry of its own (with its line breaks
    made spaces, as the page shows them): a change to one paragraph leaves the others' translations standing."""
    return [" ".join(piece.split()) for piece in re.split(r"\n(?=<p>|<li>|</ul>|<ul>)", text.strip("\n"))]


def primer_html() -> str:
    """The primer in the window's language; in English exactly ``PRIMER``."""
    pieces = primer_pieces()
    translated = [tr(piece) for piece in pieces]
    return PRIMER if translated == pieces else "\n".join(translated)


def show_primer(parent: QtWidgets.QWidget) -> None:
    box = QtWidgets.QMessageBox(parent)
    box.setWindowTitle(tr("Bloom filters in one page"))
    box.setTextFormat(QtCore.Qt.TextFormat.RichText)
    box.setText(primer_html())
    box.exec()


def show_about(parent: QtWidgets.QWidget) -> None:
    QtWidgets.QMessageBox.about(
        parent, tr("About bloomviz"),
        f"<h3>bloomviz {html.escape(__version__)}</h3>"
        + tr("<p>Bloom filters made visible: every insert and lookup on the bit grid, explained in words and "
             "numbers, with the false-positive rate measured live against theory.</p>")
        + tr("<p>The built-in word list is taken from SCOWL (Kevin Atkinson and contributors) as packaged by "
             "Debian (<i>wamerican</i>); its copyright notice ships with bloomviz.</p>")
        + tr("<p>Built with Qt (PySide6), pyqtgraph, numpy, bitarray and mmh3.</p>"))


def settings_place_text(where: str) -> str:
    return tr("The window's preferences (theme, text size, the panels' layout, the auto-play rate, recent files) "
              "are kept in:\n\n{where}\n\nTo put them all back to their defaults, close the window and run:\n\n"
              "    bloomviz --reset-settings").format(where=where)


def show_settings_place(parent: QtWidgets.QWidget, where: str) -> QtWidgets.QMessageBox:
    box = QtWidgets.QMessageBox(parent)
    box.setWindowTitle(tr("Where settings live"))
    box.setTextFormat(QtCore.Qt.TextFormat.PlainText)   # a path is text, whatever characters it holds
    box.setText(settings_place_text(where))
    box.setTextInteractionFlags(QtCore.Qt.TextInteractionFlag.TextSelectableByMouse)
    box.open()
    return box

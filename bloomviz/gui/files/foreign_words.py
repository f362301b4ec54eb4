"""What the Other libraries' tab says of a filter another system wrote, in the window's language: its table of
numbers (the rows' labels, the note under them) and a lookup's answer.

A header's field keeps the name its system or reader gives it (``bloom_filter_fp_chance``, ``hash_count``: what a
user searches for), after the window's words for it where the catalogue has them ("broj hash funkcija
(hash_count)"); a value that is a word ("flat", "changed paths") is said in the window's language, one that is a
name (a class, a file, a checksum) stays as written. The readers' notes and hashing descriptions are English
templates with their numbers (``formats.reasons``), rendered here through gettext as the reasons a rate runs
above its setting are (``formats.why``); the command line prints their English.
"""

from __future__ import annotations

import html
import re

from bloomviz.formats.reasons import render
from bloomviz.i18n import marks, ntr, number, ptr, tr
from bloomviz.theory.units import count_text, one_in, percent_text, rate_text, too_full_text
from bloomviz.workbench.limits import MAX_M


def breakable(text: str) -> str:
    """``text`` with a zero-width space after each '.', ',', '(' and '_' of a word over 20 characters (every 16
    characters of one without them): a Java class name or a hex key cannot wrap otherwise, and one such value
    widened the numbers' table past its label, which cut the table's right edge and the label's last lines off."""
    def split(word: str) -> str:
        if len(word) <= 20:
            return word
        if re.search(r"[.,(_]", word):
            return re.sub(r"([.,(_])", "\\1\u200b", word)
        return "\u200b".join(word[i:i + 16] for i in range(0, len(word), 16))     # hex: a commit id, a key
    return " ".join(split(word) for word in text.split(" "))


def _rate(p: float) -> str:
    said = one_in(p)
    said = tr("never") if said == "never" else tr("1 in {count}").format(count=marks(said[len("1 in "):]))
    return f"{marks(rate_text(p))} ({said})"


def said(text) -> str:
    """A reader's note or hashing description in the window's language: a ``Reason`` through its parts, a
    constant English text through the catalogue (itself where the catalogue lacks it)."""
    return render(text, tr, number, marks) if getattr(text, "parts", None) is not None else tr(str(text))


def field_name(key: str) -> str:
    """A header field's name: the window's words for it, then the name the file or reader gives it."""
    words = ptr("file field", key)
    return key if words == key else f"{words} ({key})"


def field_value(value) -> str:
    """A header field's value: a number with the language's marks, a word in the language, a name as written."""
    if isinstance(value, bool):
        return tr("yes") if value else tr("no")
    if isinstance(value, int):
        return number(value)
    if isinstance(value, float):
        return marks(repr(value))      # every digit the file holds: %g would round a stored fpp
    if getattr(value, "parts", None) is not None:
        return said(value)
    return ptr("file field value", str(value))


def numbers_html(flt) -> str:
    """The filter's table: what the file holds and what its bits say."""
    s = flt.summary()
    grid_note = "" if flt.m <= MAX_M else "<br><i>{}</i>".format(html.escape(
        tr("m is above the {most} bits the grid draws: numbers only.").format(most=number(MAX_M))))
    estimate = marks(count_text(s["estimated_n"])) if s["estimated_n"] is not None else too_full_text(s["bits_set"], s["m"])
    rows = [(tr("format"), s["format"]), (tr("filter"), s["label"] or "—"), (tr("m (bits)"), number(s["m"])),
            (tr("k (positions per item)"), str(s["k"])), (tr("layout"), ptr("layout", s["layout"])),
            (tr("bits set"), f"{number(s['bits_set'])} ({marks(percent_text(s['fill']))})"),
            (tr("estimated items inserted"), tr(estimate) if estimate.startswith("∞") else estimate),
            (tr("rate at this fill"), _rate(s["expected_fp"])),
            (tr("hashing"), said(s["hashing"]) + ("" if s["membership"] else tr(" — lookups cannot be reproduced")))]
    rows += [(field_name(str(key)), field_value(value)) for key, value in s["fields"].items()
             if key not in ("column", "row_group")]
    table = "".join(f"<tr><td>{html.escape(a)}</td><td><b>{breakable(html.escape(b))}</b></td></tr>"
                    for a, b in rows)
    notes = "".join(f"<li>{html.escape(said(n))}</li>" for n in s["notes"])
    return (f"<table cellspacing='0' cellpadding='2'>{table}</table>{grid_note}"
            + (f"<ul>{notes}</ul>" if notes else "")
            + "<p><i>{}</i></p>".format(html.escape(tr(
                "What was inserted is not in the file: there is no measured curve, and a lookup that passes cannot "
                "be called a true or a false positive. The rate at this fill is the chance that an item never "
                "inserted passes, given these bits."))))


def shown_positions(positions) -> str:
    return ", ".join(number(p) for p in positions[:12]) + (" …" if len(positions) > 12 else "")


def one_filter_answer(maybe: bool, positions, zero: int | None) -> str:
    """A lookup's answer in a file of one filter (html)."""
    shown = shown_positions(positions)
    if maybe:
        return tr("<b>probably in the set</b>: all of its bits are 1 (positions {shown}). What was inserted is "
                  "unknown, so this may be a false positive; the rate at this fill says how likely.").format(
            shown=shown)
    return tr("<b>definitely not in the set</b>: bit {zero} is 0 (positions {shown}).").format(
        zero=number(zero), shown=shown)


def filter_name(label: str, index: int) -> str:
    return label or tr("filter {index}").format(index=index)


def many_filters_answer(name: str, hits: int, answers: int, filters: int, targets: int, refusals: list[str],
                        zero: int | None) -> str:
    """A lookup's answer in a file of many filters (html): where the item went, and what they said."""
    if targets == 1 < filters:
        went = tr("the file's index sends it to this one filter")
    else:
        went = tr("looked up in {answers} of the {filters} filters").format(answers=number(answers),
                                                                            filters=number(filters))
    if refusals:
        went += ntr("; {count} refused it ({why})", "; {count} refused it ({why})", len(refusals)).format(
            count=number(len(refusals)), why=html.escape(refusals[0]))
    name = html.escape(name)
    if hits:
        others = ntr("; {count} other filter also has all its bits set", "; {count} other filters also have all "
                     "its bits set", hits - 1).format(count=number(hits - 1)) if hits > 1 else ""
        return tr("<b>probably in the set</b>: in “{name}” all its bits are 1{others} ({went}). What was inserted "
                  "is unknown, so this may be a false positive.").format(name=name, others=others, went=went)
    if answers == 1:
        each = tr("bit {zero} is 0 in “{name}”").format(zero=number(zero), name=name)
    else:
        each = tr("a 0 bit in each of the {count} filters (shown: “{name}”, bit {zero})").format(
            count=number(answers), name=name, zero=number(zero))
    return tr("<b>definitely not in the set</b>: {each} ({went}).").format(each=each, went=went)

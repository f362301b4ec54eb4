"""Records into words: the verdict of an operation, its explanation, the hover text of a cell, the filter's
description. Pure functions of the model's frozen records (``bloomviz.workbench.records``) and its state; the
model writes no sentences and no view parses one.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from bloomviz.filters.rows import scheme_of
from bloomviz.vocabulary import Highlight, Verdict
from bloomviz.filters import capabilities
from bloomviz.explain import variants
from bloomviz.i18n import ntr, number, tr
from bloomviz.items.encoding import describe

FALSE_NEGATIVE_LIMIT = 20   # false negatives named (and their cells marked on the grid); more are counted
# What each highlighted cell of an operation was (records.Operation.kinds), in the window's and the notebook's words
KIND_WORDS = {Highlight.NEW: "0 → 1", Highlight.OLD: "already 1", Highlight.ZERO: "0", Highlight.ONE: "1",
              Highlight.CULPRIT: "1, set by others", Highlight.REMOVED: "decremented", Highlight.CLEARED: "fell to 0",
              Highlight.STUCK: "saturated, kept", Highlight.LOST: "a false negative's"}


@dataclass(frozen=True)
class Explanation:
    op: str                                   # "insert", "lookup", "remove", "insert batch", "new filter", ...
    label: str                                # printable item or summary
    verdict: str                              # one of VERDICTS, or "" for non-item operations
    verdict_text: str                         # the verdict in words (without the headline)
    data_hex: str = ""                        # the item's bytes in hex (truncated)
    data_len: int = 0
    hash_rows: tuple[tuple[str, str], ...] = ()
    positions: tuple[int, ...] = ()
    kinds: tuple[str, ...] = ()
    culprits: dict = field(default_factory=dict)   # position -> (items, total) for a false positive
    scheme_title: str = ""
    numbers: object = None                    # the record's records.Numbers (None: none known)
    count: int = 1
    # What the variant did with this item and its own theory, as (label, value) rows: the counters changed,
    # the stage chosen, the slice or block used. Empty for the standard filter.
    variant_title: str = ""
    variant_rows: tuple[tuple[str, str], ...] = ()
    # A word or two to show large before the text ("FALSE POSITIVE", "FORCED"), or "".
    headline: str = ""


def hex_preview(data: bytes, limit: int = 24) -> str:
    shown = " ".join(f"{b:02x}" for b in data[:limit])
    return shown + (f" … ({len(data):,} bytes in all)" if len(data) > limit else "")


def false_negative_note(lost, words=None) -> str:
    """The false negatives a removal caused, named (``words``: ``tr`` for the window's language; the history's
    note, kept with the session, stays English)."""
    say = words or (lambda text: text)
    shown = ", ".join(say("“{item}”").format(item=describe(x, 24)) for x in lost[:FALSE_NEGATIVE_LIMIT])
    more = (say(" and {count} more").format(count=_n(len(lost) - FALSE_NEGATIVE_LIMIT, words))
            if len(lost) > FALSE_NEGATIVE_LIMIT else "")
    if words is None:
        template = ("{count} FALSE NEGATIVE: inserted, now testing negative: {items}{more}" if len(lost) == 1 else
                    "{count} FALSE NEGATIVES: inserted, now testing negative: {items}{more}")
    else:
        template = ntr("{count} FALSE NEGATIVE: inserted, now testing negative: {items}{more}",
                       "{count} FALSE NEGATIVES: inserted, now testing negative: {items}{more}", len(lost))
    return template.format(count=_n(len(lost), words), items=shown, more=more)


def _n(value: int, words=tr) -> str:
    """A count or a position as the window's language writes it (1,234 / 1.234); English for data."""
    return number(value) if words is not None else f"{value:,}"


def _quote(item, width: int) -> str:
    return tr("“{item}”").format(item=describe(item, width))


# --- one sentence per kind of operation ----------------------------------------------------------------------
# Each sentence is one template of the window's language (bloomviz/i18n), its numbers written the language's way.
# The item is named as its history row names it (``rec.history.label``: describe(item, 60), written once).
def insert_text(rec, flt) -> str:
    positions = rec.positions
    new_count = sum(1 for k in rec.kinds if k == "new")
    k = len(positions)
    return (tr("Inserted “{label}”: {new} of its {k} bits were 0 and are now 1").format(
                label=rec.history.label, new=new_count, k=k)
            + (tr(", {old} were already 1.").format(old=k - new_count) if new_count < k else ".")
            + (tr(" (It was inserted before: nothing new.)") if rec.was_member and not new_count else "")
            + variants.insert_note(flt, rec.result))


def lookup_text(rec, flt=None) -> tuple[str, str]:
    """(headline, text) of a lookup (``flt``: the filter, for a counting filter's saturation limit)."""
    look, label = rec.result, rec.history.label
    positions, kinds = rec.positions, rec.kinds
    staged = flt is not None and capabilities.of(flt).staged
    k = len(look.stages[look.hit_stages[0]].positions) if staged and look.hit_stages else len(positions)
    where = tr(" in stage {stage}").format(stage=look.hit_stages[0]) if staged and look.hit_stages else ""
    verdict = rec.verdict
    if verdict == Verdict.TRUE_NEGATIVE:
        zeros = [p for p, kind in zip(positions, kinds) if kind == "zero"]
        if staged:
            return "", tr("“{label}” is definitely not in the set: every one of the {stages} stages has a 0 among "
                          "its bits (first: bit {bit}). A member would have set all its bits in the stage it went "
                          "to.").format(label=label, stages=len(look.stages), bit=_n(zeros[0]))
        others = tr(" (and {count} more of its bits are 0)").format(count=len(zeros) - 1) if len(zeros) > 1 else ""
        return "", tr("“{label}” is definitely not in the set: bit {bit} is 0{others}. A member would have set all "
                      "its bits.").format(label=label, bit=_n(zeros[0]), others=others)
    if verdict == Verdict.MAYBE_PRESENT:
        return "", tr("“{label}” is probably in the set: all k = {k} bits are set. (This filter was loaded without "
                      "its items, so whether it is a true or a false positive cannot be told.)").format(label=label,
                                                                                                       k=k)
    if verdict == Verdict.TRUE_POSITIVE:
        return "", tr("“{label}” is probably in the set: all k = {k} bits are set{where}. (It was inserted, so "
                      "this is a true positive.)").format(label=label, k=k, where=where)
    if verdict == Verdict.FALSE_NEGATIVE:
        zeros = [p for p, kind in zip(positions, kinds) if kind == "zero"]
        cells = ", ".join(_n(p) for p in zeros)
        copies = rec.inserted - rec.removed
        times = "" if copies <= 1 else tr(" ({copies} copies)").format(copies=copies)
        cause = rec.caused_by
        why = (ntr(" The forced removal of “{item}” (operation {index}) took this counter to 0: it was never "
                   "inserted, so the counts it took belonged to other items.",
                   " The forced removal of “{item}” (operation {index}) took these counters to 0: it was never "
                   "inserted, so the counts it took belonged to other items.", len(zeros)).format(
                       item=describe(cause.item, 40), index=_n(cause.index)) if cause is not None else "")
        return tr("FALSE NEGATIVE"), (
            ntr("“{label}” is in the set{times}, yet the filter says definitely not: counter {cells} is 0.",
                "“{label}” is in the set{times}, yet the filter says definitely not: counters {cells} are 0.",
                len(zeros)).format(label=label, times=times, cells=cells)
            + why + tr(" A Bloom filter without forced removals never makes this error."))
    parts = []                # (words, whether an inserted item set that bit)
    for p, (names, total) in rec.culprits.items():
        shown = ", ".join(_quote(x, 24) for x in names[:3])
        more = tr(" +{count} more").format(count=_n(total - min(total, 3))) if total > 3 else ""
        parts.append((tr("bit {bit} by {items}{more}").format(bit=_n(p), items=shown, more=more), True) if total
                     else (tr("bit {bit} (no recorded item)").format(bit=_n(p)), False))
    if rec.inserted:
        # inserted, and removed as often: out of the set, yet its counters say present
        counting = flt is not None and capabilities.of(flt).counting
        top = flt.max_counter if counting else None
        stuck = [p for p, c in zip(positions, look.counters) if c == top] if counting else []
        held = (ntr(" Its counter at {cells} is saturated at {top}: a removal never decrements a saturated "
                    "counter, so the filter still holds it.",
                    " Its counters at {cells} are saturated at {top}: a removal never decrements a saturated "
                    "counter, so the filter still holds it.", len(stuck)).format(
                        cells=", ".join(_n(p) for p in stuck), top=top) if stuck else "")
        others = [words for words, recorded in parts if recorded]
        by = tr(" Other items set: {parts}.").format(parts="; ".join(others)) if others else ""
        return tr("FALSE POSITIVE"), (
            (tr("“{label}” was inserted {inserted} and removed {removed}, so it is not in the set, yet all k = {k} "
                "counters are above 0{where}.") if counting else
             tr("“{label}” was inserted {inserted} and removed {removed}, so it is not in the set, yet all k = {k} "
                "bits are above 0{where}.")).format(label=label, inserted=_times(rec.inserted),
                                                    removed=_times(rec.removed), k=k, where=where)
            + held + by)
    return tr("FALSE POSITIVE"), tr("“{label}” was never inserted, yet all k = {k} bits are set{where} — "
                                    "{parts}.").format(label=label, k=k, where=where,
                                                       parts="; ".join(words for words, _ in parts))


def _times(n: int) -> str:
    return tr("once") if n == 1 else tr("twice") if n == 2 else tr("{n}×").format(n=n)


def remove_text(rec, flt) -> tuple[str, str]:
    """(headline, text) of a removal."""
    rem, label = rec.result, rec.history.label
    changes = ", ".join(f"{_n(p)}: {b}→{a}" for p, b, a in zip(rec.positions, rem.before, rem.after))
    text = tr("Removed “{label}”: counters {changes}.").format(label=label, changes=changes)
    if rem.stuck:
        text += ntr(" Counter at {cells} is saturated at {top} and never decremented: the filter no longer knows "
                    "how many items share it.",
                    " Counters at {cells} are saturated at {top} and never decremented: the filter no longer knows "
                    "how many items share it.", len(rem.stuck)).format(
                        cells=", ".join(_n(p) for p in rem.stuck), top=flt.max_counter)
    forced = rec.verdict == Verdict.FORCED_REMOVAL
    if forced:
        text += tr(" It was never inserted, so these counters belonged to other items.")
    if rec.false_negatives:
        text += " " + false_negative_note(rec.false_negatives, tr) + "."
    elif forced:
        text += tr(" No inserted item tests negative afterwards.")
    return (tr("FORCED") if forced else ""), text


def removal_rows(rec, flt) -> tuple[tuple[str, str], ...]:
    rem = rec.result
    rows = [("counters before → after", ", ".join(f"{p:,}: {b}→{a}"
                                                  for p, b, a in zip(rec.positions, rem.before, rem.after))),
            ("rule", f"each of the k = {flt.k} counters goes down by one; a counter at "
                     f"2^{flt.counter_bits} − 1 = {flt.max_counter} is saturated and stays")]
    if rem.cleared:
        rows.append(("counters now 0", ", ".join(f"{p:,}" for p in rem.cleared)))
    return tuple(rows)


def removal_question(flt, item) -> str:
    return (f"“{describe(item, 40)}” was never inserted, but all its {flt.k} counters are above 0 (it is a false "
            "positive). Removing it decrements counters that belong to other items, which may then test "
            "negative: false negatives. Remove it anyway?")


def undo_text(what: tuple | None) -> str:
    """The Undo action's text for ``Workbench.undo_what`` ((op, item) or None), in the window's language."""
    if what is None:
        return tr("Undo")
    op, item = what
    if op in ("insert", "lookup", "remove"):
        return tr(f"Undo {op} “{{item}}”").format(item=describe(item, 30))
    if op == "insert batch":
        if isinstance(item, int):          # a batch: its count
            return ntr("Undo insert of {count} item", "Undo insert of {count} items", item).format(count=number(item))
        return tr("Undo insert of {what}").format(what=tr(item)) if item else tr("Undo the batch insert")
    known = {"new filter": "Undo: back to the previous filter", "clear": "Undo clear",
             "open": "Undo open: back to the previous filter"}
    return tr(known[op]) if op in known else tr("Undo {op}").format(op=op)


# --- the explanation of a record -----------------------------------------------------------------------------
def hash_rows(flt, data: bytes) -> tuple[tuple[str, str], ...]:
    """The scheme's arithmetic for ``data`` (the schemes keep their last item's hash: no second hashing)."""
    return variants.hash_rows(flt, data)


def verdict_words(rec, flt) -> tuple[str, str]:
    """(headline, text) of an insert's, lookup's or removal's verdict: the sentence alone, without the
    explanation's bytes, hash arithmetic and formulas (what the item panel shows after each of them)."""
    if rec.op == "insert":
        return "", insert_text(rec, flt)
    if rec.op == "lookup":
        return lookup_text(rec, flt)
    return remove_text(rec, flt)


def explain_operation(rec, state) -> Explanation:
    flt = state.flt
    if rec.op == "insert batch":
        return explain_note_text("insert batch", f"Inserted a batch of {rec.count:,} items "
                                                 f"(n = {rec.numbers.n:,} inserts in all).", state, rec.numbers,
                                 rec.count)
    headline, text = verdict_words(rec, flt)
    rows = removal_rows(rec, flt) if rec.op == "remove" else variants.operation_rows(flt, rec.op, rec.result)
    rows = tuple(rows) + variants.theory_rows(flt)
    return Explanation(op=rec.op, label=describe(rec.item, 80), verdict=str(rec.verdict), verdict_text=text,
                       data_hex=hex_preview(rec.data), data_len=len(rec.data), hash_rows=hash_rows(flt, rec.data),
                       positions=rec.positions, kinds=rec.kinds, culprits=rec.culprits,
                       scheme_title=scheme_of(flt).title, numbers=rec.numbers,
                       variant_title=variants.title(flt) if rows else "", variant_rows=rows, headline=headline)


def explain_note_text(op: str, text: str, state, numbers, count: int = 0) -> Explanation:
    flt = state.flt
    rows = variants.theory_rows(flt)
    return Explanation(op=op, label="", verdict="", verdict_text=text, scheme_title=scheme_of(flt).title,
                       numbers=numbers, count=count, variant_title=variants.title(flt) if rows else "",
                       variant_rows=rows)


def explain(record, state, numbers=None) -> Explanation | None:
    """The explanation of an ``Operation`` or a ``StateNote`` (None for None)."""
    if record is None:
        return None
    if hasattr(record, "verdict"):
        return explain_operation(record, state)
    text = record.text or describe_filter(state)
    return explain_note_text(record.op, text, state, record.numbers or numbers)


def describe_filter(state) -> str:
    return variants.new_filter_text(state.flt, state.capacity)


def hover_text(state, index: int, value: int) -> str:
    """A cell's value, where it lies in the variant's layout, and the inserted items that set it."""
    flt = state.flt
    if not 0 <= index < flt.m:
        return ""
    cell = tr("{cell} {index} = {value}{where}").format(cell=variants.cell_word(flt), index=number(index),
                                                       value=value, where=variants.hover_where(flt, index))
    items, total = state.truth.culprits.items_at_bit(index)
    if not total:
        return tr("{cell}; no inserted item maps here").format(cell=cell)
    shown = ", ".join(describe(x, 30) for x in items)
    more = tr(", … (+{count} more)").format(count=number(total - len(items))) if total > len(items) else ""
    return tr("{cell}; set by: {items}{more}").format(cell=cell, items=shown, more=more)


def hover_listing(state, index: int, value: int, waiting: int) -> str:
    """A cell's hover while the inserts' positions are still being made: what is known now, and why not more."""
    flt = state.flt
    cell = tr("{cell} {index} = {value}{where}").format(cell=variants.cell_word(flt), index=number(index),
                                                       value=value, where=variants.hover_where(flt, index))
    return tr("{cell}; the items that set it are named once the positions of {count} auto-played inserts are "
              "made (a moment)").format(cell=cell, count=number(waiting))

"""Records into words: the verdict of an operation, its explanation, the hover text of a cell, the filter's
description. Pure functions of the model's frozen records (``bloomviz.workbench.records``) and its state; the
model writes no sentences and no view parses one.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from bloomviz.explain import variants
from bloomviz.i18n import tr
from bloomviz.items.encoding import describe

FALSE_NEGATIVE_LIMIT = 20   # false negatives named (and their cells marked on the grid); more are counted
# What each highlighted cell of an operation was (records.Operation.kinds), in the window's and the notebook's words
KIND_WORDS = {"new": "0 → 1", "old": "already 1", "zero": "0", "one": "1", "culprit": "1, set by others",
              "removed": "decremented", "cleared": "fell to 0", "stuck": "saturated, kept",
              "lost": "a false negative's"}


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
    numbers: object = None
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


def false_negative_note(lost) -> str:
    shown = ", ".join(f"“{describe(x, 24)}”" for x in lost[:FALSE_NEGATIVE_LIMIT])
    more = f" and {len(lost) - FALSE_NEGATIVE_LIMIT:,} more" if len(lost) > FALSE_NEGATIVE_LIMIT else ""
    return f"{len(lost):,} FALSE NEGATIVE{'S' if len(lost) > 1 else ''}: inserted, now testing negative: {shown}{more}"


# --- one sentence per kind of operation ----------------------------------------------------------------------
def insert_text(rec, flt) -> str:
    positions = rec.positions
    new_count = sum(1 for k in rec.kinds if k == "new")
    label = describe(rec.item, 60)
    return (f"Inserted “{label}”: {new_count} of its {len(positions)} bits were 0 and are now 1"
            + (f", {len(positions) - new_count} were already 1." if new_count < len(positions) else ".")
            + (" (It was inserted before: nothing new.)" if rec.was_member and not new_count else "")
            + variants.insert_note(flt, rec.result))


def lookup_text(rec, flt=None) -> tuple[str, str]:
    """(headline, text) of a lookup (``flt``: the filter, for a counting filter's saturation limit)."""
    look, label = rec.result, describe(rec.item, 60)
    positions, kinds = rec.positions, rec.kinds
    staged = hasattr(look, "stage_of")
    k = len(look.stages[look.hit_stages[0]].positions) if staged and look.hit_stages else len(positions)
    where = f" in stage {look.hit_stages[0]}" if staged and look.hit_stages else ""
    verdict = rec.verdict
    if verdict == "true negative":
        zeros = [p for p, kind in zip(positions, kinds) if kind == "zero"]
        if staged:
            return "", (f"“{label}” is definitely not in the set: every one of the {len(look.stages)} stages has "
                        f"a 0 among its bits (first: bit {zeros[0]:,}). A member would have set all its bits in "
                        "the stage it went to.")
        others = f" (and {len(zeros) - 1} more of its bits are 0)" if len(zeros) > 1 else ""
        return "", (f"“{label}” is definitely not in the set: bit {zeros[0]:,} is 0{others}. "
                    "A member would have set all its bits.")
    if verdict == "probably present":
        return "", (f"“{label}” is probably in the set: all k = {k} bits are set. (This filter was loaded "
                    "without its items, so whether it is a true or a false positive cannot be told.)")
    if verdict == "true positive":
        return "", (f"“{label}” is probably in the set: all k = {k} bits are set{where}. (It was inserted, so "
                    "this is a true positive.)")
    if verdict == "false negative":
        zeros = [p for p, kind in zip(positions, kinds) if kind == "zero"]
        cells = ", ".join(f"{p:,}" for p in zeros)
        times = "" if rec.inserted - rec.removed <= 1 else f" ({rec.inserted - rec.removed} copies)"
        cause = rec.caused_by
        why = (f" The forced removal of “{describe(cause.item, 40)}” (operation {cause.index:,}) took "
               f"{'these counters' if len(zeros) > 1 else 'this counter'} to 0: it was never inserted, so the "
               "counts it took belonged to other items." if cause is not None else "")
        return "FALSE NEGATIVE", (f"“{label}” is in the set{times}, yet the filter says definitely not: "
                                  f"{'counters' if len(zeros) > 1 else 'counter'} {cells} "
                                  f"{'are' if len(zeros) > 1 else 'is'} 0.{why} A Bloom filter without forced "
                                  "removals never makes this error.")
    parts = []
    for p, (names, total) in rec.culprits.items():
        shown = ", ".join(f"“{describe(x, 24)}”" for x in names[:3])
        more = f" +{total - min(total, 3):,} more" if total > 3 else ""
        parts.append(f"bit {p:,} by {shown}{more}" if total else f"bit {p:,} (no recorded item)")
    if rec.inserted:
        # inserted, and removed as often: out of the set, yet its counters say present
        counters = getattr(look, "counters", ())
        top = getattr(flt, "max_counter", None) if flt is not None else None
        stuck = [p for p, c in zip(positions, counters) if top is not None and c == top]
        held = (f" Its counter{'s' if len(stuck) > 1 else ''} at {', '.join(f'{p:,}' for p in stuck)} "
                f"{'are' if len(stuck) > 1 else 'is'} saturated at {top}: a removal never decrements a "
                "saturated counter, so the filter still holds it." if stuck else "")
        others = [part for part in parts if "(no recorded item)" not in part]
        by = (" Other items set: " + "; ".join(others) + ".") if others else ""
        return "FALSE POSITIVE", (f"“{label}” was inserted {_times(rec.inserted)} and removed "
                                  f"{_times(rec.removed)}, so it is not in the set, yet all k = {k} "
                                  f"{'counters' if counters else 'bits'} are above 0{where}.{held}{by}")
    return "FALSE POSITIVE", (f"“{label}” was never inserted, yet all k = {k} bits are set{where} — "
                              + "; ".join(parts) + ".")


def _times(n: int) -> str:
    return "once" if n == 1 else "twice" if n == 2 else f"{n}×"


def remove_text(rec, flt) -> tuple[str, str]:
    """(headline, text) of a removal."""
    rem, label = rec.result, describe(rec.item, 60)
    changes = ", ".join(f"{p:,}: {b}→{a}" for p, b, a in zip(rec.positions, rem.before, rem.after))
    text = f"Removed “{label}”: counters {changes}."
    if rem.stuck:
        many = len(rem.stuck) > 1
        text += (f" Counter{'s' if many else ''} at {', '.join(f'{p:,}' for p in rem.stuck)} "
                 f"{'are' if many else 'is'} saturated at {flt.max_counter} and never decremented: the filter no "
                 "longer knows how many items share it.")
    forced = rec.verdict == "forced removal"
    if forced:
        text += " It was never inserted, so these counters belonged to other items."
    if rec.false_negatives:
        text += " " + false_negative_note(rec.false_negatives) + "."
    elif forced:
        text += " No inserted item tests negative afterwards."
    return ("FORCED" if forced else ""), text


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
        return tr("Undo insert of {what}").format(what=item) if item else tr("Undo the batch insert")
    known = {"new filter": "Undo: back to the previous filter", "clear": "Undo clear",
             "open": "Undo open: back to the previous filter"}
    return tr(known[op]) if op in known else tr("Undo {op}").format(op=op)


# --- the explanation of a record -----------------------------------------------------------------------------
def hash_rows(flt, data: bytes) -> tuple[tuple[str, str], ...]:
    """The scheme's arithmetic for ``data`` (the schemes keep their last item's hash: no second hashing)."""
    try:
        rows = flt.explain(data) if hasattr(flt, "explain") else flt.scheme_obj.explain(data, flt.m, flt.k)
    except Exception:  # an explanation is a courtesy: never let it break an operation
        rows = []
    return tuple((str(a), str(b)) for a, b in rows)


def explain_operation(rec, state) -> Explanation:
    flt = state.flt
    if rec.op == "insert batch":
        return explain_note_text("insert batch", f"Inserted a batch of {rec.count:,} items "
                                                 f"(n = {rec.numbers.n:,} inserts in all).", state, rec.numbers,
                                 rec.count)
    headline = ""
    if rec.op == "insert":
        text, rows = insert_text(rec, flt), variants.operation_rows(flt, "insert", rec.result)
    elif rec.op == "lookup":
        (headline, text), rows = lookup_text(rec, flt), variants.operation_rows(flt, "lookup", rec.result)
    else:
        (headline, text), rows = remove_text(rec, flt), removal_rows(rec, flt)
    rows = tuple(rows) + variants.theory_rows(flt)
    return Explanation(op=rec.op, label=describe(rec.item, 80), verdict=str(rec.verdict), verdict_text=text,
                       data_hex=hex_preview(rec.data), data_len=len(rec.data), hash_rows=hash_rows(flt, rec.data),
                       positions=rec.positions, kinds=rec.kinds, culprits=rec.culprits,
                       scheme_title=flt.scheme_obj.title, numbers=rec.numbers,
                       variant_title=variants.title(flt) if rows else "", variant_rows=rows, headline=headline)


def explain_note_text(op: str, text: str, state, numbers, count: int = 0) -> Explanation:
    flt = state.flt
    rows = variants.theory_rows(flt)
    return Explanation(op=op, label="", verdict="", verdict_text=text, scheme_title=flt.scheme_obj.title,
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
    name = variants.cell_name(flt)
    where = variants.hover_where(flt, index)
    items, total = state.truth.items_at_bit(index)
    if not total:
        return f"{name} {index:,} = {value}{where}; no inserted item maps here"
    shown = ", ".join(describe(x, 30) for x in items)
    more = f", … (+{total - len(items):,} more)" if total > len(items) else ""
    return f"{name} {index:,} = {value}{where}; set by: {shown}{more}"

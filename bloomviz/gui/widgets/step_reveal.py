"""An insert or a lookup as a list of reveal steps, one hash at a time: the plan slow motion (the Filter tab's
dock), the Lesson tab's ``slow=`` and Tools → Predict, then reveal all play.

``reveal_steps`` returns, in order: the item's bytes; the scheme's own values (h1 and h2, or what the scheme
uses); for i = 0 … k−1 the arithmetic of position i (``hashing.steps``) with the cells lit so far and their
kinds (a lookup's 1 or 0, an insert's "already 1" or "to be set"); and last the caller's closing line (the
verdict, or what happens next) with every position lit. Building the plan changes nothing: a caller performs
the operation itself, through its own model, once the last step is reached.
"""

from __future__ import annotations

import html
from dataclasses import dataclass

from bloomviz.filters.rows import scheme_of as filter_scheme
from bloomviz.vocabulary import Verdict
from bloomviz.hashing import schemes as hashing
from bloomviz.hashing.steps import STEPS, position_steps
from bloomviz.i18n import ntr, number, tr


@dataclass(frozen=True)
class RevealStep:
    text: str                    # rich text, one short paragraph
    lit: tuple[int, ...] = ()    # grid cells lit at this step
    kinds: tuple[str, ...] = ()  # the grid's highlight kind of each lit cell


def scheme_of(flt) -> hashing.HashScheme:
    """The hash scheme object of a filter (a lesson's hand-set scheme is not in the registry)."""
    return filter_scheme(flt)


def verdict_line(op: str, positions, was_set, verdict: str = "") -> str:
    """The closing line once every position is shown: what the operation found or did, in words. ``verdict``:
    the lookup's four-way verdict when the truth is known ("false negative" changes what a 0 bit means)."""
    if op == "lookup":
        zeros = [p for p, one in zip(positions, was_set) if not one]
        if zeros and verdict == Verdict.FALSE_NEGATIVE:
            return tr("<b>Verdict: definitely not in the set</b> — bit {bit} is 0, yet the item is in the set: a "
                      "FALSE NEGATIVE (a forced removal took the count it had set).").format(bit=number(zeros[0]))
        if zeros:
            return tr("<b>Verdict: definitely not in the set</b> — bit {bit} is 0, and an inserted item would have "
                      "set it.").format(bit=number(zeros[0]))
        return tr("<b>Verdict: probably in the set</b> — all {k} bits are 1 (set by this item, or by others: a "
                  "false positive is possible).").format(k=len(positions))
    new = len({p for p, one in zip(positions, was_set) if not one})
    return ntr("<b>Inserted</b> — {count} bit turned from 0 to 1.", "<b>Inserted</b> — {count} bits turned from 0 to 1.",
               new).format(count=new)


def reveal_steps(op: str, text: str, data: bytes, scheme, m: int, k: int, positions, was_set,
                 last: str, conclude: bool = True) -> list[RevealStep]:
    """The plan of a slow ``op`` ("insert" or "lookup") of ``text`` (``data`` its bytes) in a filter of m bits
    whose cells at ``positions`` hold ``was_set`` (truthy: 1) before the operation; ``last`` closes it.
    ``conclude=False`` names a lookup's 0 bit without saying what it means (a class predicting the verdict)."""
    positions = [int(p) for p in positions]
    was_set = [bool(v) for v in was_set]
    # the scheme's arithmetic is worth showing where its positions are the grid's; a filter that remaps them
    # (slices, blocks, a stage's offset) or a hand-set scheme gets its own positions, named one by one
    if scheme.id in STEPS and tuple(positions) == tuple(scheme.positions(data, m, k)):
        lines = position_steps(scheme.id, data, m, k)
    else:
        lines = position_steps(scheme.id, data, m, len(positions), positions=positions)
    hexed = data[:24].hex(" ") + (" …" if len(data) > 24 else "")
    heading = tr(f"{op.capitalize()} “{{label}}”").format(label=text)      # as the Explain panel heads it
    steps = [RevealStep(f"<b>{html.escape(heading)}</b> — " + tr("as bytes (UTF-8): <code>{hex}</code> ({count} "
                                                                  "bytes)").format(hex=hexed, count=number(len(data))))]
    # the scheme's values; their last line (the positions) comes one by one below, unless it is all there is
    # (hand-set positions: nothing is hashed)
    explained = scheme.explain(data, m, k)
    values_text = "; ".join(f"{html.escape(tr(name))} = {html.escape(tr(str(value)))}"
                            for name, value in explained[:-1] or explained)
    steps.append(RevealStep(f"<b>{html.escape(tr(scheme.title))}</b>: "
                            f"{values_text or html.escape(tr('the scheme hashes the bytes'))}"))
    kinds = []
    for i, line in enumerate(lines[:len(positions)]):
        if op == "lookup":
            kinds.append("one" if was_set[i] else "zero")
            state = "1" if was_set[i] else tr("0 — the item is definitely not in the set") if conclude else "0"
        else:
            # a position met twice in one item is set by its first hash
            first = positions.index(positions[i]) == i
            kinds.append("old" if was_set[i] or not first else "new")
            state = tr("already 1") if was_set[i] else tr("0, to be set") if first else tr(
                "set by hash {hash} already").format(hash=positions.index(positions[i]))
        steps.append(RevealStep(tr("position {i} of {k}: {line}<br>bit {bit} is {state}").format(
            i=i, k=len(positions), line=html.escape(line), bit=number(positions[i]), state=state),
            tuple(positions[:i + 1]), tuple(kinds)))
    steps.append(RevealStep(last, tuple(positions), tuple(kinds)))
    return steps

"""The Lesson tab's marks and verdicts in the Filter tab's visual language (one legend for both, and Help's).

An insert lights its positions as the Filter tab does: an orange square where it set a bit, a blue circle where
the bit was already 1 (the lessons drew the lookup's triangles). A lookup: a green diamond on a 0 bit, a pink
triangle on a 1 bit; a false positive's bits are starred (the Filter tab's "false positive's bits"). A step's
``highlight`` points at bits by their value (diamond 0, triangle 1), never with the false-positive star (the
step "No false negatives" pointed at k1's bits with it). A revealed false positive is named FALSE POSITIVE in
the numbers line with who set its bits (the runner's ``culprits``), in the verdict colour. ``draw_filter`` puts
the lesson's filter on the grid.
"""

from __future__ import annotations

import html

from bloomviz.vocabulary import Verdict
from bloomviz.explain import variants as variant_words
from bloomviz.filters import capabilities
from bloomviz.filters.capabilities import grid_values
from bloomviz.gui.lesson_tab import look
from bloomviz.gui.theme import verdict_colour
from bloomviz.gui.widgets.grid.layout import grid_shape


def last_marks(last: dict, values, m: int) -> tuple[list[int], list[str]]:
    """(positions, highlight kinds) of the step's last operation."""
    positions = [int(p) for p in last.get("positions", ())]
    keep = [i for i, p in enumerate(positions) if 0 <= p < m]
    if last.get("action") == "insert":
        newly = list(last.get("newly_set", ()))
        kinds = ["new" if i < len(newly) and newly[i] else "old" for i in keep]
    elif last.get("class") == Verdict.FALSE_POSITIVE and not last.get("inserted"):
        kinds = ["culprit"] * len(keep)
    else:
        kinds = ["one" if values[positions[i]] else "zero" for i in keep]
    return [positions[i] for i in keep], kinds


def verdict_banner(last: dict) -> str:
    """Rich text naming a false positive and its culprits, or ""."""
    if last.get("class") != Verdict.FALSE_POSITIVE or last.get("inserted"):
        return ""
    culprits = last.get("culprits") or {}
    who = sorted({name for names in culprits.values() for name in names})
    by = f": its bits were set by {', '.join(html.escape(str(w)) for w in who)}" if who else ""
    colour = verdict_colour(Verdict.FALSE_POSITIVE)
    return (f"<b style='color:{colour}'>FALSE POSITIVE</b> — “{html.escape(str(last.get('item', '')))}” was "
            f"never inserted{by}")


def step_markdown(title: str, *texts: str) -> str:
    """A step's words as Markdown (the lesson's own markup: *emphasis*, lists), its title as the heading. Angle
    brackets are text: ``std::hash<std::string>`` would otherwise be an autolink."""
    heading = title.replace("\\", "\\\\").replace("*", "\\*").replace("_", "\\_")
    return "\n\n".join(t.replace("<", "\\<") for t in (f"## {heading}", *texts) if t)


def show_bands(grid, legend, flt, recent=()) -> None:
    """The variant's bands on the lesson's grid as on the Filter tab's: a scalable filter's stages with their
    fill, a partitioned filter's slices, a blocked filter's blocks; the legend says what they are."""
    bands = variant_words.grid_bands(flt, [int(p) for p in recent])
    if bands != grid.bands():
        grid.set_bands(bands)
    legend.set_bands_text(variant_words.bands_text(flt) if bands else "")


def draw_filter(grid, flt, presenting: bool, mid_animation: bool):
    """``grid`` showing ``flt`` (bits, or counters; every stage of a scalable one); the values drawn."""
    values = grid_values(flt)
    # counters on a fixed scale, the filter's own top (2^c − 1): a value keeps its colour from step to step
    top = capabilities.max_value(flt)
    aspect = look.PRESENTER_ASPECT if presenting else 1.0
    if grid.m != flt.m or grid.max_value != max(1, top) or grid.cols != grid_shape(flt.m, aspect)[1]:
        grid.reset(flt.m, values, max_value=max(1, top), aspect=aspect)
        if mid_animation:       # a new size mid-animation (a stage opened): every cell in view
            look.refit_grid(grid)
    else:
        grid.set_all(values)
    return values

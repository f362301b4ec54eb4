"""Many lines pasted into the item box: offered as that many items, inserted as one job.

Pasting a list of 1,000 lines and pressing Enter inserted ONE item "l0\\nl1\\n…" with no word; 10,000 lines were
refused as too large an item without pointing anywhere. Now a paste of several lines asks whether to insert
each line as an item; yes runs one bulk insert through the workbench's job (progress, Cancel, and Undo takes
the whole paste back as one step; a line the window refuses ends it with nothing inserted). Blank lines are
skipped and counted. Over what the box holds (``ITEM_BOX_CHARS``: a paste past it is refused as it arrives; a
text set by the program is checked here) the message points to File → Insert from file, which streams a file of
any length. Whether a text is a list at all is ``items.encoding.typed_lines`` (a rule about items, not about
the item box).
"""

from __future__ import annotations

from bloomviz.items.encoding import LineReport, item_lines
from bloomviz.theory.limits import ITEM_BOX_CHARS


def too_many(text: str, lines: list[str]) -> str | None:
    """Why this paste is beyond the item box (pointing to Insert from file), or None."""
    if len(text) > ITEM_BOX_CHARS:
        return (f"{len(lines):,} lines ({len(text):,} characters) are more than the item box holds "
                f"({ITEM_BOX_CHARS:,} characters): save them to a text file and use File → "
                f"Insert from file…, which reads a file of any length with progress and Cancel")
    return None


def question(text: str, lines: list[str]) -> str:
    report = LineReport()
    item_lines(text, report)
    blank = report.blank
    skipped = f" ({blank:,} blank line{'s' * (blank != 1)} skipped)" if blank else ""
    return (f"The item box holds {len(lines):,} lines{skipped}. Insert each line as an item? "
            f"Undo takes them all back as one step.")


def insert(workbench, lines: list[str]) -> bool:
    """Start the bulk insert of ``lines`` (one job: progress, Cancel, one Undo step)."""
    pending = iter(lines)

    def source(count: int) -> list[str]:
        return [line for _, line in zip(range(count), pending)]
    return workbench.run_job(source, len(lines), label="pasted lines", atomic=True)

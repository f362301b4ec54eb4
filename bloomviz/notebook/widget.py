"""The interactive notebook widget (Jupyter, JupyterLab, VS Code, Colab) over the window's Qt-free model.

anywidget is the notebook ecosystem's way to ship a widget without a build step: one ES module (``widget.js``)
and a stylesheet, loaded by every front end that runs ipywidgets. Install with ``pip install 'bloomviz[notebook]'``.

    from bloomviz.notebook import BloomWidget
    w = BloomWidget(m=256, k=3)      # or BloomWidget(workbench) to show a model you already have
    w                                # the grid, insert and lookup, the verdict, the rate, the fill
    w.insert("ana@acme.com"); w.lookup("bob@acme.com")

The browser sends ``{"op": "insert" | "lookup" | "configure" | "reset" | "cell", ...}`` messages; the widget calls the
model, and the model's events set the synced traits from ``view_state`` (the window's records and words). A
refused operation changes nothing and shows the model's own message in ``error``.
"""

from __future__ import annotations

from pathlib import Path

import anywidget
import traitlets

from bloomviz.explain.operations import hover_text
from bloomviz.notebook.view_state import view_state
from bloomviz.theory.units import whole_number
from bloomviz.workbench.model import Workbench

HERE = Path(__file__).parent


class BloomWidget(anywidget.AnyWidget):
    _esm = HERE / "widget.js"
    _css = HERE / "widget.css"

    m = traitlets.Int(0).tag(sync=True)
    k = traitlets.Int(0).tag(sync=True)
    n = traitlets.Int(0).tag(sync=True)
    cells = traitlets.List(traitlets.Int()).tag(sync=True)
    cols = traitlets.Int(8).tag(sync=True)
    bits_per_cell = traitlets.Int(1).tag(sync=True)
    lit = traitlets.List().tag(sync=True)              # [[cell, kind, words], ...] of the last operation
    verdict = traitlets.Unicode("").tag(sync=True)     # records.Verdict's value, "" before any operation
    headline = traitlets.Unicode("").tag(sync=True)
    verdict_text = traitlets.Unicode("").tag(sync=True)
    label = traitlets.Unicode("").tag(sync=True)
    culprits = traitlets.List().tag(sync=True)         # [{"bit", "items", "total"}, ...] of a false positive
    fill_line = traitlets.Unicode("").tag(sync=True)
    rate_line = traitlets.Unicode("").tag(sync=True)
    rates = traitlets.Dict().tag(sync=True)
    plot = traitlets.List().tag(sync=True)             # [[n, measured, exact], ...]
    plot_line = traitlets.Unicode("").tag(sync=True)   # what the plot shows, in words
    error = traitlets.Unicode("").tag(sync=True)       # the model's refusal, "" after an accepted operation
    cell_text = traitlets.Unicode("").tag(sync=True)   # the pointed cell in the window's hover words

    def __init__(self, workbench: Workbench | None = None, *, m: int | None = None, k: int | None = None,
                 probes: int | None = None, **kwargs):
        super().__init__(**kwargs)
        if workbench is None:
            workbench = Workbench(**({} if probes is None else {"probes": probes}))
        self.workbench = workbench
        events = workbench.events
        for name in ("operated", "reset", "noted"):
            getattr(events, name).connect(self._changed)
        events.error.connect(self._refused)
        self.on_msg(self._on_message)
        if m is not None or k is not None:
            if not self.configure(m if m is not None else workbench.filter.m,
                                  k if k is not None else workbench.filter.k):
                raise ValueError(self.error)
        self._changed()

    # --- what the browser (or the notebook's code) asks for ----------------------------------------------------
    def insert(self, item):
        self.error = ""
        return self.workbench.insert(item)

    def lookup(self, item):
        self.error = ""
        return self.workbench.lookup(item)

    def configure(self, m, k) -> bool:
        self.error = ""
        return self.workbench.configure(m, k)

    def reset(self) -> None:
        self.error = ""
        self.workbench.reset()

    def point_at(self, bit) -> None:
        """The window's hover text of grid cell ``bit``: its value and the inserted items that set it."""
        wb = self.workbench
        if isinstance(bit, bool) or not isinstance(bit, int) or self.bits_per_cell != 1 or not 0 <= bit < wb.filter.m:
            self.cell_text = ""
            return
        self.cell_text = hover_text(wb.state, bit, int(wb.cell_values([bit])[0]))

    def _on_message(self, _widget, content, _buffers) -> None:
        if not isinstance(content, dict):
            return
        op = content.get("op")
        if op in ("insert", "lookup"):
            item = content.get("item")
            if not isinstance(item, str):
                self.error = f"Refused: the item must be text, got {type(item).__name__}. Nothing was changed."
                return
            getattr(self, op)(item)
        elif op == "configure":
            self.configure(_whole(content.get("m")), _whole(content.get("k")))
        elif op == "reset":
            self.reset()
        elif op == "cell":
            self.point_at(content.get("bit"))
        else:
            self.error = f"Refused: unknown operation {op!r}. Nothing was changed."

    # --- the model's events into traits ----------------------------------------------------------------------------
    def _changed(self, *_args) -> None:
        with self.hold_sync():   # one update message per operation, not one per trait
            self.cell_text = ""
            for name, value in view_state(self.workbench).items():
                setattr(self, name, value)

    def _refused(self, message: str) -> None:
        self.error = str(message)


def _whole(value):
    """A number typed in the browser's field, read as every typed number is (``units.whole_number``: 1000, 1,000,
    1_000, 1e3, 10^6) as int; anything else as it is (the model's check refuses it with a message naming it)."""
    if isinstance(value, str):
        number = whole_number(value)
        return value if number is None else number
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value

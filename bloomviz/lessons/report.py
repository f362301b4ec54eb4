"""A lesson step's report as a frozen record: what the window shows and ``bloomviz lesson --report`` writes.

``StepReport`` holds the filter after the step (m, k, scheme, variant, n, bits set; all None before the first
filter), the last operation's record (``last``: the workbench's operation as plain data), the measured, exact
and classic rates (``counters_rate`` only for a counting filter whose removals left the n-insert formula behind),
the numbers the step computed and what only the window acts on (``window``). Its fields cannot be reassigned; it
reads as a mapping too (``report["m"]``, ``report.get``), in the order ``as_dict`` gives for the JSON report.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields


@dataclass(frozen=True)
class StepReport(Mapping):
    step: int
    title: str
    line: int
    m: int | None
    k: int | None
    scheme: str | None
    variant: str | None
    n: int
    bits_set: int
    last: dict | None
    measured_rate: float | None
    exact_rate: float | None
    classic_rate: float | None
    numbers: dict
    window: list
    counters_rate: float | None = None

    @property
    def asked(self) -> dict | None:
        """The step's predict question as the window shows it (its ``predict`` record), or None."""
        return next((w for w in self.window if w["action"] == "predict"), None)

    def requests(self) -> list[dict]:
        """What the step asks the window to open (its ``show`` records: tab= or scenario=)."""
        return [w for w in self.window if w["action"] == "show"]

    @classmethod
    def of(cls, step: int, title: str, line: int, snapshot: dict, numbers: dict, window: list) -> "StepReport":
        return cls(step=step, title=title, line=line, numbers=numbers, window=window, **snapshot)

    def as_dict(self) -> dict:
        """The report as the JSON report writes it (``counters_rate`` only where there is one)."""
        out = {f.name: getattr(self, f.name) for f in fields(self) if f.name not in ("numbers", "window",
                                                                                   "counters_rate")}
        if self.counters_rate is not None:
            out["counters_rate"] = self.counters_rate
        out["numbers"], out["window"] = self.numbers, self.window
        return out

    # read as a mapping: the view's field-by-field hiding before Reveal, the command line's summary
    def __getitem__(self, key: str):
        return self.as_dict()[key]

    def __iter__(self):
        return iter(self.as_dict())

    def __len__(self) -> int:
        return len(self.as_dict())

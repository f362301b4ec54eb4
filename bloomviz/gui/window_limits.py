"""Saved preferences read back as untrusted text: a font scale that is not a finite number within the offered
range (a hand-edited or damaged settings file) is the default, not a window that fails to start.

The limits on sizes a user can type (m, k, probes, a growing filter's stages) are the model's
(``bloomviz.workbench.limits``), checked there before anything is allocated.
"""

from __future__ import annotations

import math

from bloomviz.workbench.limits import MAX_PROBES  # noqa: F401  (the model's limit, named for the Options dialog)


def font_scale(value: object, scales: tuple, default: float) -> float:
    """A saved font scale as a usable number: the default when it is not a finite number in the offered range."""
    try:
        scale = float(value)
    except (TypeError, ValueError, OverflowError):
        return default
    if not math.isfinite(scale) or not scales[0] <= scale <= scales[-1]:
        return default
    return scale

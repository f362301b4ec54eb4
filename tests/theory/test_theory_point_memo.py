"""The theory at one n, asked for twice in a row (the Explain panel's numbers, then the plot's readout, after
every insert), is computed once: ``theory.curves`` keeps the last single point by its exact parameters."""

from __future__ import annotations

import numpy as np

from bloomviz.theory import curves


def _counting(monkeypatch) -> list:
    asked = []
    real = curves.fp_exact_at

    def counted(m, k, ns, points=False):
        asked.append((m, k, tuple(np.asarray(ns, dtype=float).reshape(-1)), points))
        return real(m, k, ns, points)

    monkeypatch.setattr(curves, "fp_exact_at", counted)
    monkeypatch.setattr(curves, "_LAST_POINT", None)
    return asked


def test_one_point_asked_twice_is_computed_once_and_each_caller_gets_its_own_arrays(monkeypatch):
    asked = _counting(monkeypatch)
    first = curves.theory_many(95_850_584, 7, np.array([1234.0]), points=True)
    first["fp_exact"][0] = -1.0                      # a caller writing into its answer changes no later answer
    second = curves.theory_many(95_850_584, 7, np.array([1234.0]), points=True)
    assert len(asked) == 1
    fresh = curves._theory_many(95_850_584, 7, np.array([1234.0]), True)
    assert {name: float(v[0]) for name, v in second.items()} == {name: float(v[0]) for name, v in fresh.items()}


def test_any_other_parameter_computes_afresh(monkeypatch):
    asked = _counting(monkeypatch)
    base = dict(m=1000, k=3, n=np.array([10.0]), points=True)
    curves.theory_many(**base)
    for change in (dict(m=1001), dict(k=4), dict(n=np.array([11.0])), dict(n=np.array(10.0))):
        curves.theory_many(**{**base, **change})
    assert len(asked) == 5
    shape = curves.theory_many(1000, 3, np.array(10.0), points=True)["fp_exact"].shape   # the last one: kept
    assert shape == () and len(asked) == 5


def test_curves_are_never_kept_and_leave_the_point_kept(monkeypatch):
    """Many points, or one row of a curve (points=False, read from the cached curve), compute every time; the
    point kept before them is still answered after them (the plot draws its curve between the two askings)."""
    asked = _counting(monkeypatch)
    curves.theory_many(1000, 3, np.array([2.0]), points=True)
    for _ in range(2):
        curves.theory_many(1000, 3, np.array([1.0, 2.0]), points=True)
        curves.theory_many(1000, 3, np.array([2.0]))
    assert len(asked) == 5
    curves.theory_many(1000, 3, np.array([2.0]), points=True)
    assert len(asked) == 5

"""What a filter class takes and can do, declared once on the class, so no caller probes for a method to find out.

Every registered class states ``capabilities = Capabilities(...)`` (tests/filters/test_capabilities.py checks each one
answers it and that the answer matches what the class has: a ``remove`` for ``removable``, counters for
``counting``, stages for ``staged``). Views, the window's model and the measurement read these flags instead of
``hasattr(flt, "counters")`` or ``hasattr(look, "stage_of")``: a new variant says what it is in one line and
every caller follows.

The helpers below answer the questions the callers asked by probing (a cell's top value, the grid's values),
from the declaration.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import numpy as np

from bloomviz.filters import bitstore
from bloomviz.filters.params import K, M, Param


@dataclass(frozen=True)
class Capabilities:
    # its constructor's arguments besides the scheme, in the order a form asks for them (params.py): the window's
    # form, the lesson options, the session format and the command line are made from these
    parameters: tuple[Param, ...] = (M, K)
    # ``remove(item, force=False)`` returning a ``Removal``
    removable: bool = False
    # its cells are counters: ``counters`` (all m), ``max_counter`` (the saturation value); its results carry
    # ``counters`` too (CountingInsertion, CountingLookup)
    counting: bool = False
    # a list of stages that grows: ``stages`` (stages.Stages: specs, offsets); its insert is a
    # ``StageInsertion`` (``new_stage``) and its lookup a ``ScalableLookup`` (``stage_of``, ``hit_stages``)
    staged: bool = False
    # one m-bit array ``bits`` and the row-of-positions batch paths (rows.py: insert_rows, test_rows,
    # count_fresh) that the exact measurement works through
    plain_bits: bool = True
    # the standard filter's classic formula, approximation and bound describe it (a counting filter answers
    # lookups as a standard one; slices, blocks and stages have their own theory)
    standard_formulas: bool = True
    # ``take_back(flt, insertion)`` below undoes its own last insert exactly from what ``add`` returned (the
    # window's undo of a typed insert, which then keeps no copy of the filter); False: the caller keeps a copy
    # to go back to (a new variant is safe without saying anything)
    takes_back_inserts: bool = False
    # rollback.batch_log(flt) notes what a batch is about to change (the positions that were 0, the counters it
    # touches, the stages it opens), so that a failure part way or an undo puts it back without a copy of the
    # filter; False: the caller copies the filter, or says the batch may be partly in it
    logs_batches: bool = False

    @cached_property     # asked on every insert: worked out once per class's declaration
    def sized(self) -> bool:
        """Built from a fixed m and k (a scalable filter grows from a capacity instead; its m and k are outcomes)."""
        return {"m", "k"} <= {param.name for param in self.parameters}


def of(flt) -> Capabilities:
    """The declaration of ``flt``'s class (a class works too)."""
    cls = flt if isinstance(flt, type) else type(flt)
    return cls.capabilities


def take_back(flt, insertion) -> None:
    """Undo ``insertion``, ``flt``'s last insert (``add``'s answer), for a class that ``takes_back_inserts``. The
    class answers it privately (``_take_back``), as it answers persist.py's hooks: the window's undo needs it,
    a user of the set-like API does not (tests/core/test_public_api.py)."""
    flt._take_back(insertion)


def max_value(flt) -> int:
    """The top value a cell can hold: a counting filter's saturation value, 1 for a bit."""
    return int(flt.max_counter) if of(flt).counting else 1


def grid_values(flt) -> np.ndarray:
    """What the grid shows for any filter: a uint8 array of length ``flt.m`` (bits 0/1, or counters)."""
    caps = of(flt)
    if caps.counting or not caps.plain_bits:
        return np.asarray(flt.values_for_grid(), dtype=np.uint8)
    return bitstore.unpack(flt.bits)


def counters_of(flt, result) -> tuple[int, ...]:
    """The counter values an operation's result reports (empty for a filter of bits)."""
    return tuple(result.counters) if of(flt).counting else ()

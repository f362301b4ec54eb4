"""What a filter saves and how it comes back: the hooks files/storage.py and files/session.py work through.

A filter class answers them privately (``_state_params``, ``_state_payload``, ``_from_state``, and the class
declarations ``_stored_params`` and ``_payload_size``), so its public API stays set-like; a new variant that
keeps parameters of its own overrides those. ``from_state`` checks everything it is given before allocating
(messages name the bad value) — a damaged file is refused, never half-read.
"""

from __future__ import annotations


def params_of(flt) -> dict[str, int | float]:
    """The filter's parameters besides m, k and the scheme, as plain numbers (none for the standard filter)."""
    return flt._state_params()


def payload_of(flt) -> bytes:
    """The filter's cells as the .bloom payload stores them (bits, packed counters, a stage table and bits)."""
    return flt._state_payload()


def from_state(cls, m: int, k: int, scheme: str, count: int, params: dict, payload: bytes):
    """A filter of class ``cls`` rebuilt from saved numbers and payload (ValueError, naming what is wrong)."""
    return cls._from_state(m, k, scheme, count, params, payload)


def stored_params(cls) -> dict[str, type]:
    """The names and number types of what a .bloom file stores for ``cls`` besides m, k and the scheme."""
    return cls._stored_params


def payload_size(cls, m: int, params: dict) -> tuple[int, int]:
    """The (lowest, highest) payload size in bytes that m and the stored parameters imply for ``cls``."""
    return cls._payload_size(m, params)

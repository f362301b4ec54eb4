"""The lab's three worked examples, each a file a student could have written (``bloomviz lab --example NAME``
runs one; ``EXAMPLES`` names them): a good filter, plain double hashing, a weak hash. They are the lab's own
tests (tests/lab/test_lab.py)."""

from pathlib import Path

EXAMPLES = ("good_filter", "double_hashing", "weak_hash")


def spec(name: str) -> str:
    """``FILE.py:make_filter`` of the example called ``name``."""
    if name not in EXAMPLES:
        raise ValueError(f"no example {name!r}; the examples are {', '.join(EXAMPLES)}")
    return f"{Path(__file__).with_name(name + '.py')}:make_filter"

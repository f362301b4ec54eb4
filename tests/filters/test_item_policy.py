"""Decided and documented (issue 13, item 8): what counts as an item, the same way in every call.

- a lone surrogate is an item: its surrogatepass UTF-8 bytes, distinct from every other string;
- a bytearray or memoryview is the item made of its bytes at the call, the same member as the equal bytes;
- anything else is a TypeError naming the type;
- a design that asks for k > 64 uses k = 64 and says so, from the core, for the command line and the window.
"""

from __future__ import annotations

import array
import subprocess
import sys

import pytest

from bloomviz.filters import persist
from bloomviz.files import session as S
from bloomviz.theory.calculator import textbook_design
from bloomviz.items.encoding import to_bytes
from bloomviz.filters.registry import make_filter

VARIANTS = {"standard": dict(m=4096, k=4), "counting": dict(m=4096, k=4), "partitioned": dict(m=4096, k=4),
            "blocked": dict(m=4096, k=4), "scalable": dict(initial_capacity=50, p=0.01)}
BYTES_LIKE = {"bytearray": lambda b: bytearray(b), "memoryview": lambda b: memoryview(b),
              "memoryview slice": lambda b: memoryview(b"__" + b + b"__")[2:-2]}


@pytest.mark.parametrize("variant", list(VARIANTS))
@pytest.mark.parametrize("kind", list(BYTES_LIKE))
def test_bytes_like_items_are_their_bytes_in_every_call(variant, kind):
    make = BYTES_LIKE[kind]
    a, b = make_filter(variant, **VARIANTS[variant]), make_filter(variant, **VARIANTS[variant])
    a.add(make(b"one"))
    a.update([make(b"two"), make(b"three")])
    b.update([b"one", b"two", b"three"])
    assert persist.payload_of(a) == persist.payload_of(b) and len(a) == len(b) == 3
    for word in (b"one", b"two", b"three"):
        assert make(word) in a and word in a
        assert a.lookup(make(word)).maybe_present
    assert list(a.contains_many([make(b"one"), b"two"])) == [True, True]


def test_a_bytearray_changed_after_the_insert_changes_nothing_inserted():
    flt = make_filter("standard", m=4096, k=4)
    buf = bytearray(b"first")
    flt.add(buf)
    buf[:] = b"other"
    assert b"first" in flt and len(flt) == 1


def test_a_counting_filter_removes_a_bytes_like_item_as_its_bytes():
    flt = make_filter("counting", m=4096, k=4)
    flt.add(b"gone")
    flt.remove(bytearray(b"gone"))
    assert b"gone" not in flt and len(flt) == 0


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_lone_surrogates_are_distinct_reproducible_items(variant):
    flt = make_filter(variant, **VARIANTS[variant])
    flt.update(["\ud800", "a\udfff"])
    assert "\ud800" in flt and "a\udfff" in flt
    assert to_bytes("\ud800") == b"\xed\xa0\x80" and to_bytes("\ud800") != to_bytes("\ud801")
    assert "\ud800".encode("utf-8", "surrogatepass") in flt   # the same member as its bytes


def test_lone_surrogates_hash_the_same_in_another_process():
    flt = make_filter("standard", m=4096, k=4)
    here = [int(x) for x in flt.lookup("\ud800").positions]
    code = ("from bloomviz.filters.registry import make_filter\n"
            "print([int(x) for x in make_filter('standard', m=4096, k=4).lookup('\\ud800').positions])")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True)
    assert out.stdout.strip() == str(here)


def test_sessions_keep_lone_surrogates_as_text_and_bytes_like_as_bytes():
    session = S.Session(m=64, k=2, operations=[S.SavedOperation("insert", item="x\ud800"),
                                               S.SavedOperation("insert", item=bytearray(b"\x00\x01"))])
    back = S.loads(S.dumps(session))
    assert back.operations[0].item == "x\ud800"
    assert back.operations[1].item == b"\x00\x01" and type(back.operations[1].item) is bytes


@pytest.mark.parametrize("bad", [1, 1.5, None, ["a"], ("a",), {"a": 1}, array.array("b", [1])])
@pytest.mark.parametrize("variant", list(VARIANTS))
def test_anything_else_is_a_type_error_naming_the_type_in_every_call(variant, bad):
    flt = make_filter(variant, **VARIANTS[variant])
    calls = {"add": lambda: flt.add(bad), "update": lambda: flt.update([bad]), "in": lambda: bad in flt,
             "lookup": lambda: flt.lookup(bad)}
    for name, call in calls.items():
        with pytest.raises(TypeError, match=type(bad).__name__):
            call()
    assert len(flt) == 0


def test_a_design_that_needs_more_than_64_positions_says_so():
    m, k, notes = textbook_design(1000, 1e-25)
    assert k == 64 and m > 0
    assert len(notes) == 1 and "k = 84" in notes[0] and "k = 64 is used" in notes[0]
    assert textbook_design(1000, 0.01)[2] == []
    with pytest.raises(ValueError, match="2\\*\\*34"):
        textbook_design(10**9, 1e-25)
    with pytest.raises(ValueError, match="10,000,000"):
        textbook_design(10**7, 0.01, max_m=10_000_000)


def test_simulate_prints_the_capped_k_note():
    out = subprocess.run([sys.executable, "-m", "bloomviz", "simulate", "--n", "20", "--p", "1e-25", "--probes",
                          "100", "--csv", "-"], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0 and "k = 64 is used" in out.stderr


def test_for_capacity_warns_when_it_caps_k():
    from bloomviz.filters.standard import BloomFilter
    with pytest.warns(UserWarning, match="k = 64 is used"):
        flt = BloomFilter.for_capacity(100, 1e-25)
    assert flt.k == 64
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert BloomFilter.for_capacity(100, 0.01).k == 7

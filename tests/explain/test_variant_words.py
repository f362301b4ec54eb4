"""Each variant's words come from its describer (bloomviz.explain.describers, keyed by class; explain.variants
asks it) and its facts from its class, and they say exactly what the window's model said before they moved.

``data/variant_words.json`` holds what ``gui/workbench.py`` (as of the commit that added this test) gave for the
same filters and operations: ``_describe_filter``, ``variant_title``, ``_insert_note``, ``_variant_rows``,
``grid_bands``, ``_theory_rows``, ``bound_line``, ``_where`` and the first part of ``hover_text``. No Qt here.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bloomviz.explain import variants as words
from bloomviz.filters.params import REQUIRED
from bloomviz.filters.capabilities import grid_values
from bloomviz.explain.describers import DESCRIBERS, words_class
from bloomviz.filters.registry import PARAMETERS, VARIANTS, make_filter

CASES = json.loads((Path(__file__).parents[1] / "data" / "variant_words.json").read_text(encoding="utf-8"))


def _plain(value):
    """Tuples as lists, as the JSON holds them."""
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value


@pytest.mark.parametrize("case", CASES, ids=[f"{c['variant']}-{c['params'].get('m', '')}" for c in CASES])
def test_words_match_what_the_window_model_said(case):
    expected = case["expected"]
    capacity = None if case["variant"] == "scalable" else 25   # as the window was configured
    flt = make_filter(case["variant"], scheme="murmur3-km", **case["params"])
    assert words.new_filter_text(flt, capacity) == expected["describe"]
    assert words.title(flt) == expected["title"]
    ins = None
    for i in range(case["n"]):
        ins = flt.add(f"item{i}")
        assert words.insert_note(flt, ins) == expected.get(f"note{i}", ""), i
    assert _plain(words.operation_rows(flt, "insert", ins)) == expected["insert_rows"]
    assert _plain(words.grid_bands(flt, ins.positions)) == expected["bands_after_insert"]
    look, absent = flt.lookup("item3"), flt.lookup("absent-x")
    assert _plain(words.operation_rows(flt, "lookup", look)) == expected["lookup_rows"]
    assert _plain(words.operation_rows(flt, "lookup", absent)) == expected["lookup_rows2"]
    assert _plain(words.grid_bands(flt, absent.positions)) == expected["bands_after_lookup"]
    assert _plain(words.theory_rows(flt)) == expected["theory"]
    assert _plain(words.bound_line(flt)) == expected["bound"]
    bit = case["bit"]
    for b in (0, bit, flt.m - 1):
        assert words.hover_where(flt, b) == expected[f"where{b}"]
    value = int(grid_values(flt)[bit])
    assert f"{words.cell_name(flt)} {bit:,} = {value}{words.hover_where(flt, bit)}" == expected["hover"]


def test_every_variant_has_one_registry_entry_and_declares_its_parameters():
    for vid, cls in VARIANTS.items():
        assert cls.variant == vid
        assert words.variant_title(vid) == words_class(cls).title and cls in DESCRIBERS
        names = [p.name for p in cls.capabilities.parameters]
        assert list(PARAMETERS[vid]) == names + ["scheme"]
        # a variant built from m and k declares them; one that grows declares neither
        assert ({"m", "k"} <= set(names)) == cls.capabilities.sized
        if cls.capabilities.sized:
            assert PARAMETERS[vid]["m"] is REQUIRED and PARAMETERS[vid]["k"] is REQUIRED


def test_the_declarations_say_what_the_constructors_take():
    # the defaults declared are the constructors' defaults: a filter built from them alone equals one built
    # with no optional argument at all
    for vid, cls in VARIANTS.items():
        required = {p.name: {"m": 512, "k": 3, "initial_capacity": 50, "p": 0.01}[p.name]
                    for p in cls.capabilities.parameters if p.required}
        optional = {p.name: p.default for p in cls.capabilities.parameters if not p.required}
        assert make_filter(vid, **required, **optional) == make_filter(vid, **required)
        assert words_class(cls).unit == ("counters" if cls.capabilities.counting else "bits")


def test_the_variant_tip_names_every_variant_in_registry_order():
    tip = words.variant_tip()
    starts = [tip.index(f"{words_class(cls).short_title}: {words_class(cls).description}")
              for cls in VARIANTS.values()]
    assert starts == sorted(starts)


def test_removal_is_a_fact_of_the_class():
    assert [vid for vid, cls in VARIANTS.items() if cls.capabilities.removable] == ["counting"]
    for cls in VARIANTS.values():
        assert cls.capabilities.removable == hasattr(cls, "remove")


def test_a_blocked_filter_with_other_blocks_says_their_size():
    flt = make_filter("blocked", m=4096, k=3, block_bits=1024)
    assert words.bands_text(flt) == "outlined: 1024-bit blocks; an item's k bits all lie in one"
    assert words.bands_text(make_filter("standard", m=64, k=2)) == ""


def test_an_explanation_that_fails_raises_for_the_tests_to_see():
    flt = make_filter("counting", m=64, k=2)
    with pytest.raises(AttributeError):
        words.operation_rows(flt, "insert", object())
    with pytest.raises(AttributeError):
        words.insert_note(flt, object())


def test_the_filters_hold_no_words():
    # what the describers say is said there only: no filter class answers a describer's question itself
    asked = {n for n in dir(words_class(VARIANTS["scalable"])) if not n.startswith("_")} - {"flt"}
    for cls in VARIANTS.values():
        assert not asked & set(dir(cls)), cls.__name__

"""inspect's layout line says what each layout is, from the layout the reader recorded: RedisBloom's links are
one array each, pybloom-live's scalable links are partitioned, a mixed chain is described link by link."""

from __future__ import annotations

from pathlib import Path

from bloomviz import formats
from bloomviz.commands.foreign import layout_text

DATA = Path(__file__).parents[1] / "data" / "foreign"


def _layout(name: str) -> str:
    (flt, *_rest) = formats.open_filters(DATA / name, formats.detect(DATA / name))
    return layout_text(flt.m, flt.k, flt.layout)


def test_redisbloom_links_are_one_array_each_not_partitioned():
    text = _layout("redisbloom-scaling.bfdump")
    assert text.startswith("3 links one after another, each one array") and "partitioned" not in text
    assert _layout("redisbloom-nonscaling.bfdump").startswith("1 link, one array")


def test_pybloom_live_scalable_links_are_partitioned():
    assert _layout("pybloom-live-scalable.pybloom") == (
        "3 links one after another, each a partitioned filter with its own m and k (k slices, one bit per slice)")


def test_a_mixed_chain_is_described_link_by_link():
    text = layout_text(100, 3, {"kind": "links", "links": [(0, 50, 3, 10), (50, 50, 3, 0)]})
    assert text == ("2 links one after another: link 0: m = 50, k = 3, partitioned: 3 slices of 10 bits; "
                    "link 1: m = 50, k = 3, one array")

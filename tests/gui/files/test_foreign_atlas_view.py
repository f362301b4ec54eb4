"""The Foreign view's atlas: a file with many filters gets a histogram over them, a click on a bar shows one
of its filters in the grid, and a lookup says which filter answered; a one-filter file shows no atlas."""

from __future__ import annotations

import html
from pathlib import Path

import numpy as np
import pytest

from bloomviz import formats
from bloomviz.filters import bitstore
from bloomviz.formats import atlas
from bloomviz.gui.files.foreign_view import ForeignView

DATA = Path(__file__).parents[2] / "data" / "foreign"
PARQUET = DATA / "pyarrow-bloom.parquet"


@pytest.fixture
def view(qtbot):
    v = ForeignView()
    qtbot.addWidget(v)
    v.resize(1400, 900)
    v.show()
    return v


def test_the_histogram_counts_every_filter_and_a_bar_shows_one(view, qtbot):
    assert view.open_path(str(PARQUET))
    filters = formats.open_filters(PARQUET)
    assert view.atlas.isVisible()
    counts = view.atlas.bar_counts()
    assert sum(counts) == len(filters) == 8
    fills = [f.bits_set / f.m for f in filters]
    expected, _ = atlas.histogram([{"fill": x} for x in fills], "fill", len(counts))
    assert counts == list(expected)
    fullest = int(np.argmax(fills))
    bar = atlas.bin_of(fills[fullest], view.atlas.edges, "fill")
    chosen = view.atlas.choose_bin(bar)
    assert chosen in view.atlas.filters_in_bin(bar) and view.which.currentIndex() == chosen
    shown = filters[chosen]
    assert np.array_equal(view.grid.picture.ravel()[:shown.m], bitstore.unpack(shown.bits))
    assert view.atlas.marker.isVisible()
    assert "8 (k = 8)" in view.atlas.words.text() and "past their design load" in html.unescape(view.atlas.words.text())
    view.atlas.metric_box.setCurrentIndex(1)      # the rate each filter's fill predicts, on a log axis
    assert sum(view.atlas.bar_counts()) == 8


def test_a_lookup_names_the_filter_that_answered(view):
    assert view.open_path(str(PARQUET))
    view.item.setText("item-250")            # in the string column's second row group only
    assert view.lookup()
    text = view.verdict.text()
    assert "probably in the set" in text and "column s, row group 1" in text
    assert view.current.label == "column s, row group 1"
    assert "refused it" in text               # the numeric columns cannot hold text: said, not hidden
    view.item.setText("never-an-item-xyz")
    view.lookup()
    assert "definitely not in the set" in view.verdict.text()


def test_a_single_filter_file_has_no_atlas(view):
    assert view.open_path(str(DATA / "guava-mitz64-utf8.guava"))
    assert not view.atlas.isVisible()


def test_format_options_from_the_more_field(view):
    spark = DATA / "spark-v1-longs.spark"
    view.more.setText("spark-items=long")
    assert view.open_path(str(spark))
    assert view.current.fields["items_as"] == "long"
    view.item.setText("-1400")
    assert view.lookup() and "probably in the set" in view.verdict.text()
    shown = view.current
    view.more.setText("bogus=1")
    assert not view.open_path(str(spark))
    assert "not KEY=VALUE of a known option" in view.message.text() and view.current is shown


def test_an_option_of_another_format_is_refused(view):
    view.more.setText("fp-chance=0.01")
    assert not view.open_path(str(PARQUET))
    assert "applies to cassandra files, not parquet" in view.message.text()


def test_the_atlas_says_what_fpp_a_parquet_design_rests_on(view):
    assert view.open_path(str(PARQUET))
    assert "sized for: fpp 0.05 assumed: Arrow's default; --fpp gives the writer's" in html.unescape(view.atlas.words.text())
    view.more.setText("fpp=0.01")
    assert view.open_path(str(PARQUET))
    assert "sized for: fpp 0.01 given" in html.unescape(view.atlas.words.text())
    assert all(f.fields["fpp"] == 0.01 for f in view.filters)

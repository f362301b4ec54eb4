"""The window's tab for other libraries' filters: the library's bits in the grid, its numbers, lookups with its
own hashing, File → Open sending such files there, and refusals that leave the shown filter as it was."""

from __future__ import annotations

import json
import os
from pathlib import Path

import numpy as np
import pytest

from bloomviz import formats
from bloomviz.filters import bitstore
from bloomviz.gui.files.foreign_view import ForeignView

DATA = Path(__file__).parents[2] / "data" / "foreign"
GUAVA = DATA / "guava-mitz64-utf8.guava"


@pytest.fixture
def view(qtbot):
    v = ForeignView()
    qtbot.addWidget(v)
    v.resize(1200, 700)
    v.show()
    return v


def test_a_guava_file_shows_its_bits_numbers_and_answers_with_guava_hashing(view):
    expected = json.loads((DATA / "guava-mitz64-utf8.json").read_text())
    assert view.open_path(str(GUAVA))
    flt = view.current
    assert (flt.format, flt.m, flt.k, flt.bits_set) == ("guava", expected["m"], expected["k"], expected["bits_set"])
    assert np.array_equal(view.grid.picture.ravel()[:flt.m], bitstore.unpack(flt.bits))
    text = view.numbers.text()
    assert f"{expected['m']:,}" in text and f"{expected['bits_set']:,}" in text and "not in the file" in text
    member = expected["items"][0]
    view.item.setText(member)
    assert view.lookup()
    assert "probably in the set" in view.verdict.text()
    x, y, kinds = view.grid.highlight_points()
    cells = sorted(int(r) * view.grid.cols + int(c) for c, r in zip(np.floor(x), np.floor(y)))
    assert cells == sorted(flt.lookup(member).positions) and set(kinds) == {"one"}
    absent = next(f"never-{i}" for i in range(10_000) if not flt.lookup(f"never-{i}").maybe_present)
    view.item.setText(absent)
    view.lookup()
    assert "definitely not in the set" in view.verdict.text()


def test_a_parquet_file_offers_each_column_and_row_group(view):
    assert view.open_path(str(DATA / "pyarrow-bloom.parquet"))
    expected = formats.open_filters(str(DATA / "pyarrow-bloom.parquet"))
    assert view.which.count() == len(expected) > 1
    view.which.setCurrentIndex(1)
    assert view.current.label == expected[1].label
    assert view.grid.bands() or view.current.m // 256 > 64   # blocks outlined when few enough to see


def test_refusals_name_the_problem_and_keep_the_filter_shown(view, tmp_path):
    assert view.open_path(str(GUAVA))
    shown = view.current
    assert not view.open_path(str(tmp_path))                     # a directory
    assert "Not opened" in view.message.text() and view.current is shown
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    assert not view.open_path(str(fifo))                         # refused before opening: no hang
    assert "FIFO" in view.message.text() and view.current is shown
    junk = tmp_path / "junk.bin"
    junk.write_bytes(b"\x01\x02\x03")
    assert not view.open_path(str(junk)) and view.current is shown


def test_file_open_sends_another_library_s_file_to_the_tab(qtbot, tmp_path):
    from PySide6 import QtCore

    from bloomviz.gui.files import foreign_view

    from bloomviz.gui.files import session_io
    from bloomviz.gui.main_window import MainWindow
    window = MainWindow(settings=QtCore.QSettings(str(tmp_path / "s.ini"), QtCore.QSettings.Format.IniFormat))
    qtbot.addWidget(window)
    foreign_view.install(window)
    files = session_io.install(window)
    before = window.wb.filter
    assert files.open_path(str(GUAVA), ask=False)
    assert window.foreign.current.format == "guava"
    assert window.tabs.currentWidget().widget() is window.foreign
    assert window.wb.filter is before            # the window's own filter is not touched


def test_a_session_whose_items_look_like_go_json_keys_is_not_taken_for_one(tmp_path):
    session = tmp_path / "s.bloomviz"
    session.write_text('{"format": "bloomviz-session", "schema_version": 1, "operations": '
                       '[{"op": "insert batch", "items": ["b", "m", "k"]}]}')
    assert formats.detect(str(session)) is None


def test_a_raw_files_m_and_k_are_read_as_every_number_is(view):
    from bloomviz.theory.units import NumberError
    view.raw_m.setText("8e3")
    view.raw_k.setText("1,0")
    with pytest.raises(NumberError, match="k must be a whole number such as 1000, 1,000"):
        view.options()
    view.raw_k.setText("3")
    assert (view.options()["m"], view.options()["k"]) == (8000, 3)
    view.raw_m.setText("2^13")
    assert view.options()["m"] == 8192


def test_a_lookup_takes_one_line_and_refuses_several_saying_so(view):
    expected = json.loads((DATA / "guava-mitz64-utf8.json").read_text())
    assert view.open_path(str(GUAVA))
    member = expected["items"][0]
    view.item.setText(member + "\r\n")
    assert view.lookup() and "probably in the set" in view.verdict.text()
    view.item.setText(f"{member}\n{expected['items'][1]}")
    assert not view.lookup() and view.verdict.text() == ""
    assert "the box holds 2 lines, and Look up takes one item" in view.message.text()

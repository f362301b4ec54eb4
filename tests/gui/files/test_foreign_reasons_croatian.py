"""The Other libraries' tab writes a system's reasons in the window's language: a real Cassandra SSTable's reasons
in Croatian words and marks, and the same view in English prints what ``inspect`` prints."""

from __future__ import annotations

import html

from bloomviz import formats, i18n
from bloomviz.formats.why import why
from bloomviz.gui.files.foreign_view import ForeignView
from world_fixtures import fixture


def test_the_reasons_follow_the_windows_language(qtbot):
    path = fixture("cassandra-3.11-iot", "md-2-big-Filter.db")
    i18n.use("hr")
    try:
        view = ForeignView()
        qtbot.addWidget(view)
        assert view.open_path(str(path))
        croatian = html.unescape(view.why_label.text())
    finally:
        i18n.use("en")
    assert "Zašto stopa može biti viša od zadane" in croatian
    assert "ovih 10.048 bitova predviđeno je za 997..1.002 particija; Index.db ih sadrži 1.000." in croatian
    assert "stopa tablice za to je 0,943 %" in croatian and "Cassandra's" not in croatian
    english = ForeignView()
    qtbot.addWidget(english)
    assert english.open_path(str(path))
    shown = html.unescape(english.why_label.text())
    assert all(reason in shown for reason in why("cassandra", formats.open_filters(path)))

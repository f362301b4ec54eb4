"""Set operations in Croatian: the grids' titles and counts, the table, the AND's numbers and the note under the
grids were English under hr ("A | B (OR) — 1,106 bits (54.0%)"); the atlas' and the reader's choices too."""

from __future__ import annotations

import re

from bloomviz import i18n


def test_the_set_operations_view_is_croatian(qtbot):
    from bloomviz.gui.setops_tab.view import SetOpsView
    i18n.use("hr")
    try:
        view = SetOpsView()
        qtbot.addWidget(view)
        qtbot.waitUntil(lambda: view.and_text.text() != "", timeout=10_000)
        titles = {key: label.text() for key, label in view.grid_titles.items()}
        headers = [view.table.horizontalHeaderItem(j).text() for j in range(4)]
        sources = [view.table.item(i, 3).text() for i in range(5)]
        texts = [view.and_text.text(), view.grid_note.text()]
    finally:
        i18n.use("en")
    assert "A | B  (ILI)" in titles["union"] and "bitova: " in titles["union"] and " bits" not in titles["union"]
    assert re.search(r"\(\d+,\d%\)", titles["a"]), titles["a"]          # 38,8%: the decimal comma
    assert headers == ["stvarno", "procijenjeno", "pogreška", "procijenjeno iz"]
    assert sources[0] == "bitovi od A"
    assert texts[0].startswith("<b>I prema filtru stvarnog presjeka</b>") and "accepted" not in texts[0]
    assert "bit po bit: <b>da</b>" in texts[1]


def test_the_other_libraries_tab_offers_its_choices_in_croatian(qtbot):
    from bloomviz.gui.files.foreign_atlas import AtlasPanel
    from bloomviz.gui.files.foreign_view import ForeignView
    i18n.use("hr")
    try:
        view, atlas = ForeignView(), AtlasPanel()
        qtbot.addWidget(view)
        qtbot.addWidget(atlas)
        first = view.format_combo.itemText(0)
        metrics = [atlas.metric_box.itemText(i) for i in range(atlas.metric_box.count())]
    finally:
        i18n.use("en")
    assert first == "prepoznaj iz sadržaja"
    assert metrics[0].startswith("popunjenost") and not any("fill" in m for m in metrics)

"""Croatian where the window still spoke English or counted wrong: the grid's hover (and its spoken form), a
count of filters in Croatian's three plural forms (1 filtar, 2-4 filtra, 5+ filtara; 11-14 filtara), and the
Ensemble page's rates written with a decimal comma."""

from __future__ import annotations

import pytest

from bloomviz import i18n
from bloomviz.explain import operations as words
from bloomviz.workbench.model import Workbench


@pytest.fixture
def croatian():
    i18n.use("hr")
    yield
    i18n.use("en")


def test_the_grids_hover_is_croatian_with_croatian_numbers(croatian):
    wb = Workbench(probes=50)
    assert wb.configure(4096, 3)
    for item in ("jabuka", "kruška"):
        wb.insert(item)
    bit = int(wb.filter.positions("kruška")[0])
    text = words.hover_text(wb.state, bit, 1)
    assert text.startswith(f"bit {i18n.number(bit)} = 1; postavili: ") and "kruška" in text
    assert "set by" not in text
    empty = next(i for i in range(1000, 4096) if not wb.filter.bits[i])
    assert words.hover_text(wb.state, empty, 0) == f"bit {empty // 1000}.{empty % 1000:03d} = 0; nijedan umetnuti " \
                                                   "element ne pada ovamo"
    assert "automatski umetnutih" in words.hover_listing(wb.state, bit, 1, 70_000)


def test_a_counting_filters_hover_names_its_counter_in_croatian(croatian):
    wb = Workbench(probes=50)
    assert wb.configure(256, 3, variant="counting")
    wb.insert("šljiva")
    bit = int(wb.filter.positions("šljiva")[0])
    assert words.hover_text(wb.state, bit, 1).startswith(f"brojač {bit} = 1 (od najviše ")


def test_counts_in_sentences_read_whatever_the_count(croatian):
    """A count Croatian would decline (32 bita, 21 bit, 3 bita) is written as a label's value instead: "broj
    bitova m = 32", "bitova 0 → 1: 2 od k = 3" (was "m = 32 bitova", "od njegovih k = 3 bitova")."""
    wb = Workbench(probes=50)
    assert wb.configure(32, 3)
    wb.insert("jabuka")
    _headline, text = words.verdict_words(wb.last_record, wb.filter)
    assert "bitova 0 → 1: " in text and text.endswith(" od k = 3.") and "3 bitova" not in text
    from bloomviz.explain import describers
    assert describers.describer(wb.filter).size_text() == "broj bitova m = 32"


@pytest.mark.parametrize("count, said", [(1, "1 filtar"), (2, "2 filtra"), (4, "4 filtra"), (5, "5 filtara"),
                                         (11, "11 filtara"), (12, "12 filtara"), (21, "21 filtar"),
                                         (22, "22 filtra"), (112, "112 filtara"), (1001, "1.001 filtar")])
def test_a_count_of_filters_takes_croatians_plural_form(croatian, count, said):
    pytest.importorskip("PySide6")
    from bloomviz.gui.explorer_tab.ensemble import _filters
    assert _filters(count) == said


def test_the_ensemble_result_is_croatian_rates_and_all(qtbot, croatian):
    from bloomviz.gui.explorer_tab.ensemble import EnsemblePage
    from bloomviz.measure.ensemble import EnsembleJob
    page = EnsemblePage()
    qtbot.addWidget(page)
    job = EnsembleJob(32, 3, 4, 22, probes=8, seed=0)
    while not job.step():
        pass
    page.show_result(job.result())
    said = page.message.text()
    assert "za 22 filtra sa shemom" in said and "filters" not in said
    mean = said.split("prosjek ", 1)[1].split(" ", 1)[0]
    assert "," in mean and "." not in mean, said                     # 0,1234: Croatian's decimal comma
    legend = [label.text for _sample, label in page.plot.plot_item.legend.items]
    assert any("prosjek 22 filtra" in text for text in legend) and not any("mean of" in t for t in legend)


def test_the_calculators_numbers_are_croatian(croatian):
    pytest.importorskip("PySide6")
    from bloomviz.gui.explorer_tab.calc import design_html
    from bloomviz.theory.calculator import solve
    html = design_html(solve(n=8, m=32, k=3))
    assert "0,1557 (15,6 %) — 1 od 6" in html, html        # was "0.1557 (15.6 %) — 1 in 6"
    assert "bitova po elementu: 2,683" in html and "postavljeno bitova: 53,3%" in html
    assert "bits per item" not in html and "of bits set" not in html


def test_the_explorers_scheme_lists_are_croatian(qtbot, croatian):
    from bloomviz.gui.explorer_tab.ensemble import EnsemblePage
    from bloomviz.hashing import schemes as hashing
    page = EnsemblePage()
    qtbot.addWidget(page)
    title = hashing.SCHEMES[hashing.DEFAULT_SCHEME].title
    assert page.scheme.itemText(page.scheme.findData(hashing.DEFAULT_SCHEME)) == i18n.tr(title) != title


def test_the_parameters_panels_design_is_croatian(croatian):
    pytest.importorskip("PySide6")
    from bloomviz.gui.filter_tab.params_panel import design_words
    words = design_words(200, 0.01, 1918, 7)
    assert words.startswith("Za n = 200 uz p = 0,01: k = 7, broj bitova m = 1.918 (bitova po elementu: 9,59)")
    assert "Najmanji m koji točno postiže p" in words and "bits" not in words


def test_the_lessons_line_of_numbers_is_croatian(croatian):
    """The line under a lesson's grid ("m = 64 bits · k = 3 · … · Bloom's formula 9.83 × 10⁻⁵ · last: insert “k1”")
    was English in a Croatian window; the command line, which never switches language, keeps it English."""
    from bloomviz.lessons import step_numbers
    report = {"m": 64, "k": 3, "scheme": "hand-set", "n": 1, "bits_set": 3, "measured_rate": 0.0125,
              "exact_rate": 9.96e-5, "classic_rate": 9.83e-5, "last": {"action": "insert", "item": "k1"}}
    parts = step_numbers.filter_line(report, True)
    assert parts[0] == "broj bitova m = 64" and "postavljenih bitova 3" in parts and "izmjereno 0,0125" in parts
    assert parts[-2] == "Bloomova formula 9,83 × 10⁻⁵" and parts[-1] == "posljednje: umetanje „k1”"
    i18n.use("en")
    english = step_numbers.filter_line(report, True)
    assert english[0] == "m = 64 bits" and english[-1] == "last: insert “k1”"


def test_every_scenarios_own_words_have_croatian_entries():
    """A scenario's title, check button, hint and verdict words are class attributes the Scenario panel translates
    when shown (the scan of tr() calls cannot see them)."""
    from bloomviz.i18n import catalogue
    from bloomviz.scenarios.stories import SCENARIOS
    po = i18n.HERE / "hr.po"
    entries = {e.msgid: e for e in catalogue.parse_po(po.read_text(encoding="utf-8"), po.name)}
    words = {w for cls in SCENARIOS.values() for w in (cls.title, cls.check_label, cls.check_hint, cls.says_absent,
                                                       cls.says_present, cls.says_false_positive) if w}
    assert len(words) >= 26
    missing = sorted(w for w in words if not (w in entries and entries[w].translated))
    assert not missing, f"add these to bloomviz/i18n/hr.po: {missing}"


def test_slow_motions_steps_are_croatian(croatian):
    """Slow motion (and a lesson's slow= and Predict) told an insert hash by hash in English under hr."""
    pytest.importorskip("PySide6")
    from bloomviz.gui.widgets.step_reveal import reveal_steps, verdict_line
    from bloomviz.hashing.schemes import SCHEMES
    scheme = SCHEMES["murmur3-mix"]
    positions = scheme.positions(b"jabuka", 1000, 3)
    line = verdict_line("insert", positions, [False, False, True])
    steps = reveal_steps("insert", "jabuka", b"jabuka", scheme, 1000, 3, positions, [False, False, True], line)
    texts = [step.text for step in steps]
    assert texts[0].startswith("<b>Umetanje „jabuka”</b> — kao bajtovi (UTF-8)") and "(bajtova: 6)" in texts[0]
    assert "završni korak MurmurHash3" in texts[1] and "finaliser" not in texts[1]
    assert texts[2].startswith("pozicija 0 od 3: ") and texts[4].endswith("je već 1")
    assert texts[-1] == "<b>Umetnut</b> — 2 bita prešla su iz 0 u 1."
    i18n.use("en")
    assert verdict_line("insert", positions, [False, False, True]) == "<b>Inserted</b> — 2 bits turned from 0 to 1."

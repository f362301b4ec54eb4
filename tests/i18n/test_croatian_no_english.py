"""What a Croatian window shows from the lessons' computed numbers, the scenarios' stories, the engines' notes,
the variants' sentences and the history's batch rows: Croatian words with Croatian marks, no English sentence.

Each text is made as the window makes it (under ``i18n.use("hr")``) and compared with the same text made in
English: a fallback shows up as a shared run of English words, or as a number written the English way."""

from __future__ import annotations

import dataclasses
import html
import re

import pytest

from bloomviz import i18n, lessons
from bloomviz.lessons import step_numbers

# English words a Croatian sentence never holds (names such as Bloom, Kedmi, MurmurHash3 or git may stay)
ENGLISH = re.compile(r"\b(the|of|and|is|are|with|from|for|bits|items|filter|filters|rate|exact|measured|"
                     r"stage|counter|counters|random|each|lookups?|inserted|removed|set)\b")


def english_words(text: str) -> list[str]:
    return ENGLISH.findall(text)


NUMBER = re.compile(r"\d+(?:[.,]\d+)+")


def english_marks(croatian: str, english: str) -> list[str]:
    """The English text's numbers with a mark (9,585,059; 0.0125) that the Croatian one does not write with
    Croatian marks (9.585.059; 0,0125)."""
    said = NUMBER.findall(croatian)
    return [n for n in NUMBER.findall(english) if n.translate({ord("."): ",", ord(","): "."}) not in said]


def in_both(make):
    """``make()`` in Croatian, then in English."""
    i18n.use("hr")
    try:
        croatian = make()
    finally:
        i18n.use("en")
    return croatian, make()


@pytest.fixture(autouse=True)
def english_after():
    yield
    i18n.use("en")


# The numbers steps compute, as lessons 4, 5, 8 and 9 report them (their English lines are checked against the
# real reports in tests/lessons/test_lesson_step_numbers.py; here only the words and marks around them matter).
KEDMI = {"kedmi.initial_density": 0.36, "kedmi.initial_bits_set": 169851, "kedmi.false_positives": 212,
         "kedmi.probes": 10000, "kedmi.measured_rate": 0.0212, "kedmi.expected_rate": 0.021377,
         "kedmi.exact_rate_zeroed": 0.0010001}
COMPUTED = {
    "design": {"numbers": {"design.n": 1_000_000, "design.p": 0.01, "design.k": 7, "design.m": 9_585_059,
                           "design.bits_per_item": 9.585059, "design.lower_bound_bits_per_item": 6.6439,
                           "design.optimal_k": 6.6439, "design.exact": 0.010039, "design.classic": 0.010039}},
    "rates": {"numbers": {"rates.m": 2**32, "rates.k": 20, "rates.440000000.classic": 0.06333,
                          "rates.440000000.exact": 0.06333, "rates.80000000.classic": 7.17e-11}},
    "ensemble": {"m": 64, "k": 4, "scheme": "murmur3-km", "numbers": {
        "ensemble.filters": 5000, "ensemble.n": 12, "ensemble.mean": 0.089, "ensemble.low": 0.087464,
        "ensemble.high": 0.090536, "ensemble.exact": 0.081323, "ensemble.classic": 0.079156}},
    "kedmi": {"numbers": KEDMI},
    "kedmi-zeroed": {"numbers": {**KEDMI, "kedmi.initial_bits_set": 0}},
    "git": {"numbers": {"git.commits": 59, "git.median_bits": 80.0, "git.lookups": 3220, "git.false_positives": 66,
                        "git.measured": 0.020497, "git.predicted": 0.009649, "git.distinct": 0.022594,
                        "git.textbook": 0.006734, "git.coinciding": 0.160559, "git.false_negatives": 0}},
    "eth": {"numbers": {"eth.bits_set": 906, "eth.m": 2048, "eth.k": 3, "eth.fill": 0.44238,
                        "eth.estimated_n": 398.73, "eth.expected_fp": 0.086575}},
}


@pytest.mark.parametrize("kind", COMPUTED)
def test_a_lesson_steps_computed_numbers_are_croatian(kind):
    croatian, english = in_both(lambda: "\n".join(step_numbers.computed_lines(COMPUTED[kind])))
    assert croatian and english and croatian != english
    assert not english_words(croatian), croatian
    assert NUMBER.findall(english) and not english_marks(croatian, english), croatian


def test_a_false_negative_and_a_stuck_counter_are_said_in_croatian():
    # lesson 6's steps 3 and 4, as its reports give them
    base = {"m": 16, "k": 3, "scheme": "hand-set", "variant": "counting", "n": 2, "bits_set": 3}
    forced = {**base, "last": {"action": "predict", "item": "A", "verdict": "no", "class": "false negative",
                               "inserted": 1, "removed": 0, "zeros": [2, 3], "caused_by": {"item": "X"}}}
    stuck = {**base, "last": {"action": "lookup", "item": "S", "verdict": "maybe", "class": "false positive",
                              "inserted": 4, "removed": 4, "stuck": [10, 11, 12], "member": False,
                              "culprits": {"10": [], "11": [], "12": []}}}
    croatian, english = in_both(lambda: [step_numbers.filter_line(r, True)[-1] for r in (forced, stuck)])
    assert "LAŽNO NEGATIVAN" in croatian[0] and "brojači 2, 3 na 0" in croatian[0] and "FALSE" in english[0]
    assert "zaglavljeni na najvišoj vrijednosti" in croatian[1] and "stuck at their top" in english[1]
    assert croatian[0].startswith("posljednje: predviđanje „A”")
    assert not any(english_words(text) for text in croatian), croatian


@pytest.fixture(scope="module")
def built():
    """Each scenario's filter as the window builds it (its design, its items), made once for the module."""
    from bloomviz.filters.registry import make_filter
    from bloomviz.scenarios.stories import SCENARIOS
    out = {}
    for key, cls in SCENARIOS.items():
        scenario = cls()
        for name, fewer in (("RANDOM_TRIALS", 2_000), ("PROBES", 5_000), ("MISSPELLINGS", 300), ("BROWSE", 1_000)):
            if hasattr(scenario, name):      # fewer strangers measured: the words around the numbers are the test
                setattr(scenario, name, fewer)
        design = scenario.design()
        flt = make_filter("standard", m=design.m, k=design.k, scheme=design.scheme)
        flt.update(scenario.items)
        out[key] = scenario, flt
    return out


@pytest.mark.parametrize("key", ["spell", "passwords", "contacts", "ssh", "urls"])
def test_a_scenarios_story_and_verdicts_are_croatian(built, key):
    from bloomviz.scenarios.base import Judged
    scenario, flt = built[key]
    croatian, english = in_both(lambda: scenario.story(flt))
    assert len(croatian) == len(english) >= 4
    for hr, en in zip(croatian, english):
        assert hr != en and not english_words(hr), hr
        assert not english_marks(hr, en), hr
    item = scenario.items[0]
    verdicts = [Judged(item, True, True), Judged("zzz-never", False, False), Judged("zzz-never", False, True)]
    croatian, english = in_both(lambda: [scenario.verdict_text(v) for v in verdicts])
    for hr, en in zip(croatian, english):
        assert hr != en and not english_words(hr.replace(item, "")), hr


@pytest.mark.parametrize("kind, items, value, probes", [
    ("verdict", ("k1",), "maybe", None), ("bits-set", ("k2", "k3"), 9, None), ("bits-set", (), 22, None),
    ("new-bits", ("jabuka",), 1, None), ("measured-rate", (), 0.157, 20000), ("exact-rate", (), 0.1873, None)])
def test_a_predictions_revealed_answer_is_croatian(kind, items, value, probes):
    from bloomviz.lessons.predict import answer_text
    croatian, english = in_both(lambda: answer_text(kind, items, value, probes))
    assert croatian != english and not english_words(croatian) and not english_marks(croatian, english), croatian


@pytest.mark.parametrize("engine, n, settings", [
    ("cassandra", 1000, {}), ("rocksdb", 1000, {}), ("rocksdb", 1000, {"legacy": True}), ("parquet", 1000, {}),
    ("parquet", 1000, {"writer": "parquet-java"}), ("clickhouse", 1000, {}), ("clickhouse", 1000, {"false_positive": 1e-6}),
    ("redis", 1000, {}), ("git", 3, {}), ("git", 600, {}), ("ethereum", 400, {}), ("spark", 1000, {}), ("orc", 1000, {}),
    ("hudi", 1000, {})])
def test_an_engines_notes_are_croatian(engine, n, settings):
    pytest.importorskip("PySide6")
    from bloomviz.gui.explorer_tab.engine_preset import note_text
    from bloomviz.theory.engines import ENGINES
    croatian, english = in_both(lambda: [note_text(note) for note in ENGINES[engine](n, **settings).notes])
    assert english == ENGINES[engine](n, **settings).notes      # what the command line prints
    assert len(croatian) == len(english) >= 1
    for hr, en in zip(croatian, english):
        # an engine's own setting names and values (parquet.bloom.filter.fpp 0.01, 'too many changes') stay as
        # its configuration writes them; the words around them are Croatian
        assert hr != en and not english_words(re.sub(r"'[^']*'|\b\w+(?:\.\w+)+\b", "", hr)), hr
    counted = {"clickhouse": "8.192", "redis": "1.", "ethereum": "2.048", "orc": "10.000", "hudi": "60.000"}
    if engine in counted and not settings:
        assert counted[engine] in " ".join(croatian), croatian       # a computed count with Croatian marks


@pytest.mark.parametrize("variant, options", [
    ("standard", {"m": 1000, "k": 3}), ("counting", {"m": 64, "k": 3, "counter_bits": 2}),
    ("partitioned", {"m": 999, "k": 3}), ("blocked", {"m": 4096, "k": 3}),
    ("scalable", {"initial_capacity": 10, "p": 0.01})])
def test_a_variants_sentences_and_rows_are_croatian(variant, options):
    """The new filter's sentence, an insert's note (a counter saturating, a stage opening), the rows explaining an
    insert and a lookup, the variant's own theory and the plot's bound line, as the Explain panel shows them."""
    from bloomviz.explain import variants
    from bloomviz.filters.registry import make_filter

    def said() -> list[str]:
        flt = make_filter(variant, **options)
        texts = [variants.new_filter_text(flt, 100)]
        for i in range(40):
            insertion = flt.add(f"x{i}")
            texts.append(variants.insert_note(flt, insertion))
        texts += [f"{a}: {b}" for a, b in variants.operation_rows(flt, "insert", insertion)]
        texts += [f"{a}: {b}" for a, b in variants.theory_rows(flt)]
        texts.append((variants.bound_line(flt) or (0, ""))[1])
        return [t for t in texts if t]

    croatian, english = in_both(said)
    assert len(croatian) == len(english) >= 1
    for hr, en in zip(croatian, english):
        assert hr != en and not english_words(hr), hr
        assert not english_marks(hr, en), hr
    if variant in ("counting", "scalable"):
        assert len(croatian) >= 3        # a note was made: counters saturated, stages opened


@pytest.mark.parametrize("count, said", [(1, "1 element, počevši od „jabuka0”"), (3, "3 elementa, počevši od „jabuka0”"),
                                         (1000, "1.000 elemenata, počevši od „jabuka0”")])
def test_the_historys_batch_row_and_its_undo_are_croatian(count, said):
    """A batch's History row ("1,000 items, from “…”") and the Undo entry it leaves, declined for its count."""
    from bloomviz.explain.operations import undo_text
    from bloomviz.workbench.model import Workbench
    wb = Workbench(probes=50)
    assert wb.configure(20_000, 3)
    assert wb.insert_batch([f"jabuka{i}" for i in range(count)]) == count
    entry = wb.history[-1]
    croatian, english = in_both(lambda: (dataclasses.replace(entry).label, undo_text(wb.undo_what)))
    assert croatian[0] == said and english[0] == f"{count:,} item{'s' * (count != 1)}, from “jabuka0”"
    assert croatian[1].startswith("Poništi umetanje ") and "items" not in croatian[1] and "Undo" in english[1]


def test_every_variants_title_and_theory_name_has_a_croatian_entry():
    """A variant's title (the Explain panel's heading, Compare's tooltip) and its theory curve's name on the rate
    plot are class attributes translated where shown: the scan of tr() calls cannot see them."""
    from bloomviz.explain.describers import DESCRIBERS
    from bloomviz.i18n import catalogue
    po = i18n.HERE / "hr.po"
    translated = {e.msgid for e in catalogue.parse_po(po.read_text(encoding="utf-8"), po.name) if e.translated}
    words = {w for cls in DESCRIBERS.values() for w in (cls.title, cls.theory_label, cls.theory_name) if w}
    assert len(words) >= 12 and not words - translated, f"add to bloomviz/i18n/hr.po: {sorted(words - translated)}"


def _bulk_insert_lines() -> list[str]:
    """The status lines of a bulk insert as the window shows them: one done, one cancelled part way (kept), one
    all or nothing cancelled (put back), a second refused, a file that went bad, and a file import's outcome."""
    from bloomviz.gui.files.file_import import ImportResult, summary
    from bloomviz.workbench.model import Workbench
    wb = Workbench(probes=50)
    assert wb.configure(20_000, 3)
    said = []
    wb.events.notice.connect(said.append)
    wb.events.error.connect(said.append)
    assert wb.insert_many([f"jabuka{i}" for i in range(1_500)])
    while wb.step_job():
        pass
    for atomic in (False, True):
        assert wb.run_job(lambda count: [f"kruška{i}" for i in range(count)], 100_000, "pasted lines", atomic=atomic)
        assert not wb.insert_many(["šljiva"])          # one job at a time
        for _ in range(3):
            wb.step_job()
        wb.cancel()

    def gone_bad(count):
        raise OSError("Input/output error")
    assert wb.run_job(gone_bad, 10, "items")
    while wb.step_job():
        pass
    said.append(summary(ImportResult(path="/tmp/rijeci.txt", inserted=1_234, lines=1_300, blank=2,
                                     undecodable=[3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15])))
    return said


def test_a_bulk_inserts_status_lines_are_croatian():
    pytest.importorskip("PySide6")
    croatian, english = in_both(_bulk_insert_lines)
    assert len(croatian) == len(english) >= 6
    assert english[0].startswith("Inserted 1,500 items in ") and "Inserted 1,234 items from rijeci.txt" in english[-1]
    assert croatian[0].startswith("Umetnuto elemenata: 1.500 za ") and "redaka iz" not in croatian[0]
    assert any("zalijepljenih redaka" in line and "vraćeno" in line for line in croatian), croatian
    for hr, en in zip(croatian, english):
        assert hr != en and not english_words(hr.replace("Input/output error", "")), hr
        # (the counts of a cancelled job differ between the runs: chunks are sized by time) no number written the
        # English way: 10,241 or 0.11
        assert not re.findall(r"\d,\d{3}(?!\d)|\d\.\d{1,2}(?!\d)", hr), hr
        assert len(NUMBER.findall(hr)) >= (1 if NUMBER.findall(en) else 0), hr


def test_the_other_libraries_table_and_answers_are_croatian():
    """The Other libraries' tab: its table's labels, the note under it, and a lookup's answers. The values a file
    holds as its system writes them (a format's name, a header's fields, the reader's hashing and notes) stay."""
    pytest.importorskip("PySide6")
    from pathlib import Path

    from bloomviz import formats
    from bloomviz.gui.files import foreign_words
    flt = formats.open_filters(Path(__file__).parents[1] / "data" / "seminar" / "bloom.txt", "bitset-text")[0]
    summary = flt.summary()
    kept = [str(v) for v in (summary["hashing"], *summary["fields"], *summary["fields"].values(), *summary["notes"])]

    def said():
        table = foreign_words.numbers_html(flt).replace("\u200b", "")
        for text in kept:
            table = table.replace(html.escape(text), "")
        answers = [foreign_words.one_filter_answer(True, [5, 17, 2300], None),
                   foreign_words.one_filter_answer(False, [5, 17, 2300], 17),
                   foreign_words.many_filters_answer("tablica 3", 2, 4, 9, 9, ["no key"], None),
                   foreign_words.many_filters_answer("tablica 3", 0, 1, 9, 1, [], 2300),
                   foreign_words.many_filters_answer("tablica 3", 0, 4, 9, 9, [], 2300)]
        return [re.sub(r"<[^>]+>", " ", text) for text in [table, *answers]]

    croatian, english = in_both(said)
    assert "bits set" in english[0] and "postavljeni bitovi" in croatian[0] and "1.000" in croatian[0]
    for hr, en in zip(croatian, english):
        assert hr != en and not english_words(hr.replace("no key", "")), hr
        assert not english_marks(hr, en), hr


def _lesson_refusal_reasons() -> list[str]:
    """Every reason a lesson is refused with as a literal (``LessonError(path, line, "…")``)."""
    import ast
    from pathlib import Path
    root = Path(i18n.__file__).resolve().parents[1]
    found = []
    for path in sorted(root.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            name = getattr(node, "func", None)
            name = getattr(name, "id", None) or getattr(name, "attr", None)
            if name == "LessonError" and len(node.args) >= 3 and isinstance(node.args[2], ast.Constant):
                found.append(node.args[2].value)
    return found


def test_every_reason_a_lesson_file_is_refused_with_has_a_croatian_entry():
    from bloomviz.i18n import catalogue
    po = i18n.HERE / "hr.po"
    entries = {e.msgid: e for e in catalogue.parse_po(po.read_text(encoding="utf-8"), po.name)}
    reasons = _lesson_refusal_reasons()
    assert len(reasons) >= 20
    missing = [r for r in reasons if not (r in entries and entries[r].translated)]
    assert not missing, f"add these to bloomviz/i18n/hr.po: {missing}"


@pytest.mark.parametrize("text", [
    "no title here\n", "# Lesson\n\n## Step\n```bloomviz\ninsert a\n", "# A\n# B\n", "# A\n\n## \n",
    "# A\n\n## S\n```bloomviz\nfly away\n```\n", "# A\n\n## S\n```bloomviz\nnew m=64 m=32\n```\n",
    "# A\n\n## S\n```python\nx = 1\n```\n", "# A\n\n## S\n```bloomviz\n" + "w" * 9000 + "\n```\n", "# A\n"])
def test_a_user_lesson_files_refusal_is_croatian(text):
    from bloomviz.lessons import LessonError, parse_text
    with pytest.raises(LessonError) as caught:
        parse_text(text, "moja-lekcija.md")
    croatian, english = in_both(caught.value.said)
    assert english == str(caught.value) and croatian.startswith("moja-lekcija.md")
    from bloomviz.lessons.actions import REGISTRY
    # the actions' names are the lesson file's own words, in any language
    words = re.sub(r"[\w-]+", lambda m: "" if m.group(0) in REGISTRY else m.group(0), croatian)
    assert croatian != english and not english_words(words), croatian
    assert not english_marks(croatian, english), croatian

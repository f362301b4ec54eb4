"""The Explain panel's hash rows in Croatian: every label of every scheme's and variant's rows has a Croatian
entry, and a value is a number, a formula, or words that have one (the default scheme's value ended in
"(fmix64: MurmurHash3's finaliser, so the k positions behave as independent)", English under hr)."""

from __future__ import annotations

import re

import pytest

from bloomviz import i18n
from bloomviz.explain import variants as variant_words
from bloomviz.hashing.schemes import SCHEMES
from bloomviz.hashing.seed_schemes import hand_set
from bloomviz.workbench.model import Workbench

# the words a formula is written in: function names, not English
CODE = {"mod", "fmix64", "rotate", "left", "int", "sha256", "bytes", "hexdigest", "h_i", "h_0", "h0", "h1", "h2"}
VARIANTS = {"standard": {"m": 4096, "k": 4}, "counting": {"m": 4096, "k": 4}, "partitioned": {"m": 4096, "k": 4},
            "blocked": {"m": 4096, "k": 4}, "scalable": {"initial_capacity": 5, "p": 0.01}}


def english_words(text: str) -> list[str]:
    return [w for w in re.findall(r"[A-Za-z_][A-Za-z_0-9]*", text) if len(w) >= 3 and w.lower() not in CODE
            and not re.fullmatch(r"0x[0-9a-f]+|MurmurHash3", w)]


def untranslated(make_rows) -> list[str]:
    """The labels and values of ``make_rows()`` that have English words and show the same in Croatian (the
    panel passes each through ``tr``; a describer may have translated it already)."""
    english = make_rows()
    i18n.use("hr")
    try:
        croatian = [(i18n.tr(a), i18n.tr(b)) for a, b in make_rows()]
    finally:
        i18n.use("en")
    assert len(english) == len(croatian)
    return [text for row_en, row_hr in zip(english, croatian) for text, shown in zip(row_en, row_hr)
            if english_words(text) and shown == text]


def test_every_schemes_rows_have_croatian_words():
    schemes = list(SCHEMES.values()) + [hand_set({"jabuka": [1, 2, 3]})]
    found = {scheme.id: untranslated(lambda s=scheme: s.explain(b"jabuka", 1000, 3)) for scheme in schemes}
    assert not any(found.values()), {k: v for k, v in found.items() if v}


def test_every_variants_rows_have_croatian_words():
    found = {}
    for variant, options in VARIANTS.items():
        wb = Workbench(probes=20)
        assert wb.configure(variant=variant, **options), variant
        for i in range(12):
            wb.insert(f"w{i}")
        found[variant] = untranslated(lambda f=wb.filter: variant_words.hash_rows(f, b"jabuka"))
    assert len(found) == 5 and not any(found.values()), {k: v for k, v in found.items() if v}


def test_the_explain_panel_shows_the_default_schemes_words_in_croatian():
    pytest.importorskip("PySide6")
    from bloomviz.explain import operations
    from bloomviz.gui.filter_tab.explain_panel import explanation_html
    wb = Workbench(probes=20)
    assert wb.configure(1918, 7)
    i18n.use("hr")
    try:
        wb.insert("jabuka")
        shown = explanation_html(operations.explain(wb.last_record, wb.state))
    finally:
        i18n.use("en")
    assert "završni korak MurmurHash3" in shown and "finaliser" not in shown


def test_the_variants_bands_and_their_key_are_croatian():
    """A scalable filter's grid said "stage 0: 20/20 items, fill 53%" and its key "outlined: the stages, …" in a
    Croatian window; the partitioned and blocked filters' bands likewise."""
    from bloomviz.explain import describers
    said = {}
    for variant, options in VARIANTS.items():
        wb = Workbench(probes=20)
        assert wb.configure(variant=variant, **options)
        for i in range(30):
            wb.insert(f"w{i}")
        i18n.use("hr")
        try:
            words = describers.describer(wb.filter)
            said[variant] = [words.bands_text] + [label for _a, _b, label in words.grid_bands([5])]
        finally:
            i18n.use("en")
    assert said["scalable"][0].startswith("obrubljene: faze") and said["scalable"][1].startswith("faza 0: elemenata ")
    assert said["partitioned"][1] == said["partitioned"][1].replace("slice", "") and "odsječak 0: " in said["partitioned"][1]
    assert said["blocked"][0].startswith("obrubljeni: blokovi (bitova u bloku: 512)") and said["blocked"][1].startswith("blok ")

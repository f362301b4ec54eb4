"""The window in the user's language: which language is chosen, the catalogue compiled by the install, numbers
written the language's way, and the Croatian catalogue complete. The window itself: tests/gui/window/test_i18n_window.py."""

from __future__ import annotations

import gettext
import io
import subprocess
import sys
from pathlib import Path

import pytest

from bloomviz import i18n
from bloomviz.i18n import catalogue

ROOT = Path(__file__).resolve().parents[2]
PO = ROOT / "bloomviz" / "i18n" / "hr.po"


@pytest.fixture(autouse=True)
def english_after():
    yield
    i18n.use("en")


@pytest.mark.parametrize("environ, setting, expected", [
    ({}, None, "en"),
    ({"LANG": "hr_HR.UTF-8"}, None, "hr"),
    ({"LANG": "de_DE.UTF-8"}, None, "en"),                          # no German catalogue: English
    ({"LC_ALL": "hr_HR.UTF-8", "LANG": "en_GB.UTF-8"}, None, "hr"),  # LC_ALL before LANG
    ({"LANGUAGE": "de:hr", "LANG": "en_US.UTF-8"}, None, "hr"),     # LANGUAGE's first language with a catalogue
    ({"LC_ALL": "C", "LANG": "hr_HR.UTF-8"}, None, "hr"),           # C names no language: the next variable
    ({"LANG": "hr_HR.UTF-8"}, "en", "en"),                          # the setting over the locale
    ({"LANG": "en_US.UTF-8"}, "hr", "hr"),
    ({"LANG": "hr_HR.UTF-8"}, "auto", "hr"),                        # "auto": follow the system
    ({"LANG": "en_US.UTF-8", "BLOOMVIZ_LANG": "hr"}, "en", "hr"),   # the environment over the setting
    ({"LANG": "hr_HR.UTF-8", "BLOOMVIZ_LANG": "en"}, "hr", "en"),
    ({"BLOOMVIZ_LANG": "hr-HR"}, None, "hr"),
    ({"BLOOMVIZ_LANG": "xx", "LANG": "hr_HR.UTF-8"}, None, "en"),   # asked for a language there is none of
])
def test_the_language_is_chosen_from_environment_setting_and_locale(environ, setting, expected):
    assert i18n.choose(setting, environ) == expected


def test_numbers_are_written_the_languages_way():
    assert i18n.number(1234567) == "1,234,567"
    assert i18n.number(0.0125, 4) == "0.0125"
    assert i18n.use("hr") == "hr"
    assert i18n.number(1234567) == "1.234.567"
    assert i18n.number(1234567.25, 2) == "1.234.567,25"
    assert i18n.number(0.0125) == "0,0125"


def test_tr_answers_english_until_a_language_is_chosen_and_for_strings_the_catalogue_lacks():
    assert i18n.tr("&File") == "&File"
    i18n.use("hr")
    assert i18n.tr("&File") == "&Datoteka"
    assert i18n.tr("a string no catalogue has") == "a string no catalogue has"
    assert i18n.use("de") == "en" and i18n.tr("&File") == "&File"


def test_croatian_plural_forms():
    # hr.po's own Plural-Forms rule, with one plural entry added
    text = PO.read_text(encoding="utf-8") + ('\nmsgid "{n} bit"\nmsgid_plural "{n} bits"\nmsgstr[0] "{n} bit"\n'
                                             'msgstr[1] "{n} bita"\nmsgstr[2] "{n} bitova"\n')
    plural = gettext.GNUTranslations(io.BytesIO(catalogue.mo_bytes(catalogue.parse_po(text))))
    words = {n: plural.ngettext("{n} bit", "{n} bits", n) for n in (1, 2, 5, 11, 12, 21, 22, 25, 102, 112)}
    assert words == {1: "{n} bit", 2: "{n} bita", 5: "{n} bitova", 11: "{n} bitova", 12: "{n} bitova",
                     21: "{n} bit", 22: "{n} bita", 25: "{n} bitova", 102: "{n} bita", 112: "{n} bitova"}


def test_the_po_reader_keeps_continued_strings_context_and_leaves_fuzzy_and_empty_entries_out():
    text = ('msgid ""\nmsgstr "Content-Type: text/plain; charset=UTF-8\\n"\n\n'
            'msgctxt "menu"\nmsgid "Open"\nmsgstr "Otvori"\n\n'
            'msgid "a long "\n"line"\nmsgstr "dugi "\n"redak \\"s navodnicima\\""\n\n'
            '#, fuzzy\nmsgid "guess"\nmsgstr "nagađanje"\n\n'
            'msgid "not yet"\nmsgstr ""\n')
    entries = catalogue.parse_po(text)
    assert [e.msgid for e in entries] == ["", "Open", "a long line", "guess", "not yet"]
    assert [e.translated for e in entries[1:]] == [True, True, False, False]
    t = gettext.GNUTranslations(io.BytesIO(catalogue.mo_bytes(entries)))
    assert t.pgettext("menu", "Open") == "Otvori" and t.gettext("Open") == "Open"
    assert t.gettext("a long line") == 'dugi redak "s navodnicima"'
    assert t.gettext("guess") == "guess" and t.gettext("not yet") == "not yet"
    with pytest.raises(catalogue.PoError, match="po>:2"):
        catalogue.parse_po('msgid "x"\nmsgstr unquoted\n')


def test_the_croatian_catalogue_is_complete_and_its_formats_match_the_english():
    entries = [e for e in catalogue.parse_po(PO.read_text(encoding="utf-8"), PO.name) if e.msgid]
    assert len(entries) > 100
    untranslated = [e.msgid for e in entries if not e.translated]
    assert not untranslated, f"hr.po lacks these (or marks them fuzzy): {untranslated}"
    ids = [(e.msgctxt, e.msgid) for e in entries]
    assert len(ids) == len(set(ids)), "an English string is in hr.po twice"
    import string
    fields = lambda s: sorted(f for _, f, _, _ in string.Formatter().parse(s) if f is not None)  # noqa: E731
    for e in entries:
        for text in e.msgstr.values():
            assert fields(text) == fields(e.msgid), f"hr.po:{e.line}: the placeholders differ"
        if "&" in e.msgid:
            assert "&" in e.msgstr[0], f"hr.po:{e.line}: a menu's key letter (&) is lost"


def test_the_build_compiles_the_catalogue_and_the_window_reads_the_compiled_file(tmp_path):
    # setup.py's build_py, as `pip install .` runs it: the .mo appears in the built package
    build = tmp_path / "build"
    result = subprocess.run([sys.executable, "setup.py", "-q", "build_py", "--build-lib", str(build)], cwd=ROOT,
                            capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL)
    assert result.returncode == 0, result.stderr[-2000:]
    mo = build / "bloomviz" / "i18n" / "hr.mo"
    assert mo.is_file()
    with open(mo, "rb") as handle:
        compiled = gettext.GNUTranslations(handle)
    assert compiled.gettext("&File") == "&Datoteka"
    assert compiled.gettext("Find a &false positive") == "Pronađi &lažno pozitivan"

    # the package reads that .mo (not the .po) when it is there and up to date
    built = build / "bloomviz" / "i18n"
    (built / "hr.po").write_bytes(PO.read_bytes())
    mo.touch()
    here = i18n.HERE
    try:
        i18n.HERE = built
        assert i18n.use("hr") == "hr"
        assert i18n.source() == str(mo)
        assert i18n.tr("&Help") == "P&omoć"
    finally:
        i18n.HERE = here

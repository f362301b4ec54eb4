"""The window's words in the user's language: ``tr(text)``, ``ptr(context, text)`` and ``ntr(one, many, n)``
(gettext), the language chosen once, and numbers written the way that language writes them.

gettext, not Qt's QTranslator: the verdicts and explanations the window shows are written by Qt-free packages
(``explain``, ``workbench``) that must not load Qt, and gettext needs nothing but the standard library; a
catalogue is a plain ``.po`` file (``hr.po`` beside this module) that any translator's tool edits, compiled to
``.mo`` by the install (``setup.py`` runs ``catalogue.compile_file``). The English text is the key, so an
untranslated string, or a language without a catalogue, shows English.

Only the window switches language (``MainWindow`` calls ``use(choose(setting))`` before it builds its menus);
the command line never does, so every CLI output stays English whatever the locale, as its users' scripts expect.

The language: ``BLOOMVIZ_LANG`` (e.g. ``hr``) over the window's setting over the system locale (``LANGUAGE``,
then ``LC_ALL``, ``LC_MESSAGES``, ``LANG``), English where none names a language with a catalogue.
"""

from __future__ import annotations

import functools
import gettext
import numbers
import os
from pathlib import Path

HERE = Path(__file__).resolve().parent
DOMAIN = "bloomviz"
ENVIRONMENT = "BLOOMVIZ_LANG"
SETTING = "view/language"      # the window's preference: a code, or "auto"/"" to follow the system
SYSTEM_VARIABLES = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")
ENGLISH = "en"
# The languages the window offers, by code: their names as their speakers write them.
NAMES = {"en": "English", "hr": "Hrvatski"}
# How each language writes 1234567.5: (thousands separator, decimal mark). Croatian after CLDR (hr: "." and ",").
SEPARATORS = {"en": (",", "."), "hr": (".", ",")}

_active: gettext.NullTranslations = gettext.NullTranslations()
_language = ENGLISH
_source = ""          # the file the active catalogue was read from


def available() -> tuple[str, ...]:
    """The languages with a catalogue beside this module, English first."""
    return (ENGLISH,) + tuple(sorted(p.stem for p in HERE.glob("*.po")))


def normalise(value: str | None) -> str:
    """'hr_HR.UTF-8', 'hr-HR', 'HR' -> 'hr'; '' for nothing, 'C' or 'POSIX'."""
    text = (value or "").strip()
    code = text.split(".")[0].split("@")[0].replace("-", "_").split("_")[0].lower()
    return "" if code in ("", "c", "posix") else code


def choose(setting: str | None = None, environ=None) -> str:
    """The language code the window uses: ``BLOOMVIZ_LANG``, else ``setting`` (``""``/``"auto"`` = follow the
    system), else the first language of the system locale with a catalogue, else English."""
    environ = os.environ if environ is None else environ
    have = available()
    for wanted in (environ.get(ENVIRONMENT), None if (setting or "auto") == "auto" else setting):
        code = normalise(wanted)
        if code:
            return code if code in have else ENGLISH
    for name in SYSTEM_VARIABLES:
        value = environ.get(name, "")
        codes = [normalise(part) for part in value.split(":")] if name == "LANGUAGE" else [normalise(value)]
        for code in codes:
            if code in have:
                return code
        if any(codes):
            return ENGLISH        # the locale names a language without a catalogue: English, not a lower variable
    return ENGLISH


def catalogue_files(code: str) -> tuple[Path, Path]:
    """(the .po a translator edits, the .mo the install compiled from it)."""
    return HERE / f"{code}.po", HERE / f"{code}.mo"


def load(code: str) -> tuple[gettext.NullTranslations, str]:
    """The translations of ``code`` and the file they were read from. The .mo the install built, unless the
    .po is newer (a checkout edited since its install), which is then compiled in memory the same way."""
    if code == ENGLISH:
        return gettext.NullTranslations(), ""
    po, mo = catalogue_files(code)
    if not po.exists() and not mo.exists():
        return gettext.NullTranslations(), ""
    if mo.exists() and (not po.exists() or mo.stat().st_mtime >= po.stat().st_mtime):
        with open(mo, "rb") as handle:
            return gettext.GNUTranslations(handle), str(mo)
    import io

    from bloomviz.i18n import catalogue
    data = catalogue.mo_bytes(catalogue.parse_po(po.read_text(encoding="utf-8"), po.name))
    return gettext.GNUTranslations(io.BytesIO(data)), str(po)


def use(code: str) -> str:
    """Make ``code`` the language of ``tr``; returns the code in use (English when it has no catalogue)."""
    global _active, _language, _source
    _active, _source = load(code)
    _language = code if _source else ENGLISH
    tr.cache_clear()
    ptr.cache_clear()
    return _language


def language() -> str:
    return _language


def source() -> str:
    """The catalogue file the words come from ('' for English)."""
    return _source


@functools.lru_cache(maxsize=4096)
def tr(text: str) -> str:
    """``text`` in the window's language (itself in English, or when the catalogue lacks it). Each text is
    translated once per language (``use`` forgets them): the window's fixed phrases are asked for again on every
    operation (the explanation's ~40, the verdict's, the status line's), and a kept answer is a lookup in C."""
    return _active.gettext(text)


@functools.lru_cache(maxsize=256)
def ptr(context: str, text: str) -> str:
    """``text`` as said in ``context`` (a .po entry's ``msgctxt``): one English word that Croatian says two ways,
    such as "items" in a column's heading (elementi) and in "umetnuto elemenata: 1.000" (context "job")."""
    return _active.pgettext(context, text)


def ntr(one: str, many: str, n: int) -> str:
    """The form of ``one``/``many`` for the count ``n`` (Croatian has three)."""
    return _active.ngettext(one, many, n)


def marks(text: str) -> str:
    """A number already written the English way (``"0.0125"``, ``"1,234.5 %"``, ``"2.3e-05"``) with the
    language's marks instead; for text that is only a number (a rate_text, a percent_text), never a sentence."""
    group, point = SEPARATORS.get(_language, SEPARATORS[ENGLISH])
    return text.translate({ord(","): group, ord("."): point})


def number(value, decimals: int | None = None) -> str:
    """``value`` with the language's thousands separator and decimal mark: 1234567.5 -> '1,234,567.5' in
    English, '1.234.567,5' in Croatian. ``decimals``: that many places (else an int as it is, a float by %g)."""
    if decimals is not None:
        text = f"{value:,.{decimals}f}"
    elif isinstance(value, numbers.Integral):      # numpy's integers too: %g would write 1.23457e+06
        text = f"{int(value):,}"
    else:
        text = f"{value:,g}" if abs(value) < 1e16 else f"{value:g}"
    group, point = SEPARATORS.get(_language, SEPARATORS[ENGLISH])
    return text.translate({ord(","): group, ord("."): point})

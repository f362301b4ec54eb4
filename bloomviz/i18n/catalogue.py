"""A translation catalogue: the ``.po`` text a translator edits, compiled to the ``.mo`` file gettext reads.

Standard-library only, and importable by file path without the package: ``setup.py`` loads this file to compile
every ``bloomviz/i18n/*.po`` during the build (``pip install .`` and ``pip install -e .``), so no compiled file is
committed and none goes stale in an installed copy. The GNU tools' ``msgfmt`` would do the same, but it is not
on every machine that installs a wheel's source, and Python's own ``Tools/i18n/msgfmt.py`` is not installed with
Python; the format (a header, two tables of offsets into sorted strings) is small enough to write here.
"""

from __future__ import annotations

import ast
import struct
from dataclasses import dataclass, field

MAGIC = 0x950412DE


@dataclass
class Entry:
    msgid: str = ""
    msgid_plural: str | None = None
    msgctxt: str | None = None
    msgstr: dict[int, str] = field(default_factory=dict)
    fuzzy: bool = False
    line: int = 0

    @property
    def translated(self) -> bool:
        return not self.fuzzy and bool(self.msgstr) and all(self.msgstr.values())


class PoError(ValueError):
    """A line of a .po file that cannot be read (its file and line are named)."""


def _unquote(text: str, where: str) -> str:
    text = text.strip()
    if len(text) < 2 or text[0] != '"' or text[-1] != '"':
        raise PoError(f"{where}: expected a quoted string, found {text[:40]!r}")
    try:
        return ast.literal_eval(text)
    except (ValueError, SyntaxError) as exc:
        raise PoError(f"{where}: bad string {text[:40]!r} ({exc})") from None


def parse_po(text: str, name: str = "<po>") -> list[Entry]:
    """Every entry of a .po file, in file order (the header's ``msgid ""`` included)."""
    entries: list[Entry] = []
    entry: Entry | None = None
    flags_pending = False
    target = None          # (entry, field, index) the next continuation line extends

    def finish():
        nonlocal entry
        if entry is not None:
            entries.append(entry)
        entry = None

    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        where = f"{name}:{number}"
        if not line:
            continue
        if line.startswith("#"):
            if entry is not None and entry.msgstr:
                finish()
            if line.startswith("#,") and "fuzzy" in (flag.strip() for flag in line[2:].split(",")):
                flags_pending = True
            continue
        keyword, _, rest = line.partition(" ")
        if line.startswith('"'):
            if target is None:
                raise PoError(f"{where}: a string continues nothing")
            obj, attr, index = target
            piece = _unquote(line, where)
            if attr == "msgstr":
                obj.msgstr[index] += piece
            else:
                setattr(obj, attr, getattr(obj, attr) + piece)
            continue
        if keyword in ("msgctxt", "msgid") and entry is not None and entry.msgstr:
            finish()
        if entry is None:
            entry = Entry(line=number, fuzzy=flags_pending)
            flags_pending = False
        if keyword in ("msgctxt", "msgid", "msgid_plural"):
            setattr(entry, keyword, _unquote(rest, where))
            target = (entry, keyword, 0)
        elif keyword == "msgstr":
            entry.msgstr[0] = _unquote(rest, where)
            target = (entry, "msgstr", 0)
        elif keyword.startswith("msgstr[") and keyword.endswith("]") and keyword[7:-1].isdigit():
            index = int(keyword[7:-1])
            entry.msgstr[index] = _unquote(rest, where)
            target = (entry, "msgstr", index)
        else:
            raise PoError(f"{where}: unknown keyword {keyword[:20]!r}")
    finish()
    return entries


def mo_bytes(entries: list[Entry]) -> bytes:
    """The GNU .mo file of ``entries``: the header and every translated, non-fuzzy entry (an untranslated one
    is left out, so gettext answers it with the English text)."""
    pairs = {}
    for e in entries:
        if not (e.translated or e.msgid == ""):
            continue
        key = e.msgid if e.msgid_plural is None else e.msgid + "\0" + e.msgid_plural
        if e.msgctxt is not None:
            key = e.msgctxt + "\x04" + key
        value = "\0".join(e.msgstr[i] for i in sorted(e.msgstr))
        pairs[key.encode("utf-8")] = value.encode("utf-8")
    keys = sorted(pairs)
    ids = b"".join(k + b"\0" for k in keys)
    strs = b"".join(pairs[k] + b"\0" for k in keys)
    count = len(keys)
    ids_start = 7 * 4 + 16 * count
    strs_start = ids_start + len(ids)
    offsets, pos_id, pos_str = [], 0, 0
    for k in keys:
        offsets.append((len(k), ids_start + pos_id, len(pairs[k]), strs_start + pos_str))
        pos_id += len(k) + 1
        pos_str += len(pairs[k]) + 1
    header = struct.pack("<7I", MAGIC, 0, count, 7 * 4, 7 * 4 + 8 * count, 0, 0)
    originals = b"".join(struct.pack("<2I", n, o) for n, o, _, _ in offsets)
    translations = b"".join(struct.pack("<2I", n, o) for _, _, n, o in offsets)
    return header + originals + translations + ids + strs


def compile_file(po_path, mo_path) -> int:
    """Compile one .po file to ``mo_path``; returns how many entries are translated."""
    from pathlib import Path
    po_path, mo_path = Path(po_path), Path(mo_path)
    entries = parse_po(po_path.read_text(encoding="utf-8"), po_path.name)
    data = mo_bytes(entries)
    mo_path.parent.mkdir(parents=True, exist_ok=True)
    partial = mo_path.with_name(mo_path.name + ".part")
    partial.write_bytes(data)
    partial.replace(mo_path)
    return sum(1 for e in entries if e.msgid and e.translated)

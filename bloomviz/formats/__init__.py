"""Other libraries' Bloom filter files, read without those libraries (numpy, bitarray, mmh3 and xxhash only).

``open_filters(path, format=None, **options)`` returns a list of ``ForeignFilter`` (several for a Parquet file:
one per column chunk with a filter). ``detect(path)`` names the format from the file's contents, or returns
None (a raw array, or nothing known). Every refusal of a file's contents is a ``ForeignFormatError`` naming the
file, the format and what was wrong; problems reaching the file stay ``OSError``.

This package never imports Qt (tests/test_core_has_no_qt.py checks it), so notebooks and servers can use it.
"""

from __future__ import annotations

from types import ModuleType

from bloomviz.formats import bitset_text, go_bloom, guava, parquet, pybloom_live, pyprobables, raw, redisbloom
from bloomviz.formats.common import ForeignFilter, ForeignFormatError, ForeignLookup, Source

# detection order: the most specific signatures first (Parquet has magic bytes at both ends, a RedisBloom dump
# its magic or an (iterator 1, header) record whose length gives its link count; the others are
# recognised by exact size relations between a header or footer and the file length; a bitset text is only
# 0s and 1s, which no binary header above is)
FORMATS: dict[str, ModuleType] = {m.NAME: m for m in (parquet, redisbloom, guava, go_bloom, pybloom_live,
                                                     pyprobables, bitset_text, raw)}
BLOOMVIZ_MAGIC = b"BLOOMVZ\x00"
SNIFF_BYTES = 4096

__all__ = ["FORMATS", "ForeignFilter", "ForeignFormatError", "ForeignLookup", "detect", "open_filters"]


def detect(path) -> str | None:
    """The format whose signature the file carries, "bloomviz" for a ``.bloom`` file, or None."""
    with Source(path, "detect") as src:
        head, tail, size = src.head(SNIFF_BYTES), src.tail(SNIFF_BYTES), src.size
    if head.startswith(BLOOMVIZ_MAGIC):
        return "bloomviz"
    for name, module in FORMATS.items():
        if module.sniff(head, tail, size):
            return name
    return None


def open_filters(path, format: str | None = None, **options) -> list[ForeignFilter]:
    """Read the file as ``format`` (detected when None). Options a format does not take are ignored."""
    if format is None:
        format = detect(path)
        if format is None:
            raise ForeignFormatError("detect", "not a format bloomviz recognises from its contents; name one "
                                     f"with --format ({', '.join(FORMATS)})", path)
        if format == "bloomviz":
            raise ForeignFormatError("detect", "a bloomviz .bloom file, not another library's", path)
    if format not in FORMATS:
        raise ValueError(f"unknown format {format!r}; known formats: {', '.join(FORMATS)}")
    return FORMATS[format].read(path, **options)

"""Other libraries' Bloom filter files, read without those libraries (numpy, bitarray, mmh3, xxhash; cramjam for
compressed LevelDB/RocksDB blocks, pycryptodome for Ethereum's Keccak-256).

``open_filters(path, format=None, **options)`` returns a list of ``ForeignFilter`` (several for a Parquet file:
one per column chunk with a filter). ``detect(path)`` names the format from the file's contents, or returns
None (a raw array, or nothing known). Every refusal of a file's contents is a ``ForeignFormatError`` naming the
file, the format and what was wrong; problems reaching the file stay ``OSError``.

A format module holds ``NAME``, ``TITLE``, ``sniff(head, tail, size)`` and ``read(path, **options)``; it may
also hold ``sniff_dir(path)`` (it recognises a directory: a repository, a database), ``CLI_OPTIONS`` (its own
command-line options and selectors, ``common.Option``) and ``route(filters, item)`` (the filters an item is
looked up in, when the file itself says: a table's index sends a key to one data block's filter).

This package never imports Qt (tests/architecture/test_core_has_no_qt.py checks it), so notebooks and servers can use it.
"""

from __future__ import annotations

import os
from types import ModuleType

from bloomviz.formats import (bitset_text, cassandra, ethereum, git_commit_graph, go_bloom, guava, hudi, orc,
                              parquet, pybloom_live, pyprobables, raw, redisbloom, spark)
from bloomviz.formats import leveldb, rocksdb
from bloomviz.formats import bloomfilter_js
from bloomviz.formats.common import ForeignFilter, ForeignFormatError, ForeignLookup, Option, Source

# detection order: the most specific signatures first (Parquet has magic bytes at both ends, a RedisBloom dump
# its magic or an (iterator 1, header) record whose length gives its link count, LevelDB and RocksDB tables a
# 64-bit magic as their last 8 bytes; the others are
# recognised by exact size relations between a header or footer and the file length; a bitset text is only
# 0s and 1s, which no binary header above is)
FORMATS: dict[str, ModuleType] = {m.NAME: m for m in (parquet, hudi, orc, git_commit_graph, ethereum, redisbloom,
                                                     leveldb, rocksdb, guava, go_bloom, bloomfilter_js, pybloom_live,
                                                     pyprobables,
                                                     spark, cassandra, bitset_text, raw)}
BLOOMVIZ_MAGIC = b"BLOOMVZ\x00"
SNIFF_BYTES = 4096

__all__ = ["FORMATS", "ForeignFilter", "ForeignFormatError", "ForeignLookup", "Option", "detect", "format_options",
           "open_filters", "route", "suspect", "unsupported_text"]


def format_options() -> list[tuple[str, Option]]:
    """(format name, option) for every option a format declares, in registry order."""
    return [(name, opt) for name, module in FORMATS.items() for opt in getattr(module, "CLI_OPTIONS", ())]


def route(fmt: str, filters: list[ForeignFilter], item: object) -> list[ForeignFilter]:
    """The filters ``item`` is looked up in: the format's own rule if it has one, else all of them."""
    rule = getattr(FORMATS.get(fmt), "route", None)
    return list(filters) if rule is None else rule(filters, item)


def detect(path) -> str | None:
    """The format whose signature the file (or directory) carries, "bloomviz" for a ``.bloom`` file, or None.
    Every format's signature is tried; when several match, the one whose reader accepts the file wins."""
    if os.path.isdir(path):
        return next((name for name, module in FORMATS.items()
                     if getattr(module, "sniff_dir", None) is not None and module.sniff_dir(path)), None)
    with Source(path, "detect") as src:
        head, tail, size = src.head(SNIFF_BYTES), src.tail(SNIFF_BYTES), src.size
    if head.startswith(BLOOMVIZ_MAGIC):
        return "bloomviz"
    candidates = [name for name, module in FORMATS.items() if module.sniff(head, tail, size)]
    if len(candidates) > 1:
        # Signatures can collide (a std::bitset text of 0s and 1s is also hex digits): take the first
        # candidate whose reader accepts the file; if none does, the first, so its refusal is the one reported.
        for name in candidates:
            try:
                FORMATS[name].read(path)
            except (ForeignFormatError, ValueError):
                continue
            return name
    return candidates[0] if candidates else None


# A damaged file fails its format's full signature (a truncated Parquet file has no PAR1 at its end, a cut table
# no magic in its footer) but may still carry part of it; its own reader then says what is wrong, which helps
# more than a list of every format. Tried in this order; the first reader that refuses the file is reported.
LOOKS_LIKE = (("parquet", "starts with PAR1", lambda head, name: head.startswith(b"PAR1")),
              ("git", "starts with CGPH", lambda head, name: head.startswith(b"CGPH")),
              ("git", "is named like a commit-graph",
               lambda head, name: name == "commit-graph" or (name.startswith("graph-") and name.endswith(".graph"))),
              ("cassandra", "is named like a Cassandra filter", lambda head, name: name.endswith("-Filter.db")),
              ("leveldb", "is named like a LevelDB table", lambda head, name: name.endswith(".ldb")),
              ("rocksdb", "is named like a RocksDB table", lambda head, name: name.endswith(".sst")))


def suspect(path) -> str | None:
    """For a file no format recognises: "it <hint>, but as <format>: <that reader's refusal>" when part of a
    format's signature or its usual name points at one, else None."""
    try:
        with Source(path, "detect") as src:
            head = src.head(8)
    except (OSError, ValueError):
        return None
    name = os.path.basename(os.fsdecode(path))
    for fmt, hint, test in LOOKS_LIKE:
        if test(head, name):
            try:
                FORMATS[fmt].read(path)
            except (ForeignFormatError, ValueError) as exc:
                return f"it {hint}, but as {FORMATS[fmt].TITLE}: {getattr(exc, 'reason', exc)}"
            except OSError:
                continue
    return None


def unsupported_text(raw_hint: str) -> str:
    """What to tell a user whose file nothing recognises: what bloomviz reads, and how to read the bytes as a
    plain bit array anyway (``raw_hint``: the CLI's option or the window's menu path)."""
    known = "; ".join(f"{module.TITLE} ({name})" for name, module in FORMATS.items() if name != "raw")
    return (f"bloomviz reads a session (.bloomviz) or a filter (.bloom), and these files of other libraries "
            f"and systems: {known}. To look at its bytes as a plain bit array anyway, use the raw reader: "
            f"{raw_hint}")


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

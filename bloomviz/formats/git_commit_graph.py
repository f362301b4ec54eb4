"""git's changed-path Bloom filters: one filter per commit, in ``objects/info/commit-graph`` (or a split chain).

Read from gitformat-commit-graph(5), gitformat-chunk(5) and git's ``bloom.c``/``commit-graph.c``; no git
library and no git binary. A path is a repository (a worktree root, its ``.git`` directory or ``.git`` file, a
bare repository), a single ``commit-graph`` file, or one ``graph-<hash>.graph`` layer of a chain.

File (every number big-endian)::

    "CGPH" | version 1 | hash version (1 SHA-1: H = 20, 2 SHA-256: H = 32) | chunks C | base graphs B
    C + 1 table entries: 4-byte id, 8-byte offset (the last id is 0; its offset ends the last chunk)
    OIDF 256 x u32 fanout (F[255] = N commits)   OIDL N x H commit ids, sorted   CDAT N x (H + 16)
    BIDX N x u32: end of commit i's filter in BDAT's data (cumulative; a filter is BIDX[i-1]..BIDX[i])
    BDAT u32 hash version (1 or 2), u32 k, u32 bits per entry b, then the filters, commit order
    BASE B x H: the layers below this one (a chain)          then an H-byte checksum of all of the above

A filter holds every path the commit changed against its first parent and every leading directory of those
paths (``dir/sub/file`` adds ``dir/sub`` and ``dir``), sized ceil(n·b / 8) bytes for n such paths (the manual
says 64-bit words; ``bloom.c`` counts bytes). Bit p is bit (p mod 8) of byte (p div 8): bloomviz's own order.
Two one-byte filters are special: 0x00 for a commit that changed nothing, 0xFF for one whose changed paths and
their leading directories number more than 512 (``bloom.c`` counts its map of both; every lookup answers "maybe"). A commit whose filter was not computed has an empty one (BIDX equal
to its neighbour's): git consults the tree instead; it gets no filter here.

A lookup asks what ``git log -- PATH`` asks (``revision.c``): one trailing "/" dropped, then PATH and each of its
leading directories must all be in the filter. Positions: ``hashing.git_scheme`` (version 1 reads bytes as signed
char, so non-ASCII paths hash differently from version 2).

A chain (``objects/info/commit-graphs/commit-graph-chain``: one layer hash per line, base first) is read as git
reads it: each layer's checksum must equal its line and its BASE chunk the lines before it; a layer whose
filter settings differ from the topmost layer with filters is ignored, as git ignores it. When both a
``commit-graph`` file and a chain exist, git reads the file; so does this reader.

Not read: alternates (``objects/info/alternates``), the commit data itself (parents, dates), generation numbers.
"""

from __future__ import annotations

import functools
import hashlib
import os
import struct
from dataclasses import dataclass

from bitarray import bitarray

from bloomviz.formats.common import (ForeignFilter, ForeignFormatError, ForeignLookup, Option, Source, bits_at,
                                     check_k)
from bloomviz.formats.reasons import Reason, say
from bloomviz.hashing.git_scheme import MASK32, key_hashes

NAME = "git"
TITLE = "git commit-graph changed-path filters"
MAGIC = b"CGPH"
HASH_LENGTHS = {1: 20, 2: 32}
HASHES = {1: "sha1", 2: "sha256"}
MAX_CHAIN_BYTES = 1 << 20      # 15,000 layers of SHA-256 names; git merges layers long before that
MAX_POINTER_BYTES = 4096       # a ".git" file: "gitdir: <path>"
MAX_CHANGES = 512              # bloom.h DEFAULT_BLOOM_MAX_CHANGES
# git sizes each filter for exactly the paths it holds, so none is past its design but the all-ones ones
PAST_RULE = {True: "more than 512 paths and directories: git's all-ones filter",
             False: "sized by git for exactly the paths it holds"}
CHUNK_NAMES = {b"OIDF": "OID fanout", b"OIDL": "OID lookup", b"CDAT": "commit data", b"BIDX": "Bloom index",
               b"BDAT": "Bloom data", b"BASE": "base graphs"}


def sniff(head: bytes, tail: bytes, size: int) -> bool:
    return size >= 8 + 12 + 20 and head[:4] == MAGIC and head[4] == 1 and head[5] in HASH_LENGTHS


def _git_dir(path: str) -> str | None:
    """The git directory of a worktree root, a ``.git`` directory or file, or a bare repository; else None."""
    dot = os.path.join(path, ".git")
    if os.path.isdir(dot):
        return dot
    if os.path.isfile(dot):
        with Source(dot, NAME) as src:
            text = src.read_at(0, min(src.size, MAX_POINTER_BYTES), "the .git file").decode("utf-8", "replace")
        if not text.startswith("gitdir:"):
            raise ForeignFormatError(NAME, "the .git file does not start with 'gitdir:'", dot)
        target = text[len("gitdir:"):].strip()
        return os.path.normpath(os.path.join(path, target))
    if os.path.isdir(os.path.join(path, "objects")) and os.path.exists(os.path.join(path, "HEAD")):
        return path
    return None


def _objects_info(git_dir: str) -> str:
    """``objects/info`` of the repository: a linked worktree's git directory names its common one."""
    common = os.path.join(git_dir, "commondir")
    if os.path.isfile(common):
        with Source(common, NAME) as src:
            rel = src.read_at(0, min(src.size, MAX_POINTER_BYTES), "the commondir file").decode("utf-8", "replace")
        git_dir = os.path.normpath(os.path.join(git_dir, rel.strip()))
    return os.path.join(git_dir, "objects", "info")


def sniff_dir(path) -> bool:
    """A repository with a commit-graph file or chain."""
    try:
        git_dir = _git_dir(os.fspath(path))
        if git_dir is None:
            return False
        info = _objects_info(git_dir)
    except (OSError, ValueError):
        return False
    return (os.path.lexists(os.path.join(info, "commit-graph"))
            or os.path.lexists(os.path.join(info, "commit-graphs", "commit-graph-chain")))


@dataclass
class Layer:
    """One commit-graph file: its commits and their filters."""

    file: str
    checksum: bytes
    hash_len: int
    oids: bytes                   # N x H, sorted
    ends: tuple[int, ...] | None  # BIDX, None without filters
    data: bytes                   # BDAT after its 12-byte header
    settings: tuple[int, int, int] | None   # (hash version, k, bits per entry)
    bases: tuple[bytes, ...]

    @property
    def count(self) -> int:
        return len(self.oids) // self.hash_len


def _chunks(src: Source, count: int, start: int, end: int) -> dict[bytes, tuple[int, int]]:
    """The table of contents: id -> (offset, length), every chunk inside [start, end)."""
    table = src.read_at(8, 12 * (count + 1), "the chunk table")
    entries = [struct.unpack_from(">4sQ", table, 12 * i) for i in range(count + 1)]
    if entries[-1][0] != b"\0\0\0\0":
        raise src.fail(f"offset {8 + 12 * count}: the chunk table does not end with a zero id "
                       f"(found {entries[-1][0]!r})")
    out: dict[bytes, tuple[int, int]] = {}
    for i, (cid, offset) in enumerate(entries[:-1]):
        nxt = entries[i + 1][1]
        at = 8 + 12 * i
        if cid == b"\0\0\0\0":
            raise src.fail(f"offset {at}: chunk {i} has the terminating id 0 before the table's end")
        if cid in out:
            raise src.fail(f"offset {at}: chunk {cid!r} appears twice")
        if not start <= offset <= nxt <= end:
            raise src.fail(f"offset {at}: chunk {cid!r} spans bytes {offset:,}..{nxt:,}, outside the chunk area "
                           f"{start:,}..{end:,} or out of order")
        out[cid] = (offset, nxt - offset)
    return out


def _verify_checksum(src: Source, algo: str, hash_len: int) -> bytes:
    h = hashlib.new(algo)
    body = src.size - hash_len
    for at in range(0, body, 1 << 24):
        h.update(src.read_at(at, min(1 << 24, body - at), "the file body"))
    stored = src.read_at(body, hash_len, "the checksum")
    if h.digest() != stored:
        raise src.fail(f"offset {body:,}: the {algo} checksum of the file does not match the one stored "
                       f"(the file is damaged)")
    return stored


def read_layer(path) -> Layer:
    """One commit-graph file, every size checked against the file before it is read."""
    with Source(path, NAME) as src:
        if src.size < 8:
            raise src.fail(f"too short: {src.size} bytes, the header alone is 8")
        magic, version, hv, count, bases = struct.unpack(">4sBBBB", src.read_at(0, 8, "the header"))
        if magic != MAGIC:
            raise src.fail(f"offset 0: signature {magic!r}, not {MAGIC!r}")
        if version != 1:
            raise src.fail(f"offset 4: version {version}, only version 1 exists")
        if hv not in HASH_LENGTHS:
            raise src.fail(f"offset 5: hash version {hv} (known: 1 SHA-1, 2 SHA-256)")
        hlen = HASH_LENGTHS[hv]
        toc_end = 8 + 12 * (count + 1)
        if toc_end + hlen > src.size:
            raise src.fail(f"truncated: {count} chunks need a table to byte {toc_end:,} and a {hlen}-byte checksum, "
                           f"but the file has {src.size:,} bytes")
        checksum = _verify_checksum(src, HASHES[hv], hlen)
        chunks = _chunks(src, count, toc_end, src.size - hlen)
        for need in (b"OIDF", b"OIDL"):
            if need not in chunks:
                raise src.fail(f"no {CHUNK_NAMES[need]} chunk ({need.decode()})")
        off, length = chunks[b"OIDF"]
        if length != 1024:
            raise src.fail(f"offset {off:,}: the OID fanout chunk has {length:,} bytes, not 1,024")
        fanout = struct.unpack(">256I", src.read_at(off, 1024, "the OID fanout"))
        for i in range(255):
            if fanout[i] > fanout[i + 1]:
                raise src.fail(f"offset {off + 4 * i:,}: OID fanout values out of order ({fanout[i]:,} > "
                               f"{fanout[i + 1]:,})")
        n = fanout[255]
        off, length = chunks[b"OIDL"]
        if length != n * hlen:
            raise src.fail(f"offset {off:,}: the OID lookup chunk has {length:,} bytes; {n:,} commits of {hlen} "
                           f"bytes need {n * hlen:,}")
        oids = src.read_at(off, length, "the OID lookup")
        base_list: tuple[bytes, ...] = ()
        if bases:
            if b"BASE" not in chunks or chunks[b"BASE"][1] < bases * hlen:
                raise src.fail(f"offset 7: {bases} base graphs announced but no base graphs chunk holds them")
            raw = src.read_at(chunks[b"BASE"][0], bases * hlen, "the base graphs")
            base_list = tuple(raw[i * hlen:(i + 1) * hlen] for i in range(bases))
        ends, data, settings = None, b"", None
        if b"BIDX" in chunks and b"BDAT" in chunks:
            ioff, ilen = chunks[b"BIDX"]
            if ilen != 4 * n:
                raise src.fail(f"offset {ioff:,}: the Bloom index chunk has {ilen:,} bytes; {n:,} commits need "
                               f"{4 * n:,}")
            doff, dlen = chunks[b"BDAT"]
            if dlen < 12:
                raise src.fail(f"offset {doff:,}: the Bloom data chunk has {dlen} bytes, less than its 12-byte header")
            hash_version, k, bits_per_entry = struct.unpack(">III", src.read_at(doff, 12, "the Bloom data header"))
            if hash_version not in (1, 2):
                raise src.fail(f"offset {doff:,}: Bloom hash version {hash_version} (known: 1, 2)")
            check_k(NAME, k, path)
            ends = struct.unpack(f">{n}I", src.read_at(ioff, ilen, "the Bloom index"))
            last = 0
            for i, end in enumerate(ends):
                if end < last or end > dlen - 12:
                    raise src.fail(f"offset {ioff + 4 * i:,}: Bloom index entry {i} is {end:,}, outside "
                                   f"{last:,}..{dlen - 12:,} (the data's length)")
                last = end
            data = src.read_at(doff + 12, dlen - 12, "the Bloom filters")
            settings = (hash_version, k, bits_per_entry)
    return Layer(os.fspath(path), checksum, hlen, oids, ends, data, settings, base_list)


def path_keys(item: object) -> tuple[bytes, ...]:
    """The keys ``git log -- PATH`` looks up: PATH (one trailing "/" dropped), then each leading directory."""
    if isinstance(item, str):
        data = item.encode("utf-8", "surrogateescape")
    elif isinstance(item, (bytes, bytearray)):
        data = bytes(item)
    else:
        raise TypeError(f"a path is text or bytes, not {type(item).__name__}")
    if data.endswith(b"/"):
        data = data[:-1]
    if not data:
        raise ValueError("an empty path cannot be looked up (git uses no filter for it)")
    keys = [data]
    for at in range(len(data) - 1, 0, -1):
        if data[at] == 0x2F:
            keys.append(data[:at])
    return tuple(keys)


@functools.lru_cache(maxsize=4096)
def _hashes(key: bytes, version: int) -> tuple[int, int]:
    return key_hashes(key, version)


class PathLookup:
    """One commit's filter answering a path as git does (all keys' positions must be set)."""

    __slots__ = ("bits", "k", "version", "m")

    def __init__(self, bits: bitarray, k: int, version: int):
        self.bits, self.k, self.version, self.m = bits, k, version, len(bits)

    def key_positions(self, key: bytes) -> tuple[int, ...]:
        h0, h1 = _hashes(key, self.version)
        return tuple(((h0 + i * h1) & MASK32) % self.m for i in range(self.k))

    def __call__(self, item: object) -> ForeignLookup:
        pos = tuple(p for key in path_keys(item) for p in self.key_positions(key))
        return ForeignLookup(item, pos, bits_at(self.bits, pos))


def _kind(raw: bytes, bits_per_entry: int) -> str:
    if len(raw) == 1 and raw == b"\0":
        return "no change"
    if len(raw) == 1 and raw == b"\xff" and bits_per_entry > 8:
        return (f"too many changes (more than {MAX_CHANGES} paths and leading directories): answers maybe to every "
                f"path")
    return "changed paths"


def _filters_of(layer: Layer, settings: tuple[int, int, int], shown: str) -> tuple[list[ForeignFilter], int]:
    version, k, bpe = settings
    out, skipped, start = [], 0, 0
    h = layer.hash_len
    # one string and one layout for every commit: a history of 82,000 commits is 82,000 filters
    hashing = Reason(say("git changed-path hashing version {version}: MurmurHash3-32 seeds 0x293ae76f/0x7e646e2c, "
                         "(h0 + i·h1) mod 2^32 mod m; a path and each leading directory", version=version))
    flat = {"kind": "flat"}
    for i, end in enumerate(layer.ends):
        raw = layer.data[start:end]
        start = end
        if not raw:
            skipped += 1
            continue
        bits = bitarray(endian="little")
        bits.frombytes(raw)
        oid = layer.oids[i * h:(i + 1) * h].hex()
        # git sized it for n paths with ceil(n·b/8) = its bytes: n is at most 8·bytes/b; the all-ones byte
        # stands for more than MAX_CHANGES paths and directories, not for the 0 its one byte would fit
        kind = _kind(raw, bpe)
        large = kind.startswith("too many")
        sized = {"paths_more_than": MAX_CHANGES} if large else {"paths_at_most": (8 * len(raw)) // bpe}
        out.append(ForeignFilter(
            format=NAME, m=8 * len(raw), k=k, bits=bits, layout=flat, hashing=hashing,
            positions=PathLookup(bits, k, version), label=oid,
            fields={"commit": oid, "file": shown, "kind": kind, "filter_bytes": len(raw),
                    "hash_version": version, "bits_per_entry": bpe, **sized},
            design_n=float(MAX_CHANGES if large else max(1, (8 * len(raw)) // bpe)),
            past_design=(large, PAST_RULE[large])))
    return out, skipped


def _chain(info: str) -> list[Layer]:
    chain_file = os.path.join(info, "commit-graphs", "commit-graph-chain")
    with Source(chain_file, NAME) as src:
        if src.size > MAX_CHAIN_BYTES:
            raise src.fail(f"the chain file has {src.size:,} bytes, more than the {MAX_CHAIN_BYTES:,} read")
        text = src.read_at(0, src.size, "the chain file")
    layers: list[Layer] = []
    at = 0
    for line in text.split(b"\n"):
        if not line:
            at += 1
            continue
        name = line.decode("ascii", "replace")
        if len(line) not in (40, 64) or any(c not in b"0123456789abcdef" for c in line):
            raise ForeignFormatError(NAME, f"offset {at:,}: line {name[:80]!r} is not a layer hash", chain_file)
        layer = read_layer(os.path.join(info, "commit-graphs", f"graph-{name}.graph"))
        if layer.checksum.hex() != name:
            raise ForeignFormatError(NAME, f"offset {at:,}: layer graph-{name}.graph has checksum "
                                     f"{layer.checksum.hex()}, not its name", chain_file)
        below = tuple(x.checksum for x in layers)
        if layer.bases != below:
            raise ForeignFormatError(NAME, f"graph-{name}.graph names {len(layer.bases)} base layers that are not "
                                     f"the {len(below)} chain lines before it", chain_file)
        layers.append(layer)
        at += len(line) + 1
    if not layers:
        raise ForeignFormatError(NAME, "the chain file names no layer", chain_file)
    return layers


def read_layers(path) -> tuple[list[Layer], str]:
    """The layers git would read for ``path`` (base first) and the directory their names are relative to."""
    path = os.fspath(path)
    if not os.path.isdir(path):
        return [read_layer(path)], os.path.dirname(path)
    git_dir = _git_dir(path)
    if git_dir is None:
        raise ForeignFormatError(NAME, "a directory that is not a git repository (no .git, and no objects/ and HEAD)", path)
    info = _objects_info(git_dir)
    # lexists, not isfile: a FIFO or a device in the graph's place is refused by Source, not taken for "none"
    if os.path.lexists(os.path.join(info, "commit-graph")):
        return [read_layer(os.path.join(info, "commit-graph"))], path
    if os.path.lexists(os.path.join(info, "commit-graphs", "commit-graph-chain")):
        return _chain(info), path
    raise ForeignFormatError(NAME, "the repository has no commit-graph (write one with: git commit-graph write "
                             "--reachable --changed-paths)", path)


def read(path, commit: str | None = None, **_options) -> list[ForeignFilter]:
    layers, root = read_layers(path)
    top = next((x.settings for x in reversed(layers) if x.settings), None)
    if top is None:
        raise ForeignFormatError(NAME, f"the commit-graph holds {sum(x.count for x in layers):,} commits but no "
                                 "changed-path filters (write them with --changed-paths)", path)
    filters, skipped, ignored = [], 0, 0
    for layer in layers:
        if layer.settings is None or layer.settings != top:
            ignored += layer.count   # git ignores filters written with other settings than the top layer's
            continue
        got, none = _filters_of(layer, top, os.path.relpath(layer.file, root))
        filters += got
        skipped += none
    notes = [Reason(say("k = {k}, {bits} bits per path, hash version {version}", k=top[1], bits=top[2], version=top[0]),
                    *([say(" (bytes >= 0x80 read as signed char: non-ASCII paths hash as git 2.39-2.44 on x86 did)")]
                      if top[0] == 1 else []))]
    if skipped:
        notes.append(Reason(say("{count} commits have no filter computed (git compares their trees instead)",
                                count=skipped)))
    if ignored:
        notes.append(Reason(say("{count} commits are in layers without filters or with other settings; git ignores "
                                "them", count=ignored)))
    if len(layers) > 1:
        notes.append(Reason(say("a split chain of {count} layers", count=len(layers))))
    for f in filters:
        f.notes = notes
        if skipped + ignored:       # the reasons name them: git log reads their trees for every path asked
            f.fields["graph_commits"] = sum(x.count for x in layers)
            f.fields["commits_without_filter"] = skipped + ignored
    return select_commit(filters, commit) if commit is not None else filters


def select_commit(filters: list[ForeignFilter], value: object) -> list[ForeignFilter]:
    """The filter of the commit ``value`` names (a full id or a unique prefix of at least 4 hex digits)."""
    text = str(value).strip().lower()
    if len(text) < 4 or any(c not in "0123456789abcdef" for c in text):
        raise ValueError(f"--commit {value!r}: give a commit id or at least 4 of its leading hex digits")
    found = [f for f in filters if f.fields.get("commit", "").startswith(text)]
    if not found:
        raise ValueError(f"--commit {value!r}: no commit with a changed-path filter starts with {text}")
    if len(found) > 1:
        raise ValueError(f"--commit {value!r} is ambiguous: {len(found)} commits start with it "
                         f"({', '.join(f.label[:12] for f in found[:5])}…)")
    return found


CLI_OPTIONS = (Option("--commit", "git: only this commit's filter (its id, or at least 4 leading hex digits)",
                      metavar="OID", select=select_commit),)

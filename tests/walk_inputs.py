"""What the window walk (``window_walk.py``) opens and saves to, made from what the other tests already use:

- foreign files: the real writers' fixtures the format tests read (``test_formats_fuzz``: Guava, Parquet,
  pybloom-live, pyprobables, Go, Spark, RedisBloom, and Cassandra and Hudi from ../shared where present), files
  the real software writes at test time (ORC by pyarrow, a git commit-graph, LevelDB and RocksDB tables by
  plyvel and rocksdict: ``test_formats_fuzz.GENERATED``, ``test_formats_fuzz_lsm.CASES``; skipped where the
  writer is absent), the seminar's ``bloom.txt`` (``test_detect_users_files``), RedisBloom dumps as users save
  them (``test_redisbloom_users_dumps``), each also damaged by the format fuzz's mutator;
- lesson files from the lesson fuzz corpus (``lesson_corpus``);
- sessions: the corruption corpus's undamaged documents and one damage of its kinds at a time
  (``test_session_corruption``: cut short, a byte JSON cannot hold, a key removed, a wrong value, a bad item,
  an unknown key), and whatever the walk itself saved;
- save targets: FIFOs, read-only files, a 0600 file, symlinks (to a file, to a FIFO, to a read-only file,
  dangling, to a folder), a folder, a new name.

Every file is written when the walk first draws it, so a short walk writes only what it opens.
"""

from __future__ import annotations

import base64
import json
import os
import random
import sys
from pathlib import Path

# the cases below are the format and session tests' own, which live in their packages' folders of tests/
sys.path[:0] = [str(Path(__file__).resolve().parent / folder) for folder in ("formats", "files")]

from lesson_corpus import corpus_files  # noqa: E402
from test_detect_users_files import seminar_file
import pytest

from test_formats_fuzz import ALL, DATA, GENERATED, mutated
from test_formats_fuzz_lsm import CASES as LSM
from test_redisbloom_users_dumps import SAMPLES as REDIS, dump_payload, dump_rdb, server_chunks
from test_session_corruption import (BAD_ITEMS, REQUIRED, WRONG, base_documents, is_item_place, paths, removed,
                                     replaced, text)

SUFFIXES = (".bloomviz", ".bloom", ".csv", ".png", ".svg")


def foreign_sources() -> list[Path]:
    """The real writers' files the format fuzz reads (those present here)."""
    out = []
    for case in ALL:
        name = case.values[1] if hasattr(case, "values") else case[1]
        path = name if isinstance(name, Path) else DATA / name
        if path.exists():
            out.append(path)
    return out


class Inputs:
    """Files drawn by the walk's ``rng``; ``folder`` holds them."""

    def __init__(self, folder: Path, rng: random.Random):
        self.folder, self.rng = folder, rng
        self.count = 0
        self.foreign = foreign_sources()
        self._lessons: dict[str, bytes] | None = None
        self._written: dict[str, bytes | None] = {}    # a writer's file, made once (None: writer absent)
        self._documents = base_documents()
        self.targets = Targets(folder / "targets")

    def _write(self, name: str, data: bytes) -> str:
        self.count += 1
        path = self.folder / f"{self.count:04d}-{name}"
        path.write_bytes(data)
        return str(path)

    # --- foreign files -----------------------------------------------------------------------------------------
    def foreign_file(self) -> str:
        rng = self.rng
        kind = rng.choice(["fixture", "fixture", "seminar", "redis", "written"])
        name = rng.choice(sorted(GENERATED) + sorted(LSM))
        if kind == "written" and self.written(name) is not None:
            raw = self.written(name)
        elif kind in ("fixture", "written"):
            source = rng.choice(self.foreign)
            name, raw = source.name, source.read_bytes()
        elif kind == "seminar":
            folder = self.folder / f"seminar-{self.count}"
            folder.mkdir()
            source = seminar_file(folder, rng.choice([1, 40, 60, 200]))
            name, raw = "bloom.txt", source.read_bytes()
        else:
            pairs = server_chunks(rng.choice(REDIS))
            name, raw = rng.choice([
                ("pairs.json", json.dumps([[it, base64.b64encode(d).decode()] for it, d in pairs]).encode()),
                ("chunks.bin", b"".join(d for _, d in pairs)),
                ("users.dump", dump_payload(pairs)),
                ("dump.rdb", dump_rdb([("seen:users", pairs)]))])
        if rng.random() < 0.4:
            name, raw = "damaged-" + name, mutated(raw, rng)
        return self._write(name, raw)

    def written(self, name: str) -> bytes | None:
        """The file a real writer makes (ORC, git, LevelDB, RocksDB), made on first use."""
        if name not in self._written:
            folder = self.folder / f"written-{name}"
            folder.mkdir()
            try:
                if name in GENERATED:
                    GENERATED[name](folder / "file")
                    self._written[name] = (folder / "file").read_bytes()
                else:
                    self._written[name] = LSM[name][1](folder).read_bytes()
            except pytest.skip.Exception:
                self._written[name] = None
        return self._written[name]

    # --- lessons -------------------------------------------------------------------------------------------------
    def lesson_file(self, heavy: bool) -> str:
        """A file of the lesson fuzz corpus: one of the costly shapes or whole-file faults when ``heavy``, else
        one action's lesson."""
        if self._lessons is None:
            self._lessons = corpus_files()
        names = sorted(n for n in self._lessons if n.startswith("action-") != heavy)
        name = self.rng.choice(names)
        return self._write(name, self._lessons[name])

    # --- sessions ------------------------------------------------------------------------------------------------
    def session_file(self, saved: list[str]) -> str:
        """A good session (a base document, or one the walk saved) or one damage of the corruption corpus."""
        rng = self.rng
        if saved and rng.random() < 0.25:
            return rng.choice(saved)
        name = rng.choice(sorted(self._documents))
        doc = self._documents[name]
        if rng.random() < 0.3:
            return self._write(f"{name}.bloomviz", text(doc).encode())
        good = text(doc)
        where = rng.choice(list(paths(doc)))
        path, key = where[0], where[0][-1]
        damage = rng.choice(["cut", "byte", "key", "value", "unknown"])
        if damage == "cut":
            data = good[:rng.randrange(good.rindex("}") + 1)].encode()
        elif damage == "byte":
            at = rng.randrange(len(good))
            data = good[:at].encode() + rng.choice([b"\x00", b"\x1f", b"\xff", b"\xc3"]) + good[at:].encode()
        elif damage == "key" and isinstance(key, str) and key in REQUIRED:
            data = text(removed(doc, path)).encode()
        elif damage == "value" and is_item_place(path):
            data = text(replaced(doc, path, rng.choice(BAD_ITEMS))).encode()
        elif damage == "value" and isinstance(key, str) and WRONG.get(key):
            data = text(replaced(doc, path, rng.choice(WRONG[key]))).encode()
        else:
            data = text({**doc, "unknown_key": 1}).encode()
        return self._write(f"damaged-{name}.bloomviz", data)


class Targets:
    """Where the walk saves: every kind of target a save dialog can return, one of each for each suffix."""

    KINDS = ("new", "regular", "private", "fifo", "read-only", "link", "link-to-fifo", "link-to-read-only",
             "dangling", "link-to-folder", "folder")

    def __init__(self, folder: Path):
        self.folder = folder
        real = folder / "real"
        real.mkdir(parents=True)
        self.fifos: list[str] = []
        self.links: dict[str, str] = {}
        self.protected: list[str] = []     # read-only files and what links to them
        for suffix in SUFFIXES:
            def at(kind, base=folder):
                return str(base / f"{kind}{suffix}")
            for kind in ("regular", "private", "read-only"):
                Path(at(kind, real)).write_bytes(f"old {kind} {suffix}\n".encode())
                Path(at(kind)).write_bytes(f"old {kind} {suffix}\n".encode())
            os.chmod(at("private"), 0o600)
            os.chmod(at("read-only"), 0o444)
            os.chmod(at("read-only", real), 0o444)
            os.mkfifo(at("fifo"))
            os.mkfifo(at("fifo", real))
            os.mkdir(at("folder"))
            os.mkdir(at("folder", real))
            self.fifos += [at("fifo"), at("fifo", real)]
            for kind, to in (("link", "regular"), ("link-to-fifo", "fifo"), ("link-to-read-only", "read-only"),
                             ("dangling", "missing"), ("link-to-folder", "folder")):
                os.symlink(at(to, real), at(kind))
                self.links[at(kind)] = at(to, real)
            self.protected += [at("read-only"), at("read-only", real), at("link-to-read-only")]

    REFUSED = ("fifo", "read-only", "link-to-fifo", "link-to-read-only", "dangling", "link-to-folder", "folder")

    def path(self, rng: random.Random, suffix: str, kinds: tuple = KINDS) -> str:
        return str(self.folder / f"{rng.choice(kinds)}{suffix}")

    def must_refuse(self, path: str) -> bool:
        """A save to ``path`` must be refused (nothing there may change)."""
        return os.path.basename(path).rsplit(".", 1)[0] in self.REFUSED

    def state(self) -> dict:
        """Every entry under the targets folder: kind, link text, mode and bytes (FIFOs are never opened)."""
        out = {}
        for root, dirs, files in os.walk(self.folder):
            for name in dirs + files:
                path = os.path.join(root, name)
                st = os.lstat(path)
                if os.path.islink(path):
                    out[path] = ("link", os.readlink(path))
                elif os.path.isfile(path):
                    with open(path, "rb") as fh:
                        out[path] = ("file", st.st_mode & 0o777, fh.read())
                else:
                    out[path] = ("other", st.st_mode)
        return out

"""The ``.bloomviz`` session format: a filter's parameters and every operation made on it, as JSON.

A session is a recipe, not a snapshot: reopening it makes the same empty filter and replays the operations in
order, so the grid, the live plot and the history come back exactly as they were (the measurement is exact and
seeded, so replaying gives the same curve). A filter loaded from a ``.bloom`` file without its items has no
recipe; its session carries the loaded filter itself (``base``, the ``.bloom`` bytes in base64) and replays the
operations made after the load.

Schema version 1::

    {
      "format": "bloomviz-session",
      "schema_version": 1,
      "saved_by": "bloomviz 0.1.0",                      (informational)
      "filter": {"variant": "standard", "scheme": "murmur3-km", "m": 1917, "k": 7,
                 "params": {}, "capacity": 200},           m and k are null for a scalable filter
      "measurement": {"probes": 10000, "seed": 0},
      "base": null,                                        or {"bloom_base64": "..."}
      "operations": [
        {"op": "insert", "item": "apple", "verdict": "inserted"},
        {"op": "lookup", "item": "pear", "verdict": "true negative"},
        {"op": "insert batch", "items": ["a", "b", {"bytes_base64": "AP8="}]}
      ],
      "lesson": {...}                                      only when saved during a lesson (session_lesson)
    }

Schema version 2 adds one operation, a run of generated items (auto-play) kept as the numbers that make it::

        {"op": "insert generated", "generator": "fmix64-hex", "prefix": "i", "seed": 7, "start": 0, "stop": 10000000}

(items ``start``…``stop``-1 of ``items.generated.GeneratedItems(seed=7, prefix="i")``): a session after 10^7
auto-played items writes six numbers, not 10^7 strings. A session is written as version 2 only when it holds
such a run, so every other session stays readable by a reader of version 1, and a reader of version 1 refuses a
version 2 file with "schema_version 2 is not supported (written by a newer bloomviz)".

Items. An item is a JSON string when it is text that JSON carries faithfully. Text holding a lone surrogate
(which strict UTF-8 cannot encode) is ``{"text_base64": ...}``, its UTF-8 bytes with ``surrogatepass``; a
``bytes`` item is ``{"bytes_base64": ...}``. Every item comes back as the same type with the same value.

Reading is strict: the whole file is validated before anything is returned, and ``SessionFormatError`` names
the file and the first thing that is wrong (its place in the document, the value, what was expected). Numbers
are range-checked (JSON integers are unbounded), NaN and Infinity are refused, as are duplicate keys and keys
the schema does not know. Nothing is evaluated. Writing is atomic (temporary file, then rename).

Pure Python: no Qt.
"""

from __future__ import annotations

import base64
import binascii
import json
import os
from dataclasses import dataclass, field

from bloomviz.vocabulary import Verdict
from bloomviz.hashing import schemes as hashing

from bloomviz.files import storage
from bloomviz.files.session_checks import (SessionFormatError, _finite, _int, _kind, _no_duplicates, _obj,
                                           _reject_constant, _show, _str)
from bloomviz.files.session_lesson import LessonPlace, from_json as lesson_place, to_json as lesson_json
from bloomviz.disk.atomic_write import AtomicWriter
from bloomviz.disk.safe_files import FileTooLargeError, open_regular
from bloomviz.filters.registry import VARIANTS
from bloomviz.theory.validate import MAX_K, MAX_M
from bloomviz.theory.limits import MAX_ITEM_BYTES, MAX_PROBES

FORMAT = "bloomviz-session"
SCHEMA_VERSION = 1
GENERATED_SCHEMA_VERSION = 2      # the version a session holding a generated run is written as
SCHEMA_VERSIONS = (1, 2)          # what this bloomviz reads
GENERATOR = "fmix64-hex"          # items.generated.GeneratedItems: prefix + 16 hex digits of fmix64(i + key)
MAX_GENERATED = 10 ** 9           # items of one generated run (auto-play takes up to 10^8 a run)
SUFFIX = ".bloomviz"

MAX_FILE_BYTES = 1 << 30          # a session of 10^7 words is ~150 MB; past a GiB it is not a session
MAX_SEED = (1 << 63) - 1
MAX_CAPACITY = (1 << 63) - 1
MAX_SCALABLE_CAPACITY = 10_000_000  # bounds the first stage's allocation before any filter is built
MAX_INT_PARAM = 1 << 32

INSERT, LOOKUP, BATCH, REMOVE, GENERATED = "insert", "lookup", "insert batch", "remove", "insert generated"
OPERATIONS = (INSERT, LOOKUP, BATCH, REMOVE, GENERATED)
FORCED_REMOVAL = Verdict.FORCED_REMOVAL   # a remove whose verdict is this was insisted on (never inserted)


@dataclass(frozen=True)
class SavedOperation:
    """One operation of a session: ``item`` for an insert or a lookup, ``items`` for a batch insert.
    ``verdict`` is what the operation said when it was recorded (replaying recomputes it)."""

    op: str
    item: object = None
    items: tuple = ()
    verdict: str = ""
    run: tuple = ()        # a generated run: (prefix, seed, start, stop)

    def generated(self):
        """The run as a ``GeneratedRun`` (for an ``insert generated`` operation)."""
        from bloomviz.items.generated import GeneratedItems, GeneratedRun
        prefix, seed, start, stop = self.run
        return GeneratedRun(GeneratedItems(stop, seed=seed, prefix=prefix), start, stop)


@dataclass
class Session:
    variant: str = "standard"
    scheme: str = hashing.DEFAULT_SCHEME
    m: int | None = None
    k: int | None = None
    params: dict = field(default_factory=dict)
    capacity: int | None = None
    probes: int = 10_000
    seed: int = 0
    operations: list[SavedOperation] = field(default_factory=list)
    base: bytes | None = None      # the .bloom bytes of a loaded filter whose items are unknown
    saved_by: str = ""
    lesson: LessonPlace | None = None   # the lesson under way when it was saved (files/session_lesson.py)

    def configure_args(self) -> dict:
        """Keyword arguments for ``Workbench.configure``: a new empty filter of this session's kind."""
        return {"m": self.m, "k": self.k, "scheme": self.scheme, "variant": self.variant,
                "capacity": self.capacity, **self.params}

    @property
    def insert_count(self) -> int:
        return sum(len(op.items) if op.op == BATCH else op.run[3] - op.run[2] if op.op == GENERATED else 1
                   for op in self.operations if op.op in (INSERT, BATCH, GENERATED))


# --- items -----------------------------------------------------------------------------------------------------
def encode_item(item: object) -> object:
    """The JSON value for one item (see the module docstring)."""
    if isinstance(item, str):
        try:
            item.encode("utf-8")
        except UnicodeEncodeError:
            return {"text_base64": base64.b64encode(item.encode("utf-8", "surrogatepass")).decode("ascii")}
        return item
    if isinstance(item, (bytes, bytearray, memoryview)):
        return {"bytes_base64": base64.b64encode(bytes(item)).decode("ascii")}
    raise TypeError(f"an item must be str or bytes, got {type(item).__name__}: {item!r:.60}")


def _b64(text: object, where: str) -> bytes:
    if not isinstance(text, str):
        raise SessionFormatError(f"{where}: expected a base64 string, got {_kind(text)}")
    try:
        return base64.b64decode(text.encode("ascii"), validate=True)
    except (binascii.Error, UnicodeEncodeError, ValueError):
        raise SessionFormatError(f"{where}: {_show(text)} is not valid base64") from None


def decode_item(value: object, where: str) -> object:
    """The item a JSON value stands for; SessionFormatError naming ``where`` when it is not one."""
    if isinstance(value, str):
        item, size = value, len(value.encode("utf-8", "surrogatepass"))
    elif isinstance(value, dict) and len(value) == 1 and "bytes_base64" in value:
        item = _b64(value["bytes_base64"], f"{where}.bytes_base64")
        size = len(item)
    elif isinstance(value, dict) and len(value) == 1 and "text_base64" in value:
        raw = _b64(value["text_base64"], f"{where}.text_base64")
        try:
            item = raw.decode("utf-8", "surrogatepass")
        except UnicodeDecodeError as exc:
            raise SessionFormatError(f"{where}.text_base64: not UTF-8 text ({exc.reason} at byte {exc.start})") \
                from None
        size = len(raw)
    else:
        raise SessionFormatError(f"{where}: an item must be a string, {{\"bytes_base64\": ...}} or "
                                 f"{{\"text_base64\": ...}}, got {_show(value)}")
    if size == 0:
        raise SessionFormatError(f"{where}: an empty item (the window refuses empty items)")
    if size > MAX_ITEM_BYTES:
        raise SessionFormatError(f"{where}: an item of {size:,} bytes, over the limit of {MAX_ITEM_BYTES:,}")
    return item


# --- writing ---------------------------------------------------------------------------------------------------
def to_dict(session: Session) -> dict:
    ops = []
    for op in session.operations:
        if op.op == BATCH:
            ops.append({"op": BATCH, "items": [encode_item(x) for x in op.items]})
        elif op.op == GENERATED:
            prefix, seed, start, stop = op.run
            ops.append({"op": GENERATED, "generator": GENERATOR, "prefix": prefix, "seed": seed, "start": start,
                        "stop": stop})
        elif op.op in (INSERT, LOOKUP, REMOVE):
            entry = {"op": op.op, "item": encode_item(op.item)}
            if op.verdict:
                entry["verdict"] = op.verdict
            ops.append(entry)
        else:
            raise ValueError(f"operation {op.op!r} cannot be saved in a session (known: {', '.join(OPERATIONS)})")
    return {
        "format": FORMAT,
        "schema_version": GENERATED_SCHEMA_VERSION if any(op.op == GENERATED for op in session.operations)
        else SCHEMA_VERSION,
        "saved_by": session.saved_by,
        "filter": {"variant": session.variant, "scheme": session.scheme, "m": session.m, "k": session.k,
                   "params": dict(session.params), "capacity": session.capacity},
        "measurement": {"probes": session.probes, "seed": session.seed},
        "base": None if session.base is None else {"bloom_base64": base64.b64encode(session.base).decode("ascii")},
        "operations": ops,
        **({} if session.lesson is None else {"lesson": lesson_json(session.lesson)}),
    }


def dumps(session: Session) -> str:
    """The session as JSON text (validated first: what is written can be read back)."""
    data = to_dict(session)
    from_dict(data)   # refuse to write what could not be read
    # ensure_ascii keeps the file 7-bit clean; one operation per line keeps large sessions diff-able.
    ops = data.pop("operations")
    head = json.dumps(data, ensure_ascii=True, allow_nan=False, indent=1)
    lines = ",\n  ".join(json.dumps(op, ensure_ascii=True, allow_nan=False) for op in ops)
    return head[:-2] + ',\n "operations": [\n  ' + lines + "\n ]\n}\n" if ops else \
        head[:-2] + ',\n "operations": []\n}\n'


def save(session: Session, path) -> None:
    """Write the session to ``path`` atomically (a temporary file in the same folder, then a rename): through a
    symlink to its target; a read-only target, a directory or a special file refused with an OSError."""
    text = dumps(session).encode("ascii")
    if len(text) > MAX_FILE_BYTES:   # never write what load() would refuse: the user would lose the session
        raise ValueError(f"this session is {len(text):,} bytes, more than the {MAX_FILE_BYTES:,} bytes a session "
                         "can be read back from; save the filter as a .bloom file instead")
    with AtomicWriter(path, what="a session file") as out:
        out.write(text)


# --- reading ---------------------------------------------------------------------------------------------------
def _params(value: object, variant: str, where: str) -> dict:
    if not isinstance(value, dict):
        raise SessionFormatError(f"{where}: expected an object, got {_kind(value)}")
    # the variant's declared parameters besides m and k (which the filter object holds), in declared order
    declared = {param.name: param for param in VARIANTS[variant].capabilities.parameters
                if param.name not in ("m", "k")}
    allowed = list(declared)
    out = {}
    for name, v in value.items():
        if name not in allowed:
            raise SessionFormatError(f"{where}: {name!r} is not a parameter of a {variant} filter "
                                     f"(it takes: {', '.join(allowed) or 'none'})")
        if declared[name].kind == "rate":   # a JSON number; the others are whole
            out[name] = _finite(v, f"{where}.{name}")
        else:
            high = MAX_SCALABLE_CAPACITY if name == "initial_capacity" else MAX_INT_PARAM
            out[name] = _int(v, f"{where}.{name}", 1, high)
    missing = [name for name, param in declared.items() if param.required and name not in out]
    if missing:
        raise SessionFormatError(f"{where}: a {variant} filter needs {' and '.join(missing)}")
    return out


def loads(text: str | bytes, path: object = None) -> Session:
    """A validated Session from JSON text; SessionFormatError naming ``path`` and what is wrong."""
    try:
        if isinstance(text, bytes):
            text = text.decode("utf-8")
        data = json.loads(text, parse_constant=_reject_constant, object_pairs_hook=_no_duplicates)
    except SessionFormatError as exc:
        raise SessionFormatError(exc.reason, path) from None
    except UnicodeDecodeError as exc:
        raise SessionFormatError(f"not UTF-8 text (byte {exc.start}): not a .bloomviz session", path) from None
    except json.JSONDecodeError as exc:
        raise SessionFormatError(f"not valid JSON: {exc.msg} at line {exc.lineno}, column {exc.colno}",
                                 path) from None
    except ValueError as exc:  # e.g. an integer of more digits than Python converts
        raise SessionFormatError(f"not a usable JSON document: {exc}", path) from None
    except RecursionError:
        raise SessionFormatError("not a .bloomviz session: JSON nested too deeply", path) from None
    try:
        return from_dict(data)
    except SessionFormatError as exc:
        raise SessionFormatError(exc.reason, path) from None


def from_dict(data: object) -> Session:
    """A validated Session from a decoded JSON document."""
    if isinstance(data, dict) and data.get("format") != FORMAT and "schema_version" in data \
            and ("operations" in data or "filter" in data):
        # a session's own fields with a broken name: say so, not "not a session"
        raise SessionFormatError(f"this session is damaged: its \"format\" field is {_show(data.get('format'))}, "
                                 f"not \"{FORMAT}\"")
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise SessionFormatError(f"not a .bloomviz session (expected an object with \"format\": \"{FORMAT}\")")
    version = data.get("schema_version")
    if isinstance(version, bool) or not isinstance(version, int):
        raise SessionFormatError(f"schema_version: expected a whole number, got {_show(version)}")
    if version not in SCHEMA_VERSIONS:
        newer = " (written by a newer bloomviz)" if version > max(SCHEMA_VERSIONS) else ""
        raise SessionFormatError(f"schema_version {version} is not supported{newer}; this bloomviz reads "
                                 f"versions {', '.join(map(str, SCHEMA_VERSIONS))}")
    _obj(data, "the session", ("format", "schema_version", "filter", "measurement", "operations"),
         ("saved_by", "base", "lesson"))
    try:
        lesson = None if data.get("lesson") is None else lesson_place(data["lesson"])
    except ValueError as exc:
        raise SessionFormatError(str(exc)) from None
    saved_by = data.get("saved_by", "")
    if not isinstance(saved_by, str):
        raise SessionFormatError(f"saved_by: expected a string, got {_show(saved_by)}")

    flt = _obj(data["filter"], "filter", ("variant", "scheme", "m", "k", "params"), ("capacity",))
    variant = _str(flt["variant"], "filter.variant", tuple(VARIANTS))
    scheme = _str(flt["scheme"], "filter.scheme", tuple(hashing.SCHEMES))
    sized = VARIANTS[variant].capabilities.sized
    m = _int(flt["m"], "filter.m", 1, MAX_M, allow_none=not sized)
    k = _int(flt["k"], "filter.k", 1, MAX_K, allow_none=not sized)
    params = _params(flt["params"], variant, "filter.params")
    capacity = _int(flt.get("capacity"), "filter.capacity", 1, MAX_CAPACITY, allow_none=True)

    meas = _obj(data["measurement"], "measurement", ("probes", "seed"))
    probes = _int(meas["probes"], "measurement.probes", 1, MAX_PROBES)
    seed = _int(meas["seed"], "measurement.seed", 0, MAX_SEED)

    base = None
    if data.get("base") is not None:
        b = _obj(data["base"], "base", ("bloom_base64",))
        base = _b64(b["bloom_base64"], "base.bloom_base64")
        # The base filter is checked as a .bloom file is (header and CRC), so a damaged one is refused here
        # with the rest of the document, not later by whoever replays it.
        try:
            storage.verify_bytes(base)
        except storage.FilterFormatError as exc:
            raise SessionFormatError(f"base.bloom_base64: not a valid .bloom filter: {exc.reason}") from None

    raw_ops = data["operations"]
    if not isinstance(raw_ops, list):
        raise SessionFormatError(f"operations: expected a list, got {_kind(raw_ops)}")
    ops = []
    for i, raw in enumerate(raw_ops):
        where = f"operations[{i}]"
        if not isinstance(raw, dict):
            raise SessionFormatError(f"{where}: expected an object, got {_kind(raw)}")
        kind = _str(raw.get("op"), f"{where}.op", OPERATIONS)
        if kind == BATCH:
            _obj(raw, where, ("op", "items"))
            items = raw["items"]
            if not isinstance(items, list) or not items:
                raise SessionFormatError(f"{where}.items: expected a non-empty list, got {_show(items)}")
            ops.append(SavedOperation(BATCH, items=tuple(decode_item(x, f"{where}.items[{j}]")
                                                         for j, x in enumerate(items))))
        elif kind == GENERATED:
            if version < GENERATED_SCHEMA_VERSION:
                raise SessionFormatError(f"{where}: a generated run needs schema_version "
                                         f"{GENERATED_SCHEMA_VERSION}, the file says {version}")
            ops.append(SavedOperation(GENERATED, run=_generated(raw, where)))
        else:
            _obj(raw, where, ("op", "item"), ("verdict",))
            verdict = raw.get("verdict", "")
            if not isinstance(verdict, str):
                raise SessionFormatError(f"{where}.verdict: expected a string, got {_show(verdict)}")
            ops.append(SavedOperation(kind, item=decode_item(raw["item"], f"{where}.item"), verdict=verdict))
    return Session(variant=variant, scheme=scheme, m=m, k=k, params=params, capacity=capacity, probes=probes,
                   seed=seed, operations=ops, base=base, saved_by=saved_by, lesson=lesson)


def _generated(raw: dict, where: str) -> tuple:
    _obj(raw, where, ("op", "generator", "prefix", "seed", "start", "stop"))
    if raw["generator"] != GENERATOR:
        raise SessionFormatError(f"{where}.generator: expected {GENERATOR!r}, got {_show(raw['generator'])}")
    prefix = raw["prefix"]
    if not isinstance(prefix, str) or len(prefix) != 1 or not prefix.isascii() or not prefix.isprintable():
        raise SessionFormatError(f"{where}.prefix: expected one printable ASCII character, got {_show(prefix)}")
    seed = _int(raw["seed"], f"{where}.seed", 0, MAX_SEED)
    start = _int(raw["start"], f"{where}.start", 0, MAX_CAPACITY)
    stop = _int(raw["stop"], f"{where}.stop", start + 1, start + MAX_GENERATED)
    return prefix, seed, start, stop


def load(path) -> Session:
    """Read and validate a session file. OSError when it cannot be read; SessionFormatError when it is not a
    valid session (the message starts with the path)."""
    p = os.fsdecode(os.fspath(path))
    # Only a regular file, checked by its kind before any read (a FIFO would block, /dev/zero never ends), and
    # by its size before any allocation.
    try:
        fh = open_regular(p, limit=MAX_FILE_BYTES, what="a session file")
    except FileTooLargeError as exc:
        raise SessionFormatError(f"{exc.strerror}: larger than any session this version writes", p) from None
    with fh:
        # read in pieces sized by the file: read(n) reserves n bytes before reading, so a fixed 1 MiB piece
        # costs a MiB for a 300-byte file; and the file may grow after the size check, so the reading goes on
        # (in small pieces past the measured size) until the end or past the limit, whatever st_size said
        size = os.fstat(fh.fileno()).st_size
        parts, total = [], 0
        while total <= MAX_FILE_BYTES:
            part = fh.read(min(1 << 20, MAX_FILE_BYTES + 1 - total, max(size - total, 0) + 4096))
            if not part:
                break
            parts.append(part)
            total += len(part)
        data = b"".join(parts)
    if len(data) > MAX_FILE_BYTES:
        raise SessionFormatError(f"larger than any session this version writes (limit {MAX_FILE_BYTES:,} bytes)", p)
    return loads(data, p)

"""The compiled kernels an auto-play needs, as machine code numba wrote on an earlier run, loaded without numba.

numba's start-up (its import, its first kernel's typing context, ~0.5 s of CPU holding the interpreter's lock)
is what a first auto-play started with the window waited for. llvmlite alone loads an object file into its
JIT linker in ~0.1 s (import ~60-140 ms, the load ~15 ms). ``native_build`` compiles each kernel of
``KERNELS`` behind a C entry taking raw pointers and 64-bit integers (a numba ``cfunc`` calling the same
``njit`` kernel, so the same machine code) and writes one object file here, keyed by the kernels' sources,
numba's and llvmlite's versions, Python's and the host CPU (name and features: the code uses them all).

``load()`` reads it back. An absent, stale (another key), truncated or garbled file, or one importing a
symbol this process does not have, is not loaded: the kernels compile with numba as before, and the window's
warm-up writes the file for the next launch. Loaded, ``entry(key)`` serves a kernel called from Python
(``lazy_jit.Deferred``) with arguments of the exact types it was compiled for; others go to numba.

The file lives in ``$BLOOMVIZ_KERNEL_CACHE`` if set (an empty value: no such cache), else in the user's
cache directory (``$XDG_CACHE_HOME`` or ~/.cache, then bloomviz/kernels), named by its key (``KEPT_FILES`` kept).
Written whole under a temporary name, then renamed into place: a reader sees no file or the whole one.
"""

from __future__ import annotations

import ctypes
import hashlib
import json
import os
import struct
import sys
import threading
from pathlib import Path

import numpy as np

from bloomviz.disk import safe_files

MIX = "bloomviz.hashing.mixed_kernel._mix"
TEXT_HALVES = "bloomviz.hashing.list_kernel._text_halves"
BYTES_HALVES = "bloomviz.hashing.list_kernel._bytes_halves"
ACCOUNT = "bloomviz.measure.first_flips.account_turned"
OUT_OF_RANGE = "bloomviz.filters.bit_kernels._out_of_range"
# ProbeBits of a filter of at most first_flips.EXACT_MAX_M bits: its table, its setting pass, the range check;
# a larger filter's rows take a second pass
FLIPS = ("bloomviz.measure.first_flips._build", "bloomviz.measure.first_flips._set_rows", OUT_OF_RANGE)
FIRST_ROWS = "bloomviz.measure.first_flips._first_rows"
# ProbeBits.flip_halves (a filter of murmur3-mix given its items' hash halves): the table, the setting pass,
# the probe bits that turned, the rows that turned them (fresh_rows at most EXACT_MAX_M bits, _first_fresh_in past),
# the probes a batch completed and the counts after each row (completions.py, the exact tracker's insert_halves)
FLIP_HALVES = ("bloomviz.measure.first_flips._build", "bloomviz.measure.first_flips._set_halves_at",
               "bloomviz.measure.first_flips._turned_split", "bloomviz.measure.first_flips._first_fresh_in",
               "bloomviz.measure.fresh_rows.fresh_rows", "bloomviz.measure.completions.by_probe",
               "bloomviz.measure.completions.complete", "bloomviz.measure.completions.completion_rows",
               "bloomviz.measure.completions.running_counts")
# the setting pass of FLIP_HALVES for plain generated items given by their counter (simulate's generated runs)
SET_COUNTER = "bloomviz.measure.counter_flips._set_counter_at"
# mixed_kernel's set_from_halves / test_from_halves (Brainflayer's bulk insert, lookups by halves)
SET_HALVES = ("bloomviz.hashing.mixed_kernel._mix_set", "bloomviz.hashing.mixed_kernel._count_bits")
TEST_HALVES = ("bloomviz.hashing.mixed_kernel._mix_test",)
# generated items' hash halves from their values (generated_kernel: DrawnItems, then plain GeneratedItems)
GENERATED_HALVES = ("bloomviz.hashing.generated_kernel._halves", "bloomviz.hashing.generated_kernel._counter_halves")
# CRC-32C of a LevelDB or RocksDB table's blocks (formats/crc32c_kernel.py: a database opened)
CRC32C = "bloomviz.formats.crc32c_kernel._crc_loop"
# bitstore's passes: set, test rows, AND a column
SET_BITS = (OUT_OF_RANGE, "bloomviz.filters.bit_kernels._set")
ALL_SET = (OUT_OF_RANGE, "bloomviz.filters.bit_kernels._all_set_rows")
AND_BITS = (OUT_OF_RANGE, "bloomviz.filters.bit_kernels._and_bits")
# kernel (module.qualname) -> argument types, as numba types them for the calls bloomviz makes; "X[]" a 1-d
# and "X[,]" a 2-d C-contiguous array (a trailing "!": the kernel writes it), "i64" an integer, "u64" a numpy
# uint64, "bool" a bool.
# Result: "i64" or None. "gil": the kernel reads Python objects and runs holding the interpreter's lock.
KERNELS: dict[str, tuple[tuple[str, ...], str | None, bool]] = {
    "bloomviz.hashing.mixed_kernel._mix": (("u64[]", "u64[]", "i64", "i64", "i64[,]!", "bool"), None, False),
    "bloomviz.filters.bit_kernels._out_of_range": (("i64[]", "i64"), "i64", False),
    "bloomviz.measure.first_flips._build": (
        ("i64[]", "bool", "u8[]!", "i64", "i64", "i64[]!", "i32[]!", "i64", "i64"), None, False),
    "bloomviz.measure.first_flips._set_rows": (
        ("u8[]!", "i64[]", "i64", "i64[]!", "bool", "u8[]", "i64[]", "i32[]", "i64", "i64", "i64[]!", "i64[]!"),
        "i64", False),
    "bloomviz.measure.first_flips.account_turned": (
        ("i64[]", "i64[]", "i64[]", "i64[]", "bool[]!", "i64[]!", "i64[]!", "i64[]!", "i64[]!"), "i64", False),
    "bloomviz.hashing.list_kernel._text_halves": (
        ("i64", "i64", "i64", "i64", "u64[]!", "u64[]!", "u8[]!", "i64[]"), "i64", True),
    "bloomviz.hashing.list_kernel._bytes_halves": (("i64", "i64", "i64", "i64", "u64[]!", "u64[]!"), "i64", True),
    "bloomviz.filters.bit_kernels._set": (("u8[]!", "i64[]"), "i64", False),
    "bloomviz.filters.bit_kernels._all_set_rows": (("u8[]", "i64[,]", "bool[]!"), None, False),
    "bloomviz.filters.bit_kernels._and_bits": (("u8[]", "i64[]", "bool[]!"), None, False),
    "bloomviz.measure.first_flips._first_rows": (
        ("i64[,]", "u8[]", "i64", "i64", "i64[]", "i32[]", "i64", "i64", "i64[]!", "i64[]!", "i64"), "i64", False),
    "bloomviz.hashing.generated_kernel._halves": (("u64[]", "u64", "u64[]!", "u64[]!"), None, False),
    "bloomviz.hashing.generated_kernel._counter_halves": (("u64", "u64", "u64[]!", "u64[]!"), None, False),
    "bloomviz.hashing.mixed_kernel._mix_set": (
        ("u64[]", "u64[]", "i64", "i64", "i64", "u8[]!", "i64", "bool", "u64[,]!"), "i64", False),
    "bloomviz.hashing.mixed_kernel._count_bits": (("u8[]",), "i64", False),
    "bloomviz.hashing.mixed_kernel._mix_test": (
        ("u64[]", "u64[]", "i64", "i64", "i64", "u8[]", "bool[]!", "i64", "u64[,]!"), None, False),
    "bloomviz.measure.first_flips._set_halves_at": (
        ("u8[]!", "u64[]", "u64[]", "i64", "i64", "i64", "i64", "i64[]!", "i64[]!", "u64[,]!"), "i64", False),
    "bloomviz.measure.counter_flips._set_counter_at": (
        ("u8[]!", "u64", "u64", "i64", "i64", "i64", "i64", "i64", "i64[]!", "i64[]!", "u64[,]!"), "i64", False),
    "bloomviz.measure.first_flips._turned_split": (("u8[]", "i64[]", "i64[]!", "i64[]!"), "i64", False),
    "bloomviz.measure.first_flips._first_fresh_in": (
        ("i64[]", "i64[]", "i64[]", "i64[]", "i64[]!", "u8[]!"), None, False),
    "bloomviz.measure.fresh_rows.fresh_rows": (
        ("i64[]", "i64[]", "i64[]", "i64[]", "i64[]!", "u8[]!", "i64", "i64[]!", "i64[]!"), "i64", False),
    "bloomviz.measure.completions.by_probe": (("i64[]", "i64[]", "i64[]!", "i64[]!"), None, False),
    "bloomviz.measure.completions.complete": (("i64[]", "i64[]", "i64[]", "bool[]!", "i64[]!", "i64[]", "i64[]",
                                               "u8[]!", "i64[]!", "i64[]!", "i64[]!"), None, False),
    "bloomviz.measure.completions.completion_rows": (("i64[]", "i64[]", "i64[]", "i64[]", "i64[]!"), None, False),
    "bloomviz.measure.completions.running_counts": (("i64[]!", "i64", "i64[]", "i64", "i64[]!"), None, False),
    "bloomviz.formats.crc32c_kernel._crc_loop": (("u8[]", "u32[]"), "i64", False),
}
# the files whose code ends up in the object (a change to any of them makes the cached file stale)
SOURCES = ("hashing/intrinsics.py", "hashing/murmur_kernel.py", "hashing/list_kernel.py", "hashing/mixed_kernel.py",
           "hashing/str_layout.py", "hashing/lazy_jit.py", "hashing/native_kernels.py", "hashing/native_build.py",
           "hashing/generated_kernel.py", "items/generated.py", "filters/bit_kernels.py", "measure/first_flips.py",
           "measure/fresh_rows.py", "measure/completions.py", "measure/counter_flips.py", "formats/crc32c_kernel.py")
MAGIC = b"bloomviz native kernels 1\n"
KEPT_FILES = 8     # the most recently written files kept beside a new one (other versions, other checkouts)
MAX_FILE_BYTES = 1 << 24      # the file is ~50 KB: anything far larger is not one of ours, and is not read
DTYPES = {"u64": np.uint64, "i64": np.int64, "u8": np.uint8, "u32": np.uint32, "i32": np.int32, "bool": np.bool_}

_lock = threading.Lock()
_key_lock = threading.Lock()
_entries: dict[str, object] = {}
_engine: list = []        # the JIT linker holding the loaded code: kept for the life of the process
state = {"status": "not loaded"}      # why not, once tried: read by tests and the benchmark


def cache_dir() -> Path | None:
    configured = os.environ.get("BLOOMVIZ_KERNEL_CACHE")
    if configured is not None:
        return Path(configured) if configured else None
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "bloomviz" / "kernels"


def _numba_version() -> bytes:
    # found on the path as the import system would find it, without importing it (nor asking import hooks)
    for entry in sys.path:
        try:
            return Path(entry or ".", "numba", "_version.py").read_bytes()
        except OSError:
            continue
    return b"no numba"


_process_key: list[str] = []      # the key when this process first asked: the sources it had imported


def cache_key() -> str:
    """This process's key: computed once, when first asked (the window's load at start-up, just after the
    kernels' modules were imported), and kept. The code a process compiles is the code it imported; a key read
    again from sources edited since (a pull into an editable install) would label old machine code as new, and
    the next launch would load it (``native_build.write`` writes nothing when the two differ)."""
    with _key_lock:
        if not _process_key:
            _process_key.append(key_on_disk())
        return _process_key[0]


def key_on_disk() -> str:
    """The key of the sources as they are on disk now (and of this host, versions and settings)."""
    import llvmlite
    import llvmlite.binding as llvm
    digest = hashlib.sha256()
    root = Path(__file__).resolve().parent.parent
    for name in SOURCES:
        digest.update(name.encode() + b"\0" + (root / name).read_bytes())
    host = (llvm.get_process_triple(), llvm.get_host_cpu_name(), llvm.get_host_cpu_features().flatten())
    settings = [os.environ.get(name, "") for name in ("NUMBA_CPU_NAME", "NUMBA_CPU_FEATURES", "NUMBA_OPT")]
    for part in (_numba_version(), llvmlite.__version__, sys.version, *host, *settings, json.dumps(KERNELS)):
        digest.update(part if isinstance(part, bytes) else str(part).encode())
        digest.update(b"\0")
    return digest.hexdigest()


def file_name(key: str) -> str:
    """One file per key: installs of other versions (or checkouts of other sources) sharing the cache directory
    keep a file each instead of overwriting one another's at every launch."""
    return f"kernels-{key[:32]}.bin"


def _digest(symbols, imports, code: bytes) -> str:
    # the header's symbols and imports too: a digit changed in a symbol's name sends a kernel's arguments to
    # another kernel's code, and an import lost from the list escapes the check that keeps the linker from
    # aborting the process
    listed = json.dumps([symbols, imports], sort_keys=True).encode()
    return hashlib.sha256(listed + b"\0" + code).hexdigest()


def pack(key: str, symbols: dict[str, str], imports: list[str], code: bytes) -> bytes:
    header = json.dumps({"key": key, "symbols": symbols, "imports": imports, "size": len(code),
                         "sha256": _digest(symbols, imports, code)}).encode()
    return MAGIC + struct.pack("<Q", len(header)) + header + code


def unpack(data: bytes, key: str) -> tuple[dict, bytes]:
    """(header, object code) of a cache file written for ``key``; ValueError naming what is wrong."""
    if not data.startswith(MAGIC):
        raise ValueError("not a kernel cache file")
    at = len(MAGIC) + 8
    if len(data) < at:
        raise ValueError("truncated")
    (size,) = struct.unpack_from("<Q", data, len(MAGIC))
    try:
        header = json.loads(data[at:at + size])
    except ValueError:
        raise ValueError("unreadable header") from None
    if not isinstance(header, dict) or header.get("key") != key:
        raise ValueError("stale: written for other sources, versions or CPU")
    code = data[at + size:]
    if len(code) != header.get("size"):
        raise ValueError("truncated or damaged object code")
    if _digest(header.get("symbols"), header.get("imports"), code) != header.get("sha256"):
        raise ValueError("damaged object code or list of symbols")
    return header, code


def load(directory: Path | None = None, again: bool = False) -> bool:
    """Load the cached kernels once per process (later calls answer whether it worked); never raises.
    ``again``: after a first try found no file ("absent"), look once more (another process has written it)."""
    with _lock:
        if state["status"] != "not loaded" and not (again and state["status"] == "absent"):
            return bool(_entries)
        try:
            state["status"] = _load(directory if directory is not None else cache_dir())
        except Exception as exc:     # a cache is a head start: whatever went wrong, numba compiles as before
            state["status"] = f"not used: {type(exc).__name__}: {exc}"
        return bool(_entries)


def _load(directory: Path | None) -> str:
    if directory is None:
        return "off"
    key = cache_key()
    try:
        # (a FIFO or a device put in its place would block the GUI thread, or fill memory: refused by kind)
        with safe_files.open_regular(directory / file_name(key), limit=MAX_FILE_BYTES) as file:
            _refuse_foreign(os.fstat(file.fileno()))
            data = file.read(MAX_FILE_BYTES + 1)
    except FileNotFoundError:
        return "absent"
    import llvmlite.binding as llvm
    header, code = unpack(data, key)
    llvm.initialize_native_target()
    llvm.initialize_native_asmprinter()
    machine = llvm.Target.from_default_triple().create_target_machine(codemodel="jitdefault", jit=True)
    engine = llvm.create_mcjit_compiler(llvm.parse_assembly(""), machine)     # (makes the process's symbols known)
    missing = [name for name in header["imports"] if not llvm.address_of_symbol(name)]
    if missing:        # the JIT linker would abort the process on an unresolved symbol: checked first
        raise ValueError(f"symbols not in this process: {', '.join(missing[:5])}")
    engine.add_object_file(llvm.ObjectFileRef.from_data(code))
    engine.finalize_object()
    entries = {}
    for kernel, symbol in header["symbols"].items():      # (a kernel numba's runtime would be needed for: left out)
        if kernel in KERNELS:
            address = engine.get_function_address(symbol)
            if not address:
                raise ValueError(f"{symbol} missing from the object")
            entries[kernel] = _entry(kernel, address)
    _engine.append(engine)
    _entries.update(entries)
    return "loaded"


def _refuse_foreign(stat: os.stat_result) -> None:
    """The file's bytes run as machine code in this process: only a file this user (or root) owns and no one
    else may write is taken (as ssh takes its keys); ours are made 0600 by the temporary file they start as."""
    if not hasattr(os, "getuid"):        # (no owners to compare on this system)
        return
    if stat.st_uid not in (os.getuid(), 0):
        raise PermissionError(f"owned by user {stat.st_uid}, not this user")
    if stat.st_mode & 0o022:
        raise PermissionError(f"writable by others (mode {stat.st_mode & 0o777:o})")


def _entry(kernel: str, address: int):
    codes, result, gil = KERNELS[kernel]
    argtypes = [ctypes.c_void_p]        # where the result goes
    for code in codes:
        if "[" in code:
            argtypes += [ctypes.c_void_p] + [ctypes.c_int64] * (code.count(",") + 1)
        else:
            argtypes.append(ctypes.c_uint64 if code == "u64" else ctypes.c_int64)
    # CFUNCTYPE lets other threads run during the call, as numba's nogil kernels do
    function = (ctypes.PYFUNCTYPE if gil else ctypes.CFUNCTYPE)(ctypes.c_int32, *argtypes)(address)
    convert = _converter(codes)

    def call(args):
        flat = convert(args)
        if flat is None:
            return False, None
        out = ctypes.c_int64(0)
        status = function(ctypes.addressof(out), *flat)
        if status != 0:
            raise RuntimeError(f"the cached kernel {kernel} failed (status {status})")
        return True, (out.value if result else None)
    return call


_LOW, _HIGH = -(1 << 63), (1 << 63) - 1


def _converter(codes: tuple[str, ...]):
    specs = []
    for code in codes:
        if "[" in code:
            base = code.split("[")[0]
            specs.append((np.dtype(DTYPES[base]), code.count(",") + 1, code.endswith("!")))
        else:
            specs.append(code)

    def convert(args):
        """The C arguments for ``args``, or None when numba would type one of them otherwise."""
        if len(args) != len(specs):
            return None
        flat = []
        for spec, value in zip(specs, args):
            if spec == "bool":
                if type(value) not in (bool, np.bool_):
                    return None
                flat.append(int(value))
            elif spec == "i64":
                if type(value) not in (int, np.int64) or not _LOW <= value <= _HIGH:
                    return None
                flat.append(int(value))
            elif spec == "u64":
                if type(value) is not np.uint64:
                    return None
                flat.append(int(value))
            else:
                dtype, ndim, written = spec
                if (type(value) is not np.ndarray or value.dtype != dtype or value.ndim != ndim
                        or not value.flags.c_contiguous or not value.flags.aligned
                        or (written and not value.flags.writeable)):
                    return None
                flat.append(value.ctypes.data)
                flat.extend(value.shape)
        return flat
    return convert


def entry(kernel: str):
    """The loaded kernel's caller (args -> (served, result)), or None."""
    return _entries.get(kernel)


def ready(*kernels: str) -> bool:
    """Whether all these kernels are served from the cache."""
    return bool(_entries) and all(kernel in _entries for kernel in kernels)


def forget() -> None:
    """Serve nothing from the cache any more (tests; the loaded code stays mapped)."""
    with _lock:
        _entries.clear()
        state["status"] = "not loaded"

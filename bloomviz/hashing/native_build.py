"""Write the native kernel cache (``native_kernels``): each kernel's machine code behind a C entry, one object.

For each kernel a numba ``cfunc`` takes raw pointers and sizes, views them as arrays (``carray``) and calls the
``njit`` kernel: the same typed code, compiled the same way. numba's C wrapper around it acquires the GIL and
reports an exception through numba's runtime (symbols only numba provides), so it is not used: a small entry
of our own calls numba's function directly and hands back its status (non-zero: the kernel raised). Every other
function is made internal and dropped unless reached, so the object imports only what the code calls (the
C library's memset, the Python C API for the kernel reading a list of str). numba's ``numba_extract_unicode``,
which that kernel calls only for a str that is not compact (none the interpreter makes today), becomes a
function answering "not readable": the loop then stops and the caller's other path hashes the list.

Takes seconds of CPU (numba's import and a compile per kernel): on a first launch the window's warm-up starts it
in a process of its own (``python -m bloomviz.hashing.native_build DIRECTORY``, at a lower priority), so that
the window's process never holds its interpreter's lock for it.
"""

from __future__ import annotations

import contextlib
import importlib
import os
import sys
import tempfile
import time
from pathlib import Path

from bloomviz.hashing import native_kernels

_ENTRY_PREFIX = "bloomviz_native_"
# see the module's docstring; the arrays here are views of the caller's memory (no meminfo): numba's reference
# count calls test for that and never reach the destructor (an allocating kernel would import NRT's allocator,
# which no process without numba has: such a file is refused at load)
_REPLACED = {"numba_extract_unicode": "ret ptr null", "NRT_MemInfo_call_dtor": "ret void"}
# numba's numba_py_type(o) is Py_TYPE(o): the field after the reference count, in a standard CPython build
if sys.implementation.name == "cpython" and sys.getsizeof(object()) == 16 and getattr(
        sys, "_is_gil_enabled", lambda: True)():
    _REPLACED["numba_py_type"] = ("%type = getelementptr i8, ptr %0, i64 8\n"
                                  "  %found = load ptr, ptr %type\n  ret ptr %found")


def _c_entry(kernel: str):
    from numba import carray, cfunc, types
    codes, result, _gil = native_kernels.KERNELS[kernel]
    module, name = kernel.rsplit(".", 1)
    dispatcher = getattr(importlib.import_module(module), name).real()
    scalar = {"u64": types.uint64, "i64": types.int64, "u8": types.uint8, "u32": types.uint32, "i32": types.int32,
              "bool": types.boolean}
    params, signature, call = [], [], []
    for i, code in enumerate(codes):
        if "[" in code:
            dims = [f"d{i}_{d}" for d in range(code.count(",") + 1)]
            params += [f"p{i}", *dims]
            signature += [types.CPointer(scalar[code.split("[")[0]])] + [types.int64] * len(dims)
            call.append(f"carray(p{i}, ({', '.join(dims)},))")
        else:
            params.append(f"a{i}")
            signature.append(types.uint64 if code == "u64" else types.int64)
            call.append(f"a{i} != 0" if code == "bool" else f"a{i}")
    body = f"kernel({', '.join(call)})"
    source = f"def entry({', '.join(params)}):\n    " + (
        f"return {body}\n" if result else f"{body}\n    return 0\n")
    namespace = {"carray": carray, "kernel": dispatcher}
    exec(source, namespace)
    return cfunc(types.int64(*signature), nopython=True)(namespace["entry"])


def build() -> tuple[dict[str, str], list[str], bytes]:
    """(kernel -> entry symbol, symbols the object imports, the object code) for the kernels of KERNELS that
    need nothing of numba's runtime (one allocating an array would import NRT's allocator: left out, served by
    numba as before; tests/hashing/test_native_kernels.py checks every kernel listed makes it)."""
    import llvmlite.binding as llvm
    combined = None
    symbols = {}
    machine = None
    for number, kernel in enumerate(native_kernels.KERNELS):
        compiled = _c_entry(kernel)
        library = compiled._library
        machine = library._codegen._tm          # numba's own target machine: its CPU, features and options
        module = llvm.parse_assembly(str(library._final_module))
        inner = compiled.native_name[len("cfunc."):]
        params = [str(a.type) for a in module.get_function(inner).arguments][2:]
        args = ", ".join(f"{t} %a{i}" for i, t in enumerate(params))
        symbol = symbols[kernel] = f"{_ENTRY_PREFIX}{number}"
        module.link_in(llvm.parse_assembly(f"""
define i32 @{symbol}(ptr %out, {args}) {{
  %result = alloca i64, align 8
  %error = alloca ptr, align 8
  store i64 0, ptr %result
  store ptr null, ptr %error
  %status = call i32 @"{inner}"(ptr %result, ptr %error, {args})
  %value = load i64, ptr %result
  store i64 %value, ptr %out
  ret i32 %status
}}
declare i32 @"{inner}"({", ".join(["ptr", "ptr", *params])})
"""))
        _internalize(module, keep=symbol)
        _replace_helpers(module)
        _drop_unused(module, machine)
        if any(name.startswith(_NUMBA_RUNTIME) for name in _imports(module)):
            del symbols[kernel]
            continue
        if combined is None:
            combined = module
        else:
            combined.link_in(module)
    if combined is None:
        raise RuntimeError("no kernel could be compiled without numba's runtime")
    combined.verify()
    return symbols, _imports(combined), machine.emit_object(combined)


_NUMBA_RUNTIME = ("numba_", "NRT_")     # provided by numba's extension modules once numba is imported


def _drop_unused(module, machine) -> None:
    import llvmlite.binding as llvm
    passes = llvm.create_new_module_pass_manager()
    passes.add_global_dead_code_eliminate_pass()
    passes.run(module, llvm.create_pass_builder(machine, llvm.create_pipeline_tuning_options(speed_level=3)))


def _imports(module) -> list[str]:
    return sorted({f.name for f in module.functions if f.is_declaration and not f.name.startswith("llvm.")}
                  | {g.name for g in module.global_variables if g.is_declaration})


def _internalize(module, keep: str) -> None:
    for value in (*module.functions, *module.global_variables):
        if not value.is_declaration and value.name != keep:
            value.linkage = "internal"


def _replace_helpers(module) -> None:
    import llvmlite.binding as llvm
    for name, body in _REPLACED.items():
        try:
            declared = module.get_function(name)
        except NameError:
            continue
        kind = str(declared.global_value_type)          # e.g. "ptr (ptr, ptr, ptr, ptr, ptr)"
        result, _, params = kind.partition(" (")
        args = ", ".join(f"{t} %{i}" for i, t in enumerate(p for p in params.rstrip(")").split(", ") if p))
        module.link_in(llvm.parse_assembly(f'define {result} @"{name}"({args}) {{\n  {body}\n}}\n'))
        module.get_function(name).linkage = "internal"


def write(directory: Path | None = None) -> Path | None:
    """Build and write the cache file (None: no cache directory configured, or the kernels' sources changed on
    disk since this process imported them). Atomic: a temporary file renamed."""
    directory = directory if directory is not None else native_kernels.cache_dir()
    if directory is None:
        return None
    key = native_kernels.cache_key()
    if native_kernels.key_on_disk() != key:     # sources edited since this process imported them: its code is
        return None                             # not theirs; the next launch compiles and writes the new one
    # the file made before the build: a directory that cannot take it (read-only, not a directory) costs no
    # build, which would otherwise be seconds of CPU at every launch, each one failing here
    directory.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(dir=directory, prefix=".kernels-", suffix=".tmp")
    try:
        with os.fdopen(handle, "wb") as out:
            symbols, imports, code = build()
            out.write(native_kernels.pack(key, symbols, imports, code))
        target = directory / native_kernels.file_name(key)
        os.replace(temporary, target)
    except BaseException:
        os.unlink(temporary)
        raise
    _prune(directory)
    return target


def _prune(directory: Path) -> None:
    """Keep the ``KEPT_FILES`` most recently written cache files (a file is rewritten only when its key is new)."""
    try:
        files = sorted(directory.glob("kernels-*.bin"), key=lambda path: path.stat().st_mtime, reverse=True)
        for old in files[native_kernels.KEPT_FILES:]:
            old.unlink()
    except OSError:         # another process pruned or wrote meanwhile: the next write prunes again
        pass
    # a write cut short (the process killed during its build) leaves its temporary file; one this old is no
    # other process's write in progress (a build takes seconds)
    for left in directory.glob(".kernels-*.tmp"):
        try:
            if time.time() - left.stat().st_mtime > ABANDONED_AFTER_S:
                left.unlink()
        except OSError:
            pass


ABANDONED_AFTER_S = 3600


BUILD_NICE = 10     # the build's priority below the window's: a person's auto-play comes first
ANOTHER_BUILD = 3   # main's exit status when another process is building the same file now


def main(argv: list[str]) -> int:
    """``python -m bloomviz.hashing.native_build [DIRECTORY]``: write the file for this install and machine; exit
    0 once written, ``ANOTHER_BUILD`` if another process is building it now (windows started one after another
    before the first build ended each started one: seconds of CPU each), 1 if not written (why on stderr)."""
    try:
        os.nice(BUILD_NICE)
    except (AttributeError, OSError):      # (no priorities here, or not allowed: built at the same priority)
        pass
    directory = Path(argv[0]) if argv else native_kernels.cache_dir()
    try:
        with _only_build(directory):
            written = write(directory)
    except FileExistsError:
        print("bloomviz: native kernel cache: another process is building it", file=sys.stderr)
        return ANOTHER_BUILD
    except Exception as exc:
        print(f"bloomviz: native kernel cache not written: {type(exc).__name__}: {exc}", file=sys.stderr)
        return 1
    if written is None:
        print("bloomviz: native kernel cache not written: no cache directory, or the sources changed meanwhile",
              file=sys.stderr)
        return 1
    print(written)
    return 0


def builder_alive(marker: Path) -> bool:
    """Whether the build that made ``marker`` still runs: its process id is in it. A build killed part way (out of
    memory, a logout) left its marker, and every window launched within the hour waited for a file no one was
    writing, its batches on the slow numpy paths for up to ``BUILD_LIMIT_S``. A marker not yet written (a build
    starting now) or unreadable counts as alive."""
    try:
        pid = int(marker.read_text(encoding="ascii").strip() or 0)
    except (OSError, ValueError):
        return True
    if pid <= 0:
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:        # (another user's process: alive)
        return True
    return True


@contextlib.contextmanager
def _only_build(directory: Path | None):
    """A marker file beside the cache's, made exclusively for the build (FileExistsError: another process's,
    unless it is older than ``ABANDONED_AFTER_S``, a build cut short), removed after it."""
    if directory is None:
        yield
        return
    directory.mkdir(parents=True, exist_ok=True)
    marker = directory / f".building-{native_kernels.file_name(native_kernels.cache_key())}"
    try:
        if time.time() - marker.stat().st_mtime > ABANDONED_AFTER_S or not builder_alive(marker):
            marker.unlink()
    except OSError:
        pass
    fd = os.open(marker, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600)
    try:
        os.write(fd, str(os.getpid()).encode())
    finally:
        os.close(fd)
    try:
        yield
    finally:
        try:
            marker.unlink()
        except OSError:
            pass


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))

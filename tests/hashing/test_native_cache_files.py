"""The native kernel cache's file in places that cannot hold one: nothing blocks, nothing large is read, and a
directory that cannot take the file costs no build (hashing/native_kernels.py, native_build.py)."""

from __future__ import annotations

import os

import pytest

from guards import no_hang

from bloomviz.hashing import native_build, native_kernels


def _load(directory) -> tuple[bool, str]:
    native_kernels.forget()
    try:
        return native_kernels.load(directory), native_kernels.state["status"]
    finally:
        native_kernels.forget()


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this system")
def test_a_fifo_in_the_files_place_is_refused_without_waiting(tmp_path):
    os.mkfifo(tmp_path / native_kernels.file_name(native_kernels.cache_key()))
    with no_hang(20, "loading the native kernel cache"):
        loaded, why = _load(tmp_path)
    assert not loaded and "FIFO" in why


def test_a_file_far_larger_than_the_cache_is_not_read(tmp_path):
    with open(tmp_path / native_kernels.file_name(native_kernels.cache_key()), "wb") as big:
        big.truncate(native_kernels.MAX_FILE_BYTES + 1)     # sparse: no disk spent
    loaded, why = _load(tmp_path)
    assert not loaded and "limit" in why


def test_a_directory_that_cannot_take_the_file_costs_no_build(tmp_path, monkeypatch):
    built = []
    monkeypatch.setattr(native_build, "build", lambda: built.append(1) or ({}, [], b""))
    (tmp_path / "a file").write_bytes(b"")
    with pytest.raises(OSError):
        native_build.write(tmp_path / "a file" / "kernels")
    assert built == []
    assert list(tmp_path.iterdir()) == [tmp_path / "a file"]


def test_a_failed_build_leaves_no_temporary_file(tmp_path, monkeypatch):
    def fails():
        raise RuntimeError("no kernel could be compiled")
    monkeypatch.setattr(native_build, "build", fails)
    with pytest.raises(RuntimeError):
        native_build.write(tmp_path)
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("before, after", [(b"bloomviz_native_1", b"bloomviz_native_2"), (b'"memset", ', b"")])
def test_a_header_changed_after_writing_is_refused(before, after):
    """A symbol's number changed would call one kernel with another's arguments; an import dropped from the
    list would get past the check that keeps the JIT linker from aborting the process."""
    key = native_kernels.cache_key()
    symbols = {"bloomviz.hashing.mixed_kernel._mix": "bloomviz_native_1",
               "bloomviz.filters.bit_kernels._set": "bloomviz_native_2"}
    data = native_kernels.pack(key, symbols, ["PyList_GetItem", "memset", "memmove"], b"object code")
    assert native_kernels.unpack(data, key)[1] == b"object code"
    at = data.index(before)
    changed = data[:at] + after + data[at + len(before):]
    size = len(native_kernels.MAGIC)
    header_size = int.from_bytes(changed[size:size + 8], "little") + len(after) - len(before)
    changed = changed[:size] + header_size.to_bytes(8, "little") + changed[size + 8:]
    with pytest.raises(ValueError, match="damaged"):
        native_kernels.unpack(changed, key)


def test_a_write_cut_short_long_ago_leaves_no_temporary_file(tmp_path, monkeypatch):
    monkeypatch.setattr(native_build, "build", lambda: ({}, [], b"object code"))
    abandoned, running = tmp_path / ".kernels-abandoned.tmp", tmp_path / ".kernels-running.tmp"
    abandoned.write_bytes(b"")
    running.write_bytes(b"")
    long_ago = abandoned.stat().st_mtime - 2 * native_build.ABANDONED_AFTER_S
    os.utime(abandoned, (long_ago, long_ago))
    written = native_build.write(tmp_path)
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([written.name, running.name])


def test_sources_edited_after_this_process_imported_them_are_not_written_under_their_key(tmp_path, monkeypatch):
    """The code a process compiles is what it imported: written under the key of sources edited since (a pull
    into an editable install), the next launch would load the old machine code as the new."""
    built = []
    monkeypatch.setattr(native_build, "build", lambda: built.append(1) or ({}, [], b"object code"))
    native_kernels.cache_key()                           # this process's key, as at its start-up
    monkeypatch.setattr(native_kernels, "key_on_disk", lambda: "sources edited since")
    assert native_build.write(tmp_path) is None
    assert built == [] and list(tmp_path.iterdir()) == []


@pytest.mark.skipif(not hasattr(os, "getuid"), reason="no file owners on this system")
def test_a_file_others_may_write_or_own_is_not_run(tmp_path):
    """The file's bytes run as machine code: one that another user owns, or anyone else may write, is refused."""
    path = tmp_path / native_kernels.file_name(native_kernels.cache_key())
    path.write_bytes(b"not even a cache file")
    path.chmod(0o666)
    loaded, why = _load(tmp_path)
    assert not loaded and "writable by others" in why
    stranger = os.stat_result((0o100600, 0, 0, 1, os.getuid() + 1, 0, 0, 0, 0, 0))     # another user's, 0600
    with pytest.raises(PermissionError, match="owned by user"):
        native_kernels._refuse_foreign(stranger)
    path.chmod(0o600)
    loaded, why = _load(tmp_path)
    assert not loaded and "writable" not in why and "owned" not in why     # refused for what it holds instead


def test_every_module_whose_code_goes_into_the_file_is_in_its_key():
    """A kernel's module, and every bloomviz module of compiled helpers it imports, is hashed into the key: an
    edit to any of them makes the file stale instead of running the old machine code."""
    import ast
    from pathlib import Path
    package = Path(native_kernels.__file__).resolve().parent.parent
    wanted, todo = set(), [kernel.rsplit(".", 1)[0] for kernel in native_kernels.KERNELS]
    while todo:
        name = todo.pop().removeprefix("bloomviz.").replace(".", "/") + ".py"
        if name in wanted:
            continue
        wanted.add(name)
        for node in ast.walk(ast.parse((package / name).read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("bloomviz."):
                source = (package / (node.module.removeprefix("bloomviz.").replace(".", "/") + ".py"))
                if source.exists() and "lazy_jit import" in source.read_text(encoding="utf-8"):
                    todo.append(node.module)        # a module of kernels: its helpers may be inlined
    assert wanted <= set(native_kernels.SOURCES), sorted(wanted - set(native_kernels.SOURCES))

"""Machine operations the compiled loops (numba) need and numba does not offer: a cache-line prefetch, an
unaligned 64-bit load, a 64 x 64 -> 128-bit multiply-high, a population count, and reading a Python list's str
or bytes items in place through CPython's C API.

Each is a few lines of LLVM IR. The C API calls are the ones numba itself emits to box and unbox values
(``PyList_GetItem``, ``PyBytes_AsStringAndSize``, its own ``numba_extract_unicode`` for a str's kind and data),
so the loops that use them compile and cache like any other; such a loop must hold the GIL (no ``nogil``) and
its caller must keep the list alive and unchanged for the call, which holding the GIL guarantees.
"""

from __future__ import annotations

from llvmlite import ir

from bloomviz.hashing.lazy_jit import intrinsic, numba_value

# numba's modules, imported when a kernel using these is first compiled (lazy_jit)
types = numba_value("numba.core.types")
cgutils = numba_value("numba.core.cgutils")

_I64 = ir.IntType(64)
_BYTE_POINTER = ir.IntType(8).as_pointer()


@intrinsic
def prefetch(typingctx, array, index):
    """Ask for the cache line of ``array[index]`` ahead of a write (LLVM's prefetch; a hint, never a fault)."""
    def codegen(context, builder, signature, args):
        array_type = signature.args[0]
        data = context.make_array(array_type)(context, builder, args[0])
        pointer = cgutils.get_item_pointer(context, builder, array_type, data, [args[1]])
        i32 = ir.IntType(32)
        if getattr(pointer.type, "is_opaque", False):       # LLVM 15 and later
            name = "llvm.prefetch.p0"
        else:                                              # typed pointers: the intrinsic takes an i8*
            pointer = builder.bitcast(pointer, _BYTE_POINTER)
            name = "llvm.prefetch.p0i8"
        function = cgutils.get_or_insert_function(
            builder.module, ir.FunctionType(ir.VoidType(), [pointer.type, i32, i32, i32]), name)
        # write, highest locality, data cache
        builder.call(function, [pointer, ir.Constant(i32, 1), ir.Constant(i32, 3), ir.Constant(i32, 1)])
        return context.get_dummy_value()
    return types.void(array, index), codegen


@intrinsic
def load64(typingctx, array, index):
    """The 8 bytes of a uint8 array from ``index`` as a little-endian uint64, in one unaligned load (x86 and
    ARM load unaligned words; numba would assemble it a byte at a time). The caller keeps index + 8 in bounds."""
    def codegen(context, builder, signature, args):
        array_type = signature.args[0]
        data = context.make_array(array_type)(context, builder, args[0])
        pointer = cgutils.get_item_pointer(context, builder, array_type, data, [args[1]])
        return builder.load(builder.bitcast(pointer, _I64.as_pointer()), align=1)
    return types.uint64(array, index), codegen


@intrinsic
def store32(typingctx, array, index, value):
    """Write a uint32's 4 bytes, little-endian, into a uint8 array from ``index`` in one unaligned store. The
    caller keeps index + 4 in bounds."""
    def codegen(context, builder, signature, args):
        array_type = signature.args[0]
        data = context.make_array(array_type)(context, builder, args[0])
        pointer = cgutils.get_item_pointer(context, builder, array_type, data, [args[1]])
        i32 = ir.IntType(32)
        value = context.cast(builder, args[2], signature.args[2], types.uint32)
        builder.store(value, builder.bitcast(pointer, i32.as_pointer()), align=1)
        return context.get_dummy_value()
    return types.void(array, index, value), codegen


@intrinsic
def popcount(typingctx, x):
    """The number of 1 bits of a uint64 (LLVM's ctpop: one instruction where the CPU has it)."""
    def codegen(context, builder, signature, args):
        function = cgutils.get_or_insert_function(builder.module, ir.FunctionType(_I64, [_I64]), "llvm.ctpop.i64")
        return builder.call(function, [args[0]])
    return types.uint64(types.uint64), codegen


@intrinsic
def mulhi(typingctx, x, y):
    """floor(x·y / 2^64) for two uint64: one widening multiply instead of four 32-bit products."""
    def codegen(context, builder, signature, args):
        i128 = ir.IntType(128)
        product = builder.mul(builder.zext(args[0], i128), builder.zext(args[1], i128))
        return builder.trunc(builder.lshr(product, ir.Constant(i128, 64)), _I64)
    return types.uint64(types.uint64, types.uint64), codegen


@intrinsic
def list_item(typingctx, address, index):
    """Item ``index`` of the list whose address (``id``) is ``address``, as a borrowed object pointer."""
    def codegen(context, builder, signature, args):
        pyapi = context.get_python_api(builder)
        item = pyapi.list_getitem(builder.inttoptr(args[0], pyapi.pyobj), args[1])
        return builder.bitcast(item, _BYTE_POINTER)
    return types.voidptr(types.intp, types.intp), codegen


@intrinsic
def list_size(typingctx, address):
    """The length of the list whose address is ``address``."""
    def codegen(context, builder, signature, args):
        pyapi = context.get_python_api(builder)
        return pyapi.list_size(builder.inttoptr(args[0], pyapi.pyobj))
    return types.intp(types.intp), codegen


@intrinsic
def type_address(typingctx, item):
    """The address of an object's exact type (compare with ``id(str)``, ``id(bytes)``)."""
    def codegen(context, builder, signature, args):
        pyapi = context.get_python_api(builder)
        return builder.ptrtoint(pyapi.get_type(builder.bitcast(args[0], pyapi.pyobj)), _I64)
    return types.intp(types.voidptr), codegen


@intrinsic
def bytes_data(typingctx, item):
    """(pointer, size) of a bytes object's contents; the caller has checked that it is one."""
    _BYTES_DATA = types.Tuple((types.voidptr, types.intp))

    def codegen(context, builder, signature, args):
        pyapi = context.get_python_api(builder)
        buffer = cgutils.alloca_once(builder, pyapi.cstring)
        size = cgutils.alloca_once(builder, pyapi.py_ssize_t)
        pyapi.bytes_as_string_and_size(builder.bitcast(args[0], pyapi.pyobj), buffer, size)
        return context.make_tuple(builder, _BYTES_DATA, [builder.load(buffer), builder.load(size)])
    return _BYTES_DATA(types.voidptr), codegen


@intrinsic
def text_data(typingctx, item):
    """(ok, pointer, length in code points, kind: 1, 2 or 4 bytes a code point, 1 if ASCII) of a str; the
    caller has checked that it is one. ok is False if CPython could not ready the string."""
    _TEXT_DATA = types.Tuple((types.boolean, types.voidptr, types.intp, types.int32, types.int32))

    def codegen(context, builder, signature, args):
        pyapi = context.get_python_api(builder)
        ok, data, length, kind, ascii, _ = pyapi.string_as_string_size_and_kind(
            builder.bitcast(args[0], pyapi.pyobj))
        return context.make_tuple(builder, _TEXT_DATA, [ok, data, length, kind, ascii])
    return _TEXT_DATA(types.voidptr), codegen


def _field_pointer(builder, item, offset, pointee):
    return builder.bitcast(builder.gep(builder.bitcast(item, _BYTE_POINTER), [offset]), pointee.as_pointer())


@intrinsic
def peek_word(typingctx, item, offset):
    """The 8-byte field ``offset`` bytes into an object's C struct (an offset checked by the caller)."""
    def codegen(context, builder, signature, args):
        return builder.load(_field_pointer(builder, args[0], args[1], _I64))
    return types.intp(types.voidptr, types.intp), codegen


@intrinsic
def peek_byte(typingctx, item, offset):
    """The byte ``offset`` bytes into an object's C struct."""
    def codegen(context, builder, signature, args):
        return builder.zext(builder.load(_field_pointer(builder, args[0], args[1], ir.IntType(8))), _I64)
    return types.intp(types.voidptr, types.intp), codegen


@intrinsic
def field_address(typingctx, item, offset):
    """A pointer ``offset`` bytes into an object."""
    def codegen(context, builder, signature, args):
        return builder.gep(builder.bitcast(args[0], _BYTE_POINTER), [args[1]])
    return types.voidptr(types.voidptr, types.intp), codegen

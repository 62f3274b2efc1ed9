"""The one place that imports numba, with the project's compilation settings.

It also listens to numba's compile events: the first time one of our kernels is
compiled in a process, the ``collide2d`` logger says so once (at INFO: silent in a
library unless logging is configured; the ``collide2d`` command shows it), and every
compile's duration is kept in :data:`COMPILED` for ``collide2d warmup``.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import Any, TypeVar, cast

import numba
from llvmlite import ir
from numba.core import cgutils, event, types
from numba.extending import intrinsic, overload
from numba.np.arrayobj import populate_array

from collide2d._kernels import cache_guard

F = TypeVar("F", bound=Callable[..., Any])

FIRST_COMPILE = (
    "collide2d is compiling its kernels for this machine (the first call of each "
    "kind takes a few seconds, then they load from numba's cache; "
    "`collide2d warmup` compiles them all ahead)"
)
COMPILED: list[tuple[str, float]] = []
"""``(module.function, seconds)`` of each of our kernels compiled in this process
(a kernel's time includes the helpers compiled for it)."""


def kernel(func: F) -> F:
    """Compile ``func`` lazily with numba: ``nopython``, cached on disk, no fastmath.

    No fastmath because the slab tests rely on IEEE infinities and exact rounding.
    """
    return cast(F, _cached(numba.njit(cache=True, nogil=True, **_NO_C_WRAPPER)(func)))


def inline_kernel(func: F) -> F:
    """A small helper inlined into its callers in numba's IR (``inline="always"``),
    as the mask kernels (``bits``, ``runs``, ``mask_tree``) use it: removing it there
    made them a quarter slower. Not for a helper called from many places of a large
    kernel: each call is a copy typed again, and ``World.step``'s 70 such helpers made
    its first call 3.3 times as long (and five times as large: 4.8 GB) as the same
    helpers compiled once each (:func:`borrowing_kernel`). Not for a test inside a
    hot loop with several early returns: numba compiled such a helper into code 40
    times slower than the same lines written in the loop (see ``runs.blocks_to_scan``)."""
    return cast(
        F, _cached(numba.njit(cache=True, nogil=True, inline="always", **_NO_C_WRAPPER)(func))
    )


def inlined_helper(func: F) -> F:
    """A helper of a large kernel, compiled as :func:`borrowing_kernel` is (once for
    each kind of argument, without reference counts), and inlined by LLVM into every
    kernel that calls it (LLVM's ``alwaysinline``, :func:`_inlined_by_llvm`), not by
    numba: what ``World.step``'s helpers need.

    numba's own inlining (:func:`inline_kernel`) copies a helper's typed IR into each
    call, so that a helper called from four places, calling helpers called from three,
    was typed and lowered twelve times over: ``World.step``'s first call took 404 s and
    4.8 GB on a slow day of the development machine. Compiled once each and called,
    it took 92 s and 0.8 GB but the gas ran a fifth slower and the swarm a third
    (numba's calls pass every array as seven values, and LLVM inlined few of them);
    inlined by LLVM, 89 to 108 s and 0.8 GB, the swarm as fast as before, the gas and
    the bullets about a tenth slower (``docs/step.md``, "The first call")."""
    dispatcher = _cached(numba.njit(cache=True, nogil=True, **_NO_COUNTS)(func))
    dispatcher._collide2d_inlined = True
    return cast(F, dispatcher)


def helper_kernel(func: F) -> F:
    """A small helper called from kernels, compiled as :func:`kernel` is (LLVM may
    inline it): where numba's IR inlining cost more compile time than it saved at run
    time (a third of the first ``overlapping_pairs`` call's compile, 7 s of
    ``World.step``'s, the same speed or better once compiled)."""
    return cast(F, _cached(numba.njit(cache=True, nogil=True, **_NO_C_WRAPPER)(func)))


def borrowing_kernel(func: F) -> F:
    """Compile ``func`` as :func:`kernel` does, without numba's reference counting
    (``_nrt=False``): for kernels that allocate no array and return none, only
    borrowing the arrays they are given (a view of one is borrowed too).

    Every array a numba function receives is counted (an atomic increment on entry,
    a decrement on exit), and so is every copy of one in the helpers inlined into
    it: in ``World.step``'s event loop and first predictions these counts were two
    fifths of the time (``perf``: ``NRT_incref``/``NRT_decref``), the first
    predictions' two threads contending for the same counters. Helpers called from
    such a kernel are compiled without the counts too, the first time (numba
    passes the setting on): they must follow the same rules, and so are declared
    with this decorator themselves, whoever calls them first.
    """
    return cast(F, _cached(numba.njit(cache=True, nogil=True, **_NO_COUNTS)(func)))


def allocating_kernel(func: F) -> F:
    """Compile ``func`` as :func:`kernel` does, with numba's reference counting set
    (``_nrt=True``) rather than taken from its first caller: for a kernel that makes
    arrays of its own and is called from :func:`borrowing_kernel` ones (numba would
    otherwise compile it without the counts, and refuse its ``np.empty``). Its own
    arrays are counted; the ones it is lent are counted in and out by the call."""
    return cast(F, _cached(numba.njit(cache=True, nogil=True, **_COUNTS)(func)))


def by_layout(plain: Callable[..., Any], strided: Callable[..., Any]) -> Callable[..., Any]:
    """A function for kernels that calls ``strided`` where its first argument is an
    array numba types as strided (layout ``A``: some columns of wider rows) and
    ``plain`` where that array is C-contiguous: numba compiles only the one chosen,
    when it types the call. ``World.step`` hands its float rows over strided when
    its world holds polygons (``step.step_polygons``), so that the steps of other
    worlds never compile the polygon kernels (about 35 s of a first step)."""

    def chosen(*args):  # (no annotations: numba compares the two signatures)
        raise NotImplementedError("called from compiled code only")

    @overload(chosen)
    def _typed(*args):  # (no annotations: numba compares the two signatures)
        target = plain if args[0].layout == "C" else strided
        return lambda *args: target(*args)

    return chosen


_NO_C_WRAPPER: dict[str, Any] = {"no_cfunc_wrapper": True}
"""No C-callable wrapper for any kernel: numba makes one for each compiled function
by default (for ``cfunc`` addresses, which nothing here takes; a kernel of 40 array
arguments unboxes all of them in it: ``World.step``'s first call took 89 s without
these wrappers, 97 s with them, on a slow day of the development machine)."""
_NO_COUNTS: dict[str, Any] = {"_nrt": False, **_NO_C_WRAPPER}
_COUNTS: dict[str, Any] = {"_nrt": True, **_NO_C_WRAPPER}
"""numba's options for it (private: ``numba.njit``'s typed signature omits them)."""


def _cached(dispatcher: Any) -> Any:
    """``dispatcher``, its cache directory checked against the kernel sources first
    (``cache_guard``: numba alone misses changes in the files a kernel imports), and
    compiled once per kind of argument when called from another kernel
    (:func:`_one_kind_per_argument`)."""
    cache_guard.check(dispatcher)
    _one_kind_per_argument(dispatcher)
    return dispatcher


def plain_type(t: Any) -> Any:
    """The type a kernel called from another is compiled for when given an argument
    of numba type ``t``: a literal becomes its plain type, a signed integer
    ``int64``, a float ``float64``; anything else stays as it is.

    >>> from numba.core import types
    >>> plain_type(types.IntegerLiteral(0)), plain_type(types.int32)
    (int64, int64)
    """
    t = types.unliteral(t)
    if isinstance(t, types.Integer) and t.signed:  # type: ignore[attr-defined]
        return types.int64
    if isinstance(t, types.Float):
        return types.float64
    return t


def _one_kind_per_argument(dispatcher: Any) -> None:
    """Have numba compile ``dispatcher``, called from another kernel, for the plain
    types of its arguments (:func:`plain_type`); the call converts the arguments.

    numba compiles a kernel called from another once for each combination of
    argument types it is called with, a constant ``0`` (``Literal[int](0)``), an
    ``int32`` and an ``int64`` each a whole compile of their own: ``World.step``'s
    first call compiled 287 kernels for 161 functions (``step_queue._place`` five
    times). Called from Python, a kernel is typed by ``numba.typeof``, which never
    gives a literal."""
    typed = dispatcher.get_call_template

    def get_call_template(args: Any, kws: Any) -> Any:
        plain = {name: plain_type(t) for name, t in kws.items()}
        answer = typed(tuple(plain_type(t) for t in args), plain)
        if getattr(dispatcher, "_collide2d_inlined", False):
            for compiled in list(dispatcher.overloads.values()):
                _inlined_by_llvm(compiled)
        return answer

    dispatcher.get_call_template = get_call_template


def _inlined_by_llvm(compiled: Any) -> None:
    """Have LLVM inline the function of ``compiled`` (an :func:`inlined_helper`'s
    compile result, just compiled or loaded from the cache) into every kernel that
    links it in from now on.

    numba links a helper's LLVM module into each caller's library before optimising
    it (``CodeLibrary._get_module_for_linking``); the helper's function is given the
    ``alwaysinline`` attribute there. It runs before any caller is lowered (numba
    compiles or loads a helper while typing the call). numba internals: if a version
    of numba lacks them, the helper is called instead of inlined (the same results,
    a little slower)."""
    library = getattr(compiled, "library", None)
    name = getattr(getattr(compiled, "fndesc", None), "llvm_func_name", None)
    linking = getattr(library, "_get_module_for_linking", None)
    if library is None or name is None or linking is None:
        return
    if getattr(library, "_collide2d_inlined", False):
        return

    def module_for_linking() -> Any:
        module = linking()
        function = next((f for f in module.functions if f.name == name), None)
        if (
            function is not None
            and not function.is_declaration
            and not any(b"alwaysinline" in bytes(a) for a in function.attributes)
        ):
            function.add_function_attribute("alwaysinline")
        return module

    library._get_module_for_linking = module_for_linking
    library._collide2d_inlined = True


@intrinsic
def prefetch(typingctx: Any, arr: Any, *index: Any) -> Any:
    """Ask the processor to bring ``arr[index]`` (one index per dimension) into its
    cache, without waiting for it (LLVM's ``llvm.prefetch``: read, keep in all
    levels); nothing else happens, and an index out of range is harmless.

    For the loads a kernel will need soon and cannot reach through the loads it
    needs now: ``World.step``'s next event, whose row and bodies are at places no
    hardware prefetcher can guess."""
    if isinstance(index[0], types.BaseTuple):  # numba passes star-args as a tuple
        index = tuple(cast(Any, index[0]))
    if (
        not isinstance(arr, types.Array)
        or len(index) != arr.ndim
        or not all(isinstance(k, types.Integer) for k in index)
    ):
        return None
    sig = types.void(arr, types.StarArgTuple.from_types(index))

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        ary = context.make_array(arr)(context, builder, args[0])
        values = cgutils.unpack_tuple(builder, args[1], len(index))
        inds = [context.cast(builder, v, t, types.intp) for v, t in zip(values, index, strict=True)]
        ptr = cgutils.get_item_pointer(context, builder, arr, ary, inds, wraparound=False)
        i32 = ir.IntType(32)
        byte_ptr = builder.bitcast(ptr, cgutils.voidptr_t)
        fnty = ir.FunctionType(ir.VoidType(), [cgutils.voidptr_t, i32, i32, i32])
        fn = cgutils.get_or_insert_function(builder.module, fnty, "llvm.prefetch.p0")
        builder.call(fn, [byte_ptr, ir.Constant(i32, 0), ir.Constant(i32, 3), ir.Constant(i32, 1)])
        return context.get_dummy_value()

    return sig, codegen


def _stack_array(typingctx: Any, dtype: Any, *dims: Any) -> Any:
    """An uninitialised C-ordered array of ``dtype`` and shape ``dims`` (integer
    constants) in the calling function's stack frame: free to make, gone when that
    function returns. It must not outlive it: never returned, stored or kept by a
    callee (numba counts it as an array without an owner, so that passing it to a
    kernel is safe).

    For a kernel called once per pair that needs a few small working arrays: each
    ``np.empty`` is a ``malloc``, a ``free`` and a reference count, about 50 ns, and
    ``World.step``'s polygon pairs made seven of them a call (a third of a pair's
    sweep, :mod:`collide2d._kernels.step.step_polygons`)."""
    if len(dims) == 1 and isinstance(dims[0], types.BaseTuple):  # star-args as a tuple
        dims = tuple(cast(Any, dims[0]))
    if not isinstance(dtype, types.NumberClass) or not all(
        isinstance(k, types.IntegerLiteral) and k.literal_value > 0 for k in dims
    ):
        return None
    shape = [int(k.literal_value) for k in dims]
    element = dtype.dtype
    array = types.Array(element, len(shape), "C")
    sig = array(dtype, types.StarArgTuple.from_types(dims))

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        item = context.get_data_type(element)
        size = context.get_abi_sizeof(item)
        strides = []
        for extent in reversed(shape):
            strides.append(size)
            size *= extent
        count = size // context.get_abi_sizeof(item)
        data = cgutils.alloca_once(builder, item, size=count)  # (in the entry block)
        return _ownerless(
            context, builder, array, data, [_intp(context, k) for k in shape],
            [_intp(context, k) for k in reversed(strides)], context.get_abi_sizeof(item),
        )  # fmt: skip

    return sig, codegen


def _intp(context: Any, value: int) -> Any:
    return context.get_constant(types.intp, value)


def _ownerless(
    context: Any, builder: Any, array: Any, data: Any, shape: list[Any], strides: list[Any],
    itemsize: int,
) -> Any:  # fmt: skip
    """The value of an array of type ``array`` over ``data``, with these shape and
    strides (LLVM values) and no owner (a null meminfo: nothing counts or frees it)."""
    out = context.make_array(array)(context, builder)
    populate_array(
        out,
        data=data,
        shape=cgutils.pack_array(builder, shape),
        strides=cgutils.pack_array(builder, strides),
        itemsize=_intp(context, itemsize),
        meminfo=None,
    )
    return out._getvalue()


stack_array = cast(Callable[..., Any], intrinsic(_stack_array))
stack_array.__doc__ = _stack_array.__doc__


def _points_at(typingctx: Any, address: Any, count: Any) -> Any:
    """The ``(count, 2)`` C-ordered float64 array whose data starts at ``address``
    (an integer: ``array.ctypes.data``), without an owner: nothing is copied or
    counted. The caller keeps the array that owns the data alive for the call.

    For a scalar test called from Python whose own work is shorter than numba's
    unboxing of its arguments: an array argument costs about 0.1 us to unbox, an
    integer about a quarter of that (``collide2d.shapes``' polygon overlaps pass their
    outlines' addresses, kept on each polygon)."""
    if not (isinstance(address, types.Integer) and isinstance(count, types.Integer)):
        return None
    array = types.Array(types.float64, 2, "C")
    sig = array(address, count)

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        item = context.get_data_type(types.float64)
        data = builder.inttoptr(args[0], item.as_pointer())
        rows = context.cast(builder, args[1], signature.args[1], types.intp)
        size = context.get_abi_sizeof(item)
        return _ownerless(
            context, builder, array, data, [rows, _intp(context, 2)],
            [_intp(context, 2 * size), _intp(context, size)], size,
        )  # fmt: skip

    return sig, codegen


points_at = cast(Callable[..., Any], intrinsic(_points_at))
points_at.__doc__ = _points_at.__doc__


class _CompileLog(event.Listener):
    """Logs the first compile of a collide2d kernel and times every one."""

    def __init__(self) -> None:
        self.started: dict[int, float] = {}
        self.said = False

    @staticmethod
    def _name(data: dict[str, Any]) -> str | None:
        func = getattr(data.get("dispatcher"), "py_func", None)
        module = getattr(func, "__module__", "") or ""
        if func is None or not module.startswith("collide2d."):
            return None
        return f"{module}.{func.__name__}"

    def on_start(self, ev: event.Event) -> None:
        if self._name(ev.data) is None:
            return
        if not self.said:
            self.said = True
            logging.getLogger("collide2d").info(FIRST_COMPILE)
        self.started[id(ev.data)] = time.perf_counter()

    def on_end(self, ev: event.Event) -> None:
        name = self._name(ev.data)
        start = self.started.pop(id(ev.data), None)
        if name is not None and start is not None:
            COMPILED.append((name, time.perf_counter() - start))


event.register("numba:compile", _CompileLog())

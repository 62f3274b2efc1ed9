"""A ``pygame.mask.Mask`` that is two masks: pygame-ce's and collide2d's, side by side.

Every call runs on both, with the same arguments (a twin among the arguments becomes
its pygame half for pygame and its collide2d half for collide2d), and the answers are
compared: the same value, the same pixels, or both raising (a ``TypeError``,
``ValueError`` or ``IndexError`` on each side, and the mask left as it was). The
twin then answers what pygame answered, so that pygame-ce's own test suite, run with
``pygame.mask.Mask`` replaced by :class:`TwinMask` (see :func:`twinned`), checks
pygame's expectations and the agreement of the two libraries on every input it makes.

The pygame methods map onto collide2d as the "Coming from pygame.mask" table of
docs/masks.md says: ``get_size()`` is ``size``, ``to_surface``/``from_surface``/
``from_threshold`` are in ``collide2d.interop.pygame``, the rest have pygame's names.
"""

from __future__ import annotations

import contextlib
import copy as copy_module
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np
import pygame

from collide2d import Mask
from collide2d.interop import pygame as interop

REAL = {
    "Mask": pygame.mask.Mask,
    "MaskType": pygame.mask.MaskType,
    "from_surface": pygame.mask.from_surface,
    "from_threshold": pygame.mask.from_threshold,
}
ERRORS = (TypeError, ValueError, IndexError, OverflowError)


class Disagreement(AssertionError):
    """pygame and collide2d answered the same call differently."""


@contextlib.contextmanager
def real_pygame() -> Iterator[None]:
    """pygame's own ``Mask`` and functions for the duration (collide2d's interop calls
    them)."""
    saved = _installed()
    _install(REAL)
    try:
        yield
    finally:
        _install(saved)


@contextlib.contextmanager
def twinned() -> Iterator[None]:
    """``pygame.Mask``, ``pygame.mask.Mask`` and ``pygame.mask.from_*`` replaced by twins."""
    saved = _installed()
    _install(
        {
            "Mask": TwinMask,
            "MaskType": TwinMask,
            "from_surface": from_surface,
            "from_threshold": from_threshold,
        }
    )
    try:
        yield
    finally:
        _install(saved)


@contextlib.contextmanager
def collide2d_as_pygame() -> Iterator[None]:
    """``pygame.Mask`` and ``pygame.mask.Mask`` replaced by ``collide2d.Mask`` itself."""
    saved = _installed()
    _install({**REAL, "Mask": Mask, "MaskType": Mask})
    try:
        yield
    finally:
        _install(saved)


def _installed() -> dict[str, Any]:
    return {name: getattr(pygame.mask, name) for name in REAL}


def _install(names: dict[str, Any]) -> None:
    for name, value in names.items():
        setattr(pygame.mask, name, value)
    pygame.Mask = names["Mask"]


def pixels(mask: Any) -> np.ndarray:
    """The pixels of a pygame or collide2d mask as bools ``[y, x]``."""
    if isinstance(mask, Mask):
        return mask.to_array()
    with real_pygame():
        return interop.mask_from_pygame(mask).to_array()


def _halves(value: Any, side: str) -> Any:
    """``value`` with every twin in it replaced by its ``side`` half."""
    if isinstance(value, TwinMask):
        return value._p if side == "p" else value._c
    return value


def _call(name: str, pygame_call: Callable[[], Any], ours: Callable[[], Any]) -> tuple[Any, Any]:
    """Both answers, or pygame's exception after checking that collide2d raised too."""
    try:
        expected = pygame_call()
    except ERRORS as error:
        try:
            with real_pygame():
                got = ours()
        except ERRORS as mine:
            if type(mine) is not type(error) and not _compatible(error, mine):
                raise Disagreement(f"{name}: pygame raised {error!r}, collide2d {mine!r}") from mine
            raise error from None
        raise Disagreement(f"{name}: pygame raised {error!r}, collide2d answered {got!r}") from None
    try:
        with real_pygame():
            got = ours()
    except ERRORS as mine:
        raise Disagreement(
            f"{name}: pygame answered {expected!r}, collide2d raised {mine!r}"
        ) from mine
    return expected, got


def _compatible(theirs: BaseException, mine: BaseException) -> bool:
    """Exception classes that differ where collide2d's is the more precise (DESIGN.md:
    a value of the right type but out of range is a ``ValueError``)."""
    return isinstance(theirs, (TypeError, ValueError)) and isinstance(mine, (TypeError, ValueError))


def _same(name: str, expected: Any, got: Any) -> None:
    """Fail unless collide2d's answer means pygame's."""
    if _is_pygame_mask(expected):
        if not isinstance(got, Mask) or expected.get_size() != got.size:
            raise Disagreement(f"{name}: pygame made {expected!r}, collide2d {got!r}")
        if not np.array_equal(pixels(expected), got.to_array()):
            raise Disagreement(f"{name}: the two masks differ")
        return
    if isinstance(expected, pygame.Rect):
        if tuple(expected) != tuple(got):
            raise Disagreement(f"{name}: pygame {expected!r}, collide2d {got!r}")
        return
    if isinstance(expected, pygame.Surface):
        if expected.get_size() != got.get_size() or pygame.image.tobytes(
            expected, "RGBA"
        ) != pygame.image.tobytes(got, "RGBA"):
            raise Disagreement(f"{name}: the surfaces differ")
        return
    if isinstance(expected, list):
        if not isinstance(got, list) or len(expected) != len(got):
            raise Disagreement(f"{name}: pygame {expected!r}, collide2d {got!r}")
        for e, g in zip(expected, got, strict=True):
            _same(name, e, g)
        return
    if type(expected) is not type(got) or expected != got:
        raise Disagreement(f"{name}: pygame {expected!r}, collide2d {got!r}")


def _whole(value: Any) -> bool:
    """Whether a keyword's value (a number or a pair) holds only whole numbers."""
    try:
        return all(float(v).is_integer() for v in value)
    except TypeError:
        return float(value).is_integer()


def _is_pygame_mask(value: Any) -> bool:
    return isinstance(value, REAL["Mask"])


def _mirrored(name: str, *, edits: bool = False) -> Callable[..., Any]:
    """A twin's method that calls ``name`` on both halves (collide2d has pygame's name)."""

    def method(self: TwinMask, *args: Any, **kwargs: Any) -> Any:
        return self._both(name, getattr(self._c, name), args, kwargs, edits=edits)

    method.__name__ = name
    return method


class TwinMask:
    """pygame's ``Mask(size, fill=False)`` and collide2d's, kept in step."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        p, c = _call(
            "Mask()",
            lambda: REAL["Mask"](*args, **kwargs),
            lambda: Mask(*args, **kwargs),
        )
        self._p, self._c = p, c
        self._check("Mask()")

    @classmethod
    def _of(cls, p: Any, c: Mask, like: type | None = None) -> TwinMask:
        twin = (like or cls).__new__(like or cls)
        twin._p, twin._c = p, c
        return twin

    def _check(self, name: str) -> None:
        if self._p.get_size() != self._c.size or not np.array_equal(
            pixels(self._p), self._c.to_array()
        ):
            raise Disagreement(f"{name}: the two masks no longer hold the same pixels")

    def _both(
        self,
        name: str,
        ours: Callable[..., Any],
        args: tuple[Any, ...],
        kwargs: dict[str, Any],
        *,
        edits: bool = False,
    ) -> Any:
        p_args = tuple(_halves(a, "p") for a in args)
        p_kwargs = {k: _halves(v, "p") for k, v in kwargs.items()}
        c_args = tuple(_halves(a, "c") for a in args)
        c_kwargs = {k: _halves(v, "c") for k, v in kwargs.items()}
        outputs = [a for a in (*args, *kwargs.values()) if isinstance(a, TwinMask)]
        try:
            expected, got = _call(
                name,
                lambda: getattr(self._p, name)(*p_args, **p_kwargs),
                lambda: ours(*c_args, **c_kwargs),
            )
        except Disagreement:
            raise
        except ERRORS:
            self._check(name + " (after refusing)")
            raise
        if edits:
            self._check(name)
            for other in outputs:
                other._check(name)
        _same(name, expected, got)
        return self._wrap(expected, got, outputs)

    def _wrap(self, expected: Any, got: Any, outputs: list[TwinMask]) -> Any:
        if _is_pygame_mask(expected):
            for twin in (self, *outputs):
                if expected is twin._p:  # pygame handed back a mask it was given
                    if got is not twin._c:
                        raise Disagreement("pygame returned the mask it was given, collide2d not")
                    return twin
            return TwinMask._of(expected, got)
        if isinstance(expected, list) and expected and _is_pygame_mask(expected[0]):
            return [TwinMask._of(e, g) for e, g in zip(expected, got, strict=True)]
        return expected

    # -- pygame.mask.Mask's methods, in the order of its documentation ------------------
    def copy(self) -> TwinMask:
        return self.__copy__()

    def __copy__(self) -> TwinMask:
        p, c = copy_module.copy(self._p), copy_module.copy(self._c)
        _same("copy", p, c)
        return TwinMask._of(p, c, type(self))

    get_size = _mirrored("get_size")

    def get_rect(self, *args: Any, **kwargs: Any) -> Any:
        if all(_whole(v) for v in kwargs.values()):
            return self._both("get_rect", self._c.get_rect, args, kwargs)
        # A fractional value: pygame truncates it, collide2d keeps it (the documented
        # difference), and is then what a pygame.FRect says (in float32: compared so).
        expected = self._p.get_rect(*args, **kwargs)
        with real_pygame():
            got = self._c.get_rect(*args, **kwargs)
        exact = pygame.FRect((0, 0), self._p.get_size())
        for name, value in kwargs.items():
            setattr(exact, name, value)
        if not np.allclose(tuple(got), tuple(exact), rtol=1e-6, atol=1e-5):
            raise Disagreement(f"get_rect({kwargs}): FRect {exact!r}, collide2d {got!r}")
        return expected

    def get_at(self, *args: Any, **kwargs: Any) -> Any:
        return self._both("get_at", lambda *a, **k: int(self._c.get_at(*a, **k)), args, kwargs)

    set_at = _mirrored("set_at", edits=True)
    overlap = _mirrored("overlap")
    overlap_area = _mirrored("overlap_area")
    overlap_mask = _mirrored("overlap_mask")
    fill = _mirrored("fill", edits=True)
    clear = _mirrored("clear", edits=True)
    invert = _mirrored("invert", edits=True)
    scale = _mirrored("scale")
    draw = _mirrored("draw", edits=True)
    erase = _mirrored("erase", edits=True)
    count = _mirrored("count")
    centroid = _mirrored("centroid")
    angle = _mirrored("angle")
    outline = _mirrored("outline")
    convolve = _mirrored("convolve", edits=True)
    connected_component = _mirrored("connected_component")
    connected_components = _mirrored("connected_components")
    get_bounding_rects = _mirrored("get_bounding_rects")

    def to_surface(self, *args: Any, **kwargs: Any) -> Any:
        # pygame draws into a surface it is given: collide2d gets a copy of it, and the
        # two drawings are compared.
        c_args = tuple(a.copy() if isinstance(a, pygame.Surface) and i == 0 else a
                       for i, a in enumerate(args))  # fmt: skip
        c_kwargs = dict(kwargs)
        if isinstance(kwargs.get("surface"), pygame.Surface):
            c_kwargs["surface"] = kwargs["surface"].copy()
        try:
            expected, got = _call(
                "to_surface",
                lambda: self._p.to_surface(*args, **kwargs),
                lambda: interop.mask_to_surface(self._c, *c_args, **c_kwargs),
            )
        except ERRORS:
            self._check("to_surface (after refusing)")
            raise
        _same("to_surface", expected, got)
        return expected


def from_surface(*args: Any, **kwargs: Any) -> TwinMask:
    p, c = _call(
        "from_surface",
        lambda: REAL["from_surface"](*args, **kwargs),
        lambda: interop.mask_from_surface(*args, **kwargs),
    )
    _same("from_surface", p, c)
    return TwinMask._of(p, c)


def from_threshold(*args: Any, **kwargs: Any) -> TwinMask:
    p, c = _call(
        "from_threshold",
        lambda: REAL["from_threshold"](*args, **kwargs),
        lambda: interop.mask_from_threshold(*args, **kwargs),
    )
    _same("from_threshold", p, c)
    return TwinMask._of(p, c)

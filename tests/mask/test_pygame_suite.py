"""pygame-ce's own ``test/mask_test.py``, run against collide2d.

The file shipped in the installed pygame-ce wheel (``pygame/tests/mask_test.py``,
261 tests) is loaded twice:

- **differentially**, with ``pygame.mask.Mask`` (and ``pygame.Mask``,
  ``from_surface``, ``from_threshold``) replaced by
  :class:`~tests.mask.pygame_twin.TwinMask`: every mask it makes is a pygame mask and
  a collide2d mask, every call runs on both with the same arguments and fails unless
  the answers agree (values, pixels, surfaces, or both refusing with the mask
  unchanged), and pygame's own assertions then check pygame's half. So each test is
  pygame's expectation and a comparison of the two libraries on the inputs pygame's
  authors chose;
- **directly**, its subclassing tests with ``pygame.mask.Mask`` *being*
  ``collide2d.Mask``: a subclass of ours behaves as a subclass of pygame's (``copy``
  and ``__copy__`` keep the class and honour overrides, ``scale``, ``convolve`` and
  components are plain masks).

Two of its tests need what collide2d does differently, and are replaced by tests
below that assert the difference: ``memoryview(mask)`` (Python 3.12+ only; on 3.11,
``memoryview(mask.words())`` is pygame's buffer) and ``Mask.to_surface`` (it is
``collide2d.interop.pygame.mask_to_surface``: the mask layer does not import pygame).
"""

import importlib.util
import random
import sys
from pathlib import Path

import numpy as np
import pygame
import pytest

import collide2d
from collide2d.interop.pygame import mask_to_surface, to_pygame_mask
from tests.mask import pygame_twin

SUITE_FILE = Path(pygame.__file__).parent / "tests" / "mask_test.py"


def _load_suite(name, patch):
    spec = importlib.util.spec_from_file_location(name, SUITE_FILE)
    module = importlib.util.module_from_spec(spec)
    with patch():  # its Mask subclasses derive from the Mask patched in
        spec.loader.exec_module(module)
    return module


twinned = _load_suite("pygame_mask_test_twinned", pygame_twin.twinned)
# Replaced by test_words_are_pygames_buffer below (a TwinMask cannot be a buffer).
del twinned.MaskModuleTest.test_buffer_interface
MaskTypeTest = twinned.MaskTypeTest
MaskSubclassTest = twinned.MaskSubclassTest
MaskModuleTest = twinned.MaskModuleTest

direct = _load_suite("pygame_mask_test_direct", pygame_twin.collide2d_as_pygame)
# Replaced by test_a_subclass_draws_to_a_surface below.
del direct.MaskSubclassTest.test_subclass_to_surface
Collide2dMaskSubclassTest = direct.MaskSubclassTest


@pytest.fixture(autouse=True)
def _patched(request):
    random.seed(2026)  # its random masks, reproducibly
    if request.cls is None:  # the tests of this file
        yield
        return
    if request.cls is Collide2dMaskSubclassTest:
        patch = pygame_twin.collide2d_as_pygame
    else:
        patch = pygame_twin.twinned
    with patch():
        yield


@pytest.mark.parametrize("size", [(1000, 100), (64, 2), (65, 1), (130, 7), (0, 3), (3, 0), (0, 0)])
def test_words_are_pygames_buffer(size):
    """pygame's ``test_buffer_interface``: the packed words are its buffer, byte for byte."""
    rng = np.random.default_rng(sum(size))
    mask = collide2d.Mask.from_array(rng.random((size[1], size[0])) < 0.3)
    theirs = memoryview(to_pygame_mask(mask))
    views = [memoryview(mask.words())]
    if sys.version_info >= (3, 12):
        views.append(memoryview(mask))
        assert views[-1].readonly  # the words are a cache: edits go through the methods
    for ours in views:
        assert (ours.shape, ours.strides, ours.format) == (
            theirs.shape,
            theirs.strides,
            theirs.format,
        )
        if 0 not in size:  # pygame's buffer of an empty mask is memory it never wrote
            assert ours.tobytes() == theirs.tobytes()
    if sys.version_info < (3, 12):
        with pytest.raises(TypeError):
            memoryview(mask)  # Python classes are buffers from 3.12 on (PEP 688)


def test_a_subclass_draws_to_a_surface():
    """pygame's ``test_subclass_to_surface``, through collide2d's interop."""

    class Sub(collide2d.Mask):
        pass

    surface = mask_to_surface(Sub((65, 3), fill=True), setcolor=(10, 20, 30))
    assert isinstance(surface, pygame.Surface) and surface.get_size() == (65, 3)
    assert surface.get_at((64, 2)) == (10, 20, 30, 255)

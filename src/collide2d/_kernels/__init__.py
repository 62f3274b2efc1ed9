"""Compiled kernels: arrays and scalars in, counts or filled arrays out.

Nothing here checks input: the wrappers in ``collide2d.batch`` do, once. No kernel
raises. ``jit.py`` is the only module that imports numba.
"""

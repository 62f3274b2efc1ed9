"""Continuous tests: ray casts and sweeps of moving shapes."""

from collide2d.sweep.dispatch import sweep
from collide2d.sweep.hit import Hit, RayHit
from collide2d.sweep.ray import raycast

__all__ = ["Hit", "RayHit", "raycast", "sweep"]

"""Conversions to and from other libraries (pygame-ce, Pillow), imported on demand."""

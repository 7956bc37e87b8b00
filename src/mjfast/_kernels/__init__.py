"""Compiled kernels (Cython). Private: use the public functions in :mod:`mjfast`."""

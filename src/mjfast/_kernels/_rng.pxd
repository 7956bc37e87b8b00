# Bounded random integers on numpy's ``bitgen_t`` C API (no npyrandom / npymath linking).
#
# mjfast draws its own bounded integers instead of calling numpy's ``random_bounded_*``:
# the stream a seed produces then depends only on the explicit BitGenerator class
# (PCG64DXSM) and this file, not on numpy's Generator internals, which numpy allows to
# change between feature releases.
from cpython.pycapsule cimport PyCapsule_GetPointer, PyCapsule_IsValid
from libc.stdint cimport int8_t, uint32_t, uint64_t
from numpy.random cimport bitgen_t


cdef inline bitgen_t* bitgen_pointer(object bg) except NULL:
    """The ``bitgen_t`` of a numpy BitGenerator (TypeError for anything else)."""
    cdef object capsule = getattr(bg, "capsule", None)
    if capsule is None or not PyCapsule_IsValid(capsule, "BitGenerator"):
        raise TypeError(f"expected a numpy BitGenerator, got {type(bg).__name__}")
    return <bitgen_t*>PyCapsule_GetPointer(capsule, "BitGenerator")


cdef inline uint32_t bounded_u32(bitgen_t* rng, uint32_t n) noexcept nogil:
    """Uniform integer in ``[0, n)`` for ``n >= 1`` (Lemire's multiply-shift with rejection).

    One ``next_uint32`` per call except with probability ``< n / 2**32``; exactly unbiased.
    """
    cdef uint64_t m = <uint64_t>rng.next_uint32(rng.state) * n
    cdef uint32_t low = <uint32_t>m
    cdef uint32_t threshold
    if low < n:
        threshold = <uint32_t>(<uint64_t>0x100000000 - n) % n     # 2**32 mod n
        while low < threshold:
            m = <uint64_t>rng.next_uint32(rng.state) * n
            low = <uint32_t>m
    return <uint32_t>(m >> 32)


cdef inline uint64_t bounded_u64(bitgen_t* rng, uint64_t n) noexcept nogil:
    """Uniform integer in ``[0, n)`` for ``n >= 1`` (rejection, then modulo: unbiased)."""
    cdef uint64_t x
    cdef uint64_t threshold = (<uint64_t>0 - n) % n                # 2**64 mod n
    while True:
        x = rng.next_uint64(rng.state)
        if x >= threshold:
            return x % n


# A wall is ``wall[f..b]``, the tiles not yet drawn, in no particular order: a draw takes a
# uniformly random one and swaps it to the end it is drawn from (the live wall's front, or the
# back for kong replacements), so one shuffle costs one bounded integer per draw.
cdef inline int draw_front(bitgen_t* rng, int8_t* wall, int* f, int* b) noexcept nogil:
    """A random undrawn tile, taken from the front (-1 when the wall is empty)."""
    cdef int j, t
    if f[0] > b[0]:
        return -1
    j = f[0] + <int>bounded_u32(rng, <uint32_t>(b[0] - f[0] + 1))
    t = wall[j]
    wall[j] = wall[f[0]]
    wall[f[0]] = <int8_t>t
    f[0] += 1
    return t


cdef inline int draw_back(bitgen_t* rng, int8_t* wall, int* f, int* b) noexcept nogil:
    """A random undrawn tile, taken from the back (-1 when the wall is empty)."""
    cdef int j, t
    if f[0] > b[0]:
        return -1
    j = f[0] + <int>bounded_u32(rng, <uint32_t>(b[0] - f[0] + 1))
    t = wall[j]
    wall[j] = wall[b[0]]
    wall[b[0]] = <int8_t>t
    b[0] -= 1
    return t

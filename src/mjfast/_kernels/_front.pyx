"""The compiled front doors: :func:`mjfast.shanten`, :func:`mjfast.ukeire` and
:func:`mjfast.analyze_discards`.

For one hand the Python call costs more than the kernel, so these three public functions are
compiled.  A count vector or a :class:`~mjfast.Hand` with nothing but a seven-pairs reading
asked of it (no rule, form, visible tiles, fixed sets or wildcard face) is answered here, in C,
from the buffers the hand already holds.  Every other call goes on, with the same arguments,
to the general function it fronts (:func:`mjfast.shape.shanten`,
:func:`mjfast.efficiency.ukeire`, :func:`mjfast.efficiency.analyze_discards`), which is imported
normally and is the one that explains bad input.  Each front door has the signature of the
function it fronts (a test compares them).
"""
from cpython.object cimport PyObject
from cpython.tuple cimport PyTuple_GET_SIZE
from libc.stdint cimport uint8_t

cimport numpy as cnp
cnp.import_array()

from mjfast._kernels._shanten cimport (Params, RuleParams, params_init, shanten_one, MAX_WILDS, INF,
                                       O_NEED_VOID)
from mjfast._kernels._efficiency cimport ukeire_record, discard_columns

from mjfast import efficiency as _efficiency, shape as _shape
from mjfast._inputs import DEFAULT_PARAMS as _DEFAULT_PARAMS
from mjfast.hand import Hand as _Hand_class
from mjfast.tiles import CODES as _CODES

cdef extern from *:
    """
    #include "structmember.h"
    /* The byte offset of a __slots__ member (a writable T_OBJECT_EX member descriptor), or -1. */
    static Py_ssize_t mjfast_slot_offset(PyObject *descr) {
        PyMemberDef *m;
        if (!Py_IS_TYPE(descr, &PyMemberDescr_Type)) return -1;
        m = ((PyMemberDescrObject *)descr)->d_member;
        if (m->type != T_OBJECT_EX || (m->flags & READONLY)) return -1;   /* a slot: NULL while unset */
        return m->offset;
    }
    /* The slot at that offset: a borrowed reference, NULL while the slot is unset. */
    static inline PyObject *mjfast_slot(PyObject *o, Py_ssize_t offset) {
        return *(PyObject **)((char *)o + offset);
    }
    """
    Py_ssize_t mjfast_slot_offset(PyObject* descr)
    PyObject* mjfast_slot(PyObject* o, Py_ssize_t offset) noexcept nogil


cdef object _Hand = _Hand_class
cdef RuleParams _PLAIN = _DEFAULT_PARAMS[None]
cdef RuleParams _CHINESE = _DEFAULT_PARAMS["chinese"]
cdef RuleParams _RIICHI = _DEFAULT_PARAMS["riichi"]
cdef object _general_shanten = _shape.shanten
cdef object _general_ukeire = _efficiency.ukeire
cdef object _general_discards = _efficiency.analyze_discards
cdef tuple _LEGAL = _efficiency.LEGAL
cdef tuple _NAMES = tuple(_CODES[:34])


cdef Py_ssize_t _offset(str name) except -2:
    descr = _Hand.__dict__.get(name)
    return -1 if descr is None else mjfast_slot_offset(<PyObject*>descr)


# Where a Hand keeps its buffers.  A Hand's slots are set once, in its constructor, and never
# change; reading them by offset spares three attribute lookups a call (about half the cost of a
# plain shanten).  Should the layout ever not be plain slots, every Hand takes the general path.
cdef Py_ssize_t OFF_COUNTS = _offset("_counts")
cdef Py_ssize_t OFF_MELDS = _offset("_melds")
cdef Py_ssize_t OFF_WILDS = _offset("_wilds")
cdef Py_ssize_t OFF_MELD_COUNTS = _offset("_meld_counts")
cdef bint HAND_SLOTS = OFF_COUNTS >= 0 and OFF_MELDS >= 0 and OFF_WILDS >= 0 and OFF_MELD_COUNTS >= 0


cdef RuleParams _reading(object seven_pairs):
    """The default rule's parameters for a ``seven_pairs`` reading; None for anything else (the
    general function then explains it)."""
    if seven_pairs is None:
        return _PLAIN
    if type(seven_pairs) is str:
        if seven_pairs == "chinese":
            return _CHINESE
        if seven_pairs == "riichi":
            return _RIICHI
    return None


cdef inline const uint8_t* _u8_34(PyObject* a) noexcept:
    """Data of a C-contiguous ``uint8[34]`` numpy array, else NULL."""
    if a == NULL or not cnp.PyArray_Check(<object>a):
        return NULL
    cdef cnp.ndarray arr = <cnp.ndarray>a
    if cnp.PyArray_TYPE(arr) != cnp.NPY_UINT8 or cnp.PyArray_SIZE(arr) != 34 or cnp.PyArray_NDIM(arr) != 1 \
            or not cnp.PyArray_IS_C_CONTIGUOUS(arr):
        return NULL
    return <const uint8_t*>cnp.PyArray_DATA(arr)


ctypedef struct HandView:
    PyObject* counts_obj     # the Hand's counts array (borrowed)
    const uint8_t* c         # its data
    int n_melds
    int wilds
    int n                    # tiles in hand, wildcards included
    const Params* prm        # the parameters to use: the rule's, or ``own`` with the melds' caps
    Params own


cdef bint view_hand(RuleParams base, object hand, HandView* v) except -1:
    """Read a :class:`~mjfast.Hand` (its exact type) into ``v`` for the default rule ``base``:
    its own meld tiles lower the caps, as :func:`mjfast._inputs.prepare` does.  False when the
    general function must answer (nothing in ``v`` is used then)."""
    cdef PyObject* o = <PyObject*>hand
    cdef PyObject* melds
    cdef PyObject* wilds
    cdef const uint8_t* mc
    cdef uint8_t cap[34]
    cdef int k, n = 0
    if not HAND_SLOTS:
        return False
    v.counts_obj = mjfast_slot(o, OFF_COUNTS)
    melds = mjfast_slot(o, OFF_MELDS)
    wilds = mjfast_slot(o, OFF_WILDS)
    v.c = _u8_34(v.counts_obj)
    if v.c == NULL or melds == NULL or wilds == NULL or type(<object>melds) is not tuple \
            or type(<object>wilds) is not int:
        return False
    v.n_melds = <int>PyTuple_GET_SIZE(<object>melds)
    if not 0 <= <object>wilds <= MAX_WILDS or v.n_melds > 4:
        return False
    v.wilds = <int><object>wilds
    for k in range(34):
        n += v.c[k]
    v.n = n + v.wilds
    v.prm = &base.prm
    if v.n_melds == 0:
        return True
    if base.prm.options & O_NEED_VOID:
        return False
    mc = _u8_34(mjfast_slot(o, OFF_MELD_COUNTS))
    if mc == NULL:
        return False
    for k in range(34):
        cap[k] = base.prm.cap[k] - mc[k] if base.prm.cap[k] > mc[k] else 0
        if v.c[k] > cap[k]:
            return False
    params_init(&v.own, cap, base.prm.playable, base.prm.forms, base.prm.options)
    v.prm = &v.own
    return True


cdef const uint8_t* plain_counts(RuleParams params, object counts) except NULL:
    """The data of a count vector given as a numpy array: a ValueError unless it is a C-contiguous
    ``uint8[34]`` whose counts are within their caps (naming the tile)."""
    cdef const uint8_t* c = _u8_34(<PyObject*>counts)
    cdef int k
    if c == NULL:
        raise ValueError("counts must be a C-contiguous numpy array of 34 entries of the right type (uint8)")
    for k in range(34):
        if c[k] > params.prm.cap[k]:
            raise ValueError(f"{c[k]} copies of {_NAMES[k]}, but at most {params.prm.cap[k]} are in play")
    return c


def shanten(hand, *, rule=None, form=None, melds=(), wilds=None, wild_kind=None, seven_pairs=None):
    cdef RuleParams params
    cdef HandView v
    cdef int r
    if rule is None and form is None and wild_kind is None and not melds:
        params = _reading(seven_pairs)
        if params is not None:
            # the cimported type is a pointer compare; ``np.ndarray`` would be two attribute lookups
            if type(hand) is cnp.ndarray:
                # wilds other than None or a plain int in range go to the general function, which
                # rejects what is not a number of wildcards (a C int conversion would truncate
                # 1.5 or take True as 1)
                if wilds is None:
                    return params.one(hand, 0)
                if type(wilds) is int and 0 <= wilds <= MAX_WILDS:
                    return params.one(hand, wilds)
            elif type(hand) is _Hand and wilds is None and view_hand(params, hand, &v):
                if v.n_melds == 0:
                    return params.one(<object>v.counts_obj, v.wilds)
                r = shanten_one(v.c, v.n_melds, v.wilds, v.prm)
                if r < INF:
                    return r
    return _general_shanten(hand, rule=rule, form=form, melds=melds, wilds=wilds, wild_kind=wild_kind,
                            seven_pairs=seven_pairs)


def ukeire(hand13, *, rule=None, visible=None, melds=(), wilds=None, fixed_sets=(), wild_kind=None,
           wild_copies=None, seven_pairs=None, legal="self_draw"):
    cdef RuleParams params
    cdef HandView v
    cdef const uint8_t* c
    if (rule is None and visible is None and not melds and not fixed_sets and wild_kind is None
            and wild_copies is None and type(legal) is str and legal in _LEGAL):
        params = _reading(seven_pairs)
        if params is not None:
            if type(hand13) is cnp.ndarray:
                if wilds is None or (type(wilds) is int and wilds == 0):
                    c = plain_counts(params, hand13)
                    found = ukeire_record(&params.prm, c, 0, 0)
                    if found is not None:
                        return found
            elif type(hand13) is _Hand and wilds is None and view_hand(params, hand13, &v):
                found = ukeire_record(v.prm, v.c, v.n_melds, v.wilds)
                if found is not None:
                    return found
    return _general_ukeire(hand13, rule=rule, visible=visible, melds=melds, wilds=wilds, fixed_sets=fixed_sets,
                           wild_kind=wild_kind, wild_copies=wild_copies, seven_pairs=seven_pairs, legal=legal)


def analyze_discards(hand14, *, rule=None, visible=None, melds=(), wilds=None, fixed_sets=(), combos=True,
                     wild_kind=None, seven_pairs=None, as_frame=True, legal="self_draw", value=False,
                     **value_options):
    cdef RuleParams params
    cdef HandView v
    cdef const uint8_t* c
    cdef int k, n = 0
    if (not as_frame and not value and not value_options and rule is None and visible is None and not melds
            and not fixed_sets and wild_kind is None and type(legal) is str and legal in _LEGAL):
        params = _reading(seven_pairs)
        if params is not None:
            if type(hand14) is cnp.ndarray:
                if wilds is None or (type(wilds) is int and wilds == 0):
                    c = plain_counts(params, hand14)
                    for k in range(34):
                        n += c[k]
                    if n % 3 == 2 and n <= 14:
                        return discard_columns(&params.prm, c, 0, 0, bool(combos))
            elif (type(hand14) is _Hand and wilds is None and view_hand(params, hand14, &v)
                  and v.n % 3 == 2 and v.n + 3 * v.n_melds <= 14):
                return discard_columns(v.prm, v.c, v.n_melds, v.wilds, bool(combos))
    return _general_discards(hand14, rule=rule, visible=visible, melds=melds, wilds=wilds, fixed_sets=fixed_sets,
                             combos=combos, wild_kind=wild_kind, seven_pairs=seven_pairs, as_frame=as_frame,
                             legal=legal, value=value, **value_options)


shanten.__doc__ = _general_shanten.__doc__
ukeire.__doc__ = _general_ukeire.__doc__
analyze_discards.__doc__ = _general_discards.__doc__

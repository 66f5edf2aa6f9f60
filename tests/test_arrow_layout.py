"""Malformed Arrow arrays: every batch function checks an array's layout
before reading any of its bytes, whatever produced it (pyarrow's
``Array.from_buffers``, which checks buffer sizes but not every offset or
view, or a raw producer of the C data interface, which checks nothing), and
raises ValueError naming the first bad row (its ``index``, in the whole
column for a chunked array). Valid arrays of every layout (sliced, chunked,
with nulls) still give what the single-value functions give."""
import ctypes
import struct

import pytest

import pctcodec
from pctcodec import _pctcodec

pa = pytest.importorskip("pyarrow")

needs_view = pytest.mark.skipif(not hasattr(pa, "string_view"), reason="pyarrow without string_view")

# Every batch function that takes an Arrow string column, with its arguments.
MANY = {
    "quote_many": lambda v: pctcodec.quote_many(v),
    "quote_plus_many": lambda v: pctcodec.quote_plus_many(v),
    "unquote_many": lambda v: pctcodec.unquote_many(v),
    "unquote_plus_many": lambda v: pctcodec.unquote_plus_many(v),
    "requote_many": lambda v: pctcodec.requote_many(v),
    "normalize_many": lambda v: pctcodec.normalize_many(v),
    "check_many": lambda v: pctcodec.check_many(v),
    "query_param_many": lambda v: pctcodec.query_param_many(v, "q"),
    "clean_query_many": lambda v: pctcodec.clean_query_many(v, drop=["x"]),
    "split_many": lambda v: pctcodec.split_many(v),
}


def view(length, data=b"", buf=0, off=0):
    """One 16-byte string_view view: inline (<= 12 bytes) or a reference."""
    if length <= 12:
        return struct.pack("<i", length) + data.ljust(12, b"\0")
    return struct.pack("<i4sii", length, data[:4].ljust(4, b"\0"), buf, off)


def views_array(views, data, length=None, validity=None):
    return pa.Array.from_buffers(pa.string_view(), len(views) if length is None else length,
                                 [validity, pa.py_buffer(b"".join(views)), pa.py_buffer(data)])


def offsets_array(typ, offsets, data, validity=None):
    fmt = "<%d%s" % (len(offsets), "q" if typ == pa.large_string() else "i")
    return pa.Array.from_buffers(typ, len(offsets) - 1,
                                 [validity, pa.py_buffer(struct.pack(fmt, *offsets)), pa.py_buffer(data)])


def assert_malformed(values, index, names=MANY):
    for name in names:
        with pytest.raises(ValueError, match="malformed Arrow array at index %d: " % index) as info:
            MANY[name](values)
        assert info.value.index == index, name


# ---------------------------------------------------------------- string_view

@needs_view
@pytest.mark.parametrize("offset", [30, 1_500_000_000, 2**31 - 1])
def test_view_past_its_buffer(offset):
    """A view of 40 bytes at `offset` of a 35-byte buffer: read past the
    buffer (heap bytes returned as data, or a crash) before the check."""
    data = b"x" * 35
    arr = views_array([view(40, data, 0, offset)], data)
    with pytest.raises(Exception):
        arr.validate(full=True)  # pyarrow agrees it is malformed
    assert_malformed(arr, 0)


@needs_view
def test_view_problems_name_the_first_bad_row():
    data = b"0123456789" * 10
    good = view(20, data, 0, 10)
    cases = {
        "its view has a negative length": view(-1),
        "its view names a data buffer the array does not have": view(20, data, 1, 0),
        "its view's bytes lie outside its data buffer": view(20, data, 0, 81),
    }
    for reason, bad in cases.items():
        arr = views_array([good, view(3, b"abc"), bad, good], data)
        with pytest.raises(ValueError, match="at index 2: " + reason):
            pctcodec.quote_many(arr)
        assert pctcodec.quote_many(arr[:2]).to_pylist() == [data[10:30].decode(), "abc"]
        assert_malformed(arr[1:], 1)


@needs_view
def test_view_of_a_null_row_is_not_read():
    """A null row's view is never read: its content does not matter."""
    data = b"0123456789" * 3
    validity = pa.py_buffer(bytes([0b101]))
    arr = views_array([view(13, data), view(1000, data, 5, 99), view(2, b"ok")], data,
                      validity=validity)
    assert pctcodec.quote_many(arr).to_pylist() == [data[:13].decode(), None, "ok"]


@needs_view
def test_view_end_exactly_at_the_buffer_end():
    data = b"a" * 35
    arr = views_array([view(20, data, 0, 15)], data)
    assert pctcodec.quote_many(arr).to_pylist() == ["a" * 20]


# ---------------------------------------------------------------- offsets

@pytest.mark.parametrize("typ", [pa.string(), pa.large_string()], ids=["string", "large_string"])
def test_decreasing_offsets(typ):
    """pyarrow's from_buffers checks the first and the last offset only:
    row 0 here claims 1000 bytes of a 5-byte buffer."""
    arr = offsets_array(typ, [0, 1000, 5], b"hello")
    assert_malformed(arr, 0)
    arr = offsets_array(typ, [0, 2, 1, 5], b"hello")  # row 1 ends before it starts
    assert_malformed(arr, 1)
    assert_malformed(arr[1:], 0)
    assert pctcodec.quote_many(arr[:1]).to_pylist() == ["he"]


def test_decreasing_offset_of_a_null_row():
    """Offsets are checked for null rows too: they must not decrease."""
    validity = pa.py_buffer(bytes([0b101]))
    arr = offsets_array(pa.string(), [0, 3, 1, 5], b"hello", validity=validity)
    assert_malformed(arr, 1)


def test_offsets_in_a_long_array():
    """The first bad row of many, past the check's first blocks."""
    n = 5000
    offsets = list(range(n + 1))
    offsets[3001] = 0
    arr = offsets_array(pa.string(), offsets, b"a" * n)
    assert_malformed(arr, 3000, ["quote_many", "check_many", "split_many"])


def test_chunked_names_the_row_of_the_column():
    good = pa.array(["a", "b", "c"])
    bad = offsets_array(pa.string(), [0, 1, 0, 2], b"xy")
    column = pa.chunked_array([good, bad])
    assert_malformed(column, 4)


def test_sizes_known_to_pyarrow_are_checked():
    """Sizes as a pyarrow array's buffers have them, too small for the
    array: the first row whose bit, offsets or bytes lie past them."""
    arr = pa.array(["ab", None, "cd", "ef"] * 4)
    schema, array = arr.__arrow_c_array__()
    args = (0, pctcodec.quote, "/", None, None, 0, 0, None, 1, 0)
    for sizes, index in [((1, 68, 32), 8), ((-1, 24, 32), 5), ((-1, 68, 9), 6), ((2, 68, 32), None)]:
        source = arr.__arrow_c_array__() + (sizes,)
        if index is None:
            _pctcodec._many_arrow(source, *args)
            continue
        with pytest.raises(ValueError, match="at index %d: " % index):
            _pctcodec._many_arrow(source, *args)
    del schema, array


# ---------------------------------------------------------------- any producer

RELEASE = ctypes.CFUNCTYPE(None, ctypes.c_void_p)


class ArrowSchema(ctypes.Structure):
    _fields_ = [("format", ctypes.c_char_p), ("name", ctypes.c_char_p), ("metadata", ctypes.c_char_p),
                ("flags", ctypes.c_int64), ("n_children", ctypes.c_int64),
                ("children", ctypes.c_void_p), ("dictionary", ctypes.c_void_p),
                ("release", RELEASE), ("private_data", ctypes.c_void_p)]


class ArrowArray(ctypes.Structure):
    _fields_ = [("length", ctypes.c_int64), ("null_count", ctypes.c_int64), ("offset", ctypes.c_int64),
                ("n_buffers", ctypes.c_int64), ("n_children", ctypes.c_int64),
                ("buffers", ctypes.POINTER(ctypes.c_void_p)), ("children", ctypes.c_void_p),
                ("dictionary", ctypes.c_void_p), ("release", RELEASE), ("private_data", ctypes.c_void_p)]


_new_capsule = ctypes.pythonapi.PyCapsule_New
_new_capsule.restype = ctypes.py_object
_new_capsule.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p]


@RELEASE
def _release(ptr):
    pass  # the memory is the producer object's


class RawProducer:
    """An Arrow PyCapsule producer that builds its structs as told, with no
    check at all: what any library or process could hand over."""

    def __init__(self, fmt, length, buffers, offset=0, null_count=0, n_buffers=None):
        self.keep = [ctypes.create_string_buffer(b, len(b)) if b is not None else None
                     for b in buffers]
        ptrs = (ctypes.c_void_p * max(1, len(buffers)))(
            *[ctypes.cast(b, ctypes.c_void_p) if b is not None else None for b in self.keep])
        self.ptrs = ptrs
        self.schema = ArrowSchema(fmt, b"", None, 2, 0, None, None, _release, None)
        self.array = ArrowArray(length, null_count, offset,
                                len(buffers) if n_buffers is None else n_buffers, 0,
                                ctypes.cast(ptrs, ctypes.POINTER(ctypes.c_void_p)), None, None,
                                _release, None)

    def __arrow_c_array__(self, requested_schema=None):
        return (_new_capsule(ctypes.addressof(self.schema), b"arrow_schema", None),
                _new_capsule(ctypes.addressof(self.array), b"arrow_array", None))


def i32(*values):
    return struct.pack("<%di" % len(values), *values)


def i64(*values):
    return struct.pack("<%dq" % len(values), *values)


# (name, producer, the index named or None for an array-level problem)
RAW_CASES = [
    ("negative first offset", lambda: RawProducer(b"u", 2, [None, i32(-4, 1, 2), b"ab"]), 0),
    ("decreasing offset", lambda: RawProducer(b"u", 3, [None, i32(0, 2, 1, 2), b"ab"]), 1),
    ("decreasing large offset", lambda: RawProducer(b"U", 3, [None, i64(0, 1, 2, 0), b"ab"]), 2),
    ("sliced: offsets read from the offset", lambda: RawProducer(b"u", 2, [None, i32(9, 0, 1, 0), b"ab"],
                                                               offset=1), 1),
    ("no data buffer for bytes", lambda: RawProducer(b"u", 2, [None, i32(0, 0, 2), None]), 1),
    ("view of a negative length", lambda: RawProducer(b"vu", 2, [None, view(1, b"a") + view(-5), i64()]), 1),
    ("view naming no buffer", lambda: RawProducer(b"vu", 1, [None, view(20, b"abcd", 3, 0), b"x" * 20, i64(20)]), 0),
    ("view past its declared size", lambda: RawProducer(b"vu", 1, [None, view(20, b"abcd", 0, 1), b"x" * 20, i64(20)]), 0),
    ("view at a negative offset", lambda: RawProducer(b"vu", 1, [None, view(20, b"abcd", 0, -1), b"x" * 20, i64(20)]), 0),
    ("negative length", lambda: RawProducer(b"u", -1, [None, i32(0), b""]), None),
    ("negative offset", lambda: RawProducer(b"u", 1, [None, i32(0, 0), b""], offset=-1), None),
    ("offset + length overflows", lambda: RawProducer(b"u", 2**62, [None, i32(0, 0), b""], offset=2**62), None),
    ("too few buffers", lambda: RawProducer(b"u", 1, [None, i32(0, 1)]), None),
    ("too many buffers", lambda: RawProducer(b"u", 1, [None, i32(0, 1), b"a", b"b"]), None),
    ("view without its sizes buffer", lambda: RawProducer(b"vu", 1, [None, view(1, b"a")]), None),
    ("no offsets buffer", lambda: RawProducer(b"u", 1, [None, None, b"a"]), None),
    ("nulls without a bitmap", lambda: RawProducer(b"u", 1, [None, i32(0, 1), b"a"], null_count=1), None),
    ("null count below -1", lambda: RawProducer(b"u", 1, [None, i32(0, 1), b"a"], null_count=-2), None),
]


@pytest.mark.parametrize("make, index", [c[1:] for c in RAW_CASES], ids=[c[0] for c in RAW_CASES])
def test_raw_producer(make, index):
    """split_many reads other producers through pyarrow (which imports what
    it is given); every other batch function reads them itself."""
    names = [n for n in MANY if n != "split_many"]
    if index is not None:
        assert_malformed(make(), index, names)
        return
    for name in names:
        with pytest.raises(ValueError, match=r"malformed Arrow array: "):
            MANY[name](make())


def test_raw_producer_valid_layouts():
    """The same producer with valid buffers: every kind read as it should be."""
    cases = [
        (RawProducer(b"u", 2, [None, i32(0, 2, 5), b"a bcd"]), ["a%20", "bcd"]),
        (RawProducer(b"U", 2, [None, i64(0, 2, 5), b"a bcd"]), ["a%20", "bcd"]),
        (RawProducer(b"u", 2, [None, i32(0, 7, 7, 9), b"a bcdefgh"], offset=1), ["", "gh"]),
        (RawProducer(b"u", 3, [None, i32(4, 4, 4, 4), None]), ["", "", ""]),
        (RawProducer(b"vu", 2, [None, view(2, b"ab") + view(20, b"xxxx", 0, 5), b"x" * 25, i64(25)]),
         ["ab", "x" * 20]),
        (RawProducer(b"n", 3, []), [None, None, None]),
    ]
    for producer, want in cases:
        assert pctcodec.quote_many(producer).to_pylist() == want


def test_raw_producer_null_row_offsets_not_past_data():
    """A null row's offsets must still not decrease, but its bytes are not
    read: a bitmap marks row 0 null, its offsets are fine."""
    producer = RawProducer(b"u", 2, [bytes([0b10]), i32(0, 1, 2), b" b"], null_count=1)
    assert pctcodec.quote_many(producer).to_pylist() == [None, "b"]


# ---------------------------------------------------------------- valid layouts

def test_valid_layouts_unchanged():
    """Sliced, chunked, with nulls, empty: the check lets every valid array
    through, with the single-value results."""
    values = ["http://a.example/%7e b", None, "", "x?q=1&x=2", None, "é" * 20] * 50
    types = [pa.string(), pa.large_string()] + ([pa.string_view()] if hasattr(pa, "string_view") else [])
    for typ in types:
        arr = pa.array(values, type=typ)
        for part in (arr, arr[3:], arr[7:100], arr[:0], pa.chunked_array([arr[:10], arr[10:], arr[:0]])):
            got = pctcodec.quote_many(part)
            got = got.to_pylist()
            want = [None if v is None else pctcodec.quote(v) for v in part.to_pylist()]
            assert got == want, typ

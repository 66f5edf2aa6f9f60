"""Batch functions over Arrow arrays (pyarrow and the PyCapsule interface),
pandas and polars Series: the result has the input's kind, type, nulls,
index and name, and element by element equals the single-value function."""
import struct

import pytest
from hypothesis import given
from hypothesis import strategies as st

import pctcodec
from _batch_cases import CASE_IDS, CASES, SAMPLE, check_position, engines, expected, first_unstorable
from _strategies import clean_texts

pa = pytest.importorskip("pyarrow")

ARROW_TYPES = {"string": pa.string(), "large_string": pa.large_string()}
if hasattr(pa, "string_view"):
    ARROW_TYPES["string_view"] = pa.string_view()


@pytest.fixture(autouse=True, scope="module", params=["c", "python"])
def engine(request):
    """Every test runs on the C engine and on the pure-Python reference."""
    yield from engines(request.param)


WITH_NONE = [None] + SAMPLE[:7] + [None, None] + SAMPLE[7:] + [None]


def result_type(many, typ):
    return pa.int64() if many is pctcodec.check_many else typ


def run(many, column, opts, want, **kwargs):
    """many(column); checks it against `want` (a list) and returns it, or,
    when a wanted result has no UTF-8 form, checks that UnicodeEncodeError
    names its index and returns None."""
    bad = first_unstorable(want)
    if bad is not None:
        with pytest.raises(UnicodeEncodeError) as info:
            many(column, **opts, **kwargs)
        assert info.value.index == bad
        return None
    out = many(column, **opts, **kwargs)
    got = out.to_pylist() if hasattr(out, "to_pylist") else out.to_list()  # pyarrow, polars
    assert got == want
    return out


def string_view_array(values, nbuffers):
    """A string_view array built by hand: long values spread round-robin over
    `nbuffers` data buffers (with junk between them), short ones inline."""
    datas = [bytearray(b"junk") for _ in range(nbuffers)]
    views = bytearray()
    valid = bytearray((len(values) + 7) // 8)
    long_count = 0
    for i, v in enumerate(values):
        if v is None:
            views += bytes(16)
            continue
        valid[i // 8] |= 1 << (i % 8)
        b = v.encode()
        if len(b) <= 12:
            views += struct.pack("<i", len(b)) + b.ljust(12, b"\0")
        else:
            k = long_count % nbuffers
            long_count += 1
            views += struct.pack("<i4sii", len(b), b[:4], k, len(datas[k]))
            datas[k] += b + b"--"
    buffers = [pa.py_buffer(bytes(valid)), pa.py_buffer(bytes(views))]
    buffers += [pa.py_buffer(bytes(d)) for d in datas]
    arr = pa.Array.from_buffers(pa.string_view(), len(values), buffers,
                                null_count=values.count(None))
    arr.validate(full=True)
    assert arr.to_pylist() == values
    return arr


# ---------------------------------------------------------------- pyarrow

@pytest.mark.parametrize("many, single, opts", CASES, ids=CASE_IDS)
@pytest.mark.parametrize("tname", sorted(ARROW_TYPES))
def test_array_equals_single(many, single, opts, tname):
    typ = ARROW_TYPES[tname]
    arr = pa.array(WITH_NONE, type=typ)
    out = run(many, arr, opts, expected(single, WITH_NONE, opts))
    if out is not None:
        assert isinstance(out, pa.Array)
        assert out.type == result_type(many, typ)
        out.validate(full=True)


@pytest.mark.parametrize("many, single, opts", CASES, ids=CASE_IDS)
@pytest.mark.parametrize("tname", sorted(ARROW_TYPES))
def test_sliced_and_chunked(many, single, opts, tname):
    typ = ARROW_TYPES[tname]
    whole = pa.array(WITH_NONE * 3, type=typ)
    sliced = whole.slice(5, 30)
    assert sliced.offset == 5
    run(many, sliced, opts, expected(single, sliced.to_pylist(), opts))
    chunks = [whole.slice(0, 3), pa.array([], type=typ), sliced, pa.array([None], type=typ),
              pa.array([], type=typ)]
    col = pa.chunked_array(chunks, type=typ)
    out = run(many, col, opts, expected(single, col.to_pylist(), opts))
    if out is not None:
        assert isinstance(out, pa.ChunkedArray)
        assert out.type == result_type(many, typ)
    empty = many(pa.chunked_array([], type=typ), **opts)
    assert isinstance(empty, pa.ChunkedArray) and len(empty) == 0
    assert len(many(pa.array([], type=typ), **opts)) == 0


@pytest.mark.parametrize("typ, fmt", [(pa.string(), "<i"), (pa.large_string(), "<q")])
def test_unaligned_offsets(typ, fmt):
    # Buffers need not be aligned: pickle protocol 5 (as dask moves data)
    # hands out slices of its frames at any address.
    values = ["HTTP://A/./b c", "", "http://x/%7e%zz", "caf\u00e9"]
    data = "".join(values).encode()
    offsets = [0]
    for v in values:
        offsets.append(offsets[-1] + len(v.encode()))
    raw = pa.py_buffer(b"\0" + b"".join(struct.pack(fmt, o) for o in offsets))[1:]
    assert raw.address % 2 == 1
    arr = pa.Array.from_buffers(typ, len(values), [None, raw, pa.py_buffer(data)])
    assert pctcodec.normalize_many(arr).to_pylist() == [pctcodec.normalize(v) for v in values]
    assert pctcodec.check_many(arr.slice(1)).to_pylist() == [check_position(v) for v in values[1:]]


@pytest.mark.skipif("string_view" not in ARROW_TYPES, reason="pyarrow without string_view")
@pytest.mark.parametrize("nbuffers", [1, 3])
@pytest.mark.parametrize("many, single, opts", CASES, ids=CASE_IDS)
def test_string_view_inline_and_buffers(many, single, opts, nbuffers):
    values = WITH_NONE + ["123456789012", "1234567890123", "short", "é" * 6, "é" * 7]
    arr = string_view_array(values, nbuffers)
    for part in (arr, arr.slice(3)):
        out = run(many, part, opts, expected(single, part.to_pylist(), opts))
        if out is not None:
            assert out.type == result_type(many, pa.string_view())
            out.validate(full=True)


def test_all_null_and_null_type():
    arr = pa.array([None, None], type=pa.string())
    assert pctcodec.quote_many(arr).to_pylist() == [None, None]
    assert pctcodec.check_many(arr).to_pylist() == [None, None]


def test_non_string_arrow_type_rejected():
    with pytest.raises(TypeError, match="int64"):
        pctcodec.quote_many(pa.array([1, 2]))
    with pytest.raises(TypeError, match="binary"):
        pctcodec.normalize_many(pa.chunked_array([pa.array([b"x"])]))


class CapsuleOnly:
    """An Arrow producer that is not pyarrow: only the PyCapsule protocol."""

    def __init__(self, arr, stream):
        self._arr = arr
        if stream:
            self.__arrow_c_stream__ = arr.__arrow_c_stream__
        else:
            self.__arrow_c_array__ = arr.__arrow_c_array__


@pytest.mark.parametrize("stream", [False, True], ids=["array", "stream"])
@pytest.mark.parametrize("tname", sorted(ARROW_TYPES))
def test_capsule_producers(stream, tname):
    typ = ARROW_TYPES[tname]
    arr = pa.array(WITH_NONE, type=typ)
    if stream:
        arr = pa.chunked_array([arr.slice(0, 4), arr.slice(4)])
    out = pctcodec.quote_many(CapsuleOnly(arr, stream))
    got = pa.array(out) if hasattr(out, "__arrow_c_array__") else pa.chunked_array(out)
    assert got.type == typ
    assert got.to_pylist() == expected(pctcodec.quote, WITH_NONE, {})


def test_default_threads_split_long_arrays(monkeypatch):
    # threads=None: one thread per core, each with at least 16384 rows; the
    # result is the one of a single thread.
    import pctcodec.batch as batch

    monkeypatch.setattr(batch, "_cores", lambda: 3)
    values = (WITH_NONE * (3 * 16384 // len(WITH_NONE) + 1))[: 3 * 16384 + 5]
    arr = pa.array(values)
    for many, single, opts in CASES:
        run(many, arr, opts, expected(single, values, opts), threads=None)


@pytest.mark.parametrize("threads", [None, 1, 2, 4])
@pytest.mark.parametrize("tname", sorted(ARROW_TYPES))
def test_threads_same_result(threads, tname):
    values = WITH_NONE * 37
    arr = pa.array(values, type=ARROW_TYPES[tname])
    for many, single, opts in CASES:
        want = expected(single, values, opts)
        run(many, arr, opts, want, threads=threads)
        col = pa.chunked_array([arr.slice(0, 100), arr.slice(100)])
        run(many, col, opts, want, threads=threads)


@given(st.lists(st.one_of(st.none(), clean_texts), max_size=12), st.sampled_from(sorted(ARROW_TYPES)))
def test_hypothesis_arrow_matches_single(values, tname):
    arr = pa.array(values, type=ARROW_TYPES[tname])
    for many, single, opts in CASES:
        try:
            want = expected(single, values, opts)
        except Exception as exc:
            with pytest.raises(type(exc)):
                many(arr, **opts)
            continue
        run(many, arr, opts, want)


def test_arrow_errors_name_index_in_column():
    col = pa.chunked_array([["a", None], [], ["b", "é"]])
    with pytest.raises(UnicodeEncodeError) as info:
        pctcodec.quote_many(col, encoding="ascii")
    assert info.value.index == 3
    with pytest.raises(UnicodeDecodeError) as info:
        pctcodec.unquote_many(pa.array(["%41", None, "%FF"], type=pa.large_string()), errors="strict")
    assert info.value.index == 2


def test_check_many_arrow_positions():
    arr = pa.array(["ok", "a b", None, "é%", "%zz"])
    assert pctcodec.check_many(arr).to_pylist() == [None, 1, None, 0, 0]
    assert [check_position(v) for v in ["a b", "é%"]] == [1, 0]


# ---------------------------------------------------------------- pandas

def _pandas_dtypes():
    pd = pytest.importorskip("pandas")
    dtypes = ["object", "string[pyarrow]", pd.ArrowDtype(pa.string()), pd.ArrowDtype(pa.large_string())]
    if hasattr(pa, "string_view"):
        dtypes.append(pd.ArrowDtype(pa.string_view()))
    return pd, dtypes


@pytest.mark.parametrize("many, single, opts", CASES, ids=CASE_IDS)
def test_pandas_series(many, single, opts):
    pd, dtypes = _pandas_dtypes()
    index = pd.Index([10 * i + 3 for i in range(len(WITH_NONE))], name="row")
    for dtype in dtypes:
        s = pd.Series(WITH_NONE, index=index, name="url", dtype=dtype)
        want = expected(single, WITH_NONE, opts)
        if dtype == "object":
            want = [None if v is None else v for v in want]
        elif first_unstorable(want) is not None:
            run(many, s, opts, want)
            continue
        out = many(s, **opts)
        assert isinstance(out, pd.Series)
        assert out.index.equals(s.index) and out.name == "url"
        got = [None if pd.isna(v) else v for v in out.tolist()]
        assert got == want, dtype
        if many is pctcodec.check_many:
            assert out.dtype == "Int64"
        else:
            assert out.dtype == s.dtype


def test_pandas_default_string_dtype_and_nan():
    pd = pytest.importorskip("pandas")
    s = pd.Series(["a b", float("nan"), None, "c"], index=list("wxyz"))
    out = pctcodec.quote_many(s)
    assert out.dtype == s.dtype
    assert out.index.equals(s.index)
    assert out["w"] == "a%20b" and out["z"] == "c"
    assert pd.isna(out["x"]) and pd.isna(out["y"])


def test_pandas_wrong_type_names_position():
    pd = pytest.importorskip("pandas")
    s = pd.Series(["a", 5, "b"], index=[7, 8, 9], dtype=object)
    with pytest.raises(TypeError, match=r"\bindex 1\b"):
        pctcodec.quote_many(s)


# ---------------------------------------------------------------- polars

@pytest.mark.parametrize("many, single, opts", CASES, ids=CASE_IDS)
def test_polars_series(many, single, opts):
    pl = pytest.importorskip("polars")
    s = pl.Series("url", WITH_NONE)
    out = run(many, s, opts, expected(single, WITH_NONE, opts))
    if out is not None:
        assert isinstance(out, pl.Series)
        assert out.name == "url"
        assert out.dtype == (pl.Int64 if many is pctcodec.check_many else pl.String)


def test_polars_wrong_dtype():
    pl = pytest.importorskip("polars")
    with pytest.raises(TypeError):
        pctcodec.quote_many(pl.Series("n", [1, 2]))


# ---------------------------------------------------------------- C engine details

escaped_bytes = st.lists(
    st.one_of(
        st.binary(min_size=1, max_size=4).map(lambda b: "".join("%%%02X" % x for x in b)),
        st.binary(min_size=1, max_size=4).map(lambda b: "".join("%%%02x" % x for x in b)),
        st.sampled_from(["é", "中", "\U0001f600", "+", "%", "%4", "a", " "]),
    ),
    max_size=10,
).map("".join)


@given(st.lists(st.one_of(st.none(), escaped_bytes), max_size=8),
       st.sampled_from(["replace", "ignore", "strict", "backslashreplace", "surrogateescape"]),
       st.sampled_from(sorted(ARROW_TYPES)))
def test_unquote_malformed_utf8_as_python(values, errors, tname):
    """Decoded bytes that are not UTF-8 come out as the codec's error handler
    makes them (U+FFFD per maximal subpart for replace, ...)."""
    arr = pa.array(values, type=ARROW_TYPES[tname])
    for many, single in [(pctcodec.unquote_many, pctcodec.unquote),
                         (pctcodec.unquote_plus_many, pctcodec.unquote_plus)]:
        try:
            want = expected(single, values, {"errors": errors})
        except UnicodeDecodeError:
            with pytest.raises(UnicodeDecodeError):
                many(arr, errors=errors)
            with pytest.raises(UnicodeDecodeError):
                many(values, errors=errors)
            continue
        run(many, arr, {"errors": errors}, want)
        assert many(values, errors=errors) == want


def test_capsule_without_pyarrow(monkeypatch, engine):
    """Without pyarrow the result is an object with __arrow_c_array__,
    exported once."""
    import pctcodec.batch as batch

    if engine != "c":
        pytest.skip("the pure-Python engine reads Arrow through pyarrow")
    monkeypatch.setattr(batch, "_pyarrow", lambda required=True: None)
    for stream in (False, True):
        arr = pa.array(WITH_NONE, type=pa.large_string())
        source = pa.chunked_array([arr.slice(0, 3), arr.slice(3)]) if stream else arr
        out = pctcodec.requote_many(CapsuleOnly(source, stream))
        assert type(out).__name__ == "_ArrowResult"
        got = pa.array(out)
        assert got.type == pa.large_string()
        assert got.to_pylist() == expected(pctcodec.requote, WITH_NONE, {})
        with pytest.raises(ValueError):
            out.__arrow_c_array__()


@pytest.mark.parametrize("threads", [1, 3])
def test_many_hosts_threads(threads):
    """Non-ASCII hosts (IDNA with the GIL taken from worker threads), more
    distinct hosts than the per-thread cache holds, and hosts with no ASCII
    form, once and again (cached), written as normalize writes them."""
    hosts = ["bücher%d.example" % i for i in range(1500)] + ["例え.テスト", "ÉCOLE.fr", "%E4%BE%8B.jp"]
    values = ["HTTP://%s/a/../b?%%7e#f" % h for h in hosts] * 2 + [None]
    arr = pa.array(values)
    want = expected(pctcodec.normalize, values, {})
    assert pctcodec.normalize_many(arr, threads=threads).to_pylist() == want
    assert pctcodec.normalize_many(values, threads=threads) == want
    with_failing = values[:]
    with_failing[1000] = with_failing[2000] = "http://\u2603\u00a0-.com/"
    with_failing[3000] = "http://ab\u200d.com/"
    want = expected(pctcodec.normalize, with_failing, {})
    assert want[1000] == "http://%E2%98%83%C2%A0-.com/"
    assert pctcodec.normalize_many(pa.array(with_failing), threads=threads).to_pylist() == want


def test_long_values_and_growth():
    """Results much longer than the input (quote of non-ASCII: 6x bytes)
    and large rows, so that output buffers grow many times."""
    values = ["é" * 5000, None, "a b" * 20000, "", "%zz" * 3000] * 30
    for tname, typ in ARROW_TYPES.items():
        arr = pa.array(values, type=typ)
        for many, single in [(pctcodec.quote_many, pctcodec.quote),
                             (pctcodec.requote_many, pctcodec.requote),
                             (pctcodec.unquote_many, pctcodec.unquote)]:
            for threads in (1, 4):
                out = many(arr, threads=threads)
                out.validate(full=True)
                assert out.to_pylist() == expected(single, values, {}), (tname, many.__name__)


def test_malformed_array_rejected(engine):
    if engine != "c":
        pytest.skip("the C engine's own check of the layout")
    offsets = pa.py_buffer(struct.pack("<3i", 0, 5, 2))  # the second value ends before it starts
    data = pa.py_buffer(b"hello")
    arr = pa.Array.from_buffers(pa.string(), 2, [None, offsets, data])
    with pytest.raises(ValueError, match="malformed"):
        pctcodec.quote_many(arr)


def test_polars_without_pyarrow(monkeypatch, engine):
    """polars reads the result through the PyCapsule interface itself."""
    pl = pytest.importorskip("polars")
    import pctcodec.batch as batch

    if engine != "c":
        pytest.skip("the pure-Python engine reads polars through pyarrow")
    monkeypatch.setattr(batch, "_pyarrow", lambda required=True: None)
    s = pl.Series("url", WITH_NONE)
    out = pctcodec.quote_many(s, threads=2)
    assert isinstance(out, pl.Series) and out.name == "url" and out.dtype == pl.String
    assert out.to_list() == expected(pctcodec.quote, WITH_NONE, {})
    positions = pctcodec.check_many(s)
    assert positions.dtype == pl.Int64
    assert positions.to_list() == expected(check_position, WITH_NONE, {})


@pytest.mark.parametrize("threads", [2, 3, 4])
@pytest.mark.parametrize("bad_rows", [(300, 700, 900), (0, 999), (999,), (7, 8)])
def test_threads_raise_for_the_first_failing_row(threads, bad_rows):
    # The rows run in chunks on several threads; whichever thread fails
    # first, the error names the first failing row of the column.
    values = ["%41%42"] * 1000
    for i in bad_rows:
        values[i] = "x%FF"
    with pytest.raises(UnicodeDecodeError) as info:
        pctcodec.unquote_many(pa.array(values), errors="strict", threads=threads)
    assert info.value.index == min(bad_rows)
    # and with the rest of the rows fine, every thread's chunks are in place
    ok = pctcodec.unquote_many(pa.array(values), threads=threads).to_pylist()
    assert ok == [pctcodec.unquote(v) for v in values]

"""query_param_many and clean_query_many: element by element what
query_param and clean_query give, over lists, Arrow arrays (the three
string types, chunked, with nulls, sliced at an offset), pandas and polars
Series; threads; the error policy."""
import pytest
from hypothesis import given
from hypothesis import strategies as st

import pctcodec
from pctcodec import (TRACKING_PARAMS, PercentEncodingError, Reject, clean_query, clean_query_many,
                      query_param, query_param_many)

pa = pytest.importorskip("pyarrow")

ARROW_TYPES = [pa.string(), pa.large_string()]
if hasattr(pa, "string_view"):
    ARROW_TYPES.append(pa.string_view())

PIECES = ["?", "#", "&", "=", "+", "%", "%5F", "%C3%A9", "%FF", "a", "utm_", "_ga", "fbclid", "x",
          "é", "😀", "http://h/p", "b"]
uris = st.lists(st.sampled_from(PIECES), max_size=12).map("".join)
columns = st.lists(st.one_of(st.none(), uris), max_size=20)

# (the _many function with its options, the single function with the same)
OPS = [
    (lambda v, **k: query_param_many(v, "a", **k), lambda s: query_param(s, "a")),
    (lambda v, **k: query_param_many(v, "utm_x", **k), lambda s: query_param(s, "utm_x")),
    (lambda v, **k: clean_query_many(v, drop=TRACKING_PARAMS, **k),
     lambda s: clean_query(s, drop=TRACKING_PARAMS)),
    (lambda v, **k: clean_query_many(v, keep=["a", "b*"], sort=True, **k),
     lambda s: clean_query(s, keep=["a", "b*"], sort=True)),
]


def expected(single, values):
    return [None if v is None else single(v) for v in values]


@pytest.mark.parametrize("k", range(len(OPS)))
@given(values=columns)
def test_list(k, values):
    many, single = OPS[k]
    assert many(values) == expected(single, values)
    assert many(tuple(values)) == expected(single, values)
    assert many(iter(values)) == expected(single, values)


@pytest.mark.parametrize("k", range(len(OPS)))
@pytest.mark.parametrize("typ", ARROW_TYPES, ids=str)
@given(values=columns, offset=st.integers(0, 5))
def test_arrow(k, typ, values, offset):
    many, single = OPS[k]
    arr = pa.array(values, type=typ)
    out = many(arr)
    assert out.type == typ and out.to_pylist() == expected(single, values)
    sliced = arr.slice(min(offset, len(values)))
    assert many(sliced).to_pylist() == expected(single, values[min(offset, len(values)):])
    chunked = pa.chunked_array([arr, sliced, arr[:0]], type=typ)
    out = many(chunked)
    assert isinstance(out, pa.ChunkedArray) and out.type == typ
    assert out.to_pylist() == expected(single, values + values[min(offset, len(values)):])


@pytest.mark.parametrize("k", range(len(OPS)))
def test_threads(k):
    many, single = OPS[k]
    values = (["http://h/?a=%d&utm_x=%d&b=%d" % (i, i, i) for i in range(40000)]
              + [None, "", "?a", "?utm_x=é"] * 100)
    arr = pa.array(values, type=pa.large_string())
    want = expected(single, values)
    for threads in (1, 2, 3):
        assert many(arr, threads=threads).to_pylist() == want


@pytest.mark.parametrize("k", range(len(OPS)))
def test_pandas(k):
    pd = pytest.importorskip("pandas")
    many, single = OPS[k]
    values = ["http://h/?a=1&utm_x=2", None, "?b=%C3%A9&a", "x", "?fbclid=1"]
    want = expected(single, values)
    for dtype in (object, "string", "category"):
        series = pd.Series(values, dtype=dtype, name="url", index=range(10, 15))
        out = many(series)
        assert list(out.index) == list(range(10, 15)) and out.name == "url"
        assert [None if pd.isna(v) else v for v in out] == want, dtype
    arrow_dtype = pd.ArrowDtype(pa.string())
    out = many(pd.Series(values, dtype=arrow_dtype))
    assert out.dtype == arrow_dtype and [None if pd.isna(v) else v for v in out] == want


@pytest.mark.parametrize("k", range(len(OPS)))
def test_polars(k):
    pl = pytest.importorskip("polars")
    many, single = OPS[k]
    values = ["http://h/?a=1&utm_x=2", None, "?b=%C3%A9&a", "x", "?fbclid=1"]
    out = many(pl.Series("url", values))
    assert out.name == "url" and out.dtype == pl.String
    assert out.to_list() == expected(single, values)


def test_errors():
    bad = ["?a=1", "?a=\ud800", "?a=3"]
    with pytest.raises(PercentEncodingError) as info:
        query_param_many(bad, "a")
    assert info.value.index == 1
    rejects = []
    assert query_param_many(bad, "a", on_error="null", rejects=rejects) == ["1", None, "3"]
    assert [r[:2] for r in rejects] == [(1, "?a=\ud800")] and isinstance(rejects[0], Reject)
    assert clean_query_many(bad, drop="a", on_error="keep") == ["?", "?a=\ud800", "?"]
    with pytest.raises(TypeError):
        query_param_many(["?a=1", 3], "a")
    with pytest.raises(TypeError):
        query_param_many("?a=1", "a")
    with pytest.raises(TypeError):
        query_param_many(["?a=1"], None)
    with pytest.raises(TypeError):
        clean_query_many(["?a=1"], drop=b"a")
    with pytest.raises(ValueError):
        clean_query_many(["?a=1"], threads=0)
    with pytest.raises(TypeError):
        query_param_many(pa.array([1, 2]), "a")


def test_exported():
    for name in ("query_param", "query_param_many", "clean_query", "clean_query_many",
                 "TRACKING_PARAMS"):
        assert name in pctcodec.__all__

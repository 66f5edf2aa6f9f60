"""The pandas accessor (pctcodec.integrations.pandas): every batch function
on every string dtype, index and name kept, against the batch function."""
import inspect

import pytest

pd = pytest.importorskip("pandas")
pytest.importorskip("pctcodec.integrations.pandas")

import pctcodec.batch  # noqa: E402
from pctcodec.integrations._functions import FUNCTIONS  # noqa: E402

from pctcodec.integrations.pandas import pct  # noqa: E402

from _integration_cases import BASES, BY_NAME, CALLS, FAILING, SAMPLE, expected, resolve_with_bases  # noqa: E402


def dtypes():
    """Every string dtype of the running pandas (with pyarrow: the Arrow-backed ones)."""
    kinds = [object, "category", pd.StringDtype("python")]
    try:
        import pyarrow as pa
    except ImportError:
        return kinds
    kinds += [pd.StringDtype("pyarrow"), pd.ArrowDtype(pa.string()), pd.ArrowDtype(pa.large_string())]
    try:
        kinds.append(pd.StringDtype("pyarrow", na_value=float("nan")))  # pandas 3's default "str"
    except TypeError:
        pass  # pandas < 2.3
    return kinds


def series(dtype):
    return pd.Series(SAMPLE, index=[10, 30, 20, 50, 40], name="links", dtype=dtype)


def plain(values):
    """Missing values of any kind as None."""
    return [None if v is None or v is pd.NA or v != v else v for v in values]


def test_every_function_is_a_method_with_its_signature():
    s = series(object)
    for function in FUNCTIONS:
        for accessor in (s.pct, pct(s)):
            method = getattr(accessor, function.name)
            want = [p for p in function.signature.parameters.values() if p.name != function.column]
            assert list(inspect.signature(method).parameters.values()) == want
            assert function.batch.__name__ in method.__doc__


# The functions whose output is one string or int per row (the others give
# a DataFrame or lists: test_records).
COLUMNS = [(name, kwargs) for name, kwargs in CALLS if name not in ("split", "domain_parts", "query_params",
                                                                      "parse_query", "parse_url")]


@pytest.mark.parametrize("dtype", dtypes(), ids=str)
@pytest.mark.parametrize("name, kwargs", COLUMNS)
def test_every_dtype(name, kwargs, dtype):
    s = series(dtype)
    out = getattr(s.pct, name)(**kwargs, on_error="null")
    assert list(out.index) == list(s.index) and out.name == "links"
    assert plain(out) == expected(name, kwargs)
    if name != "check":
        assert out.dtype == s.dtype or isinstance(s.dtype, pd.CategoricalDtype)


@pytest.mark.parametrize("name, kwargs", FAILING)
def test_keep_and_raise(name, kwargs):
    s = series(object)
    assert plain(getattr(s.pct, name)(**kwargs, on_error="keep")) == expected(name, kwargs, on_error="keep")
    with pytest.raises(ValueError) as info:
        getattr(s.pct, name)(**kwargs)
    assert info.value.index == 2


def test_rejects_name_the_row_of_the_series():
    rejects = []
    series(object).pct.unquote(errors="strict", on_error="null", rejects=rejects)
    assert [(r.index, r.value) for r in rejects] == [(2, SAMPLE[2])]


@pytest.mark.parametrize("name, kwargs", CALLS)
def test_same_as_the_batch_function(name, kwargs):
    s = series(object)
    function = BY_NAME[name]
    got = getattr(s.pct, name)(**kwargs, on_error="null")
    want = function.batch(**dict(kwargs, on_error="null", **{function.column: s}))
    if isinstance(want, pd.DataFrame):
        pd.testing.assert_frame_equal(got, want)
    else:
        pd.testing.assert_series_equal(got, want)


def test_records():
    s = series("str")
    parts = s.pct.split()
    assert list(parts.columns) == ["scheme", "userinfo", "host", "port", "path", "query", "fragment"]
    assert list(parts.index) == list(s.index)
    params = s.pct.query_params(["x", "q"], all=True)
    assert list(params.columns) == ["x", "q"]
    assert [None if v is None or v is pd.NA else list(v) for v in params["x"]] == \
        [r and r["x"] for r in expected("query_params", {"names": ["x", "q"], "all": True})]


@pytest.mark.parametrize("dtype", [object, "str"])
def test_a_second_column(dtype):
    s = series(dtype)
    # aligned on the index, as pandas aligns two Series: the same bases in another order
    bases = pd.Series(BASES, index=s.index, dtype=dtype).iloc[::-1]
    assert plain(s.pct.resolve(bases, on_error="null")) == resolve_with_bases()
    # a label the second column lacks is a null base, so a null row
    partial = pd.Series(BASES[:2], index=s.index[:2], dtype=dtype)
    assert plain(s.pct.resolve(partial, on_error="null"))[2:] == [None, None, None]
    # an index that differs and repeats a label cannot be matched
    with pytest.raises(ValueError, match="align it first"):
        s.pct.resolve(pd.Series(BASES, index=[1, 1, 2, 3, 4], dtype=dtype))
    assert plain(s.pct.resolve("http://base/dir/", on_error="null")) == \
        expected("resolve", {"base": "http://base/dir/"})


def test_arrow_backed_str_read_in_place(monkeypatch):
    pa = pytest.importorskip("pyarrow")
    s = pd.Series(["a b", None, "c/d"], dtype=pd.StringDtype("pyarrow"))
    held = getattr(s.array, "_pa_array", None)  # the Series' own Arrow data
    if held is None:
        pytest.skip("this pandas keeps its Arrow data elsewhere")
    seen = []
    real = pctcodec.batch._map_arrow

    def spy(op, values):
        seen.append(values)
        return real(op, values)

    monkeypatch.setattr(pctcodec.batch, "_map_arrow", spy)
    assert s.pct.quote("").tolist() == ["a%20b", s[1], "c%2Fd"]
    (given,) = seen
    # the engine was handed the very buffers of the Series: no copy
    assert [b.address for b in given.chunk(0).buffers() if b is not None] == \
           [b.address for b in held.chunk(0).buffers() if b is not None]


def test_columns_go_through_arrow(monkeypatch):
    # Both columns of resolve on Arrow-backed Series reach the engine as
    # Arrow: no Python list of either (it was 3.5x two Arrow arrays).
    # "string[pyarrow]": pandas 3's default "str" is Arrow-backed, pandas 2's is object.
    s = series("string[pyarrow]")
    bases = pd.Series(BASES, index=s.index, dtype="string[pyarrow]")

    def no(*args, **kwargs):
        raise AssertionError("a column went through Python objects")

    monkeypatch.setattr(pd.Series, "tolist", no)
    monkeypatch.setattr(pd.Series, "to_list", no)
    monkeypatch.setattr(pctcodec.batch, "_map_list", no)
    assert plain(s.pct.resolve(bases, on_error="null").array) == resolve_with_bases()


def test_category_of_utf8_text_fails_a_surrogate_result():
    # categories held as UTF-8 (pandas 3's "str") cannot hold the lone
    # surrogate unquote with surrogateescape makes: the row fails as on the
    # other Arrow-backed dtypes (it was pyarrow's bare UnicodeEncodeError,
    # no row named, whatever on_error said)
    pytest.importorskip("pyarrow")
    s = pd.Series(["ok", "x%FFy", None, "x%FFy"], dtype="category", index=[5, 6, 7, 8])
    s = s.cat.set_categories(s.cat.categories.astype(pd.StringDtype("pyarrow")))
    rejects = []
    out = s.pct.unquote("utf-8", "surrogateescape", on_error="null", rejects=rejects)
    assert list(out.index) == [5, 6, 7, 8] and isinstance(out.dtype, pd.CategoricalDtype)
    assert [None if pd.isna(v) else v for v in out] == ["ok", None, None, None]
    assert [(r.index, r.value, type(r.error)) for r in rejects] == \
        [(1, "x%FFy", UnicodeEncodeError), (3, "x%FFy", UnicodeEncodeError)]
    out = s.pct.unquote("utf-8", "surrogateescape", on_error="keep")
    assert [None if pd.isna(v) else v for v in out] == ["ok", "x%FFy", None, "x%FFy"]
    with pytest.raises(UnicodeEncodeError) as info:
        s.pct.unquote("utf-8", "surrogateescape")
    assert info.value.index == 1
    # categories of Python objects hold it, as an object Series does
    s = s.cat.set_categories(s.cat.categories.astype(object))
    assert s.pct.unquote("utf-8", "surrogateescape").tolist()[:2] == ["ok", "x\udcffy"]

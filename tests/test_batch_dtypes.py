"""No silent change of any value: each pandas and polars dtype either gives,
row by row, what the single-value function gives (missing values kept
missing), or is rejected with a clear TypeError."""
import codecs

import pytest

import pctcodec

pd = pytest.importorskip("pandas")
pa = pytest.importorskip("pyarrow")

VALUES = ["a b", "c", None, "a b", "caf\u00e9", "http://x/%7e"]
FUNCS = [
    (pctcodec.quote_many, pctcodec.quote),
    (pctcodec.unquote_many, pctcodec.unquote),
    (pctcodec.normalize_many, pctcodec.normalize),
    (pctcodec.requote_many, pctcodec.requote),
]


def per_item(one, values):
    return [None if v is None else one(v) for v in values]


def plain(values):
    return [None if (v is None or v is pd.NA or (isinstance(v, float) and v != v)) else v
            for v in values]


def pandas_dtypes():
    dtypes = [("object", object), ("string[python]", "string[python]"),
              ("string[pyarrow]", "string[pyarrow]"),
              ("ArrowDtype(string)", pd.ArrowDtype(pa.string())),
              ("ArrowDtype(large_string)", pd.ArrowDtype(pa.large_string())),
              ("category", "category")]
    try:  # pandas 3's str (NaN as its missing value)
        dtypes.append(("str", pd.StringDtype(na_value=float("nan"))))
    except TypeError:
        pass
    return dtypes


PANDAS = pandas_dtypes()


@pytest.mark.parametrize("many, one", FUNCS, ids=[f[0].__name__ for f in FUNCS])
@pytest.mark.parametrize("name, dtype", PANDAS, ids=[d[0] for d in PANDAS])
def test_pandas_dtype(name, dtype, many, one):
    series = pd.Series(VALUES, dtype=dtype, name="u", index=list("abcdef"))
    out = many(series)
    assert plain(out.tolist()) == per_item(one, VALUES)
    assert out.isna().tolist() == [v is None for v in VALUES]
    assert list(out.index) == list("abcdef") and out.name == "u"
    if name == "category":
        assert isinstance(out.dtype, pd.CategoricalDtype)
    else:
        assert out.dtype == series.dtype


@pytest.mark.parametrize("name, dtype", PANDAS, ids=[d[0] for d in PANDAS])
def test_pandas_check_many(name, dtype):
    series = pd.Series(["http://a/", "a b", None, "a b"], dtype=dtype)
    out = pctcodec.check_many(series)
    assert str(out.dtype) == "Int64"
    assert plain(out.tolist()) == [None, 1, None, 1]


def test_categorical_categories_transformed_once():
    calls = []

    def count(exc):
        calls.append(exc.object[exc.start:exc.end])
        return ("?", exc.end)

    codecs.register_error("pctcodec-test-count", count)
    series = pd.Series(["caf\u00e9", "th\u00e9", None] * 1000, dtype="category")
    out = pctcodec.quote_many(series, encoding="ascii", errors="pctcodec-test-count")
    assert len(calls) == 2  # once per category, not once per row
    assert plain(out.tolist()) == ["caf%3F", "th%3F", None] * 1000


def test_categorical_categories_merging_and_order():
    series = pd.Series(pd.Categorical(["a%20b", "a b", "z", None],
                                      categories=["z", "a b", "a%20b"], ordered=True))
    out = pctcodec.unquote_many(series)
    assert plain(out.tolist()) == ["a b", "a b", "z", None]
    assert out.cat.ordered
    assert list(out.cat.categories) == ["z", "a b"]  # two categories became one


@pytest.mark.parametrize("dtype", ["int64", "float64", "datetime64[ns]", "bool"])
def test_pandas_non_string_dtypes_rejected(dtype):
    series = pd.Series([1, 0], dtype=dtype)
    with pytest.raises(TypeError, match="needs a Series of strings"):
        pctcodec.quote_many(series)


def test_pandas_arrow_non_string_rejected():
    with pytest.raises(TypeError, match="column of strings"):
        pctcodec.quote_many(pd.Series([1, 2], dtype=pd.ArrowDtype(pa.int64())))


def test_pandas_category_of_numbers_rejected():
    with pytest.raises(TypeError, match="categories of strings"):
        pctcodec.quote_many(pd.Series([1, 2, 1], dtype="category"))


# ---------------------------------------------------------------- polars

def test_polars_dtypes():
    pl = pytest.importorskip("polars")
    for dtype in (pl.String, pl.Categorical):
        series = pl.Series("u", VALUES, dtype=dtype)
        for many, one in FUNCS:
            out = many(series)
            assert out.dtype == dtype and out.name == "u"
            assert out.to_list() == per_item(one, VALUES)
        positions = pctcodec.check_many(series)
        assert positions.to_list() == [pctcodec.check_many([v])[0] for v in VALUES]
    assert pctcodec.quote_many(pl.Series("n", [None, None])).to_list() == [None, None]


def test_polars_enum_and_numbers_rejected():
    pl = pytest.importorskip("polars")
    if hasattr(pl, "Enum"):
        with pytest.raises(TypeError, match="Enum"):
            pctcodec.quote_many(pl.Series("e", ["a b"], dtype=pl.Enum(["a b"])))
    with pytest.raises(TypeError, match="not polars dtype Int64"):
        pctcodec.quote_many(pl.Series("i", [1, 2]))

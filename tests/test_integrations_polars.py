"""The polars namespace (pctcodec.integrations.polars): every function of
the table in eager, lazy and streaming queries, against the single-value
functions."""
import pytest

pl = pytest.importorskip("polars")
pctcodec_polars = pytest.importorskip("pctcodec.integrations.polars")

from pctcodec.integrations._functions import FUNCTIONS, REQUIRED, Function, Option  # noqa: E402

from _integration_cases import CALLS, FAILING, SAMPLE, expected  # noqa: E402

DTYPES = {"string": pl.String, "int64": pl.Int64}


def frame():
    return pl.DataFrame({"url": SAMPLE, "group": [1, 2, 1, 2, 1]})


def test_every_function_is_a_method():
    for function in FUNCTIONS:
        assert callable(getattr(pl.col("url").pct, function.name))
        assert callable(getattr(pl.Series(["a"]).pct, function.name))
        assert getattr(pctcodec_polars.ExprNamespace, function.name).__doc__.startswith(function.name + "(")


@pytest.mark.parametrize("engine", ["in-memory", "streaming"])
@pytest.mark.parametrize("name, args", CALLS)
def test_lazy_and_streaming(name, args, engine):
    method = getattr(pl.col("url").pct, name)
    query = frame().lazy().with_columns(method(*args, on_error="null").alias("out"))
    function = next(f for f in FUNCTIONS if f.name == name)
    # The output dtype is declared: the schema is known without running.
    assert query.collect_schema()["out"] == DTYPES[function.output]
    out = query.collect(engine=engine)
    assert out["out"].to_list() == expected(name, args)
    assert out["url"].to_list() == SAMPLE


@pytest.mark.parametrize("name, args", FAILING)
def test_keep_and_raise(name, args):
    method = getattr(pl.col("url").pct, name)
    out = frame().select(method(*args, on_error="keep"))["url"].to_list()
    assert out == expected(name, args, on_error="keep")
    with pytest.raises(ValueError, match="at index 2"):  # polars raises a UnicodeError's message as its base class
        frame().select(method(*args))


def test_select_filter_group_by():
    df = frame()
    valid = df.filter(pl.col("url").pct.check().is_null())
    assert valid["url"].to_list() == [u for u, c in zip(SAMPLE, expected("check", ())) if c is None]
    grouped = df.group_by("group", maintain_order=True).agg(pl.col("url").pct.quote(""))
    quoted = expected("quote", ("",))
    assert grouped["url"].to_list() == [quoted[0::2], quoted[1::2]]
    picked = df.select(pl.col("url").pct.query_param("x"), pl.col("url").pct.normalize().alias("n"))
    assert picked["url"].to_list() == expected("query_param", ("x",))
    assert picked["n"].to_list() == expected("normalize", ())


def test_series_namespace_and_name():
    series = pl.Series("links", SAMPLE)
    out = series.pct.unquote("utf-8", "strict", on_error="null")
    assert out.name == "links" and out.to_list() == expected("unquote", ("utf-8", "strict"))


def test_categorical_in_string_out():
    df = pl.DataFrame({"url": pl.Series(SAMPLE, dtype=pl.Categorical)})
    out = df.lazy().select(pl.col("url").pct.quote("")).collect()
    assert out["url"].dtype == pl.String
    assert out["url"].to_list() == expected("quote", ("",))


def test_options_checked_where_the_call_is_written():
    with pytest.raises(ValueError, match="on_error"):
        pl.col("url").pct.quote(on_error="skip")
    with pytest.raises(LookupError):
        pl.col("url").pct.quote("", "no-such-codec")
    with pytest.raises(TypeError, match="unexpected option 'sfe'"):
        pl.col("url").pct.quote(sfe="")
    with pytest.raises(TypeError, match="missing the option 'name'"):
        pl.col("url").pct.query_param()
    with pytest.raises(TypeError, match="twice"):
        pl.col("url").pct.quote("", safe="")
    with pytest.raises(TypeError, match="takes 3 options"):
        pl.col("url").pct.quote("", None, None, None)


def _join_many(values, base, threads=None, on_error="raise"):
    """A batch function of two columns, as a table entry with an option of
    kind "column" has (the base of a reference)."""
    if isinstance(values, list):
        return []
    if isinstance(base, str):
        base = [base] * len(values)
    return pl.Series(values.name, [None if v is None else b + v for v, b in zip(values, base)])


def test_an_option_of_kind_column():
    join = Function("join", _join_many, None, (Option("base", "column", REQUIRED),), "string")
    method = pctcodec_polars._expr_method(join)
    df = pl.DataFrame({"ref": ["a", None, "c"], "base": ["x/", "y/", "z/"]})
    namespace = pctcodec_polars.ExprNamespace(pl.col("ref"))
    assert df.lazy().select(method(namespace, pl.col("base"))).collect()["ref"].to_list() == ["x/a", None, "z/c"]
    assert df.select(method(namespace, base="q/"))["ref"].to_list() == ["q/a", None, "q/c"]


def test_column_handed_over_in_place(monkeypatch):
    pa = pytest.importorskip("pyarrow")
    import pctcodec.batch

    series = pl.Series("url", ["http://example.com/" + "x" * 20 + str(i) for i in range(50)])
    own = [b.address for b in pa.chunked_array(series).chunk(0).buffers() if b is not None]
    seen, rows = [], []
    real = pctcodec.batch._many_arrow

    def spy(source, *args):
        if not isinstance(source, tuple):  # a stream capsule: read it as pyarrow would
            stream = pa.ChunkedArray._import_from_c_capsule(source)
            seen.extend([b.address for b in chunk.buffers() if b is not None] for chunk in stream.chunks)
            rows.append(len(stream))
            source = stream.__arrow_c_stream__()
        return real(source, *args)

    monkeypatch.setattr(pctcodec.batch, "_many_arrow", spy)
    out = pl.DataFrame({"url": series}).lazy().select(pl.col("url").pct.quote("")).collect()
    assert out["url"].to_list() == expected("quote", ("",), series.to_list())
    # polars' string-view buffers themselves, not a copy (polars may cut
    # the column into slices of them for an elementwise function)
    assert sum(rows) == len(series) and seen and all(addresses == own for addresses in seen)

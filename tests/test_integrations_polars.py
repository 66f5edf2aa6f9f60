"""The polars namespace (pctcodec.integrations.polars): every batch function
in eager, lazy and streaming queries, against the batch function on Arrow."""
import inspect

import pytest

pl = pytest.importorskip("polars")
pa = pytest.importorskip("pyarrow")
pctcodec_polars = pytest.importorskip("pctcodec.integrations.polars")

import pctcodec  # noqa: E402
from pctcodec.integrations._functions import FUNCTIONS, output_type  # noqa: E402

from _integration_cases import BASES, BY_NAME, CALLS, FAILING, SAMPLE, expected, resolve_with_bases  # noqa: E402


def frame():
    return pl.DataFrame({"url": SAMPLE, "group": [1, 2, 1, 2, 1], "base": BASES})


def test_every_function_is_a_method_with_its_signature():
    for function in FUNCTIONS:
        for namespace in (pl.col("url").pct, pl.Series(["a"]).pct, pctcodec_polars.pct(pl.col("u"))):
            method = getattr(namespace, function.name)
            want = [p for p in function.signature.parameters.values() if p.name != function.column]
            assert list(inspect.signature(method).parameters.values()) == want
        assert function.batch.__name__ in getattr(pctcodec_polars.ExprNamespace, function.name).__doc__


@pytest.mark.parametrize("engine", ["in-memory", "streaming"])
@pytest.mark.parametrize("name, kwargs", CALLS)
def test_lazy_and_streaming(name, kwargs, engine):
    method = getattr(pl.col("url").pct, name)
    query = frame().lazy().with_columns(method(**kwargs, on_error="null").alias("out"))
    # The output dtype is declared: the schema is known without running.
    typ = output_type(BY_NAME[name], kwargs)
    assert query.collect_schema()["out"] == pl.Series(pa.array([], type=typ)).dtype
    out = query.collect(engine=engine)
    assert out["out"].to_list() == expected(name, kwargs)
    assert out["url"].to_list() == SAMPLE


@pytest.mark.parametrize("name, kwargs", FAILING)
def test_keep_and_raise(name, kwargs):
    method = getattr(pl.col("url").pct, name)
    out = frame().select(method(**kwargs, on_error="keep"))["url"].to_list()
    assert out == expected(name, kwargs, on_error="keep")
    with pytest.raises(ValueError, match="at index 2"):  # polars raises a UnicodeError's message as its base class
        frame().select(method(**kwargs))


@pytest.mark.parametrize("call, bad, cls", [
    (lambda: pl.col("u").pct.domain_parts(), "http://a b/", "HostError"),
    (lambda: pl.col("u").pct.url_href(), "http://a:99999/", "URLParseError"),
    (lambda: pl.col("b").pct.resolve(pl.col("u")), "no-scheme", "ResolveError"),
    (lambda: pl.col("u").pct.normalize(strict_idna=True), "http://bad\u00a0h/", "PercentEncodingError"),
])
def test_an_error_with_a_position_arrives_as_a_value_error_naming_its_class(call, bad, cls):
    # (docs/integrations.md: polars raises an error anew from its message,
    # which these classes cannot be built from)
    df = pl.DataFrame({"u": ["http://ok.com/", bad], "b": ["a", "b"]})
    with pytest.raises(ValueError, match=r"^%s: .*index 1" % cls) as info:
        df.select(call())
    assert type(info.value) is ValueError


def test_rejects_name_the_row_of_the_column():
    rejects = []
    out = frame().lazy().select(pl.col("url").pct.unquote(errors="strict", on_error="null", rejects=rejects))
    assert rejects == []  # nothing runs before collect
    out.collect(engine="streaming")
    assert [(r.index, r.value) for r in rejects] == [(2, SAMPLE[2])]
    assert isinstance(rejects[0].error, UnicodeDecodeError)


def test_select_filter_group_by():
    df = frame()
    valid = df.filter(pl.col("url").pct.check().is_null())
    assert valid["url"].to_list() == [u for u, c in zip(SAMPLE, expected("check", {})) if c is None]
    grouped = df.group_by("group", maintain_order=True).agg(pl.col("url").pct.quote(""))
    quoted = expected("quote", {"safe": ""})
    assert grouped["url"].to_list() == [quoted[0::2], quoted[1::2]]


def test_records_are_structs_and_lists():
    df = frame().select(pl.col("url").pct.split().alias("parts"), pl.col("url").pct.parse_query().alias("q"),
                        pl.col("url").pct.query_params(["x", "q"]).alias("p"))
    assert df["parts"].struct.field("host").to_list() == [p and p["host"] for p in expected("split", {})]
    assert df.schema["p"] == pl.Struct({"x": pl.String, "q": pl.String})
    assert df.schema["q"] == pl.List(pl.Struct({"name": pl.String, "value": pl.String}))


def test_a_second_column():
    df = frame()
    out = df.lazy().select(pl.col("url").pct.resolve(pl.col("base"), on_error="null")).collect()
    assert out["url"].to_list() == resolve_with_bases()
    one = df.select(pl.col("url").pct.resolve("http://base/dir/", on_error="null"))
    assert one["url"].to_list() == expected("resolve", {"base": "http://base/dir/"})
    series = pl.Series("url", SAMPLE).pct.resolve(pl.Series(BASES), on_error="null")
    assert series.name == "url" and series.to_list() == resolve_with_bases()


def test_base_none_is_no_second_column():
    df = pl.DataFrame({"u": ["http://a/x", "http://b/"]})
    out = df.select(pl.col("u").pct.url_href(base=None))
    assert out["u"].to_list() == ["http://a/x", "http://b/"]
    assert pl.Series(["http://a/x"]).pct.url_href(None).to_list() == ["http://a/x"]


def test_series_namespace_and_name():
    series = pl.Series("links", SAMPLE)
    out = series.pct.unquote("utf-8", "strict", on_error="null")
    assert out.name == "links" and out.to_list() == expected("unquote", {"errors": "strict"})


def test_categorical_in_string_out():
    df = pl.DataFrame({"url": pl.Series(SAMPLE, dtype=pl.Categorical)})
    out = df.lazy().select(pl.col("url").pct.quote("")).collect()
    assert out["url"].dtype == pl.String
    assert out["url"].to_list() == expected("quote", {"safe": ""})


def test_through_arrow_not_python_objects(monkeypatch):
    def no(*args, **kwargs):
        raise AssertionError("a column went through Python objects")

    monkeypatch.setattr(pl.Series, "to_list", no)
    monkeypatch.setattr(pctcodec.batch, "_map_list", no)
    out = frame().select(pl.col("url").pct.resolve(pl.col("base"), on_error="null"),
                         pl.col("url").pct.quote("").alias("q"))
    assert out["q"].to_arrow().to_pylist() == expected("quote", {"safe": ""})


def test_options_checked_where_the_call_is_written():
    with pytest.raises(ValueError, match="on_error"):
        pl.col("url").pct.quote(on_error="skip")
    with pytest.raises(LookupError):
        pl.col("url").pct.quote("", "no-such-codec")
    with pytest.raises(TypeError, match="sfe"):
        pl.col("url").pct.quote(sfe="")
    with pytest.raises(TypeError, match="name"):
        pl.col("url").pct.query_param()
    with pytest.raises(TypeError, match="multiple values"):
        pl.col("url").pct.quote("", safe="")
    with pytest.raises(TypeError, match="too many"):
        pl.col("url").pct.quote("", None, None, None)
    with pytest.raises(TypeError):
        pctcodec_polars.pct(["a"])

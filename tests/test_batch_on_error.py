"""on_error="raise" | "null" | "keep" and rejects= on every batch function:
a row whose single-value call raises gets None (null) or its input (keep),
the run goes on, and each failed row is reported once, in row order, with
its index, value and exception. The same on lists, every Arrow string type,
pandas, polars and every thread count. Argument errors are raised before
any row and never blamed on one."""
import pytest

import pctcodec
from pctcodec import batch
from _batch_cases import engines

pa = pytest.importorskip("pyarrow")


@pytest.fixture(autouse=True, scope="module", params=["c", "python"])
def engine(request):
    yield from engines(request.param)


# (batch function, keyword options, single-value function, values with
# failing rows in them): each failing row fails on a different path of the
# C engine (a Python-only encoding, IDNA, malformed UTF-8 after unquoting).
# A host with no ASCII form fails only with strict_idna=True.
BAD_IDNA = "http://ex\u00e4mple\u00a0.com/x"
OPS = [
    (pctcodec.quote_many, {"encoding": "ascii"}, lambda s: pctcodec.quote(s, encoding="ascii"),
     ["a b", "caf\u00e9", None, "x/y", "\u00e9\u00e9", ""]),
    (pctcodec.quote_plus_many, {"encoding": "ascii"},
     lambda s: pctcodec.quote_plus(s, encoding="ascii"), ["a b", "\u00e9", None, "c"]),
    (pctcodec.unquote_many, {"errors": "strict"}, lambda s: pctcodec.unquote(s, errors="strict"),
     ["%41", "%ff", None, "b%20c", "%C3%A9%C3"]),
    (pctcodec.unquote_plus_many, {"errors": "strict"},
     lambda s: pctcodec.unquote_plus(s, errors="strict"), ["a+b", "%fe+", None]),
    (pctcodec.normalize_many, {"strict_idna": True}, lambda s: pctcodec.normalize(s, strict_idna=True),
     ["HTTP://A/b/../c", BAD_IDNA, None, "http://b\u00fccher.de/", BAD_IDNA]),
]
OP_IDS = [op[0].__name__ for op in OPS]


def expected(func, values, on_error):
    """The per-item results and the (index, value, exception class) of the rows that fail."""
    out, failed = [], []
    for index, value in enumerate(values):
        if value is None:
            out.append(None)
            continue
        try:
            out.append(func(value))
        except Exception as exc:
            failed.append((index, value, type(exc)))
            out.append(value if on_error == "keep" else None)
    return out, failed


def as_list(result):
    if isinstance(result, list):
        return result
    if hasattr(result, "to_pylist"):
        return result.to_pylist()
    return [None if _missing(v) else v for v in result.tolist()]


def _missing(v):
    import pandas as pd

    return v is None or v is pd.NA or (isinstance(v, float) and v != v)


def assert_rejects(rejects, failed):
    assert [(r.index, r.value, type(r.error)) for r in rejects] == failed
    for r in rejects:
        assert isinstance(r, pctcodec.Reject)
        assert str(r.error)


@pytest.mark.parametrize("on_error", ["null", "keep"])
@pytest.mark.parametrize("many, kwargs, one, values", OPS, ids=OP_IDS)
def test_list(many, kwargs, one, values, on_error):
    want, failed = expected(one, values, on_error)
    assert failed  # each case has a failing row
    rejects = []
    assert many(values, **kwargs, on_error=on_error, rejects=rejects) == want
    assert_rejects(rejects, failed)
    assert many(tuple(values), **kwargs, on_error=on_error) == want
    assert many(iter(values), **kwargs, on_error=on_error) == want


@pytest.mark.parametrize("many, kwargs, one, values", OPS, ids=OP_IDS)
def test_raise_is_the_default(many, kwargs, one, values):
    _, failed = expected(one, values, "raise")
    rejects = []
    with pytest.raises(failed[0][2]) as info:
        many(values, **kwargs, rejects=rejects)
    assert info.value.index == failed[0][0]
    assert rejects == []


ARROW_TYPES = ["string", "large_string", "string_view"]


@pytest.mark.parametrize("threads", [1, 2, 3, None])
@pytest.mark.parametrize("type_name", ARROW_TYPES)
@pytest.mark.parametrize("on_error", ["null", "keep"])
@pytest.mark.parametrize("many, kwargs, one, values", OPS, ids=OP_IDS)
def test_arrow(many, kwargs, one, values, on_error, type_name, threads):
    type_ = getattr(pa, type_name, None)
    if type_ is None:
        pytest.skip(f"pyarrow has no {type_name}")
    values = values * 5  # more rows than threads: failures in several pieces
    want, failed = expected(one, values, on_error)
    rejects = []
    out = many(pa.array(values, type_()), **kwargs, on_error=on_error, rejects=rejects,
               threads=threads)
    assert out.type == type_()
    assert out.to_pylist() == want
    assert_rejects(rejects, failed)
    # chunked: indices run over the whole column
    rejects = []
    chunked = pa.chunked_array([values[:7], values[7:]], type_())
    out = many(chunked, **kwargs, on_error=on_error, rejects=rejects, threads=threads)
    assert isinstance(out, pa.ChunkedArray)
    assert out.to_pylist() == want
    assert_rejects(rejects, failed)


def test_unstorable_result_is_a_row_failure():
    # surrogateescape gives a lone surrogate, which Arrow cannot hold
    values = ["%41", "%ff", "%42"]
    rejects = []
    out = pctcodec.unquote_many(pa.array(values), errors="surrogateescape", on_error="keep",
                                rejects=rejects)
    assert out.to_pylist() == ["A", "%ff", "B"]
    assert [(r.index, type(r.error)) for r in rejects] == [(1, UnicodeEncodeError)]


def test_non_str_values_are_row_failures():
    rejects = []
    out = pctcodec.quote_many(["a b", 5, b"c", None], on_error="keep", rejects=rejects)
    assert out == ["a%20b", 5, b"c", None]
    assert [(r.index, r.value, type(r.error)) for r in rejects] == [(1, 5, TypeError),
                                                                    (2, b"c", TypeError)]
    assert pctcodec.quote_many(["a b", 5], on_error="null") == ["a%20b", None]


def test_check_many_null():
    rejects = []
    assert pctcodec.check_many(["http://a/", 5, "a b"], on_error="null", rejects=rejects) == [None, None, 1]
    assert [r.index for r in rejects] == [1]


@pytest.mark.parametrize("on_error", ["null", "keep"])
@pytest.mark.parametrize("many, kwargs, one, values", OPS, ids=OP_IDS)
def test_pandas(many, kwargs, one, values, on_error):
    pd = pytest.importorskip("pandas")
    want, failed = expected(one, values, on_error)
    dtypes = [object, "string[python]", "string[pyarrow]", pd.ArrowDtype(pa.string()), "category"]
    for dtype in dtypes:
        series = pd.Series(values, dtype=dtype, name="url", index=range(10, 10 + len(values)))
        rejects = []
        out = many(series, **kwargs, on_error=on_error, rejects=rejects)
        assert list(out.index) == list(series.index) and out.name == "url", dtype
        assert as_list(out) == want, dtype
        assert_rejects(rejects, failed)


@pytest.mark.parametrize("on_error", ["null", "keep"])
@pytest.mark.parametrize("many, kwargs, one, values", OPS, ids=OP_IDS)
def test_polars(many, kwargs, one, values, on_error):
    pl = pytest.importorskip("polars")
    want, failed = expected(one, values, on_error)
    for dtype in (pl.String, pl.Categorical):
        rejects = []
        out = many(pl.Series("url", values, dtype=dtype), **kwargs, on_error=on_error,
                   rejects=rejects)
        assert out.name == "url" and out.dtype == dtype
        assert out.to_list() == want
        assert_rejects(rejects, failed)


def test_rejects_can_be_any_appendable_and_make_a_dataframe():
    pd = pytest.importorskip("pandas")

    class Collector:
        def __init__(self):
            self.items = []

        def append(self, item):
            self.items.append(item)

    c = Collector()
    pctcodec.normalize_many(["http://a/", BAD_IDNA], strict_idna=True, on_error="null", rejects=c)
    frame = pd.DataFrame(c.items)
    assert list(frame.columns) == ["index", "value", "error"]
    assert frame["index"].tolist() == [1]


# ---------------------------------------------------------------- argument errors

def _all_calls(values, **kwargs):
    for many in (pctcodec.quote_many, pctcodec.quote_plus_many, pctcodec.unquote_many,
                 pctcodec.unquote_plus_many, pctcodec.requote_many, pctcodec.normalize_many,
                 pctcodec.check_many):
        yield many, lambda many=many: many(values, **kwargs)


@pytest.mark.parametrize("container", ["list", "arrow"])
@pytest.mark.parametrize("kwargs, error, message", [
    ({"on_error": "skip"}, ValueError, "on_error must be"),
    ({"on_error": None}, ValueError, "on_error must be"),
    ({"threads": 0}, ValueError, "threads must be between"),
    ({"threads": 2 ** 70}, ValueError, "threads must be between"),
    ({"threads": -1}, ValueError, "threads must be between"),
    ({"threads": 1.5}, TypeError, "threads must be an int"),
    ({"rejects": 5, "on_error": "null"}, TypeError, "rejects must be"),
])
def test_argument_errors_name_no_row(kwargs, error, message, container):
    values = ["\u00e9", BAD_IDNA]
    if container == "arrow":
        values = pa.array(values)
    for many, call in _all_calls(values, **kwargs):
        with pytest.raises(error, match=message) as info:
            call()
        assert not hasattr(info.value, "index"), many.__name__


def test_check_many_has_no_keep():
    with pytest.raises(ValueError, match="on_error='keep'"):
        pctcodec.check_many(["a"], on_error="keep")


def test_tables_are_rejected_clearly():
    pd = pytest.importorskip("pandas")
    pl = pytest.importorskip("polars")
    frames = [pd.DataFrame({"url": ["a b"]}), pl.DataFrame({"url": ["a b"]}),
              pa.table({"url": ["a b"]}), pa.record_batch({"url": ["a b"]})]
    for frame in frames:
        with pytest.raises(TypeError, match=r"one column \(such as df\['url'\]\)"):
            pctcodec.quote_many(frame)


def test_memory_error_is_never_a_row_failure():
    def boom(_exc):
        raise MemoryError

    import codecs

    codecs.register_error("pctcodec-test-memory", boom)
    with pytest.raises(MemoryError):
        pctcodec.quote_many(["\u00e9"], encoding="ascii", errors="pctcodec-test-memory",
                            on_error="null")
    with pytest.raises(MemoryError):
        pctcodec.quote_many(pa.array(["\u00e9"]), encoding="ascii", errors="pctcodec-test-memory",
                            on_error="null")


def test_reject_is_exported():
    assert pctcodec.Reject is batch.Reject
    assert pctcodec.Reject._fields == ("index", "value", "error")


@pytest.mark.parametrize("on_error", ["raise", "null", "keep"])
def test_category_not_str_names_its_row(on_error):
    # A category that is no str fails at each of its rows: each error names
    # its row, as for an object Series, not the category's place (0 here).
    pd = pytest.importorskip("pandas")
    for dtype in ("category", object):
        series = pd.Series([5, "a", 5, None, "b"], dtype=dtype)
        rejects = []
        if on_error == "raise":
            with pytest.raises(TypeError, match=r"^quote_many\(\) value at index 0 must"):
                pctcodec.quote_many(series.iloc[::-1].reset_index(drop=True).iloc[2:])
            with pytest.raises(TypeError, match=r"value at index 2 must be str or None, not int$"):
                pctcodec.quote_many(series.iloc[::-1].reset_index(drop=True))
            continue
        pctcodec.quote_many(series, on_error=on_error, rejects=rejects)
        assert [(r.index, r.value, str(r.error)) for r in rejects] == [
            (row, 5, "quote_many() value at index %d must be str or None, not int" % row)
            for row in (0, 2)], dtype


@pytest.mark.parametrize("name", ["split_many", "parse_query_many", "query_params_many", "quote_many",
                                  "normalize_many", "registered_domain_many", "parse_url_many"])
def test_a_value_that_is_no_str_fails_alike_in_every_function(name):
    """Its TypeError names the index in its message; raised, it has the
    index attribute every raised row error has; in rejects (whose Reject
    holds the index) it has no attribute of its own, in every function."""
    func = getattr(pctcodec, name)
    args = (["a"],) if name == "query_params_many" else ()
    rejects = []
    func(["http://a/?a=1", 5], *args, on_error="null", rejects=rejects)
    (reject,) = rejects
    assert type(reject.error) is TypeError and "at index 1" in str(reject.error)
    assert vars(reject.error) == {}
    with pytest.raises(TypeError) as raised:
        func(["http://a/?a=1", 5], *args)
    assert raised.value.index == 1


@pytest.mark.parametrize("call", [
    lambda v, **k: pctcodec.split_many(v, **k),
    lambda v, **k: pctcodec.query_params_many(v, ["a"], **k),
])
def test_keep_on_record_outputs(call):
    # "keep" gives a list's failed row its input; a frame (or an Arrow
    # struct) has no field for it: the row is missing in every column, as
    # under "null" (docs/columns.md, Dirty data)
    pd = pytest.importorskip("pandas")
    values = ["http://h/?a=1", 7]
    assert call(values, on_error="keep")[1] == 7
    for on_error in ("keep", "null"):
        rejects = []
        frame = call(pd.Series(values, dtype=object), on_error=on_error, rejects=rejects)
        assert frame.iloc[1].isna().all() and not frame.iloc[0].isna().all(), on_error
        assert [(r.index, r.value) for r in rejects] == [(1, 7)]

"""parse_query, query_params and their column forms: against the model of
tests/_canon_reference.py and against parse_qsl(urlsplit(u).query,
keep_blank_values=True) of the running interpreter where urlsplit finds the
same query; the column forms equal to loops of the single calls on every
input kind (lists, the Arrow string types, chunked, sliced, pandas, polars),
kernel and thread count; clean_query's ignore_case and html_amp."""
import sys
from urllib.parse import parse_qsl, urlsplit

import pytest
from hypothesis import assume, example, given, settings
from hypothesis import strategies as st

import _canon_reference as ref
import _query_reference as qref
import pctcodec
from _child import run_python
from _profiles import examples
from pctcodec import (TRACKING_PARAMS, PercentEncodingError, clean_query, parse_query,
                      parse_query_long, parse_query_many, query_params, query_params_many)

PIECES = ["?", "#", "&", "&&", "=", ";", "+", "%", "%2", "%zz", "%3D", "%26", "%2B", "%20",
          "%C3%A9", "%C3", "%E2%82", "%FF", "a", "b", "A", "utm_", "x", "\u00e9", "\U0001f600",
          "amp;", "&amp;", "/", "http://h/p", " ", "\t"]
uris = st.lists(st.sampled_from(PIECES), max_size=14).map("".join)
names = st.lists(st.sampled_from(["a", "b", "A", "x", " ", "+", "\u00e9", "=", ""]), max_size=3).map("".join)
FLAGS = [{}, {"keep_plus": True}, {"html_amp": True}, {"keep_plus": True, "html_amp": True}]


@pytest.mark.parametrize("flags", FLAGS)
@given(uris)
@example("http://h/?a=1&b&a=x+y%21#f")
@example("?amp;a=1&amp;amp;b")
def test_parse_query_matches_model(flags, uri):
    assert parse_query(uri, **flags) == ref.parse_query(uri, **flags)


@given(uris)
def test_parse_query_matches_parse_qsl(uri):
    # where urlsplit reads the same query: no tab, newline or surrounding
    # space it would remove first, no bracket it would reject
    assume(not any(c in uri for c in "\t\n\r[]") and uri == uri.strip())
    try:
        query = urlsplit(uri).query
    except ValueError:
        return
    assume(query == (qref.split_query(uri)[1] or ""))
    assert parse_query(uri) == parse_qsl(query, keep_blank_values=True)


@pytest.mark.parametrize("flags", FLAGS[:2])
@given(uris, st.lists(names, min_size=1, max_size=3), st.booleans())
def test_query_params_matches_model(flags, uri, wanted, all):
    got = query_params(uri, wanted, all=all, **flags)
    assert got == ref.query_params(uri, list(dict.fromkeys(wanted)), all=all, **flags)
    assert list(got) == list(dict.fromkeys(wanted))


@given(uris, st.lists(st.sampled_from(["a*", "A", "utm_*", "[ab]", "X"]), max_size=3),
       st.booleans(), st.booleans())
@example("?UTM_source=1&Fbclid=2&q", ["utm_*", "fbclid"], True, False)
@example("?a=1&amp;amp;b=2", ["b"], False, True)
def test_clean_query_ignore_case_and_html_amp(uri, drop, ignore_case, html_amp):
    got = clean_query(uri, drop=drop, ignore_case=ignore_case, html_amp=html_amp)
    assert got == qref.clean_query(uri, drop, ignore_case=ignore_case, html_amp=html_amp)
    assert clean_query(got, drop=drop, ignore_case=ignore_case, html_amp=html_amp) == got


def test_tracking_params_case_insensitive_by_default():
    u = "http://h/?UTM_SOURCE=x&Fbclid=1&GCLID=2&q=1"
    assert clean_query(u, drop=TRACKING_PARAMS) == "http://h/?q=1"
    assert clean_query(u, drop=list(TRACKING_PARAMS)) == u  # other patterns: as written
    assert clean_query(u, drop=TRACKING_PARAMS, ignore_case=False) == u
    assert pctcodec.clean_query_many([u], drop=TRACKING_PARAMS) == ["http://h/?q=1"]


def test_errors():
    with pytest.raises(TypeError):
        parse_query(b"?a=1")
    with pytest.raises(PercentEncodingError):
        parse_query("?a=\ud800")
    with pytest.raises(TypeError):
        query_params("?a", [5])
    with pytest.raises(ValueError):
        query_params_many(["?a"], [])
    with pytest.raises(TypeError, match="index 1"):
        parse_query_many(["?a", 5])
    with pytest.raises(TypeError):
        parse_query_many("?a")
    raw = []
    assert parse_query_many(["?a", 5], on_error="keep", rejects=raw) == [[("a", "")], 5]
    assert [r.index for r in raw] == [1]


# ---------------------------------------------------------------- columns

columns = st.lists(st.one_of(st.none(), uris), max_size=20)


def _pairs_loop(values, **flags):
    return [None if v is None else parse_query(v, **flags) for v in values]


def _as_tuples(rows):
    return [None if r is None else [(d["name"], d["value"]) for d in r] for r in rows]


@pytest.mark.parametrize("flags", FLAGS)
@given(columns)
def test_parse_query_many_list(flags, values):
    want = _pairs_loop(values, **flags)
    assert parse_query_many(values, **flags) == want
    assert parse_query_many(iter(values), **flags) == want
    long = [(i, k, v) for i, r in enumerate(want) if r for k, v in r]
    assert parse_query_long(values, **flags) == long


def _arrow_types(pa):
    return [pa.string(), pa.large_string()] + ([pa.string_view()] if hasattr(pa, "string_view") else [])


@pytest.mark.parametrize("flags", FLAGS[:3])
@settings(max_examples=examples(300))
@given(values=columns, offset=st.integers(0, 4))
def test_parse_query_many_arrow(flags, values, offset):
    pa = pytest.importorskip("pyarrow")
    want = _pairs_loop(values, **flags)
    k = min(offset, len(values))
    for typ in _arrow_types(pa):
        arr = pa.array(values, type=typ)
        out = parse_query_many(arr, **flags)
        assert out.type == pa.list_(pa.struct([("name", typ), ("value", typ)]))
        assert _as_tuples(out.to_pylist()) == want
        assert _as_tuples(parse_query_many(arr.slice(k), **flags).to_pylist()) == want[k:]
        chunked = parse_query_many(pa.chunked_array([arr, arr[:0], arr.slice(k)], type=typ), **flags)
        assert isinstance(chunked, pa.ChunkedArray)
        assert _as_tuples(chunked.to_pylist()) == want + want[k:]
        table = parse_query_long(arr, **flags)
        assert table.column_names == ["row", "name", "value"]
        assert list(zip(*(table.column(c).to_pylist() for c in table.column_names))) == \
            [(i, n, v) for i, r in enumerate(want) if r for n, v in r]


@pytest.mark.parametrize("flags", FLAGS)
@settings(max_examples=examples(300))
@given(values=columns, wanted=st.lists(names, min_size=1, max_size=3), all=st.booleans())
@example(["http://h/?a+b=1"], ["a+b"], False)
def test_query_params_many(flags, values, wanted, all):
    want = [None if v is None else query_params(v, wanted, all=all, **flags) for v in values]
    assert query_params_many(values, wanted, all=all, **flags) == want
    pa = pytest.importorskip("pyarrow")
    for typ in _arrow_types(pa):
        out = query_params_many(pa.array(values, type=typ), wanted, all=all, **flags)
        assert out.to_pylist() == want
        assert list(out.type.names) == list(dict.fromkeys(wanted))


def test_query_params_many_keep_plus_names():
    # the names are matched as the values are decoded: '+' kept is '+'
    url = "http://h/?a+b=1&a%20b=2"
    assert query_params(url, ["a+b", "a b"], keep_plus=True) == {"a+b": "1", "a b": "2"}
    want = [{"a+b": "1", "a b": "2"}]
    assert query_params_many([url], ["a+b", "a b"], keep_plus=True) == want
    pa = pytest.importorskip("pyarrow")
    assert query_params_many(pa.array([url]), ["a+b", "a b"], keep_plus=True).to_pylist() == want
    assert query_params_many(pa.array([url]), ["a+b", "a b"]).to_pylist() == [{"a+b": None,
                                                                               "a b": "1"}]
    pl = pytest.importorskip("polars")
    assert query_params_many(pl.Series([url]), ["a+b"], keep_plus=True).to_dicts() == \
        [{"a+b": "1"}]


def test_pandas_polars():
    pd = pytest.importorskip("pandas")
    values = ["http://h/?a=1&b=2&a=3", None, "http://h/", "?b=%C3%A9"]
    want = _pairs_loop(values)
    s = pd.Series(values, index=[3, 4, 5, 6], name="u", dtype=object)
    out = parse_query_many(s)
    assert out.tolist() == want and list(out.index) == [3, 4, 5, 6] and out.name == "u"
    frame = query_params_many(s, ["a", "b"])
    assert list(frame.columns) == ["a", "b"] and list(frame.index) == [3, 4, 5, 6]
    assert frame["a"].tolist() == ["1", None, None, None]
    long = parse_query_long(s)
    assert list(long.columns) == ["row", "name", "value"] and long["row"].tolist() == [0, 0, 0, 3]
    pytest.importorskip("pyarrow")
    arrow_backed = s.astype("string[pyarrow]")
    out = parse_query_many(arrow_backed)
    assert [None if v is None or v is pd.NA else [(d["name"], d["value"]) for d in v]
            for v in out.tolist()] == want
    frame = query_params_many(arrow_backed, "a", all=True)
    assert [list(v) if v is not None and v is not pd.NA else None
            for v in frame["a"].tolist()] == [["1", "3"], None, [], []]
    pl = pytest.importorskip("polars")
    ps = pl.Series("u", values)
    assert _as_tuples(parse_query_many(ps).to_list()) == want
    assert query_params_many(ps, ["a", "b"]).columns == ["a", "b"]
    assert parse_query_long(ps).height == 4


def test_malformed_arrow_offsets():
    pa = pytest.importorskip("pyarrow")
    good = pa.array(["?a=1", "?b"])
    # the second value ends before it starts
    offsets = pa.py_buffer(b"\x00\x00\x00\x00\x04\x00\x00\x00\x02\x00\x00\x00")
    bad = pa.Array.from_buffers(pa.string(), 2, [None, offsets, good.buffers()[2]])
    for call in (parse_query_many, lambda a: query_params_many(a, "a")):
        with pytest.raises(ValueError, match="malformed"):
            call(bad)


CHILD = r'''
import sys, random
import pyarrow as pa
import pctcodec, pctcodec._pctcodec as ext
assert ext._kernel() == sys.argv[1]
rng = random.Random(7)
pieces = ["?", "&", "=", "+", "%41", "%C3%A9", "%FF", "a", "b", "http://H.com:80/", "/./", "#", "utm_x=1", " "]
rows = ["".join(rng.choice(pieces) for _ in range(rng.randrange(30))) for _ in range(3000)] + [None]
arr = pa.array(rows)
bad = 0
want = [None if r is None else pctcodec.parse_query(r) for r in rows]
got = [None if r is None else [(d["name"], d["value"]) for d in r] for r in pctcodec.parse_query_many(arr).to_pylist()]
bad += got != want
want = [None if r is None else pctcodec.canonicalize(r) for r in rows]
for threads in (1, 2, 3):
    bad += pctcodec.canonicalize_many(arr, threads=threads).to_pylist() != want
    bad += pctcodec.canonicalize_many(rows, threads=threads) != want
want = [None if r is None else pctcodec.query_params(r, ["a", "b"]) for r in rows]
bad += pctcodec.query_params_many(arr, ["a", "b"]).to_pylist() != want
print("done", bad)
'''


@pytest.mark.parametrize("kernel", pctcodec._pctcodec._kernels())
def test_every_kernel(kernel):
    pytest.importorskip("pyarrow")
    r = run_python(["-c", CHILD, kernel], extra_env={"PCTCODEC_KERNEL": kernel}, text=True)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip().splitlines()[-1] == "done 0", r.stdout + r.stderr

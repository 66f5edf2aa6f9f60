"""parse_url against the web-platform-tests URL vectors (urltestdata.json and
urltestdata-javascript-only.json, read from the test data beside the
repository, tests/_testdata.py): every vector, each getter, and every
vector that the Standard's parser rejects raising URLParseError; then
properties of the record over generated text."""
import pytest
from hypothesis import example, given
from hypothesis import strategies as st

import _strategies as strat
import _testdata
import pctcodec
from pctcodec import URL, URLParseError, parse_url

FILES = ("urltestdata.json", "urltestdata-javascript-only.json")


def _vectors(name):
    return [t for t in _testdata.load_json("wpt", name) or [] if isinstance(t, dict)]


def _params(name):
    return [pytest.param(t, id="%d:%s" % (i, ascii(t["input"])[:50]))
            for i, t in enumerate(_vectors(name))]


@pytest.mark.parametrize("name", FILES)
def test_vectors_present(name):
    if _testdata.path("wpt", name) is None:
        pytest.skip(_testdata.reason("wpt", name))
    vectors = _vectors(name)
    assert len(vectors) >= (850 if name == FILES[0] else 1)
    if name == FILES[0]:
        assert sum(bool(t.get("failure")) for t in vectors) >= 250


def _check(t):
    if t.get("failure"):
        with pytest.raises(URLParseError):
            parse_url(t["input"], t.get("base"))
        return
    u = parse_url(t["input"], t.get("base"))
    want = tuple(t.get(f, getattr(u, f)) for f in URL._fields)
    assert u == want
    assert t["href"] == u.href  # every success vector has an href


@_testdata.needs("wpt", FILES[0])
@pytest.mark.parametrize("t", _params(FILES[0]))
def test_urltestdata(t):
    _check(t)


@_testdata.needs("wpt", FILES[1])
@pytest.mark.parametrize("t", _params(FILES[1]))
def test_urltestdata_javascript_only(t):
    _check(t)


@_testdata.needs("wpt", FILES[0])
def test_vectors_as_a_column():
    """The batch forms give each vector's href (or reject it) as parse_url does."""
    vectors = [t for t in _vectors(FILES[0]) if t.get("base") is None]
    values = [t["input"] for t in vectors]
    rejects = []
    hrefs = pctcodec.url_href_many(values, on_error="null", rejects=rejects)
    assert {r.index for r in rejects} == {i for i, t in enumerate(vectors) if t.get("failure")}
    for t, h in zip(vectors, hrefs):
        assert h == (None if t.get("failure") else t["href"])
    based = [t for t in _vectors(FILES[0]) if t.get("base") and not t.get("failure")]
    out = pctcodec.url_href_many([t["input"] for t in based], base=[t["base"] for t in based])
    assert out == [t["href"] for t in based]


# ---------------------------------------------------------------- properties

# Text with the pieces URL spellings are made of.
url_text = st.lists(
    st.one_of(
        st.sampled_from(["http:", "https:", "file:", "sc:", "blob:", "//", "/", "\\", "?", "#",
                         "@", ":", "[", "]", "::1", ".", "..", "%2e", "%", "0x7f", "127.1",
                         "\t", " ", "C|", "localhost", "xn--", "\uff0e", "\u00e9", "\u00ad"]),
        st.text(strat.URL_ALPHABET, max_size=6),
        st.text(strat.any_char, max_size=2),
    ),
    max_size=12,
).map("".join)


@given(url_text, st.one_of(st.none(), st.sampled_from(
    ["http://a/b/c?d#e", "file:///C:/x/y", "sc://h/p", "sc:opaque", "https://u:p@[::1]:81/"])))
@example("http:\\\\example.com\\a", None)
@example("web+demo:/.//not-a-host/", None)
@example("non-special:opaque  ?hi", None)
def test_href_is_a_fixed_point(value, base):
    try:
        u = parse_url(value, base)
    except URLParseError as exc:
        assert 0 <= exc.position <= len(value if not str(exc).startswith("invalid base") else base)
        return
    assert u.href.isascii()
    assert parse_url(u.href) == u
    assert parse_url(parse_url(u.href).href).href == u.href
    assert pctcodec.url_href_many([value], base=base) == [u.href]
    assert pctcodec.parse_url_many([value], base=base) == [u]


def test_record_is_immutable_and_a_base():
    u = parse_url("https://example.com/a/b")
    with pytest.raises(AttributeError):
        u.href = "x"  # type: ignore[misc]
    assert parse_url("c", u).href == "https://example.com/a/c"


def test_errors_name_the_position_and_reason():
    with pytest.raises(URLParseError) as info:
        parse_url(" \thttp://exa mple.com/")
    assert info.value.position == 12 and "no host may hold" in str(info.value)
    with pytest.raises(URLParseError) as info:
        parse_url("x", base="\u00e9:/ /[")
    assert str(info.value).startswith("invalid base URL") and info.value.position == 0
    with pytest.raises(URLParseError) as info:
        parse_url("\u00e9\u00e9 http://h:1x/")
    assert info.value.reason == "no scheme, and no base URL to resolve it against"
    # each batch function names itself
    for func in (pctcodec.url_href_many, pctcodec.parse_url_many):
        with pytest.raises(TypeError, match=r"^%s\(\) value at index 1 " % func.__name__):
            func(["http://a/", 5])
        with pytest.raises(ValueError, match=r"^%s\(\) needs one base per reference" % func.__name__):
            func(["a"], ["b", "c"])
    with pytest.raises(URLParseError) as info:
        parse_url("z", base="foo:opaque")
    assert info.value.reason == ("no scheme, and the base URL has an opaque path (only a "
                                 "fragment resolves against it)") and info.value.position == 0
    assert parse_url("#z", base="foo:opaque").href == "foo:opaque#z"
    with pytest.raises(URLParseError) as info:
        parse_url("http://\u00e9\u00e9.com:1x/")
    assert info.value.position == 15  # in code points, not UTF-8 bytes (17)
    with pytest.raises(TypeError):
        parse_url(b"http://h/")  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        parse_url("x", base=1)  # type: ignore[arg-type]
    assert isinstance(URLParseError("r", 1), ValueError)


SAMPLE = ["HTTP://Example.COM:80/a/./b c?q=\u00e9#f", None, "http:\\\\x.org\\y", "", "%zz",
          "https:///github.com/x", "ht\ttp://0x7f.1/", "http://\u00e9x\uff0eorg/", "sc:opaque ?x"]


def _loop(values, base=None):
    out = []
    for v in values:
        try:
            out.append(None if v is None else parse_url(v, base))
        except URLParseError:
            out.append(None)
    return out


@pytest.mark.parametrize("base", [None, "http://h/a/"])
def test_batch_equals_the_loop_on_every_input_kind(base):
    pa = pytest.importorskip("pyarrow")
    pd = pytest.importorskip("pandas")
    pl = pytest.importorskip("polars")
    want = _loop(SAMPLE, base)
    hrefs = [None if u is None else u.href for u in want]
    assert pctcodec.url_href_many(SAMPLE, base, on_error="null") == hrefs
    assert pctcodec.parse_url_many(SAMPLE, base, on_error="null") == want
    for typ in (pa.string(), pa.large_string()):
        arr = pa.array(SAMPLE, typ)
        out = pctcodec.url_href_many(arr, base, on_error="null")
        assert out.type == typ and out.to_pylist() == hrefs
        chunked = pa.chunked_array([arr[:4], arr[4:]])
        assert pctcodec.url_href_many(chunked, base, on_error="null").to_pylist() == hrefs
        struct = pctcodec.parse_url_many(arr, base, on_error="null")
        assert struct.to_pylist() == [None if u is None else u._asdict() for u in want]
    series = pd.Series(SAMPLE, index=range(10, 10 + len(SAMPLE)), dtype=object)
    frame = pctcodec.parse_url_many(series, base, on_error="null")
    assert list(frame.index) == list(series.index) and list(frame.columns) == list(URL._fields)
    assert [None if v is None else v for v in frame["href"].tolist()] == hrefs
    assert pctcodec.url_href_many(series, base, on_error="null").tolist() == hrefs
    pframe = pctcodec.parse_url_many(pl.Series("u", SAMPLE), base, on_error="null")
    assert pframe["href"].to_list() == hrefs and pframe.columns == list(URL._fields)
    # a base column, row by row (a missing base: a missing result)
    bases = [base] * len(SAMPLE)
    if base is None:
        assert pctcodec.url_href_many(SAMPLE, bases) == [None] * len(SAMPLE)
        return
    assert pctcodec.url_href_many(SAMPLE, bases, on_error="null") == hrefs
    assert pctcodec.url_href_many(pa.array(SAMPLE), pa.array(bases, pa.string()),
                                  on_error="null").to_pylist() == hrefs


def test_batch_errors():
    with pytest.raises(URLParseError) as info:
        pctcodec.url_href_many(["http://a/", "http://[::1/"])
    assert info.value.index == 1
    with pytest.raises(URLParseError):
        pctcodec.url_href_many(["x"], base="not a base")
    with pytest.raises(ValueError):
        pctcodec.parse_url_many(["http://a/"], fields=["nope"])
    with pytest.raises(TypeError):
        pctcodec.url_href_many("http://a/")
    # a lone surrogate, in a value or the base, is read as U+FFFD
    assert pctcodec.url_href_many(["x\ud800"], base="http://h/\udfff/") == \
        [parse_url("x\ud800", "http://h/\udfff/").href] == ["http://h/%EF%BF%BD/x%EF%BF%BD"]
    rejects = []
    keep = pctcodec.url_href_many(["%zz", "http://a"], on_error="keep", rejects=rejects)
    assert keep == ["%zz", "http://a/"] and [r.index for r in rejects] == [0]


def test_parse_url_many_fields_as_one_name():
    import pctcodec

    pa = pytest.importorskip("pyarrow")
    got = pctcodec.parse_url_many(pa.array(["http://a/x", None]), fields="hostname")
    assert got.to_pylist() == [{"hostname": "a"}, None]
    with pytest.raises(ValueError, match="no field"):
        pctcodec.parse_url_many(pa.array(["http://a/x"]), fields=[])
    with pytest.raises(ValueError, match="'href' twice"):  # a struct with two fields of one name
        pctcodec.parse_url_many(pa.array(["http://a/x"]), fields=["href", "host", "href"])


def test_str_subclass_is_read_by_its_text():
    """A str subclass (an Enum of URLs) is parsed by its text, as normalize
    reads it, not by what its __str__ says ('E.A')."""
    import enum

    class E(str, enum.Enum):
        A = "http://a.com/x"

    assert pctcodec.url_href(E.A) == "http://a.com/x"
    assert pctcodec.parse_url(E.A).href == "http://a.com/x"
    assert pctcodec.url_href("y", base=E.A) == "http://a.com/y"

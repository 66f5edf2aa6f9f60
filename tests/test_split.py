"""split() and split_many(): the components of URIs.

Differential against the RFC 3986 Appendix B model of tests/_uri_reference.py
(the RFC's regular expression, the scheme rule, the authority cut at its
last '@' and its port), and, where the rules agree, against
urllib.parse.urlsplit; the parts put back together give the input back;
split_many gives split() element by element on every kind of column.
"""
import pickle
import sys
import urllib.parse
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

import _diff
import _uri_reference as ref
from _strategies import texts, url_like

import pctcodec
from pctcodec import Reject, URIParts, split, split_many

ROOT = Path(__file__).resolve().parent.parent
REAL_URLS = [
    line
    for path in (ROOT / "benchmarks" / "urls_sample.txt", ROOT / "examples" / "urls.txt")
    for line in path.read_text(encoding="utf-8").splitlines()
]

FIELDS = ("scheme", "userinfo", "host", "port", "path", "query", "fragment")


def model(uri):
    """The seven parts by the model: Appendix B's regex and the authority."""
    p = ref.split(uri)
    userinfo = host = port = None
    if p.authority is not None:
        userinfo, host, port = ref.split_authority(p.authority)
    return (p.scheme, userinfo, host, port, p.path, p.query, p.fragment)


ADVERSARIAL = [
    "", "//", "///", "?#", "#?", "?", "#", ":", "::", "a:", "a:b", "A+1-.:x", "1a:b", "+a:b",
    "-:x", ".a:b", "a b:c", "a/b:c", "a?b:c", "a#b:c", "[::1", "[::1]", "//[::1", "//[::1]",
    "//[::1]:80", "//[::1]x", "//[::1]x:80", "//[::1]:80:90", "//[v1.x]:1", "//]h[:1",
    "http://u@h:p@x", "http://u:p@h:1/p?q#f", "http://@", "http://@:", "http://:@:",
    "http://h:", "http://h:80:90", "http://h?q", "http://h#f", "http://h/p?q?r#f#g",
    "mailto:a@b", "urn:isbn:0451450523", "file:///etc/passwd", "file://localhost/x",
    "//h:1", "/p:q", "./a:b", "HTTP://EXAMPLE.com:08/%7E", "http://例え.jp/引き出し?ü#é",
    "http://\u00e9x/\u00ff", "\u00e9:x", "h\U0001f600://x", "ht\ud800tp://h\udfff/p?\udc80#\udbff",
    "\ud800", "%41:b", "a%3Ab:c", " http://h", "http://h\t/\n", "\x00:a", "http:\\\\h\\p",
    "http://h%3A80/", "http://[%3A]/", "s://[::1%25eth0]:8/",
]


def check_one(s):
    parts = split(s)
    assert type(parts) is URIParts
    assert tuple(parts) == model(s), s
    assert parts.geturl() == s
    assert all(type(v) is str for v in parts if v is not None)
    assert type(parts.path) is str


@pytest.mark.parametrize("s", ADVERSARIAL)
def test_adversarial_against_model(s):
    check_one(s)


@given(texts)
def test_any_text_against_model(s):
    check_one(s)


@given(st.lists(st.sampled_from(["http", "a", ":", "//", "/", "@", "[", "]", ":8", "?", "#",
                                 "\u00e9", "\ud800", "%", "1", "+"]), max_size=14).map("".join))
def test_delimiter_soup_against_model(s):
    check_one(s)


def test_real_urls_against_model():
    assert len(REAL_URLS) > 5000
    for s in REAL_URLS:
        check_one(s)
    assert split_many(REAL_URLS) == [split(s) for s in REAL_URLS]


def test_large_rows():
    big = "https://user@host.example:8080/" + "a/" * 300_000 + "?" + "q=1&" * 100_000 + "#end"
    assert len(big) > 1_000_000
    parts = split(big)
    assert parts.geturl() == big and tuple(parts) == model(big)
    assert parts.query == "q=1&" * 100_000
    wide = "http://h/" + "\U0001f600" * 400_000 + "?\ud800"
    assert split(wide).query == "\ud800" and split(wide).geturl() == wide


def test_named_tuple():
    parts = split("https://user@example.com:8443/a%20b?q=1#top")
    assert parts == URIParts("https", "user", "example.com", "8443", "/a%20b", "q=1", "top")
    assert URIParts._fields == FIELDS
    assert parts.host == "example.com" and parts._replace(port=None).geturl() == \
        "https://user@example.com/a%20b?q=1#top"
    assert pickle.loads(pickle.dumps(parts)) == parts
    assert type(pickle.loads(pickle.dumps(parts))) is URIParts
    assert hash(parts) == hash(tuple(parts))
    assert pctcodec.split is split and "URIParts" in pctcodec.__all__


def test_absent_and_empty_differ():
    assert split("http://h/p").query is None and split("http://h/p?").query == ""
    assert split("http://h/p").fragment is None and split("http://h/p#").fragment == ""
    assert split("/p").host is None and split("///p").host == ""
    assert split("http://h/").port is None and split("http://h:/").port == ""
    assert split("http://h/").userinfo is None and split("http://@h/").userinfo == ""


def test_type_errors():
    for bad in (b"http://h", 5, None, bytearray(b"x")):
        with pytest.raises(TypeError, match="must be str"):
            split(bad)

    class S(str):
        pass

    assert split(S("http://h/p")) == split("http://h/p")
    assert type(split(S("http://h/p")).host) is str


# ---------------------------------------------------------------- urlsplit

def _urlsplit_agrees(s):
    """Where urllib.parse.urlsplit (3.9-3.13) follows Appendix B too: nothing
    it strips or removes (leading C0 controls and spaces; tab, CR, LF), no
    bracket in the authority (urlsplit validates IP literals), an ASCII
    authority (it checks the NFKC form of others), and a text before the first
    ':' that, made of scheme characters, starts with a letter (3.9 and 3.10
    take "1a:" as a scheme)."""
    if s[:1] and s[0] <= " " or any(c in s for c in "\t\r\n"):
        return False
    parts = split(s)
    authority = "" if parts.host is None else s.partition("//")[2]
    authority = authority.split("/")[0].split("?")[0].split("#")[0]
    if "[" in authority or "]" in authority or not authority.isascii():
        return False
    head, colon, _ = s.partition(":")
    if colon and head and all(c in urllib.parse.scheme_chars for c in head):
        return head[0].isascii() and head[0].isalpha()
    return True


def check_against_urlsplit(s):
    _diff.COUNT[0] += 1
    ours = split(s)
    theirs = urllib.parse.urlsplit(s)
    netloc = None
    if ours.host is not None:
        netloc = URIParts(None, ours.userinfo, ours.host, ours.port, "", None, None).geturl()[2:]
    assert theirs.scheme == (ours.scheme or "").lower(), s
    assert theirs.netloc == (netloc or ""), s
    assert (theirs.path, theirs.query, theirs.fragment) == \
        (ours.path, ours.query or "", ours.fragment or ""), s
    # .hostname lowercases the host up to its first '%' (taken for a zone id)
    host, percent, rest = (ours.host or "").partition("%")
    assert theirs.hostname == ((host.lower() + percent + rest) or None), s
    if ours.port is not None and ours.port.isdigit() and ours.port.isascii() \
            and int(ours.port) <= 65535:
        assert theirs.port == int(ours.port), s
    if ours.userinfo is not None:
        assert theirs.username == ours.userinfo.partition(":")[0], s


urlish = st.one_of(
    url_like,
    st.lists(st.sampled_from(["http", "HTTPS", "a1", "1a", "s+v", ":", "//", "/", "@", ":80",
                              ":x", "?", "#", "=", "&", "h.example", "u:p", "%41", "\u00e9",
                              " ", "."]), max_size=12).map("".join),
)


@given(urlish.filter(_urlsplit_agrees))
def test_against_urlsplit(s):
    check_against_urlsplit(s)


def test_real_urls_against_urlsplit():
    agreeing = [s for s in REAL_URLS if _urlsplit_agrees(s)]
    assert len(agreeing) > 0.9 * len(REAL_URLS)
    for s in agreeing:
        check_against_urlsplit(s)


@pytest.mark.parametrize("s, urlsplit_differs_by", [
    (" http://h/", "strips leading C0 controls and spaces"),
    ("ht\ttp://h/", "removes tab, CR and LF"),
    ("HTTP://h/", "lowercases the scheme"),
    ("http://[::1/", "raises ValueError('Invalid IPv6 URL')"),
])
def test_documented_differences(s, urlsplit_differs_by):
    ours = split(s)
    assert ours.geturl() == s
    try:
        theirs = urllib.parse.urlsplit(s)
    except ValueError:
        assert "raises" in urlsplit_differs_by
        return
    assert theirs.geturl() != s, urlsplit_differs_by


def test_digit_scheme_differs_before_3_11():
    # "1a:b": no scheme by RFC 3986 (nor by urlsplit from 3.11 on)
    assert split("1a:b").scheme is None
    assert urllib.parse.urlsplit("1a:b").scheme == ("1a" if sys.version_info < (3, 11) else "")


# ---------------------------------------------------------------- split_many

SAMPLE = REAL_URLS[:300] + [s for s in ADVERSARIAL if not any("\ud800" <= c <= "\udfff" for c in s)]
WITH_NULLS = [None if i % 7 == 3 else s for i, s in enumerate(SAMPLE)]


def expected_rows(values):
    return [None if v is None else split(v) for v in values]


def test_many_list_and_iterables():
    assert split_many(WITH_NULLS) == expected_rows(WITH_NULLS)
    assert split_many(tuple(WITH_NULLS)) == expected_rows(WITH_NULLS)
    assert split_many(iter(WITH_NULLS)) == expected_rows(WITH_NULLS)
    assert split_many([]) == []
    surrogates = ["a\ud800:b", "http://\udfff/\udc80?\ud800#x", "\ud800"]
    assert split_many(surrogates) == [split(s) for s in surrogates]


def test_many_errors():
    with pytest.raises(TypeError, match="index 2 must be str or None, not int") as info:
        split_many(["a", None, 5])
    assert info.value.index == 2
    with pytest.raises(TypeError, match="not a single str"):
        split_many("http://h/")
    rejects = []
    assert split_many(["a:b", 5, b"x"], on_error="null", rejects=rejects) == \
        [split("a:b"), None, None]
    assert [(r.index, r.value, type(r.error)) for r in rejects] == \
        [(1, 5, TypeError), (2, b"x", TypeError)]
    assert all(isinstance(r, Reject) for r in rejects)
    assert split_many(["a:b", 5], on_error="keep") == [split("a:b"), 5]
    with pytest.raises(ValueError, match="on_error"):
        split_many(["a"], on_error="skip")
    with pytest.raises(ValueError, match="threads"):
        split_many(["a"], threads=0)
    with pytest.raises(TypeError, match="rejects"):
        split_many(["a"], on_error="null", rejects=5)


def arrow_rows(out):
    return [None if r is None else URIParts(**r) for r in out.to_pylist()]


def pyarrow_and_type(typ):
    """pyarrow and its string type `typ`, or the test skipped."""
    pa = pytest.importorskip("pyarrow")
    if not hasattr(pa, typ):
        pytest.skip("no %s in this pyarrow" % typ)
    return pa, getattr(pa, typ)()


@pytest.mark.parametrize("typ", ["string", "large_string", "string_view"])
def test_many_arrow(typ):
    pa, arrow_type = pyarrow_and_type(typ)
    arr = pa.array(WITH_NULLS, arrow_type)
    out = split_many(arr)
    assert isinstance(out, pa.StructArray)
    assert out.type == pa.struct([pa.field(f, arrow_type) for f in FIELDS])
    assert arrow_rows(out) == expected_rows(WITH_NULLS)
    assert out.null_count == WITH_NULLS.count(None)
    out.validate(full=True)
    for start, stop in ((1, None), (5, 40), (13, 13)):
        part = arr.slice(start, None if stop is None else stop - start)
        assert arrow_rows(split_many(part)) == expected_rows(part.to_pylist())
    chunked = pa.chunked_array([arr.slice(0, 10), arr.slice(10, 0), arr.slice(10)], arrow_type)
    out = split_many(chunked)
    assert isinstance(out, pa.ChunkedArray) and out.num_chunks == 3
    assert arrow_rows(out) == expected_rows(WITH_NULLS)
    empty = split_many(pa.chunked_array([], arrow_type))
    assert len(empty) == 0 and empty.type == out.type


@pytest.mark.parametrize("typ", ["string", "large_string", "string_view"])
def test_many_arrow_big_columns_after_small_ones(typ):
    # Columns whose buffers are mapped ahead of the rows (tens of MB in all):
    # a big call after a small one (each child asked for at its last length
    # scaled up), children outgrowing that guess (their buffers moved while
    # mapped), and the same column warm (buffers from the pool) all give
    # what 1000-row chunks give, which the model tests check row by row.
    pa, arrow_type = pyarrow_and_type(typ)
    short = pa.array(["http://h/%d" % i for i in range(50)], arrow_type)
    rows = 250_000
    urls = pa.array(
        [None if i % 11 == 5 else
         "https://u%d:pw@host%d.example:%d/%s?q=%d&r=%s#frag%d"
         % (i, i % 977, 1000 + i % 5000, "seg/" * (i % 23), i, "x" * (i % 37), i)
         for i in range(rows)], arrow_type)

    def by_chunks(column):
        step = 1000
        parts = [split_many(column.slice(k, step)) for k in range(0, len(column), step)]
        return pa.concat_arrays(parts)

    expected = by_chunks(urls)
    split_many(short)
    for _ in range(2):  # first after a small call, then warm
        out = split_many(urls)
        out.validate(full=True)
        assert out.equals(expected)
    # each child asked for at its length above: the fragments outgrow theirs
    longer = pa.array([None if s is None else s + "/more" * 40 for s in urls.to_pylist()[:200_000]],
                      arrow_type)
    out = split_many(longer)
    out.validate(full=True)
    assert out.equals(by_chunks(longer))


def test_many_arrow_other_input():
    pa = pytest.importorskip("pyarrow")
    out = split_many(pa.nulls(3))
    assert out.to_pylist() == [None] * 3 and out.type.field("host").type == pa.large_string()
    with pytest.raises(TypeError, match="needs a column of strings"):
        split_many(pa.array([1, 2]))
    with pytest.raises(TypeError, match="one column"):
        split_many(pa.table({"url": ["a"]}))
    long_rows = ["http://h%d.example/%s?q=%d" % (i, "p/" * (i % 9), i) for i in range(5000)]
    assert arrow_rows(split_many(pa.array(long_rows))) == expected_rows(long_rows)
    big = "https://h/" + "\u00e9" * 600_000 + "?q#f"
    assert arrow_rows(split_many(pa.array([big, big]))) == [split(big)] * 2


def test_many_pandas():
    pd = pytest.importorskip("pandas")
    index = range(100, 100 + len(WITH_NULLS))
    for dtype in (object, "string", "string[pyarrow]", "category"):
        series = pd.Series(WITH_NULLS, index=index, dtype=dtype, name="url")
        # The values the Series holds: pandas 2.3 with NumPy 2.0 (Python 3.9)
        # makes "" and "\x00:a" one category.
        held = [None if pd.isna(v) else v for v in series.tolist()]
        frame = split_many(series)
        assert list(frame.columns) == list(FIELDS) and list(frame.index) == list(index), dtype
        for k, name in enumerate(FIELDS):
            got = [None if pd.isna(v) else v for v in frame[name].tolist()]
            assert got == [None if r is None else r[k] for r in expected_rows(held)], \
                (dtype, name)
    arrow_backed = pd.Series(["http://h/p", None], dtype=pd.ArrowDtype(pytest.importorskip(
        "pyarrow").large_string()))
    frame = split_many(arrow_backed)
    assert frame["host"].dtype == arrow_backed.dtype and frame["host"].tolist()[0] == "h"
    with pytest.raises(TypeError, match="index 1"):
        split_many(pd.Series(["a", 5], dtype=object))
    with pytest.raises(TypeError, match="index 2"):
        split_many(pd.Series(pd.Categorical(["a", "a", 5, 5])))
    # a category that is no str fails at each of its rows, each error naming its row
    for dtype in ("category", object):
        rejects = []
        split_many(pd.Series(["a", 5, "a", 5], dtype=dtype), on_error="null", rejects=rejects)
        assert [(r.index, r.value, str(r.error), vars(r.error)) for r in rejects] == [
            (row, 5, "split_many() value at index %d must be str or None, not int" % row, {})
            for row in (1, 3)], dtype
    with pytest.raises(TypeError, match="one column"):
        split_many(pd.DataFrame({"url": ["a"]}))


def test_many_polars():
    pl = pytest.importorskip("polars")
    pytest.importorskip("pyarrow")
    for dtype in (pl.String, pl.Categorical):
        series = pl.Series("url", WITH_NULLS, dtype=dtype)
        frame = split_many(series)
        assert isinstance(frame, pl.DataFrame) and frame.columns == list(FIELDS)
        rows = [None if all(v is None for v in r) else URIParts(*r) for r in frame.rows()]
        assert rows == expected_rows(WITH_NULLS)
    assert split_many(pl.Series("u", [None, None])).shape == (2, 7)
    with pytest.raises(TypeError, match="polars dtype"):
        split_many(pl.Series("n", [1, 2]))

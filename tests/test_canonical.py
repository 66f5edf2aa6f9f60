"""canonicalize and canonicalize_many: against the model of
tests/_canon_reference.py; idempotent and equivalence-stable (hypothesis);
the batch form equal to a loop of the single call on every input kind and
thread count; differential tests against w3lib, courlan and url-normalize
on the inputs where their rules and ours agree (docs/canonicalize.md lists
the classes of difference); the whitespace cleanup of normalize."""
import random
import re

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

import _canon_reference as ref
import _uri_reference as uref
import pctcodec
from pctcodec import _pctcodec
from _profiles import examples
from pctcodec import (TRACKING_PARAMS, PercentEncodingError, Reject, URLParseError, canonicalize,
                      canonicalize_many, normalize)

ref.TRACKING = TRACKING_PARAMS

# Pieces where the rules meet: case, escapes (of unreserved, reserved,
# non-ASCII, malformed), ports, dot segments, separators, tracking names in
# any case, "www.", whitespace, non-ASCII hosts.
PIECES = ["http:", "HTTPS:", "//", "www.", "WWW.", "Example.COM", "b\u00fccher.de", "h", ":80",
          ":443", ":", "@", "/", "/./", "/../", "a", "B", "%7e", "%7E", "%41", "%2F", "%2f", "%zz",
          "%C3%A9", "\u00e9", "?", "&", "&&", "=", "+", "#", "utm_source=x", "UTM_Medium=1",
          "Fbclid=2", "gclid", "&amp;", "b=2", "a=1", " ", "\t", "\n", "\x00", "\u3000", "\\",
          "ftp:", "foo:"]
uris = st.lists(st.sampled_from(PIECES), max_size=12).map("".join)
# well-formed URLs with messy spellings
urls = st.builds(lambda s, h, path, q, f: s + "//" + h + path + q + f,
                 st.sampled_from(["http:", "HTTP:", "https:", "hTTps:"]),
                 st.sampled_from(["example.com", "EXAMPLE.com", "www.Example.com", "ex%61mple.com",
                                  "example.com:80", "example.com:443", "b\u00fccher.de"]),
                 st.sampled_from(["", "/", "/a/", "/a//", "/a/./b/../c", "/%7Ea/", "/.//"]),
                 st.lists(st.sampled_from(["a=1", "b=2", "A=3", "utm_source=x", "Fbclid=y",
                                           "", "q=%7e+x", "z"]), max_size=5)
                 .map(lambda ps: "?" + "&".join(ps) if ps else ""),
                 st.sampled_from(["", "#", "#top"]))
any_uri = st.one_of(uris, urls)

OPTIONS = [
    {},
    {"strip_www": True, "same_scheme": True, "strip_trailing_slash": True},
    {"drop_empty_query": False, "sort_query": False, "drop_fragment": False},
    {"drop": ["a", "B*"], "keep": ["*"], "ignore_case": False},
    {"drop": ["a"], "ignore_case": True, "html_amp": True},
    {"strip_whitespace": False, "drop": ()},
    {"keep": ["a", "q"], "drop_empty_query": False, "strip_trailing_slash": True},
]


def _outcome(f, *args, **kwargs):
    try:
        return "ok", f(*args, **kwargs)
    except Exception as e:  # the class is compared
        return "raise", type(e)


@pytest.mark.parametrize("opts", OPTIONS)
@settings(max_examples=examples(500))
@given(any_uri)
@example("http://a/?utm_source=x")
@example("?utm_source=x")
@example("http://www./?")
@example("https://www.www.h:80/a//")
@example("http:/.//")
@example("http:http: ")
@example("x:/.//")  # no host: the "/." before a path of "//" is no segment to strip to
@example("http:\\\\example.com/?q=it's")  # keyed as http://example.com/?q=it's (no %27)
@example("HTTP:example.com/?q=it's")
@example("x:/.//a/")
@example("http://@h.com/x")  # an empty user name goes, and an empty password
@example("http:@http:")
@example("HTTP://:@h.com/x")
@example("ws://u:@h.com/x")
@example("foo://@h.com/x")  # (not in a scheme that is not special)
def test_matches_model(opts, uri):
    # a special scheme's URL whose host only the URL Standard's parser reads
    # is read with the parser's host where RFC 3986 and the parser read its
    # authority alike, else as its href (tests/test_domains_browser.py); the
    # model is RFC 3986's
    href = _pctcodec._web_href(uri.encode("utf-8", "surrogatepass"))
    if isinstance(href, tuple):  # the URL Standard's parser refuses it
        assert _outcome(canonicalize, uri, **opts) == ("raise", URLParseError)
        return
    kept = uri.rstrip(_SPACE)
    if not opts.get("strip_whitespace", True) and kept != uri and isinstance(
            _pctcodec._web_href((kept + "<" * (len(uri) - len(kept))).encode("utf-8", "surrogatepass")),
            tuple):  # white space kept where the parser refuses a '<' too: in the host or port
        assert _outcome(canonicalize, uri, **opts) == ("raise", URLParseError)
        return
    read = uri if href is None else _read_as(uri, href)
    assert _outcome(canonicalize, uri, **opts) == _outcome(ref.canonicalize, read, **opts)


# "scheme://", a userinfo, the host, the rest: an authority RFC 3986 and the
# URL Standard's parser read alike (a special scheme but file; no '\\', tab
# or newline before the host's end)
_ALIKE = re.compile(r"([\x00-\x20]*(?:https?|wss?|ftp)://(?:[^/?#\\\t\n\r]*@)?)"
                    r"([^/?#\\\t\n\r:@]*)(.*)\Z", re.I | re.S)


# a special scheme but file and the slashes after it, any number of '/' and
# '\\' (none too): the parser reads them as "//"
_SLASHES = re.compile(r"\A([\x00-\x20]*(?:https?|wss?|ftp):)[/\\]*", re.I)


def _read_as(uri, href):
    """The URL the model keys for uri, whose host only the parser reads: uri
    (as the parser reads it: no tab or newline, its slashes after the
    scheme written "//") with the parser's host in
    its place, where that is the URL href names (the rest as spelled: the
    href encodes more of a userinfo or a query than normalize does); else
    href."""
    uri = _SLASHES.sub(r"\1//", uri.translate({9: None, 10: None, 13: None}), count=1)
    m = _ALIKE.match(uri)
    if m and not m[2].startswith("["):  # (an IP literal's ':' is no port's)
        spliced = m[1] + pctcodec.parse_url(uri).hostname + m[3]
        if pctcodec.url_href(spliced) == href:
            return spliced
    return href


def _refused(uri):
    """The URL Standard's parser refuses uri, a URL whose host only it reads."""
    return isinstance(_pctcodec._web_href(uri.encode("utf-8", "surrogatepass")), tuple)


@pytest.mark.parametrize("opts", OPTIONS)
@settings(max_examples=examples(500))
@given(any_uri)
@example("http:http: ")  # kept white space ends the port: refused (with strip_whitespace=False)
def test_idempotent(opts, uri):
    if _refused(uri):
        return  # canonicalize raises URLParseError (test_matches_model)
    try:
        key = canonicalize(uri, **opts)
    except URLParseError:  # white space kept where the parser refuses it (test_matches_model)
        assert not opts.get("strip_whitespace", True) and uri != uri.rstrip(_SPACE)
        return
    assert canonicalize(key, **opts) == key
    assert pctcodec.is_valid(key)


# every option combination: each flag on or off, and the filters
all_options = st.fixed_dictionaries({
    "drop": st.sampled_from([TRACKING_PARAMS, ("*",), ("a", "B*"), ()]),
    "keep": st.sampled_from([None, ("*",), ("a", "q")]),
    "ignore_case": st.sampled_from([None, False, True]),
    **{name: st.booleans() for name in (
        "sort_query", "drop_fragment", "strip_www", "same_scheme", "strip_trailing_slash",
        "drop_empty_query", "strip_whitespace", "html_amp")},
})


@settings(max_examples=examples(1000))
@given(any_uri, all_options)
@example("http://h/#a?utm_source=x", {"drop_fragment": False})
@example("http://h/?x#a?b", {"drop_fragment": False, "drop": ("*",)})
@example("http://h/#a?b", {"drop_fragment": False, "strip_www": True})
@example("//www.[::1]WWW.", {"strip_www": True})  # no www. stripped before a '['
@example("http://a.com ", {"strip_whitespace": False})  # white space kept in the host: refused
@example("http://u=@a{.com/", {})  # the key's escaped host is the parser's: the userinfo as spelled
@example("http://a@b@c`.com/", {})
@example("http://[@a`/", {})
def test_idempotent_and_batch_under_every_option(uri, opts):
    if _refused(uri):
        return  # canonicalize raises URLParseError (test_matches_model)
    try:
        key = canonicalize(uri, **opts)
    except URLParseError as exc:  # white space kept where the parser refuses it
        assert not opts["strip_whitespace"] and uri != uri.rstrip(_SPACE), (uri, exc)
        rejects = []
        assert canonicalize_many([uri], **opts, on_error="null", rejects=rejects) == [None]
        assert str(rejects[0].error) == str(exc)
        return
    assert canonicalize(key, **opts) == key
    assert canonicalize_many([uri, key], **opts) == [key, key]


@pytest.mark.parametrize("uri, opts, want", [
    # a '?' in the fragment starts no query
    ("http://h/#a?utm_source=x", {"drop_fragment": False}, "http://h/#a?utm_source=x"),
    ("http://h/?x#a?b", {"drop_fragment": False, "drop": ("*",)}, "http://h/#a?b"),
    ("http://h/#a?b=1&a=2", {"drop_fragment": False}, "http://h/#a?b=1&a=2"),
])
def test_fragment_kept_as_it_is(uri, opts, want):
    assert canonicalize(uri, **opts) == want
    assert canonicalize_many([uri], **opts) == [want]
    pa = pytest.importorskip("pyarrow")
    assert canonicalize_many(pa.array([uri]), **opts).to_pylist() == [want]


def _respell(uri, rng):
    """A spelling that normalize holds equivalent: the case of the scheme
    and of hex digits, escapes of unreserved characters."""
    out = []
    for i, c in enumerate(uri):
        r = rng.random()
        if c.isalnum() and c.isascii() and r < 0.2 and "#" not in uri[:i] and "?" not in uri[:i] \
                and "/" in uri[:i]:
            out.append("%%%02X" % ord(c) if c.isalnum() and not (c.isupper() and i < 8) else c)
        else:
            out.append(c)
    s = "".join(out)
    head, sep, rest = s.partition(":")
    return (head.upper() if sep and head.isalpha() else head) + sep + rest


@settings(max_examples=examples(500))
@given(urls, st.randoms(use_true_random=False))
def test_equivalent_spellings_have_one_key(uri, rng):
    other = _respell(uri, rng)
    if _refused(other):  # e.g. an escaped port: the browser refuses the URL
        with pytest.raises(URLParseError):
            canonicalize(other)
    elif normalize(other) == normalize(uri):
        assert canonicalize(other) == canonicalize(uri)
        assert canonicalize(" " + other + "\n") == canonicalize(uri)


@pytest.mark.parametrize("a, b", [
    ("HTTP://Example.COM:80/%7ea/./b/../?b=2&utm_source=x&a=1#f", "http://example.com/~a/?a=1&b=2"),
    ("http://h/?UTM_SOURCE=x&Fbclid=1&q=1", "http://h/?q=1"),
    ("  http://h/a\tb\n ", "http://h/ab"),
    ("http://b\u00fccher.de/", "http://xn--bcher-kva.de/"),
    ("http://h/?&&", "http://h/"),
])
def test_same_key(a, b):
    assert canonicalize(a) == canonicalize(b)


@pytest.mark.parametrize("uri, kwargs, want", [
    # a special scheme's '\\' before the query is a '/', as browsers read it
    ("http://example.com\\@evil.com/", {}, "http://example.com/@evil.com/"),
    (" HTTPS://h\\a\\b?x\\y#z", {"drop_fragment": False}, "https://h/a/b?x%5Cy#z"),
    ("ws://h\\x", {}, "ws://h/x"),
    ("foo://h\\x/", {}, "foo://h%5Cx/"),
    ("//h\\x", {}, "//h%5Cx/"),
    (" http://h\\x", {"strip_whitespace": False}, "%20http://h%5Cx"),
    ("https://www.h.com:80/a/", {"strip_www": True, "same_scheme": True,
                                 "strip_trailing_slash": True}, "http://h.com/a"),
    ("http://h/?", {}, "http://h/"),
    ("http://h/?", {"drop_empty_query": False}, "http://h/?"),
    ("http://h/?utm_a=1", {"drop_empty_query": False}, "http://h/"),
    ("?utm_a=1", {}, "?"),
    ("http://h/?b=1&a=2&b=0", {}, "http://h/?a=2&b=1&b=0"),
    ("http://h/?b=1&a=2", {"sort_query": False}, "http://h/?b=1&a=2"),
    ("http://h/#f", {"drop_fragment": False}, "http://h/#f"),
    ("http://h/?a=1&amp;utm_source=x", {"html_amp": True}, "http://h/?a=1"),
    ("http://h/?a=1&amp;utm_source=x", {}, "http://h/?a=1&amp;utm_source=x"),
    ("http://h/?UTM_x=1", {"drop": ["utm_*"]}, "http://h/?UTM_x=1"),
    ("http://h/?UTM_x=1", {"drop": ["utm_*"], "ignore_case": True}, "http://h/"),
    (" http://h/ ", {"strip_whitespace": False}, "%20http://h/%20"),
])
def test_cases(uri, kwargs, want):
    assert canonicalize(uri, **kwargs) == want


def test_errors():
    with pytest.raises(TypeError):
        canonicalize(b"http://h/")
    with pytest.raises(PercentEncodingError):
        canonicalize("http://h/\ud800")
    with pytest.raises(TypeError):
        canonicalize("http://h/", drop=5)
    with pytest.raises(TypeError, match="index 1"):
        canonicalize_many(["http://h/", 5])
    rejects = []
    assert canonicalize_many(["http://h/", 5], on_error="null", rejects=rejects) == ["http://h/", None]
    assert [r.index for r in rejects] == [1] and isinstance(rejects[0], Reject)


# ---------------------------------------------------------------- batch = loop

COLUMN_PIECES = PIECES + ["http://h/p", "https://www.a.com/x/"]
columns = st.lists(st.one_of(st.none(), any_uri), max_size=20)


def _loop(values, **opts):
    return [None if v is None or _refused(v) else canonicalize(v, **opts) for v in values]


@pytest.mark.parametrize("opts", OPTIONS[:3])
@given(values=columns)
def test_many_list(opts, values):
    if any(v is not None and _refused(v) for v in values):
        with pytest.raises(URLParseError):
            canonicalize_many(values, **opts)
    assert canonicalize_many(values, on_error="null", **opts) == _loop(values, **opts)
    assert canonicalize_many(tuple(values), on_error="null", **opts) == _loop(values, **opts)


@pytest.mark.parametrize("opts", OPTIONS[:3])
@settings(max_examples=examples(200))
@given(values=columns, offset=st.integers(0, 4), threads=st.sampled_from([1, 2, 3]))
def test_many_arrow(opts, values, offset, threads):
    pa = pytest.importorskip("pyarrow")
    types = [pa.string(), pa.large_string()] + ([pa.string_view()] if hasattr(pa, "string_view") else [])
    want = _loop(values, **opts)
    for typ in types:
        arr = pa.array(values, type=typ)
        out = canonicalize_many(arr, threads=threads, on_error="null", **opts)
        assert out.type == typ and out.to_pylist() == want
        k = min(offset, len(values))
        assert canonicalize_many(arr.slice(k), threads=threads, on_error="null",
                                 **opts).to_pylist() == want[k:]
        chunked = canonicalize_many(pa.chunked_array([arr, arr[:0], arr], type=typ),
                                    on_error="null", **opts)
        assert chunked.to_pylist() == want + want


def test_many_long_column_threads():
    pa = pytest.importorskip("pyarrow")
    rng = random.Random(3)
    values = ["".join(rng.choice(COLUMN_PIECES) for _ in range(rng.randrange(12)))
              for _ in range(40000)]
    values[::97] = [None] * len(values[::97])
    want = _loop(values)
    for threads in (1, 2, 4):
        assert canonicalize_many(pa.array(values), threads=threads,
                                 on_error="null").to_pylist() == want


def test_many_pandas_polars():
    pd = pytest.importorskip("pandas")
    values = ["HTTP://H/?b=1&a=2#x", None, " http://b\u00fccher.de/ "]
    want = _loop(values)
    s = pd.Series(values, index=[5, 6, 7], name="url")
    out = canonicalize_many(s)
    assert [None if m else v for v, m in zip(out.tolist(), out.isna())] == want
    assert list(out.index) == [5, 6, 7] and out.name == "url"
    pytest.importorskip("pyarrow")
    out = canonicalize_many(s.astype("string[pyarrow]"))
    assert [None if v is pd.NA else v for v in out.tolist()] == want
    pl = pytest.importorskip("polars")
    assert canonicalize_many(pl.Series("u", values)).to_list() == want


# ---------------------------------------------------------------- whitespace

@given(st.text(st.sampled_from(" \t\n\r\x00\x1f\x7f\u3000aH:/?#%"), max_size=12))
def test_normalize_strips_as_the_url_standard(s):
    assert normalize(s) == normalize(uref.strip_url_whitespace(s), strip_whitespace=False)
    assert pctcodec.normalize_many([s]) == [normalize(s)]


def test_check_still_reports_whitespace():
    with pytest.raises(PercentEncodingError) as e:
        pctcodec.check(" http://h/")
    assert e.value.position == 0
    assert normalize(" http://h/ ") == "http://h/"
    assert normalize(" http://h/ ", strip_whitespace=False) == "%20http://h/%20"
    assert pctcodec.equivalent(" http://h/", "http://h/\n")


# ---------------------------------------------------------------- peers
# Each comparison runs on a grammar where the peer's rules and ours agree
# (see docs/canonicalize.md for the classes of difference outside it).

plain = st.text("abcxyz019", min_size=1, max_size=4)
peer_urls = st.builds(
    lambda host, path, params, frag: "http://" + host + path + (
        "?" + "&".join("%s=%s" % kv for kv in params) if params else "") + frag,
    st.sampled_from(["example.com", "Example.COM", "a.b.org"]),
    st.sampled_from(["/", "/a", "/a/b", "/a%7Eb/c", "/%C3%A9"]),
    st.lists(st.tuples(plain, plain), max_size=4, unique_by=lambda kv: kv[0]),
    st.sampled_from(["", "#top"]))


@settings(max_examples=examples(300))
@given(peer_urls)
def test_w3lib_canonicalize_url(uri):
    w3lib_url = pytest.importorskip("w3lib.url")
    assert canonicalize(uri, drop=()) == w3lib_url.canonicalize_url(uri)


@settings(max_examples=examples(300))
@given(peer_urls, st.lists(plain, max_size=3))
def test_w3lib_url_query_cleaner(uri, names):
    w3lib_url = pytest.importorskip("w3lib.url")
    assert pctcodec.clean_query(uri, drop=names) == w3lib_url.url_query_cleaner(
        uri, names, remove=True, unique=False, keep_fragments=True)


@settings(max_examples=examples(300))
@given(peer_urls)
def test_courlan_normalize_url(uri):
    courlan = pytest.importorskip("courlan")
    if "%" in uri:
        return  # courlan leaves escapes of unreserved characters in the path
    assert canonicalize(uri, drop=(), drop_fragment=False) == courlan.normalize_url(uri)


@settings(max_examples=examples(300))
@given(peer_urls)
def test_url_normalize(uri):
    url_normalize = pytest.importorskip("url_normalize")
    assert canonicalize(uri, drop=(), sort_query=False, drop_fragment=False) == \
        url_normalize.url_normalize(uri)


@pytest.mark.parametrize("value", ["www.http:/.///", "foo:a/..//", "foo:/.//x//", "s:/./"])
def test_trailing_slash_and_the_path_guard(value):
    # normalize writes "/." before a path that starts with "//" when there is
    # no authority; trimming the path's trailing slashes must not leave a
    # guard that the next canonicalize removes (the key was not idempotent)
    key = pctcodec.canonicalize(value, strip_trailing_slash=True)
    assert pctcodec.canonicalize(key, strip_trailing_slash=True) == key
    assert not key.endswith("/./")


@pytest.mark.parametrize("value, key", [
    ("http://a:@h/", "http://a@h/"),
    ("http://:@h/", "http://h/"),
    ("http://a:b@h/", "http://a:b@h/"),
    ("foo://a:@h/", "foo://a:@h/"),
    ("https://anonymous:@b\u00fccher.de/caf\u00e9", "https://anonymous@xn--bcher-kva.de/caf%C3%A9"),
    ("http://a:@h/?utm_source=1&b=2", "http://a@h/?b=2"),
])
def test_empty_password_goes_as_in_the_href(value, key):
    # a special scheme's URL and its href ("u:@h" is written "u@h") have one
    # key; an IDN host's row was keyed with the ':' and its key without it
    assert pctcodec.canonicalize(value) == key
    assert pctcodec.canonicalize(key) == key
    assert pctcodec.canonicalize_many([value]) == [key]
    pa = pytest.importorskip("pyarrow")
    assert pctcodec.canonicalize_many(pa.array([value])).to_pylist() == [key]


@pytest.mark.parametrize("url, key", [
    ("http://@a.com/", "http://a.com/"),
    ("HTTP://@a.com/x?b=1&a=2", "http://a.com/x?a=2&b=1"),
    ("http://@b\u00fccher.de/x", "http://xn--bcher-kva.de/x"),
    ("ftp://@\u00e9/", "ftp://xn--9ca/"),
    ("foo://@a.com/", "foo://@a.com/"),
])
def test_empty_userinfo_of_a_special_scheme_goes(url, key):
    """The URL Standard writes no credentials for an empty user name: a
    browser's "http://@a.com/" is "http://a.com/", the same key, whether
    the host needs IDNA or not, in the single call and the batch."""
    pa = pytest.importorskip("pyarrow")
    assert canonicalize(url) == key
    assert canonicalize_many([url]) == [key]
    assert canonicalize_many(pa.array([url])).to_pylist() == [key]


@pytest.mark.parametrize("url", ["http://bad\u00a0host/", "http://\ufdd0.com/", "http://\u2100.com/"])
@pytest.mark.parametrize("kind", ["list", "arrow"])
def test_host_with_no_idna_form_fails_the_batch_as_the_single_call(url, kind):
    pa = pytest.importorskip("pyarrow")
    with pytest.raises(URLParseError) as single:
        canonicalize(url)
    rows = [url, "http://a.com/"]
    rejects = []
    got = canonicalize_many(rows if kind == "list" else pa.array(rows), on_error="null", rejects=rejects)
    assert list(got if kind == "list" else got.to_pylist()) == [None, "http://a.com/"]
    assert [(r.index, type(r.error), r.error.args) for r in rejects] == [(0, URLParseError, single.value.args)]
    with pytest.raises(URLParseError):
        canonicalize_many(rows if kind == "list" else pa.array(rows))


@pytest.mark.parametrize("spellings", [
    ["http://\u00e9%21.com/", "http://\u00e9!.com/", "http://%C3%A9%21.com/", "http://%c3%a9!.com/",
     " http://\u00e9%21.com/\n", "http:\\\\\u00e9%21.com\\"],
    ["http://\u00e9%2A%3d.com/?b=1&a=2#f", "http://\u00e9*=.com/?a=2&b=1"],
    ["https://u@\u00e9%27.com:443/?a'", "https://u@\u00e9'.com/?a'"],
])
def test_escaped_sub_delim_in_an_idn_host_is_decoded_for_idna(spellings):
    """The URL Standard's host parser decodes every escape before domain to
    ASCII: "\u00e9%21.com" is the host "\u00e9!.com", whose form is
    "xn--!-9fa.com"; its escapes were kept (their '%' failed IDNA). Every
    spelling has the parser's host in its key, the single call and the
    batch alike, and the key keys to itself."""
    pa = pytest.importorskip("pyarrow")
    keys = [canonicalize(u) for u in spellings]
    assert len(set(keys)) == 1, keys
    key = keys[0]
    authority = key.split("/")[2]
    assert authority.rpartition("@")[2] == pctcodec.parse_url(spellings[0]).hostname
    assert canonicalize(key) == key
    assert canonicalize_many(spellings) == keys
    assert canonicalize_many(pa.array(spellings)).to_pylist() == keys


@pytest.mark.parametrize("spellings", [
    ["http://\u00e9.com/?a'", "http://xn--9ca.com/?a'", "http://XN--9CA.com/?a'", "http://e\u0301.com/?a'",
     "http://%C3%A9.com/?a'", "http://\u00e9\u3002com/?a'"],
    ["http://a;b@\u00e9.com/", "http://a;b@xn--9ca.com/"],
    ["http://b\u00fccher.de/x?q=O'Brien", "http://xn--bcher-kva.de/x?q=O'Brien"],
])
def test_one_key_for_a_host_in_unicode_or_punycode(spellings):
    """An IDN host written in Unicode or as its xn-- form is one host: the
    URL has one key, and that key keys to itself (the xn-- spelling was
    read as its href, which escapes "'" and ';', the Unicode one was not)."""
    keys = {canonicalize(u) for u in spellings}
    assert len(keys) == 1
    key = keys.pop()
    assert canonicalize(key) == key
    assert canonicalize_many(spellings) == [key] * len(spellings)


@pytest.mark.parametrize("query", [
    # names sharing their first eight bytes, one a prefix of another, an
    # escape among plain names, '+' (a space), capitals before small letters
    "abcdefghij=1&abcdefgh=2&abcdefghi=3&abcdefgh=4",
    "ab=1&a=2&abc=3&a%62=4&a+b=5&a b=6&B=7&b=8",
    "x=1&%78=2&x%00=3&x=4",
    # tracking names in any case and spelling, among names of their first letters
    "UTM_Source=1&utm=2&utm_=3&Utm%5Fmedium=4&gcl=5&gclid=6&GCLIDX=7&_GA=8&_g=9",
    "v=1&vero_id=2&vero=3&sccid=4&ScCid=5&hsctatracking=6&hsCtaTracking=7",
    "a=1&b=2&c=3",
    "c=3&b=2&a=1",
])
@pytest.mark.parametrize("options", [{}, {"ignore_case": False}, {"drop": ["ab*", "x"]},
                                     {"keep": ["a*", "[bB]", "x?"]}, {"sort_query": False}])
def test_query_key_matches_the_model(query, options):
    """The query's key (the filter, the sort by decoded name) against the
    model, for names the one-pass scan reads in its fast ways (plain ASCII,
    eight bytes at a time, literal patterns) and in the long way."""
    url = "http://h/p?" + query
    want = ref.canonicalize(url, **options)
    assert canonicalize(url, **options) == want
    assert canonicalize_many([url, url + "#f"], **options) == [want, want]


_SPACE = "".join(map(chr, range(0x21)))  # the URL Standard's C0 control or space


@pytest.mark.parametrize("uri, reason, position", [
    ("http://a.com ", "a character no host may hold", 12),
    ("http://u@a.com\t", "a character no host may hold", 14),
    ("https://a.com:80 ", "the port is not a number", 16),
    ("http://a.com: \n", "the port is not a number", 13),
    ("http://[::1] ", "not an IPv6 address", 7),
    ("file://h ", "a character no host may hold", 8),
])
def test_white_space_kept_at_the_end_of_a_host_is_refused(uri, reason, position):
    # strip_whitespace=False keeps it as data, in the host or port that it
    # ends: a key holding it escaped would be refused by the next call.
    with pytest.raises(URLParseError) as info:
        canonicalize(uri, strip_whitespace=False)
    assert (info.value.reason, info.value.position) == (reason, position)
    pa = pytest.importorskip("pyarrow")
    for column in ([uri], pa.array([uri])):
        rejects = []
        out = canonicalize_many(column, strip_whitespace=False, on_error="null", rejects=rejects)
        assert list(out if isinstance(out, list) else out.to_pylist()) == [None]
        assert str(rejects[0].error) == str(info.value)
    assert canonicalize(uri) == canonicalize(uri.rstrip(_SPACE))  # stripped: no error


@pytest.mark.parametrize("uri, key", [
    ("http://a.com/x ", "http://a.com/x%20"),  # in the path, the query, a fragment: data
    ("http://a.com?q ", "http://a.com/?q%20"),
    ("foo://a.com ", "foo://a.com%20/"),  # no special scheme: no parser's host
    (" http://a.com", "%20http://a.com"),
])
def test_white_space_kept_elsewhere_is_escaped(uri, key):
    assert canonicalize(uri, strip_whitespace=False) == key
    assert canonicalize(key, strip_whitespace=False) == key


@pytest.mark.parametrize("spellings", [
    ["http://u=@a{.com/", "http://u=@a%7B.com/", "http://u=@A%7b.COM/"],
    ["http://u=@%C3%A9.com/?q=it's", "http://u=@\u00e9.com/?q=it's", "http://u=@xn--9ca.com/?q=it's"],
    # the slashes after a special scheme, as the parser reads them
    ["http://example.com/?q=it's", "http:\\\\example.com/?q=it's", "http:example.com/?q=it's",
     "HTTP:/example.com/?q=it's", "http:///Example.com\\?q=it's", " http:\\/example.com/?q=it's"],
    # tabs and newlines, which the parser removes anywhere
    ["http://u=@x.com/?q=it's", "http://u=@x.\tcom/?q=it's", "ht\ntp://u=@x.com/?q=it's",
     "http://u=@x.com:8\r0/?q=it's", "http://u=@x.com/?q=it\t's"],
])
def test_spellings_normalize_holds_equal_share_a_key(spellings):
    # an escaped or IDNA host is the parser's, the userinfo and query as spelled
    keys = {canonicalize(s) for s in spellings}
    assert len(keys) == 1
    key = keys.pop()
    assert canonicalize(key) == key
    assert canonicalize_many(spellings) == [key] * len(spellings)


HOST_EDGES = [
    "http://a.com:%38%30/?a=1", "http://a.com:%38%31/?a=1", "http://a.com:0080/?x", "http://a.com:/?x",
    "http://a.com:8a/?x", "ws://a.com:65535/?x", "ftp://a.com:65536/?x", "wss://A.Com./?x",
    "http://xn--a.com/?x", "http://XN--abc.com/?x", "http://a.xn--abc.com/?x", "http://\uff21\uff22.com/?x",
    "http://\u00fc.com/?x", "http://\u00fc.xn--abc.com/?x", "https://%CF%80.example.com/?v",
    "http://ex%41mple.com/?x", "http://%78n--abc.com/?x", "http://u%40x@a.com/?x",
    "http://u@ex%41mple.com:81/?x", "http://a@b@c.com/?x", "http://1.2.3.4/?x", "http://a.0x1f/?x",
    "http://a.9z/?x", "http://a.z9/?x", "http://a..com/?x", "http://.a.com/?x", "http://a.com../?x",
    "http://a.com./?x", "http://./?x", "http://a_b.com/?x", "http://a.b/?x", "http://a/?x",
    "http://[::1]/?x", "http://a%2Eb.com/?x", "http://\u00fc%2E.com/?x",
    "file://a.com/?x", "foo://a.com/?x", "http:a.com/?x", "HTTP://" + "ab." * 30 + "com/?x",
    "https://" + "a" * 70 + ".com:443/?x", "http://a.com" + "/p" * 40 + "?x",
]


@pytest.mark.parametrize("uri", HOST_EDGES)
def test_host_read_alike_off_the_normalized_row(uri):
    """The batch row knows a plain host off the normalized row (and the
    row's own authority): every host and port it could misread, against
    the model (the URL Standard's reading where the parser reads the host)
    and the batch against the single call."""
    href = _pctcodec._web_href(uri.encode("utf-8", "surrogatepass"))
    if isinstance(href, tuple):
        want = ("raise", URLParseError)
    else:
        want = _outcome(ref.canonicalize, uri if href is None else _read_as(uri, href))
    assert _outcome(canonicalize, uri) == want
    assert canonicalize_many([uri, "http://a.com/?b&a"], on_error="null") == [
        want[1] if want[0] == "ok" else None, "http://a.com/?a&b"]

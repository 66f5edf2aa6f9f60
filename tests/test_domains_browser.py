"""The domain functions and canonicalize read a special scheme's URL (http,
https, ws, wss, ftp, file) as the URL Standard's parser does: a URL and its
href give the same registered domain and the same canonical key. Bare hosts
and other schemes keep the host finder's reading."""
import pyarrow as pa
import pytest
from hypothesis import example, given, settings, strategies as st

import _testdata
from _profiles import examples
from pctcodec import (HostError, URLParseError, canonicalize, canonicalize_many, domain_parts, domain_parts_many,
                      parse_url, public_suffix, public_suffix_many, registered_domain,
                      registered_domain_many)

SPECIAL = ("http:", "https:", "ws:", "wss:", "ftp:", "file:")

# The spellings a browser reads and the host finder read otherwise (before:
# the old answer, kept here to show each was a wrong result).
SPELLINGS = [
    # (url, registered domain the browser's host gives, the old answer)
    ("http:\\\\example.com\\a", "example.com", None),
    ("https:///github.com/x", "github.com", None),
    ("ht\ttps://github.com/x", "github.com", None),
    ("http://exa\nmple.com/", "example.com", "HostError"),
    ("\x00\x1f http://www.example.com/ \x01", "example.com", "example.com"),
    ("http://0x7f.1/", None, None),
    ("http://www.example\uff0ecom/", "example.com", "example.com"),
    ("http:example.com", "example.com", None),
    ("HTTP://EXAMPLE.COM.", "example.com", "example.com"),
    ("http://example.com\\@evil.com/", "example.com", "example.com"),
    ("https:\\/news.bbc.co.uk", "bbc.co.uk", None),
    ("ws:example.org/chat", "example.org", None),
    ("h\nttp:/\\www.example.co.uk/", "example.co.uk", None),
]


def _answer(f, value):
    try:
        return f(value)
    except HostError:
        return "HostError"


@pytest.mark.parametrize("url, expected, _old", SPELLINGS)
def test_browser_spellings(url, expected, _old):
    assert _answer(registered_domain, url) == expected
    href = parse_url(url).href
    assert registered_domain(href) == expected
    assert canonicalize(url) == canonicalize(href)
    assert registered_domain_many([url]) == [expected]
    assert canonicalize_many([url]) == [canonicalize(href)]


def test_parts_of_a_browser_spelling():
    assert tuple(domain_parts("HTTPS:\\\\Www.Example.CO.UK\\x")) == ("www", "example.co.uk", "co.uk")
    assert public_suffix("http:www.example.co.uk") == "co.uk"
    assert canonicalize("http:\\\\EXAMPLE.com\\a\\b?utm_source=x") == "http://example.com/a/b"
    assert canonicalize("http://0x7f.1/") == "http://127.0.0.1/"


@pytest.mark.parametrize("url", ["http://foo.09/", "http://a.example.com:99999/",
                                 "https://[::1/", "http://ex%00ample.com/", "http:///"])
def test_the_browser_refuses(url):
    with pytest.raises(ValueError):
        parse_url(url)
    with pytest.raises(HostError):
        registered_domain(url)
    assert registered_domain_many([url], on_error="null") == [None]
    with pytest.raises(HostError):
        registered_domain_many([url])


# A refused URL's error names the host the parser read, at its position
# in the text: (url, the host's repr, where it starts).
REFUSED_HOSTS = [
    ("https:/a b.com/x", "'a b.com'", 7),
    ("https:a b.com/x", "'a b.com'", 6),
    ("https:///a b.com/x", "'a b.com'", 9),
    ("http:/\n/a b.com/", "'a b.com'", 8),
    ("http:\\\\a b.com/", "'a b.com'", 7),
    ("ws:/a b.com/", "'a b.com'", 4),
    ("  https:%E9//github.com/x", "'%E9'", 8),
    ("https://a b.com/x", "'a b.com'", 8),
]


@pytest.mark.parametrize("url, host, at", REFUSED_HOSTS)
def test_a_refused_url_names_the_parsers_host(url, host, at):
    with pytest.raises(HostError) as single:
        registered_domain(url)
    assert str(single.value).startswith("the host %s is no domain name (the URL Standard's parser: " % host)
    assert single.value.position == at
    rejects = []
    assert registered_domain_many([url], on_error="null", rejects=rejects) == [None]
    assert registered_domain_many(pa.array([url]), on_error="null", rejects=rejects).to_pylist() == [None]
    assert [(str(r.error), r.error.position) for r in rejects] == [(str(single.value), at)] * 2


@pytest.mark.parametrize("value, expected", [
    ("example.com\\x", "example.com"),        # a bare host: the finder's reading
    ("foo://a.example.com/", "example.com"),  # a scheme that is not special
    ("mailto:a@b.example.com", "example.com"),
    ("//www.example.co.uk/x", "example.co.uk"),
])
def test_other_readings_unchanged(value, expected):
    assert registered_domain(value) == expected


# ---------------------------------------------------------------- WPT vectors as a table

_WPT = _testdata.load_json("wpt", "urltestdata.json") or []


def _absolute_special():
    for v in _WPT:
        if not isinstance(v, dict) or "failure" in v or not v["protocol"] in SPECIAL:
            continue
        try:
            if parse_url(v["input"]).href != v["href"]:
                continue  # relative: it needs its base, which the domain functions do not take
        except ValueError:
            continue
        yield v


# WPT inputs whose canonical key differs from their href's: canonicalize
# keeps RFC 3986's encoding of the userinfo, path and query ('[', ']', ':'
# and '@' in the userinfo, "'" in a query). An empty user name or password
# of a special scheme goes, as in the href.
CANON_KNOWN = {
    "http://&a:foo(b]c@d:2/", "http://::@c@d:2",
    "https://@test@test@example:800/", "https://@@@example",
    "http://host/?'", "https://www.example.com/path{\x7fpath.html?query'\x7f=query#fragment<\x7ffragment",
    "https://user:pass[\x7f@foo/bar", "wss:// !\"$%&'()*+,-.;<=>@[]^_`{|}~@host/",
    "wss://joe: !\"$%&'()*+,-.:;<=>@[]^_`{|}~@host/", "wss://host/dir/? !\"$%&'()*+,-./:;<=>?@[\\]^_`{|}~",
}


@_testdata.needs("wpt", "urltestdata.json")
def test_wpt_hosts_as_a_table():
    vectors = list(_absolute_special())
    assert len(vectors) > 150
    inputs = [v["input"] for v in vectors]
    for v in vectors:
        host = v["hostname"]
        expected = tuple(domain_parts(host)) if host and not host.startswith("[") else (None, None, None)
        assert tuple(domain_parts(v["input"])) == expected, v["input"]
        assert tuple(domain_parts(v["href"])) == expected, v["input"]
        same_key = canonicalize(v["input"]) == canonicalize(v["href"])
        assert same_key == (v["input"] not in CANON_KNOWN), v["input"]
    assert registered_domain_many(inputs) == [registered_domain(u) for u in inputs]


@_testdata.needs("wpt", "urltestdata.json")
def test_wpt_failures_raise():
    seen = 0
    for v in _WPT:
        if not isinstance(v, dict) or "failure" not in v or v.get("base") is not None:
            continue
        if not v["input"].strip("\x00\x20\x1f").lower().replace("\t", "").startswith(SPECIAL):
            continue
        seen += 1
        with pytest.raises(HostError):
            registered_domain(v["input"])
    assert seen > 20


# ---------------------------------------------------------------- properties

_label = st.sampled_from(["example", "www", "co", "uk", "com", "github", "io", "EXAMPLE", "0x7f",
                          "1", "09", "b\u00fccher", "xn--bcher-kva", "exa%6Dple", "a-b", "", "foo"])
_dot = st.sampled_from([".", ".", ".", "\uff0e", "\u3002"])
_scheme = st.sampled_from(["http", "https", "ws", "wss", "ftp", "file", "HTTP", "hTtPs"])
_sep = st.sampled_from(["://", "://", ":\\\\", ":/", ":", ":///", ":\\/", "://\\"])


@st.composite
def special_urls(draw):
    labels = draw(st.lists(_label, min_size=1, max_size=4))
    host = ""
    for i, label in enumerate(labels):
        host += (draw(_dot) if i else "") + label
    if draw(st.booleans()):
        host += "."
    scheme = draw(_scheme)
    if draw(st.booleans()):
        k = draw(st.integers(0, len(scheme)))
        scheme = scheme[:k] + draw(st.sampled_from(["\t", "\n", "\r"])) + scheme[k:]
    user = draw(st.sampled_from(["", "", "user@", "u:p@", "a\\@"]))
    port = draw(st.sampled_from(["", "", ":80", ":8080", ":99999", ":x"]))
    path = draw(st.sampled_from(["", "/", "/a\\b", "\\x/./y", "/a/../b", "/p?q=1&utm_source=z"]))
    junk = draw(st.sampled_from(["", " ", "\x00", "\x1f "]))
    return junk + scheme + draw(_sep) + user + host + port + path + junk


@settings(max_examples=examples(500), deadline=None)
@given(special_urls())
def test_url_and_href_agree(url):
    try:
        href = parse_url(url).href
    except ValueError:
        assert _answer(registered_domain, url) == "HostError"
        with pytest.raises(URLParseError):
            canonicalize(url)
        return
    assert registered_domain(url) == registered_domain(href)
    assert domain_parts(url) == domain_parts(href)
    assert canonicalize(url) == canonicalize(href)


@settings(max_examples=examples(100), deadline=None)
@given(st.lists(special_urls(), max_size=20))
@example(["http://example\uff0e0x7f"])  # an IDN host whose form ends in a number: the parser's
def test_batch_equals_single(urls):
    rd = [None if _answer(registered_domain, u) == "HostError" else registered_domain(u)
          for u in urls]
    assert registered_domain_many(urls, on_error="null") == rd
    for kind in (pa.string(), pa.large_string()):
        arr = pa.array(urls, kind)
        assert registered_domain_many(arr, on_error="null").to_pylist() == rd
        assert public_suffix_many(arr, on_error="null").to_pylist() == [
            None if r is None and _answer(registered_domain, u) == "HostError" else public_suffix(u)
            for u, r in zip(urls, rd)]
    parts = domain_parts_many(pa.array(urls, pa.string()), on_error="null").to_pylist()
    for u, row in zip(urls, parts):
        if _answer(registered_domain, u) != "HostError":
            assert tuple(row.values()) == tuple(domain_parts(u))
    keys = []
    for u in urls:
        try:
            keys.append(canonicalize(u))
        except URLParseError:  # a URL the browser refuses
            keys.append(None)
    assert canonicalize_many(urls, on_error="null") == keys
    assert canonicalize_many(pa.array(urls), on_error="null").to_pylist() == keys

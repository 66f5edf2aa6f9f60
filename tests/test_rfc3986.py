"""Examples for the RFC 3986 / RFC 3987 toolkit: requote, check, is_valid,
normalize, equivalent, iri_to_uri and uri_to_iri.

The expected values come from RFC 3986 (§2, §5.4, §6.2), RFC 3987 §3, RFC 1630
and from inputs on which other URL libraries are known to go wrong.
"""
import pytest

import pctcodec
from pctcodec import (
    PercentEncodingError,
    check,
    equivalent,
    iri_to_uri,
    is_valid,
    normalize,
    requote,
    uri_to_iri,
)

RESERVED = ":/?#[]@!$&'()*+,;="
UNRESERVED = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~"

IRI = "http://例え.jp/引き出し"
IRI_AS_URI = "http://xn--r8jz45g.jp/%E5%BC%95%E3%81%8D%E5%87%BA%E3%81%97"


def test_exports():
    for name in ("requote", "check", "is_valid", "normalize", "equivalent",
                 "iri_to_uri", "uri_to_iri", "PercentEncodingError"):
        assert hasattr(pctcodec, name), name
    assert issubclass(PercentEncodingError, ValueError)


# ---------------------------------------------------------------- requote


@pytest.mark.parametrize(
    "uri, expected",
    [
        ("", ""),
        ("100%", "100%25"),
        ("100%2525", "100%2525"),
        ("100%25", "100%25"),
        ("%", "%25"),
        ("%4", "%254"),
        ("%zz", "%25zz"),
        ("%%41", "%25%41"),
        ("%7e", "%7E"),  # kept, not decoded: requote does not normalize
        ("%41", "%41"),
        ("%2f%3a%5b", "%2F%3A%5B"),
        ("a b", "a%20b"),
        ("\x00\x1f\x7f", "%00%1F%7F"),
        ('"<>\\^`{|}', "%22%3C%3E%5C%5E%60%7B%7C%7D"),
        ("%é", "%25%C3%A9"),
        ("中", "%E4%B8%AD"),
        ("\U0001f600", "%F0%9F%98%80"),
        (UNRESERVED, UNRESERVED),
        (RESERVED, RESERVED),
        ("http://example.com/my document.pdf?name=John Doe&age=30",
         "http://example.com/my%20document.pdf?name=John%20Doe&age=30"),
        # No IDNA: requote works on characters, not on components.
        (IRI, "http://%E4%BE%8B%E3%81%88.jp/%E5%BC%95%E3%81%8D%E5%87%BA%E3%81%97"),
    ],
)
def test_requote(uri, expected):
    assert requote(uri) == expected
    assert requote(expected) == expected
    check(expected)


def test_requote_keeps_reserved_escapes_and_literals():
    # yarl's requoter turns %26 %3D %2B %3A %40 %21 into literals; that changes the URI.
    uri = "http://example.com/a%2Fb%3Fc%26d%3De%3Ab%40c%21?x=%26%3D%2B"
    assert requote(uri) == uri


# ---------------------------------------------------------------- check / is_valid


@pytest.mark.parametrize(
    "s, position, percent",
    [
        ("asdf%*.fred", 4, True),  # RFC 1630's examples of malformed escapes
        ("12345667123%asdghfh", 11, True),
        ("100%", 3, True),
        ("%4", 0, True),
        ("%%41", 0, True),
        ("%41%", 3, True),
        ("a%4g", 1, True),
        ("é", 0, False),
        ("a b", 1, False),
        ("/path\x7f", 5, False),
        ("/path|x", 5, False),
        ('"', 0, False),
        # Positions count code points; any earlier non-ASCII character would
        # itself be the offender, so code points and bytes agree up to it.
        ("é%zz", 0, False),
        ("\U0001f600%", 0, False),
        ("ab\U0001f600%", 2, False),
        ("ok%41\ud800", 5, False),
        ("%41%4", 3, True),
    ],
)
def test_check_rejects(s, position, percent):
    with pytest.raises(PercentEncodingError) as info:
        check(s)
    err = info.value
    assert isinstance(err, ValueError)
    assert err.position == position
    assert isinstance(err.reason, str) and err.reason
    assert str(err) == "%s at position %d" % (err.reason, position)
    if percent:
        assert "%" in err.reason
    assert is_valid(s) is False


@pytest.mark.parametrize(
    "s",
    ["", "abc", "%41%7e%7E%2f", UNRESERVED, RESERVED, IRI_AS_URI, "100%25", "%aF%Af",
     "http://[fe80::1]:80/a?b#c"],
)
def test_check_accepts(s):
    assert check(s) is None
    assert is_valid(s) is True


# ---------------------------------------------------------------- equivalence (RFC 3986 §2, §6.2)


@pytest.mark.parametrize(
    "a, b",
    [
        ("http://example.com/~user", "http://example.com/%7Euser"),
        ("http://example.com/~user", "http://example.com/%7euser"),
        ("http://example.com/marie-claude", "http://example.com/marie%2Dclaude"),
        ("http://example.com/A", "http://example.com/%41"),
        ("HTTP://www.Example.com/", "http://www.example.com/"),
        ("example://a/b/c/%7Bfoo%7D", "eXAMPLE://a/./b/../b/%63/%7bfoo%7d"),
        ("http://example.com", "http://example.com/"),
        ("http://example.com", "http://example.com:/"),
        ("http://example.com", "http://example.com:80/"),
        ("http://example.com/", "http://example.com:/"),
        ("http://example.com:/", "http://example.com:80/"),
        ("https://example.com/", "https://example.com:443"),
        ("http://example.com/a%2fb", "http://example.com/a%2Fb"),
        (IRI, IRI_AS_URI),
    ],
)
def test_equivalent(a, b):
    assert equivalent(a, b) is True
    assert equivalent(b, a) is True
    assert normalize(a) == normalize(b)


@pytest.mark.parametrize(
    "a, b",
    [
        # Reserved characters and their escapes are different data (RFC 3986 §2.2).
        ("http://example.com/bertram%2Fmarie-claude", "http://example.com/bertram/marie-claude"),
        ("http://example.com/path%3Fkey=value", "http://example.com/path?key=value"),
        ("http://example.com/a?x=1%262", "http://example.com/a?x=1&2"),
        ("http://example.com/a?x=%2B", "http://example.com/a?x=+"),
        ("http://example.com/a%23b", "http://example.com/a#b"),
        # The path is case-sensitive; only scheme and host are not.
        ("http://example.com/Path", "http://example.com/path"),
        ("http://example.com:8080/", "http://example.com/"),
        ("https://example.com:80/", "https://example.com/"),
        ("http://example.com/?", "http://example.com/"),
        ("http://example.com/#", "http://example.com/"),
        ("http://example.com/a%20b", "http://example.com/a+b"),
    ],
)
def test_not_equivalent(a, b):
    assert equivalent(a, b) is False
    assert normalize(a) != normalize(b)


# ---------------------------------------------------------------- normalize


@pytest.mark.parametrize(
    "uri, expected",
    [
        # RFC 3986 §6.2.2
        ("HTTP://www.Example.com/", "http://www.example.com/"),
        ("eXAMPLE://a/./b/../b/%63/%7bfoo%7d", "example://a/b/c/%7Bfoo%7D"),
        ("http://example.com/%7Euser", "http://example.com/~user"),
        ("http://example.com/marie%2Dclaude", "http://example.com/marie-claude"),
        # RFC 3986 §6.2.3
        ("http://example.com", "http://example.com/"),
        ("http://example.com:/", "http://example.com/"),
        ("http://example.com:80/", "http://example.com/"),
        ("http://example.com:", "http://example.com/"),
        # RFC 3986 §5.4 results, written out as absolute URIs
        ("http://a/b/c/./../../g", "http://a/g"),
        ("http://a/b/c/./g", "http://a/b/c/g"),
        ("http://a/b/c/g/", "http://a/b/c/g/"),
        ("http://a/b/c/.", "http://a/b/c/"),
        ("http://a/b/c/./", "http://a/b/c/"),
        ("http://a/b/c/..", "http://a/b/"),
        ("http://a/b/c/../", "http://a/b/"),
        ("http://a/b/c/../g", "http://a/b/g"),
        ("http://a/b/c/../..", "http://a/"),
        ("http://a/b/c/../../g", "http://a/g"),
        ("http://a/../g", "http://a/g"),
        ("http://a/../../g", "http://a/g"),
        ("http://a/./g", "http://a/g"),
        ("http://a/b/c/g.", "http://a/b/c/g."),
        ("http://a/b/c/.g", "http://a/b/c/.g"),
        ("http://a/b/c/g..", "http://a/b/c/g.."),
        ("http://a/b/c/..g", "http://a/b/c/..g"),
        ("http://a/b/c/./../g", "http://a/b/g"),
        ("http://a/b/c/g/./h", "http://a/b/c/g/h"),
        ("http://a/b/c/g/../h", "http://a/b/c/h"),
        ("http://a/b/c/g;x=1/./y", "http://a/b/c/g;x=1/y"),
        ("http://a/b/c/g;x=1/../y", "http://a/b/c/y"),
        ("http://a/b/c/g?y/./x", "http://a/b/c/g?y/./x"),
        ("http://a/b/c/g?y/../x", "http://a/b/c/g?y/../x"),
        ("http://a/b/c/g#s/./x", "http://a/b/c/g#s/./x"),
        ("http://a/b/c/g#s/../x", "http://a/b/c/g#s/../x"),
        # RFC 3986 §5.2.4's own examples
        ("http://a/a/b/c/./../../g", "http://a/a/g"),
        ("x:mid/content=5/../6", "x:mid/6"),
        # Relative references without authority keep their path.
        ("mid/content=5/../6", "mid/content=5/../6"),
        ("../g", "../g"),
        ("./g", "./g"),
        ("/a/./b/../c", "/a/./b/../c"),
        ("g;x=1/../y", "g;x=1/../y"),
        # ... but with an authority the dot segments go.
        ("//a/b/../c", "//a/c"),
        ("//A", "//a/"),
        # Escaped dots are dots.
        ("http://a/b/%2E%2E/c", "http://a/c"),
        ("http://a/b/%2e/c", "http://a/b/c"),
        ("http://a/b/.%2e/c", "http://a/c"),
        # A path that would read as an authority once the dots are gone.
        ("a:/.//b", "a:/.//b"),
        ("a:/x/..//b", "a:/.//b"),
        ("a:/..//b", "a:/.//b"),
        # IP literals, hosts
        ("http://[FE80::1]:80/", "http://[fe80::1]/"),
        # RFC 6874 zone ids are interface names: only the address is lowercased
        ("http://[FE80::1%25Eth0]/", "http://[fe80::1%25Eth0]/"),
        ("http://[FE80::%41%25Eth0]/", "http://[fe80::a%25Eth0]/"),
        ("http://[FE80::1%Eth0]/", "http://[fe80::1%25Eth0]/"),
        ("HTTP://[2001:DB8::A]:8080/X", "http://[2001:db8::a]:8080/X"),
        ("http://[v1.ABC]/", "http://[v1.abc]/"),
        ("http://%41B.Example.COM/", "http://ab.example.com/"),
        ("http://%c3%a9.com/", "http://xn--9ca.com/"),  # escaped UTF-8 names the same host
        ("http://%FF.com/", "http://%FF.com/"),  # not UTF-8: kept
        ("http://%41%FF.com/", "http://a%FF.com/"),
        ("http://127.0.0.1:80/", "http://127.0.0.1/"),
        ("http://ÉXAMPLE.com/", "http://xn--xample-9ua.com/"),
        (IRI, IRI_AS_URI),
        # userinfo: case kept, unreserved escapes decoded, ends at the last '@'
        ("http://User:P%61ss@Host/", "http://User:Pass@host/"),
        ("http://a@b@Host/", "http://a@b@host/"),
        ("http://us%2fer:pa%3as@h/", "http://us%2Fer:pa%3As@h/"),
        ("http://ü@h/", "http://%C3%BC@h/"),
        ("http://@h/", "http://@h/"),
        # ports
        ("http://h:0080/", "http://h/"),
        ("http://h:080/", "http://h/"),
        ("http://h:8080/", "http://h:8080/"),
        ("http://h:08080/", "http://h:8080/"),
        ("http://h:8%30/", "http://h/"),  # unreserved escapes decoded first
        ("http://h:%30%30/", "http://h:0/"),
        ("https://h:%34%343/", "https://h/"),
        ("http://h:00/", "http://h:0/"),
        ("http://h:0/", "http://h:0/"),
        ("HTTP://h:80/", "http://h/"),
        ("https://h:443/", "https://h/"),
        ("https://h:0443/", "https://h/"),
        ("https://h:80/", "https://h:80/"),
        ("http://h:443/", "http://h:443/"),
        ("ws://h:80/", "ws://h/"),
        ("wss://h:443/", "wss://h/"),
        ("ftp://h:21/", "ftp://h/"),
        ("ftp://h:80/", "ftp://h:80/"),
        ("foo://h:80/", "foo://h:80/"),
        ("//h:80/", "//h:80/"),
        ("http://h:8a/", "http://h:8a/"),
        ("http://h:8 0/", "http://h:8%200/"),
        ("http://a:b:80/", "http://a:b:80/"),  # host "a", port "b:80" (not a number)
        ("http://h::80/", "http://h::80/"),
        # empty query and fragment are kept
        ("http://h/?", "http://h/?"),
        ("http://h/#", "http://h/#"),
        ("http://h/?#", "http://h/?#"),
        ("http://h?q", "http://h/?q"),
        ("http://h#f", "http://h/#f"),
        # repairs
        ("http://h/100%", "http://h/100%25"),
        ("http://h/100%2525", "http://h/100%2525"),
        ("http://h/a b?c d#e f", "http://h/a%20b?c%20d#e%20f"),
        ("http://h/é?é#é", "http://h/%C3%A9?%C3%A9#%C3%A9"),
        ("http://h/%e4%b8%ad", "http://h/%E4%B8%AD"),
        ("http://h/{x}|\\^`", "http://h/%7Bx%7D%7C%5C%5E%60"),
        # reserved escapes are never decoded, the path's case never changes
        ("http://h/a%2fb%3fc%3Dd%26e%2Bf%40g%3A", "http://h/a%2Fb%3Fc%3Dd%26e%2Bf%40g%3A"),
        ("http://h/AbC/DEF", "http://h/AbC/DEF"),
        ("http://h/?%7e=%7E&%2B=%2b", "http://h/?~=~&%2B=%2B"),
        ("http://h/#%7E%2f", "http://h/#~%2F"),
        # a "scheme" that is not one leaves a relative reference
        ("1x://Host/a/../b", "1x://Host/a/../b"),
        ("a+b.c://H/", "a+b.c://h/"),
        ("A-1://H/./x", "a-1://h/x"),
        ("mailto:John.Doe%40example.com", "mailto:John.Doe%40example.com"),
        # ... unless decoding makes one: RFC 3986 §4.2 puts './' in front.
        ("%41b:c", "./Ab:c"),
        ("a%2Db:c?q", "./a-b:c?q"),
        ("%41b/c:d", "Ab/c:d"),
        ("a%3Ab:c", "a%3Ab:c"),
        ("é:x", "%C3%A9:x"),
        ("1x:a", "1x:a"),
        ("urn:ISBN:0-395-36341-1", "urn:ISBN:0-395-36341-1"),
        ("", ""),
    ],
)
def test_normalize(uri, expected):
    assert normalize(uri) == expected
    assert normalize(expected) == expected
    check(expected)


@pytest.mark.parametrize(
    "uri, expected",
    [
        ("http://h/?b=2&a=1&b=1&a=0", "http://h/?a=1&a=0&b=2&b=1"),
        ("http://h/?b&&a", "http://h/?&a&b"),
        ("http://h/?b=1&a", "http://h/?a&b=1"),
        ("http://h/?a=2&a", "http://h/?a=2&a"),  # stable: both are named 'a'
        ("http://h/?%62=1&a=2", "http://h/?a=2&b=1"),  # names compared once normalized
        ("http://h/?z=%7e&y=1#frag", "http://h/?y=1&z=~#frag"),
        ("http://h/?", "http://h/?"),
        ("http://h/", "http://h/"),
        ("http://h/?B=1&a=1", "http://h/?B=1&a=1"),  # case-sensitive: 'B' < 'a'
    ],
)
def test_normalize_sort_query(uri, expected):
    assert normalize(uri, sort_query=True) == expected
    assert normalize(expected, sort_query=True) == expected


@pytest.mark.parametrize(
    "uri, expected",
    [
        ("http://h/p#frag", "http://h/p"),
        ("http://h/p?q#frag", "http://h/p?q"),
        ("http://h/#", "http://h/"),
        ("http://h/p", "http://h/p"),
        ("#f", ""),
    ],
)
def test_normalize_drop_fragment(uri, expected):
    assert normalize(uri, drop_fragment=True) == expected


def test_normalize_both_options():
    assert normalize("HTTP://H:80/a/../b?y=2&x=1#f", sort_query=True, drop_fragment=True) == "http://h/b?x=1&y=2"


def test_normalize_options_are_keyword_only():
    with pytest.raises(TypeError):
        normalize("http://h/", True)
    with pytest.raises(TypeError):
        normalize("http://h/", True, True)


@pytest.mark.parametrize(
    "uri, expected",
    [
        # WPT: no ASCII form; written as percent-encoded UTF-8, nothing lost
        ("http://a b.é/", "http://a%20b.%C3%A9/"),
        ("http://\u00c9\u00a0x.com/", "http://%C3%89%C2%A0x.com/"),
        ("http://é%2F.com/", "http://%C3%A9%2F.com/"),  # a reserved escape is never decoded
        ("http://é%zz.com/", "http://%C3%A9%25zz.com/"),
        ("http://%E9é.com/", "http://%E9%C3%A9.com/"),  # escapes that are not UTF-8
        ("http://\u0661a.com/", "http://%D9%A1a.com/"),  # a bidi violation
        ("http://\u200d.com/", "http://%E2%80%8D.com/"),  # a joiner out of context
        ("http://xn--zz.é/", "http://xn--zz.%C3%A9/"),
        ("http://ab\x00cd.例/", "http://ab%00cd.%E4%BE%8B/"),  # NUL: not cut short
        ("http://\x00¡/", "http://%00%C2%A1/"),
        # IP literals are never mapped
        ("http://[é]/", "http://[%C3%A9]/"),
    ],
)
def test_normalize_host_without_ascii_form(uri, expected):
    assert normalize(uri) == expected
    assert normalize(expected) == expected
    check(expected)
    if not uri.startswith("http://["):
        with pytest.raises(PercentEncodingError) as info:
            normalize(uri, strict_idna=True)
        assert info.value.position == len("http://")


@pytest.mark.parametrize(
    "uri, expected",
    [
        # hosts browsers take that strict IDNA2008 refuses
        ("https://i\u2764\ufe0f.ws", "https://xn--i-7iq.ws/"),
        ("http://\u20acxample.com/", "http://xn--xample-hc1c.com/"),
        ("https://\u00a3\u00a3\u00a3.com", "https://xn--9aaa.com/"),
        ("http://puny\u00a3code.com", "http://xn--punycode-eja.com/"),
        ("http://é..com/", "http://xn--9ca..com/"),
        ("http://例%41.jp/", "http://xn--a-kb7a.jp/"),  # escapes and non-ASCII mixed
        ("http://%E4%BE%8B.jp/", "http://xn--fsq.jp/"),
        ("HTTP://BÜCHER.de/", "http://xn--bcher-kva.de/"),
        ("http://u@例.jp:8%30/", "http://u@xn--fsq.jp/"),
        ("http://\uff21.com/", "http://a.com/"),  # fullwidth letters map to ASCII
    ],
)
def test_normalize_host_browsers_take(uri, expected):
    assert normalize(uri) == expected
    assert normalize(uri, strict_idna=True) == expected
    assert normalize(expected) == expected


def test_text_extraction_garbage_gets_through():
    uri = "http://bugs.kde.org\u00a0\u00a0Reporting\u00a0a\u00a0bug"
    out = normalize(uri)
    assert out == "http://bugs.kde.org%C2%A0%C2%A0reporting%C2%A0a%C2%A0bug/"
    assert normalize(out) == out


@pytest.mark.parametrize("host", ["例.jp", "%E4%BE%8B.jp", "%e4%be%8b.JP", "xn--fsq.jp", "XN--FSQ.jp",
                                  "例%2Ejp", "例\uff0ejp"])  # U+FF0E maps to "."
def test_one_host_three_spellings(host):
    assert equivalent("http://" + host + "/", "http://xn--fsq.jp/")


# ---------------------------------------------------------------- known peer bugs


def test_reserved_escape_in_path_stays_encoded():
    # url-normalize has turned %3F in a path into '?', moving the rest to the query.
    assert normalize("http://example.com/a%3Fb?x=1") == "http://example.com/a%3Fb?x=1"
    assert normalize("http://example.com/a%3fb") == "http://example.com/a%3Fb"


def test_unreserved_escape_decoded_and_iri_host_kept():
    # rfc3986's normalizer leaves %7E encoded and drops an IRI's host.
    assert normalize("http://example.com/%7Euser") == "http://example.com/~user"
    assert normalize(IRI) == IRI_AS_URI


def test_default_port_and_dot_segments_removed():
    # w3lib's canonicalize_url has kept ':80' and dot segments.
    assert normalize("http://example.com:80/a/./b/../c") == "http://example.com/a/c"


def test_reserved_escapes_not_decoded_by_requote_or_normalize():
    # yarl's requoter decodes reserved characters such as %26 and %3D.
    uri = "http://example.com/a%2Fb%3Fc%26d%3De?x=%26%3D%2B"
    assert requote(uri) == uri
    assert normalize(uri) == uri


# ---------------------------------------------------------------- IRIs


def test_iri_to_uri_seed():
    assert iri_to_uri(IRI) == IRI_AS_URI


def test_uri_to_iri_seed():
    assert uri_to_iri(IRI_AS_URI) == IRI


@pytest.mark.parametrize(
    "iri, expected",
    [
        ("", ""),
        ("/a%2fb%7e", "/a%2fb%7e"),  # escapes kept exactly as written
        ("/a%7E", "/a%7E"),
        ("http://Example.COM/A", "http://Example.COM/A"),  # ASCII host untouched
        ("http://例え.JP/", "http://xn--r8jz45g.jp/"),
        ("http://ü@例え.jp:8080/ö?ä=ß#ñ", "http://%C3%BC@xn--r8jz45g.jp:8080/%C3%B6?%C3%A4=%C3%9F#%C3%B1"),
        ("/a b", "/a%20b"),
        ("/100%", "/100%25"),
        ("/100%2525", "/100%2525"),
        ("/%zz%4", "/%25zz%254"),
        (RESERVED, RESERVED),
        ("/\U0001f600", "/%F0%9F%98%80"),
        ("/\ue000?\ue000", "/%EE%80%80?%EE%80%80"),
    ],
)
def test_iri_to_uri(iri, expected):
    assert iri_to_uri(iri) == expected
    check(expected)


def test_iri_to_uri_host_without_ascii_form():
    assert iri_to_uri("http://a b.é/") == "http://a%20b.%C3%A9/"
    assert iri_to_uri("http://例%41.jp/") == "http://xn--a-kb7a.jp/"
    assert iri_to_uri("http://%E4%BE%8B.jp/") == "http://%E4%BE%8B.jp/"  # escapes as written
    with pytest.raises(PercentEncodingError) as info:
        iri_to_uri("http://a b.é/", strict_idna=True)
    assert info.value.position == 7


@pytest.mark.parametrize(
    "uri, expected",
    [
        ("", ""),
        ("/%e5%bc%95", "/引"),  # lowercase hex decodes too
        ("/%20%2F%41%25%7E", "/%20%2F%41%25%7E"),  # ASCII escapes stay
        ("/%2f%7e", "/%2f%7e"),  # ... as written
        ("/%C3%28", "/%C3%28"),  # invalid UTF-8
        ("/%E4%B8", "/%E4%B8"),  # truncated
        ("/%E4%B8/%E4%B8%AD", "/%E4%B8/中"),
        ("/%E4%E4%B8%AD", "/%E4中"),
        ("/%B8%AD%E4%B8%AD", "/%B8%AD中"),
        ("/%C0%AF", "/%C0%AF"),  # overlong
        ("/%ED%A0%80", "/%ED%A0%80"),  # an encoded surrogate
        ("/%F4%90%80%80", "/%F4%90%80%80"),  # beyond U+10FFFF
        ("/%C2%80", "/%C2%80"),  # U+0080, a C1 control: not ucschar
        ("/%C2%A0", "/\u00a0"),  # U+00A0, the first ucschar
        ("/%EF%BF%BF", "/%EF%BF%BF"),  # U+FFFF, a noncharacter
        ("/%EF%B7%90", "/%EF%B7%90"),  # U+FDD0, a noncharacter
        ("/%F0%9F%98%80", "/\U0001f600"),
        ("/%EE%80%80?%EE%80%80#%EE%80%80", "/%EE%80%80?\ue000#%EE%80%80"),  # iprivate: query only
        ("/100%2525", "/100%2525"),
        ("/100%", "/100%"),
        ("http://xn--r8jz45g.jp/", "http://例え.jp/"),
        ("http://www.xn--r8jz45g.jp:8080/", "http://www.例え.jp:8080/"),
        ("http://xn--zz-.com/", "http://xn--zz-.com/"),  # not a valid A-label: left
        ("http://xn--.com/", "http://xn--.com/"),
        ("http://user%C3%BC@h/", "http://userü@h/"),
        ("http://%C3%A9.com/", "http://é.com/"),
    ],
)
def test_uri_to_iri(uri, expected):
    assert uri_to_iri(uri) == expected


@pytest.mark.parametrize(
    "iri",
    [IRI, "http://bücher.de/straße?q=ñandú#café", "http://例え.jp/\U0001f600?\ue000", "mailto:josé@例え.jp"],
)
def test_iri_round_trip(iri):
    assert uri_to_iri(iri_to_uri(iri)) == iri


# ---------------------------------------------------------------- double decoding


def test_no_double_decoding():
    for f in (requote, normalize, uri_to_iri, iri_to_uri):
        assert f("100%2525") == "100%2525", f
        assert f("http://h/100%2525") == "http://h/100%2525", f


# ---------------------------------------------------------------- bad arguments


_FUNCTIONS_1 = [requote, check, is_valid, normalize, iri_to_uri, uri_to_iri]


@pytest.mark.parametrize("func", _FUNCTIONS_1, ids=lambda f: f.__name__)
@pytest.mark.parametrize("arg", [b"http://h/", bytearray(b"x"), memoryview(b"x"), None, 1, ["x"]],
                         ids=lambda a: type(a).__name__)
def test_type_errors(func, arg):
    with pytest.raises(TypeError):
        func(arg)


@pytest.mark.parametrize("a, b", [(b"x", "x"), ("x", b"x"), (None, "x"), ("x", 1)])
def test_equivalent_type_errors(a, b):
    with pytest.raises(TypeError):
        equivalent(a, b)


@pytest.mark.parametrize("func", _FUNCTIONS_1, ids=lambda f: f.__name__)
def test_missing_argument(func):
    with pytest.raises(TypeError):
        func()


class _Str(str):
    pass


@pytest.mark.parametrize("func", [requote, normalize, iri_to_uri, uri_to_iri], ids=lambda f: f.__name__)
def test_str_subclass(func):
    s = "HTTP://H/%7e a"
    assert func(_Str(s)) == func(s)
    assert type(func(_Str(s))) is str


# ---------------------------------------------------------------- lone surrogates


SURROGATE_INPUTS = ["\ud800", "a\udfff", "http://h/\udc80", "http://\ud800/", "http://é\ud800.com/",
                    "http://h/?\udbff", "http://h/#\udc00", "\ud83d\ude00"]


@pytest.mark.parametrize("s", SURROGATE_INPUTS)
@pytest.mark.parametrize("func", [requote, normalize, iri_to_uri], ids=lambda f: f.__name__)
def test_lone_surrogate_error(func, s):
    pos = next(i for i, c in enumerate(s) if "\ud800" <= c <= "\udfff")
    with pytest.raises(PercentEncodingError) as info:
        func(s)
    assert info.value.position == pos
    assert "surrogate" in info.value.reason


@pytest.mark.parametrize("s", SURROGATE_INPUTS)
def test_lone_surrogate_normalize_options(s):
    with pytest.raises(PercentEncodingError):
        normalize(s, sort_query=True, drop_fragment=True)
    with pytest.raises(PercentEncodingError):
        equivalent(s, "x")
    with pytest.raises(PercentEncodingError):
        equivalent("x", s)


@pytest.mark.parametrize("s", SURROGATE_INPUTS)
def test_lone_surrogate_check(s):
    pos = next(i for i, c in enumerate(s) if "\ud800" <= c <= "\udfff")
    with pytest.raises(PercentEncodingError) as info:
        check(s)
    # Characters before the surrogate may be disallowed too ('é'); the first one counts.
    first_bad = next(i for i, c in enumerate(s) if c not in UNRESERVED + RESERVED + "%")
    assert info.value.position == min(pos, first_bad)
    assert is_valid(s) is False

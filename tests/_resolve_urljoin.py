"""Where urllib.parse.urljoin and RFC 3986 5.2 (pctcodec.resolve) part ways:
one predicate per class of input, each true of every (base, reference) pair
of its class. The classes and their examples are the table of
docs/resolve.md (test_resolve.py checks both against each other and every
difference the differential test finds against them).

Predicates look at the inputs (split as the model splits them), never at
urljoin's answer: a class is a property of the input, and the test fails on
a difference no class explains.
"""
import re
import urllib.parse

from _resolve_reference import parse, remove_dot_segments


def _low_scheme(s):
    scheme = parse(s)[0]
    return scheme.lower() if scheme is not None else None


def controls(b, r):
    """urlsplit removes tab, CR and LF anywhere and strips leading C0
    controls and spaces."""
    return any(c in "\t\r\n" for c in b + r) or any(s[:1] and s[0] <= " " for s in (b, r))


def scheme_case(b, r):
    """urlsplit lowercases the scheme."""
    return any(parse(s)[0] is not None and parse(s)[0] != parse(s)[0].lower() for s in (b, r))


def not_hierarchical(b, r):
    """urljoin returns the reference as it is for a scheme not in
    urllib.parse.uses_relative."""
    scheme = _low_scheme(r) or _low_scheme(b)
    return scheme not in urllib.parse.uses_relative


def same_scheme(b, r):
    """urljoin reads a reference with the base's scheme without it (5.2.2's
    non-strict parser): resolve(..., strict=False)."""
    return _low_scheme(r) is not None and _low_scheme(r) == _low_scheme(b)


def reference_dots(b, r):
    """A reference with a scheme or an authority keeps its dot segments in
    urljoin; 5.2.2 removes them."""
    scheme, authority, path = parse(r)[:3]
    return (scheme is not None or authority is not None) and remove_dot_segments(path) != path


def empty_reference(b, r):
    """urljoin returns the base for "", fragment included; 5.2.2 drops the
    base's fragment."""
    return r == ""


def empty_query_or_fragment(b, r):
    """urlunsplit drops an empty query ("?") or fragment ("#"), and urljoin
    takes the base's query for an empty one."""
    return any(x == "" for x in parse(r)[3:]) or parse(b)[3] == ""


def empty_segments(b, r):
    """urljoin drops empty segments ("//") of a path it merges."""
    return "//" in parse(r)[2] or "//" in parse(b)[2]


def empty_authority(b, r):
    """urllib reads an empty authority ("///g", "file:///x") as none."""
    return parse(r)[1] == "" or parse(b)[1] == ""


def no_authority(b, r):
    """A base of a scheme in urllib.parse.uses_netloc with no authority:
    urlunsplit writes "//" before an absolute path."""
    scheme, authority = parse(b)[:2]
    return authority is None and scheme.lower() in urllib.parse.uses_netloc


def params(b, r):
    """urlparse cuts ";params" off the last segment, so "..;p" and ".;p"
    are dot segments to urljoin (for schemes of urllib.parse.uses_params)."""
    return ";" in parse(r)[2] or ";" in parse(b)[2]


def bad_authority(b, r):
    """urlsplit raises ValueError for a '[' or ']' it cannot read as an IPv6
    literal, or for a port that is not a number (urljoin's answer is then
    the exception)."""
    return any(parse(s)[1] is not None and ("[" in parse(s)[1] or "]" in parse(s)[1])
               for s in (b, r))


def scheme_start(b, r):
    """urlsplit before Python 3.11 takes any prefix of scheme characters
    before ':' for a scheme, one that starts with a digit, '+', '-' or '.'
    too ("..x:" is absolute there); 3.1 wants a letter first."""
    return any(re.match(r"[0-9+.\-][A-Za-z0-9+.\-]*:", s) for s in (b, r))


CLASSES = {
    "controls": controls,
    "scheme_case": scheme_case,
    "not_hierarchical": not_hierarchical,
    "same_scheme": same_scheme,
    "reference_dots": reference_dots,
    "empty_reference": empty_reference,
    "empty_query_or_fragment": empty_query_or_fragment,
    "empty_segments": empty_segments,
    "empty_authority": empty_authority,
    "no_authority": no_authority,
    "params": params,
    "bad_authority": bad_authority,
    "scheme_start": scheme_start,
}


def classify(b, r):
    """The names of the classes (b, r) falls in."""
    return [name for name, pred in CLASSES.items() if pred(b, r)]


def urljoin(b, r):
    """urljoin's answer, or the class of the exception it raises."""
    try:
        return urllib.parse.urljoin(b, r)
    except ValueError as exc:
        return type(exc)

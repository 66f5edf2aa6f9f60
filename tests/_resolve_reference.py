"""Reference resolution written from RFC 3986 alone, the test's model of
pctcodec.resolve: the regular expression of Appendix B, the pseudocode of
5.2.2 with its merge (5.2.3), remove_dot_segments as the loop of 5.2.4
reads it (string prefixes, one step at a time), and the recomposition of
5.3. Undefined components are None, as in the RFC's "defined" tests.
"""
import re

# RFC 3986 Appendix B, verbatim.
_URI = re.compile(r"^(([^:/?#]+):)?(//([^/?#]*))?([^?#]*)(\?([^#]*))?(#(.*))?", re.DOTALL)
# 3.1: a scheme is ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ).
_SCHEME = re.compile(r"[A-Za-z][A-Za-z0-9+\-.]*\Z")


def parse(s):
    """(scheme, authority, path, query, fragment), None where undefined.

    Appendix B's regex finds a scheme-like prefix anywhere before ':'; a
    prefix that is not a scheme by 3.1's rule makes the string a relative
    reference (4.2), read again from its start as one."""
    m = _URI.match(s)
    scheme = m.group(2)
    if scheme is not None and not _SCHEME.match(scheme):
        rest = re.match(r"^(//([^/?#]*))?([^?#]*)(\?([^#]*))?(#(.*))?", s, re.DOTALL)
        return (None, rest.group(2), rest.group(3), rest.group(5), rest.group(7))
    return (scheme, m.group(4), m.group(5), m.group(7), m.group(9))


def remove_dot_segments(path):
    """RFC 3986 5.2.4, step by step."""
    inp, out = path, ""
    while inp:
        if inp.startswith("../"):  # A
            inp = inp[3:]
        elif inp.startswith("./"):
            inp = inp[2:]
        elif inp.startswith("/./"):  # B
            inp = "/" + inp[3:]
        elif inp == "/.":
            inp = "/"
        elif inp.startswith("/../"):  # C
            inp = "/" + inp[4:]
            out = out[:out.rfind("/")] if "/" in out else ""
        elif inp == "/..":
            inp = "/"
            out = out[:out.rfind("/")] if "/" in out else ""
        elif inp in (".", ".."):  # D
            inp = ""
        else:  # E
            start = 1 if inp.startswith("/") else 0
            end = inp.find("/", start)
            end = len(inp) if end < 0 else end
            out += inp[:end]
            inp = inp[end:]
    return out


def merge(base, ref_path):
    """RFC 3986 5.2.3."""
    b_authority, b_path = base[1], base[2]
    if b_authority is not None and b_path == "":
        return "/" + ref_path
    k = b_path.rfind("/")
    return b_path[:k + 1] + ref_path if k >= 0 else ref_path


def recompose(t):
    """RFC 3986 5.3."""
    scheme, authority, path, query, fragment = t
    out = ""
    if scheme is not None:
        out += scheme + ":"
    if authority is not None:
        out += "//" + authority
    out += path
    if query is not None:
        out += "?" + query
    if fragment is not None:
        out += "#" + fragment
    return out


def resolve(base, ref, strict=True):
    """RFC 3986 5.2.2 (base must have a scheme)."""
    B = parse(base)
    assert B[0] is not None, "base is not absolute"
    R = list(parse(ref))
    if not strict and R[0] is not None and R[0].lower() == B[0].lower():
        R[0] = None
    if R[0] is not None:
        T = (R[0], R[1], remove_dot_segments(R[2]), R[3])
    else:
        if R[1] is not None:
            T = (None, R[1], remove_dot_segments(R[2]), R[3])
        else:
            if R[2] == "":
                path = B[2]
                query = R[3] if R[3] is not None else B[3]
            else:
                if R[2].startswith("/"):
                    path = remove_dot_segments(R[2])
                else:
                    path = remove_dot_segments(merge(B, R[2]))
                query = R[3]
            T = (None, B[1], path, query)
        T = (B[0],) + T[1:]
    return recompose(T + (R[4],))


def has_scheme(s):
    return parse(s)[0] is not None

"""A slow, literal model of pctcodec's RFC 3986 / RFC 3987 functions.

Written from the RFCs and the documented behaviour only, never from the C code,
so that the differential tests compare two independent readings. Clarity wins
over speed everywhere: strings are walked one character at a time, the URI is
split with the regular expression of RFC 3986 Appendix B, and dot segments are
removed with the input/output buffer algorithm of RFC 3986 §5.2.4.

Hosts: a reg-name holding non-ASCII characters (or, in normalize, escapes
of non-ASCII bytes) is mapped by the URL Standard's domain to ASCII, modelled
in ``_uts46_reference``; one with no ASCII form is written as the other
parts are, as percent-encoded UTF-8.

Exceptions: a lone surrogate raises ``PercentEncodingError`` at its index,
and so does ``check`` for its first offending character (the model's own
class: compare ``position``); with ``strict_idna`` a host with no ASCII form
raises it at the host.
"""
import re

from _uts46_reference import domain_to_ascii

ALPHA = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
DIGIT = "0123456789"
HEXDIG = DIGIT + "ABCDEFabcdef"
UNRESERVED = ALPHA + DIGIT + "-._~"
GEN_DELIMS = ":/?#[]@"
SUB_DELIMS = "!$&'()*+,;="
RESERVED = GEN_DELIMS + SUB_DELIMS
URI_CHARS = UNRESERVED + RESERVED  # plus '%' as the start of an escape

DEFAULT_PORTS = {"http": "80", "ws": "80", "https": "443", "wss": "443", "ftp": "21"}

# RFC 3986 Appendix B; DOTALL so that a newline cannot end the match early.
URI_REGEX = re.compile(r"^(([^:/?#]+):)?(//([^/?#]*))?([^?#]*)(\?([^#]*))?(#(.*))?$", re.DOTALL)
# The same expression with the scheme group unable to match: a relative reference.
RELATIVE_REGEX = re.compile(r"^()()(//([^/?#]*))?([^?#]*)(\?([^#]*))?(#(.*))?$", re.DOTALL)
SCHEME_REGEX = re.compile(r"[A-Za-z][A-Za-z0-9+.\-]*\Z")


class PercentEncodingError(ValueError):
    def __init__(self, reason, position):
        super().__init__("%s at position %d" % (reason, position))
        self.reason = reason
        self.position = position


# ---------------------------------------------------------------- helpers


def _hex2(pair):
    return len(pair) == 2 and pair[0] in HEXDIG and pair[1] in HEXDIG


def has_surrogate(s):
    return any(0xD800 <= ord(c) <= 0xDFFF for c in s)


def raise_for_surrogate(s):
    """A lone surrogate has no UTF-8 form: PercentEncodingError at the first."""
    for i, c in enumerate(s):
        if 0xD800 <= ord(c) <= 0xDFFF:
            raise PercentEncodingError("lone surrogate U+%04X has no UTF-8 form" % ord(c), i)


def encode_char(c):
    """UTF-8 percent-encoding of one character, uppercase hex."""
    return "".join("%%%02X" % b for b in c.encode("utf-8"))


def _repair(s, keep_escape):
    out = []
    i = 0
    while i < len(s):
        c = s[i]
        if c == "%":
            if _hex2(s[i + 1 : i + 3]):
                out.append(keep_escape(s[i : i + 3]))
                i += 3
                continue
            out.append("%25")
        elif c in URI_CHARS:
            out.append(c)
        else:
            out.append(encode_char(c))
        i += 1
    return "".join(out)


def _upper_escape(esc):
    return esc.upper()


def _as_written(esc):
    return esc


# ---------------------------------------------------------------- requote / check


def requote(uri):
    if not isinstance(uri, str):
        raise TypeError("requote() argument must be str")
    raise_for_surrogate(uri)
    return _repair(uri, _upper_escape)


def check(s):
    if not isinstance(s, str):
        raise TypeError("check() argument must be str")
    i = 0
    while i < len(s):
        c = s[i]
        if c == "%":
            if _hex2(s[i + 1 : i + 3]):
                i += 3
                continue
            raise PercentEncodingError("'%' not followed by two hex digits", i)
        if c not in URI_CHARS:
            raise PercentEncodingError("character %r not allowed in a URI" % c, i)
        i += 1


def is_valid(s):
    try:
        check(s)
    except PercentEncodingError:
        return False
    return True


# ---------------------------------------------------------------- splitting


class Parts:
    """The five components of RFC 3986 §3; None means 'not defined'."""

    def __init__(self, scheme, authority, path, query, fragment):
        self.scheme = scheme
        self.authority = authority
        self.path = path
        self.query = query
        self.fragment = fragment


def split(uri):
    m = URI_REGEX.match(uri)
    scheme = m.group(2)
    if scheme is not None and not SCHEME_REGEX.match(scheme):
        # Not a scheme: the whole string is a relative reference.
        m = RELATIVE_REGEX.match(uri)
        scheme = None
    return Parts(
        scheme,
        m.group(4) if m.group(3) is not None else None,
        m.group(5),
        m.group(7) if m.group(6) is not None else None,
        m.group(9) if m.group(8) is not None else None,
    )


def split_authority(authority):
    """(userinfo or None, host, port or None) of an authority string."""
    userinfo = None
    at = authority.rfind("@")
    if at >= 0:
        userinfo, hostport = authority[:at], authority[at + 1 :]
    else:
        hostport = authority
    if hostport.startswith("["):
        close = hostport.find("]")
        if close < 0:
            # An unclosed IP literal has no port that can be told apart.
            return userinfo, hostport, None
        host, after = hostport[: close + 1], hostport[close + 1 :]
        if after == "":
            return userinfo, host, None
        if after.startswith(":"):
            return userinfo, host, after[1:]
        # Text after the ']' that is no port: keep it in the host.
        return userinfo, hostport, None
    # A reg-name holds no ':' (RFC 3986 3.2.2), so the first one ends the host.
    colon = hostport.find(":")
    if colon >= 0:
        return userinfo, hostport[:colon], hostport[colon + 1 :]
    return userinfo, hostport, None


def recompose(scheme, authority, path, query, fragment):
    """RFC 3986 §5.3."""
    out = []
    if scheme is not None:
        out.append(scheme + ":")
    if authority is not None:
        out.append("//" + authority)
    out.append(path)
    if query is not None:
        out.append("?" + query)
    if fragment is not None:
        out.append("#" + fragment)
    return "".join(out)


# ---------------------------------------------------------------- normalize


def normalize_component(s, lower_letters=False):
    """RFC 3986 §6.2.2.1-2: repair, decode unreserved escapes, uppercase the rest."""
    out = []
    i = 0
    while i < len(s):
        c = s[i]
        if c == "%":
            if _hex2(s[i + 1 : i + 3]):
                ch = chr(int(s[i + 1 : i + 3], 16))
                if ch in UNRESERVED:
                    out.append(ch.lower() if lower_letters else ch)
                else:
                    out.append(s[i : i + 3].upper())
                i += 3
                continue
            out.append("%25")
        elif c in URI_CHARS:
            out.append(c.lower() if (lower_letters and c in ALPHA) else c)
        else:
            out.append(encode_char(c))
        i += 1
    return "".join(out)


def remove_dot_segments(path):
    """RFC 3986 §5.2.4, step by step with an input and an output buffer."""
    inp = path
    output = []  # list of segments, each starting with '/' except maybe the first
    while inp:
        # A
        if inp.startswith("../"):
            inp = inp[3:]
        elif inp.startswith("./"):
            inp = inp[2:]
        # B
        elif inp.startswith("/./"):
            inp = "/" + inp[3:]
        elif inp == "/.":
            inp = "/"
        # C
        elif inp.startswith("/../"):
            inp = "/" + inp[4:]
            if output:
                output.pop()
        elif inp == "/..":
            inp = "/"
            if output:
                output.pop()
        # D
        elif inp == "." or inp == "..":
            inp = ""
        # E
        else:
            start = 1 if inp.startswith("/") else 0
            end = inp.find("/", start)
            if end < 0:
                end = len(inp)
            output.append(inp[:end])
            inp = inp[end:]
    return "".join(output)


def _unescape_for_idna(host):
    """The host with every escape decoded but those of reserved characters
    and of '%', or None when the bytes are then not UTF-8."""
    out = bytearray()
    i = 0
    while i < len(host):
        if host[i] == "%" and _hex2(host[i + 1 : i + 3]):
            byte = int(host[i + 1 : i + 3], 16)
            if chr(byte) not in RESERVED + "%":
                out.append(byte)
                i += 3
                continue
        out += host[i].encode("utf-8")
        i += 1
    try:
        return out.decode("utf-8")
    except UnicodeDecodeError:
        return None


def idna_host(host, escapes):
    """The ASCII form of a reg-name that needs one, the host itself when it
    needs none, or None when it has none."""
    if host.startswith("["):
        return host  # an IP literal
    if any(ord(c) > 0x7F for c in host):
        pass
    elif not (escapes and re.search("%[89A-Fa-f][0-9A-Fa-f]", host)):
        return host  # plain ASCII: written as it is
    text = _unescape_for_idna(host)
    return None if text is None else domain_to_ascii(text)


def _mapped_host(host, escapes, strict_idna, position):
    mapped = idna_host(host, escapes)
    if mapped is not None:
        return mapped
    if strict_idna:
        raise PercentEncodingError("host has no IDNA (UTS #46) form", position)
    return host  # written as percent-encoded UTF-8, like every other part


def _zone_start(literal):
    """RFC 6874: an IP literal's zone id, an interface name with its case,
    starts at its first "%25", or a bare '%' (repaired to "%25")."""
    for i, c in enumerate(literal):
        pair = literal[i + 1 : i + 3]
        if c == "%" and not (_hex2(pair) and pair != "25"):
            return i
    return len(literal)


def normalize_host(host):
    cut = _zone_start(host) if host.startswith("[") else len(host)
    return normalize_component(host[:cut], lower_letters=True) + normalize_component(host[cut:])


def normalize_port(port, scheme):
    port = normalize_component(port)  # ':8%30' is ':80'
    if port == "":
        return None
    if all(c in DIGIT for c in port):
        port = port.lstrip("0") or "0"
        if scheme is not None and DEFAULT_PORTS.get(scheme) == port:
            return None
        return port
    return requote(port)


def _reads_as_scheme(path):
    m = re.match(r"([^:/?#]+):", path)
    return m is not None and SCHEME_REGEX.match(m.group(1)) is not None


def _param_name(param):
    return param.split("=", 1)[0]


def _host_position(uri, p):
    """Index of the host in uri (the authority follows the scheme's "//")."""
    start = (len(p.scheme) + 1 if p.scheme is not None else 0) + 2
    at = p.authority.rfind("@")
    return start + at + 1


# The URL Standard's cleanup of its input: C0 controls and space at the
# ends, ASCII tab and newline anywhere.
_C0_AND_SPACE = "".join(map(chr, range(0x21)))


def strip_url_whitespace(uri):
    return uri.strip(_C0_AND_SPACE).replace("\t", "").replace("\n", "").replace("\r", "")


def normalize(uri, *, sort_query=False, drop_fragment=False, strict_idna=False,
              strip_whitespace=True):
    if not isinstance(uri, str):
        raise TypeError("normalize() argument must be str")
    raise_for_surrogate(uri)
    if strip_whitespace:
        uri = strip_url_whitespace(uri)
    p = split(uri)

    scheme = p.scheme.lower() if p.scheme is not None else None

    authority = None
    if p.authority is not None:
        userinfo, host, port = split_authority(p.authority)
        authority = ""
        if userinfo is not None:
            authority += normalize_component(userinfo) + "@"
        host = _mapped_host(host, True, strict_idna, _host_position(uri, p))
        authority += normalize_host(host)
        if port is not None:
            port = normalize_port(port, scheme)
            if port is not None:
                authority += ":" + port

    path = normalize_component(p.path)
    if scheme is not None or authority is not None:
        path = remove_dot_segments(path)
    if authority is None and path.startswith("//"):
        path = "/." + path
    if scheme is None and authority is None and _reads_as_scheme(path):
        # Decoding made a scheme ('%41b:c' -> 'Ab:c'): RFC 3986 §4.2's dot
        # segment keeps the reference relative, and normalize idempotent.
        path = "./" + path
    if authority is not None and path == "":
        path = "/"

    query = p.query
    if query is not None:
        query = normalize_component(query)
        if sort_query:
            params = query.split("&")
            params = sorted(params, key=_param_name)  # sorted() is stable
            query = "&".join(params)

    fragment = None
    if p.fragment is not None and not drop_fragment:
        fragment = normalize_component(p.fragment)

    return recompose(scheme, authority, path, query, fragment)


def equivalent(a, b):
    if not isinstance(a, str) or not isinstance(b, str):
        raise TypeError("equivalent() arguments must be str")
    return normalize(a) == normalize(b)


# ---------------------------------------------------------------- IRIs (RFC 3987)


def iri_to_uri(iri, *, strict_idna=False):
    if not isinstance(iri, str):
        raise TypeError("iri_to_uri() argument must be str")
    raise_for_surrogate(iri)
    p = split(iri)
    authority = None
    if p.authority is not None:
        userinfo, host, port = split_authority(p.authority)
        authority = ""
        if userinfo is not None:
            authority += _repair(userinfo, _as_written) + "@"
        host = _mapped_host(host, False, strict_idna, _host_position(iri, p))
        authority += _repair(host, _as_written)
        if port is not None:
            authority += ":" + _repair(port, _as_written)
    return recompose(
        p.scheme,  # a valid scheme holds URI characters only
        authority,
        _repair(p.path, _as_written),
        None if p.query is None else _repair(p.query, _as_written),
        None if p.fragment is None else _repair(p.fragment, _as_written),
    )


def is_ucschar(cp):
    return (
        0xA0 <= cp <= 0xD7FF
        or 0xF900 <= cp <= 0xFDCF
        or 0xFDF0 <= cp <= 0xFFEF
        or (0x10000 <= cp <= 0xEFFFD and (cp & 0xFFFF) <= 0xFFFD and not 0xE0000 <= cp <= 0xE0FFF)
    )


# RFC 3987 §4.1: IRIs MUST NOT contain these, so uri_to_iri leaves them encoded.
BIDI_FORMATTING = "\u200e\u200f\u202a\u202b\u202c\u202d\u202e"


def is_iprivate(cp):
    return 0xE000 <= cp <= 0xF8FF or 0xF0000 <= cp <= 0xFFFFD or 0x100000 <= cp <= 0x10FFFD


def _utf8_length(lead):
    if 0xC2 <= lead <= 0xDF:
        return 2
    if 0xE0 <= lead <= 0xEF:
        return 3
    if 0xF0 <= lead <= 0xF4:
        return 4
    return 0  # ASCII, a continuation byte, or a byte UTF-8 never uses


def decode_escapes(s, allow_private=False):
    """RFC 3987 §3.2 steps 2-4 on one component: ucschar (and iprivate where
    allowed) decoded, except the bidi formatting characters of §4.1."""
    out = []
    i = 0
    while i < len(s):
        if s[i] != "%" or not _hex2(s[i + 1 : i + 3]):
            out.append(s[i])
            i += 1
            continue
        # s[i] starts an escape: try the UTF-8 sequence its byte announces.
        n = _utf8_length(int(s[i + 1 : i + 3], 16))
        escapes = []
        j = i
        while len(escapes) < n and j < len(s) and s[j] == "%" and _hex2(s[j + 1 : j + 3]):
            escapes.append(s[j : j + 3])
            j += 3
        char = None
        if n and len(escapes) == n:
            try:
                char = bytes(int(e[1:], 16) for e in escapes).decode("utf-8")
            except UnicodeDecodeError:
                char = None
        if char is not None and char not in BIDI_FORMATTING and (
            is_ucschar(ord(char)) or (allow_private and is_iprivate(ord(char)))
        ):
            out.append(char)
            i = j
        else:
            out.append(s[i : i + 3])  # as written
            i += 3
    return "".join(out)


def _decode_label(label):
    if label[:4].lower() == "xn--" and label.isascii():
        try:
            text = label[4:].lower().encode("ascii").decode("punycode")
        except (UnicodeError, ValueError, IndexError):
            text = None
        # only the punycode of a label that maps back to it
        if text is not None and domain_to_ascii(text) == label.lower():
            return text
    return decode_escapes(label)


def uri_to_iri(uri):
    if not isinstance(uri, str):
        raise TypeError("uri_to_iri() argument must be str")
    p = split(uri)
    authority = None
    if p.authority is not None:
        userinfo, host, port = split_authority(p.authority)
        authority = ""
        if userinfo is not None:
            authority += decode_escapes(userinfo) + "@"
        authority += ".".join(_decode_label(label) for label in host.split("."))
        if port is not None:
            authority += ":" + decode_escapes(port)
    return recompose(
        p.scheme,
        authority,
        decode_escapes(p.path),
        None if p.query is None else decode_escapes(p.query, allow_private=True),
        None if p.fragment is None else decode_escapes(p.fragment),
    )

"""RFC 3986 tools: repair, validate, normalize and compare URIs; IRI <-> URI.

``requote``, ``check``, ``is_valid``, ``normalize``, ``equivalent`` and
``iri_to_uri`` run in C (``src/core/pct_uri.c``); hosts with non-ASCII
characters go through IDNA (UTS #46) with the ``idna`` package.
``uri_to_iri`` is written here in Python.

The rules (RFC 3986 section 2): unreserved characters ``A-Z a-z 0-9 - . _ ~``
never need escaping, so ``%7E`` and ``~`` are the same URI; reserved
characters ``: / ? # [ ] @ ! $ & ' ( ) * + , ; =`` are data only when
escaped, so ``%2F`` and ``/`` are different URIs and no function here ever
decodes one; ``%`` is always ``%25`` as data; uppercase hex is canonical.
"""
import re

from ._errors import PercentEncodingError
from ._idna import to_unicode
from ._pctcodec import check, equivalent, iri_to_uri, is_valid, normalize, requote

__all__ = [
    "requote",
    "check",
    "is_valid",
    "normalize",
    "equivalent",
    "iri_to_uri",
    "uri_to_iri",
    "PercentEncodingError",
]

# Appendix B, with the scheme held to its grammar (ALPHA *( ALPHA / DIGIT /
# "+" / "-" / "." )), as the C splitter does.
_REFERENCE = re.compile(
    r"(?:[A-Za-z][A-Za-z0-9+.\-]*:)?(?://(?P<authority>[^/?#]*))?[^?#]*"
    r"(?:\?(?P<query>[^#]*))?(?:#.*)?",
    re.DOTALL,
)
_ESCAPES = re.compile(r"(?:%[0-9A-Fa-f]{2})+")

# Bidirectional formatting characters: IRIs must not hold them (RFC 3987 4.1).
_BIDI_FORMATTING = frozenset((0x200E, 0x200F, 0x202A, 0x202B, 0x202C, 0x202D, 0x202E))


def _iri_char(cp, private):
    """ucschar, or iprivate where allowed (the query): RFC 3987 2.2."""
    if cp in _BIDI_FORMATTING:
        return False
    if 0xA0 <= cp <= 0xD7FF or 0xF900 <= cp <= 0xFDCF or 0xFDF0 <= cp <= 0xFFEF:
        return True
    if 0xE000 <= cp <= 0xF8FF:
        return private
    plane, offset = cp >> 16, cp & 0xFFFF
    if offset > 0xFFFD:
        return False
    if 1 <= plane <= 13:
        return True
    if plane == 14:
        return cp >= 0xE1000
    return private and plane >= 15


def _utf8_length(lead):
    if 0xC2 <= lead <= 0xDF:
        return 2
    if 0xE0 <= lead <= 0xEF:
        return 3
    if 0xF0 <= lead <= 0xF4:
        return 4
    return 0


def _decode_escapes(text, private):
    """Decode the escapes of text that form valid UTF-8 for IRI characters."""

    def decode_run(match):
        run = match.group()
        data = bytes.fromhex(run.replace("%", ""))
        try:  # the usual case: the whole run is IRI text
            text = data.decode("utf-8")
            if all(_iri_char(ord(ch), private) for ch in text):
                return text
        except UnicodeDecodeError:
            pass
        out = []
        i = 0
        while i < len(data):
            n = _utf8_length(data[i])
            if n and i + n <= len(data):
                try:
                    ch = data[i:i + n].decode("utf-8")  # strict: no overlongs, no surrogates
                except UnicodeDecodeError:
                    ch = None
                if ch is not None and _iri_char(ord(ch), private):
                    out.append(ch)
                    i += n
                    continue
            out.append(run[3 * i:3 * i + 3])  # ASCII or not IRI text: kept as written
            i += 1
        return "".join(out)

    return _ESCAPES.sub(decode_run, text) if "%" in text else text


def _host_span(uri, match):
    """(start, end) of the host within uri, or None without an authority."""
    start, end = match.span("authority")
    if start < 0:
        return None
    at = uri.rfind("@", start, end)
    if at >= 0:
        start = at + 1
    if uri.startswith("[", start, end):
        return None  # an IP literal: no labels to decode
    colon = uri.rfind(":", start, end)
    return start, (colon if colon >= 0 else end)


def _unicode_host(host):
    labels = host.split(".")
    for i, label in enumerate(labels):
        if label[:4].lower() == "xn--":
            try:
                labels[i] = to_unicode(label)
            except (UnicodeError, ValueError):
                pass  # not valid punycode: left as it is
    return ".".join(labels)


def uri_to_iri(uri: str) -> str:
    """Map a URI to an IRI (RFC 3987 3.2).

    Runs of escapes that form valid UTF-8 for characters an IRI may hold are
    decoded (private-use characters only in the query); ASCII escapes such as
    ``%20`` or ``%2F``, invalid sequences and characters an IRI may not hold
    stay encoded as they were written. Host labels in punycode (``xn--``) are
    decoded with IDNA, or left as they are when that fails.
    """
    if not isinstance(uri, str):
        raise TypeError("uri_to_iri() argument must be str, not %s" % type(uri).__name__)
    uri = str(uri)
    if "%" not in uri and "xn--" not in uri.lower():
        return uri
    match = _REFERENCE.fullmatch(uri)
    q_start, q_end = match.span("query")
    if q_start < 0:
        q_start = q_end = len(uri)
    host = _host_span(uri, match)
    if host is not None:
        h_start, h_end = host
        head = (_decode_escapes(uri[:h_start], False)
                + _unicode_host(_decode_escapes(uri[h_start:h_end], False))
                + _decode_escapes(uri[h_end:q_start], False))
    else:
        head = _decode_escapes(uri[:q_start], False)
    return (head + _decode_escapes(uri[q_start:q_end], True)
            + _decode_escapes(uri[q_end:], False))

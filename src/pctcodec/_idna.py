"""Hosts the way browsers read them: the URL Standard's "domain to ASCII".

Called from the C binding (src/_pctcodec_uri.c, src/_pctcodec_batch.c) for
reg-names holding non-ASCII characters or escapes of non-ASCII bytes; ASCII
hosts never come here. The mapping is UTS #46 (non-transitional,
CheckHyphens and UseSTD3ASCIIRules off, CheckBidi and CheckJoiners on, no
DNS length check), NFC and punycode, done by ada-url (the URL parser of
Node.js), which passes every web-platform-tests vector. ada-url maps
characters only: the forbidden domain code points a browser's host parser
rejects afterwards (space, '%', '/', ...) are rejected here.

Real data repeats its hosts, so results are cached. Only short hosts are:
UTS #46 drops some characters (soft hyphens, ...), so a huge host can map to
a valid one, and the cache must not hold huge keys.
"""
import re
from functools import lru_cache

_CACHED_LENGTH = 256

# Every escape but those of reserved characters and of '%' is decoded before
# mapping: non-ASCII bytes, unreserved characters (RFC 3986 2.3), and the
# characters a URI can only hold escaped ('{', '"', ...), so that a host and
# its requote() map alike. Escapes of reserved characters and of '%' stay,
# and their '%' makes the host fail (no function decodes a reserved escape).
_ESCAPE = re.compile(rb"%[0-9A-Fa-f]{2}")
_KEPT_ESCAPED = frozenset(b":/?#[]@!$&'()*+,;=%")


def _decoded(match: "re.Match[bytes]") -> bytes:
    byte = int(match[0][1:], 16)
    return match[0] if byte in _KEPT_ESCAPED else bytes((byte,))


# The URL Standard's forbidden domain code points that can be left in an
# ASCII result: C0 controls, space, # % / : < > ? @ [ \ ] ^ | and DEL.
_FORBIDDEN = re.compile(r"[\x00-\x20#%/:<>?@\[\\\]^|\x7f]")


def _domain_to_ascii(text: str) -> "str | None":
    """The ASCII form of a Unicode domain, or None when a browser rejects it."""
    import ada_url  # on first use: importing pctcodec stays light

    if "\x00" in text:
        return None  # forbidden; and ada-url reads a C string, which would end there
    mapped = ada_url.idna.encode(text)  # b"" on failure
    if not mapped:
        return None
    ascii = mapped.decode("ascii")
    if _FORBIDDEN.search(ascii):
        return None
    if "xn--" in ascii and _breaks_bidi(ada_url.idna.decode(ascii).split(".")):
        return None
    return ascii


# RFC 5893 section 2, by Bidi_Class.
_RTL = frozenset(("R", "AL", "AN"))
_IN_RTL_LABEL = frozenset(("R", "AL", "AN", "EN", "ES", "CS", "ET", "ON", "BN", "NSM"))
_IN_LTR_LABEL = frozenset(("L", "EN", "ES", "CS", "ET", "ON", "BN", "NSM"))


def _breaks_bidi(labels: "list[str]") -> bool:
    """True when, by this interpreter's Unicode data, a label of a bidi domain
    name breaks the rules of RFC 5893 section 2 (UTS #46 CheckBidi).

    ada-url checks them too, but with Bidi_Class data older than its mapping
    tables: it takes letters added in Unicode 14 (U+0870 ARABIC LETTER ALEF
    WITH ATTACHED FATHA ...) for left-to-right, so it accepts "0\u0870", which
    a browser rejects. A label holding a character this interpreter does not
    know is left to ada-url's verdict."""
    from unicodedata import bidirectional

    classes = [[bidirectional(c) for c in label] for label in labels if label]
    if any("" in label for label in classes):
        return False  # a character newer than this interpreter's Unicode data
    if not any(k in _RTL for label in classes for k in label):
        return False  # not a bidi domain name
    for label in classes:
        end = len(label)
        while end and label[end - 1] == "NSM":
            end -= 1
        last = label[end - 1] if end else ""
        if label[0] in ("R", "AL"):
            if (not _IN_RTL_LABEL.issuperset(label) or last not in ("R", "AL", "EN", "AN")
                    or ("EN" in label and "AN" in label)):
                return True
        elif label[0] == "L":
            if not _IN_LTR_LABEL.issuperset(label) or last not in ("L", "EN"):
                return True
        else:
            return True
    return False


def _to_ascii(host: str) -> "str | None":
    raw = _ESCAPE.sub(_decoded, host.encode("utf-8"))
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        return None  # escapes that are not UTF-8 name no Unicode host
    return _domain_to_ascii(text)


_to_ascii_cached = lru_cache(maxsize=8192)(_to_ascii)


def to_ascii(host: str) -> "str | None":
    """The ASCII host a browser would use for a reg-name as written in a URI
    (escapes of UTF-8 decoded first), or None when it has none."""
    return _to_ascii_cached(host) if len(host) <= _CACHED_LENGTH else _to_ascii(host)


def _to_unicode(label: str) -> str:
    import ada_url

    if not label.isascii():
        return label
    text = ada_url.idna.decode(label.lower())
    # Only a label that maps back to itself: ada-url decodes what it can of
    # invalid punycode too, and an IRI must name the same host. A label it
    # leaves as it is ("XN--") keeps its case, as every other label does.
    lower = label.lower()
    return text if text != lower and _domain_to_ascii(text) == lower else label


_to_unicode_cached = lru_cache(maxsize=8192)(_to_unicode)


def to_unicode(label: str) -> str:
    """The Unicode form of one ``xn--`` label, or the label itself when it is
    not the valid punycode of one."""
    return _to_unicode_cached(label) if len(label) <= _CACHED_LENGTH else _to_unicode(label)

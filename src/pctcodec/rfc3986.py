"""RFC 3986 tools: repair, validate, normalize and compare URIs; IRI <-> URI.

``requote``, ``check``, ``is_valid``, ``normalize``, ``equivalent`` and
``iri_to_uri`` run in C (``src/core/pct_uri.c``); hosts with non-ASCII
characters go through the URL Standard's IDNA (UTS #46, see ``_idna``).
``uri_to_iri`` decodes escapes in C (``src/core/pct_ecma.c``) and leaves
only punycode host labels to Python.

The rules (RFC 3986 section 2): unreserved characters ``A-Z a-z 0-9 - . _ ~``
never need escaping, so ``%7E`` and ``~`` are the same URI; reserved
characters ``: / ? # [ ] @ ! $ & ' ( ) * + , ; =`` are data only when
escaped, so ``%2F`` and ``/`` are different URIs and no function here ever
decodes one; ``%`` is always ``%25`` as data; uppercase hex is canonical.
"""
from . import _pctcodec
from ._errors import PercentEncodingError
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


def _unicode_host(host: str) -> str:
    from ._idna import to_unicode  # on first use: a light `import pctcodec`

    # A label that is not valid punycode is left as it is.
    return ".".join(to_unicode(label) if label[:4].lower() == "xn--" else label
                    for label in host.split("."))


def uri_to_iri(uri: str) -> str:
    """Map a URI to an IRI (RFC 3987 3.2).

    Runs of escapes that form valid UTF-8 for characters an IRI may hold are
    decoded (private-use characters only in the query); ASCII escapes such as
    ``%20`` or ``%2F``, invalid sequences and characters an IRI may not hold
    stay encoded as they were written. Host labels in punycode (``xn--``) are
    decoded with IDNA, or left as they are when they are not the valid
    punycode of a label that maps back to them.

    Parameters
    ----------
    uri : str
        The URI.

    Returns
    -------
    str
        The IRI.

    Raises
    ------
    TypeError
        ``uri`` is not a str.

    Examples
    --------
    >>> uri_to_iri("http://xn--r8jz45g.jp/%E5%BC%95%E3%81%8D%2F")
    'http://例え.jp/引き%2F'
    """
    out = _pctcodec._uri_to_iri(uri)
    if isinstance(out, str):
        return out
    # A host label in punycode: the escapes are decoded, the host is at [start:end).
    iri, start, end = out
    return iri[:start] + _unicode_host(iri[start:end]) + iri[end:]

"""JavaScript's URI functions, with ECMAScript semantics, on Python ``str``.

===========================  =================================================
``encode_uri(s)``            ``encodeURI`` (ECMA-262 19.2.6.3)
``encode_uri_component(s)``  ``encodeURIComponent`` (ECMA-262 19.2.6.4)
``decode_uri(s)``            ``decodeURI`` (ECMA-262 19.2.6.1)
``decode_uri_component(s)``  ``decodeURIComponent`` (ECMA-262 19.2.6.2)
``js_escape(s)``             legacy ``escape`` (ECMA-262 Annex B.2.1.1)
``js_unescape(s)``           legacy ``unescape`` (ECMA-262 Annex B.2.1.2)
===========================  =================================================

A JavaScript string is a sequence of UTF-16 code units; a Python ``str`` is a
sequence of code points and may hold surrogate code points (U+D800 to
U+DFFF). These functions read a ``str`` the way JavaScript reads the same
code units:

* A surrogate that is not half of a pair is "lone". ``encode_uri`` and
  ``encode_uri_component`` raise :class:`PercentEncodingError` for it where
  JavaScript throws ``URIError``. A high surrogate directly followed by a low
  surrogate is one character to JavaScript, so the encoders treat such a pair
  exactly like the character it stands for (``'\\ud83d\\ude00'`` encodes like
  ``'\\U0001f600'``).
* The decoders pass every character that is not part of an escape through
  unchanged, lone surrogates included. An escape never decodes to a
  surrogate: ``%ED%A0%80`` is not valid UTF-8 and raises.
* ``js_escape`` works on UTF-16 code units, so a character above U+FFFF
  becomes two ``%uXXXX`` escapes; ``js_unescape`` joins a decoded high
  surrogate followed by a decoded low surrogate back into one character.

Errors are :class:`pctcodec.PercentEncodingError` (a ``ValueError``) whose
``position`` is the index of the offending character: the lone surrogate for
the encoders, the ``%`` that starts the bad escape sequence for the decoders.
Arguments that are not ``str`` raise ``TypeError``.

The decoders and ``js_escape`` / ``js_unescape`` run in C
(``src/core/pct_ecma.c``), the encoders through ``quote``.
"""
from . import _pctcodec
from ._errors import PercentEncodingError

__all__ = [
    "encode_uri",
    "encode_uri_component",
    "decode_uri",
    "decode_uri_component",
    "js_escape",
    "js_unescape",
]

# Characters each encoder leaves alone besides what quote never escapes
# (A-Z a-z 0-9 - _ . ~): uriReserved + uriMark + "#" and uriMark.
_URI_SAFE = ";/?:@&=+$,!*'()#"
_COMPONENT_SAFE = "!*'()"

_LONE_SURROGATE = "[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]"


def _check_str(s: object, name: str) -> str:
    if type(s) is str:
        return s
    if isinstance(s, str):
        return str(s)
    raise TypeError("%s() argument must be str, not %s" % (name, type(s).__name__))


def _encode(s: object, safe: str, name: str) -> str:
    s = _check_str(s, name)
    try:
        return _pctcodec.quote(s, safe)
    except UnicodeEncodeError:
        pass
    # Slow path, only for text holding surrogates: pairs become the code
    # point they stand for (as in UTF-16), lone ones are an error.
    import re  # only here: a fast `import pctcodec` (re caches the compiled pattern)

    m = re.search(_LONE_SURROGATE, s)
    if m is not None:
        raise PercentEncodingError("lone surrogate", m.start())
    joined = s.encode("utf-16-le", "surrogatepass").decode("utf-16-le")
    return _pctcodec.quote(joined, safe)


def encode_uri(s: str) -> str:
    """Percent-encode ``s`` as JavaScript's ``encodeURI`` does.

    Leaves ``A-Z a-z 0-9 ; , / ? : @ & = + $ - _ . ! ~ * ' ( ) #`` as they
    are and replaces every other character with the ``%XX`` escapes (upper
    case hex) of its UTF-8 bytes, ``%`` included. Meant for a whole URI, so
    the characters that delimit its parts survive.

    Parameters
    ----------
    s : str
        The text.

    Returns
    -------
    str
        ASCII text.

    Raises
    ------
    PercentEncodingError
        At a lone surrogate (where JavaScript throws ``URIError``).
    TypeError
        ``s`` is not a str.

    Examples
    --------
    >>> encode_uri("https://mozilla.org/?x=шеллы")
    'https://mozilla.org/?x=%D1%88%D0%B5%D0%BB%D0%BB%D1%8B'
    """
    return _encode(s, _URI_SAFE, "encode_uri")


def encode_uri_component(s: str) -> str:
    """Percent-encode ``s`` as JavaScript's ``encodeURIComponent`` does.

    Leaves ``A-Z a-z 0-9 - _ . ! ~ * ' ( )`` as they are and replaces every
    other character with the ``%XX`` escapes (upper case hex) of its UTF-8
    bytes. Meant for one piece of data (a query value, a path segment).

    Parameters
    ----------
    s : str
        The text.

    Returns
    -------
    str
        ASCII text.

    Raises
    ------
    PercentEncodingError
        At a lone surrogate (where JavaScript throws ``URIError``).
    TypeError
        ``s`` is not a str.

    Examples
    --------
    >>> encode_uri_component("?x=test")
    '%3Fx%3Dtest'
    """
    return _encode(s, _COMPONENT_SAFE, "encode_uri_component")


def decode_uri_component(s: str) -> str:
    """Decode ``s`` as JavaScript's ``decodeURIComponent`` does.

    Every ``%XX`` escape is decoded. The escaped bytes must be whole, valid
    UTF-8 sequences: all bytes of a non-ASCII character escaped, no overlong
    forms, no surrogates, nothing above U+10FFFF. Characters that are not
    escapes, non-ASCII ones included, are kept as they are.

    Parameters
    ----------
    s : str
        The text to decode.

    Returns
    -------
    str
        The decoded text.

    Raises
    ------
    PercentEncodingError
        At the ``%`` that starts the offending sequence: a ``%`` not followed
        by two hex digits, or escapes that are not valid UTF-8.
    TypeError
        ``s`` is not a str.

    Examples
    --------
    >>> decode_uri_component("%E4%B8%AD%2F")
    '中/'
    """
    return _pctcodec._decode_uri_component(s)


def decode_uri(s: str) -> str:
    """Decode ``s`` as JavaScript's ``decodeURI`` does.

    Like :func:`decode_uri_component`, except that an escape of one of
    ``; / ? : @ & = + $ , #`` is kept exactly as written, so decoding never
    changes how the URI splits into its parts.

    Parameters
    ----------
    s : str
        The text to decode.

    Returns
    -------
    str
        The decoded text.

    Raises
    ------
    PercentEncodingError
        At the ``%`` that starts the offending sequence: a ``%`` not followed
        by two hex digits, or escapes that are not valid UTF-8.
    TypeError
        ``s`` is not a str.

    Examples
    --------
    >>> decode_uri("%E4%B8%AD%2F")
    '中%2F'
    """
    return _pctcodec._decode_uri(s)


# --- Annex B escape / unescape -------------------------------------------------

def js_escape(s: str) -> str:
    """Escape ``s`` as JavaScript's legacy ``escape`` does.

    ``A-Z a-z 0-9 @ * _ + - . /`` are kept; any other UTF-16 code unit below
    256 becomes ``%XX``, the rest ``%uXXXX`` (upper case hex). A character
    above U+FFFF is two code units, so two escapes.

    Parameters
    ----------
    s : str
        The text; lone surrogates are code units like any other.

    Returns
    -------
    str
        ASCII text.

    Raises
    ------
    TypeError
        ``s`` is not a str.

    Examples
    --------
    >>> js_escape("ä€😀")
    '%E4%u20AC%uD83D%uDE00'
    """
    return _pctcodec._js_escape(s)


def js_unescape(s: str) -> str:
    """Undo :func:`js_escape`, as JavaScript's legacy ``unescape`` does.

    Decodes ``%uXXXX`` and ``%XX`` (hex digits of either case) and leaves
    anything else, malformed escapes included, as it is. A decoded high
    surrogate followed by a decoded low surrogate becomes the one character
    they encode; other decoded surrogates stay lone surrogates.
    ``js_unescape(js_escape(x)) == x`` for every ``x`` in which no high
    surrogate is directly followed by a low one.

    Parameters
    ----------
    s : str
        The text to decode.

    Returns
    -------
    str
        The decoded text.

    Raises
    ------
    TypeError
        ``s`` is not a str.

    Examples
    --------
    >>> js_unescape("%E4%u20AC%uD83D%uDE00")
    'ä€😀'
    """
    return _pctcodec._js_unescape(s)

"""Named ``safe`` sets for :func:`pctcodec.quote` and :func:`pctcodec.quote_plus`.

``quote`` never escapes ``A-Z a-z 0-9 _ . - ~`` and escapes every other
character unless it appears in ``safe``; non-ASCII text is always escaped as
UTF-8. Each constant here is such a ``safe`` string, so that::

    quote(segment, safe=PATH_SEGMENT)     # data for one RFC 3986 path segment
    quote(text, safe=WHATWG_QUERY)        # what a browser's URL parser does
    quote_plus(value, safe=WHATWG_FORM)   # application/x-www-form-urlencoded

The strings hold only punctuation: the always-unescaped characters above are
left out, since listing them in ``safe`` changes nothing.

RFC 3986 component sets
-----------------------
The characters RFC 3986 (section 2 and the grammar of section 3) lets a
component carry unescaped besides ``unreserved``. Quoting data with one of
these never escapes what the component allows, and always escapes ``%``:
a ``%`` in data is data, not the start of an escape.

=================  ====================================================
``UNRESERVED``     ``ALPHA DIGIT - . _ ~`` (section 2.3)
``GEN_DELIMS``     ``: / ? # [ ] @`` (section 2.2)
``SUB_DELIMS``     ``! $ & ' ( ) * + , ; =`` (section 2.2)
``RESERVED``       ``GEN_DELIMS`` + ``SUB_DELIMS`` (section 2.2)
``PATH_SEGMENT``   ``pchar``: ``SUB_DELIMS`` + ``: @`` (section 3.3)
``PATH``           ``pchar`` + ``/`` (section 3.3)
``QUERY``          ``pchar`` + ``/ ?`` (section 3.4)
``FRAGMENT``       ``pchar`` + ``/ ?`` (section 3.5)
``USERINFO``       ``SUB_DELIMS`` + ``:`` (section 3.2.1)
=================  ====================================================

WHATWG URL Standard percent-encode sets
---------------------------------------
The URL Standard (https://url.spec.whatwg.org/#percent-encoded-bytes) defines
the sets of code points to *encode*. ``WHATWG_*`` is the complement of such a
set within printable ASCII (U+0020 to U+007E), so ``quote(s, safe=WHATWG_X)``
encodes exactly the "X percent-encode set" (C0 controls, U+007F and every
non-ASCII code point are always encoded, as in every set of the standard).

The fragment, query, special-query, path and userinfo sets do not contain
``%``: the URL parser leaves an existing ``%`` alone, so these safe strings
include ``%`` and quoting with them is idempotent on already-encoded text.
The component and application/x-www-form-urlencoded sets do contain ``%``
(they encode arbitrary data so it round-trips), so those two safe strings
do not.

One difference cannot be expressed with ``safe``: the
application/x-www-form-urlencoded set contains ``~``, which ``quote`` never
escapes. ``quote_plus(s, safe=WHATWG_FORM)`` therefore matches the standard's
form encoding except that ``~`` stays ``~`` rather than ``%7E``; decoders treat
both alike.
"""

__all__ = [
    "UNRESERVED",
    "GEN_DELIMS",
    "SUB_DELIMS",
    "RESERVED",
    "PATH_SEGMENT",
    "PATH",
    "QUERY",
    "FRAGMENT",
    "USERINFO",
    "WHATWG_FRAGMENT",
    "WHATWG_QUERY",
    "WHATWG_SPECIAL_QUERY",
    "WHATWG_PATH",
    "WHATWG_USERINFO",
    "WHATWG_COMPONENT",
    "WHATWG_FORM",
]

# --- RFC 3986 ---------------------------------------------------------------

#: RFC 3986 section 2.3 ``unreserved``; ``quote`` never escapes these anyway.
UNRESERVED: str = (
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~"
)
#: RFC 3986 section 2.2 ``gen-delims``.
GEN_DELIMS: str = ":/?#[]@"
#: RFC 3986 section 2.2 ``sub-delims``.
SUB_DELIMS: str = "!$&'()*+,;="
#: RFC 3986 section 2.2 ``reserved`` = ``gen-delims`` / ``sub-delims``.
RESERVED: str = GEN_DELIMS + SUB_DELIMS
#: RFC 3986 section 3.3 ``pchar`` (minus unreserved): one path segment, so
#: ``/`` is escaped.
PATH_SEGMENT: str = SUB_DELIMS + ":@"
#: RFC 3986 section 3.3: a whole path, ``/`` kept as the separator.
PATH: str = PATH_SEGMENT + "/"
#: RFC 3986 section 3.4 ``query`` = ``*( pchar / "/" / "?" )``.
QUERY: str = PATH_SEGMENT + "/?"
#: RFC 3986 section 3.5 ``fragment`` = ``*( pchar / "/" / "?" )``.
FRAGMENT: str = PATH_SEGMENT + "/?"
#: RFC 3986 section 3.2.1 ``userinfo`` = ``*( unreserved / pct-encoded /
#: sub-delims / ":" )``.
USERINFO: str = SUB_DELIMS + ":"

# --- WHATWG URL Standard ----------------------------------------------------
# Each value is printable ASCII punctuation minus the spec's set, written in
# code point order. The spec's sets, for reference (section 1.3,
# "Percent-encoded bytes"):
#   fragment      = C0 control set + SP " < > `
#   query         = C0 control set + SP " # < >
#   special-query = query + '
#   path          = query + ? ^ ` { }       (^ added to the standard in 2025)
#   userinfo      = path + / : ; = @ [ \ ] |
#   component     = userinfo + $ % & + ,
#   form          = component + ! ' ( ) ~

#: Complement of the "fragment percent-encode set" (URL Standard 1.3), used
#: by the URL parser for fragments.
WHATWG_FRAGMENT: str = "!#$%&'()*+,/:;=?@[\\]^{|}"
#: Complement of the "query percent-encode set" (URL Standard 1.3), used for
#: the query of URLs whose scheme is not special.
WHATWG_QUERY: str = "!$%&'()*+,/:;=?@[\\]^`{|}"
#: Complement of the "special-query percent-encode set" (URL Standard 1.3),
#: used for the query of http(s), ws(s), ftp and file URLs.
WHATWG_SPECIAL_QUERY: str = "!$%&()*+,/:;=?@[\\]^`{|}"
#: Complement of the "path percent-encode set" (URL Standard 1.3), used for
#: each path segment of URLs with a non-opaque path.
WHATWG_PATH: str = "!$%&'()*+,/:;=@[\\]|"
#: Complement of the "userinfo percent-encode set" (URL Standard 1.3), used
#: for the username and password.
WHATWG_USERINFO: str = "!$%&'()*+,"
#: Complement of the "component percent-encode set" (URL Standard 1.3); gives
#: the same output as JavaScript's ``encodeURIComponent``.
WHATWG_COMPONENT: str = "!'()*"
#: Complement of the "application/x-www-form-urlencoded percent-encode set"
#: (URL Standard 1.3 and 5.2), which spares only ASCII alphanumerics and
#: ``* - . _``; use with ``quote_plus`` so that spaces become ``+``. The set's
#: ``~`` cannot be honoured: ``quote`` never escapes ``~``.
WHATWG_FORM: str = "*"

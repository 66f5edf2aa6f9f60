"""pctcodec: percent-encoding (URL quoting) done in C.

The functions below are drop-in replacements for their namesakes in
``urllib.parse``: for every input they return the same value of the same type,
or raise an exception of the same class, as the running interpreter's
``urllib.parse``.

``encode`` and ``decode`` are the C core on raw buffers: any bytes-like object
in (bytes, bytearray, memoryview, array, mmap), bytes out.

The RFC 3986 tools (``requote``, ``normalize``, ``equivalent``, ``check``,
``is_valid``, ``iri_to_uri``, ``uri_to_iri``) are documented in
``pctcodec.rfc3986``; named ``safe=`` sets are in ``pctcodec.sets`` and the
ECMAScript codecs (``encode_uri``, ``decode_uri_component``, ``js_escape``
...) in ``pctcodec.ecmascript``.

``install()`` puts the seven functions in place of urllib.parse's for the
whole process (``uninstall()`` puts urllib's back; ``with installed():`` for a
block); see ``pctcodec._install``.

The batch functions (``quote_many``, ``unquote_many``, ``normalize_many``,
``check_many`` ...) run over a whole list, Arrow array, pandas or polars
column in one call; see ``pctcodec.batch``. ``split`` and ``split_many`` give
the components of URIs (as columns); see ``pctcodec.parts``.

``query_param`` and ``clean_query`` (and their ``_many`` forms) read one
query parameter or drop parameters by name pattern (``TRACKING_PARAMS``);
see ``pctcodec.query``.

``registered_domain``, ``public_suffix`` and ``domain_parts`` (and their
``_many`` forms) read a URL's host by the Public Suffix List, shipped as a
dated snapshot; see ``pctcodec.domains``.
``resolve`` and ``resolve_many`` make references absolute against a base
(RFC 3986 section 5); see ``pctcodec.resolution``.
see ``pctcodec.query``. ``parse_query`` and ``query_params`` (and their
column forms) read every parameter or a few named ones; see
``pctcodec.params``. ``canonicalize`` (and ``canonicalize_many``) gives a
key for deduplicating URLs; see ``pctcodec.canonical``.
``parse_url`` (and ``parse_url_many``, ``url_href_many``) reads a URL as
browsers do, by the WHATWG URL Standard; see ``pctcodec.url``.
"""
from ._pctcodec import (
    decode,
    encode,
    quote,
    quote_from_bytes,
    quote_plus,
    unquote,
    unquote_plus,
    unquote_to_bytes,
)
from . import batch
from ._install import install, installed, uninstall
from ._urlencode import urlencode
from .batch import (
    Reject,
    check_many,
    normalize_many,
    quote_many,
    quote_plus_many,
    requote_many,
    unquote_many,
    unquote_plus_many,
)
from .ecmascript import (
    decode_uri,
    decode_uri_component,
    encode_uri,
    encode_uri_component,
    js_escape,
    js_unescape,
)
from .rfc3986 import (
    PercentEncodingError,
    check,
    equivalent,
    iri_to_uri,
    is_valid,
    normalize,
    requote,
    uri_to_iri,
)

# Literal, so that type checkers read it (mypy --strict: what a module exports).
__all__ = [
    "quote",
    "quote_plus",
    "quote_from_bytes",
    "unquote",
    "unquote_plus",
    "unquote_to_bytes",
    "urlencode",
    "install",
    "uninstall",
    "installed",
    "encode",
    "decode",
    "requote",
    "normalize",
    "equivalent",
    "check",
    "is_valid",
    "iri_to_uri",
    "uri_to_iri",
    "PercentEncodingError",
    "encode_uri",
    "encode_uri_component",
    "decode_uri",
    "decode_uri_component",
    "js_escape",
    "js_unescape",
    "quote_many",
    "quote_plus_many",
    "unquote_many",
    "unquote_plus_many",
    "requote_many",
    "normalize_many",
    "check_many",
    "Reject",
    "query_param",
    "query_param_many",
    "clean_query",
    "clean_query_many",
    "TRACKING_PARAMS",
    "split",
    "split_many",
    "URIParts",
    "registered_domain",
    "registered_domain_many",
    "public_suffix",
    "public_suffix_many",
    "domain_parts",
    "domain_parts_many",
    "DomainParts",
    "SuffixList",
    "suffix_list",
    "HostError",
    "resolve",
    "resolve_many",
    "ResolveError",
    "parse_query",
    "parse_query_many",
    "parse_query_long",
    "query_params",
    "query_params_many",
    "canonicalize",
    "canonicalize_many",
    "parse_url",
    "parse_url_many",
    "url_href",
    "url_href_many",
    "URL",
    "URLParseError",
]
__version__ = "0.1.0"

# Imported here, not on first use through a module __getattr__: on CPython
# 3.11+ a module that defines __getattr__ loses the specialized attribute
# lookup, which made every pctcodec.quote(...) 12-19 ns slower.
from . import parts, query
from .parts import URIParts, split, split_many
from .query import TRACKING_PARAMS, clean_query, clean_query_many, query_param, query_param_many
from . import domains
from .domains import (
    DomainParts,
    HostError,
    SuffixList,
    domain_parts,
    domain_parts_many,
    public_suffix,
    public_suffix_many,
    registered_domain,
    registered_domain_many,
    suffix_list,
)
from .resolution import ResolveError, resolve, resolve_many
from . import canonical, params
from .canonical import canonicalize, canonicalize_many
from .params import parse_query, parse_query_long, parse_query_many, query_params, query_params_many
from . import url
from .url import URL, URLParseError, parse_url, parse_url_many, url_href, url_href_many

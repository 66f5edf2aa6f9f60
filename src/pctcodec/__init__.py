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
block); see the drop-in page of the documentation.

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
``parse_query`` and ``query_params`` (and their
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
from ._pctcodec import _after_fork
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
    "SuffixListError",
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

# Only the C codecs above load with the package; every other module loads on
# the first use of one of its names (PEP 562), so that `import pctcodec`
# costs little more than the extension. The price: CPython 3.11-3.13 do not
# specialize attribute lookups on a module that has a __getattr__, so
# `pctcodec.quote(s)` in a loop pays ~20 ns per lookup that
# `from pctcodec import quote` does not; once every module is loaded,
# __getattr__ removes itself.
_LAZY = {
    "urlencode": "_urlencode",
    "install": "_install", "uninstall": "_install", "installed": "_install",
    **dict.fromkeys(("encode_uri", "encode_uri_component", "decode_uri",
                     "decode_uri_component", "js_escape", "js_unescape"), "ecmascript"),
    **dict.fromkeys(("quote_many", "quote_plus_many", "unquote_many", "unquote_plus_many",
                     "requote_many", "normalize_many", "check_many", "Reject"), "batch"),
    **dict.fromkeys(("query_param", "query_param_many", "clean_query", "clean_query_many",
                     "TRACKING_PARAMS"), "query"),
    **dict.fromkeys(("split", "split_many", "URIParts"), "parts"),
    **dict.fromkeys(("registered_domain", "registered_domain_many", "public_suffix",
                     "public_suffix_many", "domain_parts", "domain_parts_many", "DomainParts",
                     "SuffixList", "SuffixListError", "suffix_list", "HostError"), "domains"),
    **dict.fromkeys(("resolve", "resolve_many", "ResolveError"), "resolution"),
    **dict.fromkeys(("parse_query", "parse_query_many", "parse_query_long", "query_params",
                     "query_params_many"), "params"),
    **dict.fromkeys(("canonicalize", "canonicalize_many"), "canonical"),
    **dict.fromkeys(("parse_url", "parse_url_many", "url_href", "url_href_many", "URL",
                     "URLParseError"), "url"),
}
# The public submodules, which `pctcodec.NAME` imports on first use too.
_SUBMODULES = ("batch", "canonical", "domains", "ecmascript", "params", "parts", "query",
               "resolution", "rfc3986", "sets", "url")


def __getattr__(name: str) -> object:
    module = _LAZY.get(name)
    if module is None and name not in _SUBMODULES:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    import sys

    __import__(f"{__name__}.{module or name}")
    space = globals()
    if module is not None:
        loaded = sys.modules[f"{__name__}.{module}"]
        for key in [key for key, where in _LAZY.items() if where == module]:
            space[key] = getattr(loaded, key)
            del _LAZY[key]
    if not _LAZY and all(f"{__name__}.{sub}" in sys.modules for sub in _SUBMODULES):
        del space["__getattr__"]  # every name is a plain attribute now
    return space[name]


def __dir__() -> "list[str]":
    return sorted({*globals(), *__all__, *_SUBMODULES})


TYPE_CHECKING = False  # typing is not imported at run time
if TYPE_CHECKING:
    from . import batch, canonical, domains, ecmascript, params, parts, query, resolution, sets, url
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
    from .canonical import canonicalize, canonicalize_many
    from .domains import (
        DomainParts,
        HostError,
        SuffixList,
        SuffixListError,
        domain_parts,
        domain_parts_many,
        public_suffix,
        public_suffix_many,
        registered_domain,
        registered_domain_many,
        suffix_list,
    )
    from .ecmascript import (
        decode_uri,
        decode_uri_component,
        encode_uri,
        encode_uri_component,
        js_escape,
        js_unescape,
    )
    from .params import (
        parse_query,
        parse_query_long,
        parse_query_many,
        query_params,
        query_params_many,
    )
    from .parts import URIParts, split, split_many
    from .query import (
        TRACKING_PARAMS,
        clean_query,
        clean_query_many,
        query_param,
        query_param_many,
    )
    from .resolution import ResolveError, resolve, resolve_many
    from .url import URL, URLParseError, parse_url, parse_url_many, url_href, url_href_many


def _register_at_fork() -> None:
    # A child of os.fork() starts with the result pool's lock free: a thread
    # of the parent may have held it (src/_pctcodec_memory.c).
    import os

    if hasattr(os, "register_at_fork"):
        os.register_at_fork(after_in_child=_after_fork)


_register_at_fork()
del _register_at_fork

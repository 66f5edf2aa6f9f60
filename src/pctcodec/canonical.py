"""A key for deduplicating URLs: ``canonicalize`` and ``canonicalize_many``.

``canonicalize(uri)`` is one C pass that gives the same string for URLs
that differ only in ways that do not change the page they name, as far as
the rules below can tell:

1. the URL Standard's input cleanup: leading and trailing C0 controls and
   spaces stripped, tabs and newlines removed (``strip_whitespace``);
2. ``normalize()`` (RFC 3986 6.2.2 and 6.2.3): scheme and host in lowercase,
   IDNA for non-ASCII hosts, escapes of unreserved characters decoded and
   the others in uppercase hex, dot segments removed, the default port
   dropped, an empty path made ``/``;
3. the query parameters ``drop`` matches (default ``TRACKING_PARAMS``,
   ASCII case-insensitive) or ``keep`` does not removed, empty segments
   (``&&``) removed, and the rest sorted by decoded name (``sort_query``;
   parameters of the same name keep their order, which may matter);
4. the fragment removed (``drop_fragment``);
5. the options, each off unless said otherwise: ``strip_www`` (``www.`` at
   the start of the host removed, repeatedly), ``same_scheme`` (``https``
   written ``http``, and then a port 80 dropped as the default),
   ``strip_trailing_slash`` (the trailing ``/``s of a path removed, but for
   the root ``/``), ``drop_empty_query`` (on: a ``?`` with nothing after
   it removed).

A query whose parameters were all removed loses its ``?``. Everything kept
is as ``normalize`` writes it: ``+`` and ``%20`` stay different, as do the
values' escapes of reserved characters.

The key is idempotent (``canonicalize(canonicalize(u)) == canonicalize(u)``)
and equivalence-stable (two spellings ``normalize`` holds equal have the
same key). It is a key, not a URL to fetch: with ``same_scheme`` or
``strip_www`` it may name another host or scheme than the input.

``canonicalize_many`` does it over a column with the batch engine (lists,
Arrow arrays, pandas, polars; ``threads``, ``on_error``, ``rejects``; see
``pctcodec.batch``), each row giving what ``canonicalize`` gives.
"""
import re

from . import _pctcodec
from ._errors import URLParseError, _index_of
from .batch import _Op, _run
from .query import TRACKING_PARAMS, _filter, _ignore_case

__all__ = ["canonicalize", "canonicalize_many"]

# The option bits of the C functions (src/_pctcodec_batch.c): the filter's
# and normalize's, then pct_canon.h's PCT_CANON_* from bit 8.
_DROP_FRAGMENT, _STRIP_SPACE, _IGNORE_CASE, _HTML_AMP, _SORT, _KEEP_IGNORE_CASE = 2, 4, 8, 16, 32, 64
_STRIP_WWW, _SAME_SCHEME, _TRAILING_SLASH, _EMPTY_QUERY = 1 << 8, 2 << 8, 4 << 8, 8 << 8


def _options(drop, keep, ignore_case, sort_query, drop_fragment, strip_www, same_scheme,
             strip_trailing_slash, drop_empty_query, strip_whitespace, html_amp):
    folds = _ignore_case(ignore_case, drop)
    drop_set, keep_set = _filter(drop, keep, folds)
    flags = ((_SORT, sort_query), (_DROP_FRAGMENT, drop_fragment), (_IGNORE_CASE, folds[0]),
             (_KEEP_IGNORE_CASE, folds[1]),
             (_HTML_AMP, html_amp), (_STRIP_SPACE, strip_whitespace), (_STRIP_WWW, strip_www),
             (_SAME_SCHEME, same_scheme), (_TRAILING_SLASH, strip_trailing_slash),
             (_EMPTY_QUERY, drop_empty_query))
    opts = 0
    for bit, on in flags:
        if on:
            opts |= bit
    return drop_set, keep_set, opts


_SPACE = bytes(range(0x21))  # the URL Standard's C0 control or space


def _kept_space_in_host(data):
    """With strip_whitespace=False, white space ending a URL (one the URL
    Standard's parser reads, stripped) is data: where it ends a special
    URL's host or port, that host or port holds it, which the parser
    refuses. The parser strips it first, so it is asked with '<' in its
    place, which it refuses there too and escapes anywhere else."""
    end = len(data.rstrip(_SPACE))
    if end == len(data):
        return
    probe = _pctcodec._web_href(data[:end] + b"<" * (len(data) - end))
    if isinstance(probe, tuple):
        raise URLParseError(probe[1], _index_of(data, probe[0]))


# "scheme://" of a special scheme but file (its own host rules) up to a
# host, with no '\\', tab or newline on the way: an authority RFC 3986
# and the URL Standard's parser read alike
_WEB_AUTHORITY = re.compile(rb"[\x00-\x20]*(?i:https?|wss?|ftp)://[^\\\\\t\n\r/?#]*\Z")

# "scheme:" of a special scheme but file, and the slashes after it, which the
# parser reads as "//" whatever they are ('/' or '\\', any number, none)
_WEB_SLASHES = re.compile(rb"([\x00-\x20]*(?i:https?|wss?|ftp):)[/\\]*")


def _host_spliced(data, href):
    """The URL data (UTF-8) with its host, as the domain functions find it,
    replaced by the URL Standard's parser's, when that is still the URL the
    parser reads as href: the rest as the input spells it, as a row the
    parser reads alike is keyed (its href would encode more of a userinfo
    or a query than normalize does: two keys for one URL). None when not
    so (a '\\' in the authority: the href itself). It is read as the parser
    reads it first: its tabs and newlines removed, the slashes after the
    scheme written "//" ("http:\\\\h/?q", "http:h/?q" and "http://h\t/?q" are
    keyed as "http://h/?q" is)."""
    from .url import url_href, parse_url

    data = data.translate(None, b"\t\n\r")
    m = _WEB_SLASHES.match(data)
    if m and data[m.end(1):m.end()] != b"//":
        data = m[1] + b"//" + data[m.end():]
    span = _pctcodec._domain_host(data)
    if span is None or not _WEB_AUTHORITY.match(data, 0, span[1]):
        return None  # not read alike by RFC 3986 (normalize) and the parser
    try:
        text = data.decode("utf-8")
        host = parse_url(text).hostname
        spliced = text[:len(data[:span[0]].decode("utf-8"))] + host \
            + text[len(data[:span[1]].decode("utf-8")):]
        return spliced if url_href(spliced) == href else None
    except (UnicodeDecodeError, URLParseError):
        return None


def _key(uri, drop_set, keep_set, opts):
    key = _pctcodec._canonicalize(uri, drop_set, keep_set, opts)
    if key is None:  # whitespace to strip or a host for IDNA: normalize() does those
        key = _parser_key(uri, drop_set, keep_set, opts)
    return key


def _parser_key(uri, drop_set, keep_set, opts):
    """The key of uri read as the URL Standard's parser reads it, then
    normalized: the rows the C pass leaves to Python (and, for the tests,
    any row, whose key the C pass must give alike)."""
    data = uri.encode("utf-8", "surrogatepass")
    href = _pctcodec._web_href(data)
    if isinstance(href, tuple):  # the browser refuses the URL: no key
        raise URLParseError(href[1], _index_of(data, href[0]))
    if not opts & _STRIP_SPACE:
        _kept_space_in_host(data)
    if href is not None:  # a host only the URL Standard's parser reads: its href
        uri = _host_spliced(data, href) or href
    if "\\" in uri or "%" in uri:  # read as a browser reads it (the core's rule)
        uri = _pctcodec._web_slashes(uri.encode("utf-8", "surrogatepass"),
                                     bool(opts & _STRIP_SPACE)).decode("utf-8", "surrogatepass")
    norm = _pctcodec.normalize(uri, drop_fragment=bool(opts & _DROP_FRAGMENT),
                               strip_whitespace=bool(opts & _STRIP_SPACE))
    return _pctcodec._canon_key(norm, drop_set, keep_set, opts)


def canonicalize(uri, *, drop=TRACKING_PARAMS, keep=None, ignore_case=None, sort_query=True,
                 drop_fragment=True, strip_www=False, same_scheme=False,
                 strip_trailing_slash=False, drop_empty_query=True, strip_whitespace=True,
                 html_amp=False):
    """A key for deduplicating URLs: uri normalized, tracking parameters
    dropped, the query sorted, the fragment dropped (see pctcodec.canonical).

    Parameters
    ----------
    uri : str
    drop : str or iterable of str or None, default TRACKING_PARAMS
        Patterns (``fnmatch``) of the parameter names to remove.
    keep : str or iterable of str or None, default None
        When given, only the parameters whose names match are kept.
    ignore_case : bool or None, default None
        ASCII case-insensitive name matching of ``drop`` and ``keep``; None:
        on for the default ``drop=TRACKING_PARAMS``, off for other patterns
        (``keep``'s too), as ``clean_query``.
    sort_query : bool, default True
        Sort the parameters by decoded name (stable).
    drop_fragment : bool, default True
    strip_www : bool, default False
        ``www.example.com`` -> ``example.com``.
    same_scheme : bool, default False
        ``https`` -> ``http`` (then ``:80`` is dropped as the default port).
    strip_trailing_slash : bool, default False
        ``/a/`` -> ``/a`` (the root ``/`` stays).
    drop_empty_query : bool, default True
        ``http://h/?`` -> ``http://h/``.
    strip_whitespace : bool, default True
        Strip leading and trailing C0 controls and spaces and remove tabs
        and newlines first, as the URL Standard does.
    html_amp : bool, default False
        Read ``&amp;`` in the query as one ``&``.

    Returns
    -------
    str
        The key, an ASCII str that passes ``check()``.

    Raises
    ------
    TypeError
        uri is not a str, or a pattern is not.
    PercentEncodingError
        uri has a lone surrogate (no UTF-8 form).

    Examples
    --------
    >>> canonicalize(" HTTP://Example.COM:80/a/./b?utm_source=x&b=2&a=%7e#top")
    'http://example.com/a/b?a=~&b=2'
    >>> canonicalize("https://www.example.com/a/", strip_www=True, same_scheme=True,
    ...              strip_trailing_slash=True)
    'http://example.com/a'
    """
    drop_set, keep_set, opts = _options(drop, keep, ignore_case, sort_query, drop_fragment,
                                        strip_www, same_scheme, strip_trailing_slash,
                                        drop_empty_query, strip_whitespace, html_amp)
    return _key(uri, drop_set, keep_set, opts)


def canonicalize_many(values, *, drop=TRACKING_PARAMS, keep=None, ignore_case=None,
                      sort_query=True, drop_fragment=True, strip_www=False, same_scheme=False,
                      strip_trailing_slash=False, drop_empty_query=True, strip_whitespace=True,
                      html_amp=False, threads=None, on_error="raise", rejects=None):
    """canonicalize() over a column (see pctcodec.batch for the kinds).

    Parameters
    ----------
    values : iterable of str or None, Arrow array, pandas or polars Series
        The column (any Arrow PyCapsule producer too).
    drop : str or iterable of str or None, optional
        As for ``canonicalize``.
    keep : str or iterable of str or None, optional
        As for ``canonicalize``.
    ignore_case : bool or None, optional
        As for ``canonicalize``.
    sort_query : bool, optional
        As for ``canonicalize``.
    drop_fragment : bool, optional
        As for ``canonicalize``.
    strip_www : bool, optional
        As for ``canonicalize``.
    same_scheme : bool, optional
        As for ``canonicalize``.
    strip_trailing_slash : bool, optional
        As for ``canonicalize``.
    drop_empty_query : bool, optional
        As for ``canonicalize``.
    strip_whitespace : bool, optional
        As for ``canonicalize``.
    html_amp : bool, optional
        As for ``canonicalize``.
    threads : int or None, optional
        As in ``pctcodec.batch``.
    on_error : {"raise", "null", "keep"}, optional
        As in ``pctcodec.batch``.
    rejects : list or None, optional
        As in ``pctcodec.batch``.

    Returns
    -------
    list, pyarrow Array or ChunkedArray, pandas or polars Series
        Of the input's kind and string type, row by row what
        ``canonicalize`` gives (None / null for a missing value).

    Raises
    ------
    TypeError
        A value that is neither str nor None (naming its index).
    PercentEncodingError
        A value with a lone surrogate (naming its index).

    Examples
    --------
    >>> canonicalize_many(["http://a/?b=1&a=2", "HTTP://A/?a=2&b=1#x", None])
    ['http://a/?a=2&b=1', 'http://a/?a=2&b=1', None]
    """
    drop_set, keep_set, opts = _options(drop, keep, ignore_case, sort_query, drop_fragment,
                                        strip_www, same_scheme, strip_trailing_slash,
                                        drop_empty_query, strip_whitespace, html_amp)
    # The C engine takes the pattern sets in the places of safe and errors.
    op = _Op("canonicalize_many", lambda s: _key(s, drop_set, keep_set, opts), threads,
             safe=drop_set, errors=keep_set, opts=opts, on_error=on_error)
    return _run(op, values, rejects)

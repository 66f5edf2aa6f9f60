"""Query parameters: read one, or drop the ones you do not want.

``query_param(uri, name)`` is the first value of parameter ``name`` in the
URI's query, decoded, or ``None`` when the query has no such parameter (or
the URI no query). ``clean_query(uri, drop=..., keep=..., sort=False)`` is
the URI without the parameters whose names the shell-style patterns reject.
With no patterns, ``clean_query(uri)`` drops ``TRACKING_PARAMS``.
``query_param_many`` and ``clean_query_many`` do the same over a list, an
Arrow array, a pandas or polars Series, with the types, threads and error
policy of the other batch functions (see ``pctcodec.batch``).

How a query is read (the rules of ``urllib.parse.parse_qsl(query,
keep_blank_values=True)``):

- The query is what RFC 3986 Appendix B finds: after the first ``?``, up to
  the first ``#`` (a ``#`` before any ``?`` means there is no query). This
  is also ``urllib.parse.urlsplit(uri).query`` except where urlsplit first
  removes tabs and newlines or strips the ends of the string.
- Parameters are separated by ``&`` only: ``;`` is part of a name or value,
  as in ``parse_qsl`` since Python 3.9.2. An empty segment (``?&&a=1``) is
  no parameter.
- A parameter's name is its text up to the first ``=``, its value the rest
  after that ``=``. A parameter with no ``=`` (``?debug``) has the value
  ``""``: present and empty, so ``query_param`` tells ``?debug`` (``""``)
  from a query without it (``None``), where ``parse_qsl`` without
  ``keep_blank_values`` would drop it.
- Names and values are form-decoded as ``urllib.parse.unquote_plus`` does
  with UTF-8 and ``errors="replace"``: ``+`` is a space, then ``%XX`` escapes
  are bytes, and bytes that are not well-formed UTF-8 become U+FFFD. So the
  name ``utm%5Fsource`` is ``utm_source``, ``a+b`` is ``"a b"`` and ``a%2Bb``
  is ``"a+b"``.

So, for a str whose query urlsplit and Appendix B agree on,
``query_param(u, n)`` is the first value of ``n`` in
``parse_qsl(urlsplit(u).query, keep_blank_values=True)``.

How ``clean_query`` matches and writes:

- ``drop`` and ``keep`` are a pattern (str) or an iterable of patterns, read
  as ``fnmatch.fnmatchcase`` reads them (Python 3.12's reading, on every
  version): ``*`` any run, ``?`` one character, ``[...]`` one of a set,
  ``[!...]`` one not in it; no escapes. They match the decoded name
  (above), so ``drop="utm_*"`` drops ``utm%5Fsource=x`` too.
- ``ignore_case=True`` matches ASCII letters in either case: the name and
  the patterns are compared with ``A``-``Z`` as ``a``-``z`` (other
  characters as they are), i.e. ``fnmatchcase(ascii_lower(name),
  ascii_lower(pattern))``, for ``drop`` and ``keep`` alike. The default,
  ``None``, matches ``drop`` in any case when it is ``TRACKING_PARAMS``
  itself (real logs hold ``UTM_SOURCE`` and ``Fbclid``, and no site gives
  those names another meaning), and every other pattern (``keep``'s too)
  case-sensitively, as before.
- ``html_amp=True`` reads ``&amp;`` as one separator, for queries copied
  out of HTML source without unescaping (``?a=1&amp;utm_source=x``): every
  ``amp;`` at the start of a segment is skipped (so ``&amp;amp;``, escaped
  twice, is one separator too), and the kept parameters are joined by
  ``&``. Off by default: ``amp;x`` is a legal name.
- Both may be given: a parameter is kept when its name matches a ``keep``
  pattern (any name, when ``keep`` is None) and no ``drop`` pattern.
  ``drop`` defaults to ``TRACKING_PARAMS`` (as ``canonicalize``'s does), so
  ``clean_query(u)`` removes the tracking parameters and ``keep=`` alone
  keeps its names less those; ``drop=None`` (or ``()``) drops nothing, on
  request.
- Everything kept is copied byte for byte: escapes, ``+``, the order of the
  parameters and the ``&`` between them; empty segments (``&&``) are no
  parameters and stay. The scheme, authority, path and fragment are
  untouched. When parameters were removed and nothing is left of the query,
  its ``?`` goes too: ``http://a/?utm_source=x#top`` -> ``http://a/#top``
  (a query that was empty to begin with keeps its ``?``, and so does a
  reference that is only a query: ``?utm_source=x`` -> ``?``, since the
  empty reference would mean the base URI's query, RFC 3986 5.2.2).
- ``sort=True`` orders the kept parameters by decoded name (code point
  order; parameters of the same name keep their order), so that
  ``?b=1&%61=2`` and ``?a=2&b=1`` sort alike.

``TRACKING_PARAMS`` is a tuple of patterns of common click identifiers and
campaign parameters of analytics and advertising platforms (``utm_*``,
``fbclid``, ``gclid``, ...): ``clean_query``'s default ``drop``.

A str with a lone surrogate (no UTF-8 form) raises ``PercentEncodingError``
at it. The results of ``clean_query`` keep the input's characters; those of
``query_param`` are decoded text.
"""
import functools

from . import _pctcodec
from ._errors import PercentEncodingError
from .batch import _Op, _run

__all__ = [
    "query_param",
    "query_param_many",
    "clean_query",
    "clean_query_many",
    "TRACKING_PARAMS",
]

# Click identifiers and campaign parameters added to links by analytics,
# advertising and mailing platforms; names only these platforms use, so that
# dropping them never changes which page a URL names.
TRACKING_PARAMS = (
    "utm_*",            # Google Analytics campaigns (utm_source, utm_medium, ...)
    "_ga", "_gl",       # Google Analytics cross-domain linking
    "gclid", "gclsrc", "dclid", "gbraid", "wbraid", "gad_source",  # Google Ads, DoubleClick
    "srsltid",          # Google Merchant Center
    "fbclid", "fb_action_ids", "fb_action_types", "fb_ref", "fb_source",  # Facebook
    "igshid", "igsh",   # Instagram
    "msclkid",          # Microsoft Advertising
    "yclid", "_openstat",  # Yandex
    "twclid",           # X (Twitter)
    "ttclid",           # TikTok
    "li_fat_id",        # LinkedIn
    "epik",             # Pinterest
    "ScCid",            # Snapchat
    "mc_cid", "mc_eid",  # Mailchimp
    "mkt_tok",          # Marketo
    "_hsenc", "_hsmi", "__hssc", "__hstc", "__hsfp", "hsCtaTracking",  # HubSpot
    "oly_anon_id", "oly_enc_id",  # Omeda
    "vero_id", "vero_conv",  # Vero
    "ck_subscriber_id",  # ConvertKit
    "wickedid",         # Wicked Reports
    "rb_clickid",       # Rakuten
    "s_cid",            # Adobe Analytics
)

# Ends each pattern in the C core's pattern sets (a byte UTF-8 never holds).
_END = b"\xff"


def _utf8(text, what):
    if not isinstance(text, str):
        raise TypeError("%s must be str, not %.200s" % (what, type(text).__name__))
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError as exc:
        # the documented error, at the surrogate, as for the uri itself
        reason = "%s: lone surrogate U+%04X has no UTF-8 form" % (what, ord(text[exc.start]))
        raise PercentEncodingError(reason, exc.start) from None


def _patterns(patterns, what):
    """A pattern or an iterable of patterns -> the C core's pattern set
    (None stays None)."""
    if patterns is None:
        return None
    if isinstance(patterns, str):
        patterns = (patterns,)
    elif isinstance(patterns, (bytes, bytearray)):
        raise TypeError("%s must be a str or an iterable of str, not %.200s"
                        % (what, type(patterns).__name__))
    try:
        items = tuple(patterns)
    except TypeError:
        raise TypeError("%s must be a str or an iterable of str, not %.200s"
                        % (what, type(patterns).__name__)) from None
    if set(map(type, items)) <= {str}:  # (the cache key: only exact str)
        return _encoded(items, what)
    return _join(items, what)  # str subclasses; a TypeError for what is not str


def _join(items, what):
    return b"".join(_utf8(p, "a %s pattern" % what) + _END for p in items)


# A single call with TRACKING_PARAMS would otherwise spend ten times the C
# work encoding its patterns again (a Python loop, or the line mode).
@functools.lru_cache(maxsize=64)
def _encoded(items, what):
    return _join(items, what)


def _filter(drop, keep, folds=(False, False)):
    """The pattern sets; folds: whether drop's and keep's names are matched
    in any case (their patterns then in small letters)."""
    if folds[0]:
        drop = _lowered(drop)
    if folds[1]:
        keep = _lowered(keep)
    return _patterns(drop, "drop") or b"", _patterns(keep, "keep")


_ASCII_LOWER = {c: c + 32 for c in range(ord("A"), ord("Z") + 1)}


def _lowered(patterns):
    """The patterns with ASCII capitals as small letters (the C core folds
    names the same way)."""
    if patterns is None or isinstance(patterns, (bytes, bytearray)):
        return patterns  # (the error is _patterns')
    if isinstance(patterns, str):
        return patterns.translate(_ASCII_LOWER)
    try:
        items = tuple(patterns)
    except TypeError:
        return patterns
    return tuple(p.translate(_ASCII_LOWER) if isinstance(p, str) else p for p in items)


def _ignore_case(ignore_case, drop):
    """Whether drop's and keep's patterns match in any case. None: drop's
    when it is TRACKING_PARAMS, keep's never; True or False: both."""
    if ignore_case is None:
        return drop is TRACKING_PARAMS, False
    return bool(ignore_case), bool(ignore_case)


# The option bits of the C functions (src/_pctcodec_batch.c).
_SORT_PARAMS, _IGNORE_CASE, _HTML_AMP, _KEEP_IGNORE_CASE = 1, 8, 16, 64


def _clean_opts(sort, folds, html_amp):
    return ((_SORT_PARAMS if sort else 0) | (_IGNORE_CASE if folds[0] else 0)
            | (_KEEP_IGNORE_CASE if folds[1] else 0) | (_HTML_AMP if html_amp else 0))


def query_param(uri, name):
    """The first value of parameter ``name`` in the URI's query, decoded.

    The query is read as ``urllib.parse.parse_qsl(query,
    keep_blank_values=True)`` reads it: ``&`` separates, ``+`` is a space,
    escapes are UTF-8 (``errors="replace"``); see :mod:`pctcodec.query`.

    Parameters
    ----------
    uri : str
        The URI (or a reference).
    name : str
        The parameter's decoded name.

    Returns
    -------
    str or None
        The decoded value (``""`` for ``?name`` or ``?name=``), or None when
        the query has no such parameter or the URI no query.

    Raises
    ------
    PercentEncodingError
        A lone surrogate in ``uri`` or ``name``.
    TypeError
        ``uri`` or ``name`` is not a str.

    Examples
    --------
    >>> query_param("http://h/?q=fish+%26+chips&debug", "q")
    'fish & chips'
    """
    return _pctcodec._query_param(uri, _utf8(name, "name"))


def clean_query(uri, *, drop=TRACKING_PARAMS, keep=None, sort=False, ignore_case=None,
                html_amp=False):
    """The URI without the query parameters ``drop`` matches or ``keep`` does not.

    Patterns are shell-style (``fnmatch.fnmatchcase``), matched against the
    decoded names; what is kept is copied byte for byte, and a query left
    empty loses its ``?``. See :mod:`pctcodec.query`.

    Parameters
    ----------
    uri : str
        The URI (or a reference).
    drop : str or iterable of str or None, default TRACKING_PARAMS
        Patterns of the names to remove; None: none.
    keep : str or iterable of str, optional
        Patterns of the only names to keep (None: any name).
    sort : bool, optional
        Order the kept parameters by decoded name.
    ignore_case : bool or None, optional
        Match names ignoring ASCII case: None (default) folds ``drop`` only
        when it is :data:`TRACKING_PARAMS` (platform names seen in any case),
        True folds ``drop`` and ``keep``, False neither.
    html_amp : bool, optional
        Read ``&amp;`` as one separator (queries of URLs scraped without
        HTML unescaping); off by default.

    Returns
    -------
    str
        The URI with the kept parameters.

    Raises
    ------
    PercentEncodingError
        A lone surrogate in ``uri``.
    TypeError
        ``uri`` is not a str, or a pattern is not a str.

    Examples
    --------
    >>> clean_query("http://h/?utm_source=x&id=7#top")
    'http://h/?id=7#top'
    >>> clean_query("http://h/?ref=a&id=7", drop="ref")
    'http://h/?id=7'
    """
    folds = _ignore_case(ignore_case, drop)
    drop_set, keep_set = _filter(drop, keep, folds)
    return _pctcodec._clean_query(uri, drop_set, keep_set, _clean_opts(sort, folds, html_amp))


def query_param_many(values, name, *, threads=None, on_error="raise", rejects=None):
    """query_param() over every value of a column.

    Parameters
    ----------
    values : iterable of str or None, Arrow array, pandas or polars Series
        The column of URIs.
    name : str
        The parameter's decoded name.
    threads : int or None, optional
        Threads for Arrow input (1 to 1024); None: one per usable core, each
        with at least 16384 rows. Lists run on the calling thread.
    on_error : {"raise", "null", "keep"}, optional
        What a row whose single-value call raises gives: the error (raised,
        naming the row's index), None, or its input unchanged.
    rejects : list or None, optional
        Gets a ``Reject(index, value, error)`` per failed row, in row order.

    Returns
    -------
    list of str or None
        For a list or any other iterable (None for a missing parameter).
    pyarrow.Array or pyarrow.ChunkedArray
        For pyarrow input: the same kind and string type, null for a missing
        parameter.
    pandas.Series or polars.Series
        For a Series: the same index, name and dtype.

    Raises
    ------
    TypeError
        A value that is not str or None (naming its index), or ``values``
        that is not a column.
    PercentEncodingError
        A value with a lone surrogate.

    Examples
    --------
    >>> query_param_many(["http://h/?a=1&b=x+y", "http://h/"], "b")
    ['x y', None]
    """
    encoded = _utf8(name, "name")
    get = _pctcodec._query_param
    op = _Op("query_param_many", lambda s: get(s, encoded), threads, safe=encoded,
             on_error=on_error)
    return _run(op, values, rejects)


def clean_query_many(values, *, drop=TRACKING_PARAMS, keep=None, sort=False, ignore_case=None,
                     html_amp=False, threads=None, on_error="raise", rejects=None):
    """clean_query() over every value of a column.

    Parameters
    ----------
    values : iterable of str or None, Arrow array, pandas or polars Series
        The column of URIs.
    drop : str or iterable of str or None, default TRACKING_PARAMS
        Patterns of the names to remove; None: none.
    keep : str or iterable of str, optional
        Patterns of the only names to keep.
    sort : bool, optional
        Order the kept parameters by decoded name.
    ignore_case : bool or None, optional
        Match names ignoring ASCII case: None (default) folds ``drop`` only
        when it is :data:`TRACKING_PARAMS` (platform names seen in any case),
        True folds ``drop`` and ``keep``, False neither.
    html_amp : bool, optional
        Read ``&amp;`` as one separator (queries of URLs scraped without
        HTML unescaping); off by default.
    threads : int or None, optional
        Threads for Arrow input (1 to 1024); None: one per usable core, each
        with at least 16384 rows. Lists run on the calling thread.
    on_error : {"raise", "null", "keep"}, optional
        What a row whose single-value call raises gives: the error (raised,
        naming the row's index), None, or its input unchanged.
    rejects : list or None, optional
        Gets a ``Reject(index, value, error)`` per failed row, in row order.

    Returns
    -------
    list of str or None
        For a list or any other iterable (None stays None).
    pyarrow.Array or pyarrow.ChunkedArray
        For pyarrow input: the same kind and string type, nulls kept.
    pandas.Series or polars.Series
        For a Series: the same index, name and dtype.

    Raises
    ------
    TypeError
        A value that is not str or None (naming its index), ``values`` that
        is not a column, or a pattern that is not a str.
    PercentEncodingError
        A value with a lone surrogate.

    Examples
    --------
    >>> clean_query_many(["http://h/?utm_source=x&id=7", None], drop="utm_*")
    ['http://h/?id=7', None]
    """
    folds = _ignore_case(ignore_case, drop)
    drop_set, keep_set = _filter(drop, keep, folds)
    opts = _clean_opts(sort, folds, html_amp)
    clean = _pctcodec._clean_query
    # The C engine takes the pattern sets in the places of safe and errors.
    op = _Op("clean_query_many", lambda s: clean(s, drop_set, keep_set, opts), threads,
             safe=drop_set, errors=keep_set, opts=opts, on_error=on_error)
    return _run(op, values, rejects)

"""Reference resolution (RFC 3986 section 5): ``resolve`` and ``resolve_many``.

``resolve(base, reference)`` is the target URI of ``reference`` (an
``href``, a ``Location`` header...) read against ``base`` (the page it was
found on), by the algorithm of RFC 3986 5.2, in C (``src/core/pct_resolve.c``):

- Both strings are split as RFC 3986 Appendix B splits them (the rules of
  ``pctcodec.split``); the target takes its scheme, authority, path, query
  and fragment from the reference or the base as 5.2.2 says, merges a
  relative path with the base's (5.2.3), removes dot segments (5.2.4, the
  function ``normalize`` uses too) and recomposes the parts (5.3).
- The parser is the strict one of 5.2.2: a reference with a scheme is
  absolute, even when the scheme is the base's (``http:g`` against
  ``http://a/b/c`` is ``http:g``). ``strict=False`` gives the
  backward-compatible reading 5.2.2 describes: a reference whose scheme
  equals the base's (ignoring ASCII case) is read without it
  (``http://a/b/g``), as ``urllib.parse.urljoin`` reads it.
- Every character is copied as it is written: escapes are not decoded,
  added or repaired, a ``%`` without two hex digits stays as it is, and so
  do spaces and non-ASCII characters (the result is a ``str`` holding
  them). ``%2E`` is not a dot segment. ``normalize=True`` gives
  ``normalize(resolve(base, reference))`` in the same call: escapes of
  unreserved characters decoded, a malformed ``%`` made ``%25``, other
  characters percent-encoded, case and ports normalized, IDNA for hosts.
- The base's fragment is never used (RFC 3986 5.1).

Errors: a base that is not absolute (no scheme) raises ``ResolveError``, a
``ValueError`` whose ``position`` is the index in the base of the first
character that stops a scheme (``"/a"`` -> 0, ``"ht tp://a"`` -> 2,
``"example.com"`` -> 11). A ``str`` with a lone surrogate (no UTF-8 form)
raises ``PercentEncodingError`` at it. A reference never fails: every
string is a URI reference once split.

``resolve_many(base, references)`` does it over a column: ``base`` is one
``str`` for every row, or a column of bases as long as ``references`` (a
crawl's page URL and ``href`` side by side), row by row. What comes back has
the kind of ``references`` (a list, a pyarrow ``Array`` or ``ChunkedArray`` of
the same string type, a pandas or polars ``Series``), with the threads and
error policy of every batch function (``pctcodec.batch``); a row whose base
or reference is missing gives a missing value. Differences from
``urllib.parse.urljoin`` are listed in docs/resolve.md.
"""
from . import _pctcodec
from ._errors import ResolveError
from .batch import _TABLES, _Op, _foreign, _module_type, _pyarrow, _run

__all__ = ["resolve", "resolve_many", "ResolveError"]


def resolve(base, reference, *, normalize=False, strict=True):
    """Resolve a URI reference against a base URI (RFC 3986 5.2).

    Parameters
    ----------
    base : str
        An absolute URI (with a scheme); its fragment is not used.
    reference : str
        Any URI reference: absolute, network-path (``//host/p``),
        absolute-path, relative-path, query or fragment only, or empty.
    normalize : bool, default False
        Return ``normalize(target)`` instead (RFC 3986 6.2.2, 6.2.3).
    strict : bool, default True
        The strict parser of 5.2.2. False: a reference whose scheme is the
        base's (any case) is read as if it had none.

    Returns
    -------
    str
        The target URI, its characters as written in the inputs (unless
        ``normalize``), dot segments removed from any path that came from
        the reference.

    Raises
    ------
    ResolveError
        The base has no scheme; ``position`` is where its scheme stops.
    PercentEncodingError
        An argument holds a lone surrogate.
    TypeError
        An argument is not a ``str``.

    Examples
    --------
    >>> resolve("http://a/b/c/d;p?q", "../g")
    'http://a/b/g'
    >>> resolve("http://a/b/c/d;p?q", "http:g")
    'http:g'
    >>> resolve("http://a/b/c/d;p?q", "http:g", strict=False)
    'http://a/b/c/g'
    >>> resolve("HTTP://A/b/", "./%7Ex/../y", normalize=True)
    'http://a/b/y'
    """
    return _pctcodec.resolve(base, reference, normalize=normalize, strict=strict)


def _pandas_bases(series):
    """A pandas column of bases as a pyarrow array (Arrow-backed dtypes in
    place, object ones converted by pyarrow), or a list when pyarrow cannot
    hold it (a value that is no str: the engine's TypeError names its row)."""
    pa = _pyarrow(required=False)
    if pa is not None:
        import pandas as pd

        dtype = series.dtype
        if getattr(dtype, "__from_arrow__", None) is not None and getattr(dtype, "storage", "pyarrow") == "pyarrow":
            return series.array.__arrow_array__()
        if dtype == object or isinstance(dtype, (pd.StringDtype, pd.CategoricalDtype)):
            try:
                return pa.array(series.astype(object) if isinstance(dtype, pd.CategoricalDtype) else series,
                                from_pandas=True, type=pa.large_string())
            except (pa.ArrowInvalid, pa.ArrowTypeError):
                pass
    missing = series.isna().tolist()
    return [None if m else v for v, m in zip(series.tolist(), missing)]


def _base_column(base, n, caller="resolve_many"):
    """A column of bases as a list or a pyarrow array of n rows (caller: the
    batch function whose argument it is, for the errors)."""
    if isinstance(base, (bytes, bytearray)):
        raise TypeError("%s() needs a str or a column of bases, not %.200s"
                        % (caller, type(base).__name__))
    for module, name in _TABLES:
        table = _module_type(module, name)
        if table is not None and isinstance(base, table):
            raise TypeError("%s() takes one column of bases, not a whole %s.%s"
                            % (caller, module, name))
    pa_array = _module_type("pyarrow", "Array")
    pa_chunked = _module_type("pyarrow", "ChunkedArray")
    pd_series = _module_type("pandas", "Series")
    pl_series = _module_type("polars", "Series")
    if pa_array is not None and isinstance(base, (pa_array, pa_chunked)):
        column = base
    elif pd_series is not None and isinstance(base, pd_series):
        column = _pandas_bases(base)
    elif pl_series is not None and isinstance(base, pl_series):
        # as Arrow, the way the references go (no Python objects)
        import polars as pl

        column = (base if base.dtype == pl.String else base.cast(pl.String)).to_arrow()
    elif hasattr(base, "__arrow_c_array__") or hasattr(base, "__arrow_c_stream__"):
        column = _foreign(base)
    else:
        try:
            column = list(base)
        except TypeError:
            raise TypeError("%s() needs a str or a column of bases, not %.200s"
                            % (caller, type(base).__name__)) from None
    column = _undictionary(column)
    if len(column) != n:
        raise ValueError("%s() needs one base per reference: %d bases for %d references"
                         % (caller, len(column), n))
    return column


def _undictionary(column):
    """A dictionary-encoded Arrow column of bases as its values (the engine
    reads a base row by row); any other column as it is."""
    pa = _pyarrow(required=False)
    if pa is None or not isinstance(column, (pa.Array, pa.ChunkedArray)) \
            or not pa.types.is_dictionary(column.type):
        return column
    from .batch import _decoded

    if isinstance(column, pa.ChunkedArray):
        return pa.chunked_array([_decoded(pa, c) for c in column.chunks], type=column.type.value_type)
    return _decoded(pa, column)


def _references(values):
    """The references in a form whose rows line up with a base column: a
    categorical pandas Series as objects, an Arrow producer other than
    pyarrow as a pyarrow array."""
    pd_series = _module_type("pandas", "Series")
    if pd_series is not None and isinstance(values, pd_series):
        import pandas as pd

        if isinstance(values.dtype, pd.CategoricalDtype):
            return values.astype(object)
        return values
    pa_array = _module_type("pyarrow", "Array")
    pa_chunked = _module_type("pyarrow", "ChunkedArray")
    pl_series = _module_type("polars", "Series")
    if (pa_array is not None and isinstance(values, (pa_array, pa_chunked))) or \
            (pl_series is not None and isinstance(values, pl_series)):
        return values
    if hasattr(values, "__arrow_c_array__") or hasattr(values, "__arrow_c_stream__"):
        return _foreign(values)
    if isinstance(values, (list, tuple, str, bytes, bytearray)):
        return values
    try:
        return list(values)
    except TypeError:
        return values  # the engine's own TypeError


def resolve_many(base, references, *, normalize=False, strict=True, threads=None,
                 on_error="raise", rejects=None):
    """Resolve a column of references against one base or a column of bases.

    Parameters
    ----------
    base : str or column of str
        One absolute URI for every row, or a column of them as long as
        ``references`` (a list, tuple or iterable, a pyarrow ``Array`` or
        ``ChunkedArray``, a pandas or polars ``Series``, any Arrow
        producer), matched row by row by position (not by a pandas index).
    references : column of str
        A list, tuple or iterable of ``str`` or ``None``; a pyarrow
        ``Array`` or ``ChunkedArray`` of ``string``, ``large_string`` or
        ``string_view``; a pandas ``Series`` (object, string or category
        dtype); a polars ``Series`` of ``String`` or ``Categorical``.
    normalize : bool, optional
        As for ``resolve``.
    strict : bool, optional
        As for ``resolve``.
    threads : int or None, default None
        Threads for Arrow input (1..1024; None: by the cores and rows).
    on_error : {"raise", "null", "keep"}, default "raise"
        What a failed row gives (a base that is not absolute): raise,
        ``None``, or the reference unchanged.
    rejects : list, optional
        Gets a ``Reject(index, value, error)`` per failed row (``value``
        is the reference).

    Returns
    -------
    list, pyarrow.Array, pyarrow.ChunkedArray, pandas.Series or polars.Series
        The kind of ``references``: a list for a list, tuple or iterable;
        an Arrow array or chunked array of the same string type; a pandas
        Series with the same index, name and dtype (a category Series
        resolved against one base stays categorical, against a column it
        becomes object); a polars Series with the same name and dtype. A
        missing reference or base gives a missing value.

    Raises
    ------
    ResolveError
        A row's base has no scheme (raised with the row's ``index``); a
        single ``base`` str with no scheme is raised before any row.
    ValueError
        A base column of another length than ``references``.
    TypeError
        A value or base that is neither ``str`` nor ``None`` (naming its
        index), or a column of another type.

    Examples
    --------
    >>> resolve_many("http://a/b/c", ["d", "../e", "//x/y", None])
    ['http://a/b/d', 'http://a/e', 'http://x/y', None]
    >>> resolve_many(["http://a/b/", "https://c/d/e"], ["f", "/g"])
    ['http://a/b/f', 'https://c/g']
    """
    normalize = bool(normalize)
    strict = bool(strict)
    call = _pctcodec.resolve

    def func(b, r):
        return call(b, r, normalize=normalize, strict=strict)

    opts = normalize | (not strict) << 1
    if isinstance(base, str):
        call(base, "")  # a fixed base that is not absolute: before any row
        op = _Op("resolve_many", func, threads, safe=base, opts=opts, on_error=on_error)
        return _run(op, references, rejects)
    references = _references(references)
    try:
        n = len(references)
    except TypeError:
        n = None
    op = _Op("resolve_many", func, threads, opts=opts, on_error=on_error)
    if n is not None:
        op.bases = _base_column(base, n)
    return _run(op, references, rejects)

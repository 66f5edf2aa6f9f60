"""URI components as columns: ``split`` and ``split_many``.

``split(uri)`` cuts a ``str`` into the seven components of RFC 3986
Appendix B and returns them as a ``URIParts`` named tuple::

    >>> split("https://user@example.com:8443/a%20b?q=1#top")
    URIParts(scheme='https', userinfo='user', host='example.com', port='8443', path='/a%20b', query='q=1', fragment='top')

Every component is as written: no escape is decoded, no case changed, no
port made a number, nothing checked. A component that is absent is
``None``, one that is there but empty is ``""``: ``"http://h/?"`` has the
query ``""``, ``"http://h/"`` the query ``None``. The path is always a
``str`` (maybe empty); the host is a ``str`` whenever there is an authority
(``"//"``), even an empty one (``"file:///etc"``). Hence recomposing the
parts as RFC 3986 5.3 does (``URIParts.geturl()``) gives the input back,
for every string.

The rules (those of ``pct_uri_split`` in the C core): a prefix before the
first ``:`` is the scheme only if it is ``ALPHA *(ALPHA / DIGIT / "+" / "-"
/ ".")`` and comes before any ``/?#``; otherwise the string is a relative
reference. ``//`` then starts the authority, up to the next ``/?#``; in it
the userinfo ends at the *last* ``@``; a host starting with ``[`` is an IP
literal up to its ``]`` (the port follows ``]:``), any other host ends at
its first ``:``. Then the path up to ``?`` or ``#``, the query up to ``#``,
and the fragment. No input fails: any ``str`` has these parts. How this
differs from ``urllib.parse.urlsplit`` is in docs/split.md.

``split_many(values)`` does it over a column; what comes back has the kind
of what went in:

- a list, tuple or other iterable of ``str`` (``None`` passes through as
  ``None``) -> a ``list`` of ``URIParts``;
- a pyarrow ``Array`` or ``ChunkedArray`` of ``string``, ``large_string`` or
  ``string_view`` -> a ``StructArray`` (chunked in, chunked out) with the
  seven fields, each of the input's string type (``large_string`` for an
  array of type ``null``); a null row gives a null struct, an absent
  component a null field; a dictionary array of those types is split entry
  by entry, once each, and each row takes its entry's struct (a plain
  ``StructArray``: a struct has no dictionary encoding);
- a pandas ``Series`` -> a ``DataFrame`` with the same index and one column
  per component, of the Series' dtype (object, a string dtype; a ``category``
  Series gives object columns, its categories split once); a missing value
  gives a missing value in every column;
- a polars ``Series`` of ``String``, ``Categorical`` or ``Null`` -> a polars
  ``DataFrame`` of ``String`` columns (through pyarrow).

Arrow data (pyarrow, pandas' Arrow-backed dtypes, polars) is split in one C
pass per row with the GIL released, writing the seven child arrays in
place: no Python object per row. It runs on one thread: the pass is little
more than a copy of each row's bytes. ``threads`` is checked as the other
batch functions check it (1..1024 or None) and is there for their common
signature.

A list input is split on code points, so a ``str`` with lone surrogates
(which has no UTF-8 form) is split like any other; Arrow strings are UTF-8
already and are split on their bytes, which gives the same parts (every
delimiter is ASCII).

Errors: ``split`` of something that is not a ``str`` raises ``TypeError``.
In ``split_many`` a value that is neither ``str`` nor ``None`` raises
``TypeError`` naming its index (and with an ``index`` attribute);
``on_error="null"`` gives ``None`` for it and ``"keep"`` the value itself
(in a list: a DataFrame or an Arrow struct has no field for it, so its row
is missing there, as under "null"), and ``rejects`` gets a ``Reject(index, value, error)`` per such value, as in
``pctcodec.batch``. A ``str`` never fails. A malformed Arrow array raises
``ValueError`` naming its first bad row, as in ``pctcodec.batch``.
"""
from collections import namedtuple

from . import _pctcodec
from .batch import (
    _ON_ERROR,
    _TABLES,
    Reject,
    _arrow_source,
    _arrow_type_name,
    _check_on_error,
    _check_threads,
    _dictionary_indices,
    _module_type,
    _not_str,
    _pyarrow,
    _take,
)

__all__ = ["URIParts", "split", "split_many"]

# The field names are those of the C engine's struct (src/_pctcodec_split.c).
_FIELDS = ("scheme", "userinfo", "host", "port", "path", "query", "fragment")


class URIParts(namedtuple("URIParts", _FIELDS)):
    """The seven components of a URI reference as written, None where absent
    (see pctcodec.parts); ``geturl()`` puts them back together."""

    __slots__ = ()

    def geturl(self):
        """The URI the parts were split from (RFC 3986 5.3, recomposition)."""
        scheme, userinfo, host, port, path, query, fragment = self
        out = []
        if scheme is not None:
            out += scheme, ":"
        if host is not None:
            out.append("//")
            if userinfo is not None:
                out += userinfo, "@"
            out.append(host)
            if port is not None:
                out += ":", port
        out.append(path)
        if query is not None:
            out += "?", query
        if fragment is not None:
            out += "#", fragment
        return "".join(out)


split = _pctcodec.split


# ---------------------------------------------------------------- engines

def _split_list(values, on_error, raw):
    return _pctcodec._split_list(values, _ON_ERROR[on_error], raw)


def _struct_type(pa, typ):
    """The struct type split_many makes of a column of type `typ`."""
    if pa.types.is_null(typ):
        typ = pa.large_string()
    return pa.struct([pa.field(name, typ) for name in _FIELDS])


def _check_arrow_type(pa, typ):
    if _arrow_type_name(pa, typ) is None:
        raise TypeError("split_many() needs a column of strings, not Arrow type %s" % typ)


def _split_arrow_array(pa, arr, base=0):
    if pa.types.is_dictionary(arr.type):
        # each entry split once, each row taking its entry's struct
        _check_arrow_type(pa, arr.type.value_type)
        indices = _dictionary_indices(pa, arr, base)
        return _take(pa, _split_arrow_array(pa, arr.dictionary), indices)
    _check_arrow_type(pa, arr.type)
    return pa.Array._import_from_c_capsule(*_pctcodec._split_arrow(_arrow_source(arr), base))


def _split_arrow(values):
    """A pyarrow Array or ChunkedArray -> a StructArray of the same kind."""
    pa = _pyarrow()
    if isinstance(values, pa.ChunkedArray):
        typ = values.type.value_type if pa.types.is_dictionary(values.type) else values.type
        _check_arrow_type(pa, typ)
        chunks, base = [], 0
        for chunk in values.chunks:
            chunks.append(_split_arrow_array(pa, chunk, base))
            base += len(chunk)
        return pa.chunked_array(chunks, type=_struct_type(pa, typ))
    return _split_arrow_array(pa, values)


def _split_pandas(series, on_error, raw):
    import pandas as pd

    dtype = series.dtype
    if isinstance(dtype, pd.CategoricalDtype):
        return _split_categorical(series, on_error, raw)
    from_arrow = getattr(dtype, "__from_arrow__", None)
    if from_arrow is not None and getattr(dtype, "storage", "pyarrow") == "pyarrow":
        parts = _split_arrow(series.array.__arrow_array__())
        columns = {name: from_arrow(parts.field(name) if hasattr(parts, "field")
                                    else _chunked_field(parts, name))
                   for name in _FIELDS}
        return pd.DataFrame(columns, index=series.index, copy=False)
    if not (dtype == object or isinstance(dtype, pd.StringDtype)):
        raise TypeError("split_many() needs a Series of strings (object, string or category "
                        "dtype), not dtype %s" % dtype)
    missing = series.isna().tolist()
    values = [None if m else v for v, m in zip(series.tolist(), missing)]
    rows = _split_list(values, on_error, raw)
    return _frame(pd, rows, series.index, dtype)


def _chunked_field(chunked, name):
    import pyarrow as pa

    return pa.chunked_array([chunk.field(name) for chunk in chunked.chunks],
                            type=chunked.type.field(name).type)


def _frame(pd, rows, index, dtype):
    """The DataFrame of a list of URIParts (or None, or a kept value: a row
    with no parts) with the given index and column dtype."""
    columns = {name: [r[k] if type(r) is URIParts else None for r in rows]
               for k, name in enumerate(_FIELDS)}
    return pd.DataFrame({name: pd.Series(col, index=index, dtype=dtype)
                         for name, col in columns.items()}, index=index)


def _split_categorical(series, on_error, raw):
    """Each category is split once; the rows take their category's parts."""
    import numpy as np
    import pandas as pd

    categories = series.cat.categories
    if not (categories.dtype == object or isinstance(categories.dtype, pd.StringDtype)):
        raise TypeError("split_many() needs categories of strings, not of dtype %s"
                        % categories.dtype)
    codes = series.cat.codes.to_numpy()
    inner = []
    parts = _split_list(categories.tolist(), "null", inner)
    failed = sorted((int(np.flatnonzero(codes == k)[0]), k, value, exc)
                    for k, value, exc in inner if (codes == k).any())
    if failed and on_error == "raise":
        row, _, value, _ = failed[0]
        raise _row_error_at("split_many", value, row)
    for _, k, value, exc in failed:
        if raw is not None:
            raw.extend((int(row), value, _not_str("split_many", int(row), value))
                       for row in np.flatnonzero(codes == k))
    rows = np.array(parts + [None], dtype=object)[codes].tolist()
    return _frame(pd, rows, series.index, object)


def _row_error_at(name, value, row):
    """The TypeError of a category that is no str, for one of its rows,
    with the ``index`` attribute of the engine's."""
    exc = _not_str(name, row, value)
    exc.index = row
    return exc


def _split_polars(series):
    import polars as pl

    dtype = series.dtype
    if dtype == pl.Categorical or (getattr(pl, "Enum", None) is not None
                                   and isinstance(dtype, pl.Enum)):
        series = series.cast(pl.String)
    elif dtype != pl.String and dtype != pl.Null:
        raise TypeError("split_many() needs a column of strings, not polars dtype %s" % dtype)
    pa = _pyarrow()
    column = series.to_arrow()
    parts = _split_arrow(column)
    table = pa.Table.from_arrays([parts.field(name) for name in _FIELDS], names=list(_FIELDS))
    return pl.from_arrow(table)


# ---------------------------------------------------------------- dispatch

def split_many(values, *, threads=None, on_error="raise", rejects=None):
    """split() over every value of a column: URI components as a table.

    Parameters
    ----------
    values : iterable of str or None, Arrow array, pandas or polars Series
        The column of URIs.
    threads : int or None, optional
        Threads for Arrow input (1 to 1024); None: one per usable core, each
        with at least 16384 rows. Lists run on the calling thread.
    on_error : {"raise", "null", "keep"}, optional
        What a row whose single-value call raises gives: the error (raised,
        naming the row's index), None, or its input unchanged (in a list; a
        DataFrame or an Arrow struct has no field for it: the row is missing
        in every column, as under "null").
    rejects : list or None, optional
        Gets a ``Reject(index, value, error)`` per failed row, in row order.

    Returns
    -------
    list of URIParts or None
        For a list or any other iterable (None stays None).
    pyarrow.StructArray or pyarrow.ChunkedArray
        For pyarrow input: one string field per component, null where absent.
    pandas.DataFrame or polars.DataFrame
        For a Series: one column per component, the Series' index kept.

    Raises
    ------
    TypeError
        A value that is not str or None (naming its index), or ``values``
        that is not a column.

    Examples
    --------
    >>> split_many(["http://h:8/p?q", None])[0]
    URIParts(scheme='http', userinfo=None, host='h', port='8', path='/p', query='q', fragment=None)
    """
    _check_threads(threads)
    _check_on_error("split_many", on_error, rejects)
    raw = [] if on_error != "raise" else None
    result = _dispatch(values, on_error, raw)
    if rejects is not None and raw:
        raw.sort(key=lambda t: t[0])
        for t in raw:
            rejects.append(Reject._make(t))
    return result


def _dispatch(values, on_error, raw):
    if isinstance(values, (str, bytes, bytearray)):
        raise TypeError("split_many() expects an iterable of str, not a single %.200s"
                        % type(values).__name__)
    if type(values) is list or type(values) is tuple:
        return _split_list(values, on_error, raw)
    for module, name in _TABLES:
        table = _module_type(module, name)
        if table is not None and isinstance(values, table):
            raise TypeError("split_many() takes one column (such as df['url']), not a whole "
                            "%s.%s" % (module, name))
    pd_series = _module_type("pandas", "Series")
    if pd_series is not None and isinstance(values, pd_series):
        return _split_pandas(values, on_error, raw)
    pl_series = _module_type("polars", "Series")
    if pl_series is not None and isinstance(values, pl_series):
        return _split_polars(values)
    pa_array = _module_type("pyarrow", "Array")
    pa_chunked = _module_type("pyarrow", "ChunkedArray")
    if pa_array is not None and isinstance(values, (pa_array, pa_chunked)):
        return _split_arrow(values)
    if hasattr(values, "__arrow_c_array__") or hasattr(values, "__arrow_c_stream__"):
        pa = _pyarrow()
        stream = not hasattr(values, "__arrow_c_array__")
        return _split_arrow(pa.chunked_array(values) if stream else pa.array(values))
    try:
        iterator = iter(values)
    except TypeError:
        raise TypeError("split_many() expects an iterable of str or an Arrow array, not %.200s"
                        % type(values).__name__) from None
    return _split_list(list(iterator), on_error, raw)

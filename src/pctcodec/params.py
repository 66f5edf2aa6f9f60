"""Every query parameter, or a few named ones, as values or as columns.

``parse_query(uri)`` is the list of every ``(name, value)`` of the URI's
query, in order, decoded: for a ``str`` whose query ``urlsplit`` finds the
same (see ``pctcodec.query`` for how the query is found and read), it is
``parse_qsl(urlsplit(uri).query, keep_blank_values=True)``. A repeated name
gives one pair per occurrence; a parameter without ``=`` has the value
``""``; empty segments (``&&``) are none. ``keep_plus=True`` keeps ``+`` as
``+`` (for queries written by ``quote`` rather than by HTML forms: only
``%XX`` is decoded), ``html_amp=True`` reads ``&amp;`` as one separator.

``query_params(uri, names)`` gives, for each of the names, its first value
(``None`` when absent), or with ``all=True`` the list of all its values: a
dict in the order of ``names``.

Columns (see ``pctcodec.batch`` for the input kinds, ``on_error`` and
``rejects``):

- ``parse_query_many(values)``: a list of lists of pairs for a list; a
  pyarrow ``ListArray`` of ``struct<name, value>`` (chunked in, chunked
  out; ``name`` and ``value`` of the input's string type) for Arrow, null
  for a null row and ``[]`` for a row without query; a pandas ``Series`` of
  lists of pairs (object dtype), or of ``pd.ArrowDtype(list<struct>)`` for
  an Arrow-backed Series; a polars ``Series`` of ``List(Struct)``.
- ``parse_query_long(values)``: the same pairs as a long table with one row
  per pair: ``(row, name, value)`` with ``row`` the 0-based index of the
  input row: a list of tuples, a pyarrow ``Table``, a pandas or polars
  ``DataFrame``; rows without parameters (or null) have no pair.
- ``query_params_many(values, names, all=False)``: one column per name: for
  a list, a list of dicts; for Arrow a ``StructArray`` with one field per
  name (string, or ``list<string>`` with ``all``); for pandas and polars a
  ``DataFrame`` with one column per name (the pandas index kept). It reads
  each query once for all the names.

Arrow data is read in place and written into new buffers in one pass with
the GIL released (one thread: the pass is little more than a copy);
``threads`` is checked as elsewhere and is there for the common signature.
pandas object columns and lists go row by row through the single call.
"""
from . import _pctcodec
from ._errors import PercentEncodingError
from .batch import (
    _column_kind,
    _raise_indexed,
    Reject,
    _arrow_source,
    _arrow_type_name,
    _check_on_error,
    _check_threads,
    _decoded,
    _not_str,
    _pyarrow,
)
from .query import _utf8

__all__ = [
    "parse_query",
    "parse_query_many",
    "parse_query_long",
    "query_params",
    "query_params_many",
]

# The option bits of the C functions (src/_pctcodec_query.c, _pctcodec_query_arrow.c).
_KEEP_PLUS, _HTML_AMP = 1, 2


def _opts(keep_plus, html_amp):
    return (_KEEP_PLUS if keep_plus else 0) | (_HTML_AMP if html_amp else 0)


def parse_query(uri, *, keep_plus=False, html_amp=False):
    """Every (name, value) pair of uri's query, in order, decoded.

    Parameters
    ----------
    uri : str
        A URI or URI reference; its query is what follows the first ``?``
        up to the first ``#``.
    keep_plus : bool, default False
        Keep ``+`` as ``+`` (only ``%XX`` is decoded) instead of reading it
        as a space, as HTML forms write it.
    html_amp : bool, default False
        Read ``&amp;`` as one separator (a query copied out of HTML source
        without unescaping).

    Returns
    -------
    list of (str, str)
        ``parse_qsl(urlsplit(uri).query, keep_blank_values=True)`` wherever
        urlsplit finds the same query; ``[]`` without query.

    Raises
    ------
    TypeError
        uri is not a str.
    PercentEncodingError
        uri has a lone surrogate (no UTF-8 form), at its index.

    Examples
    --------
    >>> parse_query("http://h/?a=1&b&a=x+y%21#f")
    [('a', '1'), ('b', ''), ('a', 'x y!')]
    """
    return _pctcodec._parse_query(uri, _opts(keep_plus, html_amp))


def _names(names):
    if isinstance(names, str):
        names = (names,)
    elif isinstance(names, (bytes, bytearray)):
        raise TypeError("names must be a str or an iterable of str, not %.200s"
                        % type(names).__name__)
    names = tuple(names)
    encoded = tuple(_utf8(n, "a name") for n in names)
    return names, encoded


def _params_of(pairs, names, all):
    if all:
        out = {n: [] for n in names}
        for k, v in pairs:
            if k in out:
                out[k].append(v)
        return out
    out = dict.fromkeys(names)
    for k, v in pairs:
        if k in out and out[k] is None:
            out[k] = v
    return out


def query_params(uri, names, *, all=False, keep_plus=False, html_amp=False):
    """The values of the named parameters of uri's query, in one read.

    Parameters
    ----------
    uri : str
    names : str or iterable of str
        The decoded names wanted (a name given twice is one key).
    all : bool, default False
        Give every value of each name (a list, maybe empty) instead of the
        first one (``None`` when absent).
    keep_plus : bool, optional
        As for ``parse_query``.
    html_amp : bool, optional
        As for ``parse_query``.

    Returns
    -------
    dict
        One entry per name, in the order of ``names``.

    Raises
    ------
    TypeError
        uri or a name is not a str.

    Examples
    --------
    >>> query_params("http://h/?a=1&b=2&a=3", ["a", "c"])
    {'a': '1', 'c': None}
    >>> query_params("http://h/?a=1&b=2&a=3", "a", all=True)
    {'a': ['1', '3']}
    """
    names, _ = _names(names)
    return _params_of(parse_query(uri, keep_plus=keep_plus, html_amp=html_amp), names, all)


# ---------------------------------------------------------------- engines

def _each(name, fn, values, on_error, raw):
    """fn over a list of str or None, TypeError naming the index of any
    other value (null or kept under on_error, with its (index, value, error)
    in raw)."""
    out = []
    for i, v in enumerate(values):
        if v is None:
            out.append(None)
            continue
        if not isinstance(v, str):
            exc = _not_str(name, i, v)
            if on_error == "raise":
                exc.index = i  # as every raised row error has it (a Reject holds its index)
                raise exc
            raw.append((i, v, exc))
            out.append(v if on_error == "keep" else None)
            continue
        try:
            out.append(fn(v))
        except PercentEncodingError as err:  # a lone surrogate: this row fails
            if on_error == "raise":
                _raise_indexed(err, i)
            raw.append((i, v, err))  # the single call's error as it is, as other rejects keep it
            out.append(v if on_error == "keep" else None)
    return out


def _column_type(pa, typ):
    typ = _value_type(pa, typ)
    return pa.large_string() if pa.types.is_null(typ) else typ


def _check_arrow(pa, name, typ):
    if _arrow_type_name(pa, _value_type(pa, typ)) is None:
        raise TypeError("%s() needs a column of strings, not Arrow type %s" % (name, typ))


def _import(pa, pair):
    return pa.Array._import_from_c_capsule(*pair)


def _lists(pa, offsets, items, list_type):
    """A list array of the int64 offsets (null where the row is null)."""
    n = len(offsets) - 1
    mask = offsets.slice(0, n).is_null() if offsets.null_count else None
    plain = pa.Array.from_buffers(pa.int64(), n + 1, [None, offsets.buffers()[1]], 0, offsets.offset)
    if list_type is pa.list_:
        if len(items) > 2**31 - 1:
            return pa.LargeListArray.from_arrays(plain, items, mask=mask)
        plain = plain.cast(pa.int32())
        return pa.ListArray.from_arrays(plain, items, mask=mask)
    return pa.LargeListArray.from_arrays(plain, items, mask=mask)


def _pairs_type(pa, typ):
    typ = _column_type(pa, typ)
    return pa.list_(pa.struct([pa.field("name", typ), pa.field("value", typ)]))


def _pairs_arrow_array(pa, arr, opts, name="parse_query_many"):
    _check_arrow(pa, name, arr.type)
    offsets, names, values = (_import(pa, p) for p in
                              _pctcodec._query_arrow(_arrow_source(arr), None, False, opts))
    items = pa.StructArray.from_arrays([names, values], ["name", "value"])
    return _lists(pa, offsets, items, pa.list_)


def _named_arrow_array(pa, arr, names, encoded, all, opts):
    _check_arrow(pa, "query_params_many", arr.type)
    got = [_import(pa, p) for p in
           _pctcodec._query_arrow(_arrow_source(arr), encoded, bool(all), opts)]
    if all:
        columns = [_lists(pa, got[2 * i], got[2 * i + 1], pa.list_) for i in range(len(names))]
    else:
        columns = got
    mask = arr.is_null() if arr.null_count else None
    return pa.StructArray.from_arrays(columns, list(names), mask=mask)


def _plain(pa, arr, base=0):
    """A dictionary array decoded (its rows' values); any other as it is."""
    return _decoded(pa, arr, base) if pa.types.is_dictionary(arr.type) else arr


def _over_arrow(pa, values, one, result_type):
    """one() over an Array or each chunk of a ChunkedArray, dictionary
    arrays decoded."""
    if isinstance(values, pa.ChunkedArray):
        chunks, base = [], 0
        for chunk in values.chunks:
            chunks.append(one(_plain(pa, chunk, base)))
            base += len(chunk)
        return pa.chunked_array(chunks, type=result_type)
    return one(_plain(pa, values))


def _value_type(pa, typ):
    return typ.value_type if pa.types.is_dictionary(typ) else typ


def _as_arrow(pa, values):
    """Any Arrow producer as a pyarrow Array or ChunkedArray."""
    if isinstance(values, (pa.Array, pa.ChunkedArray)):
        return values
    if hasattr(values, "__arrow_c_array__"):
        return pa.array(values)
    return pa.chunked_array(values)


def _named_type(pa, typ, names, all):
    typ = _column_type(pa, typ)
    return pa.struct([pa.field(n, pa.list_(typ) if all else typ) for n in names])


def _dedup(names, encoded):
    seen = {}
    for n, e in zip(names, encoded):
        seen.setdefault(n, e)
    return tuple(seen), tuple(seen.values())


class _Job:
    """One column call: what it does per row (list path) and on Arrow."""

    def __init__(self, name, threads, on_error, rejects):
        _check_threads(threads)
        _check_on_error(name, on_error, rejects)
        self.name = name
        self.on_error = on_error
        self.raw = [] if on_error != "raise" else None
        self.rejects = rejects

    def finish(self, result):
        if self.rejects is not None and self.raw:
            self.raw.sort(key=lambda t: t[0])
            for t in self.raw:
                self.rejects.append(Reject._make(t))
        return result


def _pandas_strings(pd, series, name):
    """(Arrow-backed: the pyarrow array, else None, the list of values with
    missing ones as None)."""
    dtype = series.dtype
    if isinstance(dtype, pd.CategoricalDtype):
        return None, [None if m else v for v, m in
                      zip(series.astype(object).tolist(), series.isna().tolist())]
    from_arrow = getattr(dtype, "__from_arrow__", None)
    if from_arrow is not None and getattr(dtype, "storage", "pyarrow") == "pyarrow":
        return series.array.__arrow_array__(), None
    if not (dtype == object or isinstance(dtype, pd.StringDtype)):
        raise TypeError("%s() needs a Series of strings (object, string or category dtype), "
                        "not dtype %s" % (name, dtype))
    return None, [None if m else v for v, m in zip(series.tolist(), series.isna().tolist())]


def _polars_arrow(pl, series, name):
    dtype = series.dtype
    if dtype == pl.Categorical or (getattr(pl, "Enum", None) is not None
                                   and isinstance(dtype, pl.Enum)):
        series = series.cast(pl.String)
    elif dtype != pl.String and dtype != pl.Null:
        raise TypeError("%s() needs a column of strings, not polars dtype %s" % (name, dtype))
    return series.to_arrow()


# ---------------------------------------------------------------- public

def parse_query_many(values, *, keep_plus=False, html_amp=False, threads=None,
                     on_error="raise", rejects=None):
    """parse_query() over a column: lists of (name, value) pairs.

    Parameters
    ----------
    values : list, iterable of str or None, pyarrow Array or ChunkedArray,
        Arrow PyCapsule producer, pandas or polars Series
    keep_plus : bool, optional
        As for ``parse_query``.
    html_amp : bool, optional
        As for ``parse_query``.
    threads : int or None, optional
        As in ``pctcodec.batch`` (the rows that fail: a value that is
        neither str nor None, a str with a lone surrogate).
    on_error : {"raise", "null", "keep"}, optional
        As in ``pctcodec.batch`` (the rows that fail: a value that is
        neither str nor None, a str with a lone surrogate).
    rejects : list or None, optional
        As in ``pctcodec.batch`` (the rows that fail: a value that is
        neither str nor None, a str with a lone surrogate).

    Returns
    -------
    list of (list of (str, str) or None)
        For a list or other iterable.
    pyarrow.ListArray or ChunkedArray of struct<name, value>
        For Arrow input (null rows null, rows without query ``[]``).
    pandas.Series
        Lists of pairs (object dtype), or ``pd.ArrowDtype`` of the list type
        for an Arrow-backed Series; index and name kept.
    polars.Series
        Of ``List(Struct({"name": String, "value": String}))``.

    Raises
    ------
    TypeError
        A value that is neither str nor None (naming its index), or a
        column that is not of strings.
    PercentEncodingError
        A str with a lone surrogate (naming its index).

    Examples
    --------
    >>> parse_query_many(["http://h/?a=1&b=2", None, "http://h/"])
    [[('a', '1'), ('b', '2')], None, []]
    """
    return _parse_query_many("parse_query_many", values, keep_plus, html_amp, threads,
                             on_error, rejects)


def _parse_query_many(name, values, keep_plus, html_amp, threads, on_error, rejects):
    """parse_query_many(), its errors naming `name`."""
    job = _Job(name, threads, on_error, rejects)
    opts = _opts(keep_plus, html_amp)
    parse = _pctcodec._parse_query
    kind = _column_kind(values, job.name)

    def rows(vals):
        return _each(job.name, lambda s: parse(s, opts), vals, job.on_error, job.raw)

    if kind in ("list", "iterable"):
        return job.finish(rows(list(values)))
    if kind == "pandas":
        import pandas as pd

        arr, vals = _pandas_strings(pd, values, job.name)
        if arr is not None:
            pa = _pyarrow()
            out = _over_arrow(pa, arr, lambda a: _pairs_arrow_array(pa, a, opts, name),
                              _pairs_type(pa, arr.type))
            return job.finish(pd.Series(pd.ArrowDtype(out.type).__from_arrow__(out),
                                        index=values.index, name=values.name))
        return job.finish(pd.Series(rows(vals), index=values.index, name=values.name,
                                    dtype=object))
    pa = _pyarrow()
    if kind == "polars":
        import polars as pl

        column = _polars_arrow(pl, values, job.name)
        out = _over_arrow(pa, column, lambda a: _pairs_arrow_array(pa, a, opts, name),
                          _pairs_type(pa, column.type))
        return job.finish(pl.Series(values.name, out))
    values = _as_arrow(pa, values)
    _check_arrow(pa, job.name, values.type)
    return job.finish(_over_arrow(pa, values, lambda a: _pairs_arrow_array(pa, a, opts, name),
                                  _pairs_type(pa, values.type)))


def parse_query_long(values, *, keep_plus=False, html_amp=False, threads=None,
                     on_error="raise", rejects=None):
    """parse_query() over a column as a long table: one (row, name, value)
    per parameter, for grouping by name.

    Parameters
    ----------
    values : iterable of str or None, Arrow array, pandas or polars Series
        As for ``parse_query_many``.
    keep_plus : bool, optional
        As for ``parse_query_many``.
    html_amp : bool, optional
        As for ``parse_query_many``.
    threads : int or None, optional
        As for ``parse_query_many``.
    on_error : {"raise", "null", "keep"}, optional
        As for ``parse_query_many``.
    rejects : list or None, optional
        As for ``parse_query_many``.

    Returns
    -------
    list of (int, str, str)
        For a list or other iterable.
    pyarrow.Table
        Columns ``row`` (int64), ``name``, ``value``, for Arrow input.
    pandas.DataFrame or polars.DataFrame
        The same columns; ``row`` is the position in the Series (not its
        index label).

    Raises
    ------
    TypeError
        As for ``parse_query_many``.

    Examples
    --------
    >>> parse_query_long(["http://h/?a=1&b=2", None, "http://h/?a=3"])
    [(0, 'a', '1'), (0, 'b', '2'), (2, 'a', '3')]
    """
    name = "parse_query_long"
    kind = _column_kind(values, name)
    nested = _parse_query_many(name, values, keep_plus, html_amp, threads, on_error, rejects)
    if kind in ("list", "iterable"):
        # a kept non-str value has no pairs
        return [(i, k, v) for i, pairs in enumerate(nested) if type(pairs) is list
                for k, v in pairs]
    pa = _pyarrow()
    if kind == "pandas":
        if nested.dtype == object:  # lists of pairs (or kept values) per row
            return _long_frame(values, nested)
        return _long_table(pa, pa.chunked_array(nested.array.__arrow_array__())).to_pandas()
    if kind == "polars":
        import polars as pl

        return pl.from_arrow(_long_table(pa, nested.to_arrow()))
    return _long_table(pa, nested)


def _long_frame(values, nested):
    """The long pandas DataFrame of an object Series of lists of pairs."""
    pa = _pyarrow()
    rows = [(i, k, v) for i, pairs in enumerate(nested.tolist()) if type(pairs) is list
            for k, v in pairs]
    return pa.table({"row": pa.array([r[0] for r in rows], pa.int64()),
                     "name": pa.array([r[1] for r in rows], pa.large_string()),
                     "value": pa.array([r[2] for r in rows], pa.large_string())}).to_pandas()


def _long_table(pa, nested):
    """The (row, name, value) table of a list<struct<name, value>> column,
    chunk by chunk (a column over 2 GiB is never concatenated)."""
    import pyarrow.compute as pc

    chunks = nested.chunks if isinstance(nested, pa.ChunkedArray) else [nested]
    rows, names, values, base = [], [], [], 0
    for chunk in chunks:
        rows.append(pc.add(pc.list_parent_indices(chunk).cast(pa.int64()), base))
        items = pc.list_flatten(chunk)
        names.append(items.field("name"))
        values.append(items.field("value"))
        base += len(chunk)
    typ = nested.type.value_type.field("name").type
    return pa.table({"row": pa.chunked_array(rows, pa.int64()),
                     "name": pa.chunked_array(names, typ),
                     "value": pa.chunked_array(values, typ)})


def query_params_many(values, names, *, all=False, keep_plus=False, html_amp=False,
                      threads=None, on_error="raise", rejects=None):
    """query_params() over a column: one column per name, in one read of
    each query.

    Parameters
    ----------
    values : iterable of str or None, Arrow array, pandas or polars Series
        As for ``parse_query_many``.
    names : str or iterable of str
        The decoded parameter names (a name given twice is one column).
    all : bool, default False
        Every value of each name (a list) instead of the first (or null).
    keep_plus : bool, optional
        As for ``parse_query_many``.
    html_amp : bool, optional
        As for ``parse_query_many``.
    threads : int or None, optional
        As for ``parse_query_many``.
    on_error : {"raise", "null", "keep"}, optional
        As for ``parse_query_many``; under "keep" a list keeps the row's
        input, but a DataFrame or an Arrow struct has no field for it: the
        row is missing in every column, as under "null".
    rejects : list or None, optional
        As for ``parse_query_many``.

    Returns
    -------
    list of (dict or None)
        For a list or other iterable.
    pyarrow.StructArray or ChunkedArray
        One field per name: string (null where absent), or list<string>
        with ``all``; a null row is a null struct.
    pandas.DataFrame or polars.DataFrame
        One column per name (the pandas index kept).

    Raises
    ------
    TypeError
        As for ``parse_query_many``, or a name that is not a str.

    Examples
    --------
    >>> query_params_many(["http://h/?a=1&b=2", "http://h/?b=3"], ["a", "b"])
    [{'a': '1', 'b': '2'}, {'a': None, 'b': '3'}]
    """
    names, encoded = _dedup(*_names(names))
    if not names:
        raise ValueError("query_params_many() needs at least one name")
    job = _Job("query_params_many", threads, on_error, rejects)
    opts = _opts(keep_plus, html_amp)
    parse = _pctcodec._parse_query
    kind = _column_kind(values, job.name)

    def rows(vals):
        return _each(job.name, lambda s: _params_of(parse(s, opts), names, all), vals,
                     job.on_error, job.raw)

    if kind in ("list", "iterable"):
        return job.finish(rows(list(values)))

    def one(pa, a):
        return _named_arrow_array(pa, a, names, encoded, all, opts)

    if kind == "pandas":
        import pandas as pd

        arr, vals = _pandas_strings(pd, values, job.name)
        if arr is None:
            got = rows(vals)
            frame = {n: [r[n] if type(r) is dict else None for r in got] for n in names}
            return job.finish(pd.DataFrame(frame, index=values.index, columns=list(names),
                                           dtype=object))
        pa = _pyarrow()
        out = _over_arrow(pa, arr, lambda a: one(pa, a), _named_type(pa, arr.type, names, all))
        table = pa.table({n: out.field(n) if hasattr(out, "field") else
                          pa.chunked_array([c.field(n) for c in out.chunks],
                                           type=out.type.field(n).type) for n in names})
        frame = table.to_pandas(types_mapper=pd.ArrowDtype)
        frame.index = values.index
        return job.finish(frame)
    pa = _pyarrow()
    if kind == "polars":
        import polars as pl

        column = _polars_arrow(pl, values, job.name)
        out = _over_arrow(pa, column, lambda a: one(pa, a), _named_type(pa, column.type, names, all))
        if isinstance(out, pa.ChunkedArray):
            out = out.combine_chunks()
        frame = pl.from_arrow(pa.table({n: out.field(n) for n in names}))
        frame.columns = list(names)  # polars names an empty name column_<i>
        return job.finish(frame)
    values = _as_arrow(pa, values)
    _check_arrow(pa, job.name, values.type)
    return job.finish(_over_arrow(pa, values, lambda a: one(pa, a),
                                  _named_type(pa, values.type, names, all)))

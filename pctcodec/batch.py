"""Batch functions: one call over a whole column of strings.

``quote_many``, ``quote_plus_many``, ``unquote_many``, ``unquote_plus_many``,
``requote_many``, ``normalize_many`` and ``check_many`` take the same keyword
options as their single-value twins and give, element by element, exactly
what the single-value function gives. What comes back has the kind of what
went in:

- any iterable of ``str`` (``None`` passes through as ``None``) -> ``list``;
- a pyarrow ``Array`` or ``ChunkedArray`` of ``string``, ``large_string`` or
  ``string_view`` -> the same kind and type, nulls kept; any other object with
  ``__arrow_c_array__`` or ``__arrow_c_stream__`` -> a pyarrow array when
  pyarrow is installed;
- a pandas ``Series`` (object dtype or an Arrow-backed string dtype) -> a
  ``Series`` with the same index, name and dtype; missing values (``None``,
  ``NaN``, ``NA``) are kept as they are;
- a polars ``Series`` -> a polars ``Series`` with the same name.

``check_many`` gives per value the position of the first offence (what
``check`` reports as ``PercentEncodingError.position``) or ``None`` when the
value is valid: a list for list input, an ``int64`` array (null when valid
or null) for Arrow input, a ``Series`` of ``Int64`` positions for pandas and
polars.

Errors: a value that is not a ``str`` raises ``TypeError`` naming its index
(its 0-based position in the input). A result with lone surrogates (from
``errors='surrogateescape'`` ...) has no UTF-8 form: for Arrow output it
raises the ``UnicodeEncodeError`` of encoding it, naming its index. An exception raised for one value
(``UnicodeEncodeError``, an IDNA error, ...) is of the class the
single-value function raises, with the index in an ``index`` attribute and
in its message (a note on Python 3.11+ for ``UnicodeError``). No partial
result is ever returned.

``threads=N`` (N > 1) splits the rows of Arrow input into N slices processed
in parallel; ``None`` or 1 uses one thread.

pyarrow, pandas and polars are optional: each is imported only when the
input is of its type.
"""
import sys

from . import _pctcodec
from ._errors import PercentEncodingError

__all__ = [
    "quote_many",
    "quote_plus_many",
    "unquote_many",
    "unquote_plus_many",
    "requote_many",
    "normalize_many",
    "check_many",
]


# ---------------------------------------------------------------- errors

def _indexed(exc, index):
    """The exception to raise for `exc`, raised by the value at `index`.

    A UnicodeError keeps its class and its arguments (``except`` clauses and
    ``exc.start``/``exc.end`` still work): the index goes into a note (3.11+)
    or its reason, and an ``index`` attribute. Any other exception becomes a
    new instance of the same class whose message names the index, raised
    from the original; when the class cannot be built from one message, the
    original is annotated like a UnicodeError.
    """
    where = "at index %d" % index
    if not isinstance(exc, UnicodeError):
        try:
            new = type(exc)("%s: %s" % (where, exc))
        except Exception:
            new = None
        if new is not None and type(new) is type(exc):
            new.index = index
            new.__cause__ = exc
            return new
    try:
        exc.index = index
    except (AttributeError, TypeError):
        pass
    if hasattr(exc, "add_note"):
        exc.add_note("raised by the value %s" % where)
    elif isinstance(exc, (UnicodeEncodeError, UnicodeDecodeError, UnicodeTranslateError)):
        exc.reason = "%s (value %s)" % (exc.reason, where)
    elif exc.args and isinstance(exc.args[0], str):
        exc.args = ("%s (value %s)" % (exc.args[0], where),) + exc.args[1:]
    return exc


def _not_str(fname, index, value):
    return TypeError(
        "%s() value at index %d must be str or None, not %.200s"
        % (fname, index, type(value).__name__)
    )


def _check_threads(threads):
    if threads is None:
        return 1
    if type(threads) is bool or not isinstance(threads, int):
        raise TypeError("threads must be an int or None, not %.200s" % type(threads).__name__)
    if threads < 1:
        raise ValueError("threads must be at least 1")
    return threads


# ---------------------------------------------------------------- per value

def _check_position(s):
    try:
        _pctcodec.check(s)
    except PercentEncodingError as exc:
        return exc.position
    return None


def _map_values(fname, func, values, missing=None):
    """func over an iterable of str; None (or what `missing` accepts) kept."""
    out = []
    append = out.append
    index = 0
    for index, value in enumerate(values):
        if type(value) is str or isinstance(value, str):
            try:
                append(func(value))
            except Exception as exc:
                new = _indexed(exc, index)
                if new is exc:
                    raise
                raise new from exc
        elif value is None or (missing is not None and missing(value)):
            append(value)
        else:
            raise _not_str(fname, index, value)
    return out


# ---------------------------------------------------------------- Arrow

_ARROW_STRING_TYPES = ("string", "large_string", "string_view")


def _pyarrow():
    import pyarrow

    return pyarrow


def _arrow_type_name(pa, typ):
    if pa.types.is_string(typ):
        return "string"
    if pa.types.is_large_string(typ):
        return "large_string"
    if hasattr(pa.types, "is_string_view") and pa.types.is_string_view(typ):
        return "string_view"
    if pa.types.is_null(typ):
        return "null"
    return None


def _map_arrow_array(pa, fname, func, arr, check):
    """One pyarrow Array in, one out (same type; int64 for check)."""
    kind = _arrow_type_name(pa, arr.type)
    if kind is None:
        raise TypeError("%s() needs a column of strings, not Arrow type %s" % (fname, arr.type))
    out = _map_values(fname, func, arr.to_pylist())
    if check:
        return pa.array(out, type=pa.int64())
    try:
        return pa.array(out, type=arr.type)
    except UnicodeEncodeError:
        _raise_unstorable(out)
        raise


def _raise_unstorable(out):
    """A result with lone surrogates (errors='surrogateescape' ...) has no
    UTF-8 form and cannot be stored in an Arrow string: raise the
    UnicodeEncodeError encoding it gives, naming its index."""
    for index, value in enumerate(out):
        if value is not None:
            try:
                value.encode("utf-8")
            except UnicodeEncodeError as exc:
                raise _indexed(exc, index) from None


def _map_arrow(fname, func, values, check):
    pa = _pyarrow()
    if isinstance(values, pa.ChunkedArray):
        out_type = pa.int64() if check else values.type
        chunks = []
        offset = 0
        for chunk in values.chunks:
            try:
                chunks.append(_map_arrow_array(pa, fname, func, chunk, check))
            except Exception as exc:
                # The index in the whole column, not in the chunk.
                _shift_index(exc, offset)
                raise
            offset += len(chunk)
        if _arrow_type_name(pa, values.type) is None:
            raise TypeError("%s() needs a column of strings, not Arrow type %s" % (fname, values.type))
        return pa.chunked_array(chunks, type=out_type)
    return _map_arrow_array(pa, fname, func, values, check)


def _shift_index(exc, offset):
    if offset and isinstance(getattr(exc, "index", None), int):
        old = exc.index
        exc.index = old + offset
        old_text, new_text = "at index %d" % old, "at index %d" % exc.index
        if exc.args and isinstance(exc.args[0], str):
            exc.args = (exc.args[0].replace(old_text, new_text, 1),) + exc.args[1:]
        notes = getattr(exc, "__notes__", None)
        if notes:
            notes[-1] = notes[-1].replace(old_text, new_text, 1)
        if isinstance(exc, (UnicodeEncodeError, UnicodeDecodeError, UnicodeTranslateError)):
            exc.reason = exc.reason.replace(old_text, new_text, 1)


def _from_capsule(values):
    """A pyarrow array from any Arrow PyCapsule producer."""
    pa = _pyarrow()
    if hasattr(values, "__arrow_c_array__"):
        return pa.array(values)
    return pa.chunked_array(values)


# ---------------------------------------------------------------- pandas, polars

def _module_type(module, name):
    mod = sys.modules.get(module)
    return getattr(mod, name, None) if mod is not None else None


def _map_pandas(fname, func, series, check):
    import pandas as pd

    dtype = series.dtype
    from_arrow = getattr(dtype, "__from_arrow__", None)
    arrow_backed = from_arrow is not None and getattr(dtype, "storage", "pyarrow") == "pyarrow"
    if arrow_backed:
        column = series.array.__arrow_array__()
        out = _map_arrow(fname, func, column, check)
        data = (pd.Int64Dtype().__from_arrow__ if check else from_arrow)(out)
        return pd.Series(data, index=series.index, name=series.name, copy=False)
    out = _map_values(fname, func, series.tolist(), missing=_pandas_missing(pd))
    if check:
        dtype = "Int64"
        out = [pd.NA if v is None or _pandas_missing(pd)(v) else v for v in out]
    return pd.Series(out, index=series.index, name=series.name, dtype=dtype)


def _pandas_missing(pd):
    def missing(value):
        try:
            return bool(pd.isna(value))
        except (TypeError, ValueError):
            return False

    return missing


def _map_polars(fname, func, series, check):
    import polars as pl

    if series.dtype == pl.Null:
        column = _pyarrow().nulls(len(series), type=_pyarrow().large_string())
    elif series.dtype != pl.String:
        raise TypeError("%s() needs a column of strings, not polars dtype %s" % (fname, series.dtype))
    else:
        column = series.to_arrow()
    out = _map_arrow(fname, func, column, check)
    return pl.Series(series.name, out)


# ---------------------------------------------------------------- dispatch

def _run(fname, func, values, threads, check=False):
    _check_threads(threads)
    if isinstance(values, (str, bytes, bytearray)):
        raise TypeError(
            "%s() expects an iterable of str, not a single %.200s"
            % (fname, type(values).__name__)
        )
    if type(values) is list or type(values) is tuple:
        return _map_values(fname, func, values)
    pd_series = _module_type("pandas", "Series")
    if pd_series is not None and isinstance(values, pd_series):
        return _map_pandas(fname, func, values, check)
    pl_series = _module_type("polars", "Series")
    if pl_series is not None and isinstance(values, pl_series):
        return _map_polars(fname, func, values, check)
    pa_array = _module_type("pyarrow", "Array")
    pa_chunked = _module_type("pyarrow", "ChunkedArray")
    if pa_array is not None and isinstance(values, (pa_array, pa_chunked)):
        return _map_arrow(fname, func, values, check)
    if hasattr(values, "__arrow_c_array__") or hasattr(values, "__arrow_c_stream__"):
        return _map_arrow(fname, func, _from_capsule(values), check)
    try:
        iterator = iter(values)
    except TypeError:
        raise TypeError(
            "%s() expects an iterable of str or an Arrow array, not %.200s"
            % (fname, type(values).__name__)
        ) from None
    return _map_values(fname, func, iterator)


# ---------------------------------------------------------------- public API

def quote_many(values, safe="/", encoding=None, errors=None, *, threads=None):
    """quote() over every value; see the module documentation."""
    quote = _pctcodec.quote
    return _run("quote_many", lambda s: quote(s, safe, encoding, errors), values, threads)


def quote_plus_many(values, safe="", encoding=None, errors=None, *, threads=None):
    """quote_plus() over every value; see the module documentation."""
    quote_plus = _pctcodec.quote_plus
    return _run("quote_plus_many", lambda s: quote_plus(s, safe, encoding, errors), values, threads)


def unquote_many(values, encoding="utf-8", errors="replace", *, threads=None):
    """unquote() over every value; see the module documentation."""
    unquote = _pctcodec.unquote
    return _run("unquote_many", lambda s: unquote(s, encoding, errors), values, threads)


def unquote_plus_many(values, encoding="utf-8", errors="replace", *, threads=None):
    """unquote_plus() over every value; see the module documentation."""
    unquote_plus = _pctcodec.unquote_plus
    return _run("unquote_plus_many", lambda s: unquote_plus(s, encoding, errors), values, threads)


def requote_many(values, *, threads=None):
    """requote() over every value; see the module documentation."""
    return _run("requote_many", _pctcodec.requote, values, threads)


def normalize_many(values, *, sort_query=False, drop_fragment=False, threads=None):
    """normalize() over every value; see the module documentation."""
    normalize = _pctcodec.normalize
    return _run(
        "normalize_many",
        lambda s: normalize(s, sort_query=sort_query, drop_fragment=drop_fragment),
        values,
        threads,
    )


def check_many(values, *, threads=None):
    """Per value the position of check()'s first offence, or None when valid."""
    return _run("check_many", _check_position, values, threads, check=True)

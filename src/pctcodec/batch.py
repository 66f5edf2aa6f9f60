"""Batch functions: one call over a whole column of strings.

Each ``*_many`` function gives, value by value, what its single-value twin
gives, over a list (or any iterable) of str, a pyarrow Array or
ChunkedArray, a pandas or polars Series, or any Arrow PyCapsule producer;
the result has the kind of the input. The options all of them take:
``threads``, ``on_error`` and ``rejects``. Input kinds, dtypes, errors,
dirty data, threads and memory: the documentation's "Columns and tables"
page (docs/columns.md). pyarrow dictionary arrays (each entry transformed
once), the check of malformed Arrow arrays (``ValueError`` naming the first
bad row) and interrupts: docs/arrow.md.
"""
import codecs
import operator
import os
import sys
from collections import namedtuple

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
    "Reject",
]

Reject = namedtuple("Reject", "index value error")
Reject.__doc__ = """A row that failed under ``on_error="null"`` or ``"keep"``: its 0-based
``index`` in the input, its input ``value`` and the ``error`` (the exception
the single-value function raised for it)."""
Reject.index.__doc__ = "The 0-based position of the row in the input."
Reject.value.__doc__ = "The row's input value."
Reject.error.__doc__ = "The exception the single-value function raised for the value."

# on_error: its code for the C engine.
_ON_ERROR = {"raise": 0, "null": 1, "keep": 2}
_index = operator.itemgetter(0)  # a Reject's index
_ON_ERROR_ROWS = 3  # "null", the failed rows' indexes alone kept (_Op.failed_rows)

# More threads than this are an argument error (the C engine starts at most 256).
MAX_THREADS = 1024


# ---------------------------------------------------------------- errors

def _indexed(exc, index):
    """The exception to raise for `exc`, raised by the value at `index`.

    A UnicodeError keeps its class and its arguments (``except`` clauses and
    ``exc.start``/``exc.end`` still work): the index goes into a note (3.11+)
    or its reason, and an ``index`` attribute. Any other exception becomes a
    new instance of the same class whose message names the index, raised
    from the original; when the class cannot be built from one message, the
    original is annotated like a UnicodeError. A BaseException that is not
    an Exception (KeyboardInterrupt, SystemExit, the command line's SIGTERM)
    is returned as it is: it names no value's fault.
    """
    if not isinstance(exc, Exception):
        return exc
    where = "at index %d" % index
    if not isinstance(exc, UnicodeError) and where in str(exc):
        # The engines' TypeError for a value that is no str names the index already.
        exc.index = index
        return exc
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


def _cores():
    """The cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def _check_threads(threads):
    """The thread count for the C engine; negative: up to that many, chosen
    by the number of rows."""
    if threads is None:
        return -_cores()
    if type(threads) is bool or not hasattr(type(threads), "__index__"):
        raise TypeError("threads must be an int or None, not %.200s" % type(threads).__name__)
    threads = operator.index(threads)  # numpy's integers too
    if not 1 <= threads <= MAX_THREADS:
        raise ValueError("threads must be between 1 and %d, not %d" % (MAX_THREADS, threads))
    return threads


def _check_encoding(encoding):
    """A bad encoding name is an argument error, raised before any row
    (LookupError, as the single-value function raises it)."""
    if encoding is None:
        return
    if not isinstance(encoding, str):
        raise TypeError("encoding must be str or None, not %.200s" % type(encoding).__name__)
    codecs.lookup(encoding)


def _safe_bytes(safe):
    """quote()'s `safe` as urllib takes it from anything but str: the bytes
    of its items under 128. Taken once, before any row: a `safe` it cannot
    take (an int, items that are no ints) is an argument error, raised as
    urllib raises it (TypeError), not a failure of every row."""
    if isinstance(safe, (str, bytes)):
        return safe
    return bytes([c for c in safe if c < 128])


def _check_on_error(name, on_error, rejects):
    if on_error not in _ON_ERROR or not isinstance(on_error, str):
        raise ValueError("on_error must be 'raise', 'null' or 'keep', not %r" % (on_error,))
    if on_error == "keep" and name == "check_many":
        raise ValueError("check_many() gives positions, not values: on_error='keep' does not apply")
    if rejects is not None and not callable(getattr(rejects, "append", None)):
        raise TypeError("rejects must be a list (or have an append method), not %.200s"
                        % type(rejects).__name__)


# ---------------------------------------------------------------- engines

# The operation codes of the C engine (src/_pctcodec_batch.c).
_OPS = {
    "quote_many": 0,
    "quote_plus_many": 1,
    "unquote_many": 2,
    "unquote_plus_many": 3,
    "requote_many": 4,
    "normalize_many": 5,
    "check_many": 6,
    "query_param_many": 7,  # src/pctcodec/query.py
    "clean_query_many": 8,
    "registered_domain_many": 9,  # src/pctcodec/domains.py
    "public_suffix_many": 10,
    "domain_parts_many": 11,
    "resolve_many": 12,  # src/pctcodec/resolution.py
    "canonicalize_many": 13,  # src/pctcodec/canonical.py
    "parse_url_many": 14,  # src/pctcodec/url.py
    "url_href_many": 15,
}

# The C engine (src/_pctcodec_batch.c): lists, tuples and Arrow data go
# through it, and it calls the single-value function only for rows it cannot
# do itself. Looked up at each call: the tests put their pure-Python
# reference of the same two functions here (tests/_batch_reference.py).
_many_list = _pctcodec._many_list
_many_arrow = _pctcodec._many_arrow


class _Op:
    """One batch call: its name, the single-value function with the options
    bound, and the options as the C engine takes them. Every argument is
    checked here, before any row runs. ``raw`` collects (index, value,
    exception) for the rows that failed under on_error "null" or "keep"."""

    __slots__ = ("name", "func", "c_args", "check", "threads", "on_error", "raw", "_base_args",
                 "bases", "rows_only")

    def __init__(self, name, func, threads, safe=None, encoding=None, errors=None, opts=0,
                 on_error="raise"):
        self.name = name
        self.func = func
        self.check = name == "check_many"
        self.threads = _check_threads(threads)
        _check_encoding(encoding)
        _check_on_error(name, on_error, None)
        self.on_error = on_error
        self.raw = [] if on_error != "raise" else None
        self._base_args = (_OPS[name], func, safe, encoding, errors, opts)
        self.c_args = self._base_args + (_ON_ERROR[on_error], self.raw)
        self.bases = None  # resolve_many's base column: a list or a pyarrow array
        self.rows_only = False  # raw gets indexes alone (failed_rows)

    def unrecorded(self):
        """No list keeps the failed rows: the engine makes no exception for
        a row it fails itself (under on_error "null" or "keep" such a row
        costs about what a good one does)."""
        if self.raw is not None:
            self.raw = None
            self.c_args = self._base_args + (_ON_ERROR[self.on_error], None)

    def failed_rows(self):
        """Under on_error "null" (or "keep", which this pass then reads as
        "null"), ``raw`` gets the index alone of each failed row: no value
        kept, no exception made."""
        self.raw = []
        self.rows_only = True
        self.c_args = self._base_args + (_ON_ERROR_ROWS, self.raw)

    def collecting(self):
        """This operation under on_error "null", collecting its failures in
        a new ``raw`` (for categoricals: raising is then done by row)."""
        op = _Op.__new__(_Op)
        op.name, op.func, op.check, op.threads = self.name, self.func, self.check, self.threads
        op.on_error = "null"
        op.raw = []
        op._base_args = self._base_args
        op.c_args = self._base_args + (_ON_ERROR["null"], op.raw)
        op.bases = self.bases
        op.rows_only = False
        return op

    def args(self, start, length, arrow):
        """c_args, with rows [start, start + length) of the base column (when
        there is one) in the place of errors: a list, or for Arrow input a
        (schema, array) capsule pair."""
        if self.bases is None:
            return self.c_args
        bases = self.bases
        if arrow:
            pa = _pyarrow()
            if isinstance(bases, list):
                bases = self.bases = pa.array(bases, type=pa.large_string())
            part = bases.slice(start, length)
            if isinstance(part, pa.ChunkedArray) and part.num_chunks == 1:
                part = part.chunk(0)
            elif isinstance(part, pa.ChunkedArray):
                # one array for the engine: 64-bit offsets, so that bases over
                # 2 GiB in several string chunks fit in one
                if pa.types.is_string(part.type):
                    part = part.cast(pa.large_string())
                part = part.combine_chunks()
            part = _arrow_source(part)
        else:
            part = bases[start:start + length] if isinstance(bases, list) else \
                bases.slice(start, length).to_pylist()
        args = list(self.c_args)
        args[4] = part
        return tuple(args)


def _check_position(s):
    try:
        _pctcodec.check(s)
    except PercentEncodingError as exc:
        return exc.position
    return None


def _map_list(op, values):
    """A list or tuple of str or None -> a list."""
    return _many_list(values, *op.args(0, len(values), False))


# ---------------------------------------------------------------- Arrow

class _ArrowResult:
    """A result array for consumers of the Arrow PyCapsule interface, when
    pyarrow is not installed: ``__arrow_c_array__`` hands it over once."""

    __slots__ = ("_capsules",)

    def __init__(self, capsules):
        self._capsules = capsules

    def __arrow_c_array__(self, requested_schema=None):
        capsules, self._capsules = self._capsules, None
        if capsules is None:
            raise ValueError("this Arrow array has already been exported")
        return capsules


def _pyarrow(required=True):
    try:
        import pyarrow
    except ImportError:
        if required:
            raise
        return None
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


def _check_arrow_type(pa, op, typ):
    if _arrow_type_name(pa, typ) is None:
        raise TypeError("%s() needs a column of strings, not Arrow type %s" % (op.name, typ))


def _foreign(values):
    """Another library's Arrow producer as a pyarrow Array (ChunkedArray for
    a stream), its layout checked: pyarrow imports a negative length or
    offset as it is, on which len() fails with a SystemError."""
    pa = _pyarrow()
    arr = pa.array(values) if hasattr(values, "__arrow_c_array__") else pa.chunked_array(values)
    try:
        arr.validate()
    except pa.ArrowInvalid as exc:
        raise ValueError("malformed Arrow array: %s" % exc) from None
    return arr


def _arrow_source(arr):
    """What the C engine reads of a pyarrow Array: its capsules and the
    sizes of its buffers (-1 for a missing one), which the C data interface
    does not carry and against which the engine checks the array."""
    sizes = tuple(-1 if b is None else b.size for b in arr.buffers())
    return arr.__arrow_c_array__() + (sizes,)


def _map_arrow_array(pa, op, arr, base=0):
    """One pyarrow Array in, one out (same type; int64 for check)."""
    if pa.types.is_dictionary(arr.type):
        if op.bases is None:
            return _map_dictionary(pa, op, arr, base)
        # a base per row: rows, not entries, are resolved; the result
        # dictionary-encoded again
        _check_arrow_type(pa, op, arr.type.value_type)
        out = _map_arrow_array(pa, op, _decoded(pa, arr, base), base)
        out = out.dictionary_encode()
        return pa.DictionaryArray.from_arrays(out.indices.cast(arr.type.index_type),
                                              out.dictionary, ordered=arr.type.ordered)
    _check_arrow_type(pa, op, arr.type)
    capsules = _many_arrow(_arrow_source(arr), *op.args(base, len(arr), True), op.threads, base)
    return pa.Array._import_from_c_capsule(*capsules)


def _dictionary_indices(pa, arr, base):
    """The indices of a dictionary array, checked to name entries of its
    dictionary (ValueError naming the first row that does not)."""
    import pyarrow.compute as pc

    indices = arr.indices
    indices.validate()
    bounds = pc.min_max(indices)
    low, high = bounds["min"].as_py(), bounds["max"].as_py()
    if low is not None and (low < 0 or high >= len(arr.dictionary)):
        outside = pc.or_(pc.less(indices, 0), pc.greater_equal(indices, len(arr.dictionary)))
        row = pc.indices_nonzero(outside)[0].as_py()
        exc = ValueError("malformed Arrow array at index %d: its dictionary index %d names no "
                         "entry of the dictionary (%d entries)"
                         % (base + row, indices[row].as_py(), len(arr.dictionary)))
        exc.index = base + row
        raise exc
    return indices


def _no_views(pa, typ):
    """typ with large_string for each string_view in it."""
    if hasattr(pa.types, "is_string_view") and pa.types.is_string_view(typ):
        return pa.large_string()
    if pa.types.is_struct(typ):
        return pa.struct([f.with_type(_no_views(pa, f.type)) for f in typ])
    if pa.types.is_list(typ) or pa.types.is_large_list(typ):
        inner = typ.value_field.with_type(_no_views(pa, typ.value_type))
        return pa.list_(inner) if pa.types.is_list(typ) else pa.large_list(inner)
    return typ


def _take(pa, arr, indices):
    """arr.take(indices), for arrays of string_view too (pyarrow has no take
    kernel for string_view: those go through large_string and back)."""
    plain = _no_views(pa, arr.type)
    if plain == arr.type:
        return arr.take(indices)
    return arr.cast(plain).take(indices).cast(arr.type)


def _if_else(pa, cond, left, right):
    """pc.if_else, for string_view too (through large_string)."""
    import pyarrow.compute as pc

    plain = _no_views(pa, left.type)
    if plain == left.type:
        return pc.if_else(cond, left, right)
    return pc.if_else(cond, left.cast(plain), right.cast(plain)).cast(left.type)


def _decoded(pa, arr, base=0):
    """A dictionary array as an array of its value type, its indices checked
    first (a ValueError naming the first row whose index names no entry)."""
    return _take(pa, arr.dictionary, _dictionary_indices(pa, arr, base))


def _map_dictionary(pa, op, arr, base):
    """A dictionary array: each entry of its dictionary is transformed once
    and each row takes its entry's result, in a dictionary array of the same
    type (check: an int64 array of the rows' positions). An entry's failure
    is the failure of every row that refers to it: raised for the first such
    row, or, under on_error "null" and "keep", a null or the row's value and
    a reject for each such row; an entry no row refers to never fails."""
    import pyarrow.compute as pc

    _check_arrow_type(pa, op, arr.type.value_type)
    indices = _dictionary_indices(pa, arr, base)
    inner = op.collecting()
    results = _map_arrow_array(pa, inner, arr.dictionary)
    failed = []
    for k, value, exc in inner.raw:
        rows = pc.indices_nonzero(pc.equal(indices, k)).to_pylist()
        if rows:
            failed.append((rows[0], k, value, exc, rows))
    if failed and op.on_error == "raise":
        row, _, _, exc, _ = min(failed, key=lambda f: f[0])
        _raise_indexed(exc, base + row)
    for _, _, value, exc, rows in failed:
        if op.rows_only:
            op.raw.extend(base + row for row in rows)
        elif op.raw is not None:
            op.raw.extend(Reject(base + row, value, exc) for row in rows)
    if failed and op.on_error == "keep":
        entries = pc.is_in(pa.array(range(len(arr.dictionary))), pa.array([f[1] for f in failed]))
        results = _if_else(pa, entries, arr.dictionary, results)
    elif failed:  # "null": the failed rows are null rows, whatever their entry
        bad = pc.is_in(indices, pa.array([f[1] for f in failed], type=indices.type))
        indices = pc.if_else(bad, pa.scalar(None, indices.type), indices)
    if op.check:
        return results.take(indices)
    return pa.DictionaryArray.from_arrays(indices, results, ordered=arr.type.ordered)


def _map_arrow(op, values):
    """A pyarrow Array or ChunkedArray in, the same kind out."""
    pa = _pyarrow()
    if isinstance(values, pa.ChunkedArray):
        _check_arrow_type(pa, op, values.type.value_type if pa.types.is_dictionary(values.type)
                          else values.type)
        chunks = []
        base = 0
        for chunk in values.chunks:
            chunks.append(_map_arrow_array(pa, op, chunk, base))
            base += len(chunk)
        return pa.chunked_array(chunks, type=pa.int64() if op.check else values.type)
    return _map_arrow_array(pa, op, values)


def _map_capsule(op, values):
    """Any other Arrow PyCapsule producer: a pyarrow array (a ChunkedArray for
    a stream) when pyarrow is installed, else an ``__arrow_c_array__`` object."""
    stream = not hasattr(values, "__arrow_c_array__")
    pa = _pyarrow(required=False)
    source = values.__arrow_c_stream__() if stream else values.__arrow_c_array__()
    capsules = _many_arrow(source, *op.c_args, op.threads, 0)
    if pa is None:
        return _ArrowResult(capsules)
    out = pa.Array._import_from_c_capsule(*capsules)
    return pa.chunked_array([out]) if stream else out


# ---------------------------------------------------------------- pandas, polars

def _module_type(module, name):
    mod = sys.modules.get(module)
    return getattr(mod, name, None) if mod is not None else None


def _not_str(name, index, value):
    """The engines' TypeError for a value at `index` that is neither str nor None."""
    return TypeError("%s() value at index %d must be str or None, not %.200s"
                     % (name, index, type(value).__name__))


def _row_error(name, exc, value, row):
    """The error of a failed category as the error of one of its rows: a
    category that is no str gets the TypeError naming the row (the engine's
    names the category's place)."""
    return _not_str(name, row, value) if isinstance(exc, TypeError) and not isinstance(value, str) else exc


def _raise_indexed(exc, index):
    new = _indexed(exc, index)
    if new is exc:
        raise exc
    raise new from exc


def _map_pandas(op, series):
    import pandas as pd

    dtype = series.dtype
    if isinstance(dtype, pd.CategoricalDtype):
        return _map_categorical(op, series)
    from_arrow = getattr(dtype, "__from_arrow__", None)
    if from_arrow is not None and getattr(dtype, "storage", "pyarrow") == "pyarrow":
        out = _map_arrow(op, series.array.__arrow_array__())
        data = (pd.Int64Dtype().__from_arrow__ if op.check else from_arrow)(out)
        return pd.Series(data, index=series.index, name=series.name, copy=False)
    if not (dtype == object or isinstance(dtype, pd.StringDtype)):
        raise TypeError("%s() needs a Series of strings (object, string or category dtype), "
                        "not dtype %s" % (op.name, dtype))
    # Object (or Python-backed) values: missing ones (None, NaN, NA) are kept.
    values = series.tolist()
    missing = series.isna().tolist()
    if any(missing):
        kept = values
        values = [None if m else v for v, m in zip(values, missing)]
    out = _map_list(op, values)
    if op.check:
        out = [pd.NA if v is None else v for v in out]
        dtype = "Int64"
    elif any(missing):
        out = [k if m else v for v, k, m in zip(out, kept, missing)]
    return pd.Series(out, index=series.index, name=series.name, dtype=dtype)


def _map_categorical(op, series):
    """A categorical Series: its categories are transformed once, and each
    row takes the result of its category. Two categories with the same
    result become one; the order of the categories and ``ordered`` are kept."""
    import numpy as np
    import pandas as pd

    categories = series.cat.categories
    if not (categories.dtype == object or isinstance(categories.dtype, pd.StringDtype)):
        raise TypeError("%s() needs categories of strings, not of dtype %s"
                        % (op.name, categories.dtype))
    codes = series.cat.codes.to_numpy()
    inner = op.collecting()
    names = categories.tolist()
    results = _map_list(inner, names)
    if not op.check and getattr(categories.dtype, "storage", "python") != "python":
        _fail_unencodable(results, names, inner.raw)
    # A category that fails fails at each of its rows.
    failed = []
    for k, value, exc in inner.raw:
        rows = np.flatnonzero(codes == k)
        if len(rows):
            failed.append((int(rows[0]), k, value, exc, rows))
    if failed and op.on_error == "raise":
        row, _, value, exc, _ = min(failed, key=lambda f: f[0])
        _raise_indexed(_row_error(op.name, exc, value, row), row)
    for _, k, value, exc, rows in failed:
        if op.on_error == "keep":
            results[k] = value
        if op.rows_only:
            op.raw.extend(int(row) for row in rows)
        elif op.raw is not None:
            op.raw.extend(Reject(int(row), value, _row_error(op.name, exc, value, int(row)))
                          for row in rows)
    # The result of code -1 (a missing value) is the None appended last.
    if op.check:
        taken = np.array(results + [None], dtype=object)[codes]
        return pd.Series(taken, index=series.index, name=series.name, dtype="Int64")
    kept = {}
    for r in results:
        if r is not None:
            kept.setdefault(r, len(kept))
    # Built from codes: values given as objects would be inferred (pandas 3
    # makes them its Arrow-backed "str", which fails on a lone surrogate the
    # object categories hold).
    remap = np.array([-1 if r is None else kept[r] for r in results] + [-1], dtype=np.int64)
    cat = pd.Categorical.from_codes(remap[codes], ordered=series.cat.ordered,
                                    categories=pd.Index(list(kept), dtype=categories.dtype))
    return pd.Series(cat, index=series.index, name=series.name)


def _fail_unencodable(results, values, raw):
    """The results (a list, changed in place) that categories held as UTF-8
    (Arrow) cannot hold, a lone surrogate's, fail with the UnicodeEncodeError,
    as on Arrow: (index, value, error) of each appended to raw, the result
    made None."""
    for k, result in enumerate(results):
        if result is None or result.isascii():
            continue
        try:
            result.encode("utf-8")
        except UnicodeEncodeError as exc:
            results[k] = None
            raw.append((k, values[k], exc))


def _map_polars(op, series):
    import polars as pl

    dtype = series.dtype
    enum = getattr(pl, "Enum", None)
    if enum is not None and isinstance(dtype, enum):
        raise TypeError("%s() cannot write new values into a polars Enum (its categories are "
                        "fixed): cast the column to pl.String or pl.Categorical first" % op.name)
    if dtype == pl.Categorical:
        out = _map_polars(op, series.cast(pl.String))
        return out if op.check else out.cast(pl.Categorical)
    if dtype != pl.String and dtype != pl.Null:
        raise TypeError("%s() needs a column of strings, not polars dtype %s" % (op.name, dtype))
    if hasattr(series, "__arrow_c_stream__") and op.bases is None:
        capsules = _many_arrow(series.__arrow_c_stream__(), *op.c_args, op.threads, 0)
        pa = _pyarrow(required=False)
        out = pa.Array._import_from_c_capsule(*capsules) if pa else _ArrowResult(capsules)
        return pl.Series(series.name, out).alias(series.name)
    pa = _pyarrow()
    column = series.to_arrow()
    if pa.types.is_null(column.type):
        column = pa.nulls(len(series), type=pa.large_string())
    return pl.Series(series.name, _map_arrow(op, column))


# ---------------------------------------------------------------- dispatch

# Tables: a batch function takes one of their columns.
_TABLES = (("pandas", "DataFrame"), ("polars", "DataFrame"), ("polars", "LazyFrame"),
           ("pyarrow", "Table"), ("pyarrow", "RecordBatch"))


def _column_kind(values, name):
    """'list' (a list or tuple), 'iterable', 'pandas', 'polars' or 'arrow' for
    the input of the batch function `name`, with the errors of an input that
    is no column (a str, a whole table, no iterable)."""
    if isinstance(values, (str, bytes, bytearray)):
        raise TypeError("%s() expects an iterable of str, not a single %.200s"
                        % (name, type(values).__name__))
    if type(values) is list or type(values) is tuple:
        return "list"
    for module, cls in _TABLES:
        table = _module_type(module, cls)
        if table is not None and isinstance(values, table):
            raise TypeError("%s() takes one column (such as df['url']), not a whole %s.%s"
                            % (name, module, cls))
    pd_series = _module_type("pandas", "Series")
    if pd_series is not None and isinstance(values, pd_series):
        return "pandas"
    pl_series = _module_type("polars", "Series")
    if pl_series is not None and isinstance(values, pl_series):
        return "polars"
    if hasattr(values, "__arrow_c_array__") or hasattr(values, "__arrow_c_stream__"):
        return "arrow"
    try:
        iter(values)
    except TypeError:
        raise TypeError("%s() expects an iterable of str or an Arrow array, not %.200s"
                        % (name, type(values).__name__)) from None
    return "iterable"


def _dispatch(op, values):
    if isinstance(values, (str, bytes, bytearray)):
        raise TypeError(
            "%s() expects an iterable of str, not a single %.200s"
            % (op.name, type(values).__name__)
        )
    if type(values) is list or type(values) is tuple:
        return _map_list(op, values)
    for module, name in _TABLES:
        table = _module_type(module, name)
        if table is not None and isinstance(values, table):
            raise TypeError("%s() takes one column (such as df['url']), not a whole %s.%s"
                            % (op.name, module, name))
    pd_series = _module_type("pandas", "Series")
    if pd_series is not None and isinstance(values, pd_series):
        return _map_pandas(op, values)
    pl_series = _module_type("polars", "Series")
    if pl_series is not None and isinstance(values, pl_series):
        return _map_polars(op, values)
    pa_array = _module_type("pyarrow", "Array")
    pa_chunked = _module_type("pyarrow", "ChunkedArray")
    if pa_array is not None and isinstance(values, (pa_array, pa_chunked)):
        return _map_arrow(op, values)
    if hasattr(values, "__arrow_c_array__") or hasattr(values, "__arrow_c_stream__"):
        return _map_capsule(op, values)
    try:
        iterator = iter(values)
    except TypeError:
        raise TypeError(
            "%s() expects an iterable of str or an Arrow array, not %.200s"
            % (op.name, type(values).__name__)
        ) from None
    return _map_list(op, list(iterator))


def _run(op, values, rejects):
    _check_on_error(op.name, op.on_error, rejects)
    if rejects is None:
        op.unrecorded()
    result = _dispatch(op, values)
    if rejects is not None and op.raw:
        _add_rejects(rejects, op.raw)
    return result


def _add_rejects(rejects, raw):
    """The Rejects the engine made (in C) or the holders (dictionaries,
    categories) to the caller's list, in row order."""
    raw.sort(key=_index)  # (in order already but for dictionaries and categories)
    if type(rejects) is list:
        rejects.extend(raw)
    else:
        for r in raw:
            rejects.append(r)


# ---------------------------------------------------------------- public API

def quote_many(values, safe="/", encoding=None, errors=None, *, threads=None, on_error="raise",
               rejects=None):
    """quote() over every value of a column.

    Parameters
    ----------
    values : iterable of str or None, Arrow array, pandas or polars Series
        The column.
    safe : str or bytes, optional
        Characters kept as they are besides the unreserved ones (``"/"``).
    encoding, errors : str or None, optional
        As for :func:`pctcodec.quote` (UTF-8 and "strict" by default).
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
        For a list or any other iterable of str or None (None stays None).
    pyarrow.Array or pyarrow.ChunkedArray
        For pyarrow input (and other Arrow producers):
        the same kind and string type, nulls kept.
    pandas.Series or polars.Series
        For a Series: the same index and name, the same dtype (category: each category done once).

    Raises
    ------
    TypeError
        A value that is not str or None (naming its index), or ``values``
        that is not a column (a single str, a whole DataFrame).
    UnicodeEncodeError
        A value ``encoding`` cannot encode (its ``index`` attribute names it).
    LookupError
        An unknown encoding, before any row runs.

    Examples
    --------
    >>> quote_many(["a b", None, "café"])
    ['a%20b', None, 'caf%C3%A9']
    """
    quote = _pctcodec.quote
    safe = _safe_bytes(safe)
    op = _Op("quote_many", lambda s: quote(s, safe, encoding, errors), threads, safe, encoding,
             errors, on_error=on_error)
    return _run(op, values, rejects)


def quote_plus_many(values, safe="", encoding=None, errors=None, *, threads=None,
                    on_error="raise", rejects=None):
    """quote_plus() over every value of a column: spaces become ``+``.

    Parameters
    ----------
    values : iterable of str or None, Arrow array, pandas or polars Series
        The column.
    safe : str or bytes, optional
        Characters kept as they are besides the unreserved ones (``""``).
    encoding, errors : str or None, optional
        As for :func:`pctcodec.quote_plus`.
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
        For a list or any other iterable of str or None (None stays None).
    pyarrow.Array or pyarrow.ChunkedArray
        For pyarrow input (and other Arrow producers):
        the same kind and string type, nulls kept.
    pandas.Series or polars.Series
        For a Series: the same index and name, the same dtype (category: each category done once).

    Raises
    ------
    TypeError
        A value that is not str or None (naming its index), or ``values``
        that is not a column (a single str, a whole DataFrame).
    UnicodeEncodeError
        A value ``encoding`` cannot encode (its ``index`` attribute names it).

    Examples
    --------
    >>> quote_plus_many(["a b&c"])
    ['a+b%26c']
    """
    quote_plus = _pctcodec.quote_plus
    safe = _safe_bytes(safe)
    op = _Op("quote_plus_many", lambda s: quote_plus(s, safe, encoding, errors), threads, safe,
             encoding, errors, on_error=on_error)
    return _run(op, values, rejects)


def unquote_many(values, encoding="utf-8", errors="replace", *, threads=None, on_error="raise",
                 rejects=None):
    """unquote() over every value of a column.

    Parameters
    ----------
    values : iterable of str or None, Arrow array, pandas or polars Series
        The column.
    encoding : str, optional
        The encoding of the escaped bytes (``"utf-8"``).
    errors : str, optional
        The decoding error handler (``"replace"``).
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
        For a list or any other iterable of str or None (None stays None).
    pyarrow.Array or pyarrow.ChunkedArray
        For pyarrow input (and other Arrow producers):
        the same kind and string type, nulls kept.
    pandas.Series or polars.Series
        For a Series: the same index and name, the same dtype (category: each category done once).

    Raises
    ------
    TypeError
        A value that is not str or None (naming its index), or ``values``
        that is not a column (a single str, a whole DataFrame).
    UnicodeDecodeError
        Escaped bytes that do not decode under ``errors="strict"``.

    Examples
    --------
    >>> unquote_many(["a%20b", None, "caf%C3%A9"])
    ['a b', None, 'café']
    """
    unquote = _pctcodec.unquote
    op = _Op("unquote_many", lambda s: unquote(s, encoding, errors), threads, None, encoding,
             errors, on_error=on_error)
    return _run(op, values, rejects)


def unquote_plus_many(values, encoding="utf-8", errors="replace", *, threads=None,
                      on_error="raise", rejects=None):
    """unquote_plus() over every value of a column: ``+`` is a space.

    Parameters
    ----------
    values : iterable of str or None, Arrow array, pandas or polars Series
        The column.
    encoding : str, optional
        The encoding of the escaped bytes (``"utf-8"``).
    errors : str, optional
        The decoding error handler (``"replace"``).
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
        For a list or any other iterable of str or None (None stays None).
    pyarrow.Array or pyarrow.ChunkedArray
        For pyarrow input (and other Arrow producers):
        the same kind and string type, nulls kept.
    pandas.Series or polars.Series
        For a Series: the same index and name, the same dtype (category: each category done once).

    Raises
    ------
    TypeError
        A value that is not str or None (naming its index), or ``values``
        that is not a column (a single str, a whole DataFrame).
    UnicodeDecodeError
        Escaped bytes that do not decode under ``errors="strict"``.

    Examples
    --------
    >>> unquote_plus_many(["a+b%2B"])
    ['a b+']
    """
    unquote_plus = _pctcodec.unquote_plus
    op = _Op("unquote_plus_many", lambda s: unquote_plus(s, encoding, errors), threads, None,
             encoding, errors, on_error=on_error)
    return _run(op, values, rejects)


def requote_many(values, *, threads=None, on_error="raise", rejects=None):
    """requote() over every value of a column: each URI repaired.

    Parameters
    ----------
    values : iterable of str or None, Arrow array, pandas or polars Series
        The column.
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
        For a list or any other iterable of str or None (None stays None).
    pyarrow.Array or pyarrow.ChunkedArray
        For pyarrow input (and other Arrow producers):
        the same kind and string type, nulls kept.
    pandas.Series or polars.Series
        For a Series: the same index and name, the same dtype (category: each category done once).

    Raises
    ------
    TypeError
        A value that is not str or None (naming its index), or ``values``
        that is not a column (a single str, a whole DataFrame).
    PercentEncodingError
        A value with a lone surrogate.

    Examples
    --------
    >>> requote_many(["http://h/a b/100%"])
    ['http://h/a%20b/100%25']
    """
    op = _Op("requote_many", _pctcodec.requote, threads, on_error=on_error)
    return _run(op, values, rejects)


def normalize_many(values, *, sort_query=False, drop_fragment=False, strict_idna=False,
                   strip_whitespace=True, threads=None, on_error="raise", rejects=None):
    """normalize() over every value of a column.

    Parameters
    ----------
    values : iterable of str or None, Arrow array, pandas or polars Series
        The column.
    sort_query : bool, optional
        Sort the query's parameters.
    drop_fragment : bool, optional
        Remove the fragment.
    strict_idna : bool, optional
        A host with no ASCII form is an error instead of being written
        percent-encoded.
    strip_whitespace : bool, optional
        Strip leading and trailing C0 controls and spaces and remove ASCII
        tabs and newlines first, as the URL Standard's parser does (False:
        they are escaped as data).
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
        For a list or any other iterable of str or None (None stays None).
    pyarrow.Array or pyarrow.ChunkedArray
        For pyarrow input (and other Arrow producers):
        the same kind and string type, nulls kept.
    pandas.Series or polars.Series
        For a Series: the same index and name, the same dtype (category: each category done once).

    Raises
    ------
    TypeError
        A value that is not str or None (naming its index), or ``values``
        that is not a column (a single str, a whole DataFrame).
    PercentEncodingError
        A value with a lone surrogate, or (``strict_idna``) a host that IDNA
        rejects.

    Examples
    --------
    >>> normalize_many(["HTTP://Example.COM:80/./a/%7e", None])
    ['http://example.com/a/~', None]
    """
    normalize = _pctcodec.normalize
    sort_query = bool(sort_query)
    drop_fragment = bool(drop_fragment)
    strict_idna = bool(strict_idna)
    strip_whitespace = bool(strip_whitespace)
    # The C engine maps hosts itself; under strict_idna a host with no form
    # goes through this function, which raises normalize's error.
    op = _Op(
        "normalize_many",
        lambda s: normalize(s, sort_query=sort_query, drop_fragment=drop_fragment,
                            strict_idna=strict_idna, strip_whitespace=strip_whitespace),
        threads,
        # a row with whitespace to strip goes to this function (it is rare)
        opts=sort_query | drop_fragment << 1 | strip_whitespace << 2 | strict_idna << 7,
        on_error=on_error,
    )
    return _run(op, values, rejects)


def check_many(values, *, threads=None, on_error="raise", rejects=None):
    """The position of check()'s first offence per value, or None when valid.

    Parameters
    ----------
    values : iterable of str or None, Arrow array, pandas or polars Series
        The column.
    threads : int or None, optional
        Threads for Arrow input (1 to 1024); None: one per usable core, each
        with at least 16384 rows. Lists run on the calling thread.
    on_error : {"raise", "null"}, optional
        What a row that cannot be checked (a value that is not str or None)
        gives: the error (raised, naming the row's index) or None. "keep" is
        a ValueError: the result is a position, not a value.
    rejects : list or None, optional
        Gets a ``Reject(index, value, error)`` per failed row, in row order.

    Returns
    -------
    list of int or None
        For a list or any other iterable of str or None (None stays None).
    pyarrow.Array or pyarrow.ChunkedArray
        For pyarrow input (and other Arrow producers):
        an ``int64`` array, null where the value is valid or null.
    pandas.Series or polars.Series
        For a Series: the same index and name, dtype ``Int64``.

    Raises
    ------
    TypeError
        A value that is not str or None (naming its index), or ``values``
        that is not a column (a single str, a whole DataFrame).

    Examples
    --------
    >>> check_many(["ok", "bad%zz", None])
    [None, 3, None]
    """
    op = _Op("check_many", _check_position, threads, on_error=on_error)
    return _run(op, values, rejects)

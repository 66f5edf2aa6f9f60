"""pctcodec's functions as DuckDB SQL functions: ``register(con)``, then
``SELECT pct_normalize(url), pct_quote(q, '') FROM t``.

Every batch function of ``pctcodec`` (read from the function itself by
``pctcodec.integrations._functions``) becomes a SQL macro ``pct_NAME(url,
option...)``: the column, then the function's options in its order, each
one positional or named (``pct_normalize(url, sort_query := true)``), an
omitted or NULL option taking the function's default (``on_error``:
``register``'s). ``threads`` and ``rejects`` are ``register``'s (the rows
DuckDB hands over come in chunks of 2048; a ``Reject`` has no row number,
``index`` None). An option that changes the output's type (``query_params``'
``all``) is a function of its own, ``pct_query_params_all``; a record whose
fields are named by an option (``query_params``' names) is a MAP.

Under the macro, one Arrow function per number of leading options given:
an omitted option is not handed over as a column of NULLs (DuckDB folds the
macro's CASE on constants), which is most of the cost of a call on short
strings. See docs/integrations.md.
"""
import inspect
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

from ._functions import FUNCTIONS, REQUIRED, Function, Option, arrow_array, check_policy, missing, \
    output_type, with_message

try:
    import duckdb  # noqa: F401  (the connection's module)
    import numpy as np
    import pyarrow as pa
    import pyarrow.compute as pc
except ImportError as _exc:  # the engine is an optional dependency
    raise missing("duckdb", _exc) from _exc

__all__ = ["register", "FUNCTION_NAMES", "REGISTER_OPTIONS"]

# The options that are register()'s, not SQL arguments.
REGISTER_OPTIONS = ("threads", "rejects")

# The SQL type of each kind of option.
_SQL_TYPES = {"bool": "BOOLEAN", "str": "VARCHAR", "strings": "VARCHAR[]", "int": "BIGINT",
              "object": "VARCHAR", "column": "VARCHAR"}

# Probe values of required options: two that differ (a record whose field
# names follow them is a MAP in SQL).
_SAMPLES = {"str": ("a", "b"), "strings": (["a"], ["b"]), "object": ("a", "b"), "bool": (False, True),
            "int": (1, 2), "column": (None, None)}


def _offsets(values: Any) -> Any:
    """The n + 1 offsets of a string or list array, as numpy reads its buffer."""
    large = pa.types.is_large_string(values.type) or pa.types.is_large_list(values.type)
    offsets = np.frombuffer(values.buffers()[1], dtype=np.int64 if large else np.int32)
    return offsets[values.offset:values.offset + len(values) + 1]


def _repeated(offsets: Any, data: Any = None) -> bool:
    """Whether n rows of items (bytes of ``data``, or child entries) given by
    their n + 1 offsets are n copies of the first row."""
    n = len(offsets) - 1
    start, width = int(offsets[0]), int(offsets[1]) - int(offsets[0])
    if int(offsets[-1]) - start != width * n or (width and not (np.diff(offsets) == width).all()):
        return False
    if data is None or not width:
        return True
    rows = np.frombuffer(data, dtype=np.uint8)[start:start + width * n].reshape(n, width)
    return bool((rows == rows[0]).all())


def _constant(values: Any) -> Tuple[bool, Any]:
    """Whether every row of an option's column holds one value, and that
    value (a literal in the query comes as a column of copies): read from
    the Arrow buffers, as this runs once per chunk of 2048 rows."""
    n = len(values)
    if n == 0 or values.null_count == n:
        return True, None
    if values.null_count:
        return False, None
    typ = values.type
    if pa.types.is_boolean(typ):
        same = values.true_count in (0, n)
    elif pa.types.is_integer(typ):
        bounds = pc.min_max(values)
        same = bounds["min"].as_py() == bounds["max"].as_py()
    elif pa.types.is_string(typ) or pa.types.is_large_string(typ):
        same = _repeated(_offsets(values), values.buffers()[2])
    elif (pa.types.is_list(typ) or pa.types.is_large_list(typ)) and (
            pa.types.is_string(typ.value_type) or pa.types.is_large_string(typ.value_type)):
        # a list of patterns: as many patterns per row, then the same
        # pattern lengths and bytes in each row
        rows = _offsets(values)
        child = values.values
        same = not child.null_count and _repeated(rows)
        if same and int(rows[1]) > int(rows[0]):
            width = int(rows[1]) - int(rows[0])
            entries = _offsets(child)[int(rows[0]):int(rows[-1]) + 1]
            lengths = np.diff(entries).reshape(n, width)
            same = bool((lengths == lengths[0]).all()) and _repeated(entries[::width], child.buffers()[2])
    else:
        same = False
    return (True, values[0].as_py()) if same else (False, None)


def _value(option: Option, value: Any, defaults: Dict[str, Any]) -> Any:
    """An option's value in a row as the batch function takes it: NULL is
    the default (None for a required option); a list of patterns a tuple."""
    if value is None:
        return None if option.default is REQUIRED else defaults[option.name]
    return tuple(value) if isinstance(value, list) else value


def _array(values: Any) -> Any:
    return arrow_array(pa, values)


def _sql_type(typ: Any, as_map: bool = False) -> str:
    """The DuckDB type of an Arrow type (a struct as a MAP of its fields)."""
    if pa.types.is_string(typ) or pa.types.is_large_string(typ) or (
            hasattr(pa.types, "is_string_view") and pa.types.is_string_view(typ)):
        return "VARCHAR"
    if pa.types.is_int64(typ):
        return "BIGINT"
    if pa.types.is_integer(typ):
        return "INTEGER"
    if pa.types.is_boolean(typ):
        return "BOOLEAN"
    if pa.types.is_struct(typ):
        if as_map:
            return "MAP(VARCHAR, %s)" % _sql_type(typ.field(0).type)
        return "STRUCT(%s)" % ", ".join('"%s" %s' % (f.name.replace('"', '""'), _sql_type(f.type)) for f in typ)
    if pa.types.is_list(typ) or pa.types.is_large_list(typ):
        return _sql_type(typ.value_type) + "[]"
    raise TypeError("no DuckDB type for the Arrow type %s" % typ)


def _as_map(values: Any) -> Any:
    """A StructArray as a MapArray of its fields (null rows null)."""
    n, k = len(values), values.type.num_fields
    keys = pa.array([f.name for f in values.type] * n, type=pa.string())
    fields = pa.concat_arrays([values.field(i) for i in range(k)])
    items = fields.take(pa.array(np.arange(n * k).reshape(k, n).T.ravel()))
    offsets = pa.array(np.arange(0, n * k + 1, k, dtype=np.int32))
    mask = values.is_null() if values.null_count else None
    return pa.MapArray.from_arrays(offsets, keys, items, mask=mask)


class SqlFunction:
    """One SQL function of a batch function: its name, the options that are
    its SQL arguments, the options fixed for it (``all=True`` for
    ``pct_query_params_all``), its Arrow output type and SQL type."""

    def __init__(self, function: Function, name: str, fixed: Dict[str, Any]) -> None:
        self.function = function
        self.name = name
        self.fixed = fixed
        self.options = [o for o in function.options if o.name not in REGISTER_OPTIONS and o.name not in fixed]
        required = [o for o in self.options if o.default is REQUIRED]
        first = {o.name: _SAMPLES[o.kind][0] for o in required}
        second = {o.name: _SAMPLES[o.kind][1] for o in required}
        self.arrow_type = output_type(function, dict(fixed, **first))
        other = output_type(function, dict(fixed, **second))
        # a record whose fields are named by an option
        self.as_map = pa.types.is_struct(self.arrow_type) and self.arrow_type != other
        self.sql_type = _sql_type(self.arrow_type, self.as_map)


def sql_functions(function: Function, prefix: str = "pct_") -> List[SqlFunction]:
    """The SQL functions of one batch function: ``prefix + name``, and one
    more per boolean option whose True changes the output's type (that
    option is then no argument of the first: ``pct_query_params_all``)."""
    main = SqlFunction(function, prefix + function.name, {})
    variants = []
    for option in main.options:
        if option.kind == "bool" and option.default is False:
            variant = SqlFunction(function, "%s%s_%s" % (prefix, function.name, option.name), {option.name: True})
            if variant.arrow_type != main.arrow_type:
                variants.append(variant)
    if variants:
        main = SqlFunction(function, main.name, {v.name[len(main.name) + 1:]: False for v in variants})
    return [main] + variants


FUNCTION_NAMES = tuple(sql.name for f in FUNCTIONS for sql in sql_functions(f))


def _vectorized(sql: SqlFunction, given_options: Sequence[Option], policy: Dict[str, Any]) -> Callable[..., Any]:
    """The Arrow function DuckDB calls with the column and the columns of
    the first options (each a ChunkedArray of one chunk of rows)."""
    function = sql.function
    opts = list(given_options)
    out_type = pa.map_(pa.string(), sql.arrow_type.field(0).type) if sql.as_map else sql.arrow_type
    defaults = {o.name: o.default for o in function.options}
    defaults["on_error"] = policy["on_error"]
    rejects = policy["rejects"]

    def run(column: Any, given: Sequence[Any]) -> Any:
        kwargs = dict(sql.fixed, threads=policy["threads"], on_error=policy["on_error"])
        for option, value in zip(opts, given):
            if option.default is REQUIRED and value is None:
                return pa.nulls(len(column), type=out_type)  # a NULL required option: NULL rows
            kwargs[option.name] = value
        kwargs[function.column] = column
        failed: Optional[List[Any]] = [] if rejects is not None else None
        kwargs["rejects"] = failed
        try:
            out = function.batch(**kwargs)
        except Exception as exc:
            # DuckDB's rows come in chunks with no row number: the value names the row
            index = getattr(exc, "index", None)
            where = "the value %r" % (column[index].as_py(),) if isinstance(index, int) and \
                0 <= index < len(column) else None
            raise with_message(exc, where) from exc
        if failed:
            rejects.extend(r._replace(index=None) for r in failed)
        return _as_map(out) if sql.as_map else out

    def by_row(column: Any, columns: Sequence[Any]) -> Any:
        # Options that change from row to row: the rows of each distinct set
        # of options in one batch call, put back in row order (an option of
        # kind "column" is taken along, row by row).
        # A NULL in a column option is its default too (no base): its rows
        # go with None.
        rows: Dict[Tuple[Any, ...], List[int]] = {}
        values = [[_value(o, v, defaults) for v in c.to_pylist()] for o, c in zip(opts, columns)
                  if o.kind != "column"]
        nulls = [c.is_null().to_pylist() for o, c in zip(opts, columns) if o.kind == "column"]
        keys = list(zip(*(values + nulls))) if values or nulls else [()] * len(column)
        for i, key in enumerate(keys):
            rows.setdefault(key, []).append(i)
        pieces, order = [], []
        for key, index in rows.items():
            take = pa.array(index, type=pa.int64())
            constants, missing = iter(key[:len(values)]), iter(key[len(values):])
            given = [(None if next(missing) else c.take(take)) if o.kind == "column" else next(constants)
                     for o, c in zip(opts, columns)]
            pieces.append(run(column.take(take), given).cast(out_type))
            order.extend(index)
        return pa.concat_arrays(pieces).take(pc.sort_indices(pa.array(order, type=pa.int64())))

    def vectorized(column: Any, *columns: Any) -> Any:
        column = _array(column)
        columns = tuple(map(_array, columns))
        constants: List[Any] = []
        for option, values in zip(opts, columns):
            if option.kind == "column":
                if values.null_count == len(values):
                    constants.append(None)  # NULL: the default, no base
                elif values.null_count:
                    return by_row(column, columns)
                else:
                    constants.append(values)
                continue
            same, value = _constant(values)
            if not same:
                return by_row(column, columns)
            constants.append(_value(option, value, defaults))
        return run(column, constants)

    # DuckDB counts the parameters of the function it is given.
    params = [inspect.Parameter(n, inspect.Parameter.POSITIONAL_ONLY)
              for n in ["column"] + [o.name for o in opts]]
    vectorized.__signature__ = inspect.Signature(params)  # type: ignore[attr-defined]
    return vectorized


def _macro(sql: SqlFunction, impls: List[str]) -> str:
    """The macro of one SQL function: the column, then every option (the
    required ones positional, the others with a NULL default, positional or
    named), calling the Arrow function of the fewest leading options given
    (``impls[k]`` takes the first ``first + k`` options)."""
    opts = sql.options
    first = sum(1 for o in opts if o.default is REQUIRED)
    # quoted: an option may be a keyword of SQL (all)
    names = ['"%s"' % o.name for o in opts]
    params = ["url"] + [n if o.default is REQUIRED else "%s := NULL::%s" % (n, _SQL_TYPES[o.kind])
                        for n, o in zip(names, opts)]
    branches = []
    for k, impl in enumerate(impls):
        call = "%s(%s)" % (impl, ", ".join(["url"] + names[:first + k]))
        rest = names[first + k:]
        if not rest:
            branches.append("ELSE %s" % call)
        else:
            branches.append("WHEN %s THEN %s" % (" AND ".join("%s IS NULL" % n for n in rest), call))
    body = branches[0][len("ELSE "):] if len(branches) == 1 else "CASE %s END" % " ".join(branches)
    return "CREATE OR REPLACE TEMP MACRO %s(%s) AS %s" % (sql.name, ", ".join(params), body)


def register(con: Any, *, prefix: str = "pct_", on_error: str = "raise", threads: Any = 1,
             rejects: Any = None) -> Any:
    """Register every batch function of pctcodec on a DuckDB connection.

    Parameters
    ----------
    con : duckdb.DuckDBPyConnection
        The connection (its functions and macros are its own).
    prefix : str
        The start of each SQL name: ``pct_quote``, ``pct_normalize`` ...
    on_error : {"raise", "null", "keep"}
        What a row that fails gives when a call does not say (its
        ``on_error`` argument): the query fails with the row's error
        ("raise", the message naming the value), the row is NULL ("null")
        or the row's input ("keep").
    threads : int or None
        The batch functions' ``threads`` for each chunk of rows: 1, as
        DuckDB's own threads run chunks in parallel already (and a chunk
        of 2048 rows is below the rows a thread of the engine takes).
    rejects : list or None
        Gets a ``Reject(None, value, error)`` per failed row of every call
        (DuckDB hands over rows with no row number: ``index`` is None).

    Returns
    -------
    duckdb.DuckDBPyConnection
        ``con``, to chain calls.

    Raises
    ------
    ValueError
        An unknown ``on_error``, or ``threads`` out of range.

    Examples
    --------
    >>> import duckdb
    >>> from pctcodec.integrations.duckdb import register
    >>> con = register(duckdb.connect())
    >>> con.execute("SELECT pct_quote('a b/c', '')").fetchall()
    [('a%20b%2Fc',)]
    >>> con.execute("SELECT pct_normalize('HTTP://A.com/?b=1&a=2', sort_query := true)").fetchall()
    [('http://a.com/?a=2&b=1',)]
    """
    check_policy(threads, on_error)  # argument errors now, not in a query
    if rejects is not None and not callable(getattr(rejects, "append", None)):
        raise TypeError("rejects must be a list, not %.200s" % type(rejects).__name__)
    policy = {"on_error": on_error, "threads": threads, "rejects": rejects}
    existing = {row[0] for row in con.execute(
        "SELECT function_name FROM duckdb_functions() WHERE starts_with(function_name, ?)", ["_" + prefix]).fetchall()}
    for function in FUNCTIONS:
        for sql in sql_functions(function, prefix):
            first = sum(1 for o in sql.options if o.default is REQUIRED)
            impls = []
            for k in range(first, len(sql.options) + 1):
                impl = "_%s_%d" % (sql.name, k)
                if impl in existing:
                    con.remove_function(impl)  # registered before: replaced
                opts = sql.options[:k]
                # with rejects, a call has an effect: DuckDB must not run it
                # once more to fold a constant
                con.create_function(impl, _vectorized(sql, opts, policy),
                                    ["VARCHAR"] + [_SQL_TYPES[o.kind] for o in opts], sql.sql_type,
                                    type="arrow", null_handling="special", side_effects=rejects is not None)
                impls.append(impl)
            con.execute(_macro(sql, impls))
    return con

"""pctcodec's functions as DuckDB SQL functions: ``register(con)``, then
``SELECT pct_normalize(url), pct_quote(q, '') FROM t``.

Each function of the table in ``pctcodec.integrations._functions`` becomes a
vectorized Python function on Arrow data (DuckDB hands over each chunk of
rows as Arrow arrays, the batch function runs on them in C) and a macro of
the public name with one overload per number of options, so that the
trailing options may be left out. See docs/integrations.md.
"""
import inspect
from typing import Any, Callable, Dict, List, Sequence, Tuple

import duckdb
import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from ._functions import FUNCTIONS, OUTPUTS, REQUIRED, Function, Option, check_policy, with_message

__all__ = ["register", "FUNCTION_NAMES"]

# The SQL type of each kind of option.
_SQL_TYPES = {"str": "VARCHAR", "bool": "BOOLEAN", "patterns": "VARCHAR[]", "column": "VARCHAR"}

FUNCTION_NAMES = tuple(f.name for f in FUNCTIONS)


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


def _value(option: Option, value: Any) -> Any:
    """An option's value in a row as the batch function takes it: NULL is
    the default (None for a required option); a list of patterns a tuple."""
    if value is None:
        return None if option.default is REQUIRED else option.default
    return tuple(value) if isinstance(value, list) else value


def _array(values: Any) -> Any:
    """One Array of a ChunkedArray (DuckDB gives one chunk)."""
    if isinstance(values, pa.ChunkedArray):
        return values.chunk(0) if values.num_chunks == 1 else values.combine_chunks()
    return values


def _vectorized(function: Function, policy: Dict[str, Any]) -> Callable[..., Any]:
    """The Arrow function DuckDB calls with the column and the options'
    columns (each a ChunkedArray of one chunk of rows)."""
    opts = function.options
    out_type = getattr(pa, OUTPUTS[function.output]["arrow"])()

    def run(column: Any, given: Sequence[Any]) -> Any:
        kwargs = dict(policy)
        for option, value in zip(opts, given):
            if option.default is REQUIRED and value is None:
                return pa.nulls(len(column), type=out_type)  # a NULL required option: NULL rows
            kwargs[option.name] = value
        return function.batch(column, **kwargs)

    def by_row(column: Any, columns: Sequence[Any]) -> Any:
        # Options that change from row to row: the rows of each distinct set
        # of options in one batch call, put back in row order (an option of
        # kind "column" is taken along, row by row).
        rows: Dict[Tuple[Any, ...], List[int]] = {}
        values = [[_value(o, v) for v in c.to_pylist()] for o, c in zip(opts, columns) if o.kind != "column"]
        for i, key in enumerate(zip(*values) if values else [()] * len(column)):
            rows.setdefault(key, []).append(i)
        pieces, order = [], []
        for key, index in rows.items():
            take = pa.array(index, type=pa.int64())
            constants = iter(key)
            given = [c.take(take) if o.kind == "column" else next(constants) for o, c in zip(opts, columns)]
            pieces.append(run(column.take(take), given).cast(out_type))
            order.extend(index)
        return pa.concat_arrays(pieces).take(pc.sort_indices(pa.array(order, type=pa.int64())))

    def chunk(column: Any, *columns: Any) -> Any:
        column = _array(column)
        columns = tuple(map(_array, columns))
        constants: List[Any] = []
        for option, values in zip(opts, columns):
            if option.kind == "column":
                constants.append(values)
                continue
            same, value = _constant(values)
            if not same:
                return by_row(column, columns)
            constants.append(_value(option, value))
        return run(column, constants)

    def vectorized(column: Any, *columns: Any) -> Any:
        try:
            return chunk(column, *columns)
        except Exception as exc:
            raise with_message(exc) from exc

    # DuckDB counts the parameters of the function it is given.
    params = [inspect.Parameter(n, inspect.Parameter.POSITIONAL_ONLY)
              for n in ["column"] + [o.name for o in opts]]
    vectorized.__signature__ = inspect.Signature(params)  # type: ignore[attr-defined]
    return vectorized


def _literal(option: Option) -> str:
    """The SQL value an omitted option takes: NULL, read as its default."""
    return "NULL::%s" % _SQL_TYPES[option.kind]


def register(con: Any, *, prefix: str = "pct_", on_error: str = "raise", threads: Any = 1) -> Any:
    """Register every function of pctcodec's table on a DuckDB connection.

    Parameters
    ----------
    con : duckdb.DuckDBPyConnection
        The connection (its functions and macros are its own).
    prefix : str
        The start of each SQL name: ``pct_quote``, ``pct_normalize`` ...
    on_error : {"raise", "null", "keep"}
        What a row that fails gives, as the batch functions' ``on_error``:
        the query fails with the row's error ("raise"), the row is NULL
        ("null") or the row's input ("keep").
    threads : int or None
        The batch functions' ``threads`` for each chunk of rows: 1, as
        DuckDB's own threads run chunks in parallel already (and a chunk
        of 2048 rows is below the rows a thread of the engine takes).

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
    """
    policy = {"on_error": on_error, "threads": threads}
    check_policy(threads, on_error)  # argument errors now, not in a query
    for function in FUNCTIONS:
        name = prefix + function.name
        impl = "_" + name
        params = ["VARCHAR"] + [_SQL_TYPES[o.kind] for o in function.options]
        if con.execute("SELECT count(*) FROM duckdb_functions() WHERE function_name = ?",
                       [impl]).fetchall()[0][0]:
            con.remove_function(impl)  # registered before: replaced
        con.create_function(impl, _vectorized(function, policy), params,
                            OUTPUTS[function.output]["sql"], type="arrow",
                            null_handling="special")
        args = ["url"] + ["o%d" % i for i in range(len(function.options))]
        first = sum(1 for o in function.options if o.default is REQUIRED)
        overloads = []
        for given in range(first, len(function.options) + 1):
            call = args[:1 + given] + [_literal(o) for o in function.options[given:]]
            overloads.append("(%s) AS %s(%s)" % (", ".join(args[:1 + given]), impl, ", ".join(call)))
        con.execute("CREATE OR REPLACE TEMP MACRO %s %s" % (name, ", ".join(overloads)))
    return con

"""pctcodec's functions as Spark Column functions:
``from pctcodec.integrations.spark import normalize; df.select(normalize("url"))``.

Every batch function of ``pctcodec`` (read from the function itself by
``pctcodec.integrations._functions``) is a function of this module named as
it without ``_many``, with its signature: the column (a name or a
``Column``), then the batch function's options. A second column
(``resolve``'s ``base``) is a Column (``F.col("base")``) or one str for
every row. The output type is declared from the options (a StructType for a
record per row, one field per name for ``query_params``; an ArrayType for
``parse_query``). It runs on the executors as a vectorized UDF: an Arrow
UDF (``arrow_udf``, Spark 4.1 and later: the batch function reads the Arrow
batch in place), a pandas UDF before. Spark, pyarrow and pctcodec must be
installed where the executors run.

``rejects`` cannot come back from the executors: it must be None (use
``on_error="null"`` and keep the rows whose output is null and input is not).
See docs/integrations.md.
"""
from typing import Any, Callable, Dict, List

from ._functions import FUNCTIONS, Function, describe, missing, output_type

try:
    from pyspark.sql import Column, functions as F
except ImportError as _exc:  # the engine is an optional dependency
    raise missing("spark", _exc) from _exc

# arrow_udf came with Spark 4.1; before it, a pandas UDF does the same.
ARROW_UDF = hasattr(F, "arrow_udf")

# The Column functions are made from FUNCTIONS (one per batch function,
# named as it without "_many"); __all__ lists them.
__all__ = ["ARROW_UDF"] + [f.name for f in FUNCTIONS]


def _spark_type(typ: Any) -> Any:
    """The Spark type of an Arrow type."""
    from pyspark.sql.pandas.types import from_arrow_type

    return from_arrow_type(typ)


def _udf(function: Function, kwargs: Dict[str, Any], columns: List[str], typ: Any) -> Callable[..., Column]:
    """The vectorized UDF of one call: the batch function with ``kwargs``
    bound; the options in ``columns`` come as further columns."""
    import inspect

    arrow = ARROW_UDF  # read here: the executors import this module anew

    def run(values: Any, *others: Any) -> Any:
        import pyarrow as pa

        if not arrow:  # a pandas UDF: the columns to Arrow, the result back to pandas
            values = pa.array(values, from_pandas=True, type=pa.large_string())
            others = tuple(pa.array(v, from_pandas=True, type=pa.large_string()) for v in others)
        given = dict(kwargs, **dict(zip(columns, others)))
        given[function.column] = values
        out = function.batch(**given)
        if arrow:
            return out
        # a record per row as a DataFrame (what Spark takes for a StructType), nulls as None
        if pa.types.is_struct(out.type):
            return pa.Table.from_batches([pa.RecordBatch.from_struct_array(out)]).to_pandas()
        return out.to_pandas()

    # Spark reads the kind of UDF from the type hints.
    if arrow:
        import pyarrow

        vector: Any = pyarrow.Array
    else:
        import pandas

        vector = pandas.Series
    params = [inspect.Parameter(name, inspect.Parameter.POSITIONAL_OR_KEYWORD, annotation=vector)
              for name in ["values"] + columns]
    run.__signature__ = inspect.Signature(params, return_annotation=vector)  # type: ignore[attr-defined]
    run.__annotations__ = {p.name: vector for p in params}
    run.__annotations__["return"] = vector
    run.__name__ = function.name
    make = getattr(F, "arrow_udf" if arrow else "pandas_udf")
    return make(run, _spark_type(typ))  # type: ignore[no-any-return]


def _column_function(function: Function) -> Callable[..., Column]:
    kinds = {o.name: o.kind for o in function.options}
    sig = function.signature

    def column_function(*args: Any, **given: Any) -> Column:
        bound = sig.bind(*args, **given)
        kwargs = dict(bound.arguments)
        col = kwargs.pop(function.column)
        if kwargs.get("rejects") is not None:
            raise TypeError("%s(): rejects cannot come back from Spark's executors; use "
                            "on_error='null' and keep the rows whose output is null" % function.name)
        kwargs.pop("rejects", None)
        # an option of kind "column" given as a str is one value for every row,
        # and None is its default (no second column)
        columns = [name for name in kwargs if kinds.get(name) == "column" and kwargs[name] is not None
                   and not isinstance(kwargs[name], str)]
        others = [kwargs.pop(name) for name in columns]
        typ = output_type(function, dict(kwargs, **{name: None for name in columns}))
        return _udf(function, kwargs, columns, typ)(col, *others)

    column_function.__name__ = column_function.__qualname__ = function.name
    column_function.__module__ = __name__
    column_function.__doc__ = describe(function, "a Spark column (a name or a Column)")
    column_function.__signature__ = sig  # type: ignore[attr-defined]
    return column_function


for _function in FUNCTIONS:
    globals()[_function.name] = _column_function(_function)
